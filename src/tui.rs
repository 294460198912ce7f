//! The event loop: the only place that touches the real terminal. The
//! terminal's whole life is kept here: taking it, the event loop, and the
//! panic hook and signals that restore it; a burst of events (and keys
//! that arrive split) is `burst`'s.

mod burst;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};

use crate::app::{self, Action, App};
use crate::cli::Cli;
use crate::keymap;
use crate::output;
use crate::safe;
use crate::view;
use lean_backend::LeanBackend;

pub fn main(cli: &Cli) -> ExitCode {
    let terminal = io::stdout().is_terminal() && io::stdin().is_terminal();
    // A transcript can take seconds to open: the screen is taken first and
    // shows how far it is, and q or Esc stop it (`loading`). A lesson opens
    // in milliseconds, and a bad one is refused before the terminal is
    // touched.
    if terminal && let Some(file) = &cli.transcript {
        return open_on_screen(cli, file);
    }
    match crate::opening::prepare(cli, None) {
        Ok((app, warnings)) if cli.class => {
            warnings.iter().for_each(output::error);
            class(cli, app)
        }
        Ok((app, warnings)) => {
            warnings.iter().for_each(output::error);
            show(app)
        }
        Err((why, code)) => {
            output::error(why);
            code
        }
    }
}

/// The terminal taken at once, a loading screen on it (the file's name,
/// how far it has been read, then how long the steps have taken to put
/// together) until the first frame, while `prepare` runs on a thread of
/// its own; q, Esc and Ctrl-C stop it at any moment.
fn open_on_screen(cli: &Cli, file: &str) -> ExitCode {
    let mut terminal = match take_screen() {
        Ok(terminal) => terminal,
        Err(e) => return terminal_failed(&e),
    };
    let watch = crate::transcript::Watch::default();
    let name = std::path::Path::new(file)
        .file_name()
        .map_or_else(|| file.to_string(), |n| n.to_string_lossy().into_owned());
    let name = safe::escape(&name).into_owned();
    let prepared = std::thread::scope(|scope| {
        let loading = scope.spawn(|| crate::opening::prepare(cli, Some(&watch)));
        let started = Instant::now();
        while !loading.is_finished() {
            if RESUMED.swap(false, Ordering::SeqCst)
                && let Ok(t) = ratatui::Terminal::new(LeanBackend::new(io::stdout()))
            {
                terminal = t;
            }
            let line = loading_line(watch.stage(), &name, started.elapsed(), cli.lang);
            if let Err(e) = draw_text(&mut terminal, &line) {
                return Err((
                    format!("agent-loop-sim: terminal error: {e}"),
                    ExitCode::FAILURE,
                ));
            }
            let quit = match event::poll(LIVE_LOOK).and_then(|ready| match ready {
                true => event::read().map(Some),
                false => Ok(None),
            }) {
                Ok(Some(Event::Key(key))) if key.kind == KeyEventKind::Press => quits(&key),
                Ok(_) => None,
                Err(e) => {
                    return Err((
                        format!("agent-loop-sim: terminal error: {e}"),
                        ExitCode::FAILURE,
                    ));
                }
            };
            // The loading thread cannot be stopped halfway; the process ends.
            if let Some(code) = quit {
                restore();
                std::process::exit(code);
            }
        }
        loading.join().unwrap_or_else(|_| {
            Err((
                "agent-loop-sim: the transcript could not be opened".into(),
                ExitCode::FAILURE,
            ))
        })
    });
    match prepared {
        Ok((app, warnings)) => {
            let result = run(&mut terminal, app, None, None);
            restore();
            warnings.iter().for_each(output::error);
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    output::error(format_args!("agent-loop-sim: terminal error: {e}"));
                    ExitCode::FAILURE
                }
            }
        }
        Err((why, code)) => {
            restore();
            output::error(why);
            code
        }
    }
}

/// The loading screen's text for a transcript at `stage`: what is
/// being done to `file`, how far, and the keys that stop it.
fn loading_line(
    stage: crate::transcript::Stage,
    file: &str,
    elapsed: std::time::Duration,
    lang: crate::scenario::Lang,
) -> String {
    use crate::transcript::Stage;
    let mb = |bytes: u64| bytes.div_ceil(1 << 20);
    let line = match stage {
        Stage::Starting => crate::i18n::LOADING_OPENING.fill(lang, &[("file", &file)]),
        Stage::Reading { read, len } => crate::i18n::LOADING_TRANSCRIPT.fill(
            lang,
            &[
                ("file", &file),
                ("read", &(read >> 20)),
                ("total", &mb(len)),
                ("percent", &(read * 100 / len.max(1))),
            ],
        ),
        Stage::Building { len } => crate::i18n::LOADING_BUILDING.fill(
            lang,
            &[
                ("file", &file),
                ("total", &mb(len)),
                ("seconds", &elapsed.as_secs()),
            ],
        ),
    };
    format!("{line}\n\n{}", crate::i18n::LOADING_KEYS.get(lang))
}

