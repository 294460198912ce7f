//! What must hold on every frame, checked from the drawn buffer rather
//! than read off snapshots: every step of every shipped lesson and of the
//! transcripts under tests/transcripts, in both languages, at 120×40,
//! 100×30 and 80×24, with each panel shown (and each zoomed), the context
//! panel both as a list and as the JSON body (`w`).
//!
//! - No panel that hides content (it can scroll, or says "more above" or
//!   "more below") shows a run of two or more blank rows between rows of
//!   text: blank rows never stand in for what it holds.
//! - At a model call every message new at it (`+`), and at the steps
//!   after it every message appended since (under the divider), is on
//!   screen at the default scroll, or the panel says new ones are above.
//! - Nothing is drawn over a panel's left, right or bottom border.
//! - A call id is never cut without a mark (`…`): an id-like word that
//!   fills a row to its end is a whole id of the run or carries the mark.
//! - The counters agree: the header's step is the lanes' current row, and
//!   the header's request size is the context heading's.
//! - A step title the header cuts (`…`) is read whole at the top of the
//!   explanation panel wherever that panel is on screen.

mod common;

use std::collections::HashSet;
use std::path::Path;

use agent_loop_sim::app::{App, Panel};
use agent_loop_sim::frames;
use agent_loop_sim::load::{self, CATALOG};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::trace::{StepKind, Trace};
use agent_loop_sim::view;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const SIZES: [(u16, u16); 3] = [(120, 40), (100, 30), (80, 24)];

/// One way of looking at a step: which panel has the focus, whether it is
/// zoomed, whether the context panel shows the JSON body.
#[derive(Debug, Clone, Copy)]
struct Look {
    focus: Panel,
    zoom: bool,
    wire: bool,
}

/// The looks that draw differently at a size: every panel zoomed, and
/// unzoomed each panel that can be the one under the lanes (at 80×24 the
/// focus picks it; wider, all four show whatever has the focus).
fn looks(compact: bool) -> Vec<Look> {
    let mut out = Vec::new();
    for wire in [false, true] {
        for focus in Panel::ALL {
            if wire && focus != Panel::Context {
                continue;
            }
            out.push(Look {
                focus,
                zoom: true,
                wire,
            });
            let shown_apart = compact && focus != Panel::Lanes;
            if shown_apart || (!compact && focus == Panel::Context) {
                out.push(Look {
                    focus,
                    zoom: false,
                    wire,
                });
            }
        }
    }
    out
}

/// The text of the cells of one row of `buf` from `x0` to `x1`, a wide
/// character written once.
fn row_text(buf: &Buffer, y: u16, x0: u16, x1: u16) -> String {
    let mut out = String::new();
    let mut x = x0;
    while x < x1 {
        let s = buf[(x, y)].symbol();
        out.push_str(s);
        x += unicode_width::UnicodeWidthStr::width(s).max(1) as u16;
    }
    out
}

fn inner(r: Rect) -> Rect {
    Rect {
        x: r.x + 1,
        y: r.y + 1,
        width: r.width.saturating_sub(2),
        height: r.height.saturating_sub(2),
    }
}

const BORDER: &str = "│┃╭╮╰╯┏┓┗┛─━";

/// Every id the run can show whole: its calls' ids and, for Responses,
/// their items' ids.
fn whole_ids(trace: &Trace) -> HashSet<String> {
    let mut ids = HashSet::new();
    for c in trace.calls.iter() {
        ids.insert(c.id.0.to_string());
        ids.insert(agent_loop_sim::wire::item_id(&c.id));
    }
    for m in trace.messages.iter() {
        if let Some(id) = &m.call_id {
            ids.insert(id.0.to_string());
        }
    }
    ids
}

const ID_PREFIXES: [&str; 4] = ["call_", "toolu_", "fc_", "srvtoolu_"];

