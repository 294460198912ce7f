//! The engine's trace as JSON, for `agent-loop-sim trace`: what a teacher's
//! script or a test can read without drawing anything.
//!
//! Built from `#[derive(Serialize)]` structs, so the field order is the
//! order of the fields below; it is part of the interface. Steps are
//! serialized one at a time, so a long run streams out instead of being
//! built in memory first.
//!
//! Each model call's context is written in one of two shapes
//! ([`ContextShape`]). By default each message appears once, in
//! `new_messages` of the first model call that sent it (with its `index` in
//! the conversation); the context of a call is the first `messages_count`
//! messages, so a reader rebuilds it from the calls before. The output then
//! grows linearly with the run. `--full-context` writes every message of
//! every context again (`messages`, each marked `new` or not): easier to
//! read one call alone, but the size grows with the square of the run.
//!
//! Long because the JSON interface is one `Serialize` type per object of the
//! document, and their field order is the interface.

use std::collections::HashMap;
use std::io::Write;

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

use crate::i18n;
use crate::tokens::Counts;
use crate::trace::{
    CallId, CallStatus, Decision, FileChange, Lane, Message, Outcome, Pairing, Role, Source, Step,
    StepKind, ToolCall, Trace, Verdict,
};

/// How a model call's context is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextShape {
    /// Each message once, at the first call that sent it (`new_messages`).
    Linear,
    /// Every message of every context (`messages`), as `--full-context`.
    Full,
}

impl From<bool> for ContextShape {
    /// `--full-context`.
    fn from(full: bool) -> Self {
        if full {
            ContextShape::Full
        } else {
            ContextShape::Linear
        }
    }
}

impl ContextShape {
    fn code(self) -> &'static str {
        match self {
            ContextShape::Linear => "new_messages_only",
            ContextShape::Full => "full",
        }
    }
}

/// Write the whole trace, pretty-printed, followed by a newline.
pub fn write(trace: &Trace, shape: ContextShape, out: impl Write) -> std::io::Result<()> {
    write_with_sub_agent(trace, None, shape, out)
}

/// `write`, with a lesson's sub-agent's own run (`sub`) as a document of
/// its own under `sub_agent`, after the steps.
pub fn write_with_sub_agent(
    trace: &Trace,
    sub: Option<&Trace>,
    shape: ContextShape,
    mut out: impl Write,
) -> std::io::Result<()> {
    let document = Document {
        sub_agent: sub.map(|s| Box::new(Document::new(s, shape))),
        ..Document::new(trace, shape)
    };
    serde_json::to_writer_pretty(&mut out, &document)?;
    writeln!(out)?;
    out.flush()
}

/// The whole trace as one JSON value (for tests and small traces).
pub fn to_value(trace: &Trace, shape: ContextShape) -> serde_json::Value {
    serde_json::to_value(Document::new(trace, shape))
        .expect("the trace's JSON has string keys only")
}

#[derive(Serialize)]
struct Document<'a> {
    scenario: ScenarioJson<'a>,
    /// What a teacher's script checks first (`crate::transcript::summary`).
    summary: crate::transcript::Summary,
    steps: Steps<'a>,
    /// A lesson's sub-agent's own run, whole (`Scenario::sub_agent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    sub_agent: Option<Box<Document<'a>>>,
}

impl<'a> Document<'a> {
    fn new(trace: &'a Trace, shape: ContextShape) -> Self {
        Document {
            scenario: ScenarioJson::new(trace, shape),
            summary: crate::transcript::summary(trace),
            steps: Steps {
                trace,
                shape,
                counts: crate::wire::counts_of(trace),
            },
            sub_agent: None,
        }
    }
}

/// What holds for the whole run.
#[derive(Serialize)]
struct ScenarioJson<'a> {
    name: &'a str,
    title: &'a str,
    lang: &'static str,
    /// The scenario's budget of model calls; null for a replayed
    /// transcript (its file records none).
    budget: Option<u32>,
    /// How the loop ended.
    end: &'static str,
    /// Whether the task is done, and how we know (apart from `end`).
    task: &'static str,
    steps: usize,
    model_calls: usize,
    tools_offered: Vec<ToolJson<'a>>,
    files: Vec<&'a str>,
    /// Which shape the model calls' contexts are written in.
    context_messages: &'static str,
    /// A replayed transcript: what its file records, and the line types
    /// it holds that are not drawn as steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    recorded: Option<RecordedJson<'a>>,
}

