//! A run's timelines: what the step keys, the lanes and the counters look
//! up at any step without a walk over the whole run.

use std::sync::{Arc, Weak};

use crate::load::Loaded;
use crate::scenario::Lang;
use crate::trace::Timeline;

/// A run's `Timeline` in each language, and the run they index.
#[derive(Debug, Clone, Default)]
pub struct Timelines {
    of: Weak<Loaded>,
    by_lang: [Timeline; Lang::COUNT],
    /// The pseudo-locale's, where the run was told in it.
    pseudo: Option<Timeline>,
}

impl Timelines {
    pub fn of(loaded: &Arc<Loaded>) -> Timelines {
        Timelines::grown(Timelines::default(), loaded)
    }

    /// `loaded`'s timelines, made from `before`, another run's (a live
    /// run's build before): `Timeline::grown`.
    pub fn grown(before: Timelines, loaded: &Arc<Loaded>) -> Timelines {
        let mut by_lang = before.by_lang;
        for (timeline, lang) in by_lang.iter_mut().zip(Lang::ALL) {
            *timeline = Timeline::grown(std::mem::take(timeline), loaded.trace(lang));
        }
        let pseudo = before.pseudo.unwrap_or_default();
        Timelines {
            of: Arc::downgrade(loaded),
            by_lang,
            pseudo: (loaded.pseudo.as_deref()).map(|trace| Timeline::grown(pseudo, trace)),
        }
    }

    /// The timeline of `loaded` in `lang`, if these are that run's.
    pub fn of_run(&self, loaded: &Arc<Loaded>, lang: Lang) -> Option<&Timeline> {
        if !Weak::ptr_eq(&self.of, &Arc::downgrade(loaded)) {
            return None;
        }
        match lang.is_written() {
            true => Some(&self.by_lang[lang.index()]),
            false => self.pseudo.as_ref(),
        }
    }
}
