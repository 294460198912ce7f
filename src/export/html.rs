//! An HTML player: one self-contained page per scenario that plays the run
//! step by step. The figure of each step is the SVG the export already
//! makes, inlined; the step's title and explanation, the about sections and
//! the glossary are HTML text. No outside resource of any kind (a content
//! security policy forbids them), so the page works from `file://` and in an
//! iframe. The script only shows and hides what the page already holds.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::RangeInclusive;

use super::embed::Embedded;
use super::svg::escape;
use crate::app::App;
use crate::i18n::page::{
    BROKEN, CONTROLS, DWELL, DWELL_RANGE, FIRST, HINT, JUMP, LAST, LOADING, NEXT, NO_STEP, PAUSE,
    PLAY, PLAYER, PREV, PROGRESS, SECONDS, STEP_OF, UNZOOM, ZOOM,
};
use crate::i18n::{self, Label};
use crate::theme::{Rgb, Theme};

/// The words of one step of the player.
pub struct Step {
    /// 1-based.
    pub number: usize,
    pub title: String,
    /// Who acts, in words.
    pub acting: String,
    /// How the loop ended, on the step that ends it.
    pub ended: Option<String>,
    pub explanation: String,
}

/// What goes into a page besides the steps.
pub struct Page<'a> {
    pub dwell: f64,
    /// `--embed-fonts`: the fonts, once for all the frames.
    pub fonts: Option<&'a Embedded>,
    /// `--player-only`: the figure, its controls and the step's words, no
    /// heading, about or glossary: a page to put in an iframe of notes.
    pub player_only: bool,
    /// The steps after the first as packed data (`packed`), drawn when
    /// shown: a long run's page opens at once. See `PACK_AFTER`.
    pub packed: bool,
}

/// A run of more steps than this is written packed: the first step as
/// markup, the others in gzip blocks of `PER_BLOCK` steps (base64 in
/// `<script type="text/plain">`, which the browser keeps as text and
/// never builds into elements), each block unpacked by the page's script
/// (`DecompressionStream`) when one of its steps is shown. The script
/// comes before the blocks, so the controls work while they arrive. Ten
/// thousand inlined SVG frames are a page of some 500 MB that a browser
/// takes minutes to build; packed, frames of neighbouring steps share
/// most of their text and compress about twentyfold.
pub const PACK_AFTER: usize = 100;
/// Steps a packed block holds.
const PER_BLOCK: usize = 32;

/// Write the page to `out`, one step at a time: the player of the steps
/// `steps` (0-based), then the about sections and the glossary. `svg`
/// makes the figure of a step when it is written, and `words` its words,
/// so only one frame is in memory whatever the length of the run.
/// With fonts (`--embed-fonts`), their `@font-face` rules are in the page
/// once for all the frames and the page's own text, which tries the
/// embedded faces after the reader's usual fonts.
pub fn write(
    out: &mut dyn Write,
    app: &App,
    steps: RangeInclusive<usize>,
    page: &Page<'_>,
    svg: &mut dyn FnMut(usize) -> String,
    words: &dyn Fn(usize) -> Step,
) -> io::Result<()> {
    let lang = app.lang;
    let title = escape(app.loaded.card.title.get(lang));
    let l = |label: Label| escape(label.get(lang));
    write_head(out, app, page, &title)?;

    // The player: figure, controls, the step's words, the keys.
    write!(
        out,
        "<section id=\"player\" class=\"player\" tabindex=\"0\" aria-label=\"{}\" \
         aria-describedby=\"hint\">\n<div id=\"figure\" class=\"figure\">\n",
        if page.player_only {
            title.clone()
        } else {
            l(PLAYER)
        }
    )?;
    let first = *steps.start();
    // Packed, the first step alone is markup; the script fills its place.
    let inline = if page.packed {
        first..=first
    } else {
        steps.clone()
    };
    for index in inline.clone() {
        let figure = svg(index);
        write!(
            out,
            "<div class=\"frame\" data-step=\"{}\"{}>\n{}</div>\n",
            index + 1,
            hidden(index - first),
            inlined(&figure)
        )?;
    }
    out.write_all(b"</div>\n")?;
    let total = steps.clone().count();
    let first_number = first + 1;
    let of = app.trace().len();
    write_controls(out, lang, page.dwell, (first_number, first + total), of)?;
    out.write_all(b"<div class=\"steps\" aria-live=\"polite\">\n")?;
    for index in inline {
        write!(
            out,
            "<article class=\"step\" data-step=\"{}\"{}>\n{}</article>\n",
            index + 1,
            hidden(index - first),
            article(&words(index), of, lang)
        )?;
    }
    write!(
        out,
        "</div>\n<p id=\"hint\" class=\"hint\">{}</p>\n</section>\n",
        l(HINT)
    )?;

    if !page.player_only {
        about(out, app)?;
    }
    write!(
        out,
        "</main>\n<script>\n{}</script>\n",
        script(total, first_number, of, page.packed)
    )?;
    if page.packed {
        packed(out, steps, of, lang, svg, words)?;
    }
    out.write_all(b"</body>\n</html>\n")
}