#[derive(Serialize)]
struct RecordedJson<'a> {
    /// The file holds the tool schemas offered (else `tools_offered` is
    /// empty because nothing is known, not because none were offered).
    tools: bool,
    /// Writes are counted from the format's file-changing tools.
    writes: bool,
    unread: Vec<UnreadJson<'a>>,
}

#[derive(Serialize)]
struct UnreadJson<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    count: usize,
    lines: &'a [usize],
}

#[derive(Serialize)]
struct ToolJson<'a> {
    name: &'a str,
    params: &'a [String],
    description: &'a str,
    /// A custom tool's JSON schema, exactly as offered.
    #[serde(skip_serializing_if = "Option::is_none")]
    parameters: Option<&'a serde_json::Value>,
}

impl<'a> ScenarioJson<'a> {
    fn new(trace: &'a Trace, shape: ContextShape) -> Self {
        ScenarioJson {
            name: &trace.scenario,
            title: &trace.title,
            lang: trace.lang.code(),
            budget: trace.recorded.is_none().then_some(trace.budget),
            end: trace.end.code(),
            task: trace.task.code(),
            steps: trace.len(),
            model_calls: trace.model_calls.len(),
            tools_offered: trace
                .tools
                .iter()
                .map(|t| ToolJson {
                    name: &t.name,
                    params: &t.params,
                    description: &t.description,
                    parameters: t.schema.as_ref(),
                })
                .collect(),
            files: initial_files(trace),
            context_messages: shape.code(),
            recorded: trace.recorded.as_ref().map(|r| RecordedJson {
                tools: r.tools,
                writes: r.writes,
                unread: r
                    .unread
                    .iter()
                    .map(|(kind, lines)| UnreadJson {
                        kind,
                        // A key of the document: one, with no place.
                        count: lines.len().max(1),
                        lines,
                    })
                    .collect(),
            }),
        }
    }
}

struct Steps<'a> {
    trace: &'a Trace,
    shape: ContextShape,
    /// Its token counts where made when asked: each message counted once.
    counts: Counts,
}

impl Serialize for Steps<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.trace.len()))?;
        let mut files = FileStates::new(self.trace);
        for index in 0..self.trace.len() {
            let at = (index, &self.counts);
            seq.serialize_element(&StepJson::new(self.trace, self.shape, at, &mut files))?;
        }
        seq.end()
    }
}

/// One step (the JSON says its 1-based number).
#[derive(Serialize)]
struct StepJson<'a> {
    number: usize,
    kind: &'static str,
    from: &'static str,
    to: &'static str,
    title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    narration: Option<&'a str>,
    counters: Counters,
    #[serde(flatten)]
    details: Details<'a>,
    /// On the steps of a reply's calls: the call → result table as it
    /// stands at this step.
    #[serde(skip_serializing_if = "Option::is_none")]
    calls: Option<Vec<CallJson<'a>>>,
    files: Vec<FileJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<&'static str>,
}

#[derive(Serialize)]
struct Counters {
    model_calls: u32,
    /// Only where a request was sent again: then more than `model_calls`.
    #[serde(skip_serializing_if = "Option::is_none")]
    http_requests: Option<u32>,
    tool_runs: u32,
    writes: u32,
    context_size: usize,
}

impl<'a> StepJson<'a> {
    /// Steps are taken in order: `files` carries the file states from one
    /// to the next.
    fn new(
        trace: &'a Trace,
        shape: ContextShape,
        (index, counts): (usize, &Counts),
        files: &mut FileStates<'a>,
    ) -> Self {
        let step = &trace.steps[index];
        let c = step.counters;
        StepJson {
            number: index + 1,
            kind: kind_code(&step.kind),
            // The rejection of a request is the provider's API, not a lane.
            from: match step.source() {
                Source::User => "user",
                Source::Provider => "provider",
                Source::Lane(lane) => lane_code(lane),
            },
            to: lane_code(step.to),
            title: i18n::step_title(trace, index),
            narration: step.narration.as_deref(),
            counters: Counters {
                model_calls: c.model_calls,
                http_requests: (c.http_requests > c.model_calls).then_some(c.http_requests),
                tool_runs: c.tool_runs,
                writes: c.writes,
                context_size: c.context_size,
            },
            details: Details::new(trace, shape, (index, counts), step),
            calls: is_call_step(&step.kind).then(|| {
                reply_calls(trace, step)
                    .iter()
                    .map(|c| CallJson::at(trace, c, index))
                    .collect()
            }),
            files: files.at(index),
            end: step.end.map(|e| e.code()),
        }
    }
}

