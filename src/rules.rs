//! Which rule of the scripted model holds for the context it was sent.
//!
//! A rule holds when each of its tests holds: the context has (or lacks)
//! enough results paired with a matching call, or some message contains
//! (or none contains) a text; and, outside the context, the model call has
//! the number the rule names, and a `once` rule has not fired yet.
//! Messages are only ever appended (until the host compacts, when the
//! matcher starts over on the compacted list), so a test's answer changes
//! at most once, when the message that passes it arrives. The matcher
//! therefore looks at each new message once, finds through an index the
//! few tests it can pass (results by tool and argument, texts through one
//! Aho-Corasick automaton over all the rules' texts), and keeps the set of
//! rules that hold up to date. Choosing a rule costs the same with ten
//! rules or ten thousand: a scenario with 10,000 rules and 8 calls per
//! reply took 27 s to load when every rule looked at every message.

use std::collections::{BTreeSet, HashMap};

use aho_corasick::AhoCorasick;

use crate::scenario::{CallMatch, ResultStatus, Rule};
use crate::trace::{CallId, HostInsert, Message, Outcome, Role, ToolCall};

/// The four tests of a condition, in the order `Condition` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Test {
    HasResult,
    LacksResult,
    Contains,
    Lacks,
}

impl Test {
    /// Does the test hold once enough passing messages have been seen? (A
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
    /// Per rule, per test: how many passing messages have been seen.
    found: Vec<[u32; 4]>,
    /// Per rule, per test: how many passing messages flip it (`count`).
    needed: Vec<[u32; 4]>,
    /// Per rule: how many of its context tests do not hold on an empty
    /// context (the starting point of `failing`).
    failing_at_start: Vec<usize>,
    /// Per rule: how many of its tests do not hold now, counting a
    /// `model_call` test (held only during `choose` at that call) and a
    /// `once` rule that has fired.
    failing: Vec<usize>,
    /// The rules all of whose tests hold, in order.
    holding: BTreeSet<usize>,
    /// Model call number → the rules that name it.
    at_call: HashMap<u32, Vec<usize>>,
    /// Per rule: a `once` rule that has fired.
    fired: Vec<bool>,
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
        let mut needed = vec![[1; 4]; rules.len()];
        let mut at_call: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, rule) in rules.iter().enumerate() {
            let when = &rule.when;
            let result_tests = [
                (Test::HasResult, &when.has_result),
                (Test::LacksResult, &when.lacks_result),
            ];
            for (test, m) in result_tests {
                let Some(m) = m else { continue };
                needed[i][test.index()] = m.count.unwrap_or(1).max(1);
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
            if let Some(n) = when.model_call {
                at_call.entry(n).or_default().push(i);
            }
        }
        let texts = (!patterns.is_empty()).then(|| {
            AhoCorasick::new(&patterns).expect("texts from a scenario make a valid automaton")
        });
        let mut matcher = RuleMatcher {
            rules,
            found: Vec::new(),
            needed,
            failing_at_start: failing,
            failing: Vec::new(),
            holding: BTreeSet::new(),
            at_call,
            fired: vec![false; rules.len()],
            results,
            texts,
            text_tests,
            scanned: 0,
        };
        matcher.restart();
        matcher
    }

    /// Forget every message seen: the next `choose` gets a new list (the
    /// host compacted the context). Rules that fired stay fired.
    pub fn restart(&mut self) {
        let rules = self.rules;
        self.found = vec![[0; 4]; rules.len()];
        self.failing = self.failing_at_start.clone();
        for (i, rule) in rules.iter().enumerate() {
            self.failing[i] +=
                usize::from(rule.when.model_call.is_some()) + usize::from(self.fired[i]);
        }
        self.holding = (0..rules.len()).filter(|&i| self.failing[i] == 0).collect();
        self.scanned = 0;
    }

    /// The first rule that holds at model call `number` for a context of
    /// `messages` (every message so far: each call passes the same list,
    /// grown, until `restart`). `call` finds the call a tool result is
    /// attached to. A `once` rule chosen here never holds again.
    pub fn choose<'m>(
        &mut self,
        number: u32,
        messages: &'m [Message],
        call: impl Fn(&CallId) -> &'m ToolCall,
    ) -> Option<usize> {
        for m in &messages[self.scanned..] {
            self.look_at(m, &call);
        }
        self.scanned = messages.len();
        // The rules that name this model call hold on it, for this choice.
        let named = self.at_call.get(&number).cloned().unwrap_or_default();
        for &rule in &named {
            self.pass(rule);
        }
        let chosen = self.holding.first().copied();
        for &rule in &named {
            self.fail(rule);
        }
        if let Some(rule) = chosen.filter(|&r| self.rules[r].once) {
            self.fired[rule] = true;
            self.fail(rule);
        }
        chosen
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
                // Each test is indexed under one key, so a message reaches
                // it once: a count counts messages.
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
        let i = test.index();
        if self.found[rule][i] >= self.needed[rule][i] {
            return;
        }
        self.found[rule][i] += 1;
        if self.found[rule][i] < self.needed[rule][i] {
            return;
        }
        if test.holds_when_found() {
            self.pass(rule);
        } else {
            self.fail(rule);
        }
    }

    /// One more of the rule's tests holds.
    fn pass(&mut self, rule: usize) {
        self.failing[rule] -= 1;
        if self.failing[rule] == 0 {
            self.holding.insert(rule);
        }
    }

    /// One more of the rule's tests does not hold.
    fn fail(&mut self, rule: usize) {
        if self.failing[rule] == 0 {
            self.holding.remove(&rule);
        }
        self.failing[rule] += 1;
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
        && wanted
            .status
            .is_none_or(|s| result_status(call, m) == Some(s))
}

