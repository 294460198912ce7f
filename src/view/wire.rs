//! The wire view of the context panel (`w`): the request body of the
//! latest model call exactly as its provider receives it, pretty-printed,
//! the items new since the call before marked `+`; once the model has
//! answered, its response under it. A replayed run's body is the one its
//! file (or the tap) recorded, as recorded; where the file holds none, the
//! body is rebuilt from the messages and the heading says so.
//!
//! Like the readable list, a body built from the trace is built from the
//! newest item backwards and only as far as the panel shows, so a long run
//! costs no more to draw.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use super::scene::Scene;
use super::text::hanging;
use crate::i18n;
use crate::tokens::Counts;
use crate::trace::Trace;
use crate::wire::{self, Provider};

/// The wire view of one run at its step.
pub struct Wire<'a> {
    pub scene: &'a Scene<'a>,
}

impl Wire<'_> {
    /// Draw it on `area`, scrolled `scroll` lines up from its end; returns
    /// how far it can scroll.
    pub fn render(&self, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
        render(self.scene, area, scroll, buf)
    }
}

fn render(s: &Scene<'_>, area: Rect, scroll: u16, buf: &mut Buffer) -> u16 {
    let w = area.width as usize;
    let h = area.height as usize;
    let trace = s.trace;
    let Some(index) = trace.steps[s.step].model_call else {
        let line = Line::styled(
            super::text::truncate(i18n::NOTHING_SENT.get(s.lang), w),
            s.theme.title(),
        );
        super::window::draw_lines(&[line], area, buf);
        return 0;
    };
    // Built once a frame: the heading and the lines both need it.
    let reply = reply_at(trace, s.counts, index, s.step);
    let mut top = heading(s, trace, index, reply.is_some(), w);
    let scroll = scroll as usize;
    let (body, more) = match trace.model_calls[index].body {
        Some(_) => {
            let (lines, marked) = recorded_lines(s, trace, index, reply, w);
            if !marked {
                let said = i18n::WIRE_NEW_UNKNOWN.get(s.lang);
                top.extend(hanging(vec![], said, s.theme.muted(), w));
            }
            (lines, false)
        }
        None => {
            let room = h.saturating_sub(top.len());
            body_lines(s, trace, index, reply, w, room * 2 + scroll + 1)
        }
    };
    let room = h.saturating_sub(top.len());
    let win = super::window::Window::from_end(body.len(), more, room, scroll);
    super::window::draw_lines(&top, area, buf);
    let list = Rect {
        y: area.y + (top.len() as u16).min(area.height),
        height: room as u16,
        ..area
    };
    super::window::draw_window(s.lang, s.theme, &body, win, list, buf);
    win.limit.min(super::window::MAX_SCROLL as usize) as u16
}

/// Which call, to which endpoint, how big.
fn heading(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    replied: bool,
    w: usize,
) -> Vec<Line<'static>> {
    let mc = &trace.model_calls[index];
    // Once the reply has come, the response is under the request: the
    // heading says so wherever the view is scrolled.
    let template = if replied {
        i18n::WIRE_HEADING_REPLIED
    } else {
        i18n::WIRE_HEADING
    };
    let text = template.fill(
        s.lang,
        &[
            ("number", &mc.number),
            ("endpoint", &endpoint(trace.provider)),
            ("bytes", &mc.context_size),
        ],
    );
    let mut lines = hanging(vec![], &text, s.theme.title(), w);
    if mc.body.is_some() {
        let model = wire::recorded_model(trace, index)
            .unwrap_or_else(|| i18n::NOT_RECORDED.get(s.lang).to_string());
        let tokens = wire::context_tokens_ready(trace, s.counts, index)
            .map_or_else(|| "…".to_string(), |n| n.to_string());
        let said = i18n::WIRE_RECORDED.fill(s.lang, &[("model", &model), ("tokens", &tokens)]);
        lines.extend(hanging(vec![], &said, s.theme.muted(), w));
    } else if wire::rebuilt(trace, index) {
        let said = i18n::WIRE_REBUILT.get(s.lang);
        lines.extend(hanging(vec![], said, s.theme.muted(), w));
    }
    // A lesson's `call_1` is shorthand: say what the provider's ids look
    // like, so no one reads the body as a real log's.
    let short = |id: &str| {
        id.strip_prefix("call_")
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
    };
    if trace.calls.first().is_some_and(|c| short(&c.id.0)) {
        let shape = match trace.provider {
            Provider::Anthropic => "toolu_01D7FLrfh4GYq7yT1ULFeyMV",
            Provider::Chat | Provider::Responses => "call_OnWAk719Jr3tte4OmCJtJOB4",
        };
        let said = i18n::WIRE_SHORT_IDS.fill(
            s.lang,
            &[
                ("provider", &i18n::provider_name(trace.provider)),
                ("shape", &shape),
            ],
        );
        lines.extend(hanging(vec![], &said, s.theme.muted(), w));
    }
    lines
}