/// The page's head (its policy: nothing from outside; its style and
/// fonts) up to `<main>`, and the heading unless `--player-only`.
fn write_head(out: &mut dyn Write, app: &App, page: &Page<'_>, title: &str) -> io::Result<()> {
    let (lang, theme, fonts) = (app.lang, app.theme, page.fonts);
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'{font_src}\">\n\
         <title>{title}</title>\n<style>\n{}{}</style>\n</head>\n<body>\n<main{}>\n",
        lang.tag(),
        css(theme),
        fonts.map(embedded_css).unwrap_or_default(),
        if page.player_only {
            " class=\"embed\""
        } else {
            ""
        },
        // Embedded fonts are data: URLs inside the page, nothing from outside.
        font_src = if fonts.is_some() {
            "; font-src data:"
        } else {
            ""
        },
    )?;
    if !page.player_only {
        writeln!(out, "<h1>{title}</h1>")?;
    }
    Ok(())
}

/// The controls: first, previous, play, next, last, the counter, the
/// dwell time, the zoom, the progress bar to jump with, and the note the
/// script shows. `first_number` and `last_number`: the steps written
/// (1-based), `of` the run's steps.
fn write_controls(
    out: &mut dyn Write,
    lang: crate::scenario::Lang,
    dwell: f64,
    (first_number, last_number): (usize, usize),
    of: usize,
) -> io::Result<()> {
    let l = |label: Label| escape(label.get(lang));
    write!(
        out,
        "<div class=\"controls\" role=\"group\" aria-label=\"{controls}\">\n\
         <button type=\"button\" id=\"first\">{first_label}</button>\n\
         <button type=\"button\" id=\"prev\">{prev}</button>\n\
         <button type=\"button\" id=\"play\" aria-pressed=\"false\" data-play=\"{play}\" \
         data-pause=\"{pause}\">{play}</button>\n\
         <button type=\"button\" id=\"next\">{next}</button>\n\
         <button type=\"button\" id=\"last\">{last}</button>\n\
         <output id=\"counter\" aria-label=\"{step_of}\">{first_number}/{of}</output>\n\
         <label class=\"dwell\">{dwell_label} <input id=\"dwell\" type=\"number\" min=\"0.1\" \
         max=\"600\" step=\"0.1\" value=\"{dwell}\"> {seconds} <span class=\"range\">{range}</span></label>\n\
         <button type=\"button\" id=\"zoom\" class=\"zoom\" aria-pressed=\"false\" \
         aria-controls=\"player\" data-zoom=\"{zoom}\" data-unzoom=\"{unzoom}\">{zoom}</button>\n\
         </div>\n\
         <div class=\"progress\"><label for=\"jump\">{jump}</label> \
         <input id=\"jump\" type=\"range\" min=\"{first_number}\" max=\"{last_number}\" step=\"1\" \
         value=\"{first_number}\" aria-label=\"{progress}\" aria-valuetext=\"{first_number}/{of}\"></div>\n\
         <p id=\"note\" class=\"note\" role=\"status\" hidden data-nostep=\"{no_step}\" \
         data-loading=\"{loading}\" data-broken=\"{broken}\"></p>\n",
        controls = l(CONTROLS),
        first_label = l(FIRST),
        prev = l(PREV),
        play = l(PLAY),
        pause = l(PAUSE),
        next = l(NEXT),
        last = l(LAST),
        step_of = l(STEP_OF),
        dwell_label = l(DWELL),
        seconds = l(SECONDS),
        range = l(DWELL_RANGE),
        zoom = l(ZOOM),
        unzoom = l(UNZOOM),
        jump = l(JUMP),
        progress = l(PROGRESS),
        no_step = l(NO_STEP),
        loading = l(LOADING),
        broken = l(BROKEN),
    )?;
    Ok(())
}

/// An SVG document as markup inside the page.
pub(super) fn inlined(figure: &str) -> &str {
    figure
        .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .unwrap_or(figure)
}

