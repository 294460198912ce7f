//! What `update` is told: one `Action` per key, tick or drawn screen.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Next,
    Prev,
    First,
    Last,
    /// A digit key: jump to step n (1-based); a second digit right after
    /// makes a two-digit step number where the scenario has that many.
    Jump(usize),
    /// Go to a step by its 0-based index (export, tests).
    GoTo(usize),
    TogglePlay,
    /// The dwell time has passed while playing.
    Tick,
    DwellLonger,
    DwellShorter,
    FocusNext,
    FocusPrev,
    /// Scroll the focused panel (or the open overlay) by lines; + is down
    /// (towards the newest line, in the panels anchored at their end).
    Scroll(i32),
    Zoom,
    /// Show long context messages whole, or folded to their first lines.
    ToggleFold,
    /// Show the context panel as the request's JSON body, or as the
    /// readable list of messages.
    ToggleWire,
    ToggleHelp,
    ToggleAbout,
    SwitchLanguage,
    /// Close an overlay or zoom; quit when there is none.
    Back,
    Resize(u16, u16),
    /// Open or close the two runs side by side (when there is another run:
    /// `--compare`, or the scenario's twin).
    ToggleCompare,
    /// The screen was drawn: how far each panel and the overlay can
    /// scroll now. Scroll offsets are clamped to these, so `update` never
    /// has to lay anything out.
    Drawn(Limits),
    Quit,
    /// Predict, then reveal: turn the quiz on or off.
    ToggleQuiz,
    /// A digit while a question is open: choice n (1-based).
    Answer(usize),
    /// `--class`: show the room's counts of the open question, then its step.
    Reveal,
    /// `--class`: peer instruction, the room votes again after discussing.
    SecondRound,
    /// `--class`: show or hide the QR code the phones join by.
    ToggleJoin,
    /// Open or close the lesson picker. While it is open, ↑/↓ move in it,
    /// Home/End go to its ends and Open (Enter) opens the highlighted lesson.
    TogglePicker,
    /// Enter in the picker: open the highlighted lesson at step 1, or go
    /// back to the open one where it was.
    Open,
    /// `/`: start typing a search (`crate::find`).
    SearchStart,
    /// A character typed into the search.
    SearchInput(char),
    SearchBackspace,
    /// Enter: search, and go to the first match from here on.
    SearchDone,
    /// Esc while typing: no search.
    SearchCancel,
    /// `n` / `N`: the next / previous match.
    NextMatch,
    PrevMatch,
    /// `m` / `M`: the next / previous model call.
    NextModelCall,
    PrevModelCall,
    /// `e` / `E`: the next / previous error or warning.
    NextTrouble,
    PrevTrouble,
    /// `s`: the next conversation of a tap's run (a sub-agent's loop).
    SwitchConversation,
    /// `d`: into the sub-agent's run the step's call started.
    IntoSubAgent,
    /// `u`: in a sub-agent's run, back to the step of the call that
    /// started it.
    OutOfSubAgent,
    /// `y` to "stop the agent and quit?" (live view).
    QuitYes,
    /// `n` or Esc to it: keep watching.
    QuitNo,
}

/// How far each panel, and the open overlay, can scroll on the screen just
/// drawn, in lines (every panel scrolls in lines). The event loop hands
/// them back to `update`, which never lays anything out itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    pub panels: [u16; 4],
    pub overlay: u16,
    /// Rows of the lesson picker's list on screen (0 when it is closed):
    /// `update` keeps the highlighted lesson among them.
    pub picker_rows: u16,
    /// Each side's lanes, when two runs are compared.
    pub sides: [u16; 2],
    /// The explanation's place, where a quiz question is asked, is not on
    /// screen (80×24 with another panel tabbed in, or another zoomed).
    pub explain_hidden: bool,
}