/// The endpoint a provider's requests are posted to.
fn endpoint(provider: Provider) -> &'static str {
    match provider {
        Provider::Chat => "POST /v1/chat/completions",
        Provider::Responses => "POST /v1/responses",
        Provider::Anthropic => "POST /v1/messages",
    }
}

/// The body's lines from its end backwards until `wanted` exist: the
/// response (when the reply has come), the closing brackets, the newest
/// items, and the fields before the list once every item is in. Returns
/// whether older lines were left out.
fn body_lines(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    reply: Option<Reply>,
    w: usize,
    wanted: usize,
) -> (Vec<Line<'static>>, bool) {
    let theme = s.theme;
    let mc = &trace.model_calls[index];
    let first_call = index == 0;
    // Collected newest first, turned round at the end.
    let mut lines: Vec<Line<'static>> = Vec::new();
    if let Some(reply) = reply {
        let mut reply = reply_lines(s, trace, index, reply, w);
        reply.reverse();
        lines.extend(reply);
    }
    lines.push(plain("}", w));
    lines.push(plain("  ]", w));
    let start = mc.context_start;
    let mut i = mc.context_len;
    let mut last = true;
    while i > start && lines.len() < wanted {
        // An Anthropic user message holds the results that join it.
        let end = i;
        i -= 1;
        while i > start && trace.places.get(i).is_some_and(|p| p.joins()) {
            i -= 1;
        }
        let new = (i..end).any(|k| trace.is_new(index, k));
        let mut items = group_items(trace, i, end);
        while let Some(item) = items.pop() {
            let style = if new {
                theme.new_message()
            } else {
                Style::new()
            };
            let mut block = json_lines(&item, 4, !last, style, w);
            mark(&mut block, new, theme.new_message());
            block.reverse();
            lines.extend(block);
            last = false;
        }
    }
    let more = i > start;
    if !more && lines.len() < wanted {
        let mut head = head_lines(trace, index, !last, w);
        mark(&mut head, first_call, theme.new_message());
        head.reverse();
        lines.extend(head);
    }
    lines.reverse();
    (lines, more)
}

/// The body of model call `index` as recorded, pretty-printed, whole: its
/// members in the order recorded, the items of its list new since the call
/// before marked `+` where they can be told (the previous body recorded,
/// and this list extends it: returned true); the response under it once
/// it has come.
fn recorded_lines(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    reply: Option<Reply>,
    w: usize,
) -> (Vec<Line<'static>>, bool) {
    // The list stands aside while the rest is written; this string marks
    // its place, and `LIST` is how serde writes it there.
    const MARK: &str = "\u{1}list";
    const LIST: &str = "\"\\u0001list\"";
    let mut body = wire::request(trace, index);
    let key = wire::list_key(trace.provider);
    let list = match body.get_mut(key) {
        Some(list @ Value::Array(_)) => std::mem::replace(list, MARK.into()),
        _ => Value::Null,
    };
    let items = list.as_array().map_or(&[][..], Vec::as_slice);
    let new_from = wire::recorded_new_from(trace, index, items);
    let mut out: Vec<Line<'static>> = Vec::new();
    let text = serde_json::to_string_pretty(&body).unwrap_or_default();
    let at = format!("  \"{key}\": {LIST}");
    for l in text.lines() {
        if list.is_null() || !l.starts_with(&at) {
            out.extend(wrapped(l, Style::new(), w));
            continue;
        }
        let comma = if l.ends_with(',') { "," } else { "" };
        if items.is_empty() {
            out.extend(wrapped(&format!("  \"{key}\": []{comma}"), Style::new(), w));
            continue;
        }
        out.extend(wrapped(&format!("  \"{key}\": ["), Style::new(), w));
        for (k, item) in items.iter().enumerate() {
            let new = new_from.is_some_and(|from| k >= from);
            let style = if new {
                s.theme.new_message()
            } else {
                Style::new()
            };
            let mut block = json_lines(item, 4, k + 1 < items.len(), style, w);
            mark(&mut block, new, s.theme.new_message());
            out.extend(block);
        }
        out.extend(wrapped(&format!("  ]{comma}"), Style::new(), w));
    }
    if let Some(reply) = reply {
        out.extend(reply_lines(s, trace, index, reply, w));
    }
    (out, new_from.is_some())
}

