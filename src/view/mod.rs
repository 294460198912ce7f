//! The view: a pure function of the app state onto a buffer. No clock, no
//! I/O, no state changes. `render` draws the whole screen.

pub mod class;
mod compare;
pub mod context;
pub mod explain;
pub mod frame;
mod ids;
pub mod lanes;
pub mod overlay;
pub mod pairing;
pub mod picker;
pub mod quiz;
pub mod scene;
pub mod text;
mod window;
pub mod wire;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Tabs, Widget, Wrap};
use unicode_width::UnicodeWidthStr;

use crate::action::Limits;
use crate::app::{App, Overlay, Panel};
use crate::i18n;
use frame::panel_title;
use scene::Scene;
use window::draw_lines;

/// Below this size the screen says what it needs instead of drawing.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 18;
/// From this size up, all panels are shown side by side.
pub const WIDE_WIDTH: u16 = 100;
pub const WIDE_HEIGHT: u16 = 30;

/// Where everything goes on a screen of a given size.
pub struct Areas {
    pub header: Rect,
    /// One line saying what is wrong with the scenario file, when it runs
    /// but has faults (an `expect` the run does not meet, a warning).
    pub faults: Option<Rect>,
    pub footer: Rect,
    /// Each panel shown, with its place and whether it shares it (tabs).
    pub panels: Vec<(Panel, Rect, bool)>,
}

/// The layout for `area`, or None when the screen is below the minimum.
pub fn areas(app: &App, area: Rect) -> Option<Areas> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(0),
        Constraint::Length(2),
    ])
    .areas(area);
    let (faults, body) = if app.loaded.faults.is_empty() {
        (None, body)
    } else {
        let [line, rest] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(body);
        (Some(line), rest)
    };
    let panels = if app.zoom {
        vec![(app.focus, body, false)]
    } else if area.width >= WIDE_WIDTH && area.height >= WIDE_HEIGHT {
        // The lanes and the context get the height; the table and the
        // explanation need about a dozen lines.
        let bottom_height = (body.height * 2 / 5).clamp(8, 16);
        let [top, bottom] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(bottom_height)]).areas(body);
        let [lanes, context] =
            Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(top);
        let [pairing, explain] =
            Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)])
                .areas(bottom);
        vec![
            (Panel::Lanes, lanes, false),
            (Panel::Context, context, false),
            (Panel::Pairing, pairing, false),
            (Panel::Explain, explain, false),
        ]
    } else {
        // Compact: the lanes on top, one other panel below; Tab picks it.
        let lanes_height = (body.height / 2).max(8);
        let [lanes, rest] =
            Layout::vertical([Constraint::Length(lanes_height), Constraint::Min(0)]).areas(body);
        vec![
            (Panel::Lanes, lanes, false),
            (compact_lower(app), rest, true),
        ]
    };
    Some(Areas {
        header,
        faults,
        footer,
        panels,
    })
}

/// Draw the whole screen for the app's current state, and say how far
/// each panel can scroll.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) -> Limits {
    let limits = draw_screen(app, area, buf);
    spell_out_clusters(area, buf);
    limits
}

/// A cluster of several characters that each take cells (Tamil "கை", a
/// letter and its vowel sign; Hangul jamo "ᄀ가", two leading consonants)
/// is one ratatui cell two or more wide, but a terminal writes it letter by
/// letter, one cell each. Then the buffer and the screen disagree on what
/// the covered cells hold, and when a later frame writes a narrow
/// character over the cluster, ratatui (which expects the terminal to
/// clear a wide character whole) leaves the vowel sign on screen, a stray
/// glyph. Spelled out here as the terminal lays it out (each character
/// that takes cells starts a cell; marks of no width stay with it), the
/// buffer is what the screen shows.
fn spell_out_clusters(area: Rect, buf: &mut Buffer) {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    for y in area.top()..area.bottom() {
        let mut x = area.left();
        while x < area.right() {
            let cell = &buf[(x, y)];
            let symbol = cell.symbol();
            let width = symbol.width().max(1) as u16;
            if symbol.len() > 1 && !symbol.is_ascii() {
                let pieces: Vec<(String, u16)> = symbol.chars().fold(Vec::new(), |mut p, c| {
                    match (c.width().unwrap_or(0) as u16, p.last_mut()) {
                        (0, Some((text, _))) => text.push(c),
                        (w, _) => p.push((c.to_string(), w)),
                    }
                    p
                });
                let total: u16 = pieces.iter().map(|(_, w)| w).sum();
                if pieces.len() > 1 && total == width && pieces.iter().all(|(_, w)| *w > 0) {
                    let style = cell.style();
                    let mut at = x;
                    for (text, w) in pieces {
                        if at < area.right() {
                            buf[(at, y)].set_symbol(&text).set_style(style);
                        }
                        at += w;
                    }
                }
            }
            x += width;
        }
    }
}