/// The fields that belong to one kind of step, written inline.
#[derive(Serialize)]
#[serde(untagged)]
enum Details<'a> {
    TaskArrives {
        task: &'a str,
    },
    UserTurn {
        text: &'a str,
    },
    ModelCall {
        model_call: u32,
        context: Context<'a>,
    },
    Proposes {
        model_call: u32,
        text: &'a str,
        proposed: Vec<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        tokens_estimate: Option<usize>,
    },
    Validates {
        call: &'a str,
        verdict: VerdictJson,
    },
    Executes {
        executing: Vec<&'a str>,
    },
    ResultArrives {
        call: &'a str,
        #[serde(flatten)]
        outcome: Option<Arrival<'a>>,
    },
    Answers {
        model_call: u32,
        text: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        tokens_estimate: Option<usize>,
    },
    Verifies {
        tool: &'a str,
    },
    Verified {
        passed: bool,
        output: String,
    },
    BudgetExhausted {
        budget: u32,
        /// The last reply's calls the host did not run, and named to the user.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        not_run: Vec<&'a str>,
    },
    Crashes {
        call: &'a str,
    },
    Throttled {
        model_call: u32,
        status: u16,
        retry_after: u32,
        body: serde_json::Value,
    },
    Resends {
        model_call: u32,
    },
    /// The host and its MCP server at start-up (`tools/list` asked or
    /// answered): the JSON-RPC messages, as `wire::mcp` writes them.
    Mcp {
        mcp_server: &'a str,
        jsonrpc: Vec<serde_json::Value>,
    },
    Interrupted {
        interrupted: Vec<&'a str>,
    },
    Replays {
        call: &'a str,
        op_id: &'a str,
        conflict: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        result: Option<ResultJson<'a>>,
    },
    Rejected {
        model_call: u32,
        unanswered: Vec<&'a str>,
        error: &'a str,
    },
    /// The reply to `model_call` was cut before its end, as `error` says.
    Cut {
        model_call: u32,
        error: &'a str,
    },
    /// The user's answer to the host (policy `ask`): `approved`, `denied`
    /// with the `reason`, or `edited` with the arguments the user gave.
    UserDecides {
        call: &'a str,
        decision: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        edited_args: Option<serde_json::Map<String, serde_json::Value>>,
    },
    Compacts {
        model_call: u32,
        compaction: CompactionJson<'a>,
    },
    /// A piece of a streamed reply (`wire::stream`): the call its block
    /// is (none for text), the delta it adds, or why the model stopped.
    Streams {
        model_call: u32,
        piece: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        call: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        delta: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        stop: Option<&'static str>,
    },
    /// A step whose data is missing from the trace (never in a sound one).
    Nothing {},
}

/// What the host did with a result that came back.
#[derive(Serialize)]
struct Arrival<'a> {
    paired_to: Option<&'a str>,
    appended: bool,
    /// Only when true: the host never appended the call either.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    call_dropped: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<ResultJson<'a>>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum VerdictJson {
    Approved(&'static str),
    Refused { refused: String },
}

impl VerdictJson {
    /// `"ask_user"`: valid, and the tool's policy is to ask the user.
    const ASK_USER: VerdictJson = VerdictJson::Approved("ask_user");

    fn of(trace: &Trace, call: &CallId, verdict: &Verdict) -> Self {
        match verdict {
            Verdict::Approved => VerdictJson::Approved("approved"),
            Verdict::AwaitsApproval => VerdictJson::ASK_USER,
            Verdict::Refused(r) => {
                let tool = trace.call(call).map_or("", |c| c.tool.as_str());
                VerdictJson::Refused {
                    refused: i18n::refusal_message(r, tool, trace.lang),
                }
            }
        }
    }
}

