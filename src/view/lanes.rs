//! The swimlanes as a sequence diagram: a lifeline per lane, one row (or
//! two, when the whole run fits) per step up to the current one, an arrow
//! from sender to receiver, and the words of each step in a column of their
//! own beside the lanes, so a label never stands over another lane's span
//! or erases a lifeline. The user is not a lane: the task comes from a mark
//! left of the Model lifeline. Earlier rows are dimmed; the current row is
//! bold and marked `▶` in the gutter. Only the rows that fit are built, so
//! long traces cost the same to draw.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use super::scene::Scene;
use super::text::{Row, truncate, width, wrap};
use crate::i18n::{self, lane_name};
use crate::trace::{FileChange, Lane, Source, Step, Timeline, Trace};

/// The panel laid out for one step, language and size: its rows, and how
/// far it can scroll (in rows, like every panel).
pub struct LanesView {
    rows: Vec<Row>,
    env: Vec<Line<'static>>,
    pub max_scroll: u16,
}

/// The lanes panel of one run: what it draws from, and the steps marked
/// `≠` in its gutter (where two compared runs first differ, and where
/// their contexts do), if any.
pub struct Lanes<'a> {
    pub scene: &'a Scene<'a>,
    pub mark: &'a [usize],
}

impl Lanes<'_> {
    /// Draw it on `area`, scrolled `scroll` rows up from the current step;
    /// returns how far it can scroll.
    pub fn render(&self, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
        render_marked(self.scene, area, scroll, self.mark, buf)
    }

    /// Its rows at `w`×`h`, and how far they can scroll.
    pub fn layout(&self, w: usize, h: usize, scroll: u16) -> LanesView {
        layout(self.scene, w, h, scroll, self.mark)
    }

    /// Room for the words beside the arrows in a panel `w` cells wide.
    pub fn words_room(&self, w: usize) -> usize {
        words_room(self.scene, w)
    }
}

/// The panel with the steps `mark` (0-based) marked `≠` in its gutter.
fn render_marked(s: &Scene<'_>, area: Rect, scroll: u16, mark: &[usize], buf: &mut Buffer) -> u16 {
    let view = layout(s, area.width as usize, area.height as usize, scroll, mark);
    // Rows are drawn cell by cell: at every step of a long trace the panel
    // is full of them, and a Paragraph would split each into graphemes.
    for (y, row) in (area.top()..area.bottom()).zip(&view.rows) {
        row.render(area.x, y, buf);
    }
    // The environment sits at the bottom of the panel.
    let h = area.height as usize;
    let env_top = view.rows.len().max(h.saturating_sub(view.env.len())) as u16;
    let env_area = Rect {
        y: area.y + env_top.min(area.height),
        height: area.height.saturating_sub(env_top),
        ..area
    };
    super::window::draw_lines(&view.env, env_area, buf);
    view.max_scroll
}

fn words_room(s: &Scene<'_>, w: usize) -> usize {
    Geometry::new(s, w, s.trace.len()).label_room()
}

fn layout(s: &Scene<'_>, w: usize, h: usize, scroll: u16, mark: &[usize]) -> LanesView {
    let trace = s.trace;
    let g = Geometry::new(s, w, trace.len());
    let env = environment(s, w, h);
    // One row for the lane names.
    let room = h.saturating_sub(1 + env.len());
    // With room for the whole scenario, each step gets two rows, so its
    // words can take two lines; otherwise one row per step. Decided from
    // the trace alone, so the diagram keeps its look from step to step.
    let per_step = if trace.len() * 2 + 2 <= h { 2 } else { 1 };
    let total = (s.step + 1) * per_step;
    let max_scroll = total
        .saturating_sub(room)
        .min(super::window::MAX_SCROLL as usize);
    let scroll = (scroll as usize).min(max_scroll);

    // The window of rows ends `scroll` rows above the current step's last.
    let end = total - scroll;
    let mut start = end.saturating_sub(room);
    // Rows left out above get a marker row of their own.
    if start > 0 {
        start += 1;
    }
    let mut rows = vec![header(s, &g)];
    if start > 0 {
        rows.push(earlier_marker(s, &g, start / per_step));
    }
    let first_step = start / per_step;
    let last_step = (end - 1) / per_step;
    for index in first_step..=last_step {
        for (k, row) in step_rows(s, trace, index, &g, per_step, mark.contains(&index))
            .into_iter()
            .enumerate()
        {
            let at = index * per_step + k;
            if at >= start && at < end {
                rows.push(row);
            }
        }
    }
    LanesView {
        rows,
        env,
        max_scroll: max_scroll as u16,
    }
}

