//! Batch commands: list, check, trace, export. They never touch the terminal.
//! All of them print through `crate::output`: a closed pipe ends the output
//! quietly, a full disk is one line on stderr, nothing panics.

use std::process::ExitCode;

use crate::cli::Cli;
use crate::load::{self, CATALOG};
use crate::output;
use crate::safe;
use crate::scenario::Lang;
use crate::trace_json::{self, ContextShape};

/// Exit code for bad input (a scenario that cannot be used).
pub use crate::output::EXIT_BAD_INPUT;

pub fn list() -> ExitCode {
    let mut out = output::stdout();
    let written = CATALOG
        .iter()
        .try_for_each(|(name, _)| match load::load(name) {
            Ok(loaded) => output::line(
                &mut out,
                format_args!(
                    "{name:<28} {}",
                    safe::escape(loaded.card.title.get(Lang::En))
                ),
            ),
            Err(e) => output::line(&mut out, format_args!("{name:<28} (broken: {e})")),
        });
    output::finish("list", &mut out, written, ExitCode::SUCCESS)
}

/// `check FILE...`: every fault of every file on stderr, one a line, with
/// its place; "ok" on stdout for each file without errors. Exit 2 when any
/// file has an error; warnings alone pass.
pub fn check(files: &[String]) -> ExitCode {
    let mut out = output::stdout();
    let mut failed = false;
    let written = files.iter().try_for_each(|file| {
        let (loaded, faults) = match load::examine(file) {
            Ok(loaded) => {
                let faults = loaded.faults.clone();
                (Some(loaded), faults)
            }
            Err(faults) => (None, as_scenario(file, faults)),
        };
        for fault in &faults {
            output::error(fault);
        }
        let errors = faults.iter().any(load::Fault::is_error);
        failed |= errors;
        match loaded.filter(|_| !errors) {
            Some(loaded) => {
                let steps = loaded.trace(Lang::Zh).len();
                match faults.len() {
                    0 => output::line(
                        &mut out,
                        format_args!("{}: ok ({steps} steps)", safe::escape(file)),
                    ),
                    n => output::line(
                        &mut out,
                        format_args!(
                            "{}: ok ({steps} steps, {n} warning{})",
                            safe::escape(file),
                            if n == 1 { "" } else { "s" }
                        ),
                    ),
                }
            }
            None => Ok(()),
        }
    });
    let found = if failed {
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    };
    output::finish("check", &mut out, written, found)
}

/// A scenario for `trace`, `transcript` and `export`: a file that runs is
/// shown even when it has faults, which are said on stderr; the exit code
/// is then 2 for an error (as `check` says), 0 for warnings alone. A file
/// that cannot run: every fault on stderr, and None.
pub fn load_and_report(
    target: &str,
    provider: Option<crate::wire::Provider>,
) -> Option<(load::Loaded, ExitCode)> {
    match load::examine_as(target, provider) {
        Ok(loaded) => {
            for fault in &loaded.faults {
                output::error(fault);
            }
            let code = if loaded.has_errors() {
                ExitCode::from(EXIT_BAD_INPUT)
            } else {
                ExitCode::SUCCESS
            };
            Some((loaded, code))
        }
        Err(faults) => {
            for fault in &as_scenario(target, faults) {
                output::error(fault);
            }
            None
        }
    }
}

/// The faults of a file that cannot run as a scenario; for a transcript
/// given as one, the one error that says how to open it.
fn as_scenario(file: &str, faults: Vec<load::Fault>) -> Vec<load::Fault> {
    match crate::transcript::given_as_scenario(file) {
        Some(error) => vec![load::Fault {
            severity: load::Severity::Error,
            error,
        }],
        None => faults,
    }
}

/// `trace NAME|FILE` or `trace --transcript FILE`.
pub fn trace_command(cli: &Cli) -> ExitCode {
    let lang = cli.lang;
    let Some(crate::cli::Command::Trace {
        target,
        full_context,
    }) = &cli.command
    else {
        return ExitCode::from(EXIT_BAD_INPUT);
    };
    let shape = ContextShape::from(*full_context);
    match (&cli.transcript, target) {
        (Some(file), _) => print_trace(
            crate::transcript::load(file, cli.transcript_format, cli.redact),
            lang,
            shape,
            ExitCode::SUCCESS,
        ),
        (None, Some(t)) => trace(t, cli.provider, lang, shape),
        (None, None) => {
            output::error("trace: expected a scenario (NAME|FILE) or --transcript FILE");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// Print the trace of one scenario as JSON on stdout.
pub fn trace(
    target: &str,
    provider: Option<crate::wire::Provider>,
    lang: Lang,
    shape: ContextShape,
) -> ExitCode {
    match load_and_report(target, provider) {
        Some((loaded, code)) => print_trace(Ok(loaded), lang, shape, code),
        None => ExitCode::from(EXIT_BAD_INPUT),
    }
}

fn print_trace(
    loaded: Result<load::Loaded, load::ScenarioError>,
    lang: Lang,
    shape: ContextShape,
    done: ExitCode,
) -> ExitCode {
    let loaded = match loaded.and_then(|l| load::shown_in(l, lang)) {
        Ok(loaded) => loaded,
        Err(e) => {
            output::error(e);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut out = std::io::BufWriter::new(output::stdout());
    let sub = loaded.sub_agent.as_ref().map(|s| s.trace(lang));
    let written = trace_json::write_with_sub_agent(loaded.trace(lang), sub, shape, &mut out);
    output::finish("trace", &mut out, written, done)
}

/// `transcript NAME|FILE` (or `transcript --transcript FILE`): the run as
/// plain text.
pub fn plain(cli: &Cli) -> ExitCode {
    let lang = cli.lang;
    let shape = match &cli.command {
        Some(crate::cli::Command::Transcript { full_context, .. }) => {
            ContextShape::from(*full_context)
        }
        _ => ContextShape::Linear,
    };
    let (loaded, done) = match (&cli.transcript, &cli.command) {
        (Some(file), _) => (
            crate::transcript::load(file, cli.transcript_format, cli.redact),
            ExitCode::SUCCESS,
        ),
        (
            None,
            Some(crate::cli::Command::Transcript {
                target: Some(t), ..
            }),
        ) => match load_and_report(t, cli.provider) {
            Some((loaded, done)) => (Ok(loaded), done),
            None => return ExitCode::from(EXIT_BAD_INPUT),
        },
        _ => {
            output::error("transcript: expected a scenario (NAME|FILE) or --transcript FILE");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let steps = cli.quiz_steps.as_deref();
    let loaded = match loaded
        .and_then(|l| load::quiz_steps_from(l, steps))
        .and_then(|l| load::shown_in(l, lang))
    {
        Ok(loaded) => loaded,
        Err(e) => {
            output::error(e);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut out = std::io::BufWriter::new(output::stdout());
    let quiz = cli.quiz.then_some(&loaded);
    let written = crate::plain::write_with_quiz(loaded.trace(lang), shape, quiz, &mut out)
        .and_then(|()| match &loaded.sub_agent {
            // A sub-agent's own loop follows, said to be its own.
            Some(sub) => {
                crate::plain::write_sub_agent(loaded.trace(lang), sub.trace(lang), shape, &mut out)
            }
            None => Ok(()),
        });
    output::finish("transcript", &mut out, written, done)
}
