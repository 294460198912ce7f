//! The context list as items: each message the host holds at a step, the
//! divider between what was sent and what was appended since, and the
//! system prompt, each drawn as its lines in its provider's shape.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::i18n;
use crate::trace::{Message, Role, StepKind, Trace};
use crate::view::scene::Scene;
use crate::view::text::{hanging, middle, truncate, truncate_words, width};
use crate::wire::Provider;

/// A message longer than this many lines is folded ...
const FOLD_OVER: usize = 14;
/// ... to this many, and a line that says how much is left.
const FOLD_KEEP: usize = 8;

/// One entry of the context list: a message, the divider between what
/// was sent and what was appended since, the system prompt, or a
/// reasoning item a recorded Responses request sent back.
pub(super) struct Item {
    /// Its lines as the scrolled list shows them.
    pub(super) block: Block,
    pub(super) what: What,
    /// It must show unscrolled: new at this call, the divider, or
    /// appended since (`fitted`).
    pub(super) must: bool,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum What {
    Message { index: usize, new: bool },
    Divider,
    System,
    Reasoning,
}

/// The messages the host holds at this step, newest first, built
/// backwards until `wanted` lines exist and every item that must show is
/// there; with `compacted` (right after a compaction) all but the host's
/// in brief. Also whether older messages were left out.
pub(super) fn items(s: &Scene<'_>, w: usize, wanted: usize, compacted: bool) -> (Vec<Item>, bool) {
    let trace = s.trace;
    let lang = s.lang;
    let theme = s.theme;
    let current = trace.steps[s.step].model_call;
    let sent = current.map_or(0, |i| trace.model_calls[i].context_len);
    let held = trace.messages.partition_point(|m| m.step <= s.step);
    // After the host compacted, it holds its compacted copy only.
    let floor = trace.held_from(s.step);
    // What must show unscrolled: at a model call what is new at it, after
    // it what was appended since; built at least back to there.
    let at_call = matches!(trace.steps[s.step].kind, StepKind::ModelCall { .. });
    let new_from = match current {
        Some(i) if at_call && i > 0 => trace.model_calls[i - 1].context_len.max(floor),
        Some(_) if at_call => floor,
        _ => sent.max(floor),
    };
    // Messages below the divider have not been sent; once the loop has
    // ended they never will be.
    let divider_label = if floor > sent {
        i18n::COMPACTED_NOT_SENT
    } else if trace.steps[s.step].end.is_some() && sent > 0 {
        i18n::APPENDED_AFTER_END
    } else if sent == 0 {
        i18n::HOST_HOLDS
    } else {
        i18n::APPENDED_SINCE
    };
    let divider_item = || Item {
        block: Block::plain(vec![divider(divider_label.get(lang), w, theme.muted())], 0),
        what: What::Divider,
        must: true,
    };
    let mut items = Vec::new();
    let mut lines = 0;
    let mut index = held;
    let mut divider_done = held == sent;
    // A recorded request's reasoning items, newest first, each drawn before
    // the newer message it precedes in the request.
    let mut reasoning = s.reasoning().iter().rev().peekable();
    let mut newer_new = false;
    // Every item takes a row at least when the list is fitted unscrolled
    // (`fitted`): as many items as `wanted` rows, besides the lines.
    while index > floor && (lines < wanted || items.len() < wanted || index > new_from) {
        index -= 1;
        let new = index < sent && current.is_some_and(|i| trace.is_new(i, index));
        let brief = compacted && !s.unfold && trace.messages[index].host_insert.is_none();
        let block = message_lines(s, trace, index, floor, new, brief, w);
        if !divider_done && index < sent {
            items.push(divider_item());
            lines += 1;
            divider_done = true;
        }
        let number = place_number(s, index);
        while let Some(r) = reasoning.next_if(|r| r.number > number) {
            items.push(reasoning_item(s, r, newer_new, at_call, w));
            lines += 1;
        }
        newer_new = new;
        lines += block.lines.len();
        items.push(Item {
            block,
            what: What::Message { index, new },
            // Right after a compaction, what the host put in too.
            must: if at_call { new } else { index >= sent }
                || (compacted && trace.messages[index].host_insert.is_some()),
        });
    }
    if !divider_done {
        items.push(divider_item());
    }
    if index == floor {
        for r in reasoning {
            items.push(reasoning_item(s, r, newer_new, at_call, w));
        }
    }
    // The system prompt goes first in every request (and is an item like
    // the others: the list is complete only with it).
    if index == floor {
        let system = system_lines(s, trace, compacted, w);
        if !system.is_empty() {
            items.push(Item {
                // The mark, the number's room and the role column.
                block: Block::plain(system, 4 + role_width(s) + 1),
                what: What::System,
                must: at_call && current == Some(0),
            });
        }
    }
    (items, index > floor)
}

/// The items (newest first) as one list of lines, oldest first; where the
/// divider stands, and where each item begins.
pub(super) fn flatten(items: &[Item]) -> (Vec<Line<'static>>, Option<usize>, Vec<usize>) {
    let mut body = Vec::new();
    let mut divider_at = None;
    let mut starts = Vec::new();
    for item in items.iter().rev() {
        starts.push(body.len());
        if matches!(item.what, What::Divider) {
            divider_at = Some(body.len());
        }
        body.extend(item.block.lines.iter().cloned());
    }
    (body, divider_at, starts)
}

/// The newest item, when it is the model's reply, in at most `most`
/// lines: a reply too tall for the panel reads from its start (a final
/// answer does not open mid-sentence); a tool result keeps its end in
/// sight, as before. `f` leaves it whole.
pub(super) fn fold_newest_reply(s: &Scene<'_>, items: &mut [Item], most: usize, w: usize) {
    let Some(first) = items.first_mut() else {
        return;
    };
    let What::Message { index, .. } = first.what else {
        return;
    };
    if s.unfold || s.trace.messages[index].role != Role::Assistant {
        return;
    }
    let calls = first.block.lines.len() - first.block.text_end;
    let block = std::mem::replace(&mut first.block, Block::plain(Vec::new(), 0));
    let starts = block.calls.clone();
    let indent = block.indent;
    let lines = fold_block(s, s.trace, index, block, most, w);
    // Folding shortens the text; the calls stay under it.
    first.block = Block {
        text_end: lines.len() - calls,
        lines,
        indent,
        calls: starts,
        reasoning: (0, 0),
    };
}

/// A message too tall for `most` lines: the first lines of its text, how
/// long the text is (`f` shows it whole), then its tool calls, which stay.
/// A message that fits is left as it is.
pub(super) fn fold_block(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    block: Block,
    most: usize,
    w: usize,
) -> Vec<Line<'static>> {
    let Block {
        mut lines,
        mut text_end,
        indent,
        reasoning: (reasoning, keep_reasoning),
        ..
    } = block;
    if lines.len() <= most.saturating_add(1) || text_end == 0 {
        return lines;
    }
    // The reply's reasoning gives way first, to its first line: the
    // reply's own words read from their start.
    if reasoning > keep_reasoning {
        lines.drain(keep_reasoning..reasoning);
        text_end -= reasoning - keep_reasoning;
        if let Some(line) = lines.get_mut(keep_reasoning.saturating_sub(1)) {
            line.spans.push(Span::styled(" …", s.theme.muted()));
        }
    }
    let m = &trace.messages[index];
    let note = hanging(
        vec![Span::raw(" ".repeat(indent))],
        &i18n::folded(super::thinking::drawn_chars(m), s.key_hints, s.lang),
        s.theme.muted(),
        w,
    );
    let calls = lines.split_off(text_end);
    let keep = most.saturating_sub(calls.len() + note.len()).max(1);
    // Folding must leave the text shorter and the whole within `most`.
    if keep >= text_end || keep + note.len() + calls.len() > most {
        lines.extend(calls);
        return lines;
    }
    // Its own fold note, if it had one, goes with the lines cut.
    lines.truncate(keep);
    lines.extend(note);
    lines.extend(calls);
    lines
}

