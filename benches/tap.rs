//! Benchmark: the latency `agent-loop-sim tap` adds to each piece of a
//! stream, on loopback (goal: under 1 ms). An upstream thread streams a
//! Chat Completions response (chunked SSE) one `chat.completion.chunk` at a
//! time, each sent when the client asks (over a channel) and timed until the
//! client has read it. `direct` reads from the upstream itself; `through-tap`
//! reads through the real tap binary (recording, assembling the stream); the
//! difference of the two is what the tap adds per chunk. With
//! `TAP_BASELINE=BINARY`, `through-baseline` reads through that binary's
//! tap too (another build, to compare in one run).
//!
//! `tap-live-rebuild`: what the live view costs after each call begins or
//! ends, when the builder thread reads the calls so far again
//! (`transcript::growing::live`), for runs of 10 and 200 calls shaped like the
//! recorded Claude Code run (its 49 KB first request, 12 tool schemas),
//! each call a tool call and its result. `tap-live-grow`: what the live
//! view's builder does for the newest call of runs of 10, 200 and 2,000
//! calls, as it reads them (`transcript::growing::Growing`): the call running, then
//! ended. `tap-live-view`: what the event loop does when those runs
//! arrive after call 10, 200 or 2,000 ended: takes them and draws a frame.
//! `tap-record`: what the tap's recorder does for the newest call of
//! those runs, as the live view watches: writes its request out as it
//! begins, its line as it ends.
//!
//!     cargo bench --bench tap -- --warm-up-time 1 --measurement-time 3

// The binary's allocator (src/main.rs): what is timed is what it runs,
// and the bytes each thread asks of it are counted (`Allocated`): a count
// that the machine's noise does not change.
#[global_allocator]
static ALLOCATOR: Counted = Counted;

std::thread_local! {
    static ALLOCATED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// mimalloc, counting the bytes allocated on each thread.
struct Counted;

impl Counted {
    fn count(bytes: usize) {
        // `try_with`: a thread's last frees come after its counter is gone.
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + bytes));
    }

    /// The bytes `f` allocates on this thread.
    fn bytes_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
        let before = ALLOCATED.with(|a| a.get());
        let out = f();
        (out, ALLOCATED.with(|a| a.get()) - before)
    }
}

// SAFETY: each call is mimalloc's with the same arguments; the count
// allocates nothing.
unsafe impl GlobalAlloc for Counted {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        Counted::count(layout.size());
        unsafe { GlobalAlloc::alloc(&mimalloc::MiMalloc, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        Counted::count(layout.size());
        unsafe { GlobalAlloc::alloc_zeroed(&mimalloc::MiMalloc, layout) }
    }

    unsafe fn realloc(&self, at: *mut u8, layout: std::alloc::Layout, size: usize) -> *mut u8 {
        Counted::count(size);
        unsafe { GlobalAlloc::realloc(&mimalloc::MiMalloc, at, layout, size) }
    }

    unsafe fn dealloc(&self, at: *mut u8, layout: std::alloc::Layout) {
        unsafe { GlobalAlloc::dealloc(&mimalloc::MiMalloc, at, layout) }
    }
}

use agent_loop_sim::transcript::growing::{Growing, Written};
use std::alloc::GlobalAlloc;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use criterion::Criterion;

const CHUNK: &str = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word \"},\"finish_reason\":null}]}\n\n";

/// An upstream that answers one request with an endless stream, a chunk
/// per message on the channel. Returns its address.
fn upstream(go: mpsc::Receiver<()>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_nodelay(true).unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap();
            }
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; len];
        r.read_exact(&mut body).unwrap();
        s.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            .unwrap();
        let frame = format!("{:x}\r\n{CHUNK}\r\n", CHUNK.len());
        while go.recv().is_ok() {
            if s.write_all(frame.as_bytes()).is_err() {
                return;
            }
        }
    });
    addr
}