impl<'a> Details<'a> {
    fn new(
        trace: &'a Trace,
        shape: ContextShape,
        (index, counts): (usize, &Counts),
        step: &'a Step,
    ) -> Self {
        match &step.kind {
            // The user's words this step appended: the last user message
            // at it (a harness's own context, Codex's
            // `<environment_context>`, comes before them), not the task
            // again at a later turn.
            StepKind::TaskArrives | StepKind::UserTurn => Details::user_words(trace, index, step),
            StepKind::ModelCall { number } => match step.model_call {
                Some(mc) => Details::ModelCall {
                    model_call: *number,
                    context: Context::new(trace, counts, shape, mc),
                },
                None => Details::Nothing {},
            },
            StepKind::Proposes { number, calls } => Details::Proposes {
                model_call: *number,
                text: reply_text(trace, index),
                proposed: ids(calls),
                tokens_estimate: step
                    .model_call
                    .map(|i| crate::wire::output_tokens(trace, counts, i)),
            },
            StepKind::Validates { call, verdict } => Details::Validates {
                call: &call.0,
                verdict: VerdictJson::of(trace, call, verdict),
            },
            StepKind::Executes { calls } => Details::Executes {
                executing: ids(calls),
            },
            StepKind::ResultArrives { call } => Details::ResultArrives {
                call: &call.0,
                outcome: trace.call_at(call, index).map(|c| Arrival {
                    paired_to: c.paired_to.as_ref().map(|p| p.0.as_ref()),
                    appended: trace.appended_at(c).is_some_and(|at| at <= index),
                    call_dropped: c.call_dropped,
                    result: ResultJson::of(c),
                }),
            },
            StepKind::Answers { number } => Details::Answers {
                model_call: *number,
                text: reply_text(trace, index),
                tokens_estimate: step
                    .model_call
                    .map(|i| crate::wire::output_tokens(trace, counts, i)),
            },
            StepKind::Verifies { tool } => Details::Verifies { tool },
            StepKind::Verified { passed, output } => Details::Verified {
                passed: *passed,
                output: i18n::said(output, trace.lang),
            },
            StepKind::BudgetExhausted { budget, not_run } => Details::BudgetExhausted {
                budget: *budget,
                not_run: ids(not_run),
            },
            StepKind::Crashes { call } => Details::Crashes { call: &call.0 },
            StepKind::Throttled {
                number,
                error,
                retry_after,
            } => {
                let answer = crate::wire::turned_away(trace.provider, *error, *retry_after);
                Details::Throttled {
                    model_call: *number,
                    status: answer.status,
                    retry_after: *retry_after,
                    body: answer.body,
                }
            }
            StepKind::Resends { number } => Details::Resends {
                model_call: *number,
            },
            StepKind::McpLists | StepKind::McpListed => Details::mcp(trace, index),
            StepKind::Interrupted { calls } => Details::Interrupted {
                interrupted: ids(calls),
            },
            StepKind::Replays { call, op, conflict } => Details::Replays {
                call: &call.0,
                op_id: op,
                conflict: *conflict,
                result: trace.call(call).and_then(ResultJson::of),
            },
            StepKind::Rejected {
                number,
                unanswered,
                error,
            } => Details::Rejected {
                model_call: *number,
                unanswered: ids(unanswered),
                error,
            },
            StepKind::Cut { number, error } => Details::Cut {
                model_call: *number,
                error,
            },
            StepKind::UserDecides { call, decision } => {
                Details::user_decides(trace, call, decision)
            }
            StepKind::Compacts { number, index } => Details::Compacts {
                model_call: *number,
                compaction: CompactionJson::new(trace, counts, *index),
            },
            StepKind::Streams { number, piece } => Details::streams(trace, index, *number, *piece),
        }
    }

    fn streams(trace: &'a Trace, index: usize, number: u32, piece: usize) -> Self {
        use crate::wire::stream::{Block, Piece, Stop};
        let (mut call, mut delta, mut stop) = (None, None, None);
        match crate::wire::stream::piece_at(trace, index).map(|(_, p)| p) {
            Some(Piece::Opens { block, delta: d } | Piece::Closes { block, delta: d }) => {
                if let Block::Call { call: c, .. } = block {
                    call = Some(&*c.id.0);
                }
                delta = Some(d);
            }
            Some(Piece::Ends { stop: s }) => {
                stop = Some(match s {
                    Stop::ToolUse => "tool_use",
                    Stop::EndTurn => "end_turn",
                    Stop::Limit => "limit",
                });
            }
            None => {}
        }
        Details::Streams {
            model_call: number,
            piece,
            call,
            delta,
            stop,
        }
    }

    /// An MCP server's start-up step: the server and the JSON-RPC
    /// messages of the step (`wire::mcp`).
    fn mcp(trace: &'a Trace, index: usize) -> Self {
        Details::Mcp {
            mcp_server: trace.mcp.as_ref().map_or("", |m| m.server.as_str()),
            jsonrpc: (crate::wire::mcp::messages_at(trace, index).into_iter())
                .map(|(_, m)| m)
                .collect(),
        }
    }

