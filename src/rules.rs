//! Which rule of the scripted model holds for the context it was sent.
//!
//! A rule holds when each of its tests holds: the context has (or lacks)
//! enough results paired with a matching call, or some message contains
//! (or none contains) a text; each condition of its `all` holds, and one of
//! its `any` (conditions nest); and, outside the context, the model call
//! has the number the rule names, and a `once` rule has not fired yet.
//! Messages are only ever appended (until the host compacts, when the
//! matcher starts over on the compacted list), so a test's answer changes
//! at most once, when the message that passes it arrives. The matcher
//! therefore looks at each new message once, finds through an index the
//! few tests it can pass (results by tool and argument, texts through one
//! Aho-Corasick automaton over all the rules' texts), and keeps the set of
//! rules that hold up to date. Choosing a rule costs the same with ten
//! rules or ten thousand: a scenario with 10,000 rules and 8 calls per
//! reply took 27 s to load when every rule looked at every message.
//!
//! Long because half of it is the unit tests of the rule matcher, kept beside
//! the code they pin.

use std::collections::{BTreeSet, HashMap};

use aho_corasick::AhoCorasick;

use crate::scenario::{CallMatch, Condition, ResultStatus, Rule};
use crate::trace::{CallId, HostInsert, Message, Outcome, Role, Slice, ToolCall};

/// The tests of a condition that look at the context.
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
}

/// A test of the context, in one condition (a node).
struct Leaf<'a> {
    node: usize,
    test: Test,
    /// How many passing messages flip it (`count`).
    needed: u32,
    /// For a result test: the call it asks for.
    wanted: Option<&'a CallMatch>,
}

/// One condition of a rule: its own `when` (the root) or one nested in
/// `all` / `any`. It holds when `needed` of its parts hold: all of them
/// for a `when` or an `all` entry, one for the list of an `any`.
struct Node {
    /// The condition this one is a part of; None for a rule's `when`.
    parent: Option<usize>,
    rule: usize,
    needed: u32,
}

/// Result tests of one tool: those that name no argument, and the others
/// by the first argument they require (a call lacking it cannot match).
#[derive(Default)]
struct ResultTests<'a> {
    any_args: Vec<usize>,
    by_arg: HashMap<(&'a str, &'a str), Vec<usize>>,
}

pub struct RuleMatcher<'a> {
    rules: &'a [Rule],
    leaves: Vec<Leaf<'a>>,
    /// Per leaf: how many passing messages have been seen.
    found: Vec<u32>,
    /// Conditions in depth-first order: a part comes after the condition
    /// it is a part of.
    nodes: Vec<Node>,
    /// Per node: how many of its parts hold now. A `model_call` test holds
    /// only during `choose` at that call; the root of a `once` rule counts
    /// "not fired yet" as one part.
    holds: Vec<u32>,
    /// Per node: how many of its parts hold on an empty context.
    holds_at_start: Vec<u32>,
    /// Per rule: its root node.
    root: Vec<usize>,
    /// The rules whose root holds, in order.
    holding: BTreeSet<usize>,
    /// Model call number → the nodes with a `model_call` test naming it.
    at_call: HashMap<u32, Vec<usize>>,
    /// Per rule: a `once` rule that has fired.
    fired: Vec<bool>,
    results: HashMap<&'a str, ResultTests<'a>>,
    texts: Option<AhoCorasick>,
    /// Per pattern of `texts`: the leaves looking for it.
    text_tests: Vec<Vec<usize>>,
    /// Messages looked at so far.
    scanned: usize,
}

/// Gathering the tests of every condition into the matcher's indexes.
struct Builder<'a> {
    leaves: Vec<Leaf<'a>>,
    nodes: Vec<Node>,
    holds_at_start: Vec<u32>,
    results: HashMap<&'a str, ResultTests<'a>>,
    patterns: Vec<&'a str>,
    pattern_ids: HashMap<&'a str, usize>,
    text_tests: Vec<Vec<usize>>,
    at_call: HashMap<u32, Vec<usize>>,
}

