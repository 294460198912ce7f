//! The words of the exported pages: the HTML player (`export::html`) and
//! the slide deck (`export::slides`, `DECK_…`).

use super::label::Label;

pub const PLAYER: Label = Label::new(["逐步播放器", "Step-by-step player"]);
pub const CONTROLS: Label = Label::new(["播放控制", "Player controls"]);
pub const FIRST: Label = Label::new(["第一步", "First"]);
pub const PREV: Label = Label::new(["← 上一步", "← Previous"]);
pub const PLAY: Label = Label::new(["▶ 播放", "▶ Play"]);
pub const PAUSE: Label = Label::new(["‖ 暂停", "‖ Pause"]);
pub const NEXT: Label = Label::new(["下一步 →", "Next →"]);
pub const LAST: Label = Label::new(["最后一步", "Last"]);
pub const DWELL: Label = Label::new(["每步停留", "Dwell per step"]);
pub const SECONDS: Label = Label::new(["秒", "s"]);
/// The dwell time the player accepts; a value outside is brought inside.
pub const DWELL_RANGE: Label = Label::new(["（0.1–600 秒）", "(0.1 to 600 s)"]);
pub const ZOOM: Label = Label::new(["⤢ 放大图形", "⤢ Zoom figure"]);
pub const UNZOOM: Label = Label::new(["✕ 关闭放大", "✕ Close zoom"]);
pub const STEP_OF: Label = Label::new(["当前步骤", "Current step"]);
pub const PROGRESS: Label = Label::new(["进度", "Progress"]);
pub const JUMP: Label = Label::new(["跳到步骤", "Go to step"]);
/// `#step=N` that the player does not hold; `{n}` and `{shown}` are filled
/// in by the script.
pub const NO_STEP: Label = Label::new([
    "这里没有第 {n} 步，显示的是第 {shown} 步。",
    "There is no step {n} here; this is step {shown}.",
]);
/// A packed step whose block has not arrived yet.
pub const LOADING: Label = Label::new(["第 {n} 步还在载入……", "Step {n} is still loading…"]);
pub const BROKEN: Label = Label::new([
    "这个浏览器解不开第 {n} 步（需要 DecompressionStream）。",
    "This browser cannot unpack step {n} (it needs DecompressionStream).",
]);
pub const HINT: Label = Label::new([
    "默认静止：看完说明再点“下一步”。“播放”每隔停留时间前进一步，到最后一步自动停止。\
     播放器获得焦点后（点击它或用 Tab 进入），← → 逐步，空格 播放/暂停，Home / End 跳到第一步/最后一步。\
     窄屏上可点“放大图形”：图形按原尺寸显示，可左右滑动，控制按钮和说明仍在。",
    "It starts still: read the explanation, then press Next. Play moves one step per dwell \
     time and stops at the last step. When the player has focus (click it or Tab into it), \
     ← → step, Space plays or pauses, Home / End go to the first or last step. On a narrow \
     screen, Zoom figure shows it full size, to be scrolled sideways, with the controls and \
     the explanation still there.",
]);
pub const DECK_NOTES: Label = Label::new(["演讲者备注", "Speaker notes"]);
pub const DECK_NEXT: Label = Label::new(["下一张", "Next slide"]);
pub const DECK_NO_NEXT: Label = Label::new(["（这是最后一张）", "(this is the last slide)"]);
pub const DECK_KEYS: Label = Label::new([
    "→ ← 翻页，Home / End 到第一张/最后一张，S 打开演讲者备注。",
    "→ ← turn the slides, Home / End go to the first or last, S opens the speaker notes.",
]);
