//! What the panels of one run draw from: the run, its step, and how the
//! screen speaks (language, theme, whether it names keys). A panel takes
//! a `Scene` and a width, never the whole app, so it can be drawn and
//! tested alone; the comparison builds one for each of its two runs.

use std::borrow::Cow;

use crate::app::App;
use crate::scenario::Lang;
use crate::theme::Theme;
use crate::tokens::Counts;
use crate::trace::{Timeline, Trace};

#[derive(Debug, Clone)]
pub struct Scene<'a> {
    pub trace: &'a Trace,
    /// Its token counts, where they are made when asked (`Loaded::counts`).
    pub counts: &'a Counts,
    /// The run's index of steps, calls and changes (`App::timeline`).
    pub timeline: Cow<'a, Timeline>,
    /// The step shown (0-based).
    pub step: usize,
    pub lang: Lang,
    pub theme: Theme,
    /// The screen names keys in its hints ("Tab", "f unfolds").
    pub key_hints: bool,
    /// Long context messages shown whole (`f`).
    pub unfold: bool,
    /// Beside another run (`compare`): for each message held, whether it
    /// differs from the other run's at the same place; marked `≠`.
    pub differs: Vec<bool>,
    /// A call of the step started a sub-agent whose run is open (`d`), or
    /// the sub-agent's first step names the call that started it (`u`).
    pub sub_agent: Option<crate::sub_agent::Link>,
    /// The header cuts the step's title: the explanation begins with it
    /// whole.
    pub title_cut: bool,
    /// The reasoning items of the step's model call (`reasoning`), read
    /// from its recorded body when first asked.
    reasoning: std::cell::OnceCell<Vec<crate::wire::Reasoning>>,
}

impl<'a> Scene<'a> {
    /// The app's open run at its step.
    pub fn of(app: &'a App) -> Scene<'a> {
        Scene {
            trace: app.trace(),
            counts: &app.loaded.counts,
            timeline: app.timeline(),
            step: app.step,
            lang: app.lang,
            theme: app.theme,
            key_hints: app.key_hints,
            unfold: app.unfold,
            differs: Vec::new(),
            sub_agent: (app.live.as_ref())
                .and_then(|live| crate::sub_agent::at(live, app.trace(), app.step)),
            title_cut: false,
            reasoning: std::cell::OnceCell::new(),
        }
    }

    /// The reasoning items the step's model call sent, where its request
    /// is recorded (`wire::reasoning_items`): the context list draws them
    /// and numbers the other items past them.
    pub fn reasoning(&self) -> &[crate::wire::Reasoning] {
        self.reasoning.get_or_init(|| {
            self.trace.steps[self.step]
                .model_call
                .map(|i| crate::wire::reasoning_items(self.trace, i))
                .unwrap_or_default()
        })
    }

    /// Their numbers, read from the recorded body without parsing it.
    pub fn reasoning_at(&self) -> &[u32] {
        self.trace.steps[self.step]
            .model_call
            .map_or(&[], |i| crate::wire::reasoning_at(self.trace, i))
    }

    /// Does the context panel (its list of messages) show its newest lines
    /// at the bottom? Not right after the host compacted the context: it
    /// reads from the top then, so the placeholder or summary shows
    /// (`App::anchored_at_end`; the JSON body is drawn by `wire.rs`).
    pub fn context_anchored(&self) -> bool {
        !self.trace.just_compacted(self.step)
    }
}
