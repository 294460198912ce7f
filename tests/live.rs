//! A tap's run as the live view and a replay show it: conversations and
//! side requests of a recording (`transcript::growing::live`, `--transcript FILE`,
//! `FILE#N`), and the app growing with it (following at the last step,
//! counting new steps elsewhere, `s`, asking before quitting), without a
//! terminal.

mod common;

use std::sync::Arc;

use agent_loop_sim::app::{self, Action, App};
use agent_loop_sim::frames;
use agent_loop_sim::live::{Live, Update};
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::transcript;
use serde_json::{Value, json};

/// A tap line of the Messages API, as the recorder writes it.
fn line(model: &str, tools: bool, messages: Value, reply: Option<Value>) -> Value {
    let mut request = json!({"model": model, "max_tokens": 100, "messages": messages});
    if tools {
        request["tools"] = json!([{"name": "Read", "description": "Read a file",
            "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}}}}]);
    }
    json!({"provider": "anthropic", "path": "/v1/messages", "request": request,
           "response": reply.map(|content| json!({"type": "message", "role": "assistant",
               "content": content, "stop_reason": "end_turn"})),
           "status": 200})
}

fn user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

fn read_call(id: &str) -> Value {
    json!([{"type": "tool_use", "id": id, "name": "Read", "input": {"file_path": "a.txt"}}])
}

fn assistant(content: Value) -> Value {
    json!({"role": "assistant", "content": content})
}

fn result(id: &str) -> Value {
    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "limit = 42"}]})
}

fn text(t: &str) -> Value {
    json!([{"type": "text", "text": t}])
}

