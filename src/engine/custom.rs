//! Custom tools: tools a scenario declares beyond the built-ins, with a
//! JSON schema and scripted results. They run on the Tool lane like any
//! other tool; a side-effecting one changes the environment (a write), and
//! an answer may name the files it read.

use crate::scenario::{Lang, Scenario, ToolDef};
use crate::trace::{OfferedTool, ToolSays};

use super::policy::{args_match, derived_op_id};
use super::run::Run;
use super::tools::{BuiltinTool, Workspace};

impl Run<'_> {
    /// The scripted result of a custom tool for these arguments: the first
    /// entry whose `args` and `files` hold (`check` makes sure the last
    /// entry holds always). Err is a result the model reads as an error.
    pub(super) fn run_custom(
        &mut self,
        def: &ToolDef,
        args: &[(String, String)],
    ) -> Result<ToolSays, ToolSays> {
        // Sent again under an id whose change landed, the service answers
        // without changing anything again (an idempotency key).
        let landed = (self.op_id(&def.name, args))
            .and_then(|op| self.workspace.ops.get(&op))
            .is_some_and(|record| record.landed);
        let workspace = &mut self.workspace;
        let attempt = workspace
            .runs
            .entry(derived_op_id(&def.name, args))
            .or_insert(0);
        *attempt += 1;
        let attempt = *attempt;
        let Some(entry) = def.results.iter().find(|r| {
            args_match(&r.args, args)
                && r.attempt.is_none_or(|a| a == attempt)
                && r.files.iter().all(|c| holds(workspace, c))
        }) else {
            return Err(ToolSays::NoSuchTool(def.name.clone()));
        };
        for path in &entry.reads {
            workspace.mark_read(path);
        }
        // A failed result may still have changed things (a timeout after
        // the write landed): its `writes` happen; without one, a failure
        // changed nothing.
        if def.side_effects && !landed {
            match &entry.writes {
                Some(w) => {
                    // The built-in write: a new version, counted as a write.
                    let written = [
                        ("path".to_string(), w.path.clone()),
                        ("content".to_string(), w.content.clone()),
                    ];
                    let _ = workspace.run(BuiltinTool::WriteFile, &written, &[]);
                }
                None if entry.ok => {
                    // A change outside the files (a deploy, a message sent).
                    self.rec.counters.writes += 1;
                    self.last_write = Some(self.current_step());
                }
                None => {}
            }
        }
        let said = ToolSays::Custom(entry.text.clone());
        if entry.ok { Ok(said) } else { Err(said) }
    }
}

fn holds(workspace: &mut Workspace, check: &crate::scenario::FileCheck) -> bool {
    workspace
        .run(BuiltinTool::RunTests, &[], std::slice::from_ref(check))
        .is_ok()
}

/// The tools the scenario offers, as a request in `lang` describes them.
pub(super) fn offered_tools(scenario: &Scenario, lang: Lang) -> Vec<OfferedTool> {
    scenario
        .tools
        .iter()
        .filter(|t| t.offered)
        .map(|t| OfferedTool {
            name: t.name.clone(),
            params: param_names(t),
            description: t.description.get(lang).to_string(),
            schema: t.parameters.as_ref().map(|s| schema_in(s, lang)),
            strict: t.strict,
            builtin: None,
        })
        .collect()
}

/// A custom tool's schema as a request in `lang` carries it: a property's
/// description written in each language (`{"zh": …, "en": …}`) becomes
/// that language's string; everything else is sent exactly as written.
pub(super) fn schema_in(schema: &serde_json::Value, lang: Lang) -> serde_json::Value {
    let mut schema = schema.clone();
    in_lang(&mut schema, lang);
    schema
}

/// `schema_in` in place: this schema's description, then its properties'
/// and its `items`', at any depth.
fn in_lang(schema: &mut serde_json::Value, lang: Lang) {
    use serde_json::Value;
    if let Some(d) = schema.get_mut("description")
        && let Some(text) = d.get(lang.code()).and_then(Value::as_str)
    {
        *d = Value::String(text.to_string());
    }
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        properties.values_mut().for_each(|p| in_lang(p, lang));
    }
    if let Some(items) = schema.get_mut("items") {
        in_lang(items, lang);
    }
}

/// The parameter names a tool is offered with: a custom tool's schema
/// properties in the order written, else its `params`.
pub(super) fn param_names(def: &ToolDef) -> Vec<String> {
    match def
        .parameters
        .as_ref()
        .and_then(|s| s.get("properties"))
        .and_then(serde_json::Value::as_object)
    {
        Some(properties) => properties.keys().cloned().collect(),
        None => def.params.clone(),
    }
}

/// The arguments a call of this tool may carry, `op_id` included.
pub fn call_params(def: &ToolDef) -> Vec<String> {
    let mut names = param_names(def);
    if !names.iter().any(|n| n == "op_id") {
        names.push("op_id".to_string());
    }
    names
}
