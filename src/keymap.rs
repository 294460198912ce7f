//! One table of keys: it drives dispatch, the footer hints and the help
//! overlay, so the three can never disagree. What is on screen is a
//! `Mode`, and each mode lists the bindings it enables: a key does
//! something only where its mode lists it, and the footer of that mode
//! shows that same list.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::action::Action;
use crate::i18n::{Label, keys};
use crate::scenario::Lang;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Code(KeyCode),
    Char(char),
    Ctrl(char),
    /// 0–9: digits typed in a row make a step number to jump to.
    Digits,
    /// 1–4: a choice of the open question (quiz).
    Choices,
}

impl Key {
    fn display(self) -> String {
        match self {
            Key::Code(KeyCode::Right) => "→".into(),
            Key::Code(KeyCode::Left) => "←".into(),
            Key::Code(KeyCode::Up) => "↑".into(),
            Key::Code(KeyCode::Down) => "↓".into(),
            Key::Code(KeyCode::PageDown) => "PgDn".into(),
            Key::Code(KeyCode::PageUp) => "PgUp".into(),
            Key::Code(KeyCode::Enter) => "Enter".into(),
            Key::Code(KeyCode::Backspace) => "Bksp".into(),
            Key::Code(KeyCode::Home) => "Home".into(),
            Key::Code(KeyCode::End) => "End".into(),
            Key::Code(KeyCode::Tab) => "Tab".into(),
            Key::Code(KeyCode::BackTab) => "S-Tab".into(),
            Key::Code(KeyCode::Esc) => "Esc".into(),
            Key::Code(other) => format!("{other}"),
            Key::Char(' ') => "Space".into(),
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
            Key::Digits => "0–9".into(),
            Key::Choices => "1–4".into(),
        }
    }

    fn matches(self, event: &KeyEvent) -> bool {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        match (self, event.code) {
            (Key::Ctrl(c), KeyCode::Char(e)) => ctrl && e.eq_ignore_ascii_case(&c),
            (Key::Char(c), KeyCode::Char(e)) => !ctrl && c == e,
            (Key::Digits, KeyCode::Char(e)) => !ctrl && e.is_ascii_digit(),
            (Key::Choices, KeyCode::Char(e)) => !ctrl && ('1'..='4').contains(&e),
            (Key::Code(c), e) => !ctrl && c == e,
            _ => false,
        }
    }
}

pub struct Binding {
    pub keys: &'static [Key],
    pub action: Action,
    pub help: Label,
    /// Short hint for the footer; `None` keeps the binding out of it.
    pub hint: Option<Label>,
}

