//! The built-in tools and the in-memory workspace they act on. Nothing
//! here touches a real disk.

use std::collections::{BTreeMap, HashMap};

use crate::scenario::FileCheck;
use crate::trace::{FileChange, FileEvent, Said, ToolResult, ToolSays};

use super::host::{OpRecord, without_op_id};
use super::{Run, arg};

/// The tools the engine can execute. Offered tools must be one of these;
/// a scenario names them in snake_case (`read_file`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum BuiltinTool {
    ReadFile,
    ListFiles,
    WriteFile,
    PatchFile,
    RunTests,
}

impl BuiltinTool {
    pub const ALL: [BuiltinTool; 5] = [
        BuiltinTool::ReadFile,
        BuiltinTool::ListFiles,
        BuiltinTool::WriteFile,
        BuiltinTool::PatchFile,
        BuiltinTool::RunTests,
    ];

    /// The name a scenario and the model use for the tool.
    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn parse(name: &str) -> Option<BuiltinTool> {
        BuiltinTool::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The arguments the tool reads. `op_id` is accepted on any call
    /// besides these: it is the host's, not the tool's.
    pub fn params(self) -> &'static [&'static str] {
        match self {
            BuiltinTool::ReadFile => &["path"],
            BuiltinTool::ListFiles => &[],
            BuiltinTool::WriteFile => &["path", "content"],
            BuiltinTool::PatchFile => &["path", "find", "replace"],
            BuiltinTool::RunTests => &[],
        }
    }
}

/// The host running a built-in tool for a call.
impl Run<'_> {
    /// Run a tool for a model's call and record what it did to the
    /// workspace at `step`, and its result under the call's operation id.
    pub(super) fn run_tool(
        &mut self,
        tool: &str,
        args: &[(String, String)],
        step: usize,
    ) -> ToolResult {
        let result = self.execute(tool, args);
        if let Some(op) = self.op_id(tool, args) {
            let record = OpRecord {
                tool: tool.to_string(),
                args: without_op_id(args),
                result: result.clone(),
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

/// The in-memory files, with a version per file, and the results of
/// operation ids already applied.
pub(super) struct Workspace {
    files: BTreeMap<String, (String, u32)>,
    /// Operation id → the call it was first used for, and its result.
    pub(super) ops: HashMap<String, OpRecord>,
    pub(super) events: Vec<(String, FileChange)>,
}

impl Workspace {
    /// Run a built-in tool on the workspace; `checks` are what `run_tests`
    /// checks. Err is a result the model reads as an error.
    pub(super) fn run(
        &mut self,
        tool: BuiltinTool,
        args: &[(String, String)],
        checks: &[FileCheck],
    ) -> Result<ToolSays, ToolSays> {
        let arg = |name| arg(args, name).unwrap_or("");
        match tool {
            BuiltinTool::ReadFile => self.read(arg("path")),
            BuiltinTool::ListFiles => Ok(ToolSays::Content(
                self.files
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n")
                    .into(),
            )),
            BuiltinTool::WriteFile => self.write(arg("path"), arg("content")),
            BuiltinTool::PatchFile => self.patch(arg("path"), arg("find"), arg("replace")),
            BuiltinTool::RunTests => self.test(checks),
        }
    }

    pub(super) fn new(files: &BTreeMap<String, String>) -> Self {
        Workspace {
            files: files
                .iter()
                .map(|(k, v)| (k.clone(), (v.clone(), 1)))
                .collect(),
            ops: HashMap::new(),
            events: Vec::new(),
        }
    }

    /// A custom tool's answer read this file (if it exists).
    pub(super) fn mark_read(&mut self, path: &str) {
        if self.files.contains_key(path) {
            self.events.push((path.to_string(), FileChange::Read));
        }
    }

    fn read(&mut self, path: &str) -> Result<ToolSays, ToolSays> {
        let (content, _) = self
            .files
            .get(path)
            .ok_or_else(|| ToolSays::NoSuchFile(path.to_string()))?;
        self.events.push((path.to_string(), FileChange::Read));
        Ok(ToolSays::Content(content.as_str().into()))
    }

    fn write(&mut self, path: &str, content: &str) -> Result<ToolSays, ToolSays> {
        let entry = self
            .files
            .entry(path.to_string())
            .or_insert((String::new(), 0));
        entry.0 = content.to_string();
        entry.1 += 1;
        let version = entry.1;
        self.events
            .push((path.to_string(), FileChange::Written { version }));
        let path = path.to_string();
        Ok(ToolSays::Wrote { path, version })
    }

    fn patch(&mut self, path: &str, find: &str, replace: &str) -> Result<ToolSays, ToolSays> {
        let (content, version) = self
            .files
            .get_mut(path)
            .ok_or_else(|| ToolSays::NoSuchFile(path.to_string()))?;
        if find.is_empty() || !content.contains(find) {
            return Err(ToolSays::FindNotFound(path.to_string()));
        }
        *content = content.replacen(find, replace, 1);
        *version += 1;
        let version = *version;
        self.events
            .push((path.to_string(), FileChange::Written { version }));
        let path = path.to_string();
        Ok(ToolSays::Patched { path, version })
    }

    fn test(&mut self, checks: &[FileCheck]) -> Result<ToolSays, ToolSays> {
        for check in checks {
            let content = self.files.get(&check.path).map(|(c, _)| c.as_str());
            let holds = |c: &str| {
                check.contains.as_deref().is_none_or(|t| c.contains(t))
                    && check
                        .line
                        .as_deref()
                        .is_none_or(|l| c.lines().any(|x| x == l))
            };
            if !content.is_some_and(holds) {
                let (wanted, line) = match (&check.line, &check.contains) {
                    (Some(l), _) => (l.clone(), true),
                    (None, c) => (c.clone().unwrap_or_default(), false),
                };
                let path = check.path.clone();
                return Err(ToolSays::TestFailed { path, wanted, line });
            }
        }
        Ok(ToolSays::TestsPassed(checks.len()))
    }
}