/// Words that look like call ids, each with whether a `…` touches it.
fn id_words(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let is_id = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut i = 0;
    while i < chars.len() {
        if is_id(chars[i]) && (i == 0 || !is_id(chars[i - 1])) {
            let start = i;
            while i < chars.len() && is_id(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if ID_PREFIXES.iter().any(|p| word.starts_with(p)) {
                let marked = matches!(chars.get(i), Some('…' | '↩'))
                    || (start > 0 && chars[start - 1] == '…');
                out.push((word, marked));
            }
        } else {
            i += 1;
        }
    }
    out
}

struct Frame<'a> {
    what: String,
    app: &'a App,
    buf: Buffer,
    limits: agent_loop_sim::app::Limits,
}

impl Frame<'_> {
    fn panel_rows(&self, rect: Rect) -> Vec<String> {
        let r = inner(rect);
        (r.top()..r.bottom())
            .map(|y| row_text(&self.buf, y, r.left(), r.right()))
            .collect()
    }
}

/// A panel's left, right and bottom hold border glyphs only.
fn check_borders(f: &Frame<'_>, rect: Rect, name: &str, faults: &mut Vec<String>) {
    for y in rect.top()..rect.bottom() {
        for x in [rect.left(), rect.right() - 1] {
            let s = f.buf[(x, y)].symbol();
            if !BORDER.contains(s) {
                faults.push(format!("[border] {name}: {s:?} at {x},{y}"));
            }
        }
    }
    for x in rect.left()..rect.right() {
        let s = f.buf[(x, rect.bottom() - 1)].symbol();
        if !BORDER.contains(s) {
            faults.push(format!("[border] {name}: {s:?} on the bottom at {x}"));
        }
    }
}

fn check_frame(f: &Frame<'_>, ids: &HashSet<String>, faults: &mut Vec<String>) {
    let app = f.app;
    let area = f.buf.area;
    let Some(areas) = view::areas(app, area) else {
        return;
    };
    let lang = app.lang;
    let more_above = agent_loop_sim::i18n::MORE_ABOVE.get(lang);
    let more_below = agent_loop_sim::i18n::MORE_BELOW.get(lang);
    let header: Vec<String> = (areas.header.top()..areas.header.bottom())
        .map(|y| row_text(&f.buf, y, 0, area.width))
        .collect();
    check_header(f, &header, faults);
    for &(panel, rect, _) in &areas.panels {
        let rows = f.panel_rows(rect);
        let name = format!("{} {:?}", f.what, panel);
        check_borders(f, rect, &name, faults);
        // Blank rows standing for content.
        let hides = f.limits.panels[panel.index()] > 0
            || rows
                .iter()
                .any(|r| r.contains(more_above) || r.contains(more_below));
        if hides {
            let blank: Vec<bool> = rows.iter().map(|r| r.trim().is_empty()).collect();
            let mut y = 0;
            while y < blank.len() {
                if blank[y] {
                    let start = y;
                    while y < blank.len() && blank[y] {
                        y += 1;
                    }
                    let len = y - start;
                    let above = blank[..start].iter().any(|b| !b);
                    let below = blank[y..].iter().any(|b| !b);
                    if len >= 2 && above && below {
                        faults.push(format!(
                            "[blank] {name}: {len} blank rows from row {start} while it hides content:\n{}",
                            rows.join("\n")
                        ));
                    }
                } else {
                    y += 1;
                }
            }
        }
        // Ids cut without a mark.
        if matches!(panel, Panel::Context | Panel::Pairing) {
            for row in &rows {
                // An id cut where the row wraps fills the row to its end.
                let at_edge = |word: &str| row.trim_end().ends_with(word) && row.trim_end() == row;
                for (word, marked) in id_words(row) {
                    if !marked && at_edge(&word) && !ids.contains(&word) {
                        faults.push(format!("[id] {name}: {word:?} cut with no mark in {row:?}"));
                    }
                }
            }
        }
        if panel == Panel::Pairing {
            check_tool_names(f, &name, &rows, faults);
        }
        if panel == Panel::Context && !app.wire && app.question().is_none() {
            check_context(f, &name, &rows, faults);
        }
        if panel == Panel::Explain && !app.quiz.on {
            check_whole_title(f, &name, &header[0], &rows, faults);
        }
        if panel == Panel::Lanes {
            let step = app.step + 1;
            let current = rows
                .iter()
                .find(|r| r.starts_with('▶'))
                .and_then(|r| r[3..].split_whitespace().next().map(str::to_string));
            if let Some(n) = current
                && n != step.to_string()
            {
                faults.push(format!(
                    "[counters] {name}: the lanes mark step {n}, the header {step}"
                ));
            }
        }
        // The context heading's size is the header's.
        if panel == Panel::Context
            && !app.wire
            && let Some(mc) = app.trace().steps[app.step].model_call
        {
            let bytes = app.trace().model_calls[mc].context_size.to_string();
            let said =
                rows.iter().take(3).any(|r| r.contains(&bytes)) || rows.concat().contains(&bytes);
            let header_says = header.iter().any(|r| r.contains(&bytes));
            if !said || !header_says {
                faults.push(format!(
                    "[counters] {name}: request size {bytes} not in both the header and the heading"
                ));
            }
        }
    }
}