impl Binding {
    pub fn keys_text(&self) -> String {
        self.keys
            .iter()
            .map(|k| k.display())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The first keys, for the footer.
    pub fn short_keys(&self) -> String {
        match self.keys {
            [Key::Code(KeyCode::Up), Key::Code(KeyCode::Down), ..] => "↑↓".into(),
            [Key::Code(KeyCode::Right), ..] => "→".into(),
            [Key::Code(KeyCode::Left), ..] => "←".into(),
            [Key::Char('+'), ..] => "+/-".into(),
            [first, ..] => first.display(),
            [] => String::new(),
        }
    }
}

use KeyCode as K;

pub const KEYMAP: &[Binding] = &[
    Binding {
        keys: &[
            Key::Code(K::Right),
            Key::Char('l'),
            Key::Code(K::PageDown),
            Key::Code(K::Enter),
        ],
        action: Action::Next,
        help: keys::NEXT_HELP,
        hint: Some(keys::NEXT_HINT),
    },
    Binding {
        keys: &[
            Key::Code(K::Left),
            Key::Char('h'),
            Key::Code(K::PageUp),
            Key::Code(K::Backspace),
        ],
        action: Action::Prev,
        help: keys::PREV_HELP,
        hint: Some(keys::PREV_HINT),
    },
    Binding {
        keys: &[Key::Char(' ')],
        action: Action::TogglePlay,
        help: keys::TOGGLE_PLAY_HELP,
        hint: Some(keys::TOGGLE_PLAY_HINT),
    },
    Binding {
        keys: &[Key::Char('+'), Key::Char('=')],
        action: Action::DwellLonger,
        help: keys::DWELL_LONGER_HELP,
        hint: Some(keys::DWELL_LONGER_HINT),
    },
    Binding {
        keys: &[Key::Char('-'), Key::Char('_')],
        action: Action::DwellShorter,
        help: keys::DWELL_SHORTER_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Code(K::Home), Key::Char('g')],
        action: Action::First,
        help: keys::FIRST_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Code(K::End), Key::Char('G')],
        action: Action::Last,
        help: keys::LAST_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Digits],
        action: Action::Jump(0),
        help: keys::JUMP_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('/')],
        action: Action::SearchStart,
        help: keys::SEARCH_START_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('n')],
        action: Action::NextMatch,
        help: keys::NEXT_MATCH_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('N')],
        action: Action::PrevMatch,
        help: keys::PREV_MATCH_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('m')],
        action: Action::NextModelCall,
        help: keys::NEXT_MODEL_CALL_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('M')],
        action: Action::PrevModelCall,
        help: keys::PREV_MODEL_CALL_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('e')],
        action: Action::NextTrouble,
        help: keys::NEXT_TROUBLE_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('E')],
        action: Action::PrevTrouble,
        help: keys::PREV_TROUBLE_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Code(K::Tab)],
        action: Action::FocusNext,
        help: keys::FOCUS_NEXT_HELP,
        hint: Some(keys::FOCUS_NEXT_HINT),
    },
    Binding {
        keys: &[Key::Code(K::BackTab)],
        action: Action::FocusPrev,
        help: keys::FOCUS_PREV_HELP,
        hint: None,
    },
    Binding {
        keys: &[
            Key::Code(K::Up),
            Key::Code(K::Down),
            Key::Char('k'),
            Key::Char('j'),
        ],
        action: Action::Scroll(0),
        help: keys::SCROLL_HELP,
        hint: Some(keys::SCROLL_HINT),
    },
    Binding {
        keys: &[Key::Char('z')],
        action: Action::Zoom,
        help: keys::ZOOM_HELP,
        hint: Some(keys::ZOOM_HINT),
    },
    Binding {
        keys: &[Key::Char('f')],
        action: Action::ToggleFold,
        help: keys::TOGGLE_FOLD_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('w')],
        action: Action::ToggleWire,
        help: keys::TOGGLE_WIRE_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('L')],
        action: Action::SwitchLanguage,
        help: keys::SWITCH_LANGUAGE_HELP,
        hint: Some(keys::SWITCH_LANGUAGE_HINT),
    },
    Binding {
        keys: &[Key::Char('a')],
        action: Action::ToggleAbout,
        help: keys::TOGGLE_ABOUT_HELP,
        hint: Some(keys::TOGGLE_ABOUT_HINT),
    },
    Binding {
        keys: &[Key::Char('?')],
        action: Action::ToggleHelp,
        help: keys::TOGGLE_HELP_HELP,
        hint: Some(keys::TOGGLE_HELP_HINT),
    },
    Binding {
        keys: &[Key::Char('p')],
        action: Action::ToggleQuiz,
        help: keys::TOGGLE_QUIZ_HELP,
        hint: Some(keys::TOGGLE_QUIZ_HINT),
    },
    Binding {
        keys: &[Key::Choices],
        action: Action::Answer(0),
        help: keys::ANSWER_HELP,
        hint: Some(keys::ANSWER_HINT),
    },
    Binding {
        keys: &[Key::Char('r')],
        action: Action::Reveal,
        help: keys::REVEAL_HELP,
        hint: Some(keys::REVEAL_HINT),
    },
    Binding {
        keys: &[Key::Char('v')],
        action: Action::SecondRound,
        help: keys::SECOND_ROUND_HELP,
        hint: Some(keys::SECOND_ROUND_HINT),
    },
    Binding {
        keys: &[Key::Char('i')],
        action: Action::ToggleJoin,
        help: keys::TOGGLE_JOIN_HELP,
        hint: Some(keys::TOGGLE_JOIN_HINT),
    },
    Binding {
        keys: &[Key::Code(K::Enter)],
        action: Action::Open,
        help: keys::OPEN_HELP,
        hint: Some(keys::OPEN_HINT),
    },
    Binding {
        keys: &[Key::Char('o')],
        action: Action::TogglePicker,
        help: keys::TOGGLE_PICKER_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('c')],
        action: Action::ToggleCompare,
        help: crate::i18n::COMPARE_KEY_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Code(K::Esc)],
        action: Action::Back,
        help: keys::BACK_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('q'), Key::Ctrl('c')],
        action: Action::Quit,
        help: keys::QUIT_HELP,
        hint: Some(keys::QUIT_HINT),
    },
    // A tap's run: last in the help, after the keys of every lesson.
    Binding {
        keys: &[Key::Char('s')],
        action: Action::SwitchConversation,
        help: keys::SWITCH_CONVERSATION_HELP,
        hint: None,
    },
    Binding {
        keys: &[Key::Char('y')],
        action: Action::QuitYes,
        help: keys::QUIT_YES_HELP,
        hint: Some(keys::QUIT_YES_HINT),
    },
    Binding {
        keys: &[Key::Char('n'), Key::Code(K::Esc)],
        action: Action::QuitNo,
        help: keys::QUIT_NO_HELP,
        hint: Some(keys::QUIT_NO_HINT),
    },
];