/// A message's number in its request: its place, past the reasoning items
/// a recorded request holds before it.
fn place_number(s: &Scene<'_>, index: usize) -> u32 {
    let place = s.trace.places.get(index).copied().unwrap_or_default();
    crate::wire::number_past(place.number, s.reasoning_at())
}

/// A reasoning item in one row: its number, its type, its id, how much is
/// encrypted and its summary (the wire view, `w`, shows it whole).
fn reasoning_item(
    s: &Scene<'_>,
    r: &crate::wire::Reasoning,
    new: bool,
    at_call: bool,
    w: usize,
) -> Item {
    let theme = s.theme;
    let kind = "reasoning";
    let pad = " ".repeat(role_width(s).saturating_sub(width(kind)));
    let mut said: Vec<String> = r.id.iter().cloned().collect();
    if r.encrypted > 0 {
        said.push(i18n::ENCRYPTED_CHARS.fill(s.lang, &[("n", &r.encrypted)]));
    }
    if !r.summary.is_empty() {
        said.push(i18n::one_line(&r.summary));
    }
    let head = vec![
        Span::styled(
            format!("{}{:>2} ", if new { "+" } else { " " }, r.number),
            if new {
                theme.new_message()
            } else {
                theme.muted()
            },
        ),
        Span::styled(
            format!("{kind}{pad} "),
            theme.lane_style(crate::trace::Lane::Model),
        ),
    ];
    let used: usize = head.iter().map(|s| s.width()).sum();
    let mut spans = head;
    spans.push(Span::styled(
        truncate(&said.join(" · "), w.saturating_sub(used)),
        theme.muted(),
    ));
    Item {
        block: Block::plain(vec![Line::from(spans)], used),
        what: What::Reasoning,
        // Like a message: new at this call, it must show.
        must: new && at_call,
    }
}

