//! A phone of the class, as plain HTTP/1.1 over a socket: it opens the
//! page (and keeps the device cookie it is given), listens to the events
//! and votes. Included by tests/class.rs and benches/class.rs (`#[path]`).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use agent_loop_sim::class::{Phrased, Showing, Words};
use agent_loop_sim::scenario::Lang;

/// Nothing a test waits for takes this long on a working server.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: String,
}

/// `url` as `http://HOST:PORT/c/TOKEN/`: the address and the path.
pub fn split(url: &str) -> (SocketAddr, String) {
    let rest = url.strip_prefix("http://").unwrap();
    let slash = rest.find('/').unwrap();
    (rest[..slash].parse().unwrap(), rest[slash..].to_string())
}

/// One request on its own connection.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &[u8],
) -> Reply {
    let mut s = TcpStream::connect_timeout(&addr, PATIENCE).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let cookie = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{cookie}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before reading a large body whole.
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Reply {
        status,
        head: head.to_string(),
        body: body.to_string(),
    }
}

/// The `d=…` cookie a reply sets.
pub fn cookie_of(reply: &Reply) -> Option<String> {
    reply
        .head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .map(|c| c.split(';').next().unwrap().to_string())
}

pub struct Phone {
    pub addr: SocketAddr,
    pub base: String,
    pub cookie: String,
}

impl Phone {
    /// Opens the page, as a phone scanning the code does.
    pub fn join(url: &str) -> Phone {
        let (addr, base) = split(url);
        let page = request(addr, "GET", &base, None, b"");
        assert_eq!(page.status, 200, "{}", page.head);
        let cookie = cookie_of(&page).expect("a device cookie");
        Phone { addr, base, cookie }
    }

    pub fn vote(&self, step: usize, round: u8, choice: usize) -> u16 {
        let body = format!(r#"{{"step":{step},"round":{round},"choice":{choice}}}"#);
        let path = format!("{}vote", self.base);
        request(
            self.addr,
            "POST",
            &path,
            Some(&self.cookie),
            body.as_bytes(),
        )
        .status
    }

    pub fn listen(&self) -> Events {
        let mut s = TcpStream::connect_timeout(&self.addr, PATIENCE).unwrap();
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        let head = format!(
            "GET {}events HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.base, self.addr, self.cookie
        );
        s.write_all(head.as_bytes()).unwrap();
        let mut reader = BufReader::new(s);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.contains(" 200 "), "{status}");
        Events { reader }
    }
}

/// A phone's event stream.
pub struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    /// The next event's data, as JSON (keep-alive comments skipped).
    pub fn next(&mut self) -> serde_json::Value {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.reader.read_line(&mut line).expect("an event in time");
            assert!(n > 0, "the stream ended");
            // Chunked framing: the event's line is inside a chunk.
            if let Some(data) = line.trim_end().strip_prefix("data: ") {
                return serde_json::from_str(data).unwrap();
            }
        }
    }

    /// Events until one `state` (and `step`) arrives.
    pub fn until(&mut self, state: &str, step: Option<usize>) -> serde_json::Value {
        loop {
            let e = self.next();
            let step_ok = step.is_none_or(|s| e["step"] == serde_json::json!(s));
            if e["state"] == state && step_ok {
                return e;
            }
        }
    }
}

/// A question as the app would show it, `n` choices.
pub fn open(step: usize, round: u8, n: usize) -> Showing {
    let words = |lang: &str| Words {
        prompt: format!("{lang} question {step}"),
        choices: (1..=n).map(|i| format!("{lang} choice {i}")).collect(),
        why: None,
    };
    Showing::Open {
        step,
        round,
        words: Phrased(Lang::ALL.map(|lang| words(lang.code()))),
    }
}
