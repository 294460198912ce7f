//! The host's side of a call: the checks it makes before anything runs,
//! and what it keeps for an operation id.

use crate::scenario::ToolDef;
use crate::trace::{Refusal, Said, ToolCall, ToolResult, Verdict};

use super::{Run, arg};

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

/// What the host keeps for an operation id: the call it was first used for
/// (tool, arguments without the id) and that call's result.
pub(super) struct OpRecord {
    pub(super) tool: String,
    pub(super) args: Vec<(String, String)>,
    pub(super) result: ToolResult,
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