/// The role column fits the longest role word of the language.
pub(super) fn role_width(s: &Scene<'_>) -> usize {
    [Role::User, Role::Assistant, Role::Tool]
        .map(|r| width(i18n::role_name(r, s.lang)))
        .into_iter()
        .max()
        .unwrap_or(9)
}

fn divider(label: &str, w: usize, style: Style) -> Line<'static> {
    let text = format!("── {label} ");
    let rest = w.saturating_sub(width(&text));
    Line::styled(truncate(&(text + &"─".repeat(rest)), w), style)
}

/// Fewer columns than this beside a call id, and the id takes a line of
/// its own.
const MIN_TEXT_ROOM: usize = 20;

/// A message's lines: its text first (`text_end` lines, `indent` columns
/// in), then one or more per tool call it proposes.
#[derive(Clone)]
pub(super) struct Block {
    pub(super) lines: Vec<Line<'static>>,
    pub(super) text_end: usize,
    pub(super) indent: usize,
    /// Where each tool call's lines begin, counted from `text_end`.
    pub(super) calls: Vec<usize>,
    /// Of the text's lines, how many at the start are the reply's
    /// reasoning, and how many of those stay when it is folded.
    pub(super) reasoning: (usize, usize),
}

impl Block {
    /// Lines with no tool calls: the divider, the system prompt.
    fn plain(lines: Vec<Line<'static>>, indent: usize) -> Block {
        Block {
            text_end: lines.len(),
            lines,
            indent,
            calls: Vec::new(),
            reasoning: (0, 0),
        }
    }
}

/// The system prompt, as every request sends it first: Chat's first
/// message, Responses' `instructions`, Anthropic's `system`.
pub(super) fn system_lines(
    s: &Scene<'_>,
    trace: &Trace,
    compacted: bool,
    w: usize,
) -> Vec<Line<'static>> {
    let Some(system) = trace.system.as_deref().filter(|s| !s.is_empty()) else {
        return Vec::new();
    };
    let theme = s.theme;
    let (number, label) = match trace.provider {
        Provider::Chat => (" 1 ", i18n::ROLE_SYSTEM.get(s.lang)),
        Provider::Responses => ("   ", i18n::INSTRUCTIONS.get(s.lang)),
        Provider::Anthropic => ("   ", i18n::ROLE_SYSTEM.get(s.lang)),
    };
    let pad = " ".repeat(role_width(s).saturating_sub(width(label)));
    // New on the first model call only: every later one resends it.
    let first = trace.steps[s.step].model_call == Some(0);
    let (mark, mark_style) = if first {
        ("+", theme.new_message())
    } else {
        (" ", theme.muted())
    };
    let prefix = vec![
        Span::styled(format!("{mark}{number}"), mark_style),
        Span::styled(format!("{label}{pad} "), theme.muted()),
    ];
    let indent: usize = prefix.iter().map(|s| s.width()).sum();
    let room = w.saturating_sub(indent).max(8);
    if compacted && !s.unfold {
        let line = truncate(&i18n::one_line(system), room);
        let mut lines = hanging(prefix, &line, theme.muted(), w);
        lines.truncate(1);
        return lines;
    }
    let (shown, long) = if s.unfold {
        (system, false)
    } else {
        crate::view::text::head(system, FOLD_OVER, room)
    };
    let mut lines = hanging(prefix, shown, theme.muted(), w);
    if !s.unfold && (long || lines.len() > FOLD_OVER) {
        lines.truncate(FOLD_KEEP);
        let note = i18n::folded(system.chars().count(), s.key_hints, s.lang);
        lines.extend(hanging(
            vec![Span::raw(" ".repeat(indent))],
            &note,
            theme.muted(),
            w,
        ));
    }
    lines
}