fn draw_screen(app: &App, area: Rect, buf: &mut Buffer) -> Limits {
    buf.set_style(area, app.theme.base());
    let mut limits = Limits::default();
    let Some(areas) = areas(app, area) else {
        too_small(app, area, buf);
        return limits;
    };
    if app.comparing().is_some() {
        limits.sides = compare::render(app, area, buf);
        draw_overlay(app, area, buf, &mut limits);
        return limits;
    }
    let scene = Scene::of(app);
    frame::Header::of(app, &scene).render(areas.header, buf);
    if let Some(line) = areas.faults {
        frame::faults(app, line, buf);
    }
    frame::Footer::of(app).render(areas.footer, buf);
    limits.explain_hidden = !areas.panels.iter().any(|(p, ..)| *p == Panel::Explain);
    for (panel, rect, tabbed) in areas.panels {
        limits.panels[panel.index()] = draw_panel(app, panel, rect, tabbed, area.width, buf);
    }
    draw_overlay(app, area, buf, &mut limits);
    limits
}

/// The picker, the help or the about card over the screen (a lesson's or
/// a comparison's).
fn draw_overlay(app: &App, area: Rect, buf: &mut Buffer, limits: &mut Limits) {
    match app.overlay {
        Some(Overlay::Picker) => {
            limits.picker_rows = picker::PickerView::of(app).render(area, buf);
        }
        Some(Overlay::Join) => {
            if let Some(class) = &app.class {
                let (lang, theme) = (app.lang, app.theme);
                class::Join { class, lang, theme }.render(area, buf);
            }
        }
        Some(o) => limits.overlay = overlay::OverlayView::of(app, o).render(area, buf),
        None => {}
    }
}

/// In the compact layout, the panel under the lanes.
pub fn compact_lower(app: &App) -> Panel {
    match app.focus {
        Panel::Lanes => app.lower.unwrap_or(Panel::Explain),
        other => other,
    }
}

/// The panel a step is about, for a figure that has room for one under
/// the lanes: the context at a model call (and a compaction or a refused
/// request), the pairing table where a call is proposed, checked, run or
/// answered, else the explanation.
pub fn panel_of_step(kind: &crate::trace::StepKind) -> Panel {
    use crate::trace::StepKind as K;
    match kind {
        K::ModelCall { .. }
        | K::Resends { .. }
        | K::Compacts { .. }
        | K::Rejected { .. }
        | K::Cut { .. } => Panel::Context,
        K::Proposes { .. }
        | K::Validates { .. }
        | K::Executes { .. }
        | K::ResultArrives { .. }
        | K::Replays { .. }
        | K::UserDecides { .. } => Panel::Pairing,
        _ => Panel::Explain,
    }
}

/// `tabbed`: the panel shares its place with others (compact layout), so
/// its title names them all, the shown one marked; `screen`: the width of
/// the header above. Returns how far the panel can scroll.
fn draw_panel(
    app: &App,
    panel: Panel,
    area: Rect,
    tabbed: bool,
    screen: u16,
    buf: &mut Buffer,
) -> u16 {
    let focused = app.focus == panel;
    let block = panel_block(app, panel, focused, tabbed);
    let inner = block.inner(area);
    block.render(area, buf);
    if tabbed {
        panel_tabs(app, panel, focused, area, buf);
    }
    if inner.width == 0 || inner.height == 0 {
        return 0;
    }
    let scroll = app.scroll[panel.index()];
    match panel {
        Panel::Lanes => lanes::Lanes {
            scene: &Scene::of(app),
            mark: &[],
        }
        .render(inner, scroll, buf),
        Panel::Context if context_answers_the_question(app) => {
            let note = text::wrap(
                i18n::QUIZ_CONTEXT_HIDDEN.get(app.lang),
                inner.width as usize,
            );
            let lines: Vec<Line<'static>> = note
                .into_iter()
                .map(|l| Line::styled(l, app.theme.muted()))
                .collect();
            draw_lines(&lines, inner, buf);
            0
        }
        Panel::Context if app.wire => wire::Wire {
            scene: &Scene::of(app),
        }
        .render(inner, scroll, buf),
        Panel::Context => context::Context {
            scene: &Scene::of(app),
        }
        .render(inner, scroll, buf),
        Panel::Pairing => pairing::PairingTable {
            scene: &Scene::of(app),
        }
        .render(inner, scroll, buf),
        Panel::Explain if app.quiz.on => {
            let scene = Scene::of(app);
            quiz::QuizPanel::of(app, &scene).render(inner, scroll, buf)
        }
        Panel::Explain => {
            let mut scene = Scene::of(app);
            scene.title_cut = frame::title_cut(&scene, screen);
            explain::Explain { scene: &scene }.render(inner, scroll, buf)
        }
    }
}

