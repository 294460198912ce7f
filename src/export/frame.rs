//! A frame off-screen: the buffer the TUI would draw, and its words.

use ratatui::buffer::Buffer;

use crate::app::App;
use crate::frames::{self, Framing};
use crate::i18n;
use crate::scenario::Lang;

/// One frame off-screen, with the words that describe it.
pub struct Frame {
    pub buffer: Buffer,
    /// Scenario title, step k/N and the step's title.
    pub title: String,
    /// Who acts and what the step means, for alt text.
    pub description: String,
    /// The language of the text, for `xml:lang`.
    pub lang: Lang,
}

/// Step `index` (0-based) of `app`'s scenario at `width`×`height`.
pub fn frame(app: &App, index: usize, size: (u16, u16)) -> Frame {
    framed(app, index, size, Framing::default())
}

/// Step `index` (0-based), framed for notes (`--bare`, `--panel`).
pub fn framed(app: &App, index: usize, (width, height): (u16, u16), framing: Framing) -> Frame {
    let at = frames::at_step_framed(app, index, width, height, framing);
    let buffer = frames::render_framed(&at, width, height, framing);
    if let Some((title, description)) = at
        .comparing()
        .map(|c| c.figure_words(at.trace(), at.lang, at.step))
    {
        return Frame {
            buffer,
            title,
            description,
            lang: at.lang,
        };
    }
    let trace = at.trace();
    let lang = at.lang;
    let title = format!(
        "{} · {} · {}",
        trace.title,
        step_of(app, index),
        i18n::step_title(trace, index)
    );
    Frame {
        buffer,
        title,
        description: description(app, index),
        lang,
    }
}

/// "步骤 3/8" or "step 3/8".
pub(super) fn step_of(app: &App, index: usize) -> String {
    format!("{} {}/{}", i18n::STEP.get(app.lang), index + 1, app.steps())
}

/// Who acts at step `index`, how the loop ended there, and what the step
/// means: the figure's alt text.
fn description(app: &App, index: usize) -> String {
    let trace = app.trace();
    let lang = app.lang;
    let step = &trace.steps[index];
    let mut text = format!(
        "{}{}\n{}\n",
        i18n::lead(i18n::ACTING, lang),
        i18n::who_acts(trace, index),
        i18n::step_title(trace, index)
    );
    if let Some(end) = step.end {
        text.push_str(&i18n::loop_ended(end, trace.task, lang));
        text.push('\n');
    }
    text.push_str(&explanation(app, index));
    text
}

/// The step's narration, or the generic words for its kind.
pub(super) fn explanation(app: &App, index: usize) -> String {
    let trace = app.trace();
    i18n::explanation(trace, index)
}