/// What a message is called in its provider's list: its role, or for a
/// Responses result the item's type; blank where it continues the
/// Anthropic user message before it.
fn label(s: &Scene<'_>, trace: &Trace, m: &Message, joins: bool) -> String {
    if joins {
        return String::new();
    }
    match (trace.provider, m.role) {
        (Provider::Responses, Role::Tool) => "function_call_output".to_string(),
        // Anthropic has no tool role: results go back in a user message.
        (Provider::Anthropic, Role::Tool) => i18n::role_name(Role::User, s.lang).to_string(),
        (_, role) => i18n::role_name(role, s.lang).to_string(),
    }
}

pub(super) fn message_lines(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    floor: usize,
    new: bool,
    brief: bool,
    w: usize,
) -> Block {
    let m: &Message = &trace.messages[index];
    let place = trace.places.get(index).copied().unwrap_or_default();
    let joins = place.joins() && index > floor;
    let differs = s.differs.get(index) == Some(&true);
    let look = Look::new(s, trace, m, (differs, new), brief, w);
    let number = if joins {
        "  ".to_string()
    } else {
        format!("{:>2}", place_number(s, index))
    };
    let mut prefix = look.prefix(&label(s, trace, m, joins), &number);
    let mut lines = Vec::new();
    // A reply's reasoning, sent back first (`wire::thinking`): Responses
    // an item of its own, Anthropic a block of the reply; Chat none.
    // A reply's reasoning, sent back first (`wire::thinking`): Responses
    // an item of its own, Anthropic a block of the reply; Chat none.
    let shift = match m.reasoning.as_deref() {
        Some(r) if trace.provider != Provider::Chat => {
            let role = i18n::role_name(Role::Assistant, s.lang);
            super::thinking::lines(s, r, &mut prefix, &mut lines, (role, look.role_w), brief, w)
        }
        _ => 0,
    };
    let reasoning_lines = lines.len();
    if let Some(id) = &m.call_id {
        look.call_id(id, &mut prefix, &mut lines);
    }
    if !m.text.is_empty() || m.calls.is_empty() {
        look.text(&prefix, &mut lines);
    }
    let indent = spans_width(&prefix);
    let text_end = lines.len();
    // Responses: each call is an item of its own, numbered after the text.
    // Responses: each call is an item of its own, numbered after the
    // reasoning and the text.
    let first_item = place.number + shift + u32::from(lines.len() > reasoning_lines);
    let calls = look.calls(first_item, &prefix, &mut lines);
    Block {
        lines,
        text_end,
        indent,
        calls: calls.into_iter().map(|at| at - text_end).collect(),
        // Folded, Responses keeps the item's line (its summary's start);
        // Anthropic the `thinking` line and the text's first.
        reasoning: (reasoning_lines, if shift == 1 { 1 } else { 2 }),
    }
}

/// The cells `spans` take.
fn spans_width(spans: &[Span<'_>]) -> usize {
    spans.iter().map(Span::width).sum()
}

/// How one message of the list is drawn: the marks and styles its text
/// and its calls share.
struct Look<'a> {
    s: &'a Scene<'a>,
    trace: &'a Trace,
    m: &'a Message,
    /// The panel's width.
    w: usize,
    /// One line a message (the context's summary at a small size).
    brief: bool,
    /// `≠` differs from the other run, `+` new since the last call.
    mark: &'static str,
    number_style: Style,
    role_style: Style,
    /// The width of the role column.
    role_w: usize,
}

