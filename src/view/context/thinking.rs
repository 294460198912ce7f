//! A reply's reasoning in the context list, where its provider sends it
//! back (`wire::thinking`): in Responses a `reasoning` item of its own,
//! numbered before the reply's items; in Anthropic the `thinking` block
//! that opens the reply. Chat Completions has no place for it, so the
//! list draws none there.

use ratatui::text::{Line, Span};

use crate::trace::{Lane, Message};
use crate::view::scene::Scene;
use crate::view::text::{hanging, truncate, width};
use crate::wire::Provider;

/// The reasoning's lines, pushed onto `lines`; `prefix` becomes the
/// prefix of the reply's own lines under them. Returns how many items the
/// reasoning adds before the reply's (1 in Responses, else 0).
pub(super) fn lines(
    s: &Scene<'_>,
    text: &str,
    prefix: &mut Vec<Span<'static>>,
    lines: &mut Vec<Line<'static>>,
    (role, role_w): (&str, usize),
    brief: bool,
    w: usize,
) -> u32 {
    let theme = s.theme;
    let model = theme.lane_style(Lane::Model);
    let (head, shift) = match s.trace.provider {
        Provider::Responses => {
            // The item's number, then "reasoning" where the role stands.
            let number = prefix.first().cloned().unwrap_or_default();
            let kind = "reasoning";
            let pad = " ".repeat(role_w.saturating_sub(width(kind)));
            let head = vec![number.clone(), Span::styled(format!("{kind}{pad} "), model)];
            // The reply's own item is numbered after it.
            let shown = number.content.trim_start_matches(['+', '≠', ' ']).trim();
            let next = shown.parse::<u32>().map_or(0, |n| n + 1);
            let mark: String = number.content.chars().take(1).collect();
            let pad = " ".repeat(role_w.saturating_sub(width(role)));
            *prefix = vec![
                Span::styled(format!("{mark}{next:>2} "), number.style),
                Span::styled(format!("{role}{pad} "), model),
            ];
            (head, 1)
        }
        _ => {
            // The block's type on the reply's first line, its text under
            // it: the role column leaves the text its room.
            let mut head = prefix.clone();
            head.push(Span::styled("thinking", model));
            lines.push(Line::from(head));
            let base: usize = prefix.iter().map(|s| s.width()).sum();
            *prefix = vec![Span::raw(" ".repeat(base))];
            (vec![Span::raw(" ".repeat(base + 2))], 0)
        }
    };
    if brief {
        let used: usize = head.iter().map(|s| s.width()).sum();
        let mut one = head;
        one.push(Span::styled(
            truncate(&crate::i18n::one_line(text), w.saturating_sub(used)),
            theme.muted(),
        ));
        lines.push(Line::from(one));
    } else {
        lines.extend(hanging(head, text, theme.muted(), w));
    }
    shift
}

/// The characters a message's folded lines stand for: its text, and its
/// reasoning where the list draws it (the host holds none in Chat).
pub(super) fn drawn_chars(m: &Message) -> usize {
    m.text.chars().count() + m.reasoning.as_deref().map_or(0, |r| r.chars().count())
}
