//! The engine's trace as JSON, for `agent-loop-sim trace`: what a teacher's
//! script or a test can read without drawing anything.
//!
//! Field order is part of the interface (serde_json keeps insertion order).
//! Steps are serialized one at a time, so a long run streams out instead of
//! being built in memory first.

use std::collections::HashMap;
use std::io::Write;

use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::{Map, Value, json};

use crate::i18n;
use crate::trace::{
    CallStatus, FileChange, Lane, Message, Role, Step, StepKind, ToolCall, Trace, Verdict,
};

/// Write the whole trace, pretty-printed, followed by a newline.
pub fn write(trace: &Trace, mut out: impl Write) -> std::io::Result<()> {
    let document = Document {
        scenario: scenario(trace),
        summary: crate::transcript::summary(trace),
        steps: Steps(trace),
    };
    serde_json::to_writer_pretty(&mut out, &document)?;
    writeln!(out)?;
    out.flush()
}

/// The whole trace as one JSON value (for tests and small traces).
pub fn to_value(trace: &Trace) -> Value {
    let mut files = FileStates::new(trace);
    let steps: Vec<Value> = (0..trace.len())
        .map(|i| step(trace, i, &mut files))
        .collect();
    json!({ "scenario": scenario(trace), "summary": crate::transcript::summary(trace), "steps": steps })
}

#[derive(serde::Serialize)]
struct Document<'a> {
    scenario: Value,
    summary: crate::transcript::Summary,
    steps: Steps<'a>,
}

struct Steps<'a>(&'a Trace);

impl Serialize for Steps<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        let mut files = FileStates::new(self.0);
        for index in 0..self.0.len() {
            seq.serialize_element(&step(self.0, index, &mut files))?;
        }
        seq.end()
    }
}

/// What holds for the whole run.
pub fn scenario(trace: &Trace) -> Value {
    let tools: Vec<Value> = trace
        .tools
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "params": t.params,
                "description": t.description,
            })
        })
        .collect();
    json!({
        "name": trace.scenario,
        "title": trace.title,
        "lang": trace.lang.code(),
        "budget": trace.budget,
        "end": trace.end.code(),
        "task": trace.task.code(),
        "steps": trace.len(),
        "model_calls": trace.model_calls.len(),
        "tools_offered": tools,
        "files": initial_files(trace),
    })
}

/// One step (0-based `index`; the JSON says its 1-based number). Steps are
/// taken in order: `files` carries the file states from one to the next.
fn step(trace: &Trace, index: usize, files: &mut FileStates) -> Value {
    let step = &trace.steps[index];
    let mut out = Map::new();
    out.insert("number".into(), json!(index + 1));
    out.insert("kind".into(), json!(kind_code(&step.kind)));
    out.insert("from".into(), json!(step.from.map_or("user", lane_code)));
    out.insert("to".into(), json!(lane_code(step.to)));
    out.insert("title".into(), json!(i18n::step_title(trace, index)));
    if let Some(narration) = &step.narration {
        out.insert("narration".into(), json!(narration));
    }
    let c = step.counters;
    out.insert(
        "counters".into(),
        json!({
            "model_calls": c.model_calls,
            "tool_runs": c.tool_runs,
            "writes": c.writes,
            "context_size": c.context_size,
        }),
    );
    details(trace, index, step, &mut out);
    if is_call_step(&step.kind) {
        let calls: Vec<Value> = reply_calls(trace, step)
            .iter()
            .map(|c| call_at(c, index))
            .collect();
        out.insert("calls".into(), Value::Array(calls));
    }
    out.insert("files".into(), files.at(index));
    if let Some(end) = step.end {
        out.insert("end".into(), json!(end.code()));
    }
    Value::Object(out)
}