/// Where each lane's lifeline stands, and where the words column starts.
struct Geometry {
    width: usize,
    gutter: usize,
    /// Where the user's mark sits, left of the Model lifeline.
    user: usize,
    centers: [usize; 3],
    /// First column of the words beside the arrows.
    label: usize,
}

impl Geometry {
    fn new(s: &Scene<'_>, width: usize, steps: usize) -> Self {
        let gutter = steps.to_string().len() + 3;
        let user = gutter;
        let user_w = super::text::width(&user_mark(s)).max(super::text::width(API_MARK));
        let model = user + user_w + 3;
        // Lanes as close as readable arrows allow; the rest is for words.
        let gap = (width.saturating_sub(model + 4) / 6).clamp(8, 12);
        let centers = [model, model + gap, model + 2 * gap];
        Geometry {
            width,
            gutter,
            user,
            centers,
            label: model + 2 * gap + 3,
        }
    }

    fn center(&self, lane: Lane) -> usize {
        self.centers[lane.index()]
    }

    /// Room for the words, short of the border by one column.
    fn label_room(&self) -> usize {
        self.width.saturating_sub(self.label + 1)
    }
}

/// The user's mark: their name and a circle, outside the three lanes.
fn user_mark(s: &Scene<'_>) -> String {
    format!("{} ○", i18n::user_word(s.trace))
}

/// The provider's API, outside the lanes too: it answers a request the
/// model never sees.
const API_MARK: &str = "API ✗";

fn header(s: &Scene<'_>, g: &Geometry) -> Row {
    let theme = s.theme;
    let step = &s.trace.steps[s.step];
    let mut row = Row::new(g.width, Style::new());
    for lane in Lane::ALL {
        let acting = step.acting_lane() == Some(lane) && step.from != Some(step.to)
            || step.from == Some(lane) && step.to == lane;
        let name = lane_name(lane, s.lang);
        // The acting lane is named in brackets, not only coloured.
        let label = if acting {
            format!("[{name}]")
        } else {
            name.to_string()
        };
        let x = g.center(lane).saturating_sub(width(&label) / 2);
        let style = theme.lane_style(lane).add_modifier(Modifier::BOLD);
        let style = if acting {
            style.add_modifier(Modifier::REVERSED)
        } else {
            style
        };
        row.put(x, &label, style);
    }
    row
}

/// The row that says earlier steps are above, and how to see them.
fn earlier_marker(s: &Scene<'_>, g: &Geometry, hidden: usize) -> Row {
    let mut row = Row::new(g.width, Style::new());
    let text = i18n::earlier_steps(hidden, s.key_hints, s.lang);
    row.put(
        g.gutter,
        &truncate(&text, g.width - g.gutter),
        s.theme.muted(),
    );
    row
}

fn step_rows(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    g: &Geometry,
    per_step: usize,
    marked: bool,
) -> Vec<Row> {
    let theme = s.theme;
    let step = &trace.steps[index];
    let current = index == s.step;
    let past = theme.history();
    let lifelines = |row: &mut Row| {
        for lane in Lane::ALL {
            let style = if current {
                theme.lane_style(lane)
            } else {
                past
            };
            row.put(g.center(lane), "│", style);
        }
    };
    let style = arrow_style(s, step, current);
    let mut rows: Vec<Row> = (0..per_step)
        .map(|_| {
            let mut row = Row::new(g.width, Style::new());
            lifelines(&mut row);
            row
        })
        .collect();

    let number = format!("{:>width$}", index + 1, width = g.gutter - 3);
    if current {
        rows[0].put(0, &format!("▶ {number}"), theme.current_marker());
    } else {
        rows[0].put(2, &number, past);
    }
    if marked {
        // Between the current-step mark and the number, in words and colour.
        rows[0].put(1, "≠", theme.error().add_modifier(Modifier::BOLD));
    }
    draw_arrow(s, &mut rows[0], g, step, style);

    // The step's words, beside the lanes: wrapped to the rows it has,
    // cut at a word boundary when longer (the full text is in the panels).
    let mut label = i18n::arrow_label(trace, index);
    let room = g.label_room();
    if width(&label) > room * per_step {
        label = super::ids::shorten_ids(&label, step);
    }
    if width(&label) > room * per_step
        && let Some(short) = i18n::arrow_label_short(trace, step)
    {
        label = super::ids::shorten_ids(&short, step);
    }
    if room > 0 {
        let (label, _) = super::text::head(&label, per_step, room);
        let mut lines = wrap(label, room);
        if lines.len() > per_step {
            let rest = lines[per_step - 1..].join(" ");
            lines.truncate(per_step - 1);
            lines.push(truncate(&rest, room));
        }
        for (row, line) in rows.iter_mut().zip(&lines) {
            row.put(g.label, line, style);
        }
    }
    rows
}

