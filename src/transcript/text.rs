//! The words of transcript steps, in Chinese and English, in one place:
//! narration generated from what the file recorded, the title (which names
//! the detected format) and the "about" facts (what is exact, rebuilt or
//! missing).
//!
//! Long because every sentence a replayed step says is put together here,
//! from the same facts in both languages; split by kind of step, each part
//! would import most of the catalogue again.

use crate::i18n::{
    ABOUT_CLAUDE_CODE_UNDOCUMENTED, ABOUT_COMPACTIONS_GUESSED, ABOUT_COMPACTIONS_RECORDED,
    ABOUT_EXACT_CALLS, ABOUT_FORMAT, ABOUT_LINE_CUT_SHORT, ABOUT_NO_SYSTEM,
    ABOUT_NO_SYSTEM_IN_BODIES, ABOUT_NO_VALIDATION, ABOUT_OFF_CHAIN, ABOUT_REPLAY_CHECK,
    ABOUT_REPLAY_COST, ABOUT_REPLAY_HOW, ABOUT_REPLAY_WHY, ABOUT_SYSTEM, ABOUT_TOOLS_KNOWN,
    ABOUT_TOOLS_UNKNOWN, ABOUT_WRITES_CLAUDE_CODE, ABOUT_WRITES_CODEX, ABOUT_WRITES_UNKNOWN,
    ENUMERATION_COMMA, ITEM_N, ITEM_PLACE_N, LINE_N, LIST_SEPARATOR, LIVE_NO_RESULT_FOR_YET,
    LIVE_NOT_ANSWERED_YET, LIVE_RECORDING_ENDS, Label, MESSAGE_N, PAIR_RULE_CALL_ID,
    PAIR_RULE_FUNCTION_RESPONSE_ID, PAIR_RULE_PART_ID, PAIR_RULE_POSITION, PAIR_RULE_TOOL_CALL_ID,
    PAIR_RULE_TOOL_USE_ID, PLACE_ITEM, PLACE_LINE, PLACE_REQUEST, REASONING_ITEM_N, REPLAY_ABORTED,
    REPLAY_ANSWERS, REPLAY_CALL_CONTINUES, REPLAY_CALL_EXACT, REPLAY_CALL_RECONSTRUCTED,
    REPLAY_CALL_RECORDED, REPLAY_CALL_REWRITTEN, REPLAY_COMPACTED_HISTORY,
    REPLAY_COMPACTED_SUMMARY, REPLAY_CUT, REPLAY_ERROR_RESULT, REPLAY_ERROR_RESULT_BY_POSITION,
    REPLAY_EXECUTES_MANY, REPLAY_EXECUTES_ONE, REPLAY_FILE_ENDS, REPLAY_FIRST_CALLER,
    REPLAY_FIRST_USER, REPLAY_HARNESS_CONTEXT, REPLAY_INPUT_TOKENS, REPLAY_NEVER_ANSWERED,
    REPLAY_NO_REPLY, REPLAY_NO_RESULT_FOR, REPLAY_NO_SYSTEM, REPLAY_NO_TOOL_SCHEMAS,
    REPLAY_ORPHAN_RESULT, REPLAY_PROPOSES_MANY, REPLAY_PROPOSES_ONE, REPLAY_REASONING_BEFORE,
    REPLAY_REASONING_IN_BODY, REPLAY_REASONING_SENT, REPLAY_REFUSED, REPLAY_REPLY_TOKENS,
    REPLAY_RESULT, REPLAY_RESULT_BY_POSITION, REPLAY_SECOND_RESULT, REPLAY_SERVER_ERROR,
    REPLAY_SYSTEM_FIRST, REPLAY_SYSTEM_SENT, REPLAY_TASK, REPLAY_THOUGHT, REPLAY_THOUGHT_ENCRYPTED,
    REPLAY_THOUGHT_NO_SUMMARY, REPLAY_THOUGHT_SUMMARY, REPLAY_UNREAD, REPLAY_UNREAD_KIND,
    REPLAY_USER_AGAIN, REQUEST_N, TITLE_RECONSTRUCTED, TITLE_REDACTED,
};
use crate::scenario::Lang;

