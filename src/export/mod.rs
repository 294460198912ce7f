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
mod embed;
mod error;
mod files;
mod fonts;
mod formats;
mod frame;
mod handout;
mod html;
mod name;
mod options;
mod pdf;
mod png;
mod slides;
mod strip;
mod svg;
mod video;
mod write;

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::app::App;
use crate::cli::{Cli, ExportFormat};
use crate::load;
use crate::output::{self, EXIT_BAD_INPUT};
use crate::safe;
use crate::scenario::Lang;
use crate::view::{MIN_HEIGHT, MIN_WIDTH, WIDE_HEIGHT, WIDE_WIDTH};

pub use error::ExportError;
use formats::extension;
pub use formats::{
    GifOptions, ansi, cast, html, html_fonts, png, svg, txt, write_cast, write_gif, write_html,
    write_player,
};
pub use frame::{Frame, frame, framed};
pub use options::{
    DWELL_DEFAULT_SECS, GIF_SCALE_DEFAULT, Options, SCALE_DEFAULT, scale_default, theme_for,
};
pub use png::{Fonts as PngFonts, check_fonts, missing_glyphs};

/// The `export` command: write the files, one line per file on stdout.
/// A closed stdout (`export … | head -1`) does not stop the export: the
/// list is only news, the files are the work.
pub fn run(cli: &Cli) -> ExitCode {
    let Some(options) = Options::from_cli(cli) else {
        output::error("export: not an export command");
        return ExitCode::FAILURE;
    };
    // The list is printed as each file is written. When it cannot be (the
    // reader stopped reading, the disk is full) the files are still all
    // written: the first error waits until they are.
    // A scenario that runs is exported even with faults (an `expect` it
    // does not meet): they are said on stderr, and the exit code says so.
    let (loaded, done) = match &options.transcript {
        Some((file, format, redact)) => match crate::transcript::load(file, *format, *redact) {
            Ok(loaded) => (loaded, ExitCode::SUCCESS),
            Err(e) => {
                let e = ExportError::Scenario(e);
                output::error(safe::escape(&e.to_string()));
                return e.exit_code();
            }
        },
        None => match crate::batch::load_and_report(&options.scenario, options.provider) {
            Some(loaded) => loaded,
            None => return ExitCode::from(EXIT_BAD_INPUT),
        },
    };
    let loaded = match load::quiz_steps_from(loaded, options.quiz_steps.as_deref()) {
        Ok(loaded) => loaded,
        Err(e) => {
            output::error(e);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    // The binary, not the library, owns the process's signals.
    write::remove_on_signal();
    let mut out = output::stdout();
    let mut printed = Ok(());
    let exported = export_loaded(&options, loaded, |path| {
        if printed.is_ok() {
            printed = output::line(&mut out, safe::escape(&path.display().to_string()));
        }
    });
    match exported {
        Ok(_) => output::finish("export", &mut out, printed, done),
        Err(e) => {
            output::error(safe::escape(&e.to_string()));
            e.exit_code()
        }
    }
}

/// Write the files `options` ask for and return their paths in step order.
/// `written` hears of each file as soon as it is on disk. Each file is
/// written under a temporary name in the same folder and renamed into
/// place: an existing figure is replaced whole, and a symbolic link at a
/// figure's name is replaced, never followed.
pub fn export(options: &Options, written: impl FnMut(&Path)) -> Result<Vec<PathBuf>, ExportError> {
    let loaded = match &options.transcript {
        Some((file, format, redact)) => crate::transcript::load(file, *format, *redact),
        None => load::load_as(&options.scenario, options.provider)
            .map_err(|e| crate::transcript::given_as_scenario(&options.scenario).unwrap_or(e)),
    }
    .and_then(|l| load::quiz_steps_from(l, options.quiz_steps.as_deref()))
    .map_err(ExportError::Scenario)?;
    export_loaded(options, loaded, written)
}

/// `export` of a scenario already loaded.
pub fn export_loaded(
    options: &Options,
    loaded: load::Loaded,
    mut written: impl FnMut(&Path),
) -> Result<Vec<PathBuf>, ExportError> {
    let loaded = load::shown_in(loaded, options.lang).map_err(ExportError::Scenario)?;
    let mut app = App::new(loaded, options.lang, options.theme);
    app.wire = options.wire;
    if let Some(other) = &options.compare {
        let other = crate::compare::load_other(other, options.provider, options.lang)
            .map_err(ExportError::Scenario)?;
        app = app.with_comparison(other);
    }
    let steps = step_range(&app, options.steps)?;
    check_options(options)?;
    if options.quiz && options.format != ExportFormat::Pdf {
        let path = quiz_sheet(options, &app, steps)?;
        written(&path);
        return Ok(vec![path]);
    }
    let fonts = fonts_for(options)?;
    write::create_dir(&options.out)?;
    let mut paths = Vec::new();
    let files = files::Files {
        options,
        app: &app,
        steps,
        fonts: fonts.as_ref(),
        dir: folder(options),
    };
    files.write(&mut |path: PathBuf| {
        written(&path);
        paths.push(path);
    })?;
    Ok(paths)
}

/// The folder of the export, marked with its source.
fn folder(options: &Options) -> write::Folder<'_> {
    write::Folder {
        dir: &options.out,
        source: name::identity(options),
    }
}

/// `--quiz` as text or HTML: the questions of the steps, no frames.
fn quiz_sheet(
    options: &Options,
    app: &App,
    steps: RangeInclusive<usize>,
) -> Result<PathBuf, ExportError> {
    write::create_dir(&options.out)?;
    let trace = app.trace();
    let questions = handout::questions(trace, &app.loaded, steps.clone());
    let (kind, page) = match options.format {
        ExportFormat::Html => ("html", handout::html(trace, &questions)),
        _ => ("txt", handout::text(trace, &questions)),
    };
    // The questions of some steps do not overwrite those of all.
    let name = format!(
        "{}.{}{}{}.quiz.{kind}",
        name::source(options),
        app.lang.code(),
        name::run_settings(options),
        name::steps_tag(app.steps(), &steps)
    );
    folder(options).file(&name, |out| out.write_all(page.as_bytes()))
}

/// The fonts the format draws with (pixels, pages, video), or that
/// `--embed-fonts` subsets; none for the rest.
fn fonts_for(options: &Options) -> Result<Option<png::Fonts>, ExportError> {
    Ok(match options.format {
        ExportFormat::Png
        | ExportFormat::Gif
        | ExportFormat::Pdf
        | ExportFormat::Mp4
        | ExportFormat::Webm => {
            Some(png::Fonts::named(options.lang == Lang::Zh).map_err(ExportError::Missing)?)
        }
        _ if options.embed_fonts => Some(png::Fonts::system()),
        _ => None,
    })
}

/// The options that do not depend on the scenario: the size the view
/// needs, and the framings each format can take.
fn check_options(options: &Options) -> Result<(), ExportError> {
    let (w, h) = options.size;
    if w < MIN_WIDTH || h < MIN_HEIGHT {
        return Err(ExportError::BadInput(format!(
            "--size {w}x{h} is below the minimum; expected at least {MIN_WIDTH}x{MIN_HEIGHT}"
        )));
    }
    if options.quiz {
        if !matches!(
            options.format,
            ExportFormat::Txt | ExportFormat::Html | ExportFormat::Pdf
        ) {
            return Err(ExportError::BadInput(format!(
                "--quiz writes a printable handout; expected --format txt, html or pdf, not {}",
                extension(options.format)
            )));
        }
        if options.strip || options.framing.panel.is_some() || options.compare.is_some() {
            return Err(ExportError::BadInput(
                "--quiz writes the questions, not frames; expected no --strip, --panel or --compare with it".into(),
            ));
        }
    }
    if options.strip && options::in_sequence(options.format) {
        return Err(ExportError::BadInput(format!(
            "--strip puts steps side by side in still figures; expected --format svg, png, txt, ansi or pdf, not {}",
            extension(options.format)
        )));
    }
    if options.framing.lower.is_some() && w >= WIDE_WIDTH && h >= WIDE_HEIGHT {
        return Err(ExportError::BadInput(format!(
            "--lower picks the panel under the lanes where only one fits; at {w}x{h} all four show: expected a --size below {WIDE_WIDTH}x{WIDE_HEIGHT} (such as 80x24) or no --lower"
        )));
    }
    if options.player_only && options.format != ExportFormat::Html {
        return Err(ExportError::BadInput(format!(
            "--player-only is a way to write the HTML player; expected --format html, not {}",
            extension(options.format)
        )));
    }
    if options.embed_fonts && !matches!(options.format, ExportFormat::Svg | ExportFormat::Html) {
        return Err(ExportError::BadInput(format!(
            "--embed-fonts puts fonts into an SVG or HTML file; expected --format svg or html, not {}",
            extension(options.format)
        )));
    }
    if options.compare.is_some() {
        if options::in_sequence(options.format) {
            return Err(ExportError::BadInput(format!(
                "--compare makes still figures; expected --format svg, png, txt, ansi or pdf, not {}",
                extension(options.format)
            )));
        }
        if options.framing.panel.is_some() {
            return Err(ExportError::BadInput(
                "--compare shows whole runs side by side; expected no --panel with it".into(),
            ));
        }
    }
    if !(options.scale.is_finite() && (0.25..=8.0).contains(&options.scale)) {
        return Err(ExportError::BadInput(format!(
            "--scale {} is out of range; expected 0.25 to 8",
            options.scale
        )));
    }
    Ok(())
}

/// `--steps A-B` (1-based) as 0-based indices, checked against the trace.
pub fn step_range(
    app: &App,
    steps: Option<(usize, usize)>,
) -> Result<RangeInclusive<usize>, ExportError> {
    let total = app.steps();
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