/// Connects to `addr`, sends the streamed request, reads the head.
fn client(addr: &str) -> BufReader<TcpStream> {
    let s = TcpStream::connect(addr).unwrap();
    s.set_nodelay(true).unwrap();
    let body = r#"{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}"#;
    let mut w = s.try_clone().unwrap();
    write!(
        w,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut r = BufReader::new(s);
    loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        if line == "\r\n" {
            return r;
        }
    }
}

/// Asks for `iters` chunks one at a time; the total time from asking to
/// having read each.
fn stream(go: &mpsc::Sender<()>, r: &mut BufReader<TcpStream>, iters: u64) -> Duration {
    let frame_len = format!("{:x}\r\n{CHUNK}\r\n", CHUNK.len()).len();
    let mut buf = vec![0; frame_len];
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let t = Instant::now();
        go.send(()).unwrap();
        r.read_exact(&mut buf).unwrap();
        total += t.elapsed();
    }
    total
}

struct Tap(Child);

impl Drop for Tap {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn tap(binary: &str, upstream: &str) -> (Tap, String) {
    let out = std::env::temp_dir().join(format!("als-bench-tap-{}.jsonl", std::process::id()));
    let mut child = Command::new(binary)
        .args(["tap", "--upstream", &format!("http://{upstream}"), "--out"])
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .strip_prefix("tap: http://")
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .to_string();
    (Tap(child), addr)
}

/// A Claude Code run of `calls` calls, as the tap records it: the
/// recorded first request, then each call's reply (a Read) and its result
/// appended to the history of the next. Each line is made when asked for
/// and handed on (`each`): the lines of 2,000 calls, each with the whole
/// history so far, would hold a gigabyte at once.
fn claude_code_run(calls: usize, mut each: impl FnMut(serde_json::Value)) {
    use serde_json::json;
    let text = include_str!("../tests/transcripts/real/cli/claude-code.tap.jsonl");
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut messages = first["request"]["messages"].as_array().unwrap().clone();
    for k in 0..calls {
        let id = format!("toolu_{k:04}");
        let mut line = first.clone();
        line["request"]["messages"] = json!(messages);
        let reply = json!([{"type": "tool_use", "id": id, "name": "Read", "input": {"file_path": format!("src/file{k}.rs")}}]);
        line["response"] = json!({"type": "message", "role": "assistant", "content": reply, "stop_reason": "tool_use"});
        each(line);
        messages.push(json!({"role": "assistant", "content": reply}));
        messages.push(
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id,
            "content": "fn main() {\n    println!(\"hello\");\n}\n"}]}),
        );
    }
}

fn live_rebuild(c: &mut Criterion) {
    // Every call read again (the one-shot reading a replay does): the
    // cost grows with the square of the run, so 2,000 calls are left out.
    let mut group = c.benchmark_group("tap-live-rebuild");
    group.sample_size(10);
    for calls in [10, 200] {
        let mut run = Vec::new();
        claude_code_run(calls, |line| run.push(line));
        group.bench_function(format!("{calls}-calls"), |b| {
            b.iter(|| agent_loop_sim::transcript::growing::live("run.jsonl", run.clone(), false))
        });
    }
    group.finish();
}

/// A run of `calls` calls read by the live view's builder up to its last
/// `unread` calls, which are returned unread; the calls before them
/// drawn as the tap draws each (`call`). A build goes on from what the
/// build before it left, so the state is the tap's after those calls,
/// not that of one first build. Also returned: the latest request
/// written, as the tap's recorder keeps it (`written`).
fn all_but_the_last(
    calls: usize,
    unread: usize,
) -> (Growing, Vec<serde_json::Value>, Option<Written>) {
    let mut growing = Growing::new("run.jsonl", false);
    let mut held = Vec::new();
    claude_code_run(calls, |line| {
        held.push(line);
        if held.len() > 2 + unread {
            growing.push(held.remove(0));
        }
    });
    let unread = held.split_off(held.len() - unread);
    let _ = growing.runs(Vec::new());
    let mut before = None;
    for line in &held {
        call(&mut growing, line, written(line, &mut before));
    }
    (growing, unread, before)
}