    /// The user's words the step appended: the last user message at it
    /// (a harness's own context, Codex's `<environment_context>`, comes
    /// before them), not the task again at a later turn.
    fn user_words(trace: &'a Trace, index: usize, step: &'a Step) -> Self {
        let start = trace.messages.partition_point(|m| m.step < index);
        let words = trace
            .messages
            .slice(start..)
            .iter()
            .take_while(|m| m.step == index)
            .filter(|m| m.role == Role::User)
            .last()
            .or(trace.messages.slice(..).first().filter(|_| index == 0));
        match (words, &step.kind) {
            (Some(m), StepKind::TaskArrives) => Details::TaskArrives { task: &m.text },
            (Some(m), _) => Details::UserTurn { text: &m.text },
            (None, _) => Details::Nothing {},
        }
    }

    /// The user's answer when the host asked about `call`.
    fn user_decides(trace: &'a Trace, call: &'a CallId, decision: &'a Decision) -> Self {
        Details::UserDecides {
            call: &call.0,
            decision: match decision {
                Decision::Approved => "approved",
                Decision::Denied(_) => "denied",
                Decision::Edited(_) => "edited",
            },
            reason: match decision {
                Decision::Denied(reason) => Some(reason.as_ref().map_or("", |r| r.get(trace.lang))),
                _ => None,
            },
            edited_args: match decision {
                Decision::Edited(args) => Some(
                    args.iter()
                        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                        .collect(),
                ),
                _ => None,
            },
        }
    }
}

/// The host compacting its messages before a model call. Positions are
/// 0-based places in the context as last held (before) and as compacted
/// (the `inserted` messages, which the host wrote).
#[derive(Serialize)]
struct CompactionJson<'a> {
    policy: &'static str,
    window_tokens: usize,
    tokens_before: usize,
    tokens_after: usize,
    messages_before: usize,
    messages_after: usize,
    /// Places (in the context before) of the messages no longer sent.
    removed: Vec<usize>,
    /// The calls whose results are no longer sent (each stays paired).
    calls: Vec<&'a str>,
    /// What the host wrote in their place, with its place in the new list.
    inserted: Vec<MessageJson<'a>>,
}

impl<'a> CompactionJson<'a> {
    fn new(trace: &'a Trace, counts: &Counts, index: usize) -> Self {
        let c = &trace.compactions[index];
        let before = trace.held_from(c.step.saturating_sub(1));
        let before = if index == 0 { 0 } else { before };
        let copy = trace.messages.slice(c.start..c.start + c.messages_after);
        let (tokens_before, tokens_after) = crate::wire::compaction_tokens(trace, counts, index);
        CompactionJson {
            policy: c.policy.code(),
            window_tokens: c.window,
            tokens_before,
            tokens_after,
            messages_before: c.messages_before,
            messages_after: c.messages_after,
            removed: c.removed.iter().map(|i| i - before).collect(),
            calls: c.calls.iter().map(|id| id.0.as_ref()).collect(),
            inserted: copy
                .iter()
                .enumerate()
                // Written at this compaction, not carried from an earlier one.
                .filter(|(_, m)| m.host_insert.is_some() && m.carried.is_none())
                .map(|(k, m)| MessageJson::new(trace, m, None, Some(k)))
                .collect(),
        }
    }
}

/// What a model call sent: its size, the tools offered, and the messages in
/// the shape asked for.
#[derive(Serialize)]
struct Context<'a> {
    /// The API the request goes to, whose shape `export --format requests` writes.
    provider: &'static str,
    /// Bytes of the request body as sent.
    size: usize,
    /// Its tokens in `o200k_base` (for Anthropic an estimate: its
    /// tokenizer is not public).
    tokens: usize,
    messages_count: usize,
    new_since_previous_call: usize,
    tools: Vec<String>,
    /// Full shape: every message sent, each marked `new` or not.
    #[serde(skip_serializing_if = "Option::is_none")]
    messages: Option<Vec<MessageJson<'a>>>,
    /// Linear shape: only the messages no earlier call sent; after a
    /// compaction (`compacted_at_step`), the whole compacted context again.
    #[serde(skip_serializing_if = "Option::is_none")]
    new_messages: Option<Vec<MessageJson<'a>>>,
    /// The step at which the host compacted the context since the call
    /// before: the context starts over (`new_messages` from index 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    compacted_at_step: Option<usize>,
}

