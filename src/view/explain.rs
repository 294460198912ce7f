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
    // A title the header had to cut is read here whole.
    if s.title_cut {
        let title = i18n::step_title(trace, s.step);
        out.extend(hanging(vec![], &title, theme.current(), w));
        out.push(Line::default());
    }
    let text = i18n::explanation(trace, s.step);
    out.extend(hanging(vec![], &text, Style::new(), w));

    // The provider's own words, exactly as its API returns them.
    if let Some(error) = crate::wire::error_at(trace, &step.kind) {
        out.push(Line::default());
        out.extend(hanging(
            vec![],
            &i18n::provider_says(trace.provider, lang),
            theme.muted(),
            w,
        ));
        for line in error.lines() {
            out.extend(hanging(vec![Span::raw("  ")], line, theme.error(), w));
        }
    }

    // The JSON-RPC this step sends to or from an MCP server, as sent.
    if let Some(server) = crate::wire::mcp::server_at(trace, s.step) {
        out.push(Line::default());
        let lead = i18n::MCP_WIRE_LEAD.fill(lang, &[("server", &server)]);
        out.extend(hanging(vec![], &lead, theme.muted(), w));
        for (sender, message) in crate::wire::mcp::messages_at(trace, s.step) {
            let arrow = match sender {
                crate::wire::mcp::Sender::Host => "→ ",
                crate::wire::mcp::Sender::Server => "← ",
            };
            let text = crate::trace::spaced_json(&message);
            let text = crate::safe::for_screen(&text);
            out.extend(hanging(vec![Span::raw(arrow)], &text, Style::new(), w));
        }
    }

    // A call of this step and a sub-agent's run: the link, both ways.
    if let Some(link) = &s.sub_agent {
        out.push(Line::default());
        out.extend(sub_agent(link, s.key_hints, lang, theme, w));
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

/// The link between a call and the sub-agent it started, in words.
fn sub_agent(
    link: &crate::sub_agent::Link,
    keys: bool,
    lang: crate::scenario::Lang,
    theme: crate::theme::Theme,
    w: usize,
) -> Vec<Line<'static>> {
    use crate::sub_agent::Way;
    let (text, key, mark) = match link.way {
        Way::Into => (i18n::SUB_AGENT_INTO, i18n::SUB_AGENT_INTO_KEYS, "↳ "),
        Way::Out => (i18n::SUB_AGENT_OUT, i18n::SUB_AGENT_OUT_KEYS, "↰ "),
    };
    let mut text = text.fill(
        lang,
        &[
            ("call", &crate::safe::for_screen(&link.call)),
            ("agent", &crate::safe::for_screen(&link.agent)),
            ("k", &(link.conversation + 1)),
            ("n", &link.of),
        ],
    );
    if keys {
        text.push_str(key.get(lang));
    }
    hanging(vec![Span::raw(mark)], &text, theme.muted(), w)
}
