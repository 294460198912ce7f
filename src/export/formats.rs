//! One format's bytes from the frames: a frame as SVG, PNG, text or
//! ANSI; the steps as a GIF, an asciicast recording or an HTML player.
//! `files.rs` names the files and writes them with these.

use std::io::Write as _;
use std::ops::RangeInclusive;

use ratatui::buffer::Buffer;

use super::frame::{frame, framed, step_of};
use super::options::{DWELL_DEFAULT_SECS, GIF_LAST_DWELLS, GIF_LAST_MIN_SECS, html_framing};
use super::png::Fonts as PngFonts;
use super::{embed, fonts};
use crate::app::App;
use crate::cli::ExportFormat;
use crate::frames::{self, Framing};
use crate::i18n;
use crate::safe;

/// The file name's ending of a format.
pub(super) fn extension(format: ExportFormat) -> &'static str {
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

/// The frame as an SVG document.
pub fn svg(app: &App, index: usize, size: (u16, u16)) -> String {
    super::svg::render(&frame(app, index, size), app.theme)
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
    fonts.render(&super::svg::render(&frame, app.theme), scale)
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
            .pixmap(&super::svg::render(&frame, app.theme), gif.scale)
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

pub(super) fn ansi_text(buffer: &Buffer) -> String {
    let mut out = String::new();
    for line in super::ansi::lines(buffer) {
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
    let screens = steps.map(|index| super::cast::Step {
        lines: super::ansi::lines(&framed(app, index, size, framing).buffer),
        marker: format!(
            "{}: {}",
            step_of(app, index),
            safe::escape(&i18n::step_title(trace, index))
        ),
    });
    let mut out = std::io::BufWriter::new(out);
    super::cast::write(
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
    let page = super::html::Page {
        dwell,
        fonts: None,
        player_only: false,
        packed: steps.clone().count() > super::html::PACK_AFTER,
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
    let page = super::html::Page {
        dwell: DWELL_DEFAULT_SECS,
        fonts: None,
        player_only,
        packed: false,
    };
    let mut text = Vec::new();
    super::html::write(
        &mut text,
        app,
        steps,
        &page,
        &mut |_| String::new(),
        &|index| super::html::step(app, index),
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
    page: &super::html::Page<'_>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let framing = html_framing(framing);
    let fonts = page.fonts.map(|embedded| super::svg::Fonts {
        embedded,
        with_css: false,
    });
    let mut out = std::io::BufWriter::new(out);
    super::html::write(
        &mut out,
        app,
        steps,
        page,
        &mut |index| super::svg::render_with(&framed(app, index, size, framing), app.theme, fonts),
        &|index| super::html::step(app, index),
    )?;
    out.flush()
}