/// What came back from the provider, under the request: the response, or
/// at a step of its stream the events so far.
enum Reply {
    Whole(Value),
    /// The stream's events by piece, through piece `through`.
    Stream {
        pieces: Vec<Vec<wire::stream::Event>>,
        through: usize,
    },
}

/// The reply's lines under its heading.
fn reply_lines(
    s: &Scene<'_>,
    trace: &Trace,
    index: usize,
    reply: Reply,
    w: usize,
) -> Vec<Line<'static>> {
    let muted = s.theme.muted();
    match reply {
        Reply::Whole(response) => {
            let status = wire::status(trace, index);
            let label = match trace.stream {
                true => i18n::WIRE_ASSEMBLED.fill(s.lang, &[("status", &status)]),
                false => i18n::WIRE_RESPONSE.fill(s.lang, &[("status", &status)]),
            };
            let mut lines = vec![Line::styled(format!("── {label} "), muted)];
            lines.extend(response_lines(s, response, w));
            lines
        }
        Reply::Stream { pieces, through } => {
            let label = i18n::WIRE_STREAM.get(s.lang);
            let mut lines = vec![Line::styled(format!("── {label} "), muted)];
            let last = pieces.len().saturating_sub(1);
            for (k, events) in pieces.iter().enumerate().take(through + 1) {
                let new = k == through;
                let style = if new {
                    s.theme.new_message()
                } else {
                    Style::new()
                };
                let mut block = Vec::new();
                for event in events {
                    if let Some(name) = event.name {
                        block.extend(wrapped(&format!("event: {name}"), style, w));
                    }
                    block.extend(wrapped(&format!("data: {}", event.data), style, w));
                }
                // Chat's stream ends with a line that is no JSON.
                if k == last && trace.provider == Provider::Chat {
                    block.extend(wrapped("data: [DONE]", style, w));
                }
                mark(&mut block, new, s.theme.new_message());
                lines.extend(block);
            }
            lines
        }
    }
}