/// One loop of `calls` calls, each reading a file, then an answer: longer
/// than a chunk of a trace's lists (`shared::CHUNK` steps), so a build
/// shares whole chunks with the build before. Calls 21 to 29 offer one
/// more tool (a list that changes, and changes back, as a run goes on).
fn long_run_lines(calls: usize) -> Vec<Value> {
    let mut messages = vec![user("read them all")];
    let mut lines = Vec::new();
    for k in 0..calls {
        let id = format!("toolu_{k:03}");
        let mut line = line("opus", true, json!(messages), Some(read_call(&id)));
        if (20..29).contains(&k) {
            let write = json!({"name": "Write", "description": "Write a file",
                "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}}}});
            line["request"]["tools"].as_array_mut().unwrap().push(write);
        }
        lines.push(line);
        messages.push(assistant(read_call(&id)));
        messages.push(result(&id));
    }
    lines.push(line("opus", true, json!(messages), Some(text("done"))));
    lines
}

/// A main loop of two calls with a sub-agent's two calls between them, a
/// title request and a token count.
fn run_lines() -> Vec<Value> {
    let mut count = line("haiku", false, json!([user("hi")]), None);
    count["side"] = json!("count_tokens");
    count["response"] = json!({"input_tokens": 3});
    vec![
        line(
            "opus",
            true,
            json!([user("fix it")]),
            Some(read_call("toolu_main")),
        ),
        line(
            "haiku",
            false,
            json!([user("a title for: fix it")]),
            Some(text("Fixing it")),
        ),
        line(
            "haiku",
            true,
            json!([user("find the file")]),
            Some(read_call("toolu_sub")),
        ),
        count,
        line(
            "haiku",
            true,
            json!([
                user("find the file"),
                assistant(read_call("toolu_sub")),
                result("toolu_sub")
            ]),
            Some(text("found: a.txt")),
        ),
        line(
            "opus",
            true,
            json!([
                user("fix it"),
                assistant(read_call("toolu_main")),
                result("toolu_main")
            ]),
            Some(text("The limit is 42.")),
        ),
    ]
}

fn model_calls(loaded: &agent_loop_sim::load::Loaded) -> usize {
    loaded.trace(Lang::En).model_calls.len()
}

#[test]
fn a_recording_reads_as_its_conversations_with_side_requests_listed_apart() {
    let runs = transcript::growing::live("run.jsonl", run_lines(), false);
    assert_eq!(runs.len(), 2);
    assert_eq!((model_calls(&runs[0]), model_calls(&runs[1])), (2, 2));
    let title = runs[1].trace(Lang::En).title.clone();
    assert!(title.starts_with("run.jsonl#2 "), "{title}");
    let conditions: Vec<String> = runs[0]
        .card
        .conditions
        .iter()
        .map(|c| c.get(Lang::En).to_string())
        .collect();
    let all = conditions.join("\n");
    assert!(all.contains("Holds 2 conversations"), "{all}");
    assert!(
        all.contains("2 side requests are not turns of the loop"),
        "{all}"
    );
    assert!(all.contains("request 2: a request without tools (a title, a summary) (haiku, status 200), answered \"Fixing it\""), "{all}");
    assert!(
        all.contains("request 4: token count (haiku, status 200)"),
        "{all}"
    );
}

#[test]
fn trace_reads_each_conversation_of_a_recording_with_file_hash_n() {
    let dir = std::env::temp_dir().join(format!("als-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.jsonl");
    let text: String = run_lines().iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let trace = |arg: &str| {
        let o = common::run(&["trace", "--transcript", arg]);
        (Some(o.code), o.stdout, o.stderr)
    };
    let (code, out, err) = trace(file);
    assert_eq!(code, Some(0), "{err}");
    let main: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(main["scenario"]["model_calls"], 2);
    assert_eq!(main["summary"]["final_answer"], "The limit is 42.");
    assert!(err.contains("note: Holds 2 conversations"), "{err}");
    assert!(err.contains("line 2: a request without tools"), "{err}");
    let (code, out, err) = trace(&format!("{file}#2"));
    assert_eq!(code, Some(0), "{err}");
    let sub: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(sub["scenario"]["model_calls"], 2);
    assert_eq!(sub["summary"]["final_answer"], "found: a.txt");
    let (code, _, err) = trace(&format!("{file}#3"));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("the recording holds 2 conversations; conversation 3 is not one of them"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The live app on the first `calls` lines of the run.
fn grown(calls: usize) -> Vec<Arc<agent_loop_sim::load::Loaded>> {
    transcript::growing::live("run.jsonl", run_lines()[..calls].to_vec(), false)
        .into_iter()
        .map(Arc::new)
        .collect()
}

fn live_app(calls: usize) -> App {
    let runs = grown(calls);
    let mut a = App::new((*runs[0]).clone(), Lang::En, Theme::DARK);
    a.live = Some(Live::new(Vec::new()));
    app::update(&mut a, Action::Last);
    app::grow(&mut a, Update::Grown(runs));
    a
}

fn footer(a: &App) -> String {
    let screen = frames::to_text(&frames::render(a, 120, 40));
    screen.lines().last().unwrap().to_string()
}

#[test]
fn at_the_last_step_the_view_follows_the_run_and_elsewhere_counts_what_is_new() {
    let mut a = live_app(1);
    let first = a.trace().len();
    assert_eq!(a.step, first - 1);
    app::grow(&mut a, Update::Grown(grown(6)));
    assert_eq!(a.step, a.last(), "followed to the newest step");
    assert_eq!(a.live.as_ref().unwrap().new_steps, 0);

    let mut a = live_app(1);
    app::update(&mut a, Action::First);
    app::grow(&mut a, Update::Grown(grown(6)));
    let new = a.trace().len() - first;
    assert_eq!(a.step, 0, "stayed");
    assert_eq!(a.live.as_ref().unwrap().new_steps, new);
    assert!(
        footer(&a).contains(&format!("● live: the agent runs · {new} new steps (End shows them) · conversation 1/2 (s switches)")),
        "{}",
        footer(&a)
    );
    app::update(&mut a, Action::Last);
    assert_eq!(a.live.as_ref().unwrap().new_steps, 0);
    assert!(!footer(&a).contains("new step"));
}

#[test]
fn s_switches_conversations_and_each_keeps_its_place() {
    let mut a = live_app(6);
    let main_title = a.trace().title.clone();
    app::update(&mut a, Action::First);
    app::update(&mut a, Action::SwitchConversation);
    assert!(a.trace().title.starts_with("run.jsonl#2"));
    assert_eq!(
        a.step,
        a.last(),
        "a conversation never shown opens at its newest step"
    );
    app::update(&mut a, Action::SwitchConversation);
    assert_eq!(a.trace().title, main_title);
    assert_eq!(a.step, 0, "back where it was left");
}

#[test]
fn a_recording_read_afterwards_opens_each_conversation_at_its_first_step() {
    let runs = grown(6);
    let mut a = App::new((*runs[0]).clone(), Lang::En, Theme::DARK);
    a.live = Some(Live::recorded(runs));
    app::update(&mut a, Action::Last);
    app::update(&mut a, Action::SwitchConversation);
    assert_eq!(a.step, 0);
    app::update(&mut a, Action::SwitchConversation);
    assert_eq!(a.step, a.last(), "the first one where it was left");
    let f = footer(&a);
    assert!(
        f.contains("conversation 1/2 (s switches)") && !f.contains("live"),
        "{f}"
    );
}

#[test]
fn quitting_while_the_agent_runs_asks_first_and_not_once_it_has_ended() {
    let mut a = live_app(6);
    app::update(&mut a, Action::Quit);
    assert!(!a.quit);
    let f = footer(&a);
    assert!(
        f.contains("y yes, stop the agent and quit  n no, keep watching"),
        "{f}"
    );
    // Keys of the lesson do nothing while it asks.
    app::update(&mut a, Action::First);
    assert_eq!(a.step, a.last());
    app::update(&mut a, Action::QuitNo);
    assert!(!a.quit && !a.live.as_ref().unwrap().confirm_quit);
    app::update(&mut a, Action::Back);
    assert!(
        !a.quit && !a.live.as_ref().unwrap().confirm_quit,
        "Esc never quits"
    );
    app::update(&mut a, Action::Quit);
    assert!(a.live.as_ref().unwrap().confirm_quit);
    app::update(&mut a, Action::QuitYes);
    assert!(a.quit);

    let mut a = live_app(6);
    app::grow(&mut a, Update::Ended(Some(0)));
    assert!(footer(&a).contains("live: the agent ended (exit code 0)"));
    app::update(&mut a, Action::Quit);
    assert!(a.quit);
}

#[test]
fn a_lesson_footer_says_nothing_of_a_live_run() {
    let a = common::app(agent_loop_sim::load::DEFAULT_SCENARIO, Lang::En);
    assert!(!footer(&a).contains("live"));
}

#[test]
fn at_80x24_in_chinese_the_footer_keeps_the_live_status_and_the_step_counter() {
    let runs = grown(1);
    let mut a = App::new((*runs[0]).clone(), Lang::Zh, Theme::DARK);
    a.live = Some(Live::new(Vec::new()));
    app::update(&mut a, Action::Resize(80, 24));
    app::update(&mut a, Action::First);
    app::grow(&mut a, Update::Grown(grown(6)));
    let screen = frames::to_text(&frames::render(&a, 80, 24));
    let last = screen.lines().last().unwrap();
    let steps = a.trace().len();
    assert!(last.contains("● 实时：代理运行中"), "{last}");
    assert!(last.contains("步新"), "{last}");
    assert!(last.contains("对话 1/2"), "{last}");
    assert!(last.trim_end().ends_with(&format!("1/{steps}")), "{last}");
}

/// A call as the live view sees it while it runs: its request alone (the
/// shape `tap::record::Call::begun` gives it).
fn begun(line: &Value) -> Value {
    let mut begun = json!({"provider": line["provider"], "request": line["request"],
        "response": null, "status": null, "path": line["path"]});
    if let Some(side) = line.get("side") {
        begun["side"] = side.clone();
    }
    begun
}

/// A trace without its narration: the words differ on purpose (the live
/// view counts requests, a replay counts lines of the file).
fn unnarrated(trace: &agent_loop_sim::trace::Trace) -> agent_loop_sim::trace::Trace {
    let mut trace = trace.clone();
    for step in trace.steps.iter_mut() {
        step.narration = None;
    }
    trace
}

fn same_traces(a: &agent_loop_sim::load::Loaded, b: &agent_loop_sim::load::Loaded, at: &str) {
    for lang in Lang::ALL {
        assert!(
            a.trace(lang) == b.trace(lang),
            "{at}: the traces differ ({lang:?})"
        );
    }
}

/// A run grown past several chunks of model calls, as the tap grows it:
/// the chunks each build shares with the build before (measured there, and
/// not measured again) hold the sizes a reading of all the calls gives.
#[test]
fn model_calls_a_build_before_measured_keep_their_sizes_as_the_run_grows() {
    use agent_loop_sim::shared::CHUNK;
    let lines = long_run_lines(2 * CHUNK + 10);
    let mut growing = transcript::growing::Growing::new("long.jsonl", false);
    let mut before: Option<agent_loop_sim::load::Loaded> = None;
    let mut shared = 0;
    for (i, line) in lines.iter().enumerate() {
        let was = std::sync::Arc::new(begun(line));
        growing.request_written(&was, transcript::growing::written(&line["request"]));
        let _ = growing.runs(vec![was.clone()]);
        let mut ended = line.clone();
        ended["request"] = Value::Null;
        growing.push_ended(ended, was);
        let grown = growing.runs(Vec::new()).remove(0);
        if let Some(before) = &before {
            let (a, b) = (
                &grown.trace(Lang::En).model_calls,
                &before.trace(Lang::En).model_calls,
            );
            shared += a.alike(b, |_, _| false) / CHUNK;
        }
        // Read whole where chunks were shared, and at the end.
        if i > CHUNK && (i % 23 == 0 || i + 1 == lines.len()) {
            let once = transcript::growing::live("long.jsonl", lines[..=i].to_vec(), false);
            same_traces(&grown, &once[0], &format!("call {}", i + 1));
        }
        before = Some(grown);
    }
    // Builds took whole chunks of the build before's model calls.
    assert!(shared > CHUNK, "{shared} chunks shared");
}

/// Every recording fixture, grown one call at a time as the tap sees it
/// (each call first running, then ended), gives at each call the runs a
/// reading of all the calls so far gives, and at the end the runs
/// `--transcript FILE` (and `FILE#N`) replays, step for step.
#[test]
fn the_live_build_grows_call_by_call_into_the_replay_of_every_recording() {
    let dir = std::env::temp_dir().join(format!("als-live-grow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let synthetic = dir.join("run.jsonl");
    let text: String = run_lines().iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&synthetic, text).unwrap();
    let long = dir.join("long.jsonl");
    let text: String = long_run_lines(40)
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&long, text).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let files = [
        format!("{root}/tests/transcripts/real/cli/claude-code.tap.jsonl"),
        format!("{root}/tests/transcripts/real/cli/codex.tap.jsonl"),
        synthetic.display().to_string(),
        long.display().to_string(),
    ];
    for file in &files {
        let lines: Vec<Value> = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let name = std::path::Path::new(file)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let mut growing = transcript::growing::Growing::new(name, false);
        for (i, line) in lines.iter().enumerate() {
            // Running: its request after the calls that ended.
            let was = std::sync::Arc::new(begun(line));
            // As the tap hands most calls, with the request's text the
            // recording writes (`tap::record::Observed::request`).
            if i % 3 != 0 {
                growing.request_written(&was, transcript::growing::written(&line["request"]));
            }
            let running = growing.runs(vec![was.clone()]);
            let mut so_far = lines[..i].to_vec();
            so_far.push(begun(line));
            let once = transcript::growing::live(name, so_far, false);
            assert_eq!(running.len(), once.len(), "{file}: call {} running", i + 1);
            for (a, b) in running.iter().zip(&once) {
                same_traces(a, b, &format!("{file}: call {} running", i + 1));
            }
            // Ended, as the tap hands it: the call that ran as `was`, its
            // request left to `was` (most calls; `was` then held here too
            // where the call is even, so its request is copied, not moved).
            let mut ended = line.clone();
            if i % 4 != 0 {
                ended["request"] = Value::Null;
            }
            let held = (i % 2 == 0).then(|| was.clone());
            growing.push_ended(ended, was);
            drop(held);
            let ended = growing.runs(Vec::new());
            let once = transcript::growing::live(name, lines[..=i].to_vec(), false);
            assert_eq!(ended.len(), once.len(), "{file}: call {} ended", i + 1);
            for (a, b) in ended.iter().zip(&once) {
                same_traces(a, b, &format!("{file}: call {} ended", i + 1));
            }
        }
        let live = growing.runs(Vec::new());
        let (main, others) = transcript::load_all(file, None, false, None).unwrap();
        let replay: Vec<_> = std::iter::once(main).chain(others).collect();
        assert_eq!(live.len(), replay.len(), "{file}: conversations");
        for (k, (a, b)) in live.iter().zip(&replay).enumerate() {
            for lang in Lang::ALL {
                assert!(
                    unnarrated(a.trace(lang)) == unnarrated(b.trace(lang)),
                    "{file}: conversation {} differs from its replay ({lang:?})",
                    k + 1
                );
                assert_eq!(a.trace(lang).len(), b.trace(lang).len());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Watching, `o` lists the run's conversations (not the lessons, which
/// would leave it); Enter switches to one as `s` does.
#[test]
fn watching_the_picker_lists_the_conversations_and_enter_switches() {
    let mut a = live_app(6);
    a.live.as_mut().unwrap().recording = "run.jsonl".into();
    app::update(&mut a, Action::TogglePicker);
    let screen = frames::to_text(&frames::render(&a, 120, 40));
    assert!(
        screen.contains("Conversations of the tap's run"),
        "{screen}"
    );
    assert!(screen.contains("Enter switches to it"), "{screen}");
    assert!(screen.contains("--transcript run.jsonl#1"), "{screen}");
    assert!(!screen.contains("Lessons"), "{screen}");
    assert_eq!(a.picker.lessons.len(), 2);
    app::update(&mut a, Action::Scroll(1));
    let screen = frames::to_text(&frames::render(&a, 120, 40));
    assert!(screen.contains("--transcript run.jsonl#2"), "{screen}");
    app::update(&mut a, Action::Open);
    assert_eq!(a.live.as_ref().unwrap().current, 1);
    assert_eq!(a.overlay, None);
    assert!(footer(&a).contains("conversation 2/2"), "{}", footer(&a));
}

/// An upstream 500 is an error answer with its own status, not a refusal
/// for missing results (which a 400 is).
#[test]
fn an_upstream_500_is_titled_with_its_own_status() {
    let mut failed = line(
        "opus",
        true,
        json!([
            user("fix it"),
            assistant(read_call("toolu_1")),
            result("toolu_1")
        ]),
        None,
    );
    failed["status"] = json!(500);
    failed["response"] = json!({"type": "error", "error": {"type": "api_error", "message": "Internal server error"}});
    let lines = vec![
        line(
            "opus",
            true,
            json!([user("fix it")]),
            Some(read_call("toolu_1")),
        ),
        failed,
    ];
    let runs: Vec<_> = transcript::growing::live("run.jsonl", lines, false)
        .into_iter()
        .map(Arc::new)
        .collect();
    let mut a = App::new((*runs[0]).clone(), Lang::En, Theme::DARK);
    a.live = Some(Live::new(Vec::new()));
    app::update(&mut a, Action::Last);
    app::grow(&mut a, Update::Grown(runs));
    let screen = frames::to_text(&frames::render(&a, 120, 40));
    assert!(
        screen.contains("The provider answers model call #2 with an error (500), not a reply"),
        "{screen}"
    );
    assert!(!screen.contains("(400)"), "{screen}");
    let narration = a.trace().steps.last().unwrap().narration.clone().unwrap();
    assert!(narration.contains("request 2"), "{narration}");
    assert!(narration.contains("with a server error"), "{narration}");
    assert!(
        narration.contains("500 api_error: Internal server error"),
        "{narration}"
    );
}

/// Live, the run may go on: its last step says the recording so far ends
/// there, and a call still being run has "no result yet"; read afterwards,
/// the same file ends.
#[test]
fn live_the_last_step_says_the_recording_so_far_ends_there() {
    // Two calls: the second request answers the first call; the first
    // reply proposed it, so after one line the call has no result yet.
    let runs = grown(1);
    let last =
        |t: &agent_loop_sim::trace::Trace| t.steps.last().unwrap().narration.clone().unwrap();
    let en = last(runs[0].trace(Lang::En));
    assert!(en.contains("The recording so far ends here."), "{en}");
    assert!(!en.contains("The file ends here"), "{en}");
    assert!(!en.contains("never got a result"), "{en}");
    assert!(!en.contains("an unanswered call"), "{en}");
    assert!(en.contains("Calls with no result yet: toolu_main"), "{en}");
    let zh = last(runs[0].trace(Lang::Zh));
    assert!(zh.contains("目前录下的请求到此为止。"), "{zh}");

    let dir = std::env::temp_dir().join(format!("als-live-end-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.jsonl");
    std::fs::write(&file, format!("{}\n", run_lines()[0])).unwrap();
    let (read, _) = transcript::load_all(file.to_str().unwrap(), None, false, None).unwrap();
    let en = last(read.trace(Lang::En));
    assert!(en.contains("The file ends here."), "{en}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A trace measured again beside one it shares chunks of steps with
/// (`Trace::set_measures_like`, as a live build beside the build before)
/// gives each step the size of its model call, as measured now, as a
/// trace measured on its own does: a shared chunk is passed over only
/// where its calls measure as before.
#[test]
fn steps_measured_beside_a_trace_they_share_take_their_calls_sizes() {
    let run = transcript::growing::live("long.jsonl", long_run_lines(40), false);
    let before = run[0].trace(Lang::En);
    assert!(before.steps.len() > 2 * agent_loop_sim::shared::CHUNK);
    for k in [
        0,
        1,
        before.model_calls.len() / 2,
        before.model_calls.len() - 1,
    ] {
        let mut measures = agent_loop_sim::wire::measure(before, None);
        let (at, measure) = &mut measures.calls[k];
        assert_eq!(*at, k, "measured alone, every call is");
        measure.context_size += 7;
        let mut alone = before.clone();
        alone.set_measures(measures.clone());
        let mut beside = before.clone();
        beside.set_measures_like(measures, Some((&before.steps, &before.model_calls)));
        assert!(alone == beside, "model call {k} measured otherwise");
        let mut of_k = beside.steps.iter().filter(|s| s.model_call == Some(k));
        assert!(of_k.clone().count() > 0);
        assert!(of_k.all(|s| s.counters.context_size == before.model_calls[k].context_size + 7));
    }
}