/// The exit code a key quits the loading screen with: q and Esc 0,
/// Ctrl-C 130 (as the shell reports an interrupt).
fn quits(key: &event::KeyEvent) -> Option<i32> {
    match key.code {
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Some(130),
        KeyCode::Char('q') | KeyCode::Esc => Some(0),
        _ => None,
    }
}

/// A screen of plain text (the loading and waiting screens), wrapped.
fn draw_text(terminal: &mut Screen, text: &str) -> io::Result<()> {
    use ratatui::widgets::{Paragraph, Widget, Wrap};
    let _writing = writing();
    terminal.draw(|frame| {
        let area = frame.area();
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .render(area, frame.buffer_mut());
    })?;
    Ok(())
}

/// `--class`: the room's server opened (a bad address or results file
/// refused first, exit 2), its join panel shown, then the simulator. A
/// room that cannot open says why on the join panel; the lesson runs.
fn class(cli: &Cli, mut app: App) -> ExitCode {
    let listen = crate::class::server::listen_addr(cli.class_addr.as_deref());
    let format = cli
        .class_results
        .as_deref()
        .map(crate::class::results::format_of);
    let listen = match (listen, format.transpose()) {
        (Ok(listen), Ok(_)) => listen,
        (Err(why), _) | (_, Err(why)) => {
            output::error(format_args!("agent-loop-sim: {why}"));
            return ExitCode::from(output::EXIT_BAD_INPUT);
        }
    };
    let room = crate::class::server::open(listen, crate::class::ballots::Bounds::default());
    let join = room.as_ref().map(|r| r.url.clone()).map_err(Clone::clone);
    app.class = Some(crate::class::Class::new(join));
    app.overlay = Some(app::Overlay::Join);
    let mut link = crate::class::Link::new(room.ok(), cli.class_results.clone());
    let code = show_with(app, Some(&mut link));
    match link.failed {
        Some(why) => {
            output::error(format_args!("agent-loop-sim: {}", safe::escape(&why)));
            ExitCode::FAILURE
        }
        None => code,
    }
}

/// The simulator on `app`, in the terminal, until the user quits.
pub(crate) fn show(app: App) -> ExitCode {
    show_with(app, None)
}

