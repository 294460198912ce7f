//! A slide deck in the manner of reveal.js: one self-contained HTML page,
//! a slide per step (its title and its frame, the SVG the export makes),
//! the step's explanation as the slide's speaker notes. → ← (and ↓ ↑,
//! Page Down / Up, Space) turn the slides, Home / End go to the ends, the
//! slide number is in the corner, and `S` opens the notes view in a window
//! of its own, as reveal.js's speaker view does (current slide, next
//! slide, notes); where a pop-up is refused it opens over the slides.
//! `#step=N` opens step N and the address follows the slide, as in the
//! player. No outside resource: the player's content security policy.

use std::io::{self, Write};

use crate::frames::Framing;
use std::ops::RangeInclusive;

use super::html::{self, BODY_FONTS, article, hex, inlined};
use super::svg::escape;
use crate::app::App;
use crate::i18n::Label;
use crate::i18n::page::{DECK_KEYS, DECK_NEXT, DECK_NO_NEXT, DECK_NOTES};
use crate::theme::Theme;

/// The slide deck of the steps, written slide by slide to `out`; its
/// frames are bare, as the player's.
pub fn deck(
    app: &App,
    steps: RangeInclusive<usize>,
    size: (u16, u16),
    framing: Framing,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let framing = super::options::html_framing(framing);
    let mut out = std::io::BufWriter::new(out);
    write(
        &mut out,
        app,
        steps,
        &mut |index| {
            super::svg::render(&super::frame::framed(app, index, size, framing), app.theme)
        },
        &|index| html::step(app, index),
    )?;
    out.flush()
}

/// Write the deck of `steps` (0-based) to `out`, one slide at a time:
/// `svg` makes a step's figure and `words` its words when it is written.
pub fn write(
    out: &mut dyn Write,
    app: &App,
    steps: RangeInclusive<usize>,
    svg: &mut dyn FnMut(usize) -> String,
    words: &dyn Fn(usize) -> html::Step,
) -> io::Result<()> {
    let lang = app.lang;
    let l = |label: Label| escape(label.get(lang));
    let title = escape(app.loaded.card.title.get(lang));
    let of = app.trace().len();
    let first = *steps.start();
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{tag}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n\
         <title>{title}</title>\n<style>\n{css}</style>\n</head>\n<body>\n\
         <main id=\"deck\" class=\"deck\" aria-label=\"{title}\" aria-describedby=\"keys\">\n",
        tag = lang.tag(),
        css = css(app.theme),
    )?;
    for index in steps.clone() {
        let step = words(index);
        write!(
            out,
            "<section class=\"slide\" data-step=\"{n}\"{hidden}>\n\
             <h2>{step_label} {n}/{of} · {heading}</h2>\n<div class=\"frame\">\n{figure}</div>\n\
             <aside class=\"notes\" aria-label=\"{notes}\">\n{words}</aside>\n</section>\n",
            n = index + 1,
            hidden = if index == first { "" } else { " hidden" },
            step_label = l(crate::i18n::STEP),
            heading = escape(&step.title),
            figure = inlined(&svg(index)),
            notes = l(DECK_NOTES),
            words = article(&step, of, lang),
        )?;
    }
    write!(
        out,
        "<output id=\"number\" class=\"number\">{}/{of}</output>\n\
         <p id=\"keys\" class=\"keys\">{keys}</p>\n</main>\n\
         <div id=\"speaker\" class=\"speaker\" hidden>\n{view}</div>\n\
         <script type=\"text/plain\" id=\"speaker-page\">{page}</script>\n\
         <script>\n{script}</script>\n</body>\n</html>\n",
        first + 1,
        keys = l(DECK_KEYS),
        view = view(lang),
        page = notes_page(app, &title),
        script = script(steps.count(), first + 1, of),
    )
}

