//! The tap against hostile HTTP (issue 39): request framing it must not
//! forward (RFC 9112 §6.1, §6.3), targets that are not its upstream's
//! paths, half-sent heads, more connections than it serves. The upstream
//! here is a plain Rust server that keeps every request it receives, so a
//! test can tell that a refused request never reached it.

#[path = "model_server/harness.rs"]
mod harness;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use harness::*;

const ANSWER: &str = r#"{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}"#;

/// An upstream that answers every request with one Chat completion and
/// keeps each request it read (head and body) in `seen`.
struct Upstream {
    url: String,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Upstream {
    fn start() -> Upstream {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = seen.clone();
        std::thread::spawn(move || {
            for s in listener.incoming() {
                let Ok(s) = s else { return };
                let kept = kept.clone();
                std::thread::spawn(move || serve(s, &kept));
            }
        });
        Upstream { url, seen }
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve(s: TcpStream, kept: &Mutex<Vec<String>>) {
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut w = s;
    loop {
        let mut head = String::new();
        let mut length = 0;
        loop {
            let mut line = String::new();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            head.push_str(&line);
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; length];
        if r.read_exact(&mut body).is_err() {
            return;
        }
        kept.lock()
            .unwrap()
            .push(head + &String::from_utf8_lossy(&body));
        let answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{ANSWER}",
            ANSWER.len()
        );
        if w.write_all(answer.as_bytes()).is_err() {
            return;
        }
    }
}

/// Sends `bytes` as they are and reads the answer until the tap closes
/// the connection (10 s at most): the answer and how long it took.
fn exchange(addr: &str, bytes: &[u8]) -> (String, Duration) {
    let start = Instant::now();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(bytes).unwrap();
    let mut all = Vec::new();
    let _ = s.read_to_end(&mut all);
    (String::from_utf8_lossy(&all).into_owned(), start.elapsed())
}

const BODY: &str = r#"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#;

#[test]
fn ambiguous_framing_is_answered_400_with_the_reason_and_never_reaches_the_upstream() {
    let upstream = Upstream::start();
    let dir = fresh_dir("framing");
    let tap = Tap::start(&upstream.url, &dir.join("rec.jsonl"), &[]);
    let n = BODY.len();
    let chunked = format!("{n:x}\r\n{BODY}\r\n0\r\n\r\n");
    let cases = [
        (
            "two differing Content-Lengths",
            format!("Content-Length: {n}\r\nContent-Length: 4\r\n\r\n{BODY}"),
        ),
        (
            "one Content-Length of two values",
            format!("Content-Length: {n}, 4\r\n\r\n{BODY}"),
        ),
        (
            "an unknown transfer coding",
            format!("Transfer-Encoding: gzip\r\n\r\n{BODY}"),
        ),
        (
            "a coding after chunked",
            format!("Transfer-Encoding: chunked, gzip\r\n\r\n{chunked}"),
        ),
        (
            "a coding the tap does not decode before chunked",
            format!("Transfer-Encoding: gzip, chunked\r\n\r\n{chunked}"),
        ),
    ];
    for (what, rest) in cases {
        let request = format!("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n{rest}");
        let (answer, took) = exchange(&tap.addr, request.as_bytes());
        assert!(answer.starts_with("HTTP/1.1 400 "), "{what}: {answer:?}");
        // Said in words, hyper's refusals too: never a bare 400.
        assert!(
            answer.contains(r#""type":"tap_error""#) && answer.contains("RFC 9112 §6"),
            "{what}: {answer:?}"
        );
        // Refused at once, and the connection closed: no hang.
        assert!(took < Duration::from_secs(5), "{what}: {took:?}");
    }
    assert!(upstream.seen().is_empty(), "{:?}", upstream.seen());
    // A chunked body alone is fine: it goes on whole, with its length.
    let request = format!(
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{chunked}"
    );
    let (answer, _) = exchange(&tap.addr, request.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    let seen = upstream.seen();
    assert_eq!(seen.len(), 1);
    let upstream_head = seen[0].to_ascii_lowercase();
    assert!(
        upstream_head.contains(&format!("content-length: {n}\r\n")),
        "{seen:?}"
    );
    assert!(!upstream_head.contains("transfer-encoding"), "{seen:?}");
    assert!(seen[0].ends_with(BODY), "{seen:?}");
    tap.stop();
}

/// What hyper refuses before the tap's service runs (a malformed head,
/// too many header fields, a transfer coding not ending in chunked, also
/// as the second request of a kept-alive connection) gets an answer that
/// says what was refused, and never reaches the upstream.
#[test]
fn heads_hyper_refuses_get_an_answer_that_says_why() {
    let upstream = Upstream::start();
    let dir = fresh_dir("heads");
    let tap = Tap::start(&upstream.url, &dir.join("rec.jsonl"), &[]);
    let many: String = (0..200).map(|i| format!("X-{i}: 1\r\n")).collect();
    let cases = [
        (
            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n".to_string(),
            "400 Bad Request",
            "is not HTTP/1.1",
        ),
        (
            format!("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n{many}\r\n"),
            "431 Request Header Fields Too Large",
            "more than 128 header fields",
        ),
        (
            "POST /v1/chat/completions HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n".to_string(),
            "400 Bad Request",
            "HTTP/1.0 request",
        ),
    ];
    for (request, status, why) in cases {
        let (answer, _) = exchange(&tap.addr, request.as_bytes());
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}\r\n")),
            "{answer:?}"
        );
        assert!(answer.contains(why), "{answer:?}");
    }
    // A request that goes through, then on the same connection (once its
    // answer is read, as agents do) one hyper refuses: in words too.
    let n = BODY.len();
    let mut s = TcpStream::connect(&tap.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {n}\r\n\r\n{BODY}"
    )
    .unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut length = 0;
    loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut first = vec![0; length];
    r.read_exact(&mut first).unwrap();
    assert_eq!(String::from_utf8_lossy(&first), ANSWER);
    s.write_all(
        b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
    )
    .unwrap();
    let mut answer = String::new();
    let _ = r.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 400 "), "{answer:?}");
    assert!(
        answer.contains(r#"Transfer-Encoding \"gzip\" does not end in chunked"#),
        "{answer:?}"
    );
    assert_eq!(upstream.seen().len(), 1, "{:?}", upstream.seen());
    tap.stop();
}

/// Content-Length beside Transfer-Encoding, in either order, with a
/// second request hidden after the body as a smuggler sends it: the body
/// is read by Transfer-Encoding alone (RFC 9112 §6.1: reject, or process
/// by Transfer-Encoding alone and close), goes upstream with its own one
/// length, and the connection is closed after the answer, so the hidden
/// request is never read.
#[test]
fn content_length_beside_transfer_encoding_is_dropped_and_nothing_is_smuggled() {
    let upstream = Upstream::start();
    let dir = fresh_dir("smuggling");
    let tap = Tap::start(&upstream.url, &dir.join("rec.jsonl"), &[]);
    let n = BODY.len();
    let chunked = format!("{n:x}\r\n{BODY}\r\n0\r\n\r\n");
    let hidden = "GET /v1/smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
    for (what, framing) in [
        (
            "CL then TE",
            "Content-Length: 4\r\nTransfer-Encoding: chunked".to_string(),
        ),
        (
            "TE then CL",
            "Transfer-Encoding: chunked\r\nContent-Length: 4".to_string(),
        ),
        (
            "a long CL",
            format!(
                "Content-Length: {}\r\nTransfer-Encoding: chunked",
                chunked.len() + hidden.len()
            ),
        ),
    ] {
        let request = format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n{framing}\r\n\r\n{chunked}{hidden}"
        );
        let (answer, took) = exchange(&tap.addr, request.as_bytes());
        assert!(took < Duration::from_secs(5), "{what}: {took:?}");
        let status = answer.get(..12).unwrap_or_default();
        assert!(
            status == "HTTP/1.1 400" || status == "HTTP/1.1 200",
            "{what}: {answer:?}"
        );
        // One answer, and the connection closed after it.
        assert_eq!(answer.matches("HTTP/1.1 ").count(), 1, "{what}: {answer:?}");
        if status == "HTTP/1.1 200" {
            assert!(
                answer.to_ascii_lowercase().contains("connection: close"),
                "{what}: {answer:?}"
            );
        }
    }
    for request in upstream.seen() {
        assert!(!request.contains("smuggled"), "{request}");
        let head = request.to_ascii_lowercase();
        assert!(
            head.contains(&format!("content-length: {n}\r\n")),
            "{request}"
        );
        assert!(!head.contains("transfer-encoding"), "{request}");
        assert!(request.ends_with(BODY), "{request}");
    }
    tap.stop();
}

#[test]
fn targets_that_are_not_paths_and_connect_are_refused_and_never_forwarded() {
    let upstream = Upstream::start();
    let dir = fresh_dir("targets");
    let tap = Tap::start(&upstream.url, &dir.join("rec.jsonl"), &[]);
    for first in [
        "POST http://evil.example/v1/chat/completions HTTP/1.1",
        "POST @evil.example/v1/chat/completions HTTP/1.1",
        "OPTIONS * HTTP/1.1",
        "CONNECT evil.example:443 HTTP/1.1",
    ] {
        let request = format!(
            "{first}\r\nHost: evil.example\r\nContent-Length: {}\r\n\r\n{BODY}",
            BODY.len()
        );
        let (answer, _) = exchange(&tap.addr, request.as_bytes());
        assert!(answer.starts_with("HTTP/1.1 400 "), "{first}: {answer:?}");
    }
    assert!(upstream.seen().is_empty(), "{:?}", upstream.seen());
    tap.stop();
}

#[test]
fn half_sent_heads_are_closed_after_the_head_timeout_while_other_agents_are_served() {
    let upstream = Upstream::start();
    let dir = fresh_dir("slow-heads");
    let tap = Tap::start_with(
        &upstream.url,
        &dir.join("rec.jsonl"),
        &[],
        &["--head-timeout", "1"],
    );
    let mut slow: Vec<TcpStream> = (0..50)
        .map(|_| {
            let mut s = TcpStream::connect(&tap.addr).unwrap();
            s.write_all(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                .unwrap();
            s
        })
        .collect();
    // Meanwhile a whole request is answered.
    let r = post(&tap.addr, "/v1/chat/completions", BODY.as_bytes());
    assert_eq!(r.status, 200);
    // Each half-sent head is closed (with hyper's 408 or without a word)
    // once its second is up, well before the test's own timeout.
    let start = Instant::now();
    for s in &mut slow {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut rest = Vec::new();
        let read = s.read_to_end(&mut rest);
        let closed = match &read {
            Ok(_) => true,
            Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
        };
        assert!(closed, "a half-sent head still held: {read:?}");
    }
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    tap.stop();
}

#[test]
fn a_connection_over_the_limit_gets_a_503_that_says_why_and_a_freed_place_is_used_again() {
    let upstream = Upstream::start();
    let dir = fresh_dir("connection-limit");
    let tap = Tap::start_with(
        &upstream.url,
        &dir.join("rec.jsonl"),
        &[],
        &["--max-connections", "4", "--head-timeout", "60"],
    );
    let idle: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(&tap.addr).unwrap())
        .collect();
    // The four are accepted before the fifth comes.
    std::thread::sleep(Duration::from_millis(300));
    let r = post(&tap.addr, "/v1/chat/completions", BODY.as_bytes());
    assert_eq!(r.status, 503);
    assert!(
        String::from_utf8_lossy(&r.body).contains("at most 4 connections"),
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    drop(idle);
    eventually("a freed place serves the next agent", || {
        post(&tap.addr, "/v1/chat/completions", BODY.as_bytes()).status == 200
    });
    tap.stop();
}

#[test]
fn a_credential_in_the_query_goes_upstream_but_is_never_recorded() {
    let upstream = Upstream::start();
    let dir = fresh_dir("query-key");
    let out = dir.join("rec.jsonl");
    let tap = Tap::start(&upstream.url, &out, &[]);
    let path = "/v1/chat/completions?key=AIzaSyFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE1&alt=sse";
    assert_eq!(post(&tap.addr, path, BODY.as_bytes()).status, 200);
    tap.stop();
    assert!(upstream.seen()[0].starts_with(&format!("POST {path} HTTP/1.1")));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("AIzaSyFAKE"), "{text}");
    assert_eq!(
        read_jsonl(&out)[0]["path"],
        "/v1/chat/completions?key=[redacted]&alt=sse"
    );
}