/// What the screen shows, as far as keys are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The lesson, with no question open (`quiz`: the quiz is on).
    Lesson { quiz: bool },
    /// A quiz question waits: the digits 1 to `choices` answer it.
    Asking { choices: usize },
    /// `--class`: the lesson, the room joined (`j` shows how).
    ClassLesson,
    /// `--class`: a question waits for the room; `r` reveals its counts.
    ClassAsking { choices: usize },
    /// Help or about over the lesson: nothing moves behind it.
    Overlay,
    /// The lesson picker: ↑↓ choose, Enter opens.
    Picker,
    /// Two runs side by side: no quiz, no zoom; Esc goes back to one run.
    Compare,
    /// The live view asks whether to stop the running agent and quit.
    ConfirmQuit,
}

/// One key of a mode: the action, and whether the footer shows it (with
/// another label than the binding's own, where the mode means it so).
#[derive(Debug, Clone, Copy)]
struct ModeKey {
    action: Action,
    footer: Footer,
}

#[derive(Debug, Clone, Copy)]
enum Footer {
    Hidden,
    Shown,
    As(Label),
}

const fn key(action: Action, footer: Footer) -> ModeKey {
    ModeKey { action, footer }
}

use Footer::{As, Hidden, Shown};

/// The lesson's keys, in the footer's order (the keymap's).
const LESSON: &[ModeKey] = &[
    key(Action::Next, Shown),
    key(Action::Prev, Shown),
    key(Action::TogglePlay, Shown),
    key(Action::DwellLonger, Shown),
    key(Action::DwellShorter, Hidden),
    key(Action::First, Hidden),
    key(Action::Last, Hidden),
    key(Action::Jump(0), Hidden),
    key(Action::FocusNext, Shown),
    key(Action::FocusPrev, Hidden),
    key(Action::Scroll(0), Shown),
    key(Action::Zoom, Shown),
    key(Action::ToggleFold, Hidden),
    key(Action::ToggleWire, Hidden),
    key(Action::SearchStart, Hidden),
    key(Action::NextMatch, Hidden),
    key(Action::PrevMatch, Hidden),
    key(Action::NextModelCall, Hidden),
    key(Action::PrevModelCall, Hidden),
    key(Action::NextTrouble, Hidden),
    key(Action::PrevTrouble, Hidden),
    key(Action::SwitchLanguage, Shown),
    key(Action::ToggleAbout, Shown),
    key(Action::ToggleHelp, Shown),
    key(Action::ToggleQuiz, Hidden),
    key(Action::TogglePicker, Hidden),
    key(Action::ToggleCompare, Hidden),
    key(Action::SwitchConversation, Hidden),
    key(Action::Back, Hidden),
    key(Action::Quit, Shown),
];

/// What the quiz being on changes in the lesson: its key comes first and
/// is shown; every other key is the lesson's, in the lesson's order.
const QUIZ_ON: &[ModeKey] = &[key(Action::ToggleQuiz, Shown)];

/// A question open: the digits answer. → and Space still reach `update`,
/// which says to answer first; they are not offered in the footer.
const ASKING: &[ModeKey] = &[
    key(Action::Answer(0), Shown),
    key(Action::Back, As(crate::i18n::QUIZ_HINT_CLOSE)),
    key(Action::Prev, Shown),
    key(Action::FocusNext, Shown),
    key(Action::ToggleQuiz, Shown),
    key(Action::SwitchLanguage, Shown),
    key(Action::ToggleHelp, Shown),
    key(Action::Quit, Shown),
    key(Action::Next, Hidden),
    key(Action::TogglePlay, Hidden),
    key(Action::First, Hidden),
    key(Action::Last, Hidden),
    key(Action::FocusPrev, Hidden),
    key(Action::Scroll(0), Hidden),
    key(Action::ToggleFold, Hidden),
    key(Action::ToggleWire, Hidden),
    key(Action::DwellLonger, Hidden),
    key(Action::DwellShorter, Hidden),
    key(Action::ToggleAbout, Hidden),
    key(Action::TogglePicker, Hidden),
    key(Action::ToggleCompare, Hidden),
];

