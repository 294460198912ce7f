//! Overlays: help (keys from the keymap table, and the glossary) and
//! about this scenario. (The lesson picker, in `picker.rs`, opens its
//! popup here too.)

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Widget};

use super::text::{hanging, width};
use crate::app::{App, Overlay};
use crate::i18n;
use crate::keymap::KEYMAP;

/// The popup's place on a screen of `area`.
pub(super) fn popup(area: Rect) -> Rect {
    let [popup] = Layout::horizontal([Constraint::Percentage(86)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::vertical([Constraint::Percentage(90)])
        .flex(Flex::Center)
        .areas(popup);
    popup
}

pub fn lines(app: &App, overlay: Overlay, w: usize) -> Vec<Line<'static>> {
    match overlay {
        Overlay::Help => help_lines(app, w),
        Overlay::About => about_lines(app, w),
        Overlay::Picker => Vec::new(),
    }
}

/// Clear a popup's place over the screen.
pub(super) fn clear_popup(app: &App, popup: Rect, buf: &mut Buffer) {
    // A wide character cut in half by the popup's left edge would hide the
    // border; blank it.
    if popup.x > 0 {
        for y in popup.top()..popup.bottom() {
            let cell = &mut buf[(popup.x - 1, y)];
            if super::text::width(cell.symbol()) > 1 {
                cell.set_symbol(" ");
            }
        }
    }
    Clear.render(popup, buf);
    buf.set_style(popup, app.theme.base());
}

pub fn render(app: &App, overlay: Overlay, area: Rect, buf: &mut Buffer) -> u16 {
    let popup = popup(area);
    clear_popup(app, popup, buf);
    let title = match overlay {
        Overlay::Help => i18n::HELP,
        Overlay::About => i18n::ABOUT,
        Overlay::Picker => i18n::PICKER,
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Double)
        .border_style(app.theme.border(true))
        .title(Line::styled(
            format!(" {} ", title.get(app.lang)),
            app.theme.title(),
        ))
        .title_bottom(Line::styled(
            format!(" {} ", i18n::CLOSE_HINT.get(app.lang)),
            app.theme.muted(),
        ));
    let inner = block.inner(popup);
    block.render(popup, buf);
    let w = inner.width as usize;
    let lines = lines(app, overlay, w);
    super::window::scrolled(app.lang, app.theme, lines, inner, app.overlay_scroll, buf)
}

fn help_lines(app: &App, w: usize) -> Vec<Line<'static>> {
    let lang = app.lang;
    let theme = app.theme;
    let mut out = vec![Line::styled(i18n::KEYS.get(lang), theme.title())];
    let key_w = KEYMAP
        .iter()
        .map(|b| width(&b.keys_text()))
        .max()
        .unwrap_or(10)
        + 2;
    for binding in KEYMAP {
        let keys = binding.keys_text();
        let pad = " ".repeat(key_w.saturating_sub(width(&keys)));
        out.extend(hanging(
            vec![Span::styled(format!("  {keys}{pad}"), theme.current())],
            binding.help.get(lang),
            Style::new(),
            w,
        ));
    }
    out.push(Line::default());
    out.push(Line::styled(i18n::GLOSSARY.get(lang), theme.title()));
    for (term, meaning) in i18n::GLOSSARY_ENTRIES {
        out.extend(hanging(
            vec![Span::styled(
                format!("  {} — ", term.get(lang)),
                theme.current(),
            )],
            meaning.get(lang),
            Style::new(),
            w,
        ));
    }
    out
}

fn about_lines(app: &App, w: usize) -> Vec<Line<'static>> {
    let lang = app.lang;
    let theme = app.theme;
    let card = &app.loaded.card;
    let mut out = vec![Line::styled(
        card.title.get(lang).to_string(),
        theme.title(),
    )];
    // A harness mistake offers its correct twin side by side.
    if let Some(c) = &app.compare
        && c.twin
    {
        let label = if c.shown {
            i18n::COMPARE_OFFER_OPEN
        } else {
            i18n::COMPARE_OFFER
        };
        let title = c.other.trace(lang).title.clone();
        out.extend(hanging(
            vec![Span::styled("▶ ", theme.current_marker())],
            &label.fill(lang, &[("title", &title)]),
            theme.current(),
            w,
        ));
    }
    out.push(Line::default());
    out.push(Line::styled(i18n::CONDITIONS.get(lang), theme.title()));
    for c in &card.conditions {
        out.extend(hanging(
            vec![Span::raw("  • ")],
            c.get(lang),
            Style::new(),
            w,
        ));
    }
    let about = &card.about;
    for (label, text) in [
        (i18n::WHY, &about.why),
        (i18n::HOW, &about.how),
        (i18n::COST, &about.cost),
        (i18n::CHECK, &about.check),
    ] {
        out.push(Line::default());
        out.push(Line::styled(label.get(lang), theme.title()));
        out.extend(hanging(
            vec![Span::raw("  ")],
            text.get(lang),
            Style::new(),
            w,
        ));
    }
    out
}