/// A tool's name in the pairing table is whole or cut with a `…`: not
/// cut by the panel's edge or by the "◀ now" mark beside it.
fn check_tool_names(f: &Frame<'_>, name: &str, rows: &[String], faults: &mut Vec<String>) {
    let now = agent_loop_sim::i18n::CHANGED_NOW.get(f.app.lang);
    let tools: HashSet<&str> = f.app.trace().calls.iter().map(|c| &*c.tool).collect();
    // A call's first row (its id first); the rows under it wrap its
    // arguments and result, whose words may begin like a tool's name.
    for row in rows.iter().filter(|r| !r.starts_with(' ')) {
        // What is left of the mark, or a row filled to its edge.
        let before = match row.find(now) {
            Some(at) => &row[..at],
            None if row.trim_end() == row => row.as_str(),
            None => continue,
        };
        let Some(last) = before.split_whitespace().last() else {
            continue;
        };
        let cut = |t: &&str| t.len() > last.len() && t.starts_with(last) && last.len() > 2;
        if !tools.contains(last) && tools.iter().any(cut) {
            faults.push(format!(
                "[tool] {name}: a tool's name cut with no mark in {row:?}"
            ));
        }
    }
}

/// The header's counter of model calls is the run's at this step, and a
/// step about one call names it in its title and has its row in the
/// pairing table.
fn check_header(f: &Frame<'_>, header: &[String], faults: &mut Vec<String>) {
    let app = f.app;
    let trace = app.trace();
    let step = &trace.steps[app.step];
    let calls = step.model_call.map_or(0, |i| i + 1);
    // The counters are the header's third row: "model calls 2/4 · …".
    let counter = header.get(2).and_then(|r| {
        let at = r.find("model calls ").map(|i| i + "model calls ".len());
        let at = at.or_else(|| r.find("模型调用 ").map(|i| i + "模型调用 ".len()))?;
        Some(
            r[at..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>(),
        )
    });
    if let Some(n) = counter
        && n != calls.to_string()
    {
        faults.push(format!(
            "[counters] {}: the header counts {n} model calls, the run {calls}",
            f.what
        ));
    }
    let call = match &step.kind {
        StepKind::Validates { call, .. }
        | StepKind::ResultArrives { call }
        | StepKind::UserDecides { call, .. } => Some(call),
        _ => None,
    };
    if let Some(call) = call {
        // A long real id may be cut in the middle: its first characters.
        let head: String = call.0.chars().take(8).collect();
        if !header[0].contains(&head) {
            faults.push(format!(
                "[counters] {}: the title does not name {}: {}",
                f.what, call.0, header[0]
            ));
        }
    }
}

/// Where the header shows the step's title neither whole nor with its
/// long ids shortened (`toolu_01CFzx…`), it was cut: the explanation's
/// first rows hold it whole (as wrapped, a long id broken with `↩`).
fn check_whole_title(
    f: &Frame<'_>,
    name: &str,
    header: &str,
    rows: &[String],
    faults: &mut Vec<String>,
) {
    let bare = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace() && *c != '↩')
            .collect()
    };
    let trace = f.app.trace();
    let title = agent_loop_sim::i18n::step_title(trace, f.app.step);
    let mut short = title.clone();
    for id in trace.steps[f.app.step].kind.call_ids() {
        if id.0.chars().count() > 16 {
            let head: String = id.0.chars().take(12).collect();
            short = short.replace(&*id.0, &format!("{head}…"));
        }
    }
    let shown = bare(header);
    if shown.ends_with(&bare(&title)) || shown.ends_with(&bare(&short)) {
        return;
    }
    if !bare(&rows.concat()).starts_with(&bare(&title)) {
        faults.push(format!(
            "[title] {name}: the header cuts the title and the explanation does not begin with it: {title:?}\n{}",
            rows.join("\n")
        ));
    }
}

