//! `agent-loop-sim tap`: a recording reverse proxy between a real agent
//! (Codex, Claude Code, any SDK client) and its model API (OpenAI Chat
//! Completions, OpenAI Responses, Anthropic Messages).
//!
//! Transparent: each request goes upstream with its body byte for byte
//! and its end-to-end headers as sent, except `Host` (the upstream's) and
//! `Accept-Encoding: identity` (so the recording can read the response),
//! one upstream connection per request. The response comes back as the
//! upstream sends it, each piece written to the agent as soon as it is
//! read: a stream (SSE) is never held back. An upstream error status reaches
//! the agent unchanged; an upstream that closes mid-response or stays silent
//! for ten minutes closes the agent's connection the same way. The HTTP is
//! hyper's (`proxy`): what it refuses, and the limits, are listed there.
//!
//! The recording (`--out FILE`, appended) has one JSON line per model call,
//! written as soon as the call ends:
//!
//! ```text
//! {"provider": "chat"|"responses"|"anthropic",
//!  "request": {…the body as sent…},
//!  "response": {…as received; a stream assembled into the unstreamed object…},
//!  "timing": {"start_ms": …, "first_byte_ms": …, "end_ms": …},   // Unix epoch ms
//!  "status": 200,                  // the upstream's HTTP status, null if none came
//!  "stream": true,                 // only for a streamed (SSE) response
//!  "incomplete": true, "error": "…",  // only for a call that did not end whole
//!  "path": "/v1/responses",        // the request's path as the agent sent it, credentials in its query masked
//!  "side": "count_tokens"|"no_tools"}   // only for a side request
//! ```
//!
//! The first four are the `export --format requests` shape. A side request
//! is one that is not a turn of the agent loop: token counting, or, once a
//! request with tools has been seen, a request without tools (titles,
//! summaries, quota probes). A request with tools to another model is a
//! sub-agent's loop, not a side request: the reader (`transcript::split`)
//! tells conversations apart by their message histories. Headers are
//! never written, so `Authorization`, `x-api-key` and cookies never reach the
//! file; `--redact` masks likely secrets in the bodies as well. Requests that
//! are not model calls (`GET /v1/models`) pass through unrecorded.
//!
//! A tap stopped by a signal writes each call still in flight as incomplete
//! before it exits; a killed one loses only those.

mod assemble;
mod head;
mod live;
mod proxy;
pub mod record;
mod upstream;

use std::fs::{File, OpenOptions};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cli::{Cli, Command};
use crate::output::{self, EXIT_BAD_INPUT};
use record::{GRACE, Recorder, cannot_start, now_ms, stop};
use upstream::Upstream;

/// `agent-loop-sim tap …`.
pub fn run(cli: &Cli) -> ExitCode {
    let Some(Command::Tap {
        upstream,
        listen,
        out,
        no_live,
        head_timeout,
        max_connections,
        command,
    }) = &cli.command
    else {
        return ExitCode::FAILURE;
    };
    let fail = |text: String| {
        output::error(format_args!("tap: {text}"));
        ExitCode::from(EXIT_BAD_INPUT)
    };
    let upstream = match Upstream::parse(upstream) {
        Ok(u) => Arc::new(u),
        Err(e) => return fail(e),
    };
    let addr = match listen_addr(listen.as_deref()) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    if !addr.ip().is_loopback() {
        output::error(format_args!(
            "tap: warning: listening on {addr}, beyond this machine: anyone who can reach it can send requests through the tap (with their own key) and they are recorded"
        ));
    }
    let listener = match TcpListener::bind(addr) {
        Ok(l) => l,
        Err(e) => {
            return fail(format!(
                "cannot listen on {addr}: {}",
                output::io_reason(&e)
            ));
        }
    };
    let local = listener.local_addr().unwrap_or(addr);
    let path = out.clone().unwrap_or_else(default_out);
    let file = match open_out(&path) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let recorder = Arc::new(Recorder::new(file, cli.redact));
    let base = format!("http://{local}");
    {
        let (upstream, recorder) = (upstream.clone(), recorder.clone());
        let limits = proxy::Limits {
            head_timeout: Duration::from_secs(*head_timeout),
            connections: *max_connections as usize,
        };
        std::thread::spawn(move || proxy::accept(listener, upstream, recorder, limits));
    }
    let scheme = if upstream.tls { "https" } else { "http" };
    output::error(format_args!(
        "tap: {base} forwards to {scheme}://{}{}; each model call is appended to {}",
        upstream.authority,
        upstream.base,
        path.display()
    ));
    use std::io::IsTerminal;
    let terminal = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    if command.is_empty() && !no_live && terminal {
        let to = format!("{scheme}://{}{}", upstream.authority, upstream.base);
        return live::serve(cli, &base, &to, &recorder, &path);
    }
    if command.is_empty() {
        output::error(format_args!(
            "tap: point the agent at it:\n  OPENAI_BASE_URL={base}/v1\n  ANTHROPIC_BASE_URL={base}\ntap: Ctrl-C stops it."
        ));
        return wait_for_signal(&recorder);
    }
    if !no_live && terminal {
        return live::run(cli, command, &base, &recorder, &path);
    }
    run_agent(command, &base, &recorder)
}

