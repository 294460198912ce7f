//! How the host plans a compaction (`compact.rs` does it): which of the
//! messages it holds it keeps, replaces by a placeholder, or folds into a
//! summary, on one language's token counts. A file of its own so that the
//! run told in another language (`told.rs`) can plan in that language too
//! and see whether it would plan the same.

use crate::scenario::{CompactPolicy, Lang, Text};
use crate::trace::{HostInsert, Message, Role, Said};
use crate::wire;

use super::run::Words;

/// What the host reads when it plans a compaction: the messages, and the
/// words its placeholders and summary take in the run's language.
pub(super) struct Sight<'m> {
    pub(super) messages: &'m crate::trace::Shared<Message>,
    pub(super) words: Words,
    pub(super) lang: Lang,
    /// Each message's count where the window is counted as before
    /// 2026-12-01 (`count.rs`); None: its o200k tokens.
    pub(super) weights: Option<&'m [usize]>,
}

impl Sight<'_> {
    /// Message `i` as the window counts it.
    fn tokens(&self, i: usize) -> usize {
        self.weights.map_or(self.messages[i].tokens, |w| w[i])
    }

    /// The host's placeholder `text` in place of result `m`, as the
    /// window counts it.
    fn placeholder(&self, m: &Message, text: String) -> usize {
        match self.weights {
            Some(_) => super::count::text(&text, m.call_id.as_ref().map(|id| &*id.0)),
            None => {
                let mut placeholder = m.clone();
                placeholder.text = text.into();
                wire::message_tokens(&placeholder, &[])
            }
        }
    }

    /// The compacted list of the `held` messages that fits `budget`, by
    /// `policy`; None when the policy can remove nothing.
    pub(super) fn plan(
        &self,
        policy: CompactPolicy,
        held: &[usize],
        sent_to: usize,
        budget: usize,
        summary: Option<&Text>,
    ) -> Option<Vec<Item>> {
        match policy {
            CompactPolicy::DropOldestResults => self.plan_drop(held, sent_to, budget),
            CompactPolicy::Summarize => self.plan_summary(held, budget, summary),
        }
    }

    /// Drop the oldest sent results until the messages fit `budget`.
    fn plan_drop(&self, held: &[usize], sent_to: usize, budget: usize) -> Option<Vec<Item>> {
        let messages = self.messages;
        let mut total: usize = held.iter().map(|&i| self.tokens(i)).sum();
        let mut plan: Vec<Item> = held.iter().map(|&i| Item::Keep(i)).collect();
        for item in plan.iter_mut() {
            if total <= budget {
                break;
            }
            let Item::Keep(i) = *item else { continue };
            let m = &messages[i];
            let droppable = m.role == Role::Tool && m.host_insert.is_none() && i < sent_to;
            if !droppable {
                continue;
            }
            let said = Said::Placeholder { tokens: m.tokens };
            let placeholder = self.placeholder(m, (self.words)(&said, self.lang));
            if placeholder >= self.tokens(i) {
                continue;
            }
            total = total - self.tokens(i) + placeholder;
            *item = Item::Placeholder(i);
        }
        plan.iter()
            .any(|item| matches!(item, Item::Placeholder(_)))
            .then_some(plan)
    }

    /// Replace the oldest turns by a summary until the messages fit
    /// `budget`; the messages before the first reply (the task) and the
    /// latest turn stay. An earlier summary is replaced too.
    fn plan_summary(
        &self,
        held: &[usize],
        budget: usize,
        summary: Option<&Text>,
    ) -> Option<Vec<Item>> {
        let messages = self.messages;
        let first_reply = held
            .iter()
            .position(|&i| messages[i].role == Role::Assistant)?;
        let (head, rest) = held.split_at(first_reply);
        let (old_summaries, head): (Vec<usize>, Vec<usize>) = head
            .iter()
            .partition(|&&i| messages[i].host_insert == Some(HostInsert::Summary));
        // Turns: each reply and what follows it up to the next reply.
        let mut turns: Vec<&[usize]> = Vec::new();
        let mut from = 0;
        for k in 1..=rest.len() {
            if k == rest.len() || messages[rest[k]].role == Role::Assistant {
                turns.push(&rest[from..k]);
                from = k;
            }
        }
        let said = Said::Summary(summary.cloned());
        // Room for the summary in any written language, and in this one
        // (the pseudo-locale's is longer than English's).
        let summary_tokens = Lang::ALL
            .iter()
            .chain([&self.lang])
            .map(|&lang| {
                let text = (self.words)(&said, lang);
                match self.weights {
                    Some(_) => super::count::text(&text, None),
                    None => wire::tokens::count(&text) + wire::tokens::PER_MESSAGE,
                }
            })
            .max()
            .unwrap_or(0);
        let tokens = |ids: &[usize]| ids.iter().map(|&i| self.tokens(i)).sum::<usize>();
        let mut gone = old_summaries;
        let mut kept_turns = &turns[..];
        while kept_turns.len() > 1 {
            gone.extend(kept_turns[0].iter().copied());
            kept_turns = &kept_turns[1..];
            let kept: usize = kept_turns.iter().map(|t| tokens(t)).sum();
            if tokens(&head) + summary_tokens + kept <= budget {
                break;
            }
        }
        if kept_turns.len() == turns.len() {
            return None;
        }
        let mut plan: Vec<Item> = head.iter().map(|&i| Item::Keep(i)).collect();
        plan.push(Item::Summary(gone));
        plan.extend(
            kept_turns
                .iter()
                .flat_map(|t| t.iter().map(|&i| Item::Keep(i))),
        );
        Some(plan)
    }
}

/// One message of the compacted list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Item {
    Keep(usize),
    Placeholder(usize),
    /// The summary, standing for these messages.
    Summary(Vec<usize>),
}
