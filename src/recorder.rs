//! The one recorder of a run. The engine (a scripted lesson) and every
//! transcript reader (a real run) build their `Trace` through it, so a
//! step, a message and its size, a model call, a proposed call and the
//! result paired with it are recorded one way for both: a fix here reaches
//! lessons and real runs alike.
//!
//! What differs stays with each caller: the engine decides what happens
//! (rules, the host's checks, the tools); a reader follows its file (and
//! says where each step came from).

use std::sync::Arc;

use crate::scenario::EndStatus;
use crate::trace::{
    CallId, Counters, Lane, Like, Message, ModelCall, Role, Step, StepKind, ToolCall, ToolResult,
    Trace,
};
use crate::wire;

#[derive(Clone)]
pub struct Recorder {
    pub trace: Trace,
    /// The counters as of the latest step (each step keeps a copy).
    pub counters: Counters,
    /// Call id, hashed (`id_key`) → the latest call with it: its next
    /// result answers that one (a real run may reuse an id once its call
    /// was answered). Hashed (`index_of` checks the id found), and
    /// persistent: a live build copies the index of a long run twice a
    /// call, and a copy shares all but what it changes.
    call_index: imbl::HashMap<u64, usize>,
    /// The messages held start here: after the host compacts, at its
    /// compacted copy; earlier requests sent from 0.
    pub held_from: usize,
    /// Running size of the messages held, in characters and tokens (the
    /// exact body sizes are placed once the run ends: `wire::measure`).
    /// A replayed run's tokens are counted when asked, beside its trace
    /// (`tokens::Counts`): its `messages_tokens` and `fixed_tokens` stay 0.
    pub messages_size: usize,
    pub messages_tokens: usize,
    /// Tokens every request carries besides its messages: the system
    /// prompt, the tools' schemas, the reply priming.
    pub fixed_tokens: usize,
    /// Calls proposed whose result is not in the messages yet, in order.
    unanswered: Vec<CallId>,
}

impl Recorder {
    /// Record into `trace`, which holds what the run starts with (its
    /// name, tools, system prompt, provider) and no steps yet.
    pub fn new(mut trace: Trace) -> Self {
        // Each call proposed from now on is seen (`propose`).
        trace.unique_ids = trace.calls.is_empty();
        let fixed_tokens = match trace.is_replayed() {
            true => 0,
            false => wire::fixed_tokens(&trace),
        };
        Recorder {
            trace,
            counters: Counters::default(),
            call_index: imbl::HashMap::new(),
            held_from: 0,
            messages_size: 0,
            messages_tokens: 0,
            fixed_tokens,
            unanswered: Vec::new(),
        }
    }

    /// The index the next step will have.
    pub fn next_step(&self) -> usize {
        self.trace.steps.len()
    }

    /// Record a step with the counters as they are; returns its index.
    pub fn step(&mut self, kind: StepKind, from: Option<Lane>, to: Lane) -> usize {
        let index = self.trace.steps.len();
        self.trace.steps.push(Step {
            kind,
            from,
            to,
            counters: self.counters,
            model_call: self.trace.model_calls.len().checked_sub(1),
            end: None,
            narration: None,
        });
        index
    }

    /// A message appended by the next step; `append` fills in its sizes.
    pub fn message(&self, role: Role, text: impl Into<Arc<str>>) -> Message {
        Message::new(role, text, self.next_step())
    }

    /// Append a message to the context, measured one way for every run:
    /// characters of its text, ids, tool names and arguments; tokens as
    /// `wire::message_tokens` counts them (a replayed run's when asked,
    /// beside its trace: `tokens::Counts`).
    pub fn append(&mut self, message: Message) {
        let message = self.measure(message);
        if let Some(id) = &message.call_id {
            self.unanswered.retain(|open| open != id);
        }
        self.unanswered.extend(message.calls.iter().cloned());
        self.messages_size += message.size;
        self.messages_tokens += message.tokens;
        self.trace.messages.push(message);
    }

    /// The message with its sizes filled in (for a copy the host writes
    /// into a compacted list too, which is not appended here).
    pub fn measured(&self, message: Message) -> Message {
        self.measure(message)
    }

