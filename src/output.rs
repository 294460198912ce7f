//! How the batch commands print: to a reader that may stop reading
//! (`| head -1`) or a disk that may be full. A closed pipe ends the output
//! quietly with exit code 0, the usual Unix way; any other write error is
//! one line on stderr and exit code 1. Nothing here panics, unlike
//! `println!` ("failed printing to stdout").

use std::fmt::Display;
use std::io::{self, Write};
use std::process::ExitCode;

/// The exit code for bad input (a scenario, a transcript or an argument):
/// the one every command uses, interactive or batch.
pub const EXIT_BAD_INPUT: u8 = 2;

/// Standard output, line-buffered: a reader sees each line as it is
/// printed (export lists each file as soon as it is written).
pub fn stdout() -> io::StdoutLock<'static> {
    io::stdout().lock()
}

/// One line on stdout.
pub fn line(out: &mut impl Write, text: impl Display) -> io::Result<()> {
    writeln!(out, "{text}")
}

/// One line on stderr. If even stderr is closed there is nowhere left to
/// say anything, so a failure is ignored rather than turned into a panic.
pub fn error(text: impl Display) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// Is this the reader having gone away (a closed pipe)?
pub fn reader_gone(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// The exit code of a command from how its output went: `done` (what the
/// command found) if all was written or the reader stopped reading, 1 with
/// a one-line message if the output could not be written. Flushes `out`.
pub fn finish(
    command: &str,
    out: &mut impl Write,
    written: io::Result<()>,
    done: ExitCode,
) -> ExitCode {
    match written.and_then(|()| out.flush()) {
        Ok(()) => done,
        Err(e) if reader_gone(&e) => done,
        Err(e) => {
            error(format_args!(
                "{command}: cannot write the output: {}",
                io_reason(&e)
            ));
            ExitCode::FAILURE
        }
    }
}

/// The OS's reason without Rust's " (os error 28)" suffix.
pub fn io_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
