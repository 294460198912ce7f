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
    /// Claude Code session or OTLP JSON GenAI spans (detected from the content).
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
    #[arg(long, value_enum, default_value_t = LangArg::Zh, global = true)]
    pub lang: LangArg,

    /// Colour theme (light is made for paper and bright projectors).
    #[arg(long, value_enum, default_value_t = ThemeArg::Dark, global = true)]
    pub theme: ThemeArg,

    /// Predict, then reveal: before each step, a question about it with
    /// numbered choices, answered with the digit keys (key p turns it on and off).
    #[arg(long, global = true)]
    pub quiz: bool,
    /// Also offer this scenario file in the interactive simulator's lesson
    /// picker (key o), after the shipped ones; repeat for more. A file that
    /// cannot be used shows its error there.
    #[arg(long = "lesson", value_name = "FILE")]
    pub lessons: Vec<String>,
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
        #[arg(value_name = "NAME|FILE", required_unless_present = "transcript")]
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
        #[arg(value_name = "NAME|FILE", required_unless_present = "transcript")]
        target: Option<String>,
    },
    /// Export every frame as a figure: svg, png, txt, ansi, or one
    /// asciicast or HTML player. Existing files of the same name are replaced.
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
        /// Seconds each step stays on screen when played (cast, html).
        #[arg(long, value_name = "SECONDS", default_value = "2.0", value_parser = parse_dwell)]
        dwell: f64,
        /// The lesson alone: no key hints, status line or focus marks.
        #[arg(long)]
        bare: bool,
        /// One panel at the full size of the figure.
        #[arg(long, value_enum, value_name = "PANEL")]
        panel: Option<PanelArg>,
        /// The chosen steps (--steps A-B) side by side in one figure (svg, png, txt, ansi).
        #[arg(long)]
        strip: bool,
        /// PNG pixels per SVG pixel (png only; 2 makes 120 columns 2,440 px wide).
        #[arg(long, value_name = "FACTOR", default_value = "2", value_parser = parse_scale)]
        scale: f32,
        /// Put the fonts the figure uses, cut down to its characters, into the
        /// SVG or HTML, so it reads the same without them installed (svg, html).
        #[arg(long)]
        embed_fonts: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    Zh,
    En,
}

impl From<LangArg> for Lang {
    fn from(l: LangArg) -> Lang {
        match l {
            LangArg::Zh => Lang::Zh,
            LangArg::En => Lang::En,
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
    Txt,
    Ansi,
    Cast,
    Html,
    /// One JSON line per model call: `{provider, request, response}`, the
    /// request body exactly as the provider receives it (NAME.requests.jsonl).
    Requests,
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
