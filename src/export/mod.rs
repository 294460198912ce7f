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

use std::io::Write as _;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ratatui::buffer::Buffer;

use crate::app::App;
use crate::cli::{Cli, ExportFormat};
use crate::frames::{self, Framing};
use crate::i18n;
use crate::load;
use crate::output::{self, EXIT_BAD_INPUT};
use crate::safe;
use crate::scenario::Lang;
use crate::view::{MIN_HEIGHT, MIN_WIDTH, WIDE_HEIGHT, WIDE_WIDTH};

pub use error::ExportError;
use frame::step_of;
pub use frame::{Frame, frame, framed};
pub use options::{
    DWELL_DEFAULT_SECS, GIF_SCALE_DEFAULT, Options, SCALE_DEFAULT, scale_default, theme_for,
};
use options::{GIF_LAST_DWELLS, GIF_LAST_MIN_SECS, html_framing};
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
        None => load::load_as(&options.scenario, options.provider),
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
    let mut app = App::new(loaded, options.lang, options.theme);
    app.wire = options.wire;
    if let Some(other) = &options.compare {
        let other =
            crate::compare::load_other(other, options.provider).map_err(ExportError::Scenario)?;
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

fn extension(format: ExportFormat) -> &'static str {
    match format {
        ExportFormat::Svg => "svg",
        ExportFormat::Txt => "txt",
        ExportFormat::Ansi => "ansi",
        ExportFormat::Cast => "cast",
        ExportFormat::Html => "html",
        ExportFormat::Png => "png",
        ExportFormat::Gif => "gif",
        ExportFormat::Pdf => "pdf",
        ExportFormat::Mp4 => "mp4",
        ExportFormat::Webm => "webm",
        ExportFormat::Slides => "slides.html",
        ExportFormat::Requests => "requests.jsonl",
    }
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

/// The frame as an SVG document.
pub fn svg(app: &App, index: usize, size: (u16, u16)) -> String {
    svg::render(&frame(app, index, size), app.theme)
}

/// The frame as a PNG, drawn with `fonts` (`PngFonts::named`, loaded once
/// for many frames), `scale` pixels per SVG pixel.
pub fn png(
    app: &App,
    index: usize,
    size: (u16, u16),
    fonts: &PngFonts,
    scale: f32,
) -> Result<Vec<u8>, String> {
    let frame = frame(app, index, size);
    fonts.check(&frame.buffer)?;
    fonts.render(&svg::render(&frame, app.theme), scale)
}

/// How a GIF plays.
#[derive(Debug, Clone, Copy)]
pub struct GifOptions {
    /// Seconds per step; the last step stays longer.
    pub dwell: f64,
    /// GIF pixels per SVG pixel.
    pub scale: f32,
}

/// The steps as one looping GIF, written frame by frame: one image per
/// step, shown `dwell` seconds (the last step `GIF_LAST_DWELLS` times as
/// long, at least `GIF_LAST_MIN_SECS`), each with its own palette of at
/// most 256 colours (NeuQuant, from the `gif` crate).
pub fn write_gif(
    app: &App,
    steps: RangeInclusive<usize>,
    size: (u16, u16),
    framing: Framing,
    fonts: &PngFonts,
    gif: GifOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let io = |e: String| std::io::Error::other(e);
    let last = *steps.end();
    let mut encoder = None;
    let mut sink = Some(std::io::BufWriter::new(out));
    for index in steps {
        let frame = framed(app, index, size, framing);
        let mut pixmap = fonts
            .pixmap(&svg::render(&frame, app.theme), gif.scale)
            .map_err(io)?;
        let (w, h) = (pixmap.width(), pixmap.height());
        let (Ok(w16), Ok(h16)) = (u16::try_from(w), u16::try_from(h)) else {
            return Err(io(format!(
                "a {w}x{h} image is too large for a GIF (65535 px at most); use a smaller --scale"
            )));
        };
        if encoder.is_none() {
            let mut e = ::gif::Encoder::new(sink.take().expect("one encoder"), w16, h16, &[])
                .map_err(std::io::Error::other)?;
            e.set_repeat(::gif::Repeat::Infinite)
                .map_err(std::io::Error::other)?;
            encoder = Some(e);
        }
        let secs = if index == last {
            (gif.dwell * GIF_LAST_DWELLS).max(GIF_LAST_MIN_SECS)
        } else {
            gif.dwell
        };
        // The figure is opaque (its page colour fills it), so the
        // premultiplied pixels are the plain ones.
        let mut image = ::gif::Frame::from_rgba_speed(w16, h16, pixmap.data_mut(), 10);
        image.delay = (secs * 100.0).round().min(f64::from(u16::MAX)) as u16;
        encoder
            .as_mut()
            .expect("made above")
            .write_frame(&image)
            .map_err(std::io::Error::other)?;
    }
    let Some(encoder) = encoder else {
        return Ok(());
    };
    let mut out = encoder.into_inner().map_err(std::io::Error::other)?;
    std::io::Write::flush(&mut out)
}

/// The frame as plain text, the same as its snapshot.
pub fn txt(app: &App, index: usize, size: (u16, u16)) -> String {
    frames::to_text(&frame(app, index, size).buffer)
}

/// The frame as text with SGR colour and emphasis, for `cat` in a terminal.
pub fn ansi(app: &App, index: usize, size: (u16, u16)) -> String {
    ansi_text(&frame(app, index, size).buffer)
}

fn ansi_text(buffer: &Buffer) -> String {
    let mut out = String::new();
    for line in ansi::lines(buffer) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The steps as one asciicast v2 recording, `dwell` seconds per step, with
/// a marker per step.
pub fn cast(app: &App, steps: RangeInclusive<usize>, size: (u16, u16), dwell: f64) -> String {
    let mut out = Vec::new();
    write_cast(app, steps, size, Framing::default(), dwell, &mut out)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the recording is UTF-8")
}

/// The recording, written step by step to `out`: one screen in memory at
/// a time, whatever the number of steps.
pub fn write_cast(
    app: &App,
    steps: RangeInclusive<usize>,
    size: (u16, u16),
    framing: Framing,
    dwell: f64,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let trace = app.trace();
    let screens = steps.map(|index| cast::Step {
        lines: ansi::lines(&framed(app, index, size, framing).buffer),
        marker: format!(
            "{}: {}",
            step_of(app, index),
            safe::escape(&i18n::step_title(trace, index))
        ),
    });
    let mut out = std::io::BufWriter::new(out);
    cast::write(
        &mut out,
        screens,
        size,
        &safe::escape(&trace.title),
        app.theme,
        dwell,
    )?;
    out.flush()
}

/// One HTML player of the steps: each step's SVG frame, its words as
/// text, and the controls. The frames are bare: the page has its own
/// controls, and the terminal's key hints and play state would be wrong there.
pub fn html(
    app: &App,
    steps: RangeInclusive<usize>,
    size: (u16, u16),
    framing: Framing,
    dwell: f64,
) -> String {
    let mut out = Vec::new();
    write_player(app, steps, size, framing, dwell, &mut out)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the page is UTF-8")
}

/// `html`, written step by step to `out` (packed past `html::PACK_AFTER`
/// steps, as the export writes it).
pub fn write_player(
    app: &App,
    steps: RangeInclusive<usize>,
    size: (u16, u16),
    framing: Framing,
    dwell: f64,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let page = html::Page {
        dwell,
        fonts: None,
        player_only: false,
        packed: steps.clone().count() > html::PACK_AFTER,
    };
    write_html(app, steps, size, framing, &page, out)
}

/// The fonts an HTML player uses, subset to the characters of its frames
/// and of its words, to embed once in the page. The frames are drawn here
/// once to find their characters and again when the page is written, so
/// that neither pass holds more than one. An error names the characters
/// no installed font has.
pub fn html_fonts(
    app: &App,
    steps: RangeInclusive<usize>,
    size: (u16, u16),
    framing: Framing,
    player_only: bool,
    db: &resvg::usvg::fontdb::Database,
) -> Result<embed::Embedded, String> {
    let framing = html_framing(framing);
    let mut used = embed::Used::default();
    for index in steps.clone() {
        used.add_buffer(&framed(app, index, size, framing).buffer);
    }
    // The page's words, and the labels its script swaps in (Play / Pause)
    // from attributes. Markup adds a few ASCII glyphs, not worth parsing for.
    // Unpacked: every word of the page is read as text.
    let page = html::Page {
        dwell: DWELL_DEFAULT_SECS,
        fonts: None,
        player_only,
        packed: false,
    };
    let mut text = Vec::new();
    html::write(
        &mut text,
        app,
        steps,
        &page,
        &mut |_| String::new(),
        &|index| html::step(app, index),
    )
    .map_err(|e| e.to_string())?;
    used.add(400, &String::from_utf8_lossy(&text));
    embed::embed(db, &fonts::FONT_FAMILIES, &used)
}

/// Write the HTML player to `out` step by step: one frame in memory at a
/// time, whatever the number of steps.
pub fn write_html(
    app: &App,
    steps: RangeInclusive<usize>,
    size: (u16, u16),
    framing: Framing,
    page: &html::Page<'_>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let framing = html_framing(framing);
    let fonts = page.fonts.map(|embedded| svg::Fonts {
        embedded,
        with_css: false,
    });
    let mut out = std::io::BufWriter::new(out);
    html::write(
        &mut out,
        app,
        steps,
        page,
        &mut |index| svg::render_with(&framed(app, index, size, framing), app.theme, fonts),
        &|index| html::step(app, index),
    )?;
    out.flush()
}