impl<'a> Builder<'a> {
    /// Add `when` (and its parts) as a node of `rule`, which holds when
    /// all its parts hold. Returns the node.
    fn node(&mut self, when: &'a Condition, rule: usize, parent: Option<usize>) -> usize {
        let node = self.nodes.len();
        self.nodes.push(Node {
            parent,
            rule,
            needed: 0,
        });
        self.holds_at_start.push(0);
        let mut parts = 0;
        let result_tests = [
            (Test::HasResult, &when.has_result),
            (Test::LacksResult, &when.lacks_result),
        ];
        for (test, m) in result_tests {
            let Some(m) = m else { continue };
            let leaf = self.leaf(node, test, m.count.unwrap_or(1).max(1), Some(m));
            let tests = self.results.entry(&m.tool).or_default();
            match m.args.iter().next() {
                None => tests.any_args.push(leaf),
                Some((k, v)) => tests
                    .by_arg
                    .entry((k.as_str(), v.as_str()))
                    .or_default()
                    .push(leaf),
            }
            parts += 1;
        }
        let text_tests = [(Test::Contains, &when.contains), (Test::Lacks, &when.lacks)];
        for (test, text) in text_tests {
            let Some(text) = text else { continue };
            let leaf = self.leaf(node, test, 1, None);
            let id = *self.pattern_ids.entry(text.as_str()).or_insert_with(|| {
                self.patterns.push(text);
                self.text_tests.push(Vec::new());
                self.patterns.len() - 1
            });
            self.text_tests[id].push(leaf);
            parts += 1;
        }
        if let Some(n) = when.model_call {
            self.at_call.entry(n).or_default().push(node);
            parts += 1;
        }
        if !when.all.is_empty() {
            let all = self.group(node, rule, &when.all, false);
            let holds = u32::from(self.holds_now(all));
            self.holds_at_start[node] += holds;
            parts += 1;
        }
        if let Some(list) = &when.any {
            let any = self.group(node, rule, list, true);
            let holds = u32::from(self.holds_now(any));
            self.holds_at_start[node] += holds;
            parts += 1;
        }
        self.nodes[node].needed = parts;
        node
    }

    /// A list of conditions (`all` or `any`) as a node whose parts are
    /// the conditions.
    fn group(&mut self, parent: usize, rule: usize, list: &'a [Condition], any: bool) -> usize {
        let group = self.nodes.len();
        self.nodes.push(Node {
            parent: Some(parent),
            rule,
            needed: 0,
        });
        self.holds_at_start.push(0);
        for c in list {
            let part = self.node(c, rule, Some(group));
            let holds = u32::from(self.holds_now(part));
            self.holds_at_start[group] += holds;
        }
        // One of an `any` (so an empty one never holds), all of an `all`.
        self.nodes[group].needed = if any { 1 } else { list.len() as u32 };
        group
    }

    fn leaf(
        &mut self,
        node: usize,
        test: Test,
        needed: u32,
        wanted: Option<&'a CallMatch>,
    ) -> usize {
        self.leaves.push(Leaf {
            node,
            test,
            needed,
            wanted,
        });
        // A "lacks" test holds on an empty context.
        self.holds_at_start[node] += u32::from(!test.holds_when_found());
        self.leaves.len() - 1
    }

    fn holds_now(&self, node: usize) -> bool {
        self.holds_at_start[node] >= self.nodes[node].needed
    }
}

impl<'a> RuleMatcher<'a> {
    pub fn new(rules: &'a [Rule]) -> Self {
        let mut b = Builder {
            leaves: Vec::new(),
            nodes: Vec::new(),
            holds_at_start: Vec::new(),
            results: HashMap::new(),
            patterns: Vec::new(),
            pattern_ids: HashMap::new(),
            text_tests: Vec::new(),
            at_call: HashMap::new(),
        };
        let mut root = Vec::with_capacity(rules.len());
        for (i, rule) in rules.iter().enumerate() {
            let node = b.node(&rule.when, i, None);
            if rule.once {
                // "Not fired yet" is one more part, holding at the start.
                b.nodes[node].needed += 1;
                b.holds_at_start[node] += 1;
            }
            root.push(node);
        }
        let texts = (!b.patterns.is_empty()).then(|| {
            AhoCorasick::new(&b.patterns).expect("texts from a scenario make a valid automaton")
        });
        let mut matcher = RuleMatcher {
            rules,
            found: Vec::new(),
            leaves: b.leaves,
            nodes: b.nodes,
            holds: Vec::new(),
            holds_at_start: b.holds_at_start,
            root,
            holding: BTreeSet::new(),
            at_call: b.at_call,
            fired: vec![false; rules.len()],
            results: b.results,
            texts,
            text_tests: b.text_tests,
            scanned: 0,
        };
        matcher.restart();
        matcher
    }