impl<'a> Context<'a> {
    fn new(trace: &'a Trace, counts: &Counts, shape: ContextShape, mc_index: usize) -> Self {
        let mc = &trace.model_calls[mc_index];
        let start = mc.context_start;
        let sent = trace.context(mc);
        let new_count = (start..mc.context_len)
            .filter(|&i| trace.is_new(mc_index, i))
            .count();
        // Compacted since the call before: the list starts over.
        let compacted = mc_index > 0 && trace.model_calls[mc_index - 1].context_start != start;
        let compacted_at = trace
            .compactions
            .iter()
            .find(|c| compacted && c.start == start)
            .map(|c| c.step + 1);
        let (messages, new_messages) = match shape {
            ContextShape::Full => {
                let all = sent.iter().enumerate();
                let messages = all.map(|(i, m)| {
                    MessageJson::new(trace, m, Some(trace.is_new(mc_index, start + i)), None)
                });
                (Some(messages.collect()), None)
            }
            ContextShape::Linear => {
                let skip = if compacted {
                    0
                } else {
                    trace.previous_context_len(mc_index) - start
                };
                let new = sent.iter().enumerate().skip(skip);
                let messages = new.map(|(i, m)| MessageJson::new(trace, m, None, Some(i)));
                (None, Some(messages.collect()))
            }
        };
        Context {
            provider: trace.provider.code(),
            size: mc.context_size,
            tokens: crate::wire::context_tokens(trace, counts, mc_index),
            messages_count: sent.len(),
            new_since_previous_call: new_count,
            tools: trace.tools.iter().map(|t| t.signature()).collect(),
            messages,
            new_messages,
            compacted_at_step: compacted_at,
        }
    }
}

/// One message as the model was sent it.
#[derive(Serialize)]
struct MessageJson<'a> {
    /// Linear shape: its place in the conversation (0-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
    role: &'static str,
    text: &'a str,
    /// Assistant messages: the calls it proposed.
    #[serde(skip_serializing_if = "Option::is_none")]
    calls: Option<Vec<MessageCall<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    call_id: Option<&'a str>,
    is_error: bool,
    size: usize,
    /// Full shape: not sent on the previous model call.
    #[serde(skip_serializing_if = "Option::is_none")]
    new: Option<bool>,
    /// Written by the host when it compacted: `placeholder` or `summary`.
    #[serde(skip_serializing_if = "Option::is_none")]
    by_host: Option<&'static str>,
}

#[derive(Serialize)]
struct MessageCall<'a> {
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Args<'a>>,
}

impl<'a> MessageJson<'a> {
    fn new(trace: &'a Trace, m: &'a Message, new: Option<bool>, index: Option<usize>) -> Self {
        let calls = (m.role == Role::Assistant).then(|| {
            m.calls
                .iter()
                .map(|id| {
                    let call = trace.call(id);
                    MessageCall {
                        id: &id.0,
                        tool: call.map(|c| c.tool.as_str()),
                        args: call.map(|c| Args(&c.args, c.raw_args.as_deref())),
                    }
                })
                .collect()
        });
        MessageJson {
            index,
            role: role_code(m.role),
            text: &m.text,
            calls,
            call_id: m.call_id.as_ref().map(|id| id.0.as_ref()),
            is_error: m.is_error,
            size: m.size,
            new,
            by_host: m.host_insert.map(<&'static str>::from),
        }
    }
}

/// A row of the call → result table, as it stands at a step.
#[derive(Serialize)]
struct CallJson<'a> {
    id: &'a str,
    tool: &'a str,
    args: Args<'a>,
    status: &'static str,
    #[serde(flatten)]
    finished: Option<Finished<'a>>,
}

/// What a finished call's row adds.
#[derive(Serialize)]
struct Finished<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<ResultJson<'a>>,
    paired_to: Option<&'a str>,
    appended: bool,
    /// Only when true: the host never appended the call either.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    call_dropped: bool,
}

impl<'a> CallJson<'a> {
    fn at(trace: &Trace, call: &'a ToolCall, index: usize) -> Self {
        let status = trace.status_at(call, index).unwrap_or(CallStatus::Proposed);
        CallJson {
            id: &call.id.0,
            tool: &call.tool,
            args: Args(&call.args, call.raw_args.as_deref()),
            status: status.code(),
            finished: call.finished.is_some_and(|s| s <= index).then(|| Finished {
                result: ResultJson::of(call),
                paired_to: call.paired_to.as_ref().map(|p| p.0.as_ref()),
                // A result held to go in call order is appended later.
                appended: trace.appended_at(call).is_some_and(|at| at <= index),
                call_dropped: call.call_dropped,
            }),
        }
    }
}

