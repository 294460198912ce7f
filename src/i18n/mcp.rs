//! The words of a lesson's MCP server (`Trace::mcp`, `wire::mcp`): the
//! start-up steps (`tools/list` asked and answered), a call the host sends
//! the server (`tools/call`) and its result, and a served tool as the
//! context panel lists it, with its description.

use super::catalogue::*;
use super::label::Label;
use crate::scenario::Lang;
use crate::trace::{CallId, OfferedTool, StepKind, ToolCall, Trace};

/// The server's name when every call in `calls` goes to it.
fn server_of<'t>(trace: &'t Trace, calls: &[CallId], index: usize) -> Option<&'t str> {
    let mcp = trace.mcp.as_ref()?;
    let served = |id: &CallId| {
        trace
            .call_at(id, index)
            .is_some_and(|c| mcp.serves(&c.tool))
    };
    (!calls.is_empty() && calls.iter().all(served)).then_some(mcp.server.as_str())
}

/// The title of step `index` when it is one of the server's: the start-up
/// exchange, or calls sent to it. None for any other step.
pub(super) fn title(trace: &Trace, index: usize, what: impl Fn() -> String) -> Option<String> {
    let lang = trace.lang;
    let mcp = trace.mcp.as_ref()?;
    let server = &mcp.server;
    match &trace.steps[index].kind {
        StepKind::McpLists => Some(TITLE_MCP_LISTS.fill(lang, &[("server", server)])),
        StepKind::McpListed => Some(TITLE_MCP_LISTED.fill(
            lang,
            &[
                ("server", server),
                ("n", &mcp.tools.len()),
                ("names", &mcp.tools.join(MCP_NAMES_SEPARATOR.get(lang))),
            ],
        )),
        StepKind::Executes { calls } => {
            let server = server_of(trace, calls, index)?;
            Some(TITLE_MCP_CALL.fill(lang, &[("what", &what()), ("server", &server)]))
        }
        _ => None,
    }
}

/// The arrow beside the lanes at a step of the server's; None elsewhere.
pub(super) fn arrow(trace: &Trace, index: usize, ids: impl Fn() -> String) -> Option<String> {
    let lang = trace.lang;
    let mcp = trace.mcp.as_ref()?;
    match &trace.steps[index].kind {
        StepKind::McpLists => Some(ARROW_MCP_LISTS.get(lang).into()),
        StepKind::McpListed => Some(ARROW_MCP_LISTED.fill(lang, &[("n", &mcp.tools.len())])),
        StepKind::Executes { calls } => {
            server_of(trace, calls, index)?;
            Some(ARROW_MCP_CALL.fill(lang, &[("ids", &ids())]))
        }
        _ => None,
    }
}

/// The plain explanation of a step of the server's; None elsewhere.
pub(super) fn why(trace: &Trace, index: usize) -> Option<Label> {
    match &trace.steps[index].kind {
        StepKind::McpLists => Some(WHY_MCP_LISTS),
        StepKind::McpListed => Some(WHY_MCP_LISTED),
        StepKind::Executes { calls } => server_of(trace, calls, index).map(|_| WHY_MCP_CALL),
        StepKind::ResultArrives { call } => {
            server_of(trace, std::slice::from_ref(call), index)?;
            let call = trace.call_at(call, index)?;
            call.started?;
            let error = call.result.as_ref()?.is_error;
            Some(if error {
                WHY_MCP_IS_ERROR
            } else {
                WHY_MCP_RESULT
            })
        }
        _ => None,
    }
}

/// A tool the server serves, as the tools offered list it: its signature,
/// the server's name and its description, which the model reads.
pub(super) fn offered(trace: &Trace, tool: &OfferedTool, lang: Lang) -> Option<String> {
    let mcp = trace.mcp.as_ref().filter(|m| m.serves(&tool.name))?;
    Some(MCP_TOOL.fill(
        lang,
        &[
            ("signature", &tool.signature()),
            ("server", &mcp.server),
            ("description", &tool.description),
        ],
    ))
}

/// Has the server listed its tools by step `step`? Always, for a run
/// without a server.
pub(super) fn listed_by(trace: &Trace, step: usize) -> bool {
    trace.mcp.is_none()
        || trace
            .steps
            .slice(..=step.min(trace.steps.len().saturating_sub(1)))
            .iter()
            .any(|s| matches!(s.kind, StepKind::McpListed))
}

/// The server's name when it answers `call`: a call of one of its tools
/// that the host sent it (not one it refused).
pub(super) fn server_answering<'t>(trace: &'t Trace, call: &ToolCall) -> Option<&'t str> {
    let mcp = trace.mcp.as_ref().filter(|m| m.serves(&call.tool))?;
    call.started.map(|_| mcp.server.as_str())
}

/// The lesson's MCP server on the Tool lane's environment line at `step`:
/// connecting until it has listed its tools, then its tools.
pub fn mcp_server_state(trace: &Trace, step: usize, lang: Lang) -> Option<String> {
    let mcp = trace.mcp.as_ref()?;
    Some(match listed_by(trace, step) {
        true => MCP_SERVER_LISTED.fill(
            lang,
            &[
                ("server", &mcp.server),
                ("names", &mcp.tools.join(MCP_NAMES_SEPARATOR.get(lang))),
            ],
        ),
        false => MCP_SERVER_CONNECTING.fill(lang, &[("server", &mcp.server)]),
    })
}
