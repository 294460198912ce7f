//! The checks of `mcp` (an MCP server the host connects to at start-up):
//! a server's name, and tools it lists that are the file's own custom
//! tools, each once and offered (the host runs a built-in itself; a tool
//! it does not offer it would not have listed).

use crate::engine::BuiltinTool;
use crate::scenario::Scenario;

use super::wording::quoted;

/// Faults of `mcp`: JSON path, what was expected.
pub(super) fn check_mcp(s: &Scenario) -> Vec<(String, String)> {
    let Some(mcp) = &s.mcp else {
        return Vec::new();
    };
    let mut bad = Vec::new();
    if mcp.server.trim().is_empty() {
        bad.push((
            "mcp.server".into(),
            "expected the server's name, as the host's configuration names it".into(),
        ));
    }
    if mcp.tools.is_empty() {
        bad.push((
            "mcp.tools".into(),
            "expected the names of the tools the server lists, at least one".into(),
        ));
    }
    for (i, name) in mcp.tools.iter().enumerate() {
        let at = format!("mcp.tools[{i}]");
        let tool = s.tools.iter().find(|t| t.name == *name);
        let why = match tool {
            _ if mcp.tools[..i].contains(name) => "is listed twice; expected each tool once",
            None => "is not a tool of \"tools\"; expected a custom tool defined there",
            Some(_) if BuiltinTool::parse(name).is_some() => {
                "is a built-in tool, which the host runs itself; expected a custom tool \
                 (with \"results\")"
            }
            Some(t) if !t.offered => {
                "is not offered; expected a tool the host offers, as it offers every tool the \
                 server lists"
            }
            Some(_) => continue,
        };
        bad.push((at, format!("{} {why}", quoted(name))));
    }
    bad
}
