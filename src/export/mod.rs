//! Export: every frame of a scenario as a figure for notes and slides.
//!
//! A frame is exactly what the TUI draws: `frames::at_step` + `frames::render`
//! into an off-screen buffer. The formats here only translate that buffer's
//! cells (symbol, colours, emphasis); none of them draws the screen again.
//! Output is deterministic: the same scenario, size, language and theme give
//! the same bytes on every run (no clock, no hash-map order).
//!
//! `NO_COLOR` does not apply to export. It asks programs not to colour what
//! they print for the person at the terminal; an export is a file the user
//! requested by format, often on a machine (a build of the notes) whose
//! environment has nothing to do with the reader. `--format txt` is the
//! colourless choice, and `--theme light` the one for paper.

mod ansi;
mod boxdraw;
mod cast;
mod svg;

use std::fmt;
use std::fs;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ratatui::buffer::Buffer;

use crate::app::App;
use crate::batch::EXIT_BAD_INPUT;
use crate::cli::{Cli, Command, ExportFormat, ThemeArg};
use crate::frames;
use crate::i18n;
use crate::load::{self, DEFAULT_SCENARIO};
use crate::output;
use crate::safe;
use crate::scenario::Lang;
use crate::theme::Theme;

/// Seconds each step stays on screen in an asciicast, unless `--dwell`.
pub const DWELL_DEFAULT_SECS: f64 = 2.0;

/// What to export, as the command line asked for it.
#[derive(Debug, Clone)]
pub struct Options {
    /// A shipped scenario's name or a scenario file.
    pub scenario: String,
    pub format: ExportFormat,
    pub out: PathBuf,
    pub size: (u16, u16),
    /// 1-based, inclusive; all steps when None.
    pub steps: Option<(usize, usize)>,
    pub lang: Lang,
    pub theme: Theme,
    /// Seconds per step in an asciicast.
    pub dwell: f64,
}

impl Options {
    /// The options of an `export` command line; None for any other command.
    pub fn from_cli(cli: &Cli) -> Option<Options> {
        let Some(Command::Export {
            format,
            out,
            size,
            steps,
            dwell,
        }) = &cli.command
        else {
            return None;
        };
        Some(Options {
            scenario: cli
                .scenario
                .clone()
                .unwrap_or_else(|| DEFAULT_SCENARIO.to_string()),
            format: *format,
            out: out.clone(),
            size: *size,
            steps: *steps,
            lang: cli.lang.into(),
            theme: theme_for(cli.theme),
            dwell: *dwell,
        })
    }
}

/// `--theme` for figures. Unlike the terminal, export ignores `NO_COLOR`
/// (see the module comment).
pub fn theme_for(arg: ThemeArg) -> Theme {
    match arg {
        ThemeArg::Dark => Theme::DARK,
        ThemeArg::Light => Theme::LIGHT,
    }
}

/// Why an export failed; each kind has its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    /// The scenario cannot be used: printed exactly as `check` prints it.
    Scenario(load::ScenarioError),
    /// The arguments do not fit the scenario (e.g. `--steps` out of range).
    BadInput(String),
    /// The files could not be written.
    Io(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Scenario(e) => write!(f, "{e}"),
            ExportError::BadInput(m) | ExportError::Io(m) => write!(f, "export: {m}"),
        }
    }
}

impl std::error::Error for ExportError {}

impl ExportError {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            ExportError::Scenario(_) | ExportError::BadInput(_) => ExitCode::from(EXIT_BAD_INPUT),
            ExportError::Io(_) => ExitCode::FAILURE,
        }
    }
}

/// The `export` command: write the files, one line per file on stdout.
pub fn run(cli: &Cli) -> ExitCode {
    let Some(options) = Options::from_cli(cli) else {
        output::error("export: not an export command");
        return ExitCode::FAILURE;
    };
    // The list is printed as each file is written. When it cannot be (the
    // reader stopped reading, the disk is full) the files are still all
    // written: the first error waits until they are.
    let mut out = output::stdout();
    let mut printed = Ok(());
    let exported = export(&options, |path| {
        if printed.is_ok() {
            printed = output::line(&mut out, safe::escape(&path.display().to_string()));
        }
    });
    match exported {
        Ok(_) => output::finish("export", &mut out, printed, ExitCode::SUCCESS),
        Err(e) => {
            output::error(safe::escape(&e.to_string()));
            e.exit_code()
        }
    }
}

/// Write the files `options` ask for and return their paths in step order.
/// `written` hears of each file as soon as it is on disk.
pub fn export(
    options: &Options,
    mut written: impl FnMut(&Path),
) -> Result<Vec<PathBuf>, ExportError> {
    let loaded = load::load(&options.scenario).map_err(ExportError::Scenario)?;
    let app = App::new(loaded, options.lang, options.theme);
    let steps = step_range(&app, options.steps)?;
    fs::create_dir_all(&options.out).map_err(|e| {
        ExportError::Io(format!(
            "cannot create the folder {}: {e}",
            options.out.display()
        ))
    })?;
    let mut paths = Vec::new();
    let mut write = |name: String, contents: String| -> Result<(), ExportError> {
        let path = options.out.join(name);
        fs::write(&path, contents)
            .map_err(|e| ExportError::Io(format!("cannot write {}: {e}", path.display())))?;
        written(&path);
        paths.push(path);
        Ok(())
    };
    let size = options.size;
    match options.format {
        ExportFormat::Cast => {
            let name = format!("{}.{}.cast", app.trace().scenario, app.lang.code());
            write(name, cast(&app, steps, size, options.dwell))?;
        }
        format => {
            for index in steps {
                let (ext, contents) = match format {
                    ExportFormat::Svg => ("svg", svg(&app, index, size)),
                    ExportFormat::Txt => ("txt", txt(&app, index, size)),
                    _ => ("ansi", ansi(&app, index, size)),
                };
                write(file_name(&app, index, ext), contents)?;
            }
        }
    }
    Ok(paths)
}

