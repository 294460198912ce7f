//! The JSON-RPC messages between the host and a lesson's MCP server
//! (`Trace::mcp`), as the Model Context Protocol writes them
//! (modelcontextprotocol.io/specification/2025-06-18: basic/lifecycle and
//! server/tools): at start-up `initialize`, its result,
//! `notifications/initialized` and `tools/list`; the server's list of
//! tools; each call of a listed tool as `tools/call`, and its result,
//! with `isError: true` when the tool ran and failed.

use serde_json::{Value, json};

use crate::trace::{StepKind, ToolCall, Trace};

/// The protocol revision the host asks for and the server agrees to.
pub const PROTOCOL_VERSION: &str = "2025-06-18";

/// Which side sends a message: the host (the MCP client) or the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    Host,
    Server,
}

/// The messages that cross between the host and the server at step
/// `index`, in the order sent; none at a step that sends none.
pub fn messages_at(trace: &Trace, index: usize) -> Vec<(Sender, Value)> {
    let Some(mcp) = &trace.mcp else {
        return Vec::new();
    };
    match &trace.steps[index].kind {
        StepKind::McpLists => vec![
            (
                Sender::Host,
                json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": { "name": "agent-loop-sim", "version": env!("CARGO_PKG_VERSION") },
                } }),
            ),
            (
                Sender::Server,
                json!({ "jsonrpc": "2.0", "id": 1, "result": {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": { "tools": {} },
                    "serverInfo": { "name": mcp.server, "version": "1.0.0" },
                } }),
            ),
            (
                Sender::Host,
                json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
            ),
            (
                Sender::Host,
                json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }),
            ),
        ],
        StepKind::McpListed => vec![(Sender::Server, tools_list_result(trace))],
        StepKind::Executes { calls } => calls
            .iter()
            .filter_map(|id| trace.call_at(id, index))
            .filter_map(|call| Some((Sender::Host, tools_call(trace, call)?)))
            .collect(),
        StepKind::ResultArrives { call } => trace
            .call_at(call, index)
            .and_then(|call| call_result(trace, call))
            .map(|m| vec![(Sender::Server, m)])
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The server's answer to `tools/list`: each tool it serves with the
/// name, description and input schema the host then offers the model.
fn tools_list_result(trace: &Trace) -> Value {
    let served =
        |t: &&crate::trace::OfferedTool| trace.mcp.as_ref().is_some_and(|m| m.serves(&t.name));
    let tools: Vec<Value> = (trace.tools.iter().filter(served))
        .map(|t| {
            json!({
                "name": t.name,
                "description": t.description,
                "inputSchema": super::schema(t),
            })
        })
        .collect();
    json!({ "jsonrpc": "2.0", "id": 2, "result": { "tools": tools } })
}

/// The JSON-RPC id of a served call's `tools/call`: after `initialize` (1)
/// and `tools/list` (2), one a call in the order the host sent them.
/// None for a call the server never got (not its tool, or never run).
fn rpc_id(trace: &Trace, call: &ToolCall) -> Option<usize> {
    let mcp = trace.mcp.as_ref()?;
    let mut sent: Vec<(usize, usize)> = (trace.calls.iter().enumerate())
        .filter(|(_, c)| mcp.serves(&c.tool))
        .filter_map(|(i, c)| Some((c.started?, i)))
        .collect();
    sent.sort_unstable();
    let at = (
        call.started?,
        trace.calls.iter().position(|c| std::ptr::eq(c, call))?,
    );
    sent.iter().position(|s| *s == at).map(|n| n + 3)
}

/// The host's `tools/call` request for a call of a served tool.
fn tools_call(trace: &Trace, call: &ToolCall) -> Option<Value> {
    let id = rpc_id(trace, call)?;
    let arguments: Value =
        serde_json::from_str(&super::body::arguments_text(call)).unwrap_or_else(|_| json!({}));
    Some(
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": call.tool,
        "arguments": arguments,
    } }),
    )
}

/// The server's result for a served call: its text as one content block,
/// `isError` saying whether the tool failed (a tool's failure is a
/// result the model reads, not a JSON-RPC error).
fn call_result(trace: &Trace, call: &ToolCall) -> Option<Value> {
    let id = rpc_id(trace, call)?;
    let result = call.result.as_ref()?;
    Some(json!({ "jsonrpc": "2.0", "id": id, "result": {
        "content": [ { "type": "text", "text": &*result.text } ],
        "isError": result.is_error,
    } }))
}

/// The MCP server's name when step `index` sends a message to or from it.
pub fn server_at(trace: &Trace, index: usize) -> Option<&str> {
    let mcp = trace.mcp.as_ref()?;
    (!messages_at(trace, index).is_empty()).then_some(mcp.server.as_str())
}
