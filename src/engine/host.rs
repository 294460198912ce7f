//! The host's side of a call: the checks it makes before anything runs,
//! what it keeps for an operation id, and how it runs a tool for a call
//! and records what the tool did to the workspace.

use crate::scenario::ToolDef;
use crate::trace::{FileChange, FileEvent, Refusal, Said, ToolCall, ToolResult, ToolSays, Verdict};

use super::run::Run;
use super::tools::{BuiltinTool, OpRecord, arg};

/// The host's checks on a proposed call: it must be offered, carry exactly
/// the declared arguments, and stay inside the workspace.
pub fn validate(tools: &[ToolDef], call: &ToolCall) -> Verdict {
    let Some(def) = tools.iter().find(|t| t.name == call.tool && t.offered) else {
        return Verdict::Refused(Refusal::NotOffered);
    };
    // op_id is the host's idempotency key, accepted on any tool.
    if let Some((k, _)) = call
        .args
        .iter()
        .find(|(k, _)| k != "op_id" && !def.params.contains(k))
    {
        return Verdict::Refused(Refusal::UnknownArg(k.clone()));
    }
    if let Some(p) = def
        .params
        .iter()
        .find(|p| *p != "op_id" && !call.args.iter().any(|(k, _)| k == *p))
    {
        return Verdict::Refused(Refusal::MissingArg(p.clone()));
    }
    if let Some(path) = arg(&call.args, "path").filter(|p| !inside_workspace(p)) {
        return Verdict::Refused(Refusal::OutsideWorkspace(path.to_string()));
    }
    Verdict::Approved
}

/// A relative path that never climbs out with `..`.
pub fn inside_workspace(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && !path.starts_with('~')
        && !path.contains('\\')
        && !path.split('/').any(|part| part == "..")
}

/// A call's arguments without its operation id: what the id stands for.
pub(super) fn without_op_id(args: &[(String, String)]) -> Vec<(String, String)> {
    args.iter().filter(|(k, _)| k != "op_id").cloned().collect()
}

impl Run<'_> {
    /// The host's record for a call's operation id: the earlier result when
    /// the same call comes again, an error when the id was used for another
    /// call (as in the notes' loop: 同一幂等ID不能指向不同动作).
    pub(super) fn recorded(&self, index: usize) -> Option<(String, ToolResult, bool)> {
        let call = &self.rec.trace.calls[index];
        let op = self.op_id(&call.tool, &call.args)?;
        let op = op.as_str();
        let record = self.workspace.ops.get(op)?;
        let same = record.tool == call.tool && record.args == without_op_id(&call.args);
        // A failed operation is run again under its id (a retry); a
        // finished one is answered from the record.
        if same && record.result.is_error {
            return None;
        }
        if same {
            let record = &record.result;
            let said = record.said.clone().map(|s| Said::Replayed(Box::new(s)));
            let result = match said {
                Some(said) => ToolResult {
                    replayed: true,
                    ..self.result(said, record.is_error)
                },
                None => ToolResult {
                    replayed: true,
                    ..record.clone()
                },
            };
            return Some((op.to_string(), result, false));
        }
        let said = Said::OpConflict { op: op.to_string() };
        Some((op.to_string(), self.result(said, true), true))
    }
}

/// The host running a tool for a call.
impl Run<'_> {
    /// Run a tool for a model's call and record what it did to the
    /// workspace at `step`, and its result under the call's operation id.
    pub(super) fn run_tool(
        &mut self,
        tool: &str,
        args: &[(String, String)],
        step: usize,
    ) -> ToolResult {
        let writes = self.rec.counters.writes;
        let result = self.execute(tool, args);
        if let Some(op) = self.op_id(tool, args) {
            let landed_before = self.workspace.ops.get(&op).is_some_and(|r| r.landed);
            let record = OpRecord {
                tool: tool.to_string(),
                args: without_op_id(args),
                result: result.clone(),
                landed: landed_before || self.rec.counters.writes > writes,
            };
            self.workspace.ops.insert(op, record);
        }
        if self.is_verify_call(tool, args) && !result.is_error {
            self.last_pass = Some(step);
        }
        result
    }

    /// Is this the call the host would make to verify: the verify tool with
    /// exactly the verify's arguments (an operation id aside)? Only then
    /// does the model's own passing run spare the host its check: a read of
    /// another file is not the check `verify` names.
    pub(super) fn is_verify_call(&self, tool: &str, args: &[(String, String)]) -> bool {
        let Some(verify) = &self.scenario.verify else {
            return false;
        };
        let args = without_op_id(args);
        let wanted = verify.args.iter().filter(|(k, _)| *k != "op_id");
        verify.tool == tool
            && wanted.clone().count() == args.len()
            && wanted
                .into_iter()
                .all(|(k, v)| args.iter().any(|(ak, av)| ak == k && av == v))
    }

    /// Execute a built-in tool against the in-memory workspace.
    pub(super) fn execute(&mut self, tool: &str, args: &[(String, String)]) -> ToolResult {
        let step = self.current_step();
        let said = self.tool_says(tool, args);
        let is_error = said.is_err();
        let result = self.result(Said::Tool(said.unwrap_or_else(|e| e)), is_error);
        for (path, change) in self.workspace.events.drain(..) {
            if matches!(change, FileChange::Written { .. }) {
                self.rec.counters.writes += 1;
                self.last_write = Some(step);
                if !self.rec.trace.files.contains(&path) {
                    self.rec.trace.files.push(path.clone());
                }
            }
            self.rec
                .trace
                .file_events
                .push(FileEvent { step, path, change });
        }
        result
    }

    /// What a built-in tool does to the workspace, and what it says.
    pub(super) fn tool_says(
        &mut self,
        tool: &str,
        args: &[(String, String)],
    ) -> Result<ToolSays, ToolSays> {
        let scenario = self.scenario;
        let def = scenario.tools.iter().find(|t| t.name == tool);
        if let Some(custom) = def.filter(|d| !d.results.is_empty()) {
            return self.run_custom(custom, args);
        }
        let Some(builtin) = BuiltinTool::parse(tool) else {
            return Err(ToolSays::NoSuchTool(tool.to_string()));
        };
        let checks = def.map_or(&[][..], |d| &d.checks);
        self.workspace.run(builtin, args, checks)
    }
}