/// `--steps A-B` (1-based) as 0-based indices, checked against the trace.
pub fn step_range(
    app: &App,
    steps: Option<(usize, usize)>,
) -> Result<RangeInclusive<usize>, ExportError> {
    let total = app.trace().len();
    if total == 0 {
        return Err(ExportError::BadInput(format!(
            "scenario {} has no steps to export",
            app.trace().scenario
        )));
    }
    match steps {
        None => Ok(0..=total - 1),
        Some((a, b)) if a >= 1 && a <= b && b <= total => Ok(a - 1..=b - 1),
        Some((a, b)) => {
            let asked = if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            };
            Err(ExportError::BadInput(format!(
                "--steps {asked} is out of range: scenario {} has {total} steps; \
                 expected steps within 1-{total}",
                app.trace().scenario
            )))
        }
    }
}

/// `read-config-timeout.zh.step-03.svg`: names sort in step order (zero
/// padded to the width of the step count, at least two digits).
pub fn file_name(app: &App, index: usize, ext: &str) -> String {
    let trace = app.trace();
    format!(
        "{}.{}.step-{}.{ext}",
        trace.scenario,
        app.lang.code(),
        step_number(index, trace.len())
    )
}

/// Step `index + 1`, zero-padded to the width of `total` (at least 2).
fn step_number(index: usize, total: usize) -> String {
    let digits = total.to_string().len().max(2);
    format!("{:0digits$}", index + 1)
}

/// One frame off-screen, with the words that describe it.
pub struct Frame {
    pub buffer: Buffer,
    /// Scenario title, step k/N and the step's title.
    pub title: String,
    /// Who acts and what the step means, for alt text.
    pub description: String,
}

/// Step `index` (0-based) of `app`'s scenario at `width`×`height`.
pub fn frame(app: &App, index: usize, (width, height): (u16, u16)) -> Frame {
    let at = frames::at_step(app, index, width, height);
    let buffer = frames::render(&at, width, height);
    let trace = at.trace();
    let lang = at.lang;
    let step = &trace.steps[at.step];
    let step_title = i18n::step_title(trace, at.step);
    let title = format!(
        "{} · {} {}/{} · {step_title}",
        trace.title,
        i18n::STEP.get(lang),
        at.step + 1,
        trace.len()
    );
    let mut description = format!(
        "{}: {}\n{step_title}\n",
        i18n::ACTING.get(lang),
        i18n::who_acts(step, lang)
    );
    if let Some(end) = step.end {
        description.push_str(&i18n::loop_ended(end, lang));
        description.push('\n');
    }
    let explanation = step
        .narration
        .clone()
        .unwrap_or_else(|| i18n::generic_explanation(trace, at.step));
    description.push_str(&explanation);
    Frame {
        buffer,
        title,
        description,
    }
}

/// The frame as an SVG document.
pub fn svg(app: &App, index: usize, size: (u16, u16)) -> String {
    let frame = frame(app, index, size);
    svg::render(&frame, app.theme)
}

/// The frame as plain text, the same as its snapshot.
pub fn txt(app: &App, index: usize, size: (u16, u16)) -> String {
    let at = frames::at_step(app, index, size.0, size.1);
    frames::to_text(&frames::render(&at, size.0, size.1))
}

/// The frame as text with SGR colour and emphasis, for `cat` in a terminal.
pub fn ansi(app: &App, index: usize, size: (u16, u16)) -> String {
    let at = frames::at_step(app, index, size.0, size.1);
    let mut out = String::new();
    for line in ansi::lines(&frames::render(&at, size.0, size.1)) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The steps as one asciicast v2 recording, `dwell` seconds per step, with
/// a marker per step.
pub fn cast(app: &App, steps: RangeInclusive<usize>, size: (u16, u16), dwell: f64) -> String {
    let trace = app.trace();
    let frames: Vec<cast::Step> = steps
        .map(|index| {
            let at = frames::at_step(app, index, size.0, size.1);
            cast::Step {
                lines: ansi::lines(&frames::render(&at, size.0, size.1)),
                marker: format!(
                    "{} {}/{}: {}",
                    i18n::STEP.get(app.lang),
                    index + 1,
                    trace.len(),
                    safe::escape(&i18n::step_title(trace, index))
                ),
            }
        })
        .collect();
    cast::render(&frames, size, &safe::escape(&trace.title), dwell)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_numbers_sort_in_step_order() {
        assert_eq!(step_number(2, 8), "03");
        assert_eq!(step_number(9, 12), "10");
        assert_eq!(step_number(2, 120), "003");
        assert_eq!(step_number(119, 120), "120");
        let names: Vec<String> = (0..120).map(|i| step_number(i, 120)).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }
}