/// Does the open question ask what the context panel shows right now?
/// "What has been appended since the last call?" is answered by the
/// context's own list of messages not sent yet: it is covered until the
/// question is answered or closed.
fn context_answers_the_question(app: &App) -> bool {
    app.question()
        .is_some_and(|q| q.kind == crate::quiz::Kind::NewInContext)
}

/// A panel's title as shown: the explanation's place says when it holds a
/// quiz question.
fn shown_title(app: &App, panel: Panel) -> String {
    match app.quiz.asking {
        Some(step) if panel == Panel::Explain => {
            i18n::QUIZ_TITLE.fill(app.lang, &[("n", &(step + 1))])
        }
        _ => panel_title(panel).get(app.lang).to_string(),
    }
}

fn panel_block(app: &App, panel: Panel, focused: bool, tabbed: bool) -> Block<'static> {
    let lang = app.lang;
    let theme = app.theme;
    // The focused panel says so in words as well as with a heavier border.
    let marker = if focused { "▶ " } else { "" };
    let mut title = Vec::new();
    // Tabbed, the title is drawn over the border by `panel_tabs`.
    if !tabbed {
        title.push(Span::styled(
            format!(" {marker}{} ", shown_title(app, panel)),
            theme.title(),
        ));
    }
    if app.zoom && focused {
        title.push(Span::styled(
            if app.key_hints {
                format!(" [{} · z] ", i18n::ZOOMED.get(lang))
            } else {
                format!(" [{}] ", i18n::ZOOMED.get(lang))
            },
            theme.muted(),
        ));
    }
    Block::new()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Rounded
        })
        .border_style(theme.border(focused))
        .title(Line::from(title))
}

/// The panels that share a place (compact layout) as its title: ratatui's
/// `Tabs` on the top border of `area`, the one shown marked and in
/// brackets, then the key that changes it.
fn panel_tabs(app: &App, panel: Panel, focused: bool, area: Rect, buf: &mut Buffer) {
    const TABS: [Panel; 3] = [Panel::Context, Panel::Pairing, Panel::Explain];
    let theme = app.theme;
    let marker = if focused { "▶ " } else { "" };
    let titles = TABS.map(|tab| {
        if tab == panel {
            Line::styled(
                format!(" {marker}[{}] ", shown_title(app, tab)),
                theme.title(),
            )
        } else {
            Line::styled(format!(" {} ", shown_title(app, tab)), theme.muted())
        }
    });
    // Each title carries its own spaces, so no padding and no divider.
    let tabs = Tabs::new(titles)
        .select(TABS.iter().position(|&t| t == panel))
        .highlight_style(theme.title())
        .padding("", "")
        .divider("");
    // Inside the corners, where a block's title goes.
    let room = Rect {
        x: area.x + 1,
        width: area.width.saturating_sub(2),
        height: area.height.min(1),
        ..area
    };
    let used = (UnicodeWidthStr::width(&tabs) as u16).min(room.width);
    tabs.render(
        Rect {
            width: used,
            ..room
        },
        buf,
    );
    if app.key_hints && !room.is_empty() {
        let hint = Span::styled("(Tab) ", theme.muted());
        buf.set_span(room.x + used, room.y, &hint, room.width - used);
    }
}

fn too_small(app: &App, area: Rect, buf: &mut Buffer) {
    let lang = app.lang;
    let message = format!(
        "{}: {} {MIN_WIDTH}×{MIN_HEIGHT}, {} {}×{}",
        i18n::TOO_SMALL.get(lang),
        i18n::NEEDS.get(lang),
        i18n::NOW.get(lang),
        area.width,
        area.height
    );
    Paragraph::new(message)
        .style(Style::new())
        .wrap(Wrap { trim: true })
        .render(area, buf);
}