#[derive(Serialize)]
struct ResultJson<'a> {
    text: &'a str,
    is_error: bool,
    replayed: bool,
    /// What answered the call (`ToolCall::outcome`, the one rule the
    /// screen uses too): ok, error, refused, replayed, op_conflict.
    outcome: &'static str,
    /// How it was attached (`ToolCall::pairing`): by_id, wrong_id, dropped.
    pairing: &'static str,
}

impl<'a> ResultJson<'a> {
    fn of(call: &'a ToolCall) -> Option<Self> {
        let r = call.result.as_ref()?;
        Some(ResultJson {
            text: &r.text,
            is_error: r.is_error,
            replayed: r.replayed,
            outcome: call.outcome().as_ref().map_or("", Outcome::code),
            pairing: call.pairing().as_ref().map_or("", Pairing::code),
        })
    }
}

/// A call's arguments as an object, in the order the tool declares them;
/// for a replayed transcript, exactly as the file wrote them.
struct Args<'a>(&'a [(String, String)], Option<&'a str>);

impl Serialize for Args<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(raw) = self.1
            && let Ok(value) = serde_json::from_str::<serde_json::Value>(raw)
        {
            return value.serialize(serializer);
        }
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// The assistant message appended at this step (the model's reply).
fn reply_text(trace: &Trace, index: usize) -> &str {
    trace
        .messages
        .iter()
        .find(|m| m.step == index && m.role == Role::Assistant)
        .map_or("", |m| &*m.text)
}

fn ids(calls: &[CallId]) -> Vec<&str> {
    calls.iter().map(|c| c.0.as_ref()).collect()
}

/// The calls of the reply the step belongs to (calls are stored in the
/// order they were proposed, so one model call's calls are contiguous).
fn reply_calls<'t>(trace: &'t Trace, step: &Step) -> crate::trace::Slice<'t, ToolCall> {
    let Some(number) = step.model_call.map(|i| trace.model_calls[i].number) else {
        return trace.calls.slice(0..0);
    };
    let start = trace.calls.partition_point(|c| c.model_call < number);
    let end = trace.calls.partition_point(|c| c.model_call <= number);
    trace.calls.slice(start..end)
}

fn is_call_step(kind: &StepKind) -> bool {
    matches!(
        kind,
        StepKind::Proposes { .. }
            | StepKind::Validates { .. }
            | StepKind::Executes { .. }
            | StepKind::ResultArrives { .. }
            | StepKind::Replays { .. }
            | StepKind::Crashes { .. }
            | StepKind::UserDecides { .. }
            | StepKind::Interrupted { .. }
    )
}

/// Files that existed before the run: a file created by a tool starts at
/// version 1, so its first event is a write of version 1.
fn initial_files(trace: &Trace) -> Vec<&str> {
    let created = created_at(trace);
    trace
        .files
        .iter()
        .filter(|path| !created.contains_key(path.as_str()))
        .map(String::as_str)
        .collect()
}

fn created_at(trace: &Trace) -> HashMap<&str, usize> {
    // Looked up once per run: `Trace::created_at` scans the events.
    trace
        .files
        .iter()
        .filter_map(|path| trace.created_at(path).map(|step| (path.as_str(), step)))
        .collect()
}

/// One file as it stands after a step.
#[derive(Serialize)]
struct FileJson<'a> {
    path: &'a str,
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<u32>,
}

/// What has happened to each file, advanced step by step through the
/// trace's file events (the same rule as `Trace::file_state_at`, without
/// rescanning all events at every step).
struct FileStates<'t> {
    trace: &'t Trace,
    created: HashMap<&'t str, usize>,
    state: HashMap<&'t str, &'t FileChange>,
    next_event: usize,
}

impl<'t> FileStates<'t> {
    fn new(trace: &'t Trace) -> Self {
        FileStates {
            trace,
            created: created_at(trace),
            state: HashMap::new(),
            next_event: 0,
        }
    }