/// A step's words, as the inside of its `<article>`.
pub(super) fn article(step: &Step, of: usize, lang: crate::scenario::Lang) -> String {
    let l = |label: Label| escape(label.get(lang));
    let mut out = format!(
        "<h2>{} {}/{} · {}</h2>\n<p class=\"acting\">{}: {}</p>\n",
        l(i18n::STEP),
        step.number,
        of,
        escape(&step.title),
        l(i18n::ACTING),
        escape(&step.acting)
    );
    if let Some(ended) = &step.ended {
        let _ = writeln!(out, "<p class=\"ended\">■ {}</p>", escape(ended));
    }
    let _ = writeln!(
        out,
        "<p class=\"explanation\">{}</p>",
        escape(&step.explanation)
    );
    out
}

/// The steps in blocks of `PER_BLOCK`: each step's figure and words,
/// separated by NUL (in neither), gzip-compressed and base64-encoded into
/// `<script type="text/plain" id="pK">`; one block in memory at a time.
fn packed(
    out: &mut dyn Write,
    steps: RangeInclusive<usize>,
    of: usize,
    lang: crate::scenario::Lang,
    svg: &mut dyn FnMut(usize) -> String,
    words: &dyn Fn(usize) -> Step,
) -> io::Result<()> {
    use base64::Engine as _;
    let indices: Vec<usize> = steps.collect();
    for (k, block) in indices.chunks(PER_BLOCK).enumerate() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        for (j, &index) in block.iter().enumerate() {
            if j > 0 {
                gz.write_all(b"\0")?;
            }
            gz.write_all(inlined(&svg(index)).as_bytes())?;
            gz.write_all(b"\0")?;
            gz.write_all(article(&words(index), of, lang).as_bytes())?;
        }
        let data = base64::engine::general_purpose::STANDARD.encode(gz.finish()?);
        writeln!(
            out,
            "<script type=\"text/plain\" id=\"p{k}\" class=\"packed\">{data}</script>"
        )?;
    }
    Ok(())
}

/// About this scenario: its fixed inputs, why / how / cost / check, and
/// the glossary.
fn about(out: &mut dyn Write, app: &App) -> io::Result<()> {
    let lang = app.lang;
    let card = &app.loaded.card;
    let l = |label: Label| escape(label.get(lang));
    write!(
        out,
        "<section class=\"about\">\n<h2>{}</h2>\n<h3>{}</h3>\n<ul>\n",
        l(i18n::ABOUT),
        l(i18n::CONDITIONS)
    )?;
    for c in &card.conditions {
        writeln!(out, "<li>{}</li>", escape(c.get(lang)))?;
    }
    out.write_all(b"</ul>\n")?;
    let about = &card.about;
    for (label, text) in [
        (i18n::WHY, &about.why),
        (i18n::HOW, &about.how),
        (i18n::COST, &about.cost),
        (i18n::CHECK, &about.check),
    ] {
        write!(
            out,
            "<h3>{}</h3>\n<p>{}</p>\n",
            l(label),
            escape(text.get(lang))
        )?;
    }
    write!(
        out,
        "</section>\n<section class=\"glossary\">\n<h2>{}</h2>\n<dl>\n",
        l(i18n::GLOSSARY)
    )?;
    for (term, meaning) in i18n::GLOSSARY_ENTRIES {
        writeln!(out, "<dt>{}</dt><dd>{}</dd>", l(term), l(meaning))?;
    }
    out.write_all(b"</dl>\n</section>\n")
}

/// The page's own text: the reader's interface fonts, then CJK ones.
pub(super) const BODY_FONTS: &str = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'Noto Sans SC', \
     'PingFang SC', 'Microsoft YaHei'";

/// The embedded faces, and the page's text trying them before `system-ui`,
/// so a reader without a CJK font still reads the words. (Chromium takes
/// a character `system-ui` lacks to the system's own fall-back and never
/// tries the families after it: the heading was boxes with them there.)
fn embedded_css(fonts: &Embedded) -> String {
    let mut css = fonts.css.clone();
    if !fonts.families.is_empty() {
        let named = BODY_FONTS.trim_start_matches("system-ui, ");
        let _ = writeln!(
            css,
            "body {{ font-family: {named}, {}, system-ui, sans-serif; }}",
            fonts.families
        );
    }
    css
}

fn hidden(i: usize) -> &'static str {
    if i == 0 { "" } else { " hidden" }
}