    /// Forget every message seen: the next `choose` gets a new list (the
    /// host compacted the context). Rules that fired stay fired.
    pub fn restart(&mut self) {
        self.found = vec![0; self.leaves.len()];
        self.holds = self.holds_at_start.clone();
        for (rule, &node) in self.root.iter().enumerate() {
            self.holds[node] -= u32::from(self.fired[rule]);
        }
        self.holding = (0..self.rules.len())
            .filter(|&i| self.node_holds(self.root[i]))
            .collect();
        self.scanned = 0;
    }

    /// The first rule that holds at model call `number` for a context of
    /// `messages` (every message so far: each call passes the same list,
    /// grown, until `restart`). `call` finds the call a tool result is
    /// attached to. A `once` rule chosen here never holds again.
    pub fn choose<'m>(
        &mut self,
        number: u32,
        messages: Slice<'m, Message>,
        call: impl Fn(&CallId) -> &'m ToolCall,
    ) -> Option<usize> {
        for m in messages.slice(self.scanned..) {
            self.look_at(m, &call);
        }
        self.scanned = messages.len();
        // The conditions that name this model call hold on it, for this choice.
        let named = self.at_call.get(&number).cloned().unwrap_or_default();
        for &node in &named {
            self.part_flips(node, true);
        }
        let chosen = self.holding.first().copied();
        for &node in &named {
            self.part_flips(node, false);
        }
        if let Some(rule) = chosen.filter(|&r| self.rules[r].once) {
            self.fired[rule] = true;
            self.part_flips(self.root[rule], false);
        }
        chosen
    }

    fn look_at<'m>(&mut self, m: &'m Message, call: &impl Fn(&CallId) -> &'m ToolCall) {
        let mut passed: Vec<usize> = Vec::new();
        if let Some(texts) = &self.texts {
            // A host's or tool's text matches in the trace's language or in
            // English, so a scenario runs the same in every language.
            for said in std::iter::once(&*m.text).chain(m.canonical.as_deref()) {
                for found in texts.find_overlapping_iter(said) {
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
                for &leaf in tests.any_args.iter().chain(by_arg) {
                    let wanted = self.leaves[leaf].wanted;
                    if wanted.is_some_and(|w| result_matches(w, c, m)) {
                        passed.push(leaf);
                    }
                }
            }
        }
        for leaf in passed {
            self.found_one(leaf);
        }
    }

    fn found_one(&mut self, leaf: usize) {
        let Leaf {
            node, test, needed, ..
        } = self.leaves[leaf];
        if self.found[leaf] >= needed {
            return;
        }
        self.found[leaf] += 1;
        if self.found[leaf] < needed {
            return;
        }
        self.part_flips(node, test.holds_when_found());
    }

    fn node_holds(&self, node: usize) -> bool {
        self.holds[node] >= self.nodes[node].needed
    }

    /// One part of `node` starts (`true`) or stops holding; the change
    /// goes up to the rule when it changes whether the node holds.
    fn part_flips(&mut self, mut node: usize, mut now_holds: bool) {
        loop {
            let before = self.node_holds(node);
            if now_holds {
                self.holds[node] += 1;
            } else {
                self.holds[node] -= 1;
            }
            let after = self.node_holds(node);
            if before == after {
                return;
            }
            match self.nodes[node].parent {
                Some(parent) => {
                    node = parent;
                    now_holds = after;
                }
                None => {
                    let rule = self.nodes[node].rule;
                    if after {
                        self.holding.insert(rule);
                    } else {
                        self.holding.remove(&rule);
                    }
                    return;
                }
            }
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
        Outcome::Interrupted => ResultStatus::Interrupted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Shared;

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
            Outcome::Interrupted,
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
        messages: Slice<'_, Message>,
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
        fn holds(
            w: &Condition,
            number: u32,
            enough: &dyn Fn(&CallMatch) -> bool,
            text: &dyn Fn(&str) -> bool,
        ) -> bool {
            w.has_result.as_ref().is_none_or(enough)
                && w.lacks_result.as_ref().is_none_or(|m| !enough(m))
                && w.contains.as_deref().is_none_or(text)
                && w.lacks.as_deref().is_none_or(|t| !text(t))
                && w.model_call.is_none_or(|n| n == number)
                && w.all.iter().all(|c| holds(c, number, enough, text))
                && w.any
                    .as_ref()
                    .is_none_or(|l| l.iter().any(|c| holds(c, number, enough, text)))
        }
        let chosen = rules.iter().enumerate().position(|(i, r)| {
            holds(&r.when, number, &enough, &text) && !(r.once && fired.contains(&i))
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
            call_id: call_id.map(|id| CallId(id.into())),
            is_error,
            ..Message::new(role, text, 0)
        }
    }

    fn tool_call(id: &str, tool: &str, args: &[(&str, &str)]) -> ToolCall {
        ToolCall {
            id: CallId(id.into()),
            tool: tool.into(),
            raw_args: None,
            item_id: None,
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
            call_dropped: false,
            decision: None,
            not_run: None,
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
        let all = Shared::from(all.to_vec());
        let mut matcher = RuleMatcher::new(&rules);
        let mut chosen = Vec::new();
        for n in 0..=all.len() {
            let context = all.slice(..n);
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

    /// `all` holds once both results are there, `any` from the first; a
    /// nested `lacks` inside `any` keeps it holding until the text comes.
    #[test]
    fn all_and_any_hold_as_their_parts_do() {
        use serde_json::json;
        let read =
            |path: &str| json!({ "has_result": { "tool": "read_file", "args": { "path": path } } });
        let rules = vec![
            rule(json!({ "all": [read("a"), read("b")] })),
            rule(json!({ "any": [read("a"), read("b")], "lacks": "stop" })),
            rule(json!({ "any": [{ "lacks": "zz" }, read("b")], "model_call": 2 })),
            rule(json!({})),
        ];
        let calls = [
            tool_call("c1", "read_file", &[("path", "a")]),
            tool_call("c2", "read_file", &[("path", "b")]),
        ];
        let call = |id: &CallId| calls.iter().find(|c| &c.id == id).unwrap();
        let all = [
            message(Role::User, "task", None, false),
            message(Role::Tool, "A", Some("c1"), false),
            message(Role::User, "zz", None, false),
            message(Role::Tool, "B", Some("c2"), false),
        ];
        let all = Shared::from(all.to_vec());
        let mut matcher = RuleMatcher::new(&rules);
        let mut chosen = Vec::new();
        for n in 1..=all.len() {
            let context = all.slice(..n);
            let number = n as u32;
            let got = matcher.choose(number, context, call);
            assert_eq!(
                got,
                naive(&rules, context, number, &mut Vec::new(), |id| call(id)
                    .clone()),
                "after {n} messages"
            );
            chosen.push(got);
        }
        // Call 1: nothing yet; call 2: a read (any), call 3 likewise; call
        // 4: both reads (all).
        assert_eq!(chosen, [Some(3), Some(1), Some(1), Some(0)]);
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

        /// A condition, with `all` and `any` lists nested up to two deep.
        fn condition() -> impl Strategy<Value = serde_json::Value> {
            let leaf = flat_condition();
            leaf.prop_recursive(2, 12, 3, |inner| {
                (
                    flat_condition(),
                    prop::collection::vec(inner.clone(), 0..3),
                    prop::collection::vec(inner, 0..3),
                )
                    .prop_map(|(mut w, all, any)| {
                        // Sometimes an empty `any`, which never holds.
                        let empty_any = all.len() == 1 && any.is_empty();
                        if !all.is_empty() {
                            w["all"] = all.into();
                        }
                        if !any.is_empty() {
                            w["any"] = any.into();
                        }
                        if empty_any {
                            w["any"] = serde_json::json!([]);
                        }
                        w
                    })
            })
        }

        fn when() -> impl Strategy<Value = Rule> {
            (condition(), any::<bool>()).prop_map(|(w, once)| {
                let mut r = rule(w);
                r.once = once;
                r
            })
        }

        fn flat_condition() -> impl Strategy<Value = serde_json::Value> {
            let text = || prop::option::of(prop::sample::select(TEXTS.to_vec()));
            (
                prop::option::of(call_match()),
                prop::option::of(call_match()),
                text(),
                text(),
                prop::option::of(1..4u32),
            )
                .prop_map(|(has, lacks_result, contains, lacks, model_call)| {
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
                    serde_json::Value::Object(w)
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
                let all = Shared::from(all);
                let mut calls = [
                    tool_call("c0", "a", &[("path", "p")]),
                    tool_call("c1", "a", &[("path", "q"), ("mode", "1")]),
                    tool_call("c2", "b", &[("mode", "1"), ("path", "p")]),
                    tool_call("c3", "b", &[]),
                ];
                // Outcomes ok, error, refused, and none yet.
                let result = |is_error| crate::trace::ToolResult {
                    text: "".into(),
                    is_error,
                    replayed: false,
                    canonical: None,
                    said: None,
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
                    let context = if n < half { all.slice(..n) } else { all.slice(half..n) };
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