    /// Every file that exists after step `index`, with its state.
    fn at(&mut self, index: usize) -> Vec<FileJson<'t>> {
        let events = &self.trace.file_events;
        while let Some(event) = events.get(self.next_event).filter(|e| e.step <= index) {
            let path = event.path.as_str();
            let before = self.state.get(path).copied();
            self.state
                .insert(path, FileChange::then(before, &event.change));
            self.next_event += 1;
        }
        self.trace
            .files
            .iter()
            .filter(|path| self.created.get(path.as_str()).is_none_or(|s| *s <= index))
            .map(|path| {
                let (state, version) = match self.state.get(path.as_str()) {
                    None => ("untouched", None),
                    Some(FileChange::Read) => ("read", None),
                    Some(FileChange::Written { version }) => ("written", Some(*version)),
                };
                FileJson {
                    path,
                    state,
                    version,
                }
            })
            .collect()
    }
}

/// The names in the trace JSON: the variants' names in snake_case, derived
/// by `strum` on the enums themselves.
fn kind_code(kind: &StepKind) -> &'static str {
    kind.into()
}

fn lane_code(lane: Lane) -> &'static str {
    lane.into()
}

fn role_code(role: Role) -> &'static str {
    role.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{self, CATALOG};
    use crate::scenario::Lang;

    #[test]
    fn file_states_agree_with_the_trace_at_every_step() {
        for (name, _) in CATALOG {
            let loaded = load::load(name).unwrap();
            for lang in Lang::ALL {
                let trace = loaded.trace(lang);
                let value = to_value(trace, ContextShape::Full);
                for (i, step) in value["steps"].as_array().unwrap().iter().enumerate() {
                    for file in step["files"].as_array().unwrap() {
                        let path = file["path"].as_str().unwrap();
                        let expected = match trace.file_state_at(path, i) {
                            None => "untouched",
                            Some(FileChange::Read) => "read",
                            Some(FileChange::Written { .. }) => "written",
                        };
                        assert_eq!(file["state"], expected, "{name} step {} {path}", i + 1);
                    }
                }
            }
        }
    }

    #[test]
    fn call_steps_show_the_calls_of_their_own_reply() {
        let loaded = load::load("wrong-path-first").unwrap();
        let value = to_value(loaded.trace(Lang::En), ContextShape::Linear);
        let steps = value["steps"].as_array().unwrap();
        // Step 13 proposes call_3; calls of earlier replies are not repeated.
        let ids: Vec<&str> = steps[12]["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["call_3"]);
        assert_eq!(steps[5]["calls"][0]["status"], "error");
        assert!(
            steps[6].get("calls").is_none(),
            "a model call is not a call step"
        );
    }

    #[test]
    fn streamed_and_built_json_are_the_same() {
        let loaded = load::load("patch-and-test").unwrap();
        let trace = loaded.trace(Lang::Zh);
        for shape in [ContextShape::Linear, ContextShape::Full] {
            let mut streamed = Vec::new();
            write(trace, shape, &mut streamed).unwrap();
            let parsed: serde_json::Value = serde_json::from_slice(&streamed).unwrap();
            assert_eq!(parsed, to_value(trace, shape));
            assert!(streamed.ends_with(b"}\n"));
        }
    }

    #[test]
    fn the_new_messages_of_calls_1_to_k_are_the_context_of_call_k() {
        for (name, _) in CATALOG {
            let loaded = load::load(name).unwrap();
            for lang in Lang::ALL {
                let trace = loaded.trace(lang);
                let linear = to_value(trace, ContextShape::Linear);
                let full = to_value(trace, ContextShape::Full);
                let mut rebuilt: Vec<serde_json::Value> = Vec::new();
                let steps = linear["steps"].as_array().unwrap().iter();
                for (l, f) in steps.zip(full["steps"].as_array().unwrap()) {
                    if l["kind"] != "model_call" {
                        assert_eq!(l, f, "{name}: only contexts differ");
                        continue;
                    }
                    // After the host compacted, the context starts over.
                    if l["context"].get("compacted_at_step").is_some() {
                        rebuilt.clear();
                    }
                    for m in l["context"]["new_messages"].as_array().unwrap() {
                        let mut m = m.as_object().unwrap().clone();
                        let index = m.remove("index").unwrap();
                        assert_eq!(index, rebuilt.len(), "{name}: indices in order");
                        rebuilt.push(serde_json::Value::Object(m));
                    }
                    let sent: Vec<serde_json::Value> = f["context"]["messages"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| {
                            let mut m = m.as_object().unwrap().clone();
                            m.remove("new");
                            serde_json::Value::Object(m)
                        })
                        .collect();
                    assert_eq!(rebuilt, sent, "{name} {lang:?} step {}", l["number"]);
                    assert_eq!(l["context"]["messages_count"], sent.len());
                }
            }
        }
    }
}
