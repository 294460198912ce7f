//! The command line: the interface teachers' scripts rely on (DESIGN.md).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::scenario::Lang;

#[derive(Debug, Parser)]
#[command(
    name = "agent-loop-sim",
    version,
    about = "Step through an LLM agent loop: Model, Host and Tool lanes, the exact context, call_id pairing",
    after_help = "Without a command, opens the interactive simulator on the default scenario."
)]
pub struct Cli {
    /// Scenario to open: a shipped name (see `list`) or a JSON file.
    #[arg(long, value_name = "NAME|FILE", global = true)]
    pub scenario: Option<String>,

    /// A transcript of a real run to open instead of a scenario: OpenAI Chat
    /// Completions or Responses, Anthropic Messages, a Codex CLI rollout, a
    /// Claude Code or Gemini CLI session, a SWE-agent or mini-swe-agent
    /// trajectory, OpenTelemetry GenAI spans (OTLP or SDK JSON) or a tap
    /// recording (detected from the content; FILE#N picks run N of a file
    /// that holds several).
    #[arg(long, value_name = "FILE", global = true, conflicts_with = "scenario")]
    pub transcript: Option<String>,

    /// Read the transcript as this format instead of detecting it.
    #[arg(long, value_enum, value_name = "FORMAT", global = true)]
    pub transcript_format: Option<crate::transcript::Format>,

    /// Mask likely secrets in the transcript (API keys, tokens, bearer
    /// headers, private keys, emails) on screen and in every export.
    #[arg(long, global = true)]
    pub redact: bool,