    /// The message with its sizes (a replayed run's tokens stay 0: they
    /// are counted when asked, and opening a long run counts nothing).
    fn measure(&self, mut message: Message) -> Message {
        let calls: Vec<&ToolCall> = message
            .calls
            .iter()
            .filter_map(|id| self.call(id))
            .collect();
        if !self.trace.is_replayed() {
            message.tokens = wire::message_tokens(&message, &calls);
        }
        message.size = message.text.chars().count()
            + message.reasoning.as_ref().map_or(0, |r| r.chars().count())
            + message.call_id.as_ref().map_or(0, |id| id.0.len())
            + calls
                .iter()
                .map(|call| call.id.0.len() + call.tool.len() + call.args_text().chars().count())
                .sum::<usize>();
        message
    }

    /// The host sends the messages held to the model: model call number
    /// N, and its step. `body`: the request a real run's file records,
    /// shown instead of the body rebuilt here.
    pub fn model_call(&mut self, body: Option<crate::trace::RecordedBody>) -> u32 {
        let number = self.trace.model_calls.len() as u32 + 1;
        self.counters.model_calls = number;
        self.counters.http_requests += 1;
        self.trace.model_calls.push(ModelCall {
            number,
            step: self.next_step(),
            context_len: self.trace.messages.len(),
            // Placed exactly once the run ends (`wire::measure`).
            context_size: 0,
            tools_size: 0,
            context_tokens: self.messages_tokens + self.fixed_tokens,
            tokens: None,
            context_start: self.held_from,
            body,
            cut_off: false,
            tool_choice: None,
            reasoning: None,
        });
        self.step(
            StepKind::ModelCall { number },
            Some(Lane::Host),
            Lane::Model,
        );
        number
    }

    /// The latest model call's reply: the tokens it generated, and whether
    /// it stopped at the output limit.
    pub fn reply_tokens(&mut self, tokens: Option<usize>, cut_off: bool) {
        if let Some(last) = self.trace.model_calls.last_mut() {
            last.tokens = tokens;
            last.cut_off = cut_off;
        }
    }

    /// A call the model proposed; it answers to its id from now on.
    pub fn propose(&mut self, call: ToolCall) -> CallId {
        let id = call.id.clone();
        // Two ids with one hash count as reused: `first_call` then walks.
        if let Some(_reused) = self.call_index.insert(id_key(&id), self.trace.calls.len()) {
            self.trace.unique_ids = false;
        }
        self.trace.calls.push(call);
        id
    }

    /// Where the latest call with this id is in `trace.calls`.
    pub fn index_of(&self, id: &CallId) -> Option<usize> {
        let at = *self.call_index.get(&id_key(id))?;
        match self.trace.calls.get(at).is_some_and(|c| &c.id == id) {
            true => Some(at),
            // Another id with the same hash took its key.
            false => self.trace.calls.iter().rposition(|c| &c.id == id),
        }
    }

    pub fn call(&self, id: &CallId) -> Option<&ToolCall> {
        self.index_of(id).map(|i| &self.trace.calls[i])
    }

    /// A call's result, arrived at `step` and attached under `paired_to`
    /// (the call's own id, unless the harness pairs wrongly); appended to
    /// the messages unless the harness drops it.
    pub fn answer(
        &mut self,
        index: usize,
        paired_to: CallId,
        result: ToolResult,
        step: usize,
        appended: bool,
    ) {
        let message = self.answer_held(index, paired_to, result, step);
        self.trace.calls[index].appended = appended;
        if appended {
            self.append(message);
        }
    }

    /// `answer`, with the result's message handed back to be appended
    /// later (a host that appends one reply's results in call order holds
    /// each until the last has arrived).
    pub fn answer_held(
        &mut self,
        index: usize,
        paired_to: CallId,
        result: ToolResult,
        step: usize,
    ) -> Message {
        let call = &mut self.trace.calls[index];
        call.finished = Some(step);
        call.paired_to = Some(paired_to.clone());
        call.appended = true;
        call.result = Some(result.clone());
        let mut message = self.message(Role::Tool, result.text);
        message.step = step;
        message.call_id = Some(paired_to);
        message.is_error = result.is_error;
        message.canonical = result.canonical;
        message.said = result.said;
        message
    }