fn show_with(app: App, class: Option<&mut crate::class::Link>) -> ExitCode {
    let mut terminal = match take_screen() {
        Ok(terminal) => terminal,
        Err(e) => return terminal_failed(&e),
    };
    let result = run(&mut terminal, app, None, class);
    restore();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            output::error(format_args!("agent-loop-sim: terminal error: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// The live view of a tap (`tap -- COMMAND`): the simulator on `app`,
/// which grows with each update from `feed` until the user quits. A fatal
/// signal restores the terminal, runs `on_signal` (the tap stops its agent
/// and writes the calls in flight), then exits.
pub fn live(
    app: App,
    feed: &Receiver<crate::live::Update>,
    on_signal: Box<dyn Fn() + Send + Sync>,
) -> io::Result<()> {
    on_live_terminal(on_signal, |terminal| run(terminal, app, Some(feed), None))
}

/// The live view of a tap before its first model call: `waiting` (how to
/// point an agent at the tap, or which agent it waits for) on screen until
/// the first run with a step comes, then the run, opened by `open`. `q`,
/// Esc or Ctrl-C on the waiting screen quits, and so does the agent's end.
pub fn live_waiting(
    waiting: &str,
    open: impl FnOnce(Vec<std::sync::Arc<crate::load::Loaded>>) -> App,
    feed: &Receiver<crate::live::Update>,
    on_signal: Box<dyn Fn() + Send + Sync>,
) -> io::Result<()> {
    on_live_terminal(on_signal, |terminal| {
        match wait_for_run(terminal, waiting, feed)? {
            Some(first) => run(terminal, open(first), Some(feed), None),
            None => Ok(()),
        }
    })
}

/// The terminal taken for a tap's live view, with `on_signal` run on a
/// fatal signal; restored after `body`, whatever it returns.
fn on_live_terminal(
    on_signal: Box<dyn Fn() + Send + Sync>,
    body: impl FnOnce(&mut Screen) -> io::Result<()>,
) -> io::Result<()> {
    let _ = ON_FATAL.set(on_signal);
    let mut terminal = take_screen()?;
    let result = body(&mut terminal);
    restore();
    result
}

/// `waiting` drawn (again after a resize or a suspend) until a run with a
/// step comes (`Some`) or the user quits (`None`).
fn wait_for_run(
    terminal: &mut Screen,
    waiting: &str,
    feed: &Receiver<crate::live::Update>,
) -> io::Result<Option<Vec<std::sync::Arc<crate::load::Loaded>>>> {
    let mut dirty = true;
    loop {
        if RESUMED.swap(false, Ordering::SeqCst) {
            *terminal = ratatui::Terminal::new(LeanBackend::new(io::stdout()))?;
            dirty = true;
        }
        if dirty {
            draw_text(terminal, waiting)?;
            dirty = false;
        }
        loop {
            match feed.try_recv() {
                Ok(crate::live::Update::Grown(runs)) if !runs.is_empty() => return Ok(Some(runs)),
                // The agent ended before its first model call.
                Ok(crate::live::Update::Ended(_)) => return Ok(None),
                Ok(_) => {}
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => return Ok(None),
            }
        }
        if !event::poll(LIVE_LOOK)? {
            continue;
        }
        match event::read()? {
            Event::Key(key) if key.kind == KeyEventKind::Press => {
                let ctrl_c =
                    key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
                if ctrl_c || matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) {
                    return Ok(None);
                }
            }
            Event::Resize(..) => dirty = true,
            _ => {}
        }
    }
}

/// How often the live view looks for a grown run while it waits for keys
/// (crossterm cannot be woken from another thread). A look that finds
/// nothing draws nothing.
const LIVE_LOOK: Duration = Duration::from_millis(50);

/// Run before exiting on a fatal signal, after the terminal is restored.
static ON_FATAL: OnceLock<Box<dyn Fn() + Send + Sync>> = OnceLock::new();

pub use crate::opening::theme_for;

/// Set to `1`, the simulator panics right after its first draw: the
/// end-to-end test (tests/pty.rs) checks that the panic message is short
/// and the terminal is given back as it was. Not for users.
pub const PANIC_TEST_VAR: &str = "AGENT_LOOP_SIM_PANIC_TEST";

/// The terminal as the simulator draws on it: ratatui's diff of cells,
/// written by `LeanBackend` (the fewest bytes for the same screen).
type Screen = ratatui::Terminal<LeanBackend<io::Stdout>>;

/// The terminal taken (`take_terminal`), with a short message on a panic
/// and the signals that give it back handled; given back at once if it
/// cannot be taken.
fn take_screen() -> io::Result<Screen> {
    install_panic_message();
    let terminal = take_terminal().inspect_err(|_| restore())?;
    handle_signals();
    Ok(terminal)
}

/// The terminal could not be taken: said, and the program fails.
fn terminal_failed(e: &io::Error) -> ExitCode {
    output::error(format_args!("agent-loop-sim: terminal error: {e}"));
    ExitCode::FAILURE
}

/// What `ratatui::init` does (a panic hook that restores the terminal, raw
/// mode, the alternate screen), with our backend.
fn take_terminal() -> io::Result<Screen> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        hook(info);
    }));
    ratatui::crossterm::terminal::enable_raw_mode()?;
    ratatui::crossterm::execute!(
        io::stdout(),
        ratatui::crossterm::terminal::EnterAlternateScreen
    )?;
    ratatui::Terminal::new(LeanBackend::new(io::stdout()))
}

