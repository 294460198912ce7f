//! The explanation panel: who acted, what this step means in plain words,
//! the inner loop of the reply, and how the loop ended.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::scene::Scene;
use super::text::hanging;
use crate::i18n;
use crate::trace::StepKind;

/// The explanation panel of one run at its step.
pub struct Explain<'a> {
    pub scene: &'a Scene<'a>,
}

impl Explain<'_> {
    /// Draw it on `area`, scrolled `scroll` lines down; returns how far it
    /// can scroll.
    pub fn render(&self, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
        render(self.scene, area, scroll, buf)
    }

    /// Its lines at `w` cells.
    pub fn lines(&self, w: usize) -> Vec<Line<'static>> {
        lines(self.scene, w)
    }
}

fn render(s: &Scene<'_>, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
    let lines = lines(s, area.width as usize);
    super::window::scrolled(s.lang, s.theme, lines, area, scroll, buf)
}

fn lines(s: &Scene<'_>, w: usize) -> Vec<Line<'static>> {
    let trace = s.trace;
    let lang = s.lang;
    let theme = s.theme;
    let step = &trace.steps[s.step];

    // Who acts and how the loop ended are in the header just above: the
    // panel gives its rows to the explanation itself.
    let mut out = Vec::new();
    let text = step
        .narration
        .clone()
        .unwrap_or_else(|| i18n::generic_explanation(trace, s.step));
    out.extend(hanging(vec![], &text, Style::new(), w));

    // The provider's own words, exactly as its API returns them.
    if let StepKind::Rejected { error, .. } = &step.kind {
        out.push(Line::default());
        out.extend(hanging(
            vec![],
            &i18n::provider_says(trace.provider, lang),
            theme.muted(),
            w,
        ));
        out.extend(hanging(vec![Span::raw("  ")], error, theme.error(), w));
    }

    // The inner loop: this reply was generated token by token in one call.
    if let StepKind::Proposes { number, .. } | StepKind::Answers { number } = step.kind
        && let Some(index) = (number as usize).checked_sub(1)
        && index < trace.model_calls.len()
    {
        let tokens = crate::wire::output_tokens(trace, s.counts, index);
        let note = i18n::inner_loop(number, tokens, lang);
        out.push(Line::default());
        out.extend(hanging(vec![], &note, theme.muted(), w));
    }
    out
}