    /// Calls proposed whose result the messages do not hold yet.
    pub fn unanswered(&self) -> &[CallId] {
        &self.unanswered
    }

    /// The run ends as `end`, said at its last step.
    pub fn end(&mut self, end: EndStatus) {
        if let Some(last) = self.trace.steps.last_mut() {
            last.end = Some(end);
        }
        self.trace.end = end;
    }

    /// The trace, with every message placed in its provider's requests
    /// and each model call's body measured.
    pub fn finish(self) -> Trace {
        self.finish_after(None, None)
    }

    /// `finish`, where `earlier` is this run built before, from fewer of
    /// its lines (a tap's live view, built again as calls come), with
    /// what measuring it read (`Measured`, made again here for the next):
    /// the messages sized alike there keep their places, and only the
    /// others are written out to be measured; the chunks of model calls
    /// measured there by their bodies alone are not read; the steps `like`
    /// holds (a build before's run) are read only where their calls
    /// measure otherwise. The same places and sizes either way.
    pub fn finish_after(
        mut self,
        earlier: Option<(&Trace, &mut Measured)>,
        like: Option<Like>,
    ) -> Trace {
        let measures = match earlier {
            Some((earlier, measured)) => {
                let kept = sized_alike(&self.trace, earlier, &mut measured.walked);
                // Placed as before up to `kept`, measured again after.
                self.trace.places = earlier.places.clone();
                let before = (&earlier.model_calls, &measured.bodied[..]);
                let changed = wire::Changed::After(kept);
                let measures = wire::measure_after(&self.trace, Some(changed), Some(before));
                measured.bodied.clone_from(&measures.bodied);
                measured.placed_alike = measures.placed_as_held;
                measures
            }
            None => wire::measure(&self.trace, None),
        };
        self.trace.set_measures_like(measures, like);
        self.trace
    }
}

/// A call id's key in `Recorder::call_index`.
fn id_key(id: &CallId) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0).hash_one(&*id.0)
}

/// What measuring a run read, for the next build of it
/// (`Recorder::finish_after`): per chunk of its messages, what sizing them
/// walked (`Walked`); per chunk of its model calls, whether each has its
/// recorded body (`Measures::bodied`); how many first messages it placed
/// as before.
#[derive(Debug, Clone, Default)]
pub struct Measured {
    walked: Vec<Walked>,
    bodied: Vec<bool>,
    /// How many first messages the latest measure placed as the trace
    /// before had them (copied, not read).
    pub placed_alike: usize,
}

/// What `sized_alike` read in one chunk of a trace's messages (`CHUNK`),
/// taken whole by the next build that holds the very chunk after the very
/// chunks before it, and the calls and model calls it read alike (a long
/// run has thousands of messages): the furthest call and model call any
/// of its messages needs, and the counts it stood at after.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Walked {
    reach: usize,
    before: usize,
    proposed: usize,
    called: usize,
    last_step: usize,
}