/// The fields that belong to one kind of step.
fn details(trace: &Trace, index: usize, step: &Step, out: &mut Map<String, Value>) {
    match &step.kind {
        StepKind::TaskArrives => {
            if let Some(task) = trace.messages.first() {
                out.insert("task".into(), json!(task.text));
            }
        }
        StepKind::ModelCall { number } => {
            let Some(mc) = step.model_call.map(|i| (i, &trace.model_calls[i])) else {
                return;
            };
            let (mc_index, mc) = mc;
            let new_from = trace.previous_context_len(mc_index);
            let messages: Vec<Value> = trace
                .context(mc)
                .iter()
                .enumerate()
                .map(|(i, m)| message(trace, m, i >= new_from))
                .collect();
            out.insert("model_call".into(), json!(number));
            out.insert(
                "context".into(),
                json!({
                    "size": mc.context_size,
                    "messages_count": mc.context_len,
                    "new_since_previous_call": mc.context_len - new_from,
                    "tools": trace.tools.iter().map(|t| t.signature()).collect::<Vec<_>>(),
                    "messages": messages,
                }),
            );
        }
        StepKind::Proposes { number, calls } => {
            out.insert("model_call".into(), json!(number));
            out.insert("text".into(), json!(reply_text(trace, index)));
            out.insert("proposed".into(), json!(ids(calls)));
            if let Some(mc) = step.model_call.map(|i| &trace.model_calls[i]) {
                out.insert("tokens_estimate".into(), json!(mc.tokens));
            }
        }
        StepKind::Validates { call, verdict } => {
            out.insert("call".into(), json!(call.0));
            let verdict = match verdict {
                Verdict::Approved => json!("approved"),
                Verdict::Refused(r) => {
                    let tool = trace.call(call).map_or("", |c| c.tool.as_str());
                    json!({ "refused": crate::i18n::refusal_message(r, tool, trace.lang) })
                }
            };
            out.insert("verdict".into(), verdict);
        }
        StepKind::Executes { calls } => {
            out.insert("executing".into(), json!(ids(calls)));
        }
        StepKind::ResultArrives { call } => {
            out.insert("call".into(), json!(call.0));
            if let Some(c) = trace.call(call) {
                out.insert(
                    "paired_to".into(),
                    json!(c.paired_to.as_ref().map(|p| p.0.as_str())),
                );
                out.insert("appended".into(), json!(c.appended));
                if let Some(r) = &c.result {
                    out.insert("result".into(), result(&r.text, r.is_error, r.replayed));
                }
            }
        }
        StepKind::Answers { number } => {
            out.insert("model_call".into(), json!(number));
            out.insert("text".into(), json!(reply_text(trace, index)));
            if let Some(mc) = step.model_call.map(|i| &trace.model_calls[i]) {
                out.insert("tokens_estimate".into(), json!(mc.tokens));
            }
        }
        StepKind::Verifies { tool } => {
            out.insert("tool".into(), json!(tool));
        }
        StepKind::Replays { call, op, conflict } => {
            out.insert("call".into(), json!(call.0));
            out.insert("op_id".into(), json!(op));
            out.insert("conflict".into(), json!(conflict));
            if let Some(r) = trace.call(call).and_then(|c| c.result.as_ref()) {
                out.insert("result".into(), result(&r.text, r.is_error, r.replayed));
            }
        }
        StepKind::Rejected {
            number,
            unanswered,
            error,
        } => {
            out.insert("model_call".into(), json!(number));
            out.insert("unanswered".into(), json!(ids(unanswered)));
            out.insert("error".into(), json!(error));
        }
        StepKind::Verified { passed, output } => {
            out.insert("passed".into(), json!(passed));
            out.insert("output".into(), json!(output));
        }
        StepKind::BudgetExhausted { budget } => {
            out.insert("budget".into(), json!(budget));
        }
        StepKind::Crashes { call } => {
            out.insert("call".into(), json!(call.0));
        }
    }
}

/// The assistant message appended at this step (the model's reply).
fn reply_text(trace: &Trace, index: usize) -> &str {
    trace
        .messages
        .iter()
        .find(|m| m.step == index && m.role == Role::Assistant)
        .map_or("", |m| m.text.as_str())
}

fn message(trace: &Trace, m: &Message, new: bool) -> Value {
    let mut out = Map::new();
    out.insert("role".into(), json!(role_code(m.role)));
    out.insert("text".into(), json!(m.text));
    if m.role == Role::Assistant {
        let calls: Vec<Value> = m
            .calls
            .iter()
            .map(|id| match trace.call(id) {
                Some(c) => json!({ "id": id.0, "tool": c.tool, "args": args(c) }),
                None => json!({ "id": id.0 }),
            })
            .collect();
        out.insert("calls".into(), Value::Array(calls));
    }
    if let Some(id) = &m.call_id {
        out.insert("call_id".into(), json!(id.0));
    }
    out.insert("is_error".into(), json!(m.is_error));
    out.insert("size".into(), json!(m.size));
    out.insert("new".into(), json!(new));
    Value::Object(out)
}

