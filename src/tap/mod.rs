//! `agent-loop-sim tap`: a recording reverse proxy between a real agent
//! (Codex, Claude Code, any SDK client) and its model API (OpenAI Chat
//! Completions, OpenAI Responses, Anthropic Messages).
//!
//! Transparent: each request goes upstream with its body byte for byte
//! and its headers as sent, except `Host` (the upstream's), `Accept-Encoding:
//! identity` (so the recording can read the response) and `Connection:
//! close` (one upstream connection per request). The response comes back as
//! the upstream sends it, each piece written to the agent as soon as it is
//! read: a stream (SSE) is never held back. An upstream error status reaches
//! the agent unchanged; an upstream that closes mid-response or stays silent
//! for ten minutes closes the agent's connection the same way.
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
//!  "path": "/v1/responses",        // the request's path as the agent sent it
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

mod http;
mod live;
mod record;
mod upstream;

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cli::{Cli, Command};
use crate::output::{self, EXIT_BAD_INPUT};
use http::{Framing, read_head, write_head};
use record::{Call, GRACE, Recorder, cannot_start, classify, now_ms, stop};
use upstream::Upstream;

/// `agent-loop-sim tap …`.
pub fn run(cli: &Cli) -> ExitCode {
    let Some(Command::Tap {
        upstream,
        listen,
        out,
        no_live,
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
        std::thread::spawn(move || accept(listener, upstream, recorder));
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

fn accept(listener: TcpListener, upstream: Arc<Upstream>, recorder: Arc<Recorder>) {
    for client in listener.incoming() {
        let Ok(client) = client else { continue };
        let (upstream, recorder) = (upstream.clone(), recorder.clone());
        std::thread::spawn(move || serve(client, &upstream, &recorder));
    }
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

/// One connection from the agent: its requests, one after another.
fn serve(client: TcpStream, upstream: &Upstream, recorder: &Recorder) {
    let _ = client.set_nodelay(true);
    let Ok(read_half) = client.try_clone() else {
        return;
    };
    let mut reader = BufReader::with_capacity(64 * 1024, read_half);
    let mut writer = client;
    while let Ok(true) = exchange(&mut reader, &mut writer, upstream, recorder) {}
    let _ = writer.shutdown(Shutdown::Both);
}

/// A plain error answer from the tap itself (never from the upstream).
fn answer(writer: &mut TcpStream, status: u16, reason: &str, message: &str) {
    let body = serde_json::json!({"error": {"type": "tap_error", "message": message}}).to_string();
    let text = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = writer.write_all(text.as_bytes());
}

/// One request and its response. `Ok(true)`: the connection may carry
/// another request.
fn exchange(
    reader: &mut BufReader<TcpStream>,
    writer: &mut TcpStream,
    upstream: &Upstream,
    recorder: &Recorder,
) -> std::io::Result<bool> {
    let head = match read_head(reader, true) {
        Ok(Some(h)) => h,
        Ok(None) => return Ok(false),
        Err(e) => {
            if e.kind() == std::io::ErrorKind::InvalidData {
                answer(
                    writer,
                    400,
                    "Bad Request",
                    &format!("the tap could not read the request: {e}"),
                );
            }
            return Ok(false);
        }
    };
    let mut framing = match head.request_framing() {
        Ok(f) => f,
        Err(e) => {
            answer(writer, 400, "Bad Request", &e);
            return Ok(false);
        }
    };
    // A client that waits for `100 Continue` before its body (curl does,
    // for large ones) gets it from the tap, which needs the body first.
    let expects = head
        .header("expect")
        .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
    if expects && writer.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").is_err() {
        return Ok(false);
    }
    // The request body, whole (the agent sends it at once); raw for the
    // upstream, decoded for the recording.
    let mut raw = Vec::new();
    let mut content = Vec::new();
    while !framing.done() {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        let used = match framing.feed(buf, &mut content) {
            Ok(n) => n,
            Err(e) => {
                answer(writer, 400, "Bad Request", &e);
                return Ok(false);
            }
        };
        raw.extend_from_slice(&buf[..used]);
        reader.consume(used);
    }
    let start = now_ms();
    let call = classify(&head.method, &head.path).map(|(provider, side)| {
        let encoded = head
            .header("content-encoding")
            .filter(|e| !e.eq_ignore_ascii_case("identity"));
        let request = match encoded {
            Some(e) => Value::String(format!(
                "[a request body in content-encoding {e}, {} bytes: the tap records bodies it can read as sent, and does not decode this one]",
                content.len()
            )),
            None => serde_json::from_slice(&content)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&content).into_owned())),
        };
        let mut call = Call::new(provider, &head.path, request, start);
        call.side = side.map(str::to_string);
        recorder.begin(call)
    });
    drop(content);
    let end = |cut: Option<&str>| {
        if let Some((id, _)) = &call {
            recorder.end(*id, cut);
        }
    };
    let feed = |f: &mut dyn FnMut(&mut Call)| {
        if let Some((_, c)) = &call {
            f(&mut c.lock().unwrap_or_else(|e| e.into_inner()));
        }
    };

    let sent = upstream.connect().and_then(|mut conn| {
        let first = format!("{} {} HTTP/1.1", head.method, upstream.target(&head.path));
        let out = write_head(
            &first,
            &head,
            &[
                ("host", Some(&upstream.authority)),
                ("accept-encoding", Some("identity")),
                ("connection", Some("close")),
                ("keep-alive", None),
                ("expect", None),
            ],
        );
        conn.write_all(&out)?;
        conn.write_all(&raw)?;
        conn.flush()?;
        Ok(conn)
    });
    drop(raw);
    let conn = match sent {
        Ok(c) => c,
        Err(e) => {
            let why = format!(
                "the tap could not send the request upstream: {}",
                output::io_reason(&e)
            );
            answer(writer, 502, "Bad Gateway", &why);
            end(Some(&why));
            return Ok(false);
        }
    };
    let mut from = BufReader::with_capacity(64 * 1024, conn);
    let reply = loop {
        match read_head(&mut from, false) {
            Ok(Some(h)) if (100..200).contains(&h.status) && h.status != 101 => {
                // An interim answer (100 Continue) goes on as it came.
                let first = format!("HTTP/1.1 {} {}", h.status, h.reason);
                if writer.write_all(&write_head(&first, &h, &[])).is_err() {
                    end(Some("the agent closed the connection"));
                    return Ok(false);
                }
            }
            Ok(Some(h)) => break h,
            Ok(None) | Err(_) => {
                let why = "the upstream closed the connection without an answer";
                answer(writer, 502, "Bad Gateway", why);
                end(Some(why));
                return Ok(false);
            }
        }
    };
    let event_stream = reply
        .header("content-type")
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("text/event-stream"));
    feed(&mut |c| c.respond(reply.status, event_stream));
    let mut framing = reply.response_framing(&head.method);
    let close_after = matches!(framing, Framing::Close) || head.wants_close();
    let first = format!("HTTP/1.1 {} {}", reply.status, reply.reason);
    let keep = if close_after { Some("close") } else { None };
    if writer
        .write_all(&write_head(&first, &reply, &[("connection", keep)]))
        .is_err()
    {
        end(Some("the agent closed the connection before the answer"));
        return Ok(false);
    }
    let mut buf = vec![0u8; 64 * 1024];
    let mut content = Vec::new();
    while !framing.done() {
        let n = match from.read(&mut buf) {
            Ok(0) if matches!(framing, Framing::Close) => break,
            Ok(0) => {
                end(Some(
                    "the upstream closed the connection before the response ended",
                ));
                return Ok(false);
            }
            Ok(n) => n,
            Err(e) => {
                let why = if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) {
                    format!(
                        "the upstream sent nothing for {} s",
                        upstream::IDLE.as_secs()
                    )
                } else {
                    format!("the upstream connection failed: {}", output::io_reason(&e))
                };
                end(Some(&why));
                return Ok(false);
            }
        };
        content.clear();
        let used = match framing.feed(&buf[..n], &mut content) {
            Ok(used) => used,
            Err(e) => {
                end(Some(&format!(
                    "the upstream's response framing is broken: {e}"
                )));
                return Ok(false);
            }
        };
        if writer.write_all(&buf[..used]).is_err() {
            end(Some("the agent closed the connection during the response"));
            return Ok(false);
        }
        feed(&mut |c| c.content(&content));
    }
    end(None);
    Ok(!close_after)
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