/// `--class`: the QR code is a key away.
const CLASS_LESSON: &[ModeKey] = &[
    key(Action::ToggleJoin, Shown),
    key(Action::ToggleQuiz, Hidden),
];

/// `--class` with a question open: reveal, vote again, the QR code; the
/// digits still answer (the teacher's answer reveals too), not offered.
const CLASS_ASKING: &[ModeKey] = &[
    key(Action::Reveal, Shown),
    key(Action::SecondRound, Shown),
    key(Action::ToggleJoin, Shown),
    key(Action::Answer(0), Hidden),
];

/// Help or about: scroll it, close it, switch to another overlay or
/// language; `c` opens the comparison the about overlay offers.
const OVERLAY: &[ModeKey] = &[
    key(Action::Scroll(0), Shown),
    key(Action::Back, As(crate::i18n::HINT_CLOSE)),
    key(Action::SwitchLanguage, Shown),
    key(Action::ToggleAbout, Shown),
    key(Action::ToggleHelp, Shown),
    key(Action::TogglePicker, Hidden),
    key(Action::ToggleCompare, Hidden),
    key(Action::Quit, Shown),
    // The join panel (`--class`) closes with its own key too.
    key(Action::ToggleJoin, Hidden),
];

/// The picker: only Enter opens; →, PageDown (a clicker), digits and
/// Space do nothing here.
const PICKER: &[ModeKey] = &[
    key(Action::Scroll(0), As(crate::i18n::PICKER_CHOOSE)),
    key(Action::First, Hidden),
    key(Action::Last, Hidden),
    key(Action::Open, Shown),
    key(Action::Back, As(crate::i18n::HINT_CLOSE)),
    key(Action::TogglePicker, Hidden),
    key(Action::SwitchLanguage, Shown),
    key(Action::ToggleHelp, Shown),
    key(Action::Quit, Shown),
];

/// Stop the agent and quit? `q` (or Ctrl-C) again is yes.
const CONFIRM_QUIT: &[ModeKey] = &[
    key(Action::QuitYes, Shown),
    key(Action::QuitNo, Shown),
    key(Action::Quit, Hidden),
];

/// Two runs: stepped together; Tab changes side; Esc or `c` back to one.
const COMPARE: &[ModeKey] = &[
    key(Action::Next, Shown),
    key(Action::Prev, Shown),
    key(Action::TogglePlay, Shown),
    key(Action::DwellLonger, Shown),
    key(Action::DwellShorter, Hidden),
    key(Action::First, Hidden),
    key(Action::Last, Hidden),
    key(Action::Jump(0), Hidden),
    key(Action::FocusNext, Shown),
    key(Action::FocusPrev, Hidden),
    key(Action::Scroll(0), Shown),
    key(Action::Zoom, Shown),
    key(Action::SwitchLanguage, Shown),
    key(Action::ToggleAbout, Shown),
    key(Action::ToggleHelp, Shown),
    key(Action::TogglePicker, Hidden),
    key(Action::ToggleCompare, Hidden),
    key(Action::Back, Hidden),
    key(Action::Quit, Shown),
];

/// The same action, whatever number it carries (`Jump(0)` is any jump).
fn same(a: Action, b: Action) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
}

impl Mode {
    /// The mode's keys, in the footer's order: a base table, and the keys
    /// a variant of it adds or replaces first.
    fn keys(self) -> impl Iterator<Item = &'static ModeKey> {
        let (changes, base): (&'static [ModeKey], &'static [ModeKey]) = match self {
            Mode::Lesson { quiz: false } => (&[], LESSON),
            Mode::Lesson { quiz: true } => (QUIZ_ON, LESSON),
            Mode::Asking { .. } => (&[], ASKING),
            Mode::ClassLesson => (CLASS_LESSON, LESSON),
            Mode::ClassAsking { .. } => (CLASS_ASKING, ASKING),
            Mode::Overlay => (&[], OVERLAY),
            Mode::Picker => (&[], PICKER),
            Mode::Compare => (&[], COMPARE),
            Mode::ConfirmQuit => (&[], CONFIRM_QUIT),
        };
        let kept = base
            .iter()
            .filter(move |k| !changes.iter().any(|c| same(c.action, k.action)));
        changes.iter().chain(kept)
    }

    /// Does a key for `action` do something in this mode? (Actions that
    /// no key makes, such as a tick or a draw, are not a mode's to list.)
    pub fn enables(self, action: Action) -> bool {
        self.keys().any(|k| same(k.action, action))
    }

    /// The footer's `key label` pairs, in the mode's order.
    pub fn hints(self, lang: Lang) -> Vec<(String, &'static str)> {
        self.keys()
            .filter_map(|k| {
                let b = binding(k.action)?;
                let label = match k.footer {
                    Hidden => return None,
                    Shown => b.hint?,
                    As(label) => label,
                };
                let keys = match (k.action, self) {
                    // The digits of this question's choices: 1–3 for three.
                    (Action::Answer(_), Mode::Asking { choices: 0 }) => return None,
                    (Action::Answer(_), Mode::Asking { choices: 1 }) => "1".to_string(),
                    (Action::Answer(_), Mode::Asking { choices }) => format!("1–{choices}"),
                    _ => b.short_keys(),
                };
                Some((keys, label.get(lang)))
            })
            .collect()
    }
}