/// A result's status as a rule sees it: the host's placeholder is
/// `compacted`; otherwise what answered the call (`ToolCall::outcome`).
pub fn result_status(call: &ToolCall, m: &Message) -> Option<ResultStatus> {
    if m.host_insert == Some(HostInsert::Placeholder) {
        return Some(ResultStatus::Compacted);
    }
    // One arm per outcome: a new outcome cannot go unmatched by rules.
    Some(match call.outcome()? {
        Outcome::Ok => ResultStatus::Ok,
        Outcome::Error => ResultStatus::Error,
        Outcome::Refused => ResultStatus::Refused,
        Outcome::Replayed => ResultStatus::Replayed,
        Outcome::OpConflict => ResultStatus::OpConflict,
        Outcome::Denied => ResultStatus::Denied,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule names a result's status as the trace JSON names its outcome
    /// (`outcome` on every result), plus `compacted`.
    #[test]
    fn status_names_are_the_outcome_names() {
        use strum::VariantNames;
        let outcomes = [
            Outcome::Ok,
            Outcome::Error,
            Outcome::Refused,
            Outcome::Replayed,
            Outcome::OpConflict,
            Outcome::Denied,
        ];
        let mut names: Vec<&str> = outcomes.iter().map(|o| o.code()).collect();
        names.push("compacted");
        assert_eq!(ResultStatus::VARIANTS, names.as_slice());
    }
    use crate::load::{self, CATALOG};
    use crate::scenario::Lang;

    /// The definition, one rule and one message at a time. `fired`: the
    /// `once` rules chosen before; the chosen one is added.
    fn naive(
        rules: &[Rule],
        messages: &[Message],
        number: u32,
        fired: &mut Vec<usize>,
        call: impl Fn(&CallId) -> ToolCall,
    ) -> Option<usize> {
        let results = |w: &CallMatch| {
            messages
                .iter()
                .filter(|m| {
                    m.role == Role::Tool
                        && m.call_id
                            .as_ref()
                            .is_some_and(|id| result_matches(w, &call(id), m))
                })
                .count()
        };
        let enough = |w: &CallMatch| results(w) >= w.count.unwrap_or(1).max(1) as usize;
        let text = |t: &str| messages.iter().any(|m| m.says(t));
        let chosen = rules.iter().enumerate().position(|(i, r)| {
            let w = &r.when;
            w.has_result.as_ref().is_none_or(enough)
                && w.lacks_result.as_ref().is_none_or(|m| !enough(m))
                && w.contains.as_deref().is_none_or(text)
                && w.lacks.as_deref().is_none_or(|t| !text(t))
                && w.model_call.is_none_or(|n| n == number)
                && !(r.once && fired.contains(&i))
        });
        if let Some(i) = chosen.filter(|&i| rules[i].once) {
            fired.push(i);
        }
        chosen
    }

    #[test]
    fn every_shipped_run_chooses_as_the_definition_does() {
        for (name, _) in CATALOG {
            let loaded = load::load(name).unwrap();
            for lang in Lang::ALL {
                let trace = loaded.trace(lang);
                let rules = &loaded.lesson.as_ref().unwrap().model;
                let mut matcher = RuleMatcher::new(rules);
                let mut fired = Vec::new();
                let call = |id: &CallId| trace.call(id).unwrap();
                let mut start = 0;
                for mc in &trace.model_calls {
                    if mc.context_start != start {
                        start = mc.context_start;
                        matcher.restart();
                    }
                    // The provider refused the request: no rule was chosen.
                    if trace.rejection(mc).is_some() {
                        continue;
                    }
                    let context = trace.context(mc);
                    let n = mc.number;
                    assert_eq!(
                        matcher.choose(n, context, call),
                        naive(rules, context, n, &mut fired, |id| call(id).clone()),
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
            carried: None,
            host_insert: None,
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
            label: None,
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
            let got = matcher.choose(1, context, call);
            assert_eq!(
                got,
                naive(&rules, context, 1, &mut Vec::new(), |id| call(id).clone()),
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
                prop::option::of(prop::sample::select(vec!["ok", "error", "refused"])),
                prop::option::of(1..4u32),
            )
                .prop_map(|(tool, path, with_mode, ok, contains, status, count)| {
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
                    if let Some(s) = status {
                        m["status"] = s.into();
                    }
                    if let Some(n) = count {
                        m["count"] = n.into();
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
                prop::option::of(1..4u32),
                any::<bool>(),
            )
                .prop_map(|(has, lacks_result, contains, lacks, model_call, once)| {
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
                    if let Some(n) = model_call {
                        w.insert("model_call".into(), n.into());
                    }
                    let mut r = rule(serde_json::Value::Object(w));
                    r.once = once;
                    r
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
                let mut calls = [
                    tool_call("c0", "a", &[("path", "p")]),
                    tool_call("c1", "a", &[("path", "q"), ("mode", "1")]),
                    tool_call("c2", "b", &[("mode", "1"), ("path", "p")]),
                    tool_call("c3", "b", &[]),
                ];
                // Outcomes ok, error, refused, and none yet.
                let result = |is_error| crate::trace::ToolResult {
                    text: String::new(),
                    is_error,
                    replayed: false,
                    canonical: None,
                };
                calls[0].result = Some(result(false));
                calls[1].started = Some(0);
                calls[1].result = Some(result(true));
                calls[2].verdict = Some((0, crate::trace::Verdict::Refused(
                    crate::trace::Refusal::NotOffered,
                )));
                calls[2].result = Some(result(true));
                let calls = calls;
                let call = |id: &CallId| calls.iter().find(|c| &c.id == id).unwrap();
                let mut matcher = RuleMatcher::new(&rules);
                let mut fired = Vec::new();
                // Model calls 1, 2, 3, ...; the host compacts (the list
                // starts over) halfway.
                let half = all.len() / 2;
                for n in 0..=all.len() {
                    let number = n as u32 + 1;
                    let context = if n < half { &all[..n] } else { &all[half..n] };
                    if n == half {
                        matcher.restart();
                    }
                    prop_assert_eq!(
                        matcher.choose(number, context, call),
                        naive(&rules, context, number, &mut fired, |id| call(id).clone())
                    );
                }
            }
        }
    }
}
