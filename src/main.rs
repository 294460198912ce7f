use std::process::ExitCode;

use clap::Parser;

use agent_loop_sim::cli::{Cli, Command};
use agent_loop_sim::{batch, export, tap, tui};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ignored = cli.ignored_options();
    if !ignored.is_empty() {
        for why in &ignored {
            agent_loop_sim::output::error(format_args!("agent-loop-sim: {why}"));
        }
        return ExitCode::from(agent_loop_sim::output::EXIT_BAD_INPUT);
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
