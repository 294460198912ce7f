//! Batch commands: list, check, trace, export. They never touch the terminal.

use std::process::ExitCode;

use crate::cli::Cli;
use crate::load::{self, CATALOG};
use crate::scenario::Lang;
use crate::trace_json;

/// Exit code for bad input (a scenario that cannot be used).
pub const EXIT_BAD_INPUT: u8 = 2;

pub fn list() -> ExitCode {
    for (name, _) in CATALOG {
        match load::load(name) {
            Ok(loaded) => println!("{name:<28} {}", loaded.scenario.title.en),
            Err(e) => println!("{name:<28} (broken: {e})"),
        }
    }
    ExitCode::SUCCESS
}

pub fn check(files: &[String]) -> ExitCode {
    let mut failed = false;
    for file in files {
        match load::load(file) {
            Ok(loaded) => println!("{file}: ok ({} steps)", loaded.trace(Lang::Zh).len()),
            Err(e) => {
                failed = true;
                eprintln!("{e}");
            }
        }
    }
    if failed {
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}

/// `trace NAME|FILE` or `trace --transcript FILE`.
pub fn trace_command(cli: &Cli) -> ExitCode {
    let lang = cli.lang.into();
    match (&cli.transcript, &cli.command) {
        (Some(file), _) => print_trace(
            crate::transcript::load(file, cli.transcript_format, cli.redact),
            lang,
        ),
        (None, Some(crate::cli::Command::Trace { target: Some(t) })) => trace(t, lang),
        _ => {
            eprintln!("trace: expected a scenario (NAME|FILE) or --transcript FILE");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// Print the trace of one scenario as JSON on stdout.
pub fn trace(target: &str, lang: Lang) -> ExitCode {
    print_trace(load::load(target), lang)
}

fn print_trace(loaded: Result<load::Loaded, load::ScenarioError>, lang: Lang) -> ExitCode {
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let stdout = std::io::stdout();
    let out = std::io::BufWriter::new(stdout.lock());
    match trace_json::write(loaded.trace(lang), out) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("trace: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Write every frame as a figure; see `crate::export`.
pub fn export(cli: &Cli) -> ExitCode {
    crate::export::run(cli)
}
