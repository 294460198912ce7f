//! The live view (`tap -- COMMAND` in a terminal; `tap` alone in a terminal
//! is `serve`, below: no agent, a screen saying where to point one until the
//! first model call): the agent runs with its
//! own output in `FILE.agent.log` beside the recording, and the simulator
//! shows its run as it grows. Each call that begins or ends is handed to a
//! builder thread, which reads the calls so far into one run per
//! conversation (`transcript::growing::live`, the same reading `--transcript FILE`
//! does) and sends them to the event loop, which keeps the view's place.
//! Quitting while the agent runs asks first; yes stops it (SIGTERM to its
//! process group, then SIGKILL after a grace time), and the calls still in
//! flight are written as incomplete.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{ExitCode, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::record::{GRACE, Observed, Recorder, cannot_start, stop};
use crate::app::{self, App};
use crate::cli::Cli;
use crate::live::{Live, Update};
use crate::output::{self, EXIT_BAD_INPUT};

/// How long a stopped agent has to end after SIGTERM before SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(5);

enum Input {
    Call(Observed),
    Ended(Option<i32>),
}

/// The agent's exit status, once it has one.
type Status = Arc<(Mutex<Option<ExitStatus>>, Condvar)>;

/// `FILE.agent.log` for the recording `FILE.jsonl`.
pub fn agent_log(out: &Path) -> PathBuf {
    out.with_extension("agent.log")
}

pub fn run(
    cli: &Cli,
    command: &[String],
    base: &str,
    recorder: &Arc<Recorder>,
    out: &Path,
) -> ExitCode {
    let (to_builder, inputs) = channel::<Input>();
    {
        let tx = to_builder.clone();
        recorder.watch(move |o| {
            let _ = tx.send(Input::Call(o));
        });
    }
    let (to_view, feed) = channel::<Update>();
    let name = out.file_name().map_or_else(
        || out.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let redact = cli.redact;
    // As `--transcript` opens it afterwards, from where the tap was started.
    let recording = out.display().to_string();
    std::thread::spawn(move || build(&inputs, &to_view, &name, redact));

    let log_path = agent_log(out);
    let log = OpenOptions::new().create(true).append(true).open(&log_path);
    let (log, log_err) = match log.and_then(|f| Ok((f.try_clone()?, f))) {
        Ok(pair) => pair,
        Err(e) => {
            output::error(format_args!(
                "tap: cannot open {} for the agent's output: {}",
                log_path.display(),
                output::io_reason(&e)
            ));
            stop(recorder, "the tap stopped");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    // Its own process group: stopping it reaches the tools it started.
    let child = std::process::Command::new(&command[0])
        .args(&command[1..])
        .env("OPENAI_BASE_URL", format!("{base}/v1"))
        .env("ANTHROPIC_BASE_URL", base)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log_err)
        .process_group(0)
        .spawn();
    let child = match child {
        Ok(c) => c,
        Err(e) => return cannot_start(recorder, &command[0], &e),
    };
    let pid = child.id() as libc::pid_t;
    let status = wait_for_agent(child, recorder, to_builder);
    // Before the view opens, a signal stops the agent, and the tap ends with it.
    stop_agent_on_signals(pid);
    // The terminal is taken at once: before the first model call the screen
    // says what it waits for, keys are not echoed, and q quits.
    let log_file = crate::safe::escape(&log_path.display().to_string()).into_owned();
    let file = crate::safe::escape(&recording).into_owned();
    let agent = crate::safe::escape(&command.join(" ")).into_owned();
    let waiting = crate::i18n::TAP_AGENT_WAITING.fill(
        cli.lang,
        &[
            ("agent", &agent),
            ("base", &base),
            ("file", &file),
            ("log", &log_file),
        ],
    );
    let on_signal = {
        let (status, recorder) = (status.clone(), recorder.clone());
        Box::new(move || {
            stop_agent(pid, &status);
            stop(
                &recorder,
                "the tap was stopped while the call was in flight",
            );
        })
    };
    let open = |conversations| open_app(cli, conversations, recording, None);
    if let Err(e) = crate::tui::live_waiting(&waiting, open, &feed, on_signal) {
        output::error(format_args!("tap: terminal error: {e}"));
    }
    let stopped = stop_agent(pid, &status);
    if stopped {
        output::error(format_args!("tap: the agent was stopped"));
    }
    stop(recorder, "the agent ended while the call was in flight");
    output::error(format_args!(
        "tap: the agent's own output is in {}",
        log_path.display()
    ));
    let (lock, _) = &*status;
    let status = *lock.lock().unwrap_or_else(|e| e.into_inner());
    match status {
        Some(s) => match s.code() {
            Some(code) => ExitCode::from(code.clamp(0, 255) as u8),
            None => ExitCode::from(128u8.wrapping_add(s.signal().unwrap_or(1) as u8)),
        },
        None => ExitCode::FAILURE,
    }
}

/// The agent's status once it has ended, set by a thread that waits for
/// it, and then a little longer (`GRACE`) for the calls still in flight,
/// before it tells the builder the run ended.
fn wait_for_agent(
    mut child: std::process::Child,
    recorder: &Arc<Recorder>,
    to_builder: Sender<Input>,
) -> Status {
    let status: Status = Arc::new((Mutex::new(None), Condvar::new()));
    let (set, recorder) = (status.clone(), recorder.clone());
    std::thread::spawn(move || {
        let ended = child.wait();
        let deadline = Instant::now() + GRACE;
        while recorder.in_flight() > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let code = ended.as_ref().ok().and_then(ExitStatus::code);
        let (lock, changed) = &*set;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(ended.unwrap_or_else(|_| ExitStatus::from_raw(1 << 8)));
        changed.notify_all();
        let _ = to_builder.send(Input::Ended(code));
    });
    status
}

/// SIGINT, SIGTERM or SIGHUP stop the agent (and so the tap).
fn stop_agent_on_signals(pid: libc::pid_t) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        std::thread::spawn(move || {
            for _ in signals.forever() {
                terminate(pid, libc::SIGTERM);
            }
        });
    }
}