/// Call `line` read as the tap's live view reads each (`tap::live`): its
/// request written as it begins, the runs drawn while it runs, then read
/// for good as it ends and the runs drawn again.
fn call(growing: &mut Growing, line: &serde_json::Value, written: Written) {
    let running = std::sync::Arc::new(begun(line));
    growing.request_written(&running, written);
    let _ = growing.runs(vec![running.clone()]);
    growing.push_ended(ended(line.clone()), running);
    let _ = growing.runs(Vec::new());
}

/// A call's request as the recording writes it: the text the tap's
/// recorder hands the live view with each call (`Observed::request`),
/// after the request written `before` (which it then is).
fn written(line: &serde_json::Value, before: &mut Option<Written>) -> Written {
    agent_loop_sim::transcript::growing::written_after(&line["request"], before)
}

/// A call's line as the tap's recorder hands it when the call ends: its
/// request left to the line it ran as.
fn ended(mut line: serde_json::Value) -> serde_json::Value {
    line["request"] = serde_json::Value::Null;
    line
}

/// A call's line while it runs: its request alone.
fn begun(line: &serde_json::Value) -> serde_json::Value {
    let mut begun = line.clone();
    begun["response"] = serde_json::Value::Null;
    begun["status"] = serde_json::Value::Null;
    begun
}

/// Call N of a run of N as the tap's builder meets it: the state after
/// call N-2 (`before`); call N-1, to read on a copy of it as the tap reads
/// each call (`call`), and its request written; call N as it begins, its
/// request written, and as it ends.
struct LastCall {
    before: Growing,
    last_but_one: serde_json::Value,
    text_but_one: Written,
    begun: serde_json::Value,
    text: Written,
    last: serde_json::Value,
}

impl LastCall {
    /// What the builder is handed for call N: the state after call N-1
    /// (a copy of `before`, call N-1 read on it), and call N as it
    /// begins, its request written, and as it ends.
    fn input(
        &self,
    ) -> (
        Growing,
        std::sync::Arc<serde_json::Value>,
        Written,
        serde_json::Value,
    ) {
        let mut growing = self.before.clone();
        call(&mut growing, &self.last_but_one, self.text_but_one.clone());
        let begun = std::sync::Arc::new(self.begun.clone());
        (growing, begun, self.text.clone(), self.last.clone())
    }
}

fn last_call(calls: usize) -> LastCall {
    let (before, lines, mut written_before) = all_but_the_last(calls, 2);
    let [last_but_one, last] = <[_; 2]>::try_from(lines).expect("two calls unread");
    let text_but_one = written(&last_but_one, &mut written_before);
    let text = written(&last, &mut written_before);
    LastCall {
        before,
        last_but_one,
        text_but_one,
        begun: begun(&last),
        text,
        last: ended(last),
    }
}

fn live_grow(c: &mut Criterion) {
    live_grow_as(c, false);
    live_grow_as(c, true);
}

/// Memory a call's caches are filled with before it, `cold` (`live_grow`).
const OTHER_WORK: usize = 16 << 20;

/// Writes `OTHER_WORK` bytes: what the caches then hold is that.
fn other_work() {
    let mut other = vec![0u8; OTHER_WORK];
    for (i, byte) in other.iter_mut().enumerate().step_by(64) {
        *byte = i as u8;
    }
    std::hint::black_box(&other);
}