/// The event loop: draw what changed, wait for something to do, apply it.
fn run(
    terminal: &mut Screen,
    mut app: App,
    feed: Option<&Receiver<crate::live::Update>>,
    mut class: Option<&mut crate::class::Link>,
) -> io::Result<()> {
    let size = terminal.size()?;
    app::update(&mut app, Action::Resize(size.width, size.height));
    let mut next_tick: Option<Instant> = None;
    let mut dirty = true;
    let panic_test = std::env::var_os(PANIC_TEST_VAR).is_some_and(|v| v == "1");
    loop {
        if RESUMED.swap(false, Ordering::SeqCst) {
            // Back from a suspend on a blank screen: a new terminal knows
            // nothing drawn, so it draws every cell. (`Terminal::clear`
            // would ask the terminal where its cursor is and wait.)
            *terminal = ratatui::Terminal::new(LeanBackend::new(io::stdout()))?;
            dirty = true;
        }
        if let Some(feed) = feed {
            // Everything the tap has sent since the last look.
            while let Ok(update) = feed.try_recv() {
                app::grow(&mut app, update);
                dirty = true;
            }
        }
        if let Some(link) = class.as_deref_mut() {
            // The room's counts since the last look, never waited for.
            dirty |= link.pump(&mut app);
            link.publish(&app);
        }
        if dirty {
            let mut limits = crate::action::Limits::default();
            {
                // A signal that gives the terminal back waits for the frame
                // being written, and no frame follows it.
                let _writing = writing();
                terminal
                    .draw(|frame| limits = view::render(&app, frame.area(), frame.buffer_mut()))?;
            }
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
            if let Some(link) = class.as_deref_mut() {
                link.write(&app);
            }
            return Ok(());
        }
        let room = class.as_ref().is_some_and(|l| l.room.is_some());
        let first = match wait(&app, feed.is_some(), class.is_some(), room, &mut next_tick)? {
            Woke::Again => continue,
            Woke::Counted => {
                dirty |= !app.loaded.counts.counting();
                continue;
            }
            Woke::To(first) => first,
        };
        let events = burst::gather(first)?;
        for event in events {
            let action = match event {
                // A search being typed takes the keys it can.
                Some(Event::Key(key)) if app.search.typing && key.kind == KeyEventKind::Press => {
                    keymap::typing_action(&key)
                }
                other => action_for(other, app.mode()),
            };
            if let Some(action) = action {
                let before = (app.step, app.playing);
                app::update(&mut app, action);
                if (app.step, app.playing) != before || action == Action::Tick {
                    next_tick = None;
                }
                dirty = true;
            }
            if app.quit {
                break;
            }
        }
        // Self-study: where the lesson stands, saved as it changes. A file
        // that cannot be written costs the learner only the resuming.
        if app.note_progress()
            && let Some(kept) = &app.study
        {
            let _ = crate::study::write(&kept.path, &kept.study);
        }
    }
}

/// What ended a wait for something to do.
enum Woke {
    /// Nothing yet: the feed and the room are looked at, then it waits again.
    Again,
    /// Nothing yet, while a transcript's tokens are being counted: drawn
    /// again once they all are.
    Counted,
    /// An event, or None: the next step is due.
    To(Option<Event>),
}

/// Waits for the next thing to do. Paused: until something happens, so an
/// idle screen costs nothing; playing: at most until the next step is due
/// (`next_tick`). Live (`feed`) or in a class (`class`, `room`), the feed
/// and the room are looked at now and then meanwhile.
fn wait(
    app: &App,
    feed: bool,
    class: bool,
    room: bool,
    next_tick: &mut Option<Instant>,
) -> io::Result<Woke> {
    if app.playing {
        let due = *next_tick
            .get_or_insert_with(|| Instant::now() + Duration::from_millis(u64::from(app.dwell_ms)));
        let left = due.saturating_duration_since(Instant::now());
        // Live, the feed (or the room) is looked at meanwhile too.
        let look = match feed || class {
            true => left.min(LIVE_LOOK),
            false => left,
        };
        if event::poll(look)? {
            Ok(Woke::To(Some(event::read()?)))
        } else if Instant::now() < due {
            Ok(Woke::Again)
        } else {
            Ok(Woke::To(None))
        }
    } else if (feed && app.live.as_ref().is_some_and(|l| l.running)) || room {
        // Live or a room: keys, or a look at the feed now and then.
        *next_tick = None;
        if !event::poll(LIVE_LOOK)? {
            return Ok(Woke::Again);
        }
        Ok(Woke::To(Some(event::read()?)))
    } else if app.loaded.counts.counting() {
        // A transcript just opened: its tokens are being counted on a
        // thread of their own, and the screen may show `…` for a count
        // not made yet; drawn again once they are all counted.
        *next_tick = None;
        if !event::poll(LIVE_LOOK)? {
            return Ok(Woke::Counted);
        }
        Ok(Woke::To(Some(event::read()?)))
    } else {
        *next_tick = None;
        Ok(Woke::To(Some(event::read()?)))
    }
}

/// What an event asks of the app (`None` from a wait that timed out: the
/// next step is due).
fn action_for(event: Option<Event>, mode: keymap::Mode) -> Option<Action> {
    match event {
        None => Some(Action::Tick),
        // Some terminals also report releases; act on presses only.
        Some(Event::Key(key)) if key.kind == KeyEventKind::Press => {
            if key.code == KeyCode::Char('z') && key.modifiers.contains(KeyModifiers::CONTROL) {
                // Raw mode turns off the terminal's own Ctrl-Z: suspend as
                // the shell would have, through the SIGTSTP handler.
                let _ = signal_hook::low_level::raise(libc::SIGTSTP);
                return None;
            }
            keymap::action_in(&key, mode)
        }
        Some(Event::Resize(w, h)) => Some(Action::Resize(w, h)),
        _ => None,
    }
}

