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
                format_args!("{name:<28} {}", safe::escape(&loaded.scenario.title.en)),
            ),
            Err(e) => output::line(&mut out, format_args!("{name:<28} (broken: {e})")),
        });
    output::finish("list", &mut out, written, ExitCode::SUCCESS)
}

pub fn check(files: &[String]) -> ExitCode {
    let mut out = output::stdout();
    let mut failed = false;
    let written = files.iter().try_for_each(|file| match load::load(file) {
        Ok(loaded) => output::line(
            &mut out,
            format_args!(
                "{}: ok ({} steps)",
                safe::escape(file),
                loaded.trace(Lang::Zh).len()
            ),
        ),
        Err(e) => {
            failed = true;
            output::error(e);
            Ok(())
        }
    });
    let found = if failed {
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    };
    output::finish("check", &mut out, written, found)
}

/// `trace NAME|FILE` or `trace --transcript FILE`.
pub fn trace_command(cli: &Cli) -> ExitCode {
    let lang = cli.lang.into();
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
        ),
        (None, Some(t)) => trace(t, lang, shape),
        (None, None) => {
            output::error("trace: expected a scenario (NAME|FILE) or --transcript FILE");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// Print the trace of one scenario as JSON on stdout.
pub fn trace(target: &str, lang: Lang, shape: ContextShape) -> ExitCode {
    print_trace(load::load(target), lang, shape)
}

fn print_trace(
    loaded: Result<load::Loaded, load::ScenarioError>,
    lang: Lang,
    shape: ContextShape,
) -> ExitCode {
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            output::error(e);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut out = std::io::BufWriter::new(output::stdout());
    let written = trace_json::write(loaded.trace(lang), shape, &mut out);
    output::finish("trace", &mut out, written, ExitCode::SUCCESS)
}

/// `transcript NAME|FILE` (or `transcript --transcript FILE`): the run as
/// plain text.
pub fn plain(cli: &Cli) -> ExitCode {
    let lang = cli.lang.into();
    let loaded = match (&cli.transcript, &cli.command) {
        (Some(file), _) => crate::transcript::load(file, cli.transcript_format, cli.redact),
        (None, Some(crate::cli::Command::Transcript { target: Some(t) })) => load::load(t),
        _ => {
            output::error("transcript: expected a scenario (NAME|FILE) or --transcript FILE");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            output::error(e);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut out = std::io::BufWriter::new(output::stdout());
    let written = crate::plain::write(loaded.trace(lang), &mut out);
    output::finish("transcript", &mut out, written, ExitCode::SUCCESS)
}
