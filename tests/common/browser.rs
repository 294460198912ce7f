//! Headless Chromium over the DevTools protocol, for the tests that open
//! the HTML exports where their readers open them. Included by the test
//! files that need it (`#[path]`), so the others do not build it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

const BROWSERS: [&str; 4] = [
    "chromium-headless-shell",
    "chrome-headless-shell",
    "chromium",
    "google-chrome",
];

pub fn find_browser() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let paths = std::env::var_os("PATH")?;
    BROWSERS.iter().find_map(|name| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The browser process, killed when the test ends (passed or not).
pub struct Browser {
    child: Child,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn launch(path: &Path, profile: &Path) -> (Browser, String) {
    launch_with(path, profile, &[])
}

/// The browser with extra environment (e.g. a FONTCONFIG_FILE).
pub fn launch_with(path: &Path, profile: &Path, env: &[(&str, &Path)]) -> (Browser, String) {
    let mut child = Command::new(path)
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .args([
            "--headless",
            "--remote-debugging-port=0",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-sandbox",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
    let stderr = child.stderr.take().unwrap();
    let browser = Browser { child };
    let mut lines = BufReader::new(stderr).lines();
    let url = loop {
        match lines.next() {
            Some(Ok(line)) => {
                if let Some(at) = line.find("ws://") {
                    break line[at..].trim().to_string();
                }
            }
            _ => panic!("{} ended without a DevTools address", path.display()),
        }
    };
    // Keep draining stderr so the browser never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (browser, url)
}

/// A DevTools connection to one page (a flat session on the browser socket).
pub struct Page {
    ws: WebSocket<TcpStream>,
    session: String,
    next_id: u64,
    events: Vec<Value>,
}

impl Page {
    pub fn open(browser_url: &str) -> Page {
        let addr = browser_url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let stream = TcpStream::connect(&addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let (ws, _) = tungstenite::client(browser_url, stream).unwrap();
        let mut page = Page {
            ws,
            session: String::new(),
            next_id: 0,
            events: Vec::new(),
        };
        let target = page.send(None, "Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].as_str().unwrap().to_string();
        let attached = page.send(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        page.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page.enable", "Network.enable", "Runtime.enable"] {
            page.call(domain, json!({}));
        }
        page
    }

    pub fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            message["sessionId"] = json!(s);
        }
        self.ws.send(Message::text(message.to_string())).unwrap();
        loop {
            let reply = match self.ws.read().unwrap() {
                Message::Text(t) => serde_json::from_str::<Value>(t.as_str()).unwrap(),
                _ => continue,
            };
            if reply["id"] == json!(id) {
                assert!(reply["error"].is_null(), "{method}: {}", reply["error"]);
                return reply["result"].clone();
            }
            self.events.push(reply);
        }
    }

    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        assert!(
            r["exceptionDetails"].is_null(),
            "{expression}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    pub fn text(&mut self, expression: &str) -> String {
        self.eval(expression)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    pub fn counter(&mut self) -> String {
        self.text("document.getElementById('counter').textContent")
    }

    pub fn goto(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
        let start = Instant::now();
        while self.text("document.readyState") != "complete" || self.text("location.href") != url {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{url} did not load"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn key(&mut self, key: &str, code: &str, vk: u32) {
        let text = if key == " " { " " } else { "" };
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": code,
                       "windowsVirtualKeyCode": vk, "text": if kind == "keyDown" { text } else { "" }}),
            );
        }
    }

    /// Wait for whatever events are in flight, then the URLs requested.
    pub fn requests(&mut self) -> Vec<String> {
        self.eval("0");
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .map(|e| e["params"]["request"]["url"].as_str().unwrap().to_string())
            .collect()
    }

    pub fn screenshot(&mut self, path: &Path) {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64_decode(shot["data"].as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::write(path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
    }
}

pub fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)) << (18 - 6 * i);
        }
        let take = chunk.len() - 1;
        out.extend_from_slice(&n.to_be_bytes()[1..=take]);
    }
    out
}