/// A short message instead of a backtrace. The hook `take_terminal`
/// installs after this one restores the terminal and then calls it.
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
        output::error(format_args!(
            "agent-loop-sim stopped on an internal error: {}{place}.\n\
             The terminal has been restored. Please report this as an issue of the \
             agent-loop-sim project, with the scenario and the keys you pressed.",
            safe::escape(&what)
        ));
    }));
}

/// `ratatui::restore` leaves raw mode and the alternate screen but not the
/// hidden cursor, which only dropping the terminal shows again; an exit on
/// a signal never drops it.
fn restore() {
    // Before the alternate screen is left: a frame cut off halfway may
    // have left a scroll region set (see `LeanBackend`'s scrolling).
    let _ = lean_backend::reset_scroll_region(&mut io::stdout());
    // A frame leaves the look of its last cell set (the next frame goes on
    // from it): the shell gets the default one back.
    let _ = io::stdout().write_all(b"\x1b[m");
    ratatui::restore();
    let _ = ratatui::crossterm::execute!(io::stdout(), ratatui::crossterm::cursor::Show);
}

/// Raw mode, the alternate screen and the hidden cursor again after a
/// suspend, then a full redraw. Raw mode is left first: the shell may have
/// changed the terminal while we were stopped, and crossterm would keep a
/// raw mode it believes is still set.
fn retake() {
    use ratatui::crossterm::{cursor, execute, terminal};
    let _ = terminal::disable_raw_mode();
    let _ = terminal::enable_raw_mode();
    let _ = execute!(
        io::stdout(),
        terminal::EnterAlternateScreen,
        terminal::Clear(terminal::ClearType::All),
        cursor::Hide
    );
    RESUMED.store(true, Ordering::SeqCst);
    // The event loop may be blocked reading keys. crossterm wakes on a
    // SIGWINCH and reports the size, which may have changed meanwhile too.
    let _ = signal_hook::low_level::raise(libc::SIGWINCH);
}

/// Held by whoever writes to the terminal: the event loop while it draws a
/// frame, the signal thread while it gives the terminal back (and, on a
/// fatal signal, until the exit), so a frame is never drawn after the
/// alternate screen was left.
static WRITING: Mutex<()> = Mutex::new(());

fn writing() -> MutexGuard<'static, ()> {
    WRITING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Set when the terminal has been taken back after a suspend: the event
/// loop clears and draws the whole screen.
static RESUMED: AtomicBool = AtomicBool::new(false);

/// Signals that end the program by default (those a handler can catch and
/// that do not come from a fault in the program itself).
const FATAL: [libc::c_int; 11] = [
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGIO,
];

/// A fatal signal: leave the terminal as we found it, then exit 128+N.
/// SIGTSTP (Ctrl-Z, `kill -TSTP`): give the terminal back and stop;
/// SIGCONT (`fg`): take it back and redraw.
fn handle_signals() {
    let watched = FATAL.iter().copied().chain([libc::SIGTSTP, libc::SIGCONT]);
    let Ok(mut signals) = signal_hook::iterator::Signals::new(watched) else {
        return;
    };
    std::thread::spawn(move || {
        while let Some(signal) = signals.forever().next() {
            let _writing = writing();
            match signal {
                libc::SIGTSTP => {
                    restore();
                    stop_as_by_default(libc::SIGTSTP);
                    retake();
                    // The SIGCONT that woke us asks for what was just done.
                    for pending in signals.pending() {
                        if pending != libc::SIGCONT {
                            on_fatal(pending);
                        }
                    }
                }
                libc::SIGCONT => retake(),
                fatal => on_fatal(fatal),
            }
        }
    });
}

fn on_fatal(signal: libc::c_int) {
    if FATAL.contains(&signal) {
        restore();
        if let Some(hook) = ON_FATAL.get() {
            hook();
        }
        std::process::exit(128 + signal);
    }
}

/// Stop the way `signal` stops a program that does not handle it, so the
/// shell sees an ordinary stopped job. (The kernel ignores it in a process
/// group no shell controls, where nobody could continue us.) Returns once
/// the process is continued.
fn stop_as_by_default(signal: libc::c_int) {
    // SAFETY: sigaction and raise with valid arguments; the handler that
    // signal-hook installed is put back as it was.
    unsafe {
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        let mut ours: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(signal, &default, &mut ours) != 0 {
            return;
        }
        libc::raise(signal);
        libc::sigaction(signal, &ours, std::ptr::null_mut());
    }
}