/// A row of the call → result table, as it stands at `index`.
fn call_at(call: &ToolCall, index: usize) -> Value {
    let status = call.status_at(index).unwrap_or(CallStatus::Proposed);
    let mut out = Map::new();
    out.insert("id".into(), json!(call.id.0));
    out.insert("tool".into(), json!(call.tool));
    out.insert("args".into(), args(call));
    out.insert("status".into(), json!(status.code()));
    if call.finished.is_some_and(|s| s <= index) {
        if let Some(r) = &call.result {
            out.insert("result".into(), result(&r.text, r.is_error, r.replayed));
        }
        out.insert(
            "paired_to".into(),
            json!(call.paired_to.as_ref().map(|p| p.0.as_str())),
        );
        out.insert("appended".into(), json!(call.appended));
    }
    Value::Object(out)
}

fn result(text: &str, is_error: bool, replayed: bool) -> Value {
    json!({ "text": text, "is_error": is_error, "replayed": replayed })
}

fn args(call: &ToolCall) -> Value {
    let map: Map<String, Value> = call
        .args
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    Value::Object(map)
}

fn ids(calls: &[crate::trace::CallId]) -> Vec<&str> {
    calls.iter().map(|c| c.0.as_str()).collect()
}

/// The calls of the reply the step belongs to (calls are stored in the
/// order they were proposed, so one model call's calls are contiguous).
fn reply_calls<'t>(trace: &'t Trace, step: &Step) -> &'t [ToolCall] {
    let Some(number) = step.model_call.map(|i| trace.model_calls[i].number) else {
        return &[];
    };
    let start = trace.calls.partition_point(|c| c.model_call < number);
    let end = trace.calls.partition_point(|c| c.model_call <= number);
    &trace.calls[start..end]
}

fn is_call_step(kind: &StepKind) -> bool {
    matches!(
        kind,
        StepKind::Proposes { .. }
            | StepKind::Validates { .. }
            | StepKind::Executes { .. }
            | StepKind::ResultArrives { .. }
            | StepKind::Crashes { .. }
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
    fn at(&mut self, index: usize) -> Value {
        let events = &self.trace.file_events;
        while let Some(event) = events.get(self.next_event).filter(|e| e.step <= index) {
            let path = event.path.as_str();
            let before = self.state.get(path).copied();
            self.state
                .insert(path, FileChange::then(before, &event.change));
            self.next_event += 1;
        }
        let files: Vec<Value> = self
            .trace
            .files
            .iter()
            .filter(|path| self.created.get(path.as_str()).is_none_or(|s| *s <= index))
            .map(|path| {
                let mut out = Map::new();
                out.insert("path".into(), json!(path));
                match self.state.get(path.as_str()) {
                    None => {
                        out.insert("state".into(), json!("untouched"));
                    }
                    Some(FileChange::Read) => {
                        out.insert("state".into(), json!("read"));
                    }
                    Some(FileChange::Written { version }) => {
                        out.insert("state".into(), json!("written"));
                        out.insert("version".into(), json!(version));
                    }
                }
                Value::Object(out)
            })
            .collect();
        Value::Array(files)
    }
}

fn kind_code(kind: &StepKind) -> &'static str {
    match kind {
        StepKind::TaskArrives => "task_arrives",
        StepKind::ModelCall { .. } => "model_call",
        StepKind::Proposes { .. } => "proposes",
        StepKind::Validates { .. } => "validates",
        StepKind::Executes { .. } => "executes",
        StepKind::ResultArrives { .. } => "result_arrives",
        StepKind::Answers { .. } => "answers",
        StepKind::Verifies { .. } => "verifies",
        StepKind::Verified { .. } => "verified",
        StepKind::BudgetExhausted { .. } => "budget_exhausted",
        StepKind::Crashes { .. } => "crashes",
        StepKind::Replays { .. } => "replays",
        StepKind::Rejected { .. } => "rejected",
    }
}

fn lane_code(lane: Lane) -> &'static str {
    match lane {
        Lane::Model => "model",
        Lane::Host => "host",
        Lane::Tool => "tool",
    }
}

fn role_code(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    }
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
                let value = to_value(trace);
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
        let value = to_value(loaded.trace(Lang::En));
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
        let mut streamed = Vec::new();
        write(trace, &mut streamed).unwrap();
        let parsed: Value = serde_json::from_slice(&streamed).unwrap();
        assert_eq!(parsed, to_value(trace));
        assert!(streamed.ends_with(b"}\n"));
    }
}
