//! The checks of `provider_errors` (the provider turns a model call's
//! request away; the host sends it again): before the run, that each
//! names a model call once, within the budget, and a wait a host would
//! keep; after it, that the run makes that model call.

use crate::scenario::Scenario;
use crate::trace::Trace;

/// The longest `retry-after` a lesson may ask for, in seconds: the
/// OpenAI and Anthropic SDKs wait out a header only up to a minute
/// (longer, they back off by themselves).
const LONGEST_WAIT: u32 = 60;

/// Faults of `provider_errors` that the file alone shows: JSON path,
/// what was expected.
pub(super) fn check_provider_errors(s: &Scenario) -> Vec<(String, String)> {
    let mut bad = Vec::new();
    for (i, e) in s.provider_errors.iter().enumerate() {
        let at = format!("provider_errors[{i}]");
        if e.model_call == 0 || e.model_call > s.budget {
            bad.push((
                format!("{at}.model_call"),
                format!(
                    "{} is not a model call of the run; expected a number from 1 to the \
                     budget, {}",
                    e.model_call, s.budget
                ),
            ));
        }
        if s.provider_errors[..i]
            .iter()
            .any(|earlier| earlier.model_call == e.model_call)
        {
            bad.push((
                format!("{at}.model_call"),
                format!(
                    "model call #{} is already turned away by an earlier entry; expected each \
                     model call at most once",
                    e.model_call
                ),
            ));
        }
        if e.retry_after == 0 || e.retry_after > LONGEST_WAIT {
            bad.push((
                format!("{at}.retry_after"),
                format!(
                    "{} seconds is not a wait the host keeps; expected 1 to {LONGEST_WAIT}",
                    e.retry_after
                ),
            ));
        }
    }
    bad
}

/// The fault of an entry whose model call the run never makes.
pub(super) fn check_turned_away(s: &Scenario, trace: &Trace) -> Option<(String, String)> {
    let made = trace.model_calls.len() as u32;
    let (i, e) = (s.provider_errors.iter().enumerate()).find(|(_, e)| e.model_call > made)?;
    Some((
        format!("provider_errors[{i}].model_call"),
        format!(
            "the run makes {made} model calls, so model call #{} is never sent; expected the \
             number of a model call the run makes",
            e.model_call
        ),
    ))
}
