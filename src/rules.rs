//! Which rule of the scripted model holds for the context it was sent.
//!
//! A rule holds when each of its tests holds: the context has (or lacks) a
//! result paired with a matching call, or some message contains (or none
//! contains) a text. Messages are only ever appended, so a test's answer
//! changes at most once, when the first message that passes it arrives.
//! The matcher therefore looks at each new message once, finds through an
//! index the few tests it can pass (results by tool and argument, texts
//! through one Aho-Corasick automaton over all the rules' texts), and keeps
//! the set of rules that hold up to date. Choosing a rule costs the same
//! with ten rules or ten thousand: a scenario with 10,000 rules and 8 calls
//! per reply took 27 s to load when every rule looked at every message.

use std::collections::{BTreeSet, HashMap};

use aho_corasick::AhoCorasick;

use crate::scenario::{CallMatch, Rule};
use crate::trace::{CallId, Message, Role, ToolCall};

/// The four tests of a condition, in the order `Condition` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Test {
    HasResult,
    LacksResult,
    Contains,
    Lacks,
}

impl Test {
    /// Does the test hold once a passing message has been seen? (A
    /// "lacks" test holds until then.)
    fn holds_when_found(self) -> bool {
        matches!(self, Test::HasResult | Test::Contains)
    }

    fn index(self) -> usize {
        self as usize
    }
}

type TestRef = (usize, Test);

/// Result tests of one tool: those that name no argument, and the others
/// by the first argument they require (a call lacking it cannot match).
#[derive(Default)]
struct ResultTests<'a> {
    any_args: Vec<TestRef>,
    by_arg: HashMap<(&'a str, &'a str), Vec<TestRef>>,
}

pub struct RuleMatcher<'a> {
    rules: &'a [Rule],
    /// Per rule, per test: has a passing message been seen?
    found: Vec<[bool; 4]>,
    /// Per rule: how many of its tests do not hold now.
    failing: Vec<usize>,
    /// The rules all of whose tests hold, in order.
    holding: BTreeSet<usize>,
    results: HashMap<&'a str, ResultTests<'a>>,
    texts: Option<AhoCorasick>,
    /// Per pattern of `texts`: the tests looking for it.
    text_tests: Vec<Vec<TestRef>>,
    /// Messages looked at so far.
    scanned: usize,
}

impl<'a> RuleMatcher<'a> {
    pub fn new(rules: &'a [Rule]) -> Self {
        let mut results: HashMap<&str, ResultTests> = HashMap::new();
        let mut patterns: Vec<&str> = Vec::new();
        let mut pattern_ids: HashMap<&str, usize> = HashMap::new();
        let mut text_tests: Vec<Vec<TestRef>> = Vec::new();
        let mut failing = vec![0; rules.len()];
        for (i, rule) in rules.iter().enumerate() {
            let when = &rule.when;
            let result_tests = [
                (Test::HasResult, &when.has_result),
                (Test::LacksResult, &when.lacks_result),
            ];
            for (test, m) in result_tests {
                let Some(m) = m else { continue };
                let tests = results.entry(&m.tool).or_default();
                match m.args.iter().next() {
                    None => tests.any_args.push((i, test)),
                    Some((k, v)) => tests
                        .by_arg
                        .entry((k.as_str(), v.as_str()))
                        .or_default()
                        .push((i, test)),
                }
                failing[i] += usize::from(test.holds_when_found());
            }
            let text_tests_of_rule = [(Test::Contains, &when.contains), (Test::Lacks, &when.lacks)];
            for (test, text) in text_tests_of_rule {
                let Some(text) = text else { continue };
                let id = *pattern_ids.entry(text.as_str()).or_insert_with(|| {
                    patterns.push(text);
                    text_tests.push(Vec::new());
                    patterns.len() - 1
                });
                text_tests[id].push((i, test));
                failing[i] += usize::from(test.holds_when_found());
            }
        }
        let holding = (0..rules.len()).filter(|&i| failing[i] == 0).collect();
        let texts = (!patterns.is_empty()).then(|| {
            AhoCorasick::new(&patterns).expect("texts from a scenario make a valid automaton")
        });
        RuleMatcher {
            rules,
            found: vec![[false; 4]; rules.len()],
            failing,
            holding,
            results,
            texts,
            text_tests,
            scanned: 0,
        }
    }