use super::format::Format;

/// Where a model call's context comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A request body at this line, consistent with the earlier messages.
    Exact { line: usize },
    /// A request body that does not extend the earlier messages (the host
    /// rewrote or cut its history): shown as earlier messages plus new ones.
    Rewritten { line: usize },
    /// A request that continues a response the server keeps
    /// (`previous_response_id`): the earlier context is not in the file.
    Continues { line: usize },
    /// No request body: rebuilt from the messages before the reply.
    Reconstructed,
    /// The request recorded apart from the conversation (Claude Code
    /// `api-request`): its size and message count are the file's; the
    /// messages drawn are the conversation's.
    Recorded {
        line: usize,
        messages: usize,
        bytes: usize,
    },
}

/// What one step says, in data; rendered per language by `narrate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Say {
    User {
        line: usize,
        first: bool,
        /// The run is a sub-agent's: its first message is its caller's.
        caller: bool,
        format: Format,
    },
    ModelCall {
        number: u32,
        source: Source,
        format: Format,
        /// Reasoning items: how many, their characters, and whose: the
        /// earlier ones in the file (None), or the request's own (whether
        /// the file records its body, which then holds them).
        reasoning: (usize, usize, Option<bool>),
        messages: usize,
        new: usize,
        compacted: Option<usize>,
        /// What replaced the history at that compaction: (items, chars).
        replaced: Option<(usize, usize)>,
        system: usize,
        tools_known: bool,
        no_reply: bool,
    },
    Proposes {
        number: u32,
        calls: Vec<(String, String)>,
        unanswered: Vec<String>,
        line: usize,
        tokens: Option<u64>,
        reasoning: Vec<Thought>,
        end: Option<Vec<String>>,
    },
    Executes {
        calls: Vec<(String, String)>,
    },
    Result {
        id: String,
        tool: Option<String>,
        is_error: bool,
        /// Paired by position, not by an id (`PairRule::Position`).
        by_position: bool,
        line: usize,
        /// Some(true): a second result for an answered call; Some(false):
        /// no call has this id.
        orphan: Option<bool>,
        end: Option<Vec<String>>,
    },
    Answers {
        number: u32,
        line: usize,
        tokens: Option<u64>,
        reasoning: Vec<Thought>,
        end: Option<Vec<String>>,
    },
    /// The file records the provider's error for the request.
    Rejected {
        number: u32,
        line: usize,
        error: String,
    },
    /// The recording marks the reply cut (`incomplete`), with why.
    Cut {
        number: u32,
        line: usize,
        error: String,
    },
}

/// The model's reasoning in a reply, as the file holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thought {
    pub line: usize,
    pub summary_chars: usize,
    /// The summary's start, on one line.
    pub excerpt: String,
    /// Characters of encrypted or redacted reasoning.
    pub encrypted: usize,
}

/// A text's first 80 characters on one line, for a narration.
pub fn excerpt(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &one[..i]),
        None => one,
    }
}

/// What a reply's reasoning holds, said after its narration.
fn thoughts(list: &[Thought], unit: Unit, lang: Lang) -> String {
    let mut out = String::new();
    for t in list {
        let p = place(t.line, unit, lang);
        let said = match t.summary_chars {
            0 => REPLAY_THOUGHT_NO_SUMMARY.get(lang).to_string(),
            n => REPLAY_THOUGHT_SUMMARY.fill(lang, &[("chars", &n), ("excerpt", &t.excerpt)]),
        };
        out.push_str(&match t.encrypted {
            0 => REPLAY_THOUGHT.fill(lang, &[("place", &p), ("said", &said)]),
            e => REPLAY_THOUGHT_ENCRYPTED
                .fill(lang, &[("place", &p), ("said", &said), ("encrypted", &e)]),
        });
    }
    out
}

