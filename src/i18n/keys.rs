//! The keymap's words (`keymap::KEYMAP`): each binding's line in the help
//! overlay (`…_HELP`) and its hint in the footer (`…_HINT`), named after its
//! action.

use super::label::Label;

pub const NEXT_HELP: Label = Label::new(["下一步", "next step"]);
pub const NEXT_HINT: Label = Label::new(["下一步", "next"]);
pub const PREV_HELP: Label = Label::new(["上一步", "previous step"]);
pub const PREV_HINT: Label = Label::new(["上一步", "prev"]);
pub const TOGGLE_PLAY_HELP: Label = Label::new([
    "播放/暂停（每个间隔前进一步，停在最后一步）",
    "play/pause (one step per dwell time, stops on the last step)",
]);
pub const TOGGLE_PLAY_HINT: Label = Label::new(["播放", "play"]);
pub const DWELL_LONGER_HELP: Label = Label::new(["延长播放间隔", "longer dwell time"]);
pub const DWELL_LONGER_HINT: Label = Label::new(["间隔", "dwell"]);
pub const DWELL_SHORTER_HELP: Label = Label::new(["缩短播放间隔", "shorter dwell time"]);
pub const FIRST_HELP: Label = Label::new(["第一步", "first step"]);
pub const LAST_HELP: Label = Label::new(["最后一步", "last step"]);
pub const JUMP_HELP: Label = Label::new([
    "跳到第几步：连按数字组成步数（如 1 5 0 → 第 150 步）",
    "jump to a step: digits in a row make its number (1 5 0 → step 150)",
]);
pub const SEARCH_START_HELP: Label = Label::new([
    "搜索：步骤标题、call_id、工具名和文本（Enter 搜索，Esc 取消）",
    "search step titles, call ids, tool names and texts (Enter searches, Esc cancels)",
]);
pub const NEXT_MATCH_HELP: Label = Label::new(["下一个搜索结果", "next match"]);
pub const PREV_MATCH_HELP: Label = Label::new(["上一个搜索结果", "previous match"]);
pub const NEXT_MODEL_CALL_HELP: Label = Label::new(["下一次模型调用", "next model call"]);
pub const PREV_MODEL_CALL_HELP: Label = Label::new(["上一次模型调用", "previous model call"]);
pub const NEXT_TROUBLE_HELP: Label = Label::new([
    "下一个错误或警告（错误结果、孤立结果、拒绝、⚠）",
    "next error or warning (error result, orphan, refusal, ⚠)",
]);
pub const PREV_TROUBLE_HELP: Label = Label::new(["上一个错误或警告", "previous error or warning"]);
pub const FOCUS_NEXT_HELP: Label =
    Label::new(["焦点移到下一个面板", "move focus to the next panel"]);
pub const FOCUS_NEXT_HINT: Label = Label::new(["面板", "panel"]);
pub const FOCUS_PREV_HELP: Label =
    Label::new(["焦点移到上一个面板", "move focus to the previous panel"]);
pub const SCROLL_HELP: Label = Label::new(["滚动焦点面板", "scroll the focused panel"]);
pub const SCROLL_HINT: Label = Label::new(["滚动", "scroll"]);
pub const ZOOM_HELP: Label = Label::new([
    "放大焦点面板到全屏；并排对照：上下文代替泳道",
    "zoom the focused panel; two runs: contexts for the lanes",
]);
pub const ZOOM_HINT: Label = Label::new(["放大", "zoom"]);
pub const TOGGLE_FOLD_HELP: Label = Label::new([
    "展开或折叠上下文里的长消息（如整个文件、测试日志）",
    "unfold or fold long messages in the context (whole files, test logs)",
]);
pub const TOGGLE_WIRE_HELP: Label = Label::new([
    "上下文面板显示提供方收到的 JSON 请求体，或切回消息列表",
    "the context as the JSON request body the provider receives, or back",
]);
pub const SWITCH_LANGUAGE_HELP: Label =
    Label::new(["切换语言（中文/English）", "switch language (中文/English)"]);
pub const SWITCH_LANGUAGE_HINT: Label = Label::new(["English", "中文"]);
pub const TOGGLE_ABOUT_HELP: Label = Label::new(["关于这个场景", "about this scenario"]);
pub const TOGGLE_ABOUT_HINT: Label = Label::new(["关于", "about"]);
pub const TOGGLE_HELP_HELP: Label = Label::new(["帮助与术语", "help and glossary"]);
pub const TOGGLE_HELP_HINT: Label = Label::new(["帮助", "help"]);
pub const TOGGLE_QUIZ_HELP: Label = Label::new([
    "测验开关：每一步出现之前先预测它",
    "quiz on/off: predict each step before it is shown",
]);
pub const TOGGLE_QUIZ_HINT: Label = Label::new(["测验", "quiz"]);
pub const ANSWER_HELP: Label = Label::new([
    "回答打开的测验问题（此时数字不跳转）",
    "answer the open quiz question (digits do not jump then)",
]);
pub const ANSWER_HINT: Label = Label::new(["作答", "answer"]);
pub const REVEAL_HELP: Label = Label::new([
    "--class：揭晓全班的选择（每个选项的票数），再显示这一步",
    "--class: reveal the room's choices (the count of each), then the step",
]);
pub const REVEAL_HINT: Label = Label::new(["揭晓", "reveal"]);
pub const SECOND_ROUND_HELP: Label = Label::new([
    "--class：讨论之后同一个问题再投一轮（揭晓时两轮并列）",
    "--class: a second vote on the same question after discussion (the reveal shows both)",
]);
pub const SECOND_ROUND_HINT: Label = Label::new(["再投一轮", "vote again"]);
pub const TOGGLE_JOIN_HELP: Label = Label::new([
    "--class：显示或隐藏手机加入用的二维码和地址",
    "--class: show or hide the QR code and address the phones join by",
]);
pub const TOGGLE_JOIN_HINT: Label = Label::new(["加入", "join"]);
pub const OPEN_HELP: Label = Label::new([
    "课程选择里：打开高亮的课程（当前这课：回到原处）",
    "in the picker: open the lesson (the open one: go back)",
]);
pub const OPEN_HINT: Label = Label::new(["打开", "open"]);
pub const TOGGLE_PICKER_HELP: Label = Label::new([
    "选择课程：↑↓ 选，Enter 打开（从上次看到的那一步，否则第 1 步）",
    "choose a lesson: ↑↓, then Enter opens it where you left it (else at step 1)",
]);
pub const BACK_HELP: Label = Label::new([
    "关闭浮层、放大、测验问题或并排对照（Esc 从不退出程序）",
    "close an overlay, zoom, quiz question or comparison (Esc never quits)",
]);
pub const QUIT_HELP: Label = Label::new(["退出", "quit"]);
pub const QUIT_HINT: Label = Label::new(["退出", "quit"]);
pub const SWITCH_CONVERSATION_HELP: Label = Label::new([
    "tap 记录里的下一段对话（子代理自己的循环）；看着 tap 时 o 列出全部",
    "the next conversation of a tap's run (a sub-agent's loop); watching, o lists them",
]);
pub const QUIT_YES_HELP: Label = Label::new([
    "实时视图里代理还在运行时退出：是，停止代理并退出",
    "quitting the live view while the agent runs: yes, stop it and quit",
]);
pub const QUIT_YES_HINT: Label = Label::new(["是，停止代理并退出", "yes, stop the agent and quit"]);
pub const QUIT_NO_HELP: Label = Label::new(["否，继续观看", "no, keep watching"]);
pub const QUIT_NO_HINT: Label = Label::new(["否，继续观看", "no, keep watching"]);
