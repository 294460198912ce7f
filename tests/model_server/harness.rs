//! Shared by the tap tests (`#[path]`-included): the scripted model server
//! (server.py), the tap binary, a raw HTTP client and a fresh folder.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[path = "../common/ci.rs"]
mod ci;

pub const SERVER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/model_server");

/// Is `program` runnable? Under CI=true a missing tool fails the test (CI
/// installs it); elsewhere the test says so and is skipped.
/// The skip is written straight to stderr with the true reason (the
/// program missing, or what it printed: a Python module not installed).
pub fn have(program: &str, args: &[&str]) -> bool {
    let why = match Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) if out.status.success() => return true,
        Ok(out) => {
            let said = String::from_utf8_lossy(&out.stderr);
            let last = said
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            format!(
                "`{program} {}` failed ({}): {last}",
                args.join(" "),
                out.status
            )
        }
        Err(e) => format!("{program} cannot be run: {e}"),
    };
    assert!(!ci::in_ci(), "{why}; .ci/run installs it");
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why} (.ci/run installs it)");
    false
}

pub fn have_python_sdks() -> bool {
    have("python3", &["-c", "import openai, anthropic"])
}

/// A fresh empty folder for one test.
pub fn fresh_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "agent-loop-sim-tap-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A child process killed when dropped.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The scripted model server, on a free port.
pub struct Server {
    pub url: String,
    pub log: PathBuf,
    _proc: Proc,
}

impl Server {
    pub fn start(dir: &Path, script: &serde_json::Value, tls: Option<(&Path, &Path)>) -> Server {
        let script_file = dir.join(format!("script-{}.json", rand_suffix()));
        std::fs::write(&script_file, script.to_string()).unwrap();
        let log = dir.join(format!("server-{}.jsonl", rand_suffix()));
        let mut cmd = Command::new("python3");
        cmd.arg(format!("{SERVER_DIR}/server.py"))
            .arg(&script_file)
            .arg("--log")
            .arg(&log);
        if let Some((cert, key)) = tls {
            cmd.arg("--tls").arg(cert).arg(key);
        }
        let mut child = cmd.stdout(Stdio::piped()).spawn().expect("python3 runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the server said {line:?}"))
            .to_string();
        Server {
            url,
            log,
            _proc: Proc(child),
        }
    }

    /// Kill the server (SIGKILL), as a provider's process dies mid-answer.
    pub fn kill(&mut self) {
        let _ = self._proc.0.kill();
        let _ = self._proc.0.wait();
    }

    /// The request bodies the server received, in order.
    pub fn bodies(&self) -> Vec<serde_json::Value> {
        read_jsonl(&self.log)
            .into_iter()
            .map(|l| l["body"].clone())
            .collect()
    }
}

fn rand_suffix() -> usize {
    static N: AtomicUsize = AtomicUsize::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

pub fn read_jsonl(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:.200}")))
        .collect()
}

/// The tap in front of `upstream`, recording to `out`.
pub struct Tap {
    pub addr: String,
    pub out: PathBuf,
    pub proc: Proc,
    stderr: std::thread::JoinHandle<String>,
}

impl Tap {
    pub fn start(upstream: &str, out: &Path, env: &[(&str, &str)]) -> Tap {
        Tap::start_with(upstream, out, env, &[])
    }

    /// `start`, with more options for the tap (`--head-timeout 1`).
    pub fn start_with(upstream: &str, out: &Path, env: &[(&str, &str)], args: &[&str]) -> Tap {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_agent-loop-sim"));
        cmd.args(["tap", "--upstream", upstream, "--out"])
            .arg(out)
            .args(args)
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .stdin(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        err.read_line(&mut line).unwrap();
        let addr = line
            .strip_prefix("tap: http://")
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("the tap said {line:?}"))
            .to_string();
        let stderr = std::thread::spawn(move || {
            let mut rest = line;
            let _ = err.read_to_string(&mut rest);
            rest
        });
        Tap {
            addr,
            out: out.to_path_buf(),
            proc: Proc(child),
            stderr,
        }
    }

    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops the tap with SIGTERM; its stderr.
    pub fn stop(self) -> String {
        let pid = self.proc.0.id() as libc::pid_t;
        // SAFETY: kill(2) on our own child.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let Tap {
            mut proc, stderr, ..
        } = self;
        let deadline = Instant::now() + Duration::from_secs(10);
        while proc.0.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the tap did not stop on SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
        stderr.join().unwrap()
    }
}

/// A raw HTTP/1.1 response: status, head text and body bytes (chunked
/// framing kept), read until the tap closes the connection.
pub struct Raw {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
    pub ended: bool,
}

/// POSTs `body` to `path` at `addr` with `Connection: close` and reads
/// the whole answer (30 s at most).
pub fn post(addr: &str, path: &str, body: &[u8]) -> Raw {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer sk-test-secret-0123456789abcdef\r\nx-api-key: sk-ant-secret-0123456789\r\nCookie: session=s3cr3t-cookie\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut all = Vec::new();
    let ended = s.read_to_end(&mut all).is_ok();
    let split = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8_lossy(&all[..split]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap();
    Raw {
        status,
        head,
        body: all[split + 4..].to_vec(),
        ended,
    }
}

/// A certificate authority and a certificate for 127.0.0.1 signed by it,
/// made with openssl: (ca.pem, cert.pem, key.pem).
pub fn make_certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let run = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=agent-loop-sim test CA",
    ]);
    run(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "key.pem",
        "-out",
        "cert.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-in",
        "cert.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "cert.pem",
        "-days",
        "2",
        "-extfile",
        "ext.cnf",
    ]);
    (
        dir.join("ca.pem"),
        dir.join("cert.pem"),
        dir.join("key.pem"),
    )
}

/// Waits until `f` is true (30 s at most).
pub fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    // A wait, not a measure: a CLI under node starts in seconds, many more
    // on a loaded machine (10 s was once too few in a whole run).
    let deadline = Instant::now() + Duration::from_secs(30);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Run `cmd` to its end, its output kept; killed (SIGTERM) if it is still
/// running after `secs` seconds, so a hung agent fails the test instead of
/// holding it.
pub fn run_bounded(mut cmd: Command, secs: u64) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(secs));
        // SAFETY: kill(2) on our own child, which may have ended (then ESRCH).
        unsafe { libc::kill(pid, libc::SIGTERM) };
    });
    let out = child.wait_with_output().unwrap();
    drop(watchdog);
    out
}