    /// Show the lesson as this provider's API receives it: OpenAI Chat
    /// Completions, OpenAI Responses or Anthropic Messages (request bodies,
    /// ids, how results and errors are carried). Default: the lesson's own.
    #[arg(
        long,
        value_enum,
        value_name = "PROVIDER",
        global = true,
        conflicts_with = "transcript"
    )]
    pub provider: Option<crate::wire::Provider>,

    /// Language of the screen.
    #[arg(long, value_enum, default_value_t = Lang::Zh, global = true)]
    pub lang: Lang,

    /// Colour theme (light is made for paper and bright projectors).
    /// Default: dark, except light for a quiz handout in PDF (`export
    /// --format pdf --quiz`), which is printed.
    #[arg(long, value_enum, global = true)]
    pub theme: Option<ThemeArg>,

    /// Predict, then reveal: before each step, a question about it with
    /// numbered choices, answered with the digit keys (key p turns it on and off).
    /// With `transcript`: each question and its answer in the text; with
    /// `export`: a printable handout (txt, html, or pdf after the frames).
    #[arg(long, global = true)]
    pub quiz: bool,
    /// With --quiz: ask only before these steps, in place of the lesson's
    /// own choice (`quiz_steps`): step numbers or the lesson's step keys,
    /// e.g. `--quiz-steps 7,9` or `--quiz-steps reply.2,end`.
    #[arg(long, value_name = "STEPS", value_delimiter = ',', global = true)]
    pub quiz_steps: Option<Vec<String>>,
    /// The whole class answers: a web server for the room, its QR code
    /// on screen (key i); each question goes to the phones, key r reveals
    /// their split, key v opens a second vote after discussion. Turns
    /// --quiz on.
    #[arg(long)]
    pub class: bool,
    /// With --class: where the room's server listens, HOST:PORT, an IP
    /// address or a port (default 0.0.0.0:8737; the phones are given this
    /// machine's LAN address).
    #[arg(long, value_name = "ADDR")]
    pub class_addr: Option<String>,
    /// With --class: write each question's counts per round to FILE when
    /// a question is revealed and at the end (.csv or .json; counts only).
    #[arg(long, value_name = "FILE")]
    pub class_results: Option<std::path::PathBuf>,
    /// Today's lessons, in order: a shipped name or a scenario file, offered
    /// in the interactive simulator's lesson picker (key o; a file after
    /// the shipped ones) and repeated for more. The first opens (unless
    /// --scenario names another, which then comes first), and the last
    /// step of each offers the next (→). A file that cannot be used shows
    /// its error in the picker.
    #[arg(long = "lesson", value_name = "NAME|FILE")]
    pub lessons: Vec<String>,
    /// Today's lessons from a file, in its order, as --lesson gives them
    /// (before any --lesson): one a line, a shipped name or a scenario file
    /// (relative to the plan file); `#` starts a comment.
    #[arg(long, value_name = "FILE")]
    pub plan: Option<std::path::PathBuf>,
    /// Another run to show beside this one, stepped together: a shipped
    /// name or a scenario file (e.g. a harness mistake and its correct twin).
    #[arg(
        long,
        value_name = "NAME|FILE",
        global = true,
        conflicts_with = "transcript"
    )]
    pub compare: Option<String>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the scenarios that ship with the simulator.
    List,
    /// Validate scenario files: run each one and report clear errors.
    Check {
        /// Scenario files (or shipped names) to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// Print the engine's trace of a scenario (or of a transcript, with
    /// --transcript FILE) as JSON, with a summary first.
    Trace {
        /// A shipped name or a scenario file.
        // Not `required_unless_present`: clap does not see a global option
        // given before the subcommand (clap-rs/clap#1546); `batch` asks.
        #[arg(value_name = "NAME|FILE")]
        target: Option<String>,
        /// Write every message of every model call's context, not only the
        /// new ones (the output then grows with the square of the run).
        #[arg(long)]
        full_context: bool,
    },
    /// Print the whole run as plain text in reading order (for screen
    /// readers, alt text and grep): each step, who acts, the context sent,
    /// the calls and their results, the explanation. No box drawing.
    Transcript {
        /// A shipped name or a scenario file (or --transcript FILE).
        #[arg(value_name = "NAME|FILE")]
        target: Option<String>,
        /// Write every message of every model call's context, not only the
        /// new ones (the output then grows with the square of the run).
        #[arg(long)]
        full_context: bool,
    },
    /// Export every frame as a figure: svg, png, txt, ansi, or one
    /// asciicast, HTML player, GIF or PDF handout (a step a page; with
    /// --quiz its questions and answer key after them). Existing files of the same name are
    /// replaced; names carry every setting not at its default.
    Export {
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Folder to write into (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Frame size in cells, WIDTHxHEIGHT.
        #[arg(long, default_value = "120x40", value_parser = parse_size)]
        size: (u16, u16),
        /// Only these steps, e.g. 3 or 2-5.
        #[arg(long, value_name = "A-B", value_parser = parse_steps)]
        steps: Option<(usize, usize)>,
        /// Seconds each step stays on screen when played (cast, html, gif, mp4, webm).
        #[arg(long, value_name = "SECONDS", default_value = "2.0", value_parser = parse_dwell)]
        dwell: f64,
        /// The lesson alone: no status line, focus marks or hint of any key.
        #[arg(long)]
        bare: bool,
        /// Keep the key hints the terminal shows (footer, "scroll ↑", "Tab"):
        /// without it a still figure or a cast names no key.
        #[arg(long, conflicts_with = "bare")]
        keys: bool,
        /// One panel at the full size of the figure.
        #[arg(long, value_enum, value_name = "PANEL")]
        panel: Option<PanelArg>,
        /// Below 100x30, where one panel shares the place under the lanes:
        /// show this one on every figure. By default each step shows the one
        /// it is about: the context at a model call, the pairing table where
        /// a call is proposed, run or answered, else the explanation.
        #[arg(long, value_enum, value_name = "PANEL", conflicts_with = "panel")]
        lower: Option<LowerArg>,
        /// The chosen steps (--steps A-B) side by side in one figure (svg, png, txt, ansi).
        #[arg(long)]
        strip: bool,
        /// Pixels per SVG pixel (png, mp4, webm: 2 makes 120 columns 2,440 px
        /// wide; gif: default 1, 1220 px wide for 120 columns).
        #[arg(long, value_name = "FACTOR", value_parser = parse_scale)]
        scale: Option<f32>,
        /// Put the fonts the figure uses, cut down to its characters, into the
        /// SVG or HTML, so it reads the same without them installed (svg, html).
        #[arg(long)]
        embed_fonts: bool,
        /// The HTML player alone, to embed in a page of notes (an iframe):
        /// the figure, its controls and the step's words; no heading, about
        /// or glossary (html only).
        #[arg(long)]
        player_only: bool,
    },
    /// Watch a real agent: a reverse proxy for the OpenAI Chat Completions,
    /// OpenAI Responses and Anthropic Messages APIs that passes every
    /// request and response through unchanged (streams as they arrive) and
    /// appends each model call to a JSONL recording (read it with
    /// --transcript FILE). Headers, so API keys, are never written.
    #[command(after_help = "Examples:\n  \
        agent-loop-sim tap --upstream https://api.anthropic.com -- claude\n  \
        agent-loop-sim tap --upstream https://api.openai.com --listen 8080 --out run.jsonl\n\n\
        With -- COMMAND the agent starts with OPENAI_BASE_URL=http://ADDR/v1 and\n\
        ANTHROPIC_BASE_URL=http://ADDR, and the tap ends when it ends. In a terminal\n\
        the simulator opens on the run as it grows (the agent's own output goes to\n\
        FILE.agent.log); --no-live leaves the terminal to the agent.")]
    Tap {
        /// Where the model API is, e.g. https://api.openai.com or
        /// http://127.0.0.1:8080 (its path, if any, goes before the agent's).
        #[arg(long, value_name = "URL")]
        upstream: String,
        /// Where to listen: a port or IP:PORT (default: a free port on
        /// 127.0.0.1). An address beyond this machine is used only when its
        /// IP is named, with a warning.
        #[arg(long, value_name = "ADDR")]
        listen: Option<String>,
        /// The recording, appended to (default: tap-DATE-TIME.jsonl here).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// No live view: the agent keeps the terminal (an interactive
        /// agent, `claude` or `codex` without a prompt, needs it).
        #[arg(long)]
        no_live: bool,
        /// Seconds a request head may take to arrive whole (and a kept-alive
        /// connection may stay idle) before the tap closes the connection.
        #[arg(long, value_name = "SECS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=3600))]
        head_timeout: u64,
        /// Connections the tap serves at once; one more gets a 503.
        #[arg(long, value_name = "N", default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=65536))]
        max_connections: u32,
        /// The agent to start, after `--`, pointed at the tap.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
}

impl Cli {
    /// The command's name as a user types it.
    pub fn command_name(&self) -> &'static str {
        match self.command {
            None => "the simulator",
            Some(Command::List) => "list",
            Some(Command::Check { .. }) => "check",
            Some(Command::Trace { .. }) => "trace",
            Some(Command::Transcript { .. }) => "transcript",
            Some(Command::Export { .. }) => "export",
            Some(Command::Tap { .. }) => "tap",
        }
    }

    /// Options given that this command would ignore, each with what it
    /// applies to: refused (exit 2), so no one believes a flag did what it
    /// did not (`check --compare no-such-thing` checked nothing of it).
    pub fn ignored_options(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.pairs_missing(&mut out);
        let reads = self.reads();
        self.inputs_not_read(reads, &mut out);
        self.transcript_options_unread(reads.transcript, &mut out);
        self.export_and_target_clashes(&mut out);
        self.lang_not_told(&mut out);
        out
    }

    /// A language not written (the pseudo-locale) is told from a lesson's
    /// run (`load::shown_in`); a transcript's or a tap's words are made
    /// as it is read, in the written languages only.
    fn lang_not_told(&self, out: &mut Vec<String>) {
        let read = matches!(self.command, Some(Command::Tap { .. })) || self.transcript.is_some();
        if !self.lang.is_written() && read {
            out.push(format!(
                "--lang {} shows a lesson's run, not a transcript's or a tap's (their words are \
                 made as they are read, in zh or en); expected --lang zh or --lang en",
                self.lang.code()
            ));
        }
    }

    /// What the command reads besides its own arguments.
    fn reads(&self) -> Reads {
        let (scenario, transcript, quiz, compare, lessons) = match &self.command {
            None => (true, true, true, true, true),
            Some(Command::List | Command::Check { .. } | Command::Tap { .. }) => {
                (false, false, false, false, false)
            }
            Some(Command::Trace { .. }) => (false, true, false, false, false),
            Some(Command::Transcript { .. }) => (false, true, true, false, false),
            Some(Command::Export { .. }) => (true, true, true, true, false),
        };
        Reads {
            scenario,
            transcript,
            quiz,
            compare,
            lessons,
        }
    }

    /// An option `given` that the command does not `read`, said with
    /// what it `applies` to.
    fn refuse(&self, out: &mut Vec<String>, given: bool, read: bool, flag: &str, applies: &str) {
        if given && !read {
            out.push(format!(
                "{flag} is not used by {}; it applies to {applies}",
                self.command_name()
            ));
        }
    }

    /// Options that only mean something beside another one.
    fn pairs_missing(&self, out: &mut Vec<String>) {
        if self.quiz_steps.is_some() && !self.quiz {
            out.push("--quiz-steps chooses the quiz's questions; give --quiz with it".into());
        }
        if self.quiz_steps.is_some() && self.transcript.is_some() {
            out.push(
                "--quiz-steps applies to a lesson, not to --transcript (a transcript asks before every step)"
                    .into(),
            );
        }
        if (self.class_addr.is_some() || self.class_results.is_some()) && !self.class {
            out.push(
                "--class-addr and --class-results are for the room; give --class with them".into(),
            );
        }
    }

    /// The inputs and modes given to a command that does not read them.
    fn inputs_not_read(&self, reads: Reads, out: &mut Vec<String>) {
        self.refuse(
            out,
            self.scenario.is_some(),
            reads.scenario,
            "--scenario",
            "the simulator and export (trace and transcript take the scenario as their argument; check takes files)",
        );
        self.refuse(
            out,
            self.transcript.is_some(),
            reads.transcript,
            "--transcript",
            "the simulator, trace, transcript and export",
        );
        self.refuse(
            out,
            self.quiz,
            reads.quiz,
            "--quiz",
            "the simulator, transcript and export",
        );
        self.refuse(
            out,
            self.compare.is_some(),
            reads.compare,
            "--compare",
            "the simulator and export",
        );
        self.refuse(
            out,
            self.class,
            self.command.is_none(),
            "--class",
            "the interactive simulator",
        );
        self.refuse(
            out,
            !self.lessons.is_empty(),
            reads.lessons,
            "--lesson",
            "the simulator's lesson picker",
        );
        self.refuse(
            out,
            self.plan.is_some(),
            reads.lessons,
            "--plan",
            "the simulator's lesson picker",
        );
        let provider = !matches!(
            &self.command,
            Some(Command::List | Command::Check { .. } | Command::Tap { .. })
        );
        self.refuse(
            out,
            self.provider.is_some(),
            provider,
            "--provider",
            "the simulator, trace, transcript and export",
        );
    }

    /// `--redact` and `--transcript-format` read a transcript: without
    /// one there is nothing to read. `transcript`: the command reads one.
    fn transcript_options_unread(&self, transcript: bool, out: &mut Vec<String>) {
        let needs = |flag: &str| {
            format!(
                "{flag} applies to a transcript; give --transcript FILE with it, or leave it out"
            )
        };
        if transcript && self.transcript.is_none() {
            if self.redact {
                out.push(needs("--redact"));
            }
            if self.transcript_format.is_some() {
                out.push(needs("--transcript-format"));
            }
        } else if !transcript {
            // The tap masks secrets in what it records.
            let tap = matches!(self.command, Some(Command::Tap { .. }));
            self.refuse(
                out,
                self.redact,
                tap,
                "--redact",
                "a transcript (--transcript FILE) and tap",
            );
            self.refuse(
                out,
                self.transcript_format.is_some(),
                false,
                "--transcript-format",
                "a transcript (--transcript FILE)",
            );
        }
    }

    /// `--scale` for a format drawn as vectors, and a scenario named twice
    /// (one of them would be ignored).
    fn export_and_target_clashes(&self, out: &mut Vec<String>) {
        // Pixels per SVG pixel: only the formats drawn as pixels read it.
        if let Some(Command::Export {
            format,
            scale: Some(_),
            ..
        }) = &self.command
            && !format.drawn_as_pixels()
        {
            out.push(format!(
                "--scale is not used by export --format {}; it applies to png, gif, mp4 and webm (an svg or pdf is drawn as vectors, at any size)",
                format.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string())
            ));
        }
        if let (
            Some(_),
            Some(
                Command::Trace {
                    target: Some(t), ..
                }
                | Command::Transcript {
                    target: Some(t), ..
                },
            ),
        ) = (&self.transcript, &self.command)
        {
            out.push(format!(
                "{} takes a scenario or --transcript FILE, not both (got {t:?} and --transcript)",
                self.command_name()
            ));
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThemeArg {
    Dark,
    Light,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Svg,
    Png,
    Gif,
    Pdf,
    Txt,
    Ansi,
    Cast,
    Html,
    /// A video for slides: H.264 in MP4, through ffmpeg.
    Mp4,
    /// A video for slides: VP9 in WebM, through ffmpeg.
    Webm,
    /// A slide deck: one self-contained HTML page, a slide per step, the
    /// step's explanation as speaker notes.
    Slides,
    /// One JSON line per model call: `{provider, request, response}`, the
    /// request body exactly as the provider receives it (NAME.requests.jsonl).
    Requests,
}

impl ExportFormat {
    /// Whether the format is drawn as pixels, so `--scale` applies.
    pub fn drawn_as_pixels(self) -> bool {
        use ExportFormat::*;
        matches!(self, Png | Gif | Mp4 | Webm)
    }
}

/// A panel that can be the one under the lanes (`--lower`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LowerArg {
    Context,
    Pairing,
    Explanation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PanelArg {
    Lanes,
    Context,
    Pairing,
    Explanation,
    /// The context panel as the request's JSON body (as key w shows it).
    Wire,
}

fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let err = || format!("expected WIDTHxHEIGHT such as 120x40, got {s:?}");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(err)?;
    let w: u16 = w.trim().parse().map_err(|_| err())?;
    let h: u16 = h.trim().parse().map_err(|_| err())?;
    let (min_w, min_h) = (crate::view::MIN_WIDTH, crate::view::MIN_HEIGHT);
    if !(min_w..=500).contains(&w) || !(min_h..=300).contains(&h) {
        return Err(format!(
            "size {w}x{h} is out of range; expected {min_w}..500 columns and {min_h}..300 rows"
        ));
    }
    Ok((w, h))
}

fn parse_scale(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(f) if (0.25..=8.0).contains(&f) => Ok(f),
        _ => Err(format!(
            "expected a factor from 0.25 to 8, such as 1 or 2.5, got {s:?}"
        )),
    }
}

fn parse_dwell(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(secs) if (0.1..=600.0).contains(&secs) => Ok(secs),
        _ => Err(format!(
            "expected seconds per step from 0.1 to 600, such as 2 or 1.5, got {s:?}"
        )),
    }
}

fn parse_steps(s: &str) -> Result<(usize, usize), String> {
    let err = || format!("expected a step or a range such as 3 or 2-5, got {s:?}");
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a, b),
        None => (s, s),
    };
    let a: usize = a.trim().parse().map_err(|_| err())?;
    let b: usize = b.trim().parse().map_err(|_| err())?;
    if a == 0 || b < a {
        return Err(err());
    }
    Ok((a, b))
}

/// What a command reads besides its own arguments (`Cli::ignored_options`).
#[derive(Clone, Copy)]
struct Reads {
    scenario: bool,
    transcript: bool,
    quiz: bool,
    compare: bool,
    lessons: bool,
}