/// `cold`: each call after other work. Between two calls of a live
/// agent, the model takes seconds, and the agent, the recorder (which
/// parses each request: megabytes at call 2,000) and the terminal run
/// meanwhile: the builder's state is then no longer in the core's
/// caches. Warm, call N follows the setup that read call N-1, and at call
/// 10 the whole state stays cached from one call to the next, which a
/// real run's call 10 does not see.
fn live_grow_as(c: &mut Criterion, cold: bool) {
    // What the live view's builder does for call N of a run of N: the
    // call begins (its request after the N-1 read for good), then it
    // ends (read for good, as the call that ran: `push_ended`, as the
    // tap hands it) and the runs are drawn again.
    let name = if cold {
        "tap-live-grow-cold"
    } else {
        "tap-live-grow"
    };
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for calls in [10, 200, 2000] {
        let n = last_call(calls);
        // Timed: what the tap's builder thread does. Not timed: the
        // copy of the state before, and call N-1 read on it as the tap
        // reads each call (a copy's lists are made at their length, and
        // the first item each takes would copy them all again, which the
        // tap's own state, grown call by call, does not); the lines (the
        // tap hands over the lines its recorder made, not copies; the
        // running line's request is its text's, written by the recorder:
        // `tap-record`) and freeing the state after (the tap keeps it for
        // the next call).
        let setup = || {
            let input = n.input();
            if cold {
                other_work();
            }
            input
        };
        let timed = |(mut growing, begun, text, last): (Growing, _, _, _)| {
            growing.request_written(&begun, text);
            let running = growing.runs(vec![begun.clone()]);
            growing.push_ended(last, begun);
            let ended = growing.runs(Vec::new());
            (running, ended, growing)
        };
        // What the call allocates, in bytes: the copies a build makes of
        // what it keeps from the build before grow with the run.
        if !cold {
            let input = setup();
            let (_, bytes) = Counted::bytes_of(|| timed(input));
            println!("tap-live-grow/call-{calls} allocates {bytes} bytes");
        }
        // Cold, each call is timed alone, right after its own setup.
        let size = match cold {
            true => criterion::BatchSize::PerIteration,
            false => criterion::BatchSize::LargeInput,
        };
        group.bench_function(format!("call-{calls}"), |b| {
            b.iter_batched(setup, timed, size)
        });
    }
    group.finish();
}

/// The event loop's app showing `runs` at their last step, at 120×40, as
/// a live view does.
fn live_app(runs: Vec<std::sync::Arc<agent_loop_sim::load::Loaded>>) -> agent_loop_sim::app::App {
    use agent_loop_sim::app::{self, Action, App};
    use agent_loop_sim::live::{Live, Update};
    let lang = agent_loop_sim::scenario::Lang::En;
    let theme = agent_loop_sim::theme::Theme::DARK;
    let mut shown = App::new((*runs[0]).clone(), lang, theme);
    shown.live = Some(Live::new(Vec::new()));
    agent_loop_sim::frames::apply(&mut shown, Action::Resize(120, 40));
    app::grow(&mut shown, Update::Grown(runs));
    agent_loop_sim::frames::apply(&mut shown, Action::Last);
    shown
}

fn live_call(c: &mut Criterion) {
    // All that a live view does for call N of a run of N, on both its
    // threads: the builder's (`tap-live-grow`) and the event loop's
    // (`tap-live-view`), as the call begins and again as it ends: each
    // time the runs built, then taken by the view and drawn at 120×40.
    // Each call after other work, as `tap-live-grow-cold`.
    use agent_loop_sim::app::{self, Action};
    use agent_loop_sim::live::Update;
    use std::sync::Arc;
    let mut group = c.benchmark_group("tap-live-call");
    group.sample_size(10);
    for calls in [10, 200, 2000] {
        let n = last_call(calls);
        let (mut growing, ..) = n.input();
        let shown = live_app(growing.runs(Vec::new()).into_iter().map(Arc::new).collect());
        let setup = || {
            let (growing, begun, text, last) = n.input();
            // Call N's request not yet counted (call N-1's was, drawn).
            agent_loop_sim::tokens::forget_counted(&text.text);
            // The event loop's app holds its timelines alone.
            let mut shown = shown.clone();
            shown.timelines = Arc::new((*shown.timelines).clone());
            let input = (growing, shown, begun, text, last);
            other_work();
            input
        };
        let timed = |(mut growing, mut shown, begun, text, last): (Growing, _, _, _, _)| {
            let mut draw = |runs: Vec<_>| {
                app::grow(
                    &mut shown,
                    Update::Grown(runs.into_iter().map(Arc::new).collect()),
                );
                agent_loop_sim::frames::apply(&mut shown, Action::Tick);
            };
            growing.request_written(&begun, text);
            draw(growing.runs(vec![begun.clone()]));
            growing.push_ended(last, begun);
            draw(growing.runs(Vec::new()));
            (growing, shown)
        };
        group.bench_function(format!("call-{calls}"), |b| {
            b.iter_batched(setup, timed, criterion::BatchSize::PerIteration)
        });
    }
    group.finish();
}