impl Say {
    /// The model call whose size and input tokens `narrate` reads for it.
    pub fn call_number(&self) -> Option<u32> {
        match self {
            Say::ModelCall { number, .. }
            | Say::Proposes { number, .. }
            | Say::Answers { number, .. }
            | Say::Rejected { number, .. }
            | Say::Cut { number, .. } => Some(*number),
            _ => None,
        }
    }

    /// A model call counts its list as the context panel's heading does
    /// (`wire::list_counts`): the request's messages (Chat's system prompt
    /// the first), or its input items, and how many are new.
    pub fn count_as_sent(&mut self, lists: &[(usize, usize)]) {
        if let Say::ModelCall {
            number,
            messages,
            new,
            ..
        } = self
            && let Some(&(sent, fresh)) = lists.get(*number as usize - 1)
        {
            (*messages, *new) = (sent, fresh);
        }
    }

    /// The last step of the file also says which calls never got a result.
    pub fn set_end(&mut self, unanswered: Vec<String>) {
        match self {
            Say::Proposes { end, .. } | Say::Result { end, .. } | Say::Answers { end, .. } => {
                *end = Some(unanswered)
            }
            _ => {}
        }
    }
}

pub fn format_name(format: Format, lang: Lang) -> &'static str {
    format.reader().name.get(lang)
}

/// What a transcript's places are counted in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Unit {
    /// Lines of JSON lines.
    #[default]
    Line,
    /// Items of one document's list.
    Item,
    /// Requests of a tap's live view, in the order its recording has them
    /// (the lines it has written, then the calls still running).
    Request,
}

/// Where in the file: a line of JSON lines, an item of one document's
/// list, a request the live view has seen.
fn place(line: usize, unit: Unit, lang: Lang) -> String {
    match unit {
        Unit::Line => PLACE_LINE,
        Unit::Item => PLACE_ITEM,
        Unit::Request => PLACE_REQUEST,
    }
    .fill(lang, &[("n", &line)])
}

fn ids(list: &[String]) -> String {
    list.join(", ")
}

