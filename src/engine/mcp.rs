//! The host and an MCP server (`Scenario::mcp`): at start-up, before the
//! task reaches the model, the host connects and asks for the server's
//! tools (`tools/list`); the server answers with each tool's name,
//! description and input schema, which the host offers the model as its
//! own tool definitions. Each call of those tools then goes to the server
//! as `tools/call` (`wire::mcp` writes the JSON-RPC messages).

use crate::trace::{Lane, StepKind};

use super::Run;

impl Run<'_> {
    /// The `tools/list` exchange, when the lesson has a server: the host
    /// asks (Host → Tool lane, the server's), the server answers.
    pub(super) fn mcp_lists(&mut self) {
        if self.scenario.mcp.is_none() {
            return;
        }
        self.step(StepKind::McpLists, Some(Lane::Host), Lane::Tool);
        self.step(StepKind::McpListed, Some(Lane::Tool), Lane::Host);
    }
}