    /// The first rule that holds for a context of `messages` (every message
    /// so far: each call passes the same list, grown). `call` finds the
    /// call a tool result is attached to.
    pub fn choose<'m>(
        &mut self,
        messages: &'m [Message],
        call: impl Fn(&CallId) -> &'m ToolCall,
    ) -> Option<usize> {
        for m in &messages[self.scanned..] {
            self.look_at(m, &call);
        }
        self.scanned = messages.len();
        self.holding.first().copied()
    }

    fn look_at<'m>(&mut self, m: &'m Message, call: &impl Fn(&CallId) -> &'m ToolCall) {
        let mut passed: Vec<TestRef> = Vec::new();
        if let Some(texts) = &self.texts {
            // A host's or tool's text matches in the trace's language or in
            // English, so a scenario runs the same in every language.
            for said in std::iter::once(&m.text).chain(&m.canonical) {
                for found in texts.find_overlapping_iter(said.as_str()) {
                    passed.extend(&self.text_tests[found.pattern().as_usize()]);
                }
            }
        }
        if let Some(id) = m.call_id.as_ref().filter(|_| m.role == Role::Tool) {
            let c = call(id);
            if let Some(tests) = self.results.get(c.tool.as_str()) {
                let by_arg = c
                    .args
                    .iter()
                    .filter_map(|(k, v)| tests.by_arg.get(&(k.as_str(), v.as_str())))
                    .flatten();
                for &(rule, test) in tests.any_args.iter().chain(by_arg) {
                    let when = &self.rules[rule].when;
                    let wanted = match test {
                        Test::HasResult => when.has_result.as_ref(),
                        _ => when.lacks_result.as_ref(),
                    };
                    if wanted.is_some_and(|w| result_matches(w, c, m)) {
                        passed.push((rule, test));
                    }
                }
            }
        }
        for (rule, test) in passed {
            self.found_one(rule, test);
        }
    }

    fn found_one(&mut self, rule: usize, test: Test) {
        if std::mem::replace(&mut self.found[rule][test.index()], true) {
            return;
        }
        if test.holds_when_found() {
            self.failing[rule] -= 1;
            if self.failing[rule] == 0 {
                self.holding.insert(rule);
            }
        } else {
            if self.failing[rule] == 0 {
                self.holding.remove(&rule);
            }
            self.failing[rule] += 1;
        }
    }
}