/// `--listen`: a port alone or an IP address and port; a host name only if
/// it is this machine's loopback.
fn listen_addr(listen: Option<&str>) -> Result<SocketAddr, String> {
    let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let Some(text) = listen else {
        return Ok(SocketAddr::new(loopback, 0));
    };
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(loopback, port));
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let addrs: Vec<SocketAddr> = text
        .to_socket_addrs()
        .map_err(|_| {
            format!(
                "--listen {text:?}: expected a port (8080) or an address and port (127.0.0.1:8080)"
            )
        })?
        .collect();
    match addrs.iter().find(|a| a.ip().is_loopback()) {
        Some(a) if addrs.iter().all(|a| a.ip().is_loopback()) => Ok(*a),
        _ => Err(format!(
            "--listen {text:?} names a host beyond this machine; the tap listens there only when the IP address itself is named (e.g. --listen 0.0.0.0:8080)"
        )),
    }
}

/// `tap-YYYY-MM-DDTHH-MM-SSZ.jsonl` in the current folder.
fn default_out() -> PathBuf {
    let secs = (now_ms() / 1000) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    PathBuf::from(format!(
        "tap-{y:04}-{m:02}-{d:02}T{:02}-{:02}-{:02}Z.jsonl",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    ))
}

fn open_out(path: &Path) -> Result<File, String> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| {
            format!(
                "cannot open {} to record: {}",
                path.display(),
                output::io_reason(&e)
            )
        })
}

/// Without a command: until SIGINT, SIGTERM or SIGHUP.
fn wait_for_signal(recorder: &Recorder) -> ExitCode {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(s) => s,
        Err(e) => {
            output::error(format_args!("tap: cannot watch for signals: {e}"));
            return ExitCode::FAILURE;
        }
    };
    let signal = signals.forever().next().unwrap_or(SIGTERM);
    stop(recorder, "the tap was stopped while the call was in flight");
    ExitCode::from(128u8.wrapping_add(signal as u8))
}

/// With `-- COMMAND`: the agent runs with both base URLs at the tap; the tap
/// ends when it ends, with its exit code. Ctrl-C reaches the agent (the
/// terminal signals the whole group) and the tap lets the agent decide;
/// SIGTERM and SIGHUP are passed on to it.
fn run_agent(command: &[String], base: &str, recorder: &Arc<Recorder>) -> ExitCode {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut child = match std::process::Command::new(&command[0])
        .args(&command[1..])
        .env("OPENAI_BASE_URL", format!("{base}/v1"))
        .env("ANTHROPIC_BASE_URL", base)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return cannot_start(recorder, &command[0], &e),
    };
    let pid = child.id() as libc::pid_t;
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        std::thread::spawn(move || {
            for signal in signals.forever() {
                if signal != SIGINT {
                    // SAFETY: kill(2) with our own child's pid; no memory involved.
                    unsafe { libc::kill(pid, libc::SIGTERM) };
                }
            }
        });
    }
    let status = child.wait();
    let deadline = Instant::now() + GRACE;
    while recorder.in_flight() > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    stop(recorder, "the agent ended while the call was in flight");
    match status {
        Ok(s) => match s.code() {
            Some(code) => ExitCode::from(code.clamp(0, 255) as u8),
            None => {
                use std::os::unix::process::ExitStatusExt;
                ExitCode::from(128u8.wrapping_add(s.signal().unwrap_or(1) as u8))
            }
        },
        Err(e) => {
            output::error(format_args!("tap: cannot wait for the agent: {e}"));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_takes_a_port_or_an_address_and_refuses_a_remote_host_name() {
        assert_eq!(listen_addr(None).unwrap(), "127.0.0.1:0".parse().unwrap());
        assert_eq!(
            listen_addr(Some("8080")).unwrap(),
            "127.0.0.1:8080".parse().unwrap()
        );
        assert_eq!(
            listen_addr(Some("0.0.0.0:9")).unwrap(),
            "0.0.0.0:9".parse().unwrap()
        );
        assert!(
            listen_addr(Some("localhost:8080"))
                .unwrap()
                .ip()
                .is_loopback()
        );
        assert!(listen_addr(Some("not an address")).is_err());
    }

    #[test]
    fn the_default_recording_is_named_by_the_time_in_utc() {
        let name = default_out().display().to_string();
        assert!(
            name.starts_with("tap-20") && name.ends_with("Z.jsonl"),
            "{name}"
        );
        assert_eq!(name.len(), "tap-2026-12-01T09-58-00Z.jsonl".len());
    }
}