/// A response's lines. A Responses response echoes the request's tools
/// whole; they are on screen above, so the echo is one line that says so.
fn response_lines(s: &Scene<'_>, mut reply: Value, w: usize) -> Vec<Line<'static>> {
    const ECHO: &str = "\u{1}tools-echoed";
    let echoed = match reply.get_mut("tools") {
        Some(Value::Array(tools)) if !tools.is_empty() => {
            let n = tools.len();
            reply["tools"] = ECHO.into();
            Some(n)
        }
        _ => None,
    };
    let mut lines = Vec::new();
    let text = serde_json::to_string_pretty(&reply).unwrap_or_default();
    for l in text.lines() {
        match echoed {
            Some(n) if l.contains("tools-echoed") => {
                let indent = l.len() - l.trim_start().len();
                let said = i18n::WIRE_TOOLS_ECHOED.fill(s.lang, &[("n", &n)]);
                let said = format!("{}{said}", " ".repeat(indent));
                lines.extend(wrapped(&said, s.theme.muted(), w));
            }
            _ => lines.extend(wrapped(l, Style::new(), w)),
        }
    }
    lines
}

/// The response to model call `index`, once the step shown is past it
/// and past its stream; at a step of its stream, the events so far.
fn reply_at(trace: &Trace, counts: &Counts, index: usize, step: usize) -> Option<Reply> {
    let mc = &trace.model_calls[index];
    if let crate::trace::StepKind::Streams { piece, .. } = trace.steps[step].kind {
        let pieces = wire::stream::events(trace, counts, index);
        return Some(Reply::Stream {
            pieces,
            through: piece,
        });
    }
    (step > mc.step)
        .then(|| wire::response(trace, counts, index))
        .flatten()
        .map(Reply::Whole)
}

/// The items of the request's list made by messages `from..to` (one
/// Anthropic user message and the results that join it, or one message).
fn group_items(trace: &Trace, from: usize, to: usize) -> Vec<Value> {
    let first = &trace.messages[from];
    let mut items = wire::items(trace, first);
    if trace.provider == Provider::Anthropic
        && let Some(Value::Array(blocks)) = items.last_mut().map(|i| &mut i["content"])
    {
        blocks.extend(
            trace
                .messages
                .slice(from + 1..to)
                .iter()
                .map(wire::anthropic_block),
        );
    }
    items
}

/// The fields before the list, the list's opening bracket, and what every
/// request sends first in it (Chat's system message). Built only when the
/// whole list is on the way, so the request is small enough to build.
fn head_lines(trace: &Trace, index: usize, more: bool, w: usize) -> Vec<Line<'static>> {
    let mc = &trace.model_calls[index];
    let mut request = wire::request(trace, index);
    let key = wire::list_key(trace.provider);
    // Walked in order, not looked up one by one (a persistent list).
    let messages: usize = trace
        .places
        .iter()
        .skip(mc.context_start)
        .take(mc.context_len.saturating_sub(mc.context_start))
        .map(|p| p.items as usize)
        .sum();
    let fixed: Vec<Value> = match request.as_object_mut().and_then(|o| o.remove(key)) {
        Some(Value::Array(list)) => {
            let n = list.len().saturating_sub(messages);
            list.into_iter().take(n).collect()
        }
        _ => Vec::new(),
    };
    let text = serde_json::to_string_pretty(&request).unwrap_or_default();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.pop(); // the closing brace, which comes after the list
    let mut out: Vec<Line<'static>> = Vec::new();
    let count = lines.len();
    for (k, l) in lines.into_iter().enumerate() {
        // The field before the list needs its comma.
        let l = if k + 1 == count && k > 0 {
            format!("{l},")
        } else {
            l.to_string()
        };
        out.extend(wrapped(&l, Style::new(), w));
    }
    out.extend(wrapped(&format!("  \"{key}\": ["), Style::new(), w));
    let total = fixed.len();
    for (k, item) in fixed.iter().enumerate() {
        out.extend(json_lines(item, 4, k + 1 < total || more, Style::new(), w));
    }
    out
}

/// A value pretty-printed `indent` columns in, a comma after it when
/// `comma`, each line wrapped to the panel.
fn json_lines(
    value: &Value,
    indent: usize,
    comma: bool,
    style: Style,
    w: usize,
) -> Vec<Line<'static>> {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let pad = " ".repeat(indent);
    let mut raw: Vec<String> = text.lines().map(|l| format!("{pad}{l}")).collect();
    if comma && let Some(last) = raw.last_mut() {
        last.push(',');
    }
    raw.iter().flat_map(|l| wrapped(l, style, w)).collect()
}

/// One line of JSON in the panel: two columns for the new-item mark, a
/// long line wrapped under its own indentation. A recorded body's strings
/// are the file's: made safe for the screen here.
fn wrapped(line: &str, style: Style, w: usize) -> Vec<Line<'static>> {
    let indent = line.len() - line.trim_start().len();
    let prefix = vec![Span::raw(" ".repeat(2 + indent))];
    hanging(
        prefix,
        &crate::safe::for_screen(line.trim_start()),
        style,
        w,
    )
}

fn plain(line: &str, w: usize) -> Line<'static> {
    wrapped(line, Style::new(), w)
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// Mark a new item's lines with `+` in the first column.
fn mark(lines: &mut [Line<'static>], new: bool, style: Style) {
    if !new {
        return;
    }
    for line in lines.iter_mut() {
        if let Some(first) = line.spans.first_mut()
            && first.content.starts_with(' ')
        {
            let rest: String = first.content.chars().skip(1).collect();
            *first = Span::raw(rest);
            line.spans.insert(0, Span::styled("+", style));
        }
    }
}