/// Is `m`, a result attached (by id) to `call`, one that `wanted` asks for?
/// The model knows which result is which only by the id.
pub fn result_matches(wanted: &CallMatch, call: &ToolCall, m: &Message) -> bool {
    call.tool == wanted.tool
        && wanted
            .args
            .iter()
            .all(|(k, v)| call.args.iter().any(|(ck, cv)| ck == k && cv == v))
        && wanted.ok.is_none_or(|ok| ok != m.is_error)
        && wanted.contains.as_deref().is_none_or(|t| m.says(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{self, CATALOG};
    use crate::scenario::Lang;

    /// The definition, one rule and one message at a time.
    fn naive(
        rules: &[Rule],
        messages: &[Message],
        call: impl Fn(&CallId) -> ToolCall,
    ) -> Option<usize> {
        let result = |w: &CallMatch| {
            messages.iter().any(|m| {
                m.role == Role::Tool
                    && m.call_id
                        .as_ref()
                        .is_some_and(|id| result_matches(w, &call(id), m))
            })
        };
        let text = |t: &str| messages.iter().any(|m| m.says(t));
        rules.iter().position(|r| {
            let w = &r.when;
            w.has_result.as_ref().is_none_or(result)
                && w.lacks_result.as_ref().is_none_or(|m| !result(m))
                && w.contains.as_deref().is_none_or(text)
                && w.lacks.as_deref().is_none_or(|t| !text(t))
        })
    }

    #[test]
    fn every_shipped_run_chooses_as_the_definition_does() {
        for (name, _) in CATALOG {
            let loaded = load::load(name).unwrap();
            for lang in Lang::ALL {
                let trace = loaded.trace(lang);
                let rules = &loaded.scenario.model;
                let mut matcher = RuleMatcher::new(rules);
                let call = |id: &CallId| trace.call(id).unwrap();
                for mc in &trace.model_calls {
                    let context = trace.context(mc);
                    assert_eq!(
                        matcher.choose(context, call),
                        naive(rules, context, |id| call(id).clone()),
                        "{name} {lang:?} model call {}",
                        mc.number
                    );
                }
            }
        }
    }

    fn rule(when: serde_json::Value) -> Rule {
        serde_json::from_value(serde_json::json!({ "when": when, "say": { "zh": "x", "en": "x" } }))
            .unwrap()
    }

    fn message(role: Role, text: &str, call_id: Option<&str>, is_error: bool) -> Message {
        Message {
            role,
            text: text.into(),
            calls: Vec::new(),
            call_id: call_id.map(|id| CallId(id.into())),
            is_error,
            step: 0,
            size: 0,
            tokens: 0,
            canonical: None,
        }
    }

    fn tool_call(id: &str, tool: &str, args: &[(&str, &str)]) -> ToolCall {
        ToolCall {
            id: CallId(id.into()),
            tool: tool.into(),
            raw_args: None,
            args: args
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            model_call: 1,
            proposed: 0,
            verdict: None,
            started: None,
            finished: None,
            result: None,
            paired_to: None,
            appended: true,
            decision: None,
        }
    }

    #[test]
    fn tests_flip_once_and_in_both_directions() {
        use serde_json::json;
        let rules = vec![
            rule(json!({ "lacks": "" })),
            rule(
                json!({ "has_result": { "tool": "read_file", "args": { "path": "a", "x": "1" } }, "lacks": "zz" }),
            ),
            rule(json!({ "has_result": { "tool": "read_file", "ok": false } })),
            rule(
                json!({ "contains": "abc", "lacks_result": { "tool": "read_file", "contains": "zz" } }),
            ),
            rule(json!({ "contains": "b" })),
            rule(json!({})),
        ];
        let calls = [
            tool_call("c1", "read_file", &[("path", "a")]),
            tool_call("c2", "read_file", &[("path", "a"), ("x", "1")]),
            tool_call("c3", "read_file", &[("path", "b")]),
        ];
        let call = |id: &CallId| calls.iter().find(|c| &c.id == id).unwrap();
        let all = [
            message(Role::User, "", None, false),
            message(Role::Tool, "abc", Some("c1"), false),
            message(Role::Tool, "ok", Some("c2"), false),
            message(Role::Tool, "missing", Some("c3"), true),
            message(Role::Tool, "zz top", Some("c3"), false),
            message(Role::User, "bc", None, false),
        ];
        let mut matcher = RuleMatcher::new(&rules);
        let mut chosen = Vec::new();
        for n in 0..=all.len() {
            let context = &all[..n];
            let got = matcher.choose(context, call);
            assert_eq!(
                got,
                naive(&rules, context, |id| call(id).clone()),
                "after {n} messages"
            );
            chosen.push(got);
        }
        assert_eq!(
            chosen,
            [
                Some(0),
                Some(5),
                Some(3),
                Some(1),
                Some(1),
                Some(2),
                Some(2)
            ]
        );
    }

    mod random {
        use super::*;
        use proptest::prelude::*;
        use serde_json::json;

        const TEXTS: [&str; 6] = ["", "x", "y", "xy", "yx", "xyx"];

        fn call_match() -> impl Strategy<Value = serde_json::Value> {
            (
                prop::sample::select(vec!["a", "b"]),
                prop::option::of(prop::sample::select(vec!["p", "q"])),
                any::<bool>(),
                prop::option::of(any::<bool>()),
                prop::option::of(prop::sample::select(TEXTS.to_vec())),
            )
                .prop_map(|(tool, path, with_mode, ok, contains)| {
                    let mut args = serde_json::Map::new();
                    if let Some(p) = path {
                        args.insert("path".into(), p.into());
                    }
                    if with_mode {
                        args.insert("mode".into(), "1".into());
                    }
                    let mut m = json!({ "tool": tool, "args": args });
                    if let Some(ok) = ok {
                        m["ok"] = ok.into();
                    }
                    if let Some(c) = contains {
                        m["contains"] = c.into();
                    }
                    m
                })
        }

        fn when() -> impl Strategy<Value = Rule> {
            let text = || prop::option::of(prop::sample::select(TEXTS.to_vec()));
            (
                prop::option::of(call_match()),
                prop::option::of(call_match()),
                text(),
                text(),
            )
                .prop_map(|(has, lacks_result, contains, lacks)| {
                    let mut w = serde_json::Map::new();
                    if let Some(m) = has {
                        w.insert("has_result".into(), m);
                    }
                    if let Some(m) = lacks_result {
                        w.insert("lacks_result".into(), m);
                    }
                    if let Some(t) = contains {
                        w.insert("contains".into(), t.into());
                    }
                    if let Some(t) = lacks {
                        w.insert("lacks".into(), t.into());
                    }
                    rule(serde_json::Value::Object(w))
                })
        }

        fn messages() -> impl Strategy<Value = Vec<Message>> {
            let text = "[xyz]{0,4}";
            prop::collection::vec(
                (any::<bool>(), text, 0..4usize, any::<bool>()).prop_map(
                    |(tool, text, call, error)| {
                        let id = format!("c{call}");
                        if tool {
                            message(Role::Tool, &text, Some(&id), error)
                        } else {
                            message(Role::User, &text, None, false)
                        }
                    },
                ),
                0..12,
            )
        }

        proptest! {
            #[test]
            fn the_matcher_chooses_as_the_definition_does(
                rules in prop::collection::vec(when(), 1..8),
                all in messages(),
            ) {
                let calls = [
                    tool_call("c0", "a", &[("path", "p")]),
                    tool_call("c1", "a", &[("path", "q"), ("mode", "1")]),
                    tool_call("c2", "b", &[("mode", "1"), ("path", "p")]),
                    tool_call("c3", "b", &[]),
                ];
                let call = |id: &CallId| calls.iter().find(|c| &c.id == id).unwrap();
                let mut matcher = RuleMatcher::new(&rules);
                for n in 0..=all.len() {
                    let context = &all[..n];
                    prop_assert_eq!(
                        matcher.choose(context, call),
                        naive(&rules, context, |id| call(id).clone())
                    );
                }
            }
        }
    }
}
