//! Long runs: a step number of any length, `/` search with n / N, the
//! next and previous model call (m / M) and error or warning (e / E), and
//! the header saying where a match is. Tested on transcripts, the long
//! runs these keys are for.

use agent_loop_sim::app::{Action, App};
use agent_loop_sim::frames;
use agent_loop_sim::keymap;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::transcript;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A Chat Completions messages document of `calls` one-tool turns: every
/// seventh call reads a missing file and gets no result until the end.
fn long_run(calls: usize) -> App {
    let mut messages = vec![serde_json::json!({"role": "user", "content": "Read the files."})];
    for n in 0..calls {
        messages.push(
            serde_json::json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": format!("call_{n}"), "type": "function",
             "function": {"name": if n % 2 == 0 { "read_file" } else { "list_dir" },
                          "arguments": format!("{{\"path\":\"src/file_{n}.rs\"}}")}}]}),
        );
        messages.push(
            serde_json::json!({"role": "tool", "tool_call_id": format!("call_{n}"),
            "content": format!("contents of file {n}")}),
        );
    }
    messages.push(
        serde_json::json!({"role": "tool", "tool_call_id": "call_ghost", "content": "who asked?"}),
    );
    messages.push(serde_json::json!({"role": "assistant", "content": "Done."}));
    // Tests run in parallel: each file its own name.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path =
        std::env::temp_dir().join(format!("als-find-{}-{calls}-{n}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string(&messages).unwrap()).unwrap();
    let loaded = transcript::open(path.to_str().unwrap(), None)
        .unwrap()
        .loaded;
    std::fs::remove_file(&path).ok();
    App::new(loaded, Lang::En, Theme::DARK)
}

fn apply(app: &mut App, actions: &[Action]) {
    for a in actions {
        frames::apply(app, *a);
    }
}

fn header(app: &App) -> String {
    let buf = frames::render(app, 120, 40);
    (0..120).map(|x| buf[(x, 0)].symbol().to_string()).collect()
}

#[test]
fn digits_in_a_row_make_a_step_number_of_any_length() {
    let mut a = long_run(60);
    assert!(a.trace().len() > 200, "{}", a.trace().len());
    apply(&mut a, &[Action::Jump(1), Action::Jump(5), Action::Jump(0)]);
    assert_eq!(a.step, 149, "1 5 0 is step 150");
    apply(&mut a, &[Action::Jump(2), Action::Jump(0), Action::Jump(3)]);
    assert_eq!(a.step, 202);
    // 99 can grow no longer (990 is past the end): a third 9 starts anew.
    apply(&mut a, &[Action::Jump(9), Action::Jump(9)]);
    assert_eq!(a.step, 98);
    apply(&mut a, &[Action::Jump(9)]);
    assert_eq!(a.step, 8);
    // 0 alone names no step.
    apply(&mut a, &[Action::Next, Action::Jump(0)]);
    assert_eq!(a.step, 9);
    let zero = KeyEvent::new(KeyCode::Char('0'), KeyModifiers::NONE);
    assert_eq!(keymap::action_for(&zero), Some(Action::Jump(0)));
}

#[test]
fn a_search_goes_to_each_match_and_the_header_says_which() {
    let mut a = long_run(60);
    // Typed as keys, the way the terminal gives them.
    let key = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    assert_eq!(keymap::action_for(&key('/')), Some(Action::SearchStart));
    apply(&mut a, &[Action::SearchStart]);
    assert!(a.search.typing);
    for c in "FILE_4".chars() {
        apply(&mut a, &[keymap::typing_action(&key(c)).unwrap()]);
    }
    // `n` while typing is a letter of the search, not "next match".
    assert_eq!(
        keymap::typing_action(&key('n')),
        Some(Action::SearchInput('n'))
    );
    apply(&mut a, &[Action::SearchBackspace, Action::SearchInput('4')]);
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    apply(&mut a, &[keymap::typing_action(&enter).unwrap()]);
    // file_4 and file_40..49, in call ids' arguments, titles and results.
    let first = a.step;
    assert!(a.search.matches.contains(&first));
    let title = agent_loop_sim::i18n::step_title(a.trace(), first);
    assert_eq!(
        title,
        "The model proposes call_4 read_file (a proposal only)"
    );
    let n = a.search.matches.len();
    assert!(
        header(&a).contains(&format!("\"FILE_4\" match 1/{n}")),
        "{}",
        header(&a)
    );
    apply(&mut a, &[Action::NextMatch]);
    assert!(a.step > first);
    assert!(
        header(&a).contains(&format!("match 2/{n}")),
        "{}",
        header(&a)
    );
    // N from the first match wraps to the last.
    apply(&mut a, &[Action::PrevMatch, Action::PrevMatch]);
    assert_eq!(a.step, *a.search.matches.last().unwrap());
    // Away from a match the header says how many there are.
    apply(&mut a, &[Action::First]);
    assert!(
        header(&a).contains(&format!("\"FILE_4\": {n} matches")),
        "{}",
        header(&a)
    );
    // In the other language the titles differ: found again in it.
    apply(&mut a, &[Action::SwitchLanguage, Action::NextMatch]);
    assert_eq!(a.search.lang, Some(Lang::Zh));
    assert!(a.search.matches.contains(&a.step));
    // A search for a tool name; Esc while typing leaves no search.
    apply(&mut a, &[Action::SearchStart, Action::SearchCancel]);
    assert!(a.search.query.is_empty() && !a.search.typing);
    assert!(!header(&a).contains("match"));
}

#[test]
fn model_calls_and_warnings_are_one_key_away() {
    let mut a = long_run(60);
    apply(&mut a, &[Action::NextModelCall]);
    let first = a.step;
    assert!(matches!(
        a.trace().steps[first].kind,
        agent_loop_sim::trace::StepKind::ModelCall { number: 1 }
    ));
    apply(&mut a, &[Action::NextModelCall]);
    assert!(matches!(
        a.trace().steps[a.step].kind,
        agent_loop_sim::trace::StepKind::ModelCall { number: 2 }
    ));
    apply(&mut a, &[Action::PrevModelCall]);
    assert_eq!(a.step, first);
    // The one warning: the orphan result near the end.
    apply(&mut a, &[Action::NextTrouble]);
    let orphan = a.step;
    assert!(
        agent_loop_sim::i18n::step_title(a.trace(), orphan).contains("call_ghost"),
        "{}",
        agent_loop_sim::i18n::step_title(a.trace(), orphan)
    );
    // Nothing after it: the step stays.
    apply(&mut a, &[Action::NextTrouble]);
    assert_eq!(a.step, orphan);
    apply(&mut a, &[Action::Last, Action::PrevTrouble]);
    assert_eq!(a.step, orphan);
}

#[test]
fn the_new_keys_are_in_the_help_not_in_the_footer() {
    let footer = keymap::footer_hints(Lang::En);
    for action in [
        Action::SearchStart,
        Action::NextMatch,
        Action::PrevMatch,
        Action::NextModelCall,
        Action::PrevModelCall,
        Action::NextTrouble,
        Action::PrevTrouble,
    ] {
        let row = keymap::KEYMAP.iter().find(|b| b.action == action).unwrap();
        assert!(row.hint.is_none());
        assert!(!footer.iter().any(|(_, l)| *l == row.help.get(Lang::En)));
    }
}