fn record(c: &mut Criterion) {
    // What the tap's recorder does for call N of a run of N, watched by
    // the live view: the call begins (its request written out once),
    // then ends (its line written to the recording, handed to the
    // view). Not timed: the request parsed from the agent's bytes (the
    // proxy's), and the view's side of the channel.
    use agent_loop_sim::tap::record::{Call, Recorder};
    use agent_loop_sim::wire::Provider;
    let mut group = c.benchmark_group("tap-record");
    group.sample_size(10);
    for calls in [10, 200, 2000] {
        let mut last = None;
        claude_code_run(calls, |line| last = Some(line));
        let request = last.expect("a run of at least one call")["request"].clone();
        let file = std::fs::File::create("/dev/null").unwrap();
        let recorder = Recorder::new(file, false);
        let (to_view, view) = mpsc::channel();
        recorder.watch(move |o| {
            let _ = to_view.send(o);
        });
        group.bench_function(format!("call-{calls}"), |b| {
            b.iter_batched(
                || {
                    while view.try_recv().is_ok() {}
                    Call::new(Provider::Anthropic, "/v1/messages", request.clone(), 0)
                },
                |call| {
                    let (id, _) = recorder.begin(call);
                    recorder.end(id, None);
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

fn live_view(c: &mut Criterion) {
    // What the event loop does when the builder sends the grown runs
    // after call N ended: the view takes them (`app::grow`, which
    // indexes their timelines from those of call N-1) and draws the
    // frame at 120×40. Not timed: freeing the runs of call N-1 (the
    // builder thread may still hold them).
    use agent_loop_sim::app::{self, Action};
    use agent_loop_sim::live::Update;
    use agent_loop_sim::transcript::growing::Growing;
    use std::sync::Arc;
    let mut group = c.benchmark_group("tap-live-view");
    group.sample_size(10);
    for calls in [10, 200, 2000] {
        let (mut growing, mut last, _) = all_but_the_last(calls, 1);
        let last = last.pop().expect("a call unread");
        let runs =
            |g: &mut Growing| -> Vec<_> { g.runs(Vec::new()).into_iter().map(Arc::new).collect() };
        let before = runs(&mut growing);
        growing.push(last);
        let after = runs(&mut growing);
        let shown = live_app(before);
        group.bench_function(format!("call-{calls}"), |b| {
            b.iter_batched(
                || {
                    // The event loop's app holds its timelines alone.
                    let mut shown = shown.clone();
                    shown.timelines = Arc::new((*shown.timelines).clone());
                    (shown, after.clone())
                },
                |(mut a, after)| {
                    app::grow(&mut a, Update::Grown(after));
                    agent_loop_sim::frames::apply(&mut a, Action::Tick);
                    a
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

fn chunk_latency(c: &mut Criterion) {
    let mut group = c.benchmark_group("tap-chunk-latency");
    {
        let (go, rx) = mpsc::channel();
        let up = upstream(rx);
        let mut r = client(&up);
        group.bench_function("direct", |b| {
            b.iter_custom(|iters| stream(&go, &mut r, iters))
        });
    }
    let baseline = std::env::var("TAP_BASELINE").ok();
    let binaries = [
        (
            "through-tap",
            Some(env!("CARGO_BIN_EXE_agent-loop-sim").to_string()),
        ),
        ("through-baseline", baseline),
    ];
    for (name, binary) in binaries {
        let Some(binary) = binary else { continue };
        let (go, rx) = mpsc::channel();
        let up = upstream(rx);
        let (_tap, addr) = tap(&binary, &up);
        let mut r = client(&addr);
        group.bench_function(name, |b| b.iter_custom(|iters| stream(&go, &mut r, iters)));
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    live_rebuild(&mut c);
    live_grow(&mut c);
    live_call(&mut c);
    record(&mut c);
    live_view(&mut c);
    chunk_latency(&mut c);
    c.final_summary();
}