impl<'a> Look<'a> {
    fn new(
        s: &'a Scene<'a>,
        trace: &'a Trace,
        m: &'a Message,
        (differs, new): (bool, bool),
        brief: bool,
        w: usize,
    ) -> Look<'a> {
        let theme = s.theme;
        let mark = match (differs, new) {
            (true, _) => "≠",
            (false, true) => "+",
            (false, false) => " ",
        };
        let role_style = match m.role {
            Role::User => theme.user(),
            Role::Assistant => theme.lane_style(crate::trace::Lane::Model),
            Role::Tool if trace.provider == Provider::Anthropic => theme.user(),
            Role::Tool => theme.lane_style(crate::trace::Lane::Tool),
        };
        let number_style = if differs {
            theme.error().add_modifier(ratatui::style::Modifier::BOLD)
        } else if new {
            theme.new_message()
        } else {
            theme.muted()
        };
        Look {
            s,
            trace,
            m,
            w,
            brief,
            mark,
            number_style,
            role_style,
            role_w: role_width(s),
        }
    }

    /// The message's mark, number and role (Anthropic: a result is a
    /// `tool_result` block of the user message).
    fn prefix(&self, role: &str, number: &str) -> Vec<Span<'static>> {
        let theme = self.s.theme;
        let pad = " ".repeat(self.role_w.saturating_sub(width(role)));
        let mut prefix = vec![
            Span::styled(format!("{}{number} ", self.mark), self.number_style),
            Span::styled(format!("{role}{pad} "), self.role_style),
        ];
        if self.trace.provider == Provider::Anthropic && self.m.role == Role::Tool {
            prefix.push(Span::styled(
                "tool_result ",
                theme.lane_style(crate::trace::Lane::Tool),
            ));
        }
        prefix
    }

    /// A result's call id after the prefix, or on a line of its own.
    fn call_id(
        &self,
        id: &crate::trace::CallId,
        prefix: &mut Vec<Span<'static>>,
        lines: &mut Vec<Line<'static>>,
    ) {
        // An id longer than the panel keeps its start and its end.
        let base = spans_width(prefix);
        let shown = middle(&id.0, self.w.saturating_sub(base + 3));
        let id = Span::styled(
            format!("[{shown}] "),
            self.s
                .theme
                .call_id(self.s.timeline.id_place(self.trace, id)),
        );
        // A long real id (toolu_01…, 30 characters) leaves the text too
        // little room beside it: the id gets a line of its own.
        if self.w.saturating_sub(base + id.width()) < MIN_TEXT_ROOM {
            let mut head = prefix.clone();
            head.push(id);
            lines.push(Line::from(head));
            *prefix = vec![Span::raw(" ".repeat(base))];
        } else {
            prefix.push(id);
        }
    }

    /// The simulator's marks before a text: they stand before it, in a
    /// style of their own (the glossary names them): the text is exactly
    /// what was sent.
    fn text_prefix(&self, prefix: &[Span<'static>]) -> Vec<Span<'static>> {
        let (m, theme) = (self.m, self.s.theme);
        let mut text_prefix = prefix.to_vec();
        if m.is_error && m.role == Role::Tool {
            text_prefix.push(Span::styled("✗", theme.sim_mark(true)));
            text_prefix.push(Span::raw(" "));
            if self.trace.provider == Provider::Anthropic {
                // The only provider whose request marks a failed result:
                // a field of the block, not words of the text.
                text_prefix.push(Span::styled("is_error: true · ", theme.muted()));
            }
        } else if m.host_insert.is_some() {
            // Written by the host in place of what it removed.
            text_prefix.push(Span::styled("✂", theme.sim_mark(false)));
            text_prefix.push(Span::raw(" "));
        }
        text_prefix
    }

    /// The message's text, folded when long.
    fn text(&self, prefix: &[Span<'static>], lines: &mut Vec<Line<'static>>) {
        let (s, m, w) = (self.s, self.m, self.w);
        let text_style = if m.is_error {
            s.theme.error()
        } else {
            Style::new()
        };
        let mut text_prefix = self.text_prefix(prefix);
        // The marks leave the text too little room beside them: they stand
        // on the line of the id, the text under them.
        let marked = spans_width(&text_prefix);
        if text_prefix.len() > prefix.len() && w.saturating_sub(marked) < MIN_TEXT_ROOM {
            lines.push(Line::from(std::mem::take(&mut text_prefix)));
            text_prefix = vec![Span::raw(" ".repeat(spans_width(prefix)))];
        }
        let text: &str = &m.text;
        // A long message (a whole file, a test log) is folded to its first
        // lines, saying how long it is; `f` shows it whole. Only the shown
        // part is wrapped: a 10 KB output costs what three lines cost.
        let indent = spans_width(&text_prefix);
        let room = w.saturating_sub(indent).max(8);
        let (shown, long) = if s.unfold {
            (text, false)
        } else {
            crate::view::text::head(text, FOLD_OVER, room)
        };
        let shown = tidy(shown);
        let mut body = hanging(text_prefix.clone(), &shown, text_style, w);
        if self.brief {
            let line = truncate(&crate::i18n::one_line(text), room);
            body = hanging(text_prefix, &line, text_style, w);
            body.truncate(1);
        } else if !s.unfold && (long || body.len() > FOLD_OVER) {
            body.truncate(FOLD_KEEP);
            let note = i18n::folded(m.text.chars().count(), s.key_hints, s.lang);
            body.extend(hanging(
                vec![Span::raw(" ".repeat(indent))],
                &note,
                s.theme.muted(),
                w,
            ));
        }
        lines.extend(body);
    }

    /// The message's tool calls, `item` the number of the first one's
    /// item (Responses); where each call's lines begin in `lines`.
    fn calls(
        &self,
        mut item: u32,
        prefix: &[Span<'static>],
        lines: &mut Vec<Line<'static>>,
    ) -> Vec<usize> {
        let (trace, theme, w) = (self.trace, self.s.theme, self.w);
        let indent = spans_width(prefix);
        let mut starts = Vec::new();
        for id in &self.m.calls {
            let Some(call) = self.s.timeline.call(trace, id) else {
                continue;
            };
            starts.push(lines.len());
            let mut spans = if trace.provider == Provider::Responses {
                let (first, under) = self.function_call_item(item, call);
                lines.push(first);
                item += 1;
                under
            } else if lines.is_empty() {
                prefix.to_vec()
            } else {
                vec![Span::raw(" ".repeat(indent))]
            };
            match trace.provider {
                Provider::Chat => spans.push(Span::styled("→ ", theme.muted())),
                Provider::Anthropic => spans.push(Span::styled("→ tool_use ", theme.muted())),
                Provider::Responses => {}
            }
            let used = spans_width(&spans);
            let shown = middle(&id.0, w.saturating_sub(used + 1));
            spans.push(Span::styled(
                format!("{shown} "),
                theme.call_id(self.s.timeline.id_place(trace, id)),
            ));
            let rest = format!("{} {}", call.tool, call.args_text());
            let used = spans_width(&spans);
            if self.brief {
                // The tool's name whole or not at all: `…` stands for it.
                let room = w.saturating_sub(used);
                spans.push(Span::raw(truncate_words(&rest, room)));
                lines.push(Line::from(spans));
                continue;
            }
            if w.saturating_sub(used) < MIN_TEXT_ROOM {
                // As above: a long id on its own line, the call under it.
                lines.push(Line::from(spans));
                spans = vec![Span::raw(" ".repeat(indent + 2))];
            }
            lines.extend(hanging(spans, &rest, Style::new(), w));
        }
        starts
    }

    /// Responses: a call's `function_call` item with its own id on its
    /// line, and the start of the line under it, where the call_id that
    /// pairs stands.
    fn function_call_item(
        &self,
        item: u32,
        call: &crate::trace::ToolCall,
    ) -> (Line<'static>, Vec<Span<'static>>) {
        let (s, theme) = (self.s, self.s.theme);
        let kind = "function_call";
        let pad = " ".repeat(self.role_w.saturating_sub(width(kind)));
        let number = crate::wire::number_past(item, s.reasoning_at());
        let mut first = vec![
            Span::styled(format!("{}{number:>2} ", self.mark), self.number_style),
            Span::styled(format!("{kind}{pad} "), self.role_style),
        ];
        let used = spans_width(&first);
        let item_id = match crate::wire::item_id_of(self.trace, call) {
            Some(item) => format!("id {item}"),
            None => format!("id: {}", i18n::NOT_RECORDED.get(s.lang)),
        };
        first.push(Span::styled(
            middle(&item_id, self.w.saturating_sub(used)),
            theme.muted(),
        ));
        let under = vec![
            Span::raw(" ".repeat(used)),
            Span::styled("call_id ", theme.muted()),
        ];
        (Line::from(first), under)
    }
}

/// A message's text as the list shows it: no blank lines at its end, and
/// one blank line at most in a row (`w` shows the text exactly).
fn tidy(text: &str) -> std::borrow::Cow<'_, str> {
    let text = text.trim_end();
    let blank = |l: &str| l.trim().is_empty();
    let lines: Vec<&str> = text.split('\n').collect();
    if !lines.windows(2).any(|p| blank(p[0]) && blank(p[1])) {
        return text.into();
    }
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|&(i, l)| !(blank(l) && i > 0 && blank(lines[i - 1])))
        .map(|(_, l)| *l)
        .collect();
    kept.join("\n").into()
}
