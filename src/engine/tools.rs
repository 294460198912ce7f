//! The built-in tools and the in-memory workspace they act on, with the
//! host's record of operation ids it holds. Nothing here touches a real
//! disk, and nothing here names another file of the engine: how the host
//! runs a tool for a call is in `host.rs`.

use std::collections::{BTreeMap, HashMap};

use crate::scenario::FileCheck;
use crate::trace::{FileChange, ToolResult, ToolSays};

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

/// The in-memory files, with a version per file, and the results of
/// operation ids already applied.
pub(super) struct Workspace {
    files: BTreeMap<String, (String, u32)>,
    /// Operation id → the call it was first used for, and its result.
    pub(super) ops: HashMap<String, OpRecord>,
    /// How many times a custom tool has run with the same arguments (an
    /// operation id aside), by `derived_op_id`: a result's `attempt`.
    pub(super) runs: HashMap<String, u32>,
    pub(super) events: Vec<(String, FileChange)>,
}

/// What the host keeps for an operation id: the call it was first used for
/// (tool, arguments without the id) and that call's result.
pub(super) struct OpRecord {
    pub(super) tool: String,
    pub(super) args: Vec<(String, String)>,
    pub(super) result: ToolResult,
    /// A run under this id changed something: a service that honours the
    /// id as an idempotency key makes the change only once.
    pub(super) landed: bool,
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
            runs: HashMap::new(),
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

/// The value of a call's argument `name`.
pub(super) fn arg<'a>(args: &'a [(String, String)], name: &str) -> Option<&'a str> {
    args.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}
