//! The checks of `interrupt` (the user stops a running call, then writes
//! again): before the run, that it names a labelled call and says
//! something; after it, that the user really did interrupt.

use crate::scenario::{Lang, Scenario};
use crate::trace::{StepKind, Trace};

use super::wording::quoted;

/// Faults of `interrupt` and `harness.forget_interrupted` that the file
/// alone shows: JSON path, what was expected.
pub(super) fn check_interrupt(s: &Scenario) -> Vec<(String, String)> {
    let mut bad = Vec::new();
    let Some(interrupt) = &s.interrupt else {
        if s.harness.forget_interrupted {
            bad.push((
                "harness.forget_interrupted".into(),
                "there is no \"interrupt\" for the harness to forget; expected an \"interrupt\" \
                 ({\"call\": LABEL, \"message\": …}) beside it"
                    .into(),
            ));
        }
        return bad;
    };
    let labels: Vec<&str> = s
        .model
        .iter()
        .flat_map(|r| &r.calls)
        .filter_map(|c| c.label.as_deref())
        .collect();
    if !labels.contains(&interrupt.call.as_str()) {
        let known = match labels.as_slice() {
            [] => "no call in \"model\" has a \"label\"".to_string(),
            some => format!("the labels are {}", some.join(", ")),
        };
        bad.push((
            "interrupt.call".into(),
            format!(
                "{} is not the label of a call in \"model\" ({known}); expected the \"label\" \
                 of the call the user stops while it runs",
                quoted(&interrupt.call)
            ),
        ));
    }
    for lang in Lang::ALL {
        if interrupt.message.get(lang).trim().is_empty() {
            bad.push((
                format!("interrupt.message.{}", lang.code()),
                "expected what the user writes after stopping the run (a non-empty text)".into(),
            ));
        }
    }
    bad
}

/// The fault of an `interrupt` whose call never runs in the run (it is
/// never proposed, or the host answers it before its tool starts).
pub(super) fn check_interrupted(s: &Scenario, trace: &Trace) -> Option<(String, String)> {
    let interrupt = s.interrupt.as_ref()?;
    let happened = trace
        .steps
        .iter()
        .any(|step| matches!(step.kind, StepKind::Interrupted { .. }));
    (!happened).then(|| {
        (
            "interrupt.call".into(),
            format!(
                "the call labelled {} never runs in the run (it is never proposed, or the host \
                 answers it before its tool starts), so the user never interrupts; expected \
                 the label of a call whose tool runs",
                quoted(&interrupt.call)
            ),
        )
    })
}
