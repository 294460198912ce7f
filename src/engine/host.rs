//! The host's side of a call: the checks it makes before anything runs,
//! and what it keeps for an operation id.

use crate::i18n;
use crate::scenario::ToolDef;
use crate::trace::{Refusal, ToolCall, ToolResult, Verdict};

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

/// A recorded result as the host answers a replay with it: a JSON object
/// gains `"replayed": true`, as the notes' executor returns
/// `{**result, "replayed": True}`; other text comes back unchanged, as an
/// HTTP idempotency key replays the same body.
fn mark_replayed(text: &str) -> String {
    let trimmed = text.trim_end();
    let is_object = serde_json::from_str::<serde_json::Value>(trimmed).is_ok_and(|v| v.is_object());
    match trimmed.strip_suffix('}') {
        Some(open) if is_object => {
            let empty = open.trim_end().ends_with('{');
            let sep = if empty { "" } else { ", " };
            format!("{}{sep}\"replayed\": true}}", open.trim_end())
        }
        _ => text.to_string(),
    }
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
            let mut result = record.result.clone();
            result.replayed = true;
            result.text = mark_replayed(&result.text);
            result.canonical = result.canonical.as_deref().map(mark_replayed);
            return Some((op.to_string(), result, false));
        }
        let (text, canonical) = self.said(|lang| i18n::op_conflict(op, lang));
        let result = ToolResult {
            text,
            is_error: true,
            replayed: false,
            canonical,
        };
        Some((op.to_string(), result, true))
    }
}

#[cfg(test)]
mod tests {
    use super::mark_replayed;

    #[test]
    fn a_replayed_json_object_says_so_and_other_text_is_unchanged() {
        assert_eq!(
            mark_replayed(r#"{"status": "ok", "version": "toy:v2"}"#),
            r#"{"status": "ok", "version": "toy:v2", "replayed": true}"#
        );
        assert_eq!(mark_replayed("{}"), r#"{"replayed": true}"#);
        assert_eq!(
            mark_replayed("patched app.toml (now v2)"),
            "patched app.toml (now v2)"
        );
        assert_eq!(mark_replayed("[1, 2]"), "[1, 2]");
        assert_eq!(mark_replayed("{not json}"), "{not json}");
    }
}
