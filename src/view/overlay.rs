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
use crate::load::Card;
use crate::scenario::Lang;
use crate::theme::Theme;

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

/// Clear a popup's place over the screen.
pub(super) fn clear_popup(theme: Theme, popup: Rect, buf: &mut Buffer) {
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
    buf.set_style(popup, theme.base());
}

/// What an overlay draws: its content, in the screen's language and
/// theme, scrolled `scroll` lines. Built from the app by `of`, or by hand
/// to draw an overlay alone.
pub struct OverlayView<'a> {
    pub content: Content<'a>,
    pub lang: Lang,
    pub theme: Theme,
    pub scroll: u16,
}

/// The help (keys and glossary) or the scenario's about card; `Picker`
/// is only the picker's empty popup (the screen draws the picker with its
/// list, `PickerView`, over a lesson and over a comparison alike).
pub enum Content<'a> {
    Help,
    Picker,
    About {
        card: &'a Card,
        /// A harness mistake's offer of its correct twin side by side.
        offer: Option<Offer>,
    },
}

/// The comparison the about card offers: with whom, and whether it is
/// already on screen.
pub struct Offer {
    pub title: String,
    pub open: bool,
}

impl<'a> OverlayView<'a> {
    /// The app's `overlay`.
    pub fn of(app: &'a App, overlay: Overlay) -> OverlayView<'a> {
        let content = match overlay {
            Overlay::About => Content::About {
                card: &app.loaded.card,
                offer: app.compare.as_ref().filter(|c| c.twin).map(|c| Offer {
                    title: c.other.trace(app.lang).title.clone(),
                    open: c.shown,
                }),
            },
            Overlay::Help => Content::Help,
            // The join panel draws itself (`view/class.rs`).
            Overlay::Picker | Overlay::Join => Content::Picker,
        };
        OverlayView {
            content,
            lang: app.lang,
            theme: app.theme,
            scroll: app.overlay_scroll,
        }
    }

    /// Its lines at width `w`.
    pub fn lines(&self, w: usize) -> Vec<Line<'static>> {
        match &self.content {
            Content::Help => help_lines(self, w),
            Content::Picker => Vec::new(),
            Content::About { card, offer } => about_lines(self, card, offer.as_ref(), w),
        }
    }

    /// Draw it over the screen `area`; returns how far it can scroll.
    pub fn render(&self, area: Rect, buf: &mut Buffer) -> u16 {
        let (lang, theme) = (self.lang, self.theme);
        let popup = popup(area);
        clear_popup(theme, popup, buf);
        let title = match self.content {
            Content::Help => i18n::HELP,
            Content::About { .. } => i18n::ABOUT,
            Content::Picker => i18n::PICKER,
        };
        let block = Block::new()
            .borders(Borders::ALL)
            .border_type(BorderType::Double)
            .border_style(theme.border(true))
            .title(Line::styled(
                format!(" {} ", title.get(lang)),
                theme.title(),
            ))
            .title_bottom(Line::styled(
                format!(" {} ", i18n::CLOSE_HINT.get(lang)),
                theme.muted(),
            ));
        let inner = block.inner(popup);
        block.render(popup, buf);
        let lines = self.lines(inner.width as usize);
        super::window::scrolled(lang, theme, lines, inner, self.scroll, buf)
    }
}

fn help_lines(v: &OverlayView<'_>, w: usize) -> Vec<Line<'static>> {
    let lang = v.lang;
    let theme = v.theme;
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

fn about_lines(
    v: &OverlayView<'_>,
    card: &Card,
    offer: Option<&Offer>,
    w: usize,
) -> Vec<Line<'static>> {
    let lang = v.lang;
    let theme = v.theme;
    let mut out = vec![Line::styled(
        card.title.get(lang).to_string(),
        theme.title(),
    )];
    // A harness mistake offers its correct twin side by side.
    if let Some(offer) = offer {
        let label = if offer.open {
            i18n::COMPARE_OFFER_OPEN
        } else {
            i18n::COMPARE_OFFER
        };
        out.extend(hanging(
            vec![Span::styled("▶ ", theme.current_marker())],
            &label.fill(lang, &[("title", &offer.title)]),
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