/// The view on the run so far, at its newest step, following it.
fn open_app(
    cli: &Cli,
    conversations: Vec<Arc<crate::load::Loaded>>,
    recording: String,
    serving: Option<String>,
) -> App {
    let mut app = App::new(
        (*conversations[0]).clone(),
        cli.lang,
        crate::tui::theme_for(cli.theme.unwrap_or(crate::cli::ThemeArg::Dark)),
    );
    app.live = Some(Live {
        recording,
        serving,
        ..Live::new(Vec::new())
    });
    app::update(&mut app, app::Action::Last);
    app::grow(&mut app, Update::Grown(conversations));
    app
}

/// A tap without a command, in a terminal: the screen says where to point
/// an agent until the first model call comes, then shows the lanes as
/// they grow. `q` quits at once (no agent of the tap's runs); the calls
/// still in flight are written as incomplete.
pub fn serve(
    cli: &Cli,
    base: &str,
    upstream: &str,
    recorder: &Arc<Recorder>,
    out: &Path,
) -> ExitCode {
    let (to_builder, inputs) = channel::<Input>();
    recorder.watch(move |o| {
        let _ = to_builder.send(Input::Call(o));
    });
    let (to_view, feed) = channel::<Update>();
    let name = out.file_name().map_or_else(
        || out.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let redact = cli.redact;
    std::thread::spawn(move || build(&inputs, &to_view, &name, redact));
    let recording = out.display().to_string();
    let codex = format!(
        "-c model_provider=tap -c 'model_providers.tap={{name=\"tap\",base_url=\"{base}/v1\",wire_api=\"responses\",env_key=\"OPENAI_API_KEY\"}}'"
    );
    let lang = cli.lang;
    let file = crate::safe::escape(&recording).into_owned();
    let waiting = crate::i18n::TAP_WAITING.fill(
        lang,
        &[
            ("base", &base),
            ("upstream", &upstream),
            ("file", &file),
            ("codex", &codex),
        ],
    );
    let why = "the tap was stopped while the call was in flight";
    let on_signal = {
        let recorder = recorder.clone();
        Box::new(move || stop(&recorder, why))
    };
    let serving = Some(base.to_string());
    let open = |conversations| open_app(cli, conversations, recording, serving);
    if let Err(e) = crate::tui::live_waiting(&waiting, open, &feed, on_signal) {
        output::error(format_args!("tap: terminal error: {e}"));
    }
    stop(recorder, why);
    ExitCode::SUCCESS
}

/// The agent's process group gets `signal` (and SIGCONT, so a stopped one
/// can act on it).
fn terminate(pid: libc::pid_t, signal: libc::c_int) {
    // SAFETY: kill(2) on the process group of our own child; no memory involved.
    unsafe {
        libc::kill(-pid, signal);
        libc::kill(-pid, libc::SIGCONT);
    }
}

/// Stop the agent if it still runs: SIGTERM, then SIGKILL if it has not
/// ended within `STOP_GRACE`. True if it was still running.
fn stop_agent(pid: libc::pid_t, status: &Status) -> bool {
    let (lock, changed) = &**status;
    let mut ended = lock.lock().unwrap_or_else(|e| e.into_inner());
    if ended.is_some() {
        return false;
    }
    terminate(pid, libc::SIGTERM);
    let deadline = Instant::now() + STOP_GRACE;
    while ended.is_none() {
        let now = Instant::now();
        if now >= deadline {
            terminate(pid, libc::SIGKILL);
            // The waiter reports it; a killed process ends at once.
            let _ = changed
                .wait_timeout(ended, GRACE + Duration::from_secs(1))
                .unwrap_or_else(|e| e.into_inner());
            return true;
        }
        ended = changed
            .wait_timeout(ended, deadline - now)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
    true
}

/// The builder thread: the calls so far, read into runs after each batch
/// of news, sent to the view. A call that ended is read once, for good, in
/// the order the recording has it (so the view is what `--transcript FILE`
/// shows of the same calls); the calls still running come after, read
/// again at each batch (`transcript::growing::Growing`).
fn build(inputs: &Receiver<Input>, view: &Sender<Update>, name: &str, redact: bool) {
    let mut growing = crate::transcript::growing::Growing::new(name, redact);
    // Shared with the copy each batch reads them on (`Growing::runs`).
    let mut running: BTreeMap<u64, Arc<Value>> = BTreeMap::new();
    while let Ok(first) = inputs.recv() {
        let mut grew = false;
        let mut ended = None;
        for input in std::iter::once(first).chain(inputs.try_iter()) {
            match input {
                Input::Call(o) if o.ended => {
                    match running.remove(&o.id) {
                        // Its request, read as it began, is not read again.
                        Some(was) => growing.push_ended(o.line, was),
                        // Not seen begin (the view watches from the first
                        // call on): its request is the text written.
                        None => {
                            let mut line = o.line;
                            line["request"] =
                                serde_json::from_str(&o.request.text).unwrap_or_default();
                            growing.push(line);
                        }
                    }
                    grew = true;
                }
                Input::Call(o) => {
                    let line = Arc::new(o.line);
                    growing.request_written(&line, o.request);
                    running.insert(o.id, line);
                    grew = true;
                }
                Input::Ended(code) => ended = Some(code),
            }
        }
        if grew {
            let runs = growing
                .runs(running.values().cloned().collect())
                .into_iter()
                .map(Arc::new)
                .collect();
            if view.send(Update::Grown(runs)).is_err() {
                return;
            }
        }
        if let Some(code) = ended
            && view.send(Update::Ended(code)).is_err()
        {
            return;
        }
    }
}