fn arrow_style(s: &Scene<'_>, step: &Step, current: bool) -> Style {
    if !current {
        return s.theme.history();
    }
    let colour = match step.source() {
        Source::User => s.theme.user(),
        Source::Provider => s.theme.error(),
        Source::Lane(lane) => s.theme.lane_style(lane),
    };
    colour.add_modifier(Modifier::BOLD)
}

fn draw_arrow(s: &Scene<'_>, row: &mut Row, g: &Geometry, step: &Step, style: Style) {
    let to = g.center(step.to);
    let (x0, source) = match step.source() {
        Source::Lane(from) if from == step.to => {
            // A host action with no message: a mark on the lifeline.
            row.put(to, "◆", style);
            return;
        }
        // The user and the provider's API are outside the lanes: the arrow
        // starts at their mark and passes over the Model lifeline without
        // touching it.
        Source::User | Source::Provider => {
            let mark = match step.source() {
                Source::User => user_mark(s),
                _ => API_MARK.to_string(),
            };
            let end = row.put(g.user, &mark, style);
            (end - 1, None)
        }
        Source::Lane(from) => (g.center(from), Some("●")),
    };
    let (left, right) = (x0.min(to), x0.max(to));
    for x in left + 1..right {
        row.put(x, "─", style);
    }
    if let Some(source) = source {
        row.put(x0, source, style);
    }
    row.put(to, if to > x0 { "▶" } else { "◀" }, style);
}

/// The Tool lane's environment: each file and what has been done to it.
fn environment(s: &Scene<'_>, w: usize, h: usize) -> Vec<Line<'static>> {
    let theme = s.theme;
    // Two or three rows at most, so the diagram keeps its room; a cut is
    // marked, never silent. Only the files whose names can reach them are
    // put into words: a few rows' worth more than they hold, so the rows
    // and the cut are the ones the whole list gives.
    let max = if h >= 20 { 3 } else { 2 };
    let budget = (max + 3) * w.max(8);
    let text = environment_text(s.trace, &s.timeline, s.step, budget, s.lang);
    let style = theme.lane_style(Lane::Tool).add_modifier(Modifier::BOLD);
    let mut rows = wrap(&text, w);
    if rows.len() > max {
        let rest = rows[max - 1..].join(" ");
        rows.truncate(max - 1);
        rows.push(truncate(&rest, w));
    }
    rows.into_iter().map(|l| Line::styled(l, style)).collect()
}

/// The environment line in words at `step`, as the Tool lane shows it
/// (also the plain transcript's).
/// Files past `budget` columns of text are left out (the lanes draw a few
/// rows; the transcript passes `usize::MAX`).
pub fn environment_text(
    trace: &Trace,
    timeline: &Timeline,
    step: usize,
    budget: usize,
    lang: crate::scenario::Lang,
) -> String {
    // A call that is running now has not finished with its file yet: say
    // so, rather than "not read" while the Tool lane is reading it.
    let running = timeline.running_at(trace, step);
    let (mut parts, mut used) = (Vec::new(), 0);
    for path in &trace.files {
        let (state, created) = (timeline.state_at(path, step), timeline.created_at(path));
        if created.is_some_and(|c| c > step) {
            continue;
        }
        if used > budget {
            break;
        }
        let user = running
            .iter()
            .find(|c| c.args.iter().any(|(k, v)| k == "path" && v == path));
        let state = match (user, state) {
            (Some(call), Some(FileChange::Written { version })) => format!(
                "{} v{version}, {}",
                i18n::WRITTEN.get(lang),
                i18n::in_use_by(&call.id, lang)
            ),
            (Some(call), _) => i18n::in_use_by(&call.id, lang),
            (None, None) => i18n::NOT_READ.get(lang).to_string(),
            (None, Some(FileChange::Read)) => i18n::READ.get(lang).to_string(),
            (None, Some(FileChange::Written { version })) => {
                format!("{} v{version}", i18n::WRITTEN.get(lang))
            }
        };
        let part = format!("{path}{}{state}", i18n::colon(lang));
        used += width(&part) + 3;
        parts.push(part);
    }
    // The lesson's MCP server stands on the Tool lane too.
    if let Some(server) = i18n::mcp_server_state(trace, step, lang) {
        parts.push(server);
    }
    if parts.is_empty() {
        // A replayed file does not record the environment's files.
        let word = match trace.recorded {
            Some(_) => i18n::NOT_RECORDED,
            None => i18n::NONE,
        };
        parts.push(word.get(lang).to_string());
    }
    let label = i18n::environment_lead(lang);
    format!("{label}{}", parts.join(" · "))
}