/// How many of `trace`'s first messages `wire::measure` sizes as it sized
/// them in `earlier`: the messages are equal, and so is all their sizes
/// read besides (the API, the run's name, its reasoning setting, whether it
/// was recorded, the calls proposed up to each, found by id as
/// `Trace::call` finds them, and the model calls before each). `walked`:
/// what this read in `earlier`'s chunks of messages; what it read in
/// `trace`'s is left there.
pub(crate) fn sized_alike(trace: &Trace, earlier: &Trace, walked: &mut Vec<Walked>) -> usize {
    let same_run = trace.provider == earlier.provider
        && trace.scenario == earlier.scenario
        && trace.thinking == earlier.thinking
        && trace.recorded.is_some() == earlier.recorded.is_some();
    let (calls, model_calls, alike) = match same_run {
        true => (
            trace.calls.alike(&earlier.calls, |a, b| a == b),
            trace.model_calls.alike(&earlier.model_calls, |a, b| {
                Arc::ptr_eq(a, b) || a.step == b.step
            }),
            trace.messages.alike(&earlier.messages, |a, b| a == b),
        ),
        false => (0, 0, 0),
    };
    let upto = alike.min(earlier.places.len());
    let was = std::mem::take(walked);
    let (mut kept, mut stopped, mut taken) = (0, false, true);
    let mut at = Walked::default();
    for (k, chunk) in trace.messages.chunks().enumerate() {
        let first = k * crate::shared::CHUNK;
        // Read as before: the same messages, from where it stood before,
        // needing only calls and model calls that are alike (the last
        // each read is one it needs: below what is alike).
        let same = taken
            && earlier
                .messages
                .chunk(k)
                .is_some_and(|c| Arc::ptr_eq(c, chunk))
            && was
                .get(k)
                .is_some_and(|w| w.reach < calls && w.before < model_calls);
        taken = same;
        if same {
            at = was[k];
            let inside = chunk.len().min(upto.saturating_sub(first));
            if !stopped {
                kept += inside;
                stopped = inside < chunk.len();
            }
            walked.push(at);
            continue;
        }
        (at.reach, at.before) = (0, 0);
        for (i, m) in (first..).zip(chunk.iter()) {
            let (reach, before) = walk(trace, m, &mut at);
            (at.reach, at.before) = (at.reach.max(reach), at.before.max(before));
            if !stopped && (i >= upto || reach > calls || before > model_calls) {
                stopped = true;
            }
            kept += usize::from(!stopped);
        }
        walked.push(at);
    }
    debug_assert!(
        was.is_empty() || kept == sized_alike(trace, earlier, &mut Vec::new()),
        "the chunks taken whole read otherwise"
    );
    kept
}

/// The calls proposed up to message `m`'s step, and the model calls
/// before it, counted on from `at` as the steps grow (the messages are in
/// step order), not searched for at each (a long run has thousands): the
/// furthest call `m` needs (its first with an id it names is among those
/// proposed, or it is `call_N`, the N-th) and the model calls before it.
fn walk(trace: &Trace, m: &crate::trace::Message, at: &mut Walked) -> (usize, usize) {
    if m.step < at.last_step {
        (at.proposed, at.called) = (0, 0);
    }
    at.last_step = m.step;
    while trace
        .calls
        .get(at.proposed)
        .is_some_and(|c| c.proposed <= m.step)
    {
        at.proposed += 1;
    }
    while trace
        .model_calls
        .get(at.called)
        .is_some_and(|mc| mc.step < m.step)
    {
        at.called += 1;
    }
    let numbered = m.calls.iter().filter_map(|id| {
        id.0.strip_prefix("call_")
            .and_then(|n| n.parse::<usize>().ok())
    });
    let reach = numbered.chain([at.proposed]).max().unwrap_or(0);
    (reach, at.called)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ids may share a hash in the index: each is still found as the
    /// latest call with it, and an id never proposed is not found.
    #[test]
    fn a_call_is_found_by_its_own_id_when_another_takes_its_key() {
        let lesson = crate::load::load(crate::load::DEFAULT_SCENARIO).unwrap();
        let mut trace = lesson.traces[0].clone();
        trace.calls = Default::default();
        let mut rec = Recorder::new(trace);
        let call =
            |id: &str| ToolCall::proposed(CallId(id.into()), "read".into(), Vec::new(), 1, 0);
        for id in ["a", "b", "a"] {
            rec.propose(call(id));
        }
        let id = |s: &str| CallId(s.into());
        assert_eq!(rec.index_of(&id("a")), Some(2));
        assert_eq!(rec.index_of(&id("b")), Some(1));
        // As if "c" had the hash of "a", and "b" the hash of "c".
        rec.call_index.insert(id_key(&id("c")), 2);
        rec.call_index.insert(id_key(&id("a")), 1);
        assert_eq!(rec.index_of(&id("a")), Some(2));
        assert_eq!(rec.index_of(&id("c")), None);
        assert!(!rec.trace.unique_ids);
    }
}