fn calls_text(calls: &[(String, String)]) -> String {
    calls
        .iter()
        .map(|(id, tool)| format!("{tool} ({id})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a step says. `sizes`: each model call's request body in bytes, as
/// the trace holds it (the file's own size where it records one).
pub fn narrate(
    say: &Say,
    sizes: &[usize],
    tokens_in: &crate::shared::Shared<Option<u64>>,
    unit: Unit,
    lang: Lang,
) -> String {
    let p = match say {
        Say::User { line, .. }
        | Say::Proposes { line, .. }
        | Say::Result { line, .. }
        | Say::Answers { line, .. }
        | Say::Rejected { line, .. }
        | Say::Cut { line, .. } => place(*line, unit, lang),
        _ => String::new(),
    };
    let mut out = match say {
        Say::User {
            first,
            caller,
            format,
            ..
        } => user_said((*first, *caller), *format, &p, lang),
        Say::ModelCall {
            number,
            source,
            format,
            reasoning,
            messages,
            new,
            compacted,
            replaced,
            system,
            tools_known,
            no_reply,
        } => CallSaid {
            number: *number,
            source: *source,
            format: *format,
            reasoning: *reasoning,
            messages: *messages,
            new: *new,
            size: sizes.get(*number as usize - 1).copied().unwrap_or(0),
            compacted: *compacted,
            replaced: *replaced,
            system: *system,
            tools_known: *tools_known,
            no_reply: *no_reply,
        }
        .said(tokens_in, unit, lang),
        Say::Proposes {
            number,
            calls,
            unanswered,
            tokens,
            reasoning,
            ..
        } => {
            let mut s = proposes_said(*number, calls, &p, lang);
            s.push_str(&reply_said(*tokens, reasoning, unit, lang));
            s.push_str(&no_result_yet(unanswered, unit, lang));
            s
        }
        Say::Answers {
            number,
            tokens,
            reasoning,
            ..
        } => {
            let mut s = REPLAY_ANSWERS.fill(lang, &[("number", number), ("place", &p)]);
            s.push_str(&reply_said(*tokens, reasoning, unit, lang));
            s
        }
        Say::Executes { calls } => match calls.len() {
            1 => REPLAY_EXECUTES_ONE.fill(lang, &[("calls", &calls_text(calls))]),
            _ => REPLAY_EXECUTES_MANY.fill(lang, &[("calls", &calls_text(calls))]),
        },
        Say::Result {
            id,
            tool,
            is_error,
            by_position,
            orphan,
            ..
        } => result_said(
            (id, tool.as_deref()),
            (*is_error, *by_position),
            *orphan,
            &p,
            lang,
        ),
        Say::Rejected { number, error, .. } => failed_said(*number, error, false, &p, lang),
        Say::Cut { number, error, .. } => failed_said(*number, error, true, &p, lang),
    };
    out.push_str(&recording_end(say, unit, lang));
    out
}

/// A reply that asks for `calls`. `p`: its place.
fn proposes_said(number: u32, calls: &[(String, String)], p: &str, lang: Lang) -> String {
    let listed = calls_text(calls);
    match calls.len() {
        1 => REPLAY_PROPOSES_ONE.fill(
            lang,
            &[("number", &number), ("place", &p), ("calls", &listed)],
        ),
        n => REPLAY_PROPOSES_MANY.fill(lang, &[("n", &n), ("place", &p), ("calls", &listed)]),
    }
}

/// A user message: the first (a sub-agent's: its caller's prompt), or
/// the user writing again. `p`: its place.
fn user_said((first, caller): (bool, bool), format: Format, p: &str, lang: Lang) -> String {
    let first = match (first, caller) {
        (false, _) => return REPLAY_USER_AGAIN.fill(lang, &[("place", &p)]),
        (true, true) => REPLAY_FIRST_CALLER,
        (true, false) => REPLAY_FIRST_USER,
    };
    first.fill(
        lang,
        &[("format", &format_name(format, lang)), ("place", &p)],
    )
}

/// A reply's tokens, where the file records them, and its thoughts.
fn reply_said(tokens: Option<u64>, reasoning: &[Thought], unit: Unit, lang: Lang) -> String {
    let mut s = String::new();
    if let Some(t) = tokens {
        s.push_str(&REPLAY_REPLY_TOKENS.fill(lang, &[("tokens", &t)]));
    }
    s.push_str(&thoughts(reasoning, unit, lang));
    s
}

/// The calls proposed that no result answers yet.
fn no_result_yet(unanswered: &[String], unit: Unit, lang: Lang) -> String {
    if unanswered.is_empty() {
        return String::new();
    }
    // Live, the agent may still be running the call.
    let said = if unit == Unit::Request {
        LIVE_NO_RESULT_FOR_YET
    } else {
        REPLAY_NO_RESULT_FOR
    };
    said.fill(lang, &[("ids", &ids(unanswered))])
}

/// A result comes back: an orphan (no call proposed its id), a second
/// result for one call, or the result of a call. `p`: its place.
fn result_said(
    (id, tool): (&str, Option<&str>),
    (is_error, by_position): (bool, bool),
    orphan: Option<bool>,
    p: &str,
    lang: Lang,
) -> String {
    match orphan {
        Some(false) => REPLAY_ORPHAN_RESULT.fill(lang, &[("place", &p), ("id", &id)]),
        Some(true) => REPLAY_SECOND_RESULT.fill(lang, &[("place", &p), ("id", &id)]),
        None => {
            let tool = tool.unwrap_or("?");
            let text = match (is_error, by_position) {
                (true, false) => REPLAY_ERROR_RESULT,
                (false, false) => REPLAY_RESULT,
                (true, true) => REPLAY_ERROR_RESULT_BY_POSITION,
                (false, true) => REPLAY_RESULT_BY_POSITION,
            };
            text.fill(lang, &[("id", &id), ("tool", &tool), ("place", &p)])
        }
    }
}

/// Model call `number` got no reply: refused (a 4xx), cut (`cut`: the
/// stream broke off), or a server error. `p`: its place.
fn failed_said(number: u32, error: &str, cut: bool, p: &str, lang: Lang) -> String {
    let template = if cut {
        REPLAY_CUT
    } else if crate::i18n::error_status(error) < 500 {
        REPLAY_REFUSED
    } else {
        // A server error: whether the model began is not known, only
        // that no reply came.
        REPLAY_SERVER_ERROR
    };
    template.fill(
        lang,
        &[("number", &number), ("place", &p), ("error", &error)],
    )
}

/// Where the file (or a live view's recording so far) ends after this
/// step, and the calls never answered. A live view's recording is still
/// growing: what ends is the recording so far, and a call without a
/// result may still get one.
fn recording_end(say: &Say, unit: Unit, lang: Lang) -> String {
    let (Say::Proposes { end, .. } | Say::Result { end, .. } | Say::Answers { end, .. }) = say
    else {
        return String::new();
    };
    let Some(unanswered) = end else {
        return String::new();
    };
    let live = unit == Unit::Request;
    let mut out = if live {
        LIVE_RECORDING_ENDS
    } else {
        REPLAY_FILE_ENDS
    }
    .get(lang)
    .to_string();
    if !unanswered.is_empty() {
        let said = if live {
            LIVE_NOT_ANSWERED_YET
        } else {
            REPLAY_NEVER_ANSWERED
        };
        out.push_str(&said.fill(lang, &[("ids", &ids(unanswered))]));
    }
    out
}

/// A model call as a step says it: `Say::ModelCall`'s fields, and `size`,
/// its request body in bytes.
struct CallSaid {
    number: u32,
    source: Source,
    format: Format,
    reasoning: (usize, usize, Option<bool>),
    messages: usize,
    new: usize,
    size: usize,
    compacted: Option<usize>,
    replaced: Option<(usize, usize)>,
    system: usize,
    tools_known: bool,
    no_reply: bool,
}

impl CallSaid {
    fn said(
        &self,
        tokens_in: &crate::shared::Shared<Option<u64>>,
        unit: Unit,
        lang: Lang,
    ) -> String {
        let mut s = self.source_said(unit, lang);
        if let Some(Some(t)) = tokens_in.get(self.number as usize - 1) {
            s.push_str(&REPLAY_INPUT_TOKENS.fill(lang, &[("tokens", t)]));
        }
        let chat = self.format.provider() == crate::provider::Provider::Chat;
        if self.system > 0 && chat {
            // Chat Completions sends it as the first message (drawn so).
            s.push_str(&REPLAY_SYSTEM_FIRST.fill(lang, &[("chars", &self.system)]));
        } else if self.system > 0 {
            s.push_str(&REPLAY_SYSTEM_SENT.fill(lang, &[("chars", &self.system)]));
        } else if matches!(self.source, Source::Reconstructed) {
            s.push_str(REPLAY_NO_SYSTEM.get(lang));
        }
        s.push_str(&self.reasoning_said(lang));
        if !self.tools_known {
            s.push_str(REPLAY_NO_TOOL_SCHEMAS.get(lang));
        }
        if let (Some(line), Some((items, chars))) = (self.compacted, self.replaced) {
            let p = place(line, unit, lang);
            s.push_str(
                &REPLAY_COMPACTED_HISTORY
                    .fill(lang, &[("place", &p), ("items", &items), ("chars", &chars)]),
            );
        } else if let Some(line) = self.compacted {
            let p = place(line, unit, lang);
            s.push_str(&REPLAY_COMPACTED_SUMMARY.fill(lang, &[("place", &p)]));
        }
        if self.no_reply {
            s.push_str(REPLAY_NO_REPLY.get(lang));
        }
        s
    }

    /// Where the request comes from: the file's own line, rewritten or
    /// continued, recorded whole, or put together from the messages.
    fn source_said(&self, unit: Unit, lang: Lang) -> String {
        let (number, messages, new, size) = (self.number, self.messages, self.new, self.size);
        // The heading's word for the list: Responses sends input items.
        let noun = match self.format.provider() {
            crate::provider::Provider::Responses => ITEM_N.get(messages, lang),
            _ => MESSAGE_N.get(messages, lang),
        };
        match self.source {
            Source::Exact { line } => REPLAY_CALL_EXACT.fill(
                lang,
                &[
                    ("number", &number),
                    ("place", &place(line, unit, lang)),
                    ("messages", &messages),
                    ("noun", &noun),
                    ("new", &new),
                    ("size", &size),
                ],
            ),
            Source::Rewritten { line } => REPLAY_CALL_REWRITTEN.fill(
                lang,
                &[
                    ("number", &number),
                    ("place", &place(line, unit, lang)),
                    ("messages", &messages),
                ],
            ),
            Source::Continues { line } => REPLAY_CALL_CONTINUES.fill(
                lang,
                &[
                    ("number", &number),
                    ("place", &place(line, unit, lang)),
                    ("messages", &messages),
                ],
            ),
            Source::Recorded {
                line,
                messages: sent,
                bytes,
            } => REPLAY_CALL_RECORDED.fill(
                lang,
                &[
                    ("number", &number),
                    ("place", &place(line, unit, lang)),
                    ("sent", &sent),
                    ("sent_noun", &MESSAGE_N.get(sent, lang)),
                    ("bytes", &bytes),
                    ("messages", &messages),
                    ("noun", &noun),
                    ("new", &new),
                ],
            ),
            Source::Reconstructed => REPLAY_CALL_RECONSTRUCTED.fill(
                lang,
                &[
                    ("number", &number),
                    ("format", &format_name(self.format, lang)),
                    ("messages", &messages),
                    ("noun", &noun),
                    ("new", &new),
                    ("size", &size),
                ],
            ),
        }
    }

    /// The reasoning items sent with the request, and whose they are.
    fn reasoning_said(&self, lang: Lang) -> String {
        let (n, chars, recorded) = self.reasoning;
        if n == 0 {
            return String::new();
        }
        let template = match recorded {
            Some(true) => REPLAY_REASONING_IN_BODY,
            Some(false) => REPLAY_REASONING_SENT,
            None => REPLAY_REASONING_BEFORE,
        };
        template.fill(
            lang,
            &[
                ("n", &n),
                ("items", &REASONING_ITEM_N.get(n, lang)),
                ("chars", &chars),
            ],
        )
    }
}

/// Something the file records between steps, said after a step.
#[derive(Debug, Clone)]
pub enum Note {
    Aborted {
        line: usize,
        reason: String,
    },
    /// User-role messages the harness wrote, appended with this step.
    Context {
        lines: Vec<usize>,
    },
}

pub fn note(note: &Note, unit: Unit, lang: Lang) -> String {
    match note {
        Note::Context { lines } => {
            let places: Vec<String> = lines.iter().map(|l| place(*l, unit, lang)).collect();
            let n = lines.len();
            let places = places.join(ENUMERATION_COMMA.get(lang));
            REPLAY_HARNESS_CONTEXT
                .of(n, lang)
                .fill(lang, &[("n", &n), ("places", &places)])
        }
        Note::Aborted { line, reason } => {
            let p = place(*line, unit, lang);
            REPLAY_ABORTED.fill(lang, &[("place", &p), ("reason", reason)])
        }
    }
}

/// What the builder learnt about the file as a whole.
#[derive(Debug, Clone)]
pub struct Facts {
    pub file: String,
    pub format: Format,
    pub model_calls: usize,
    pub exact_calls: usize,
    pub requests: usize,
    pub system_parts: usize,
    pub system_chars: usize,
    pub tools_known: bool,
    pub compactions: usize,
    /// Of which the file records what replaced the history (drawn exactly).
    pub compactions_recorded: usize,
    /// The skipped lines by type (`unread`).
    pub unread: Vec<(String, Vec<usize>)>,
    pub unit: Unit,
    /// The line a JSONL file was cut short at, if it was.
    pub truncated: Option<usize>,
    /// Whether writes are counted (`trace::Recorded::writes`).
    pub writes_known: bool,
    /// About the file as a whole (which run of many is shown): [zh, en].
    pub notes: Vec<[String; Lang::COUNT]>,
    pub off_chain: usize,
    pub redacted: bool,
    /// How the file's results name their calls.
    pub pairing: super::format::PairRule,
}

/// The line types a file holds that are not drawn as steps, each with its
/// count and lines (the first 12 of each; `trace` JSON has them all).
pub fn unread(list: &[(String, Vec<usize>)], by_item: bool, lang: Lang) -> Option<String> {
    let unit = if by_item { Unit::Item } else { Unit::Line };
    unread_in(list, unit, lang)
}

fn unread_in(list: &[(String, Vec<usize>)], unit: Unit, lang: Lang) -> Option<String> {
    if list.is_empty() {
        return None;
    }
    let parts: Vec<String> = list
        .iter()
        .map(|(kind, lines)| {
            // A key of the document: no place in its list.
            if lines.is_empty() {
                return kind.clone();
            }
            let mut shown: Vec<String> = lines.iter().take(12).map(usize::to_string).collect();
            if lines.len() > 12 {
                shown.push("…".into());
            }
            let noun = match unit {
                Unit::Line => LINE_N,
                Unit::Item => ITEM_PLACE_N,
                Unit::Request => REQUEST_N,
            }
            .get(lines.len(), lang);
            REPLAY_UNREAD_KIND.fill(
                lang,
                &[
                    ("kind", kind),
                    ("count", &lines.len()),
                    ("places", &shown.join(", ")),
                    ("noun", &noun),
                ],
            )
        })
        .collect();
    let parts = parts.join(LIST_SEPARATOR.get(lang));
    Some(REPLAY_UNREAD.fill(lang, &[("parts", &parts)]))
}

/// The header title: the file and the detected format.
pub fn title(f: &Facts, lang: Lang) -> String {
    let name = format_name(f.format, lang);
    let rebuilt = f.model_calls - f.exact_calls;
    let mut title = format!("{} · {name}", f.file);
    if rebuilt > 0 {
        title.push_str(TITLE_RECONSTRUCTED.get(lang));
    }
    if f.redacted {
        title.push_str(TITLE_REDACTED.get(lang));
    }
    title
}

pub fn task(f: &Facts, lang: Lang) -> String {
    REPLAY_TASK.fill(lang, &[("file", &f.file)])
}

/// The text of `label` in every language, filled by `values` in each.
pub(super) fn every(
    label: Label,
    values: impl Fn(Lang) -> Vec<(&'static str, String)>,
) -> [String; Lang::COUNT] {
    Lang::ALL.map(|lang| {
        let values = values(lang);
        let holes: Vec<(&str, &dyn std::fmt::Display)> = values
            .iter()
            .map(|(name, value)| (*name, value as &dyn std::fmt::Display))
            .collect();
        label.fill(lang, &holes)
    })
}

/// `every` for a sentence that changes with the count `n`: each language
/// takes the form its own plural rule gives.
pub(super) fn every_n(
    plural: crate::i18n::Plural,
    n: usize,
    values: impl Fn(Lang) -> Vec<(&'static str, String)>,
) -> [String; Lang::COUNT] {
    Lang::ALL.map(|lang| {
        let mut texts = every(plural.of(n, lang), &values);
        std::mem::take(&mut texts[lang.index()])
    })
}

pub(super) fn fixed(label: Label) -> [String; Lang::COUNT] {
    Lang::ALL.map(|lang| label.get(lang).to_string())
}

/// The facts shown under "conditions" in the about overlay: exact,
/// reconstructed, missing.
pub fn conditions(f: &Facts) -> Vec<[String; Lang::COUNT]> {
    let mut out = vec![every(ABOUT_FORMAT, |lang| {
        vec![("format", format_name(f.format, lang).to_string())]
    })];
    out.push(every(ABOUT_EXACT_CALLS, |_| {
        vec![
            ("calls", f.model_calls.to_string()),
            ("exact", f.exact_calls.to_string()),
            ("rebuilt", (f.model_calls - f.exact_calls).to_string()),
        ]
    }));
    out.push(match f.system_parts {
        0 if f.requests > 0 => fixed(ABOUT_NO_SYSTEM_IN_BODIES),
        0 => fixed(ABOUT_NO_SYSTEM),
        n => every(ABOUT_SYSTEM, |_| {
            vec![("n", n.to_string()), ("chars", f.system_chars.to_string())]
        }),
    });
    out.push(fixed(if f.tools_known {
        ABOUT_TOOLS_KNOWN
    } else {
        ABOUT_TOOLS_UNKNOWN
    }));
    out.push(fixed(ABOUT_NO_VALIDATION));
    let guessed = f.compactions - f.compactions_recorded.min(f.compactions);
    if f.compactions_recorded > 0 {
        out.push(every(ABOUT_COMPACTIONS_RECORDED, |_| {
            vec![("n", f.compactions_recorded.to_string())]
        }));
    }
    if guessed > 0 {
        out.push(every(ABOUT_COMPACTIONS_GUESSED, |_| {
            vec![("n", guessed.to_string())]
        }));
    }
    if f.format == Format::ClaudeCode {
        out.push(fixed(ABOUT_CLAUDE_CODE_UNDOCUMENTED));
    }
    out.push(fixed(match (f.writes_known, f.format) {
        (true, Format::Codex) => ABOUT_WRITES_CODEX,
        (true, _) => ABOUT_WRITES_CLAUDE_CODE,
        (false, _) => ABOUT_WRITES_UNKNOWN,
    }));
    let unread = Lang::ALL.map(|lang| unread_in(&f.unread, f.unit, lang));
    if unread.iter().all(Option::is_some) {
        out.push(unread.map(Option::unwrap_or_default));
    }
    out.extend(f.notes.iter().cloned());
    if let Some(line) = f.truncated {
        out.push(every(ABOUT_LINE_CUT_SHORT, |_| {
            vec![("line", line.to_string())]
        }));
    }
    if f.off_chain > 0 {
        out.push(every(ABOUT_OFF_CHAIN, |_| {
            vec![("n", f.off_chain.to_string())]
        }));
    }
    out
}

/// How results find their calls, by the file's own rule.
fn pairing_rule(rule: super::format::PairRule) -> Label {
    use super::format::PairRule;
    match rule {
        PairRule::ToolCallId => PAIR_RULE_TOOL_CALL_ID,
        PairRule::CallId => PAIR_RULE_CALL_ID,
        PairRule::ToolUseId => PAIR_RULE_TOOL_USE_ID,
        PairRule::FunctionResponseId => PAIR_RULE_FUNCTION_RESPONSE_ID,
        PairRule::PartId => PAIR_RULE_PART_ID,
        PairRule::Position => PAIR_RULE_POSITION,
    }
}

/// why / how / cost / check for the about overlay.
pub fn about(f: &Facts) -> [[String; Lang::COUNT]; 4] {
    let rule = pairing_rule(f.pairing);
    [
        fixed(ABOUT_REPLAY_WHY),
        every(ABOUT_REPLAY_HOW, |lang| {
            vec![("rule", rule.get(lang).to_string())]
        }),
        every(ABOUT_REPLAY_COST, |_| {
            vec![("calls", f.model_calls.to_string())]
        }),
        fixed(ABOUT_REPLAY_CHECK),
    ]
}