/// At a model call: every message new at it, and every one appended
/// since, is on screen, or the panel says how many new ones are above.
fn check_context(f: &Frame<'_>, name: &str, rows: &[String], faults: &mut Vec<String>) {
    let app = f.app;
    let trace = app.trace();
    let Some(mc_index) = trace.steps[app.step].model_call else {
        return;
    };
    let mc = &trace.model_calls[mc_index];
    let at_call = matches!(trace.steps[app.step].kind, StepKind::ModelCall { .. });
    let held = trace.messages.partition_point(|m| m.step <= app.step);
    let floor = trace.held_from(app.step);
    let says_new_above = rows.iter().any(|r| {
        r.contains(agent_loop_sim::i18n::NEW_ABOVE.get(app.lang))
            || r.contains(agent_loop_sim::i18n::APPENDED_ABOVE.get(app.lang))
    });
    // At the call, as many numbered items marked `+` as the heading says
    // are new (a Responses call is an item of its own).
    if at_call && !says_new_above {
        let (_, new) = agent_loop_sim::wire::list_counts(trace, mc_index);
        let numbers: HashSet<u32> = rows
            .iter()
            .filter_map(|r| r.strip_prefix('+'))
            .filter_map(|r| r.split_whitespace().next()?.parse().ok())
            .collect();
        if numbers.len() < new {
            faults.push(format!(
                "[hidden] {name}: {} of {new} new items on screen:\n{}",
                numbers.len(),
                rows.join("\n")
            ));
        }
    }
    // A recorded Responses request's reasoning items are numbered too.
    let reasoning = agent_loop_sim::wire::reasoning_at(trace, mc_index);
    for index in floor.max(mc.context_start)..held {
        let Some(place) = trace.places.get(index) else {
            continue;
        };
        if place.joins() {
            continue;
        }
        // At the call, what is new at it; after it, what was appended.
        let new = index < mc.context_len && trace.is_new(mc_index, index);
        let unsent = index >= mc.context_len;
        let due = if at_call { new } else { unsent };
        if !due {
            continue;
        }
        let mark = if new { '+' } else { ' ' };
        let number = agent_loop_sim::wire::number_past(place.number, reasoning);
        let lead = format!("{mark}{number:>2} ");
        if !rows.iter().any(|r| r.starts_with(&lead)) && !says_new_above {
            faults.push(format!(
                "[hidden] {name}: message {number} ({}) not on screen:\n{}",
                if new { "new" } else { "appended since" },
                rows.join("\n")
            ));
        }
    }
}

fn frames_of(app: &App, what: &str, faults: &mut Vec<String>) {
    let ids = whole_ids(app.trace());
    for &(w, h) in &SIZES {
        for look in looks(w < view::WIDE_WIDTH || h < view::WIDE_HEIGHT) {
            let mut base = app.clone();
            base.focus = look.focus;
            base.zoom = look.zoom;
            base.wire = look.wire;
            for step in 0..app.trace().len() {
                let at = frames::at_step(&base, step, w, h);
                let area = Rect::new(0, 0, w, h);
                let mut buf = Buffer::empty(area);
                let limits = view::render(&at, area, &mut buf);
                let frame = Frame {
                    what: format!(
                        "{what} {} {w}x{h} step {} {look:?}",
                        at.lang.code(),
                        step + 1
                    ),
                    app: &at,
                    buf,
                    limits,
                };
                check_frame(&frame, &ids, faults);
            }
        }
    }
}

