use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;

use agent_loop_sim::cli::{Cli, Command};
use agent_loop_sim::{batch, export, tap, tui};

// Why not the system allocator: Cargo.toml, beside the dependency.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return command_line_error(e),
    };
    let ignored = cli.ignored_options();
    if !ignored.is_empty() {
        for why in &ignored {
            agent_loop_sim::output::error(format_args!("agent-loop-sim: {why}"));
        }
        return ExitCode::from(agent_loop_sim::output::EXIT_BAD_INPUT);
    }
    // A plan file's lessons come first, as if given by --lesson in order.
    if let Some(plan) = &cli.plan {
        match agent_loop_sim::picker::read_plan(plan) {
            Ok(lessons) => cli.lessons.splice(0..0, lessons).for_each(drop),
            Err(why) => {
                agent_loop_sim::output::error(format_args!("agent-loop-sim: {why}"));
                return ExitCode::from(agent_loop_sim::output::EXIT_BAD_INPUT);
            }
        }
    }
    let prints = !matches!(cli.command, None | Some(Command::Tap { .. }));
    if prints && STDOUT_CLOSED.load(Ordering::Relaxed) {
        agent_loop_sim::output::error(format_args!(
            "agent-loop-sim {}: cannot write the output: standard output is closed",
            cli.command_name()
        ));
        return ExitCode::FAILURE;
    }
    match cli.command {
        None => tui::main(&cli),
        Some(Command::List) => batch::list(),
        Some(Command::Check { ref files }) => batch::check(files),
        Some(Command::Trace { .. }) => batch::trace_command(&cli),
        Some(Command::Transcript { .. }) => batch::plain(&cli),
        Some(Command::Export { .. }) => export::run(&cli),
        Some(Command::Tap { .. }) => tap::run(&cli),
    }
}

/// Help, the version, or a bad command line, as clap writes them; but a
/// help that could not be written (a full disk, /dev/full) fails, where
/// clap's own `exit` says 0.
fn command_line_error(e: clap::Error) -> ExitCode {
    let code = match e.use_stderr() {
        true => ExitCode::from(2),
        false => ExitCode::SUCCESS,
    };
    let written = e
        .print()
        .and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
    match written {
        Ok(()) => code,
        Err(err) => {
            let reason = err.to_string();
            let reason = reason.split(" (os error").next().unwrap_or_default();
            eprintln!("agent-loop-sim: cannot write the output: {reason}");
            ExitCode::FAILURE
        }
    }
}

/// Was descriptor 1 closed when the process started (`>&-`)? Rust's
/// runtime reopens it on /dev/null before `main`, after which every write
/// "succeeds" and a command would end with 0 having printed nothing; so it
/// is looked at by a constructor, which runs before the runtime does.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

extern "C" fn note_closed_stdout() {
    // SAFETY: fcntl(2) F_GETFD on descriptor 1 only reads its flags.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;
