//! The live view's state: a tap's run as it grows (`tap [-- COMMAND]` in a
//! terminal), one run per conversation. No terminal and no clock here:
//! the tap reads the runs from its calls as they begin and end and
//! hands them to `app::grow`; the event loop draws them.

use std::sync::Arc;

use crate::load::Loaded;

/// What the tap hands the app.
#[derive(Debug, Clone)]
pub enum Update {
    /// The run so far: one per conversation, the main one first.
    Grown(Vec<Arc<Loaded>>),
    /// The agent ended, with this exit code (None: by a signal), or the
    /// tap without a command stopped serving.
    Ended(Option<i32>),
}

#[derive(Debug, Clone)]
pub struct Live {
    /// The conversations so far, in the order they started; the one on
    /// screen is `App::loaded`.
    pub conversations: Vec<Arc<Loaded>>,
    pub current: usize,
    /// Where each conversation not on screen was left (None: it follows
    /// its newest step).
    pub positions: Vec<Option<usize>>,
    /// The agent still runs: quitting asks first, and stops it.
    pub running: bool,
    /// How the agent ended, once it has.
    pub exit: Option<Option<i32>>,
    /// Steps that came while the view was not at the last one.
    pub new_steps: usize,
    /// `q` while the agent runs: the question "stop it and quit?" is open.
    pub confirm_quit: bool,
    /// A tap watching an agent now (else a recording read afterwards,
    /// whose conversations `s` switches between).
    pub watching: bool,
    /// The recording's file name, as `--transcript` opens it afterwards
    /// (the picker names each conversation by it: `FILE`, or `FILE#2`).
    pub recording: String,
    /// A tap without a command serving at this address: no agent of its
    /// own runs, so quitting does not ask.
    pub serving: Option<String>,
    /// Where `d` left for a sub-agent's run: (conversation, step), which
    /// `u` in that run goes back to.
    pub back: Option<(usize, usize)>,
}

impl Live {
    /// A tap watching its agent.
    pub fn new(conversations: Vec<Arc<Loaded>>) -> Live {
        let n = conversations.len();
        Live {
            conversations,
            current: 0,
            positions: vec![None; n],
            running: true,
            exit: None,
            new_steps: 0,
            confirm_quit: false,
            watching: true,
            recording: String::new(),
            serving: None,
            back: None,
        }
    }

    /// A recording read afterwards (`--transcript FILE`) that holds these
    /// conversations; nothing runs, nothing grows.
    pub fn recorded(conversations: Vec<Arc<Loaded>>) -> Live {
        Live {
            running: false,
            watching: false,
            ..Live::new(conversations)
        }
    }

    /// A lesson with a sub-agent: its run and the sub-agent's, two
    /// conversations linked by the call that starts it (`sub_agent`).
    pub fn of_lesson(loaded: &Arc<Loaded>) -> Option<Live> {
        let sub = loaded.sub_agent.clone()?;
        Some(Live::recorded(vec![loaded.clone(), sub]))
    }
}