fn binding(action: Action) -> Option<&'static Binding> {
    KEYMAP.iter().find(|b| b.action == action)
}

/// The action a key press means in the lesson with no question open.
pub fn action_for(event: &KeyEvent) -> Option<Action> {
    action_in(event, Mode::Lesson { quiz: false })
}

/// The action a key press means in `mode`: only the bindings the mode
/// enables are looked at (so Enter opens in the picker and steps on in
/// the lesson, and a digit answers only an open question).
pub fn action_in(event: &KeyEvent, mode: Mode) -> Option<Action> {
    let applies = |b: &&Binding| mode.enables(b.action);
    KEYMAP.iter().filter(applies).find_map(|b| {
        b.keys
            .iter()
            .find(|k| k.matches(event))
            .map(|k| match (b.action, event.code) {
                (Action::Jump(_), KeyCode::Char(c)) => {
                    Action::Jump(c.to_digit(10).unwrap_or(1) as usize)
                }
                (Action::Answer(_), KeyCode::Char(c)) => {
                    Action::Answer(c.to_digit(10).unwrap_or(1) as usize)
                }
                (Action::Scroll(_), _) => match k {
                    Key::Code(K::Up) | Key::Char('k') => Action::Scroll(-1),
                    _ => Action::Scroll(1),
                },
                (a, _) => a,
            })
    })
}

/// The action a key means while a search is being typed: characters go
/// into it; Enter searches, Esc cancels, Backspace deletes, Ctrl-C quits.
pub fn typing_action(event: &KeyEvent) -> Option<Action> {
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    match event.code {
        KeyCode::Char('c') if ctrl => Some(Action::Quit),
        KeyCode::Char(c) if !ctrl => Some(Action::SearchInput(c)),
        KeyCode::Backspace => Some(Action::SearchBackspace),
        KeyCode::Enter => Some(Action::SearchDone),
        KeyCode::Esc => Some(Action::SearchCancel),
        _ => None,
    }
}

/// Footer hints of the lesson with the quiz off.
pub fn footer_hints(lang: Lang) -> Vec<(String, &'static str)> {
    Mode::Lesson { quiz: false }.hints(lang)
}

/// Footer hints while the quiz is on; `asking`: a question with this
/// many choices is open.
pub fn quiz_hints(lang: Lang, asking: Option<usize>) -> Vec<(String, &'static str)> {
    match asking {
        Some(choices) => Mode::Asking { choices }.hints(lang),
        None => Mode::Lesson { quiz: true }.hints(lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quiz being on moves its key to the front of the footer and
    /// changes nothing else: the lesson's keys, in the lesson's order.
    #[test]
    fn the_quiz_on_is_the_lesson_with_its_key_first() {
        let on: Vec<Action> = Mode::Lesson { quiz: true }
            .keys()
            .map(|k| k.action)
            .collect();
        let off: Vec<Action> = Mode::Lesson { quiz: false }
            .keys()
            .map(|k| k.action)
            .collect();
        assert_eq!(on[0], Action::ToggleQuiz);
        let rest: Vec<Action> = off
            .into_iter()
            .filter(|a| *a != Action::ToggleQuiz)
            .collect();
        assert_eq!(on[1..], rest[..]);
        for lang in Lang::ALL {
            let with = Mode::Lesson { quiz: true }.hints(lang);
            let without = Mode::Lesson { quiz: false }.hints(lang);
            let quiz = binding(Action::ToggleQuiz).unwrap();
            assert_eq!(with[0], (quiz.short_keys(), quiz.hint.unwrap().get(lang)));
            assert_eq!(with[1..], without[..]);
        }
    }
}