pub(super) fn hex((r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The page in the figure's own colours, so figure and page are one.
fn css(theme: Theme) -> String {
    let palette = theme.palette16();
    let (bg, fg) = (hex(theme.page()), hex(theme.page_fg()));
    let muted = hex(palette[7]);
    let line = hex(palette[8]);
    let accent = hex(palette[12]);
    format!(
        ":root {{ color-scheme: {scheme}; }}
* {{ box-sizing: border-box; }}
[hidden] {{ display: none !important; }}
body {{ margin: 0; background: {bg}; color: {fg};
  font: 16px/1.6 {BODY_FONTS}, sans-serif; }}
main {{ max-width: 1280px; margin: 0 auto; padding: 12px; }}
h1 {{ font-size: 1.4em; margin: 0.3em 0 0.6em; }}
h2 {{ font-size: 1.15em; margin: 0.4em 0; }}
h3 {{ font-size: 1em; margin: 1em 0 0.2em; }}
.player {{ border: 1px solid {line}; border-radius: 6px; padding: 8px; }}
.player:focus {{ outline: 3px solid {accent}; outline-offset: 2px; }}
main.embed {{ max-width: none; padding: 4px; }}
/* The player alone (an iframe of notes): the whole player in the frame's
   height, the figure taking what the controls and the step's words leave,
   the words scrolling within their own box. */
main.embed .player {{ display: flex; flex-direction: column; height: calc(100vh - 8px); }}
main.embed .figure {{ flex: 1 1 0; min-height: 120px; }}
main.embed .figure .frame {{ height: 100%; }}
main.embed .figure svg {{ width: 100%; height: 100%; }}
main.embed .steps {{ flex: 0 1 auto; max-height: 24vh; overflow-y: auto; }}
main.embed .controls {{ margin: 4px 0; gap: 4px; }}
main.embed button, main.embed input {{ min-height: 32px; padding: 2px 8px; }}
/* The keys stay the player's description for screen readers; the notes
   around the frame have room for them, the frame has not. */
main.embed .hint {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }}
main.embed .player.zoomed .figure svg {{ height: auto; }}
.figure {{ position: relative; }}
.figure svg {{ display: block; width: 100%; height: auto; }}
.figure svg text {{ white-space: pre; }}
/* Zoomed, the whole player fills the window: the controls on top, then the
   figure at full size in a box of its own that scrolls both ways, then the
   step's words, which the window scrolls to. */
.player.zoomed {{ position: fixed; inset: 0; z-index: 10; overflow-y: auto; background: {bg};
  border: 0; border-radius: 0; margin: 0; display: flex; flex-direction: column; }}
.player.zoomed .controls {{ order: -2; margin: 0 0 4px; }}
.player.zoomed .progress {{ order: -1; margin-bottom: 4px; }}
.player.zoomed .figure {{ overflow: auto; flex: none; max-height: 60vh; }}
.player.zoomed .figure svg {{ min-width: 1100px; }}
.zoom {{ margin-left: auto; }}
.controls {{ display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 8px 0; }}
.progress {{ display: flex; gap: 8px; align-items: center; }}
.progress input {{ flex: 1; min-height: 32px; padding: 0; }}
.range {{ color: {muted}; font-size: 0.9em; }}
button, input {{ font: inherit; color: {fg}; background: {bg}; border: 1px solid {line};
  border-radius: 4px; padding: 4px 10px; min-height: 40px; }}
button:hover {{ border-color: {fg}; }}
button:focus-visible, input:focus-visible {{ outline: 3px solid {accent}; outline-offset: 1px; }}
button[aria-pressed=true] {{ border-color: {fg}; font-weight: bold; }}
#counter {{ font-weight: bold; font-variant-numeric: tabular-nums; min-width: 4em; text-align: center; }}
.dwell input {{ width: 5em; }}
.step p {{ margin: 0.3em 0; white-space: pre-line; }}
.acting, .hint {{ color: {muted}; }}
.ended {{ font-weight: bold; }}
.hint {{ font-size: 0.9em; }}
.note {{ font-weight: bold; margin: 0.3em 0; }}
dt {{ font-weight: bold; margin-top: 0.5em; }}
dd {{ margin-left: 1.5em; }}
",
        scheme = if theme == Theme::DARK { "dark" } else { "light" },
    )
}

/// The player's behaviour, `player.js`, after the numbers it needs.
/// `total` frames are in the page; `first` is the scenario step number of
/// the first one (`--steps`), of `of` steps.
fn script(total: usize, first: usize, of: usize, packed: bool) -> String {
    format!(
        "var agentLoopPlayer = {{ total: {total}, first: {first}, of: {of}, packed: {packed}, per: {PER_BLOCK} }};\n{}",
        include_str!("player.js")
    )
}

pub(super) fn step(app: &crate::app::App, index: usize) -> Step {
    let trace = app.trace();
    Step {
        number: index + 1,
        title: i18n::step_title(trace, index),
        acting: i18n::who_acts(trace, index),
        ended: trace.steps[index]
            .end
            .map(|end| i18n::loop_ended(end, trace.task, app.lang)),
        explanation: super::frame::explanation(app, index),
    }
}