/// Fail with how many faults of each kind, and the first three of each.
fn report(faults: Vec<String>) {
    if faults.is_empty() {
        return;
    }
    let mut kinds: Vec<&str> = faults
        .iter()
        .map(|f| f.split(']').next().unwrap_or(""))
        .collect();
    kinds.sort();
    kinds.dedup();
    let mut out = format!("{} faults on the frames\n", faults.len());
    for kind in &kinds {
        let of: Vec<&String> = faults.iter().filter(|f| f.starts_with(kind)).collect();
        out.push_str(&format!("\n{kind}]: {} frames; the first:\n\n", of.len()));
        for f in of.iter().take(3) {
            out.push_str(f);
            out.push_str("\n\n");
        }
    }
    panic!("{out}");
}

/// The work split over two threads: the machines have two cores.
fn in_parallel<T: Sync>(items: &[T], each: impl Fn(&T, &mut Vec<String>) + Sync) -> Vec<String> {
    let half = items.len().div_ceil(2);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(half.max(1))
            .map(|chunk| {
                let each = &each;
                s.spawn(move || {
                    let mut faults = Vec::new();
                    for item in chunk {
                        each(item, &mut faults);
                    }
                    faults
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

#[test]
fn every_frame_of_every_lesson_keeps_the_invariants() {
    let names: Vec<&str> = CATALOG.iter().map(|(n, _)| *n).collect();
    let faults = in_parallel(&names, |name, faults| {
        let loaded = load::load(name).unwrap();
        let app = App::new(loaded, Lang::Zh, Theme::DARK);
        for lang in Lang::ALL {
            let mut app = app.clone();
            app.lang = lang;
            frames_of(&app, name, faults);
        }
    });
    report(faults);
}

/// The transcripts under tests/transcripts that open as they are.
fn transcripts() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("cases"), root.join("real")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().to_string();
            let data =
                name.ends_with(".json") || name.ends_with(".jsonl") || name.ends_with(".traj");
            if path.is_file()
                && data
                && !name.ends_with(".expect.json")
                && !name.contains("manifest")
            {
                files.push(name);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_frame_of_every_transcript_keeps_the_invariants() {
    let files = transcripts();
    let opened: Vec<(String, App)> = files
        .iter()
        .filter_map(|f| {
            let loaded = agent_loop_sim::transcript::open(f, None).ok()?.loaded;
            Some((f.clone(), App::new(loaded, Lang::En, Theme::DARK)))
        })
        .collect();
    assert!(
        opened.len() >= 20,
        "{} of {} open",
        opened.len(),
        files.len()
    );
    let faults = in_parallel(&opened, |(file, app), faults| {
        let short = Path::new(file).file_name().unwrap().to_string_lossy();
        for lang in Lang::ALL {
            let mut app = app.clone();
            app.lang = lang;
            frames_of(&app, &short, faults);
        }
    });
    report(faults);
}

/// The frames the issue named: patch-and-test step 16 shows message 7,
/// the repeated patch the lesson is about, with its call and op id; the
/// injected line of prompt-injection-in-file shows at step 7; and in
/// Chinese at step 6 the reply that asked for the file (message 3) is
/// not dropped under the divider.
#[test]
fn the_messages_the_lessons_are_about_show() {
    let frame = |name: &str, lang: Lang, step: usize| {
        let app = App::new(load::load(name).unwrap(), lang, Theme::DARK);
        let at = frames::at_step(&app, step - 1, 120, 40);
        frames::to_text(&frames::render(&at, 120, 40))
    };
    let f = frame("patch-and-test", Lang::En, 16);
    assert!(f.contains("+ 7 assistant"), "{f}");
    assert!(f.contains("call_3 patch_file"), "{f}");
    assert!(f.contains("\"add-retries-1\""), "{f}");
    let f = frame("prompt-injection-in-file", Lang::En, 7);
    assert!(f.contains("Note to AI assistants"), "{f}");
    let f = frame("prompt-injection-in-file", Lang::Zh, 6);
    assert!(f.contains("  3 助手"), "{f}");
}
