//! A lesson's sub-agent (`sub_agent` in a scenario, `load::sub_agent`):
//! the parent's task call starts it with the call's `prompt`; it runs its
//! own loop, with its own system prompt, tools and context; only its final
//! reply comes back, as the task call's result. Two runs, linked both ways
//! as a Claude Code session's are, and the parent's context never holds a
//! message of the sub-agent's.

mod common;

use agent_loop_sim::app::{self, Action, App};
use agent_loop_sim::load;
use agent_loop_sim::scenario::Lang;
use agent_loop_sim::theme::Theme;
use agent_loop_sim::trace::{Role, StepKind, Trace};
use agent_loop_sim::wire::Provider;

const LESSON: &str = "sub-agent-own-context";

fn texts(t: &Trace) -> Vec<String> {
    t.messages.iter().map(|m| m.text.to_string()).collect()
}

#[test]
fn only_the_sub_agents_final_reply_enters_the_parents_context() {
    for provider in [Provider::Chat, Provider::Responses, Provider::Anthropic] {
        let loaded = load::load_as(LESSON, Some(provider)).unwrap();
        let sub = loaded.sub_agent.as_ref().expect("the lesson's sub-agent");
        for lang in Lang::ALL {
            let (parent, own) = (loaded.trace(lang), sub.trace(lang));
            let at = format!("{} {}", provider.code(), lang.code());
            // Its own system prompt and tools: the parent's task is not one.
            assert_ne!(parent.system, own.system, "{at}");
            let tools = |t: &Trace| t.tools.iter().map(|o| o.name.clone()).collect::<Vec<_>>();
            assert_eq!(tools(parent), ["read_file", "task"], "{at}");
            assert_eq!(tools(own), ["grep", "read_file"], "{at}");
            // Its task is the task call's prompt, and nothing else of the
            // parent's conversation.
            let task = parent.calls.iter().find(|c| c.tool == "task").unwrap();
            let prompt = task.args.iter().find(|(k, _)| k == "prompt").unwrap();
            let first = &own.context(&own.model_calls[0]);
            assert_eq!(first.len(), 1, "{at}: only the prompt");
            assert_eq!((first[0].role, &*first[0].text), (Role::User, &*prompt.1));
            // The task call's result is the sub-agent's final reply.
            let last = own.messages.last().unwrap();
            assert_eq!(last.role, Role::Assistant);
            let result = task.result.as_ref().unwrap();
            assert_eq!(&*result.text, &*last.text, "{at}");
            // No message the sub-agent's loop made is in any context the
            // parent sends, but that one text, under the task call's id.
            let theirs = texts(own);
            for mc in &parent.model_calls {
                for m in parent.context(mc) {
                    let from_sub = theirs.iter().any(|t| *t == *m.text);
                    let is_result = m.call_id.as_ref() == Some(&task.id);
                    assert!(!from_sub || is_result, "{at}: {:?} in the parent's", m.text);
                }
            }
            assert!(
                !texts(parent)
                    .iter()
                    .any(|t| t.contains("request_timeout = 45\n")),
                "{at}: a file's content reached the parent"
            );
            // Linked both ways, by the call that started it.
            assert_eq!(
                parent.sub_agents.started,
                [(task.id.to_string(), "1".to_string())],
                "{at}"
            );
            assert_eq!(own.sub_agents.agent.as_deref(), Some("1"), "{at}");
        }
    }
}

#[test]
fn the_sub_agents_steps_are_narrated_in_both_languages() {
    let loaded = load::load(LESSON).unwrap();
    let sub = loaded.sub_agent.as_ref().unwrap();
    for lang in Lang::ALL {
        for (i, step) in sub.trace(lang).steps.iter().enumerate() {
            let text = step.narration.as_deref().unwrap_or("");
            assert!(!text.trim().is_empty(), "{} step {}", lang.code(), i + 1);
        }
    }
}

#[test]
fn the_task_calls_step_opens_the_sub_agents_run_and_u_comes_back() {
    let loaded = load::load(LESSON).unwrap();
    let mut a = App::new(loaded, Lang::En, Theme::DARK);
    assert_eq!(a.live.as_ref().map(|l| l.conversations.len()), Some(2));
    let runs = (a.trace().steps.iter())
        .position(|s| matches!(s.kind, StepKind::Executes { .. }))
        .unwrap();
    app::update(&mut a, Action::GoTo(runs));
    app::update(&mut a, Action::IntoSubAgent);
    assert_eq!(a.live.as_ref().unwrap().current, 1);
    assert_eq!(
        (a.step, a.trace().title.as_str()),
        (0, "The explore sub-agent")
    );
    app::update(&mut a, Action::Last);
    // Its answer, which goes back as the call's result, links back too.
    let live = a.live.as_ref().unwrap();
    let link = agent_loop_sim::sub_agent::at(live, a.trace(), a.step).unwrap();
    assert_eq!((link.conversation, link.step), (0, runs));
    app::update(&mut a, Action::OutOfSubAgent);
    assert_eq!((a.live.as_ref().unwrap().current, a.step), (0, runs));
    // Another lesson has no sub-agent: no conversations to switch.
    let other = load::load("read-config-timeout").unwrap();
    assert!(App::new(other, Lang::En, Theme::DARK).live.is_none());
}

/// What `check` says of a sub-agent the file gets wrong: at its place.
#[test]
fn a_wrong_sub_agent_is_said_at_its_place() {
    let mut json = common::shipped_json(LESSON);
    json["sub_agent"]["tool"] = "search".into();
    let file = common::scenario_file("sub-agent-no-tool", &json.to_string());
    let faults = common::faults_of(&file, &json);
    assert!(
        faults.iter().any(|f| f.contains("at sub_agent.tool")
            && f.contains("expected the name of a tool of \"tools\"")),
        "{faults:?}"
    );
    let mut json = common::shipped_json(LESSON);
    json["sub_agent"]["model"][2]["calls"][0]["tool"] = "list_files".into();
    let file = common::scenario_file("sub-agent-bad-rule", &json.to_string());
    let faults = common::faults_of(&file, &json);
    assert!(
        faults
            .iter()
            .any(|f| f.contains("at sub_agent.model[2].calls[0].tool")),
        "{faults:?}"
    );
}