/// The notes view: the slide and its number, the next slide, the notes.
fn view(lang: crate::scenario::Lang) -> String {
    let l = |label: Label| escape(label.get(lang));
    format!(
        "<div id=\"speaker-view\" class=\"view\" data-last=\"{last}\">\n\
         <div class=\"now\"><p class=\"count\"></p><div class=\"shown\"></div></div>\n\
         <div class=\"next\"><p>{next}</p><div class=\"upcoming\"></div></div>\n\
         <div class=\"words\"><p class=\"label\">{notes}</p><div class=\"said\"></div>\
         <p class=\"keys\">{keys}</p></div>\n</div>\n",
        last = l(DECK_NO_NEXT),
        next = l(DECK_NEXT),
        notes = l(DECK_NOTES),
        keys = l(DECK_KEYS),
    )
}

/// The page of the notes window, written into it by the deck's script
/// (the window has no script of its own: the deck fills it and hears its
/// keys). Kept as the text of a `<script type="text/plain">`: its title is
/// escaped, so no `</script` can end it early.
fn notes_page(app: &App, title: &str) -> String {
    let lang = app.lang;
    format!(
        "<!DOCTYPE html><html lang=\"{tag}\"><head><meta charset=\"utf-8\">\
         <title>{notes} · {title}</title><style>\n{css}</style></head>\
         <body class=\"notes-window\">{view}</body></html>",
        tag = lang.tag(),
        notes = escape(DECK_NOTES.get(lang)),
        css = css(app.theme),
        view = view(lang),
    )
}

/// Slides that fill the window, in the figure's colours.
fn css(theme: Theme) -> String {
    let palette = theme.palette16();
    let (bg, fg) = (hex(theme.page()), hex(theme.page_fg()));
    let muted = hex(palette[7]);
    let line = hex(palette[8]);
    format!(
        ":root {{ color-scheme: {scheme}; }}
* {{ box-sizing: border-box; }}
[hidden] {{ display: none !important; }}
html, body {{ margin: 0; height: 100%; background: {bg}; color: {fg};
  font: 16px/1.5 {BODY_FONTS}, sans-serif; }}
.deck {{ height: 100vh; overflow: hidden; position: relative; }}
.deck:focus {{ outline: none; }}
.slide {{ height: 100vh; display: flex; flex-direction: column; padding: 2vh 2vw 5vh; }}
.slide h2 {{ font-size: clamp(16px, 3.6vh, 40px); margin: 0 0 1vh; font-weight: 600; }}
.frame {{ flex: 1 1 0; min-height: 0; }}
.frame svg {{ display: block; width: 100%; height: 100%; }}
svg text {{ white-space: pre; }}
.slide .notes {{ display: none; }}
.number {{ position: absolute; right: 1.2vw; bottom: 1vh; font-size: clamp(12px, 2.4vh, 28px);
  color: {muted}; }}
.deck > .keys {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }}
.speaker {{ position: fixed; inset: 0; z-index: 10; background: {bg}; overflow: auto; }}
.view {{ display: grid; grid-template-columns: 3fr 2fr; grid-template-rows: auto 1fr;
  gap: 12px; padding: 12px; min-height: 100vh; }}
.view .now {{ grid-row: 1 / 3; }}
.view .count {{ font-size: 1.6em; margin: 0 0 6px; }}
.view .shown svg, .view .upcoming svg {{ display: block; width: 100%; height: auto;
  border: 1px solid {line}; }}
.view .next p {{ margin: 0 0 6px; color: {muted}; }}
.view .words {{ font-size: 1.25em; overflow: auto; }}
.view .words .label, .view .words .keys {{ color: {muted}; font-size: 0.8em; }}
.view .words h2 {{ font-size: 1.1em; margin: 0 0 0.4em; }}
",
        scheme = if theme == Theme::DARK {
            "dark"
        } else {
            "light"
        },
    )
}

/// The deck's behaviour, `slides.js`, after the numbers it needs: `total`
/// slides, the first being the scenario's step `first`, of `of` steps.
fn script(total: usize, first: usize, of: usize) -> String {
    format!(
        "var agentLoopSlides = {{ total: {total}, first: {first}, of: {of} }};\n{}",
        include_str!("slides.js")
    )
}
