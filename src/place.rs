//! Where a message sits in its provider's request, as the trace keeps it.

/// Where one message of the trace sits in its provider's request list
/// (`messages`, or `input` for Responses), and what it adds to the body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    /// The 1-based number of its first item in the list (a Chat system
    /// message is number 1).
    pub number: u32,
    /// How many items of the list it makes: a Responses reply makes one per
    /// call (and one for its text); 0 when it joins the item before it (an
    /// Anthropic `tool_result` in the user message that carries the others).
    pub items: u32,
    /// Bytes it adds to the body, not counting the comma before its first item.
    pub bytes: usize,
}

impl Place {
    /// Does it continue the item before it (Anthropic: one more block in the
    /// same user message)?
    pub fn joins(&self) -> bool {
        self.items == 0
    }
}

/// What a run's requests measure (`wire::measure`): where each message
/// sits, and each model call's body. Set into the trace once, when the run
/// is recorded (`Trace::set_measures`).
#[derive(Debug, Clone, Default)]
pub struct Measures {
    pub places: imbl::Vector<Place>,
    /// Each model call measured, by its index, in order; one left out
    /// measures as the trace holds it (`wire::measure_after`: a long
    /// run's build measures its newest calls alone).
    pub calls: Vec<(usize, CallMeasure)>,
    /// How many first messages are placed as the trace measured held them
    /// (copied, not read: those `changed` left unmarked).
    pub placed_as_held: usize,
    /// Per chunk of model calls (`shared::CHUNK`): each call of it has its
    /// recorded body, which alone sizes it.
    pub bodied: Vec<bool>,
}

/// One model call's request, measured.
#[derive(Debug, Clone, Copy)]
pub struct CallMeasure {
    /// The body's bytes.
    pub context_size: usize,
    /// The bytes of its tool definitions.
    pub tools_size: usize,
    /// Its tokens; `None` for a replayed run, which counts them when asked.
    pub context_tokens: Option<usize>,
}
