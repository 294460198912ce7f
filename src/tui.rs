//! The event loop: the only place that touches the real terminal.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyEventKind};

use crate::app::{self, Action, App};
use crate::batch::EXIT_BAD_INPUT;
use crate::cli::{Cli, ThemeArg};
use crate::keymap;
use crate::load::{self, DEFAULT_SCENARIO};
use crate::theme::Theme;
use crate::view;

pub fn main(cli: &Cli) -> ExitCode {
    // A bad scenario is refused before the terminal is touched.
    let name = cli.scenario.as_deref().unwrap_or(DEFAULT_SCENARIO);
    let loaded = match &cli.transcript {
        Some(file) => crate::transcript::load(file, cli.transcript_format, cli.redact),
        None => load::load(name),
    };
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let name = match &cli.transcript {
        Some(file) => format!("--transcript {file}"),
        None => name.to_string(),
    };
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        eprintln!(
            "agent-loop-sim: the interactive simulator needs a terminal, and this is not one.\n\
             For scripts and files, use `agent-loop-sim export --format txt --out DIR` \
             or `agent-loop-sim trace {name}`."
        );
        return ExitCode::FAILURE;
    }
    let app = App::new(loaded, cli.lang.into(), theme_for(cli.theme));

    install_panic_message();
    let mut terminal = ratatui::init();
    restore_on_signals();
    let result = run(&mut terminal, app);
    restore();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agent-loop-sim: terminal error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--theme`, and `NO_COLOR` (https://no-color.org) wins over both.
pub fn theme_for(arg: ThemeArg) -> Theme {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    match (no_color, arg) {
        (true, _) => Theme::PLAIN,
        (false, ThemeArg::Dark) => Theme::DARK,
        (false, ThemeArg::Light) => Theme::LIGHT,
    }
}

/// Set to `1`, the simulator panics right after its first draw: the
/// end-to-end test (tests/pty.rs) checks that the panic message is short
/// and the terminal is given back as it was. Not for users.
pub const PANIC_TEST_VAR: &str = "AGENT_LOOP_SIM_PANIC_TEST";

fn run(terminal: &mut DefaultTerminal, mut app: App) -> io::Result<()> {
    let size = terminal.size()?;
    app::update(&mut app, Action::Resize(size.width, size.height));
    let mut next_tick: Option<Instant> = None;
    let mut dirty = true;
    let panic_test = std::env::var_os(PANIC_TEST_VAR).is_some_and(|v| v == "1");
    loop {
        if dirty {
            let mut limits = view::Limits::default();
            terminal.draw(|frame| limits = view::render(&app, frame.area(), frame.buffer_mut()))?;
            // A screen of another shape may leave a panel scrolled past its
            // end: clamp, and draw again only then.
            let scrolled = (app.scroll, app.overlay_scroll);
            app::update(&mut app, Action::Drawn(limits));
            dirty = scrolled != (app.scroll, app.overlay_scroll);
            if panic_test {
                panic!("{PANIC_TEST_VAR}=1 asked for this panic");
            }
        }
        if app.quit {
            return Ok(());
        }
        // Paused: block until something happens, so an idle screen costs
        // nothing. Playing: wait at most until the next step is due.
        let event = if app.playing {
            let due = *next_tick.get_or_insert_with(|| {
                Instant::now() + Duration::from_millis(u64::from(app.dwell_ms))
            });
            let wait = due.saturating_duration_since(Instant::now());
            if event::poll(wait)? {
                Some(event::read()?)
            } else {
                None
            }
        } else {
            next_tick = None;
            Some(event::read()?)
        };
        let action = match event {
            None => Some(Action::Tick),
            // Some terminals also report releases; act on presses only.
            Some(Event::Key(key)) if key.kind == KeyEventKind::Press => keymap::action_for(&key),
            Some(Event::Resize(w, h)) => Some(Action::Resize(w, h)),
            _ => None,
        };
        if let Some(action) = action {
            let before = (app.step, app.playing);
            app::update(&mut app, action);
            if (app.step, app.playing) != before || action == Action::Tick {
                next_tick = None;
            }
            dirty = true;
        }
    }
}

/// A short message instead of a backtrace. ratatui's own hook, installed by
/// `ratatui::init` after this one, restores the terminal and then calls it.
fn install_panic_message() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map_or(String::new(), |l| format!(" ({}:{})", l.file(), l.line()));
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown error".to_string());
        eprintln!(
            "agent-loop-sim stopped on an internal error: {what}{place}.\n\
             The terminal has been restored. Please report this as an issue of the \
             agent-loop-sim project, with the scenario and the keys you pressed."
        );
    }));
}

/// `ratatui::restore` leaves raw mode and the alternate screen but not the
/// hidden cursor, which only dropping the terminal shows again; an exit on
/// a signal never drops it.
fn restore() {
    ratatui::restore();
    let _ = ratatui::crossterm::execute!(io::stdout(), ratatui::crossterm::cursor::Show);
}

/// SIGTERM, SIGHUP, SIGINT, SIGQUIT: leave the terminal as we found it.
fn restore_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])
    else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            restore();
            std::process::exit(128 + signal);
        }
    });
}
