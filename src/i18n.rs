//! Every text the screen shows, in Chinese and English, in one place.
//! Step titles and labels are made here from the trace's structured steps.

use crate::engine::ToolSays;
use crate::scenario::{EndStatus, Lang};
use crate::trace::{
    CallId, CallStatus, Lane, Outcome, Pairing, Refusal, Step, StepKind, TaskOutcome, Trace,
    Verdict,
};

/// A fixed text in both languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    pub zh: &'static str,
    pub en: &'static str,
}

impl Label {
    pub const fn new(zh: &'static str, en: &'static str) -> Self {
        Label { zh, en }
    }

    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.zh,
            Lang::En => self.en,
        }
    }
}

/// A label that leads a value: "行动方：" in Chinese, "acting: " in English.
pub fn lead(label: Label, lang: Lang) -> String {
    format!("{}{}", label.get(lang), colon(lang))
}

/// The colon after a label, as each language writes it.
pub fn colon(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "：",
        Lang::En => ": ",
    }
}

/// The lead of the environment line: whose it is, then a colon.
pub fn environment_lead(lang: Lang) -> String {
    let tool = lane_name(Lane::Tool, lang);
    match lang {
        Lang::Zh => format!("{}（{tool}）：", ENVIRONMENT.zh),
        Lang::En => format!("{} ({tool}): ", ENVIRONMENT.en),
    }
}

const fn l(zh: &'static str, en: &'static str) -> Label {
    Label::new(zh, en)
}

pub const STEP: Label = l("步骤", "step");
pub const CONTEXT: Label = l("上下文", "Context");
pub const PAIRING: Label = l("call_id 配对", "call_id pairing");
pub const EXPLAIN: Label = l("说明", "Explanation");
pub const LANES: Label = l("泳道", "Lanes");
pub const HELP: Label = l("帮助与术语", "Help and glossary");
pub const ABOUT: Label = l("关于这个场景", "About this scenario");
pub const PLAYING: Label = l("▶ 播放中", "▶ playing");
pub const PAUSED: Label = l("‖ 已暂停", "‖ paused");
pub const DWELL: Label = l("间隔", "dwell");
pub const ZOOMED: Label = l("放大", "zoomed");
pub const FOCUS: Label = l("焦点", "focus");
pub const MODEL_CALLS: Label = l("模型调用", "model calls");
pub const TOOL_RUNS: Label = l("工具执行", "tool runs");
pub const WRITES: Label = l("写入", "writes");
pub const CONTEXT_SIZE: Label = l("上下文", "context");
pub const CHARS: Label = l("字符", "chars");
pub const MESSAGES: Label = l("条消息", "messages");
pub const RUNNING_LOOP: Label = l("循环进行中", "loop running");
pub const ACTING: Label = l("行动方", "acting");
pub const USER: Label = l("用户", "user");
pub const NEW: Label = l("新", "NEW");
pub const TOOLS_OFFERED: Label = l("提供的工具", "Tools offered");
pub const NOTHING_SENT: Label = l(
    "还没有调用模型：模型什么都没看到。",
    "No model call yet: the model has seen nothing.",
);
pub const HOST_HOLDS: Label = l(
    "主机手中的消息（尚未发送）",
    "Messages the host holds (not sent yet)",
);
pub const APPENDED_SINCE: Label = l(
    "此后追加：尚未发给模型",
    "Appended since: not yet sent to the model",
);
pub const APPENDED_AFTER_END: Label = l(
    "最后一次调用之后追加：循环已结束，不会发送",
    "After the last call: never sent (loop ended)",
);
pub const DISK: Label = l(
    "磁盘（模型从未直接看到）",
    "Disk (never shown to the model)",
);
/// The line that stands for the folded rest of a long message.
pub fn folded(chars: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("… 已折叠，全文 {chars} 字符（f 展开）"),
        Lang::En => format!("… folded: {chars} chars in all (f shows all)"),
    }
}

/// The context's size on each call so far, as a small bar chart.
pub fn growth(bars: &str, first: usize, last: usize, calls: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("逐次调用的上下文：{bars} {first} → {last} 字符（共 {calls} 次）"),
        Lang::En => format!("context per call: {bars} {first} → {last} chars, {calls} calls"),
    }
}

/// A result as attached to its call, with what went wrong in the pairing
/// and what answered the call said in words (the table and the plain
/// transcript say the same).
pub fn result_in_words(call: &crate::trace::ToolCall, text: &str, lang: Lang) -> String {
    let mut out = String::new();
    match call.pairing() {
        Some(Pairing::WrongId(to)) => out.push_str(&format!(
            "{} {to} ✗ {} · ",
            ATTACHED_TO.get(lang),
            WRONG_ID.get(lang)
        )),
        Some(Pairing::Dropped) => out.push_str(&format!("{} · ", DROPPED.get(lang))),
        _ => {}
    }
    match call.outcome() {
        Some(Outcome::Replayed) => out.push_str(&format!("↺ {} · ", REPLAYED.get(lang))),
        Some(Outcome::Error | Outcome::Refused | Outcome::OpConflict) => out.push_str("✗ "),
        _ => {}
    }
    out.push_str(text);
    out
}

pub const STEP_TITLE: Label = l("步骤", "Step");
pub const CROSSED: Label = l("箭头", "arrow");
pub const NONE: Label = l("无", "none");
pub const NO_CALLS: Label = l("还没有工具调用。", "No tool calls yet.");
pub const ENVIRONMENT: Label = l("环境", "Environment");
pub const NOT_READ: Label = l("未读", "not read");
pub const READ: Label = l("已读", "read");
pub const WRITTEN: Label = l("已写入", "written");
pub const ATTACHED_TO: Label = l("被挂到", "attached to");
pub const WRONG_ID: Label = l("错误的 id！", "wrong id!");
pub const REPLAYED: Label = l(
    "重放：主机按记录作答，没有执行",
    "replayed: answered from the host's record, nothing ran",
);
pub const DROPPED: Label = l(
    "未追加！这个调用一直没有结果",
    "not appended! the call stays unanswered",
);
pub const TOO_SMALL: Label = l("终端太小", "Terminal too small");
pub const NEEDS: Label = l("需要至少", "needs at least");
pub const NOW: Label = l("当前", "now");
pub const MORE_ABOVE: Label = l("↑ 上方还有", "↑ more above");
pub const MORE_BELOW: Label = l("↓ 下方还有", "↓ more below");
pub const CONDITIONS: Label = l("固定输入与条件", "Fixed inputs and conditions");
pub const WHY: Label = l("为什么需要这个机制", "Why this mechanism is needed");
pub const HOW: Label = l("它是怎么实现的", "How it is implemented");
pub const COST: Label = l("代价与常见误解", "What it costs, how it is misunderstood");
pub const CHECK: Label = l("怎样判断做对了", "How to tell it was done right");
pub const PROVIDER_SAYS: Label = l(
    "提供方返回（OpenAI Chat Completions 的原文）",
    "The provider answers (OpenAI Chat Completions wording)",
);
pub const CHANGED_NOW: Label = l("◀ 本步", "◀ now");
pub const LOOP: Label = l("循环", "loop");
pub const TASK: Label = l("任务", "task");

pub const KEYS: Label = l("按键", "Keys");
pub const GLOSSARY: Label = l("术语", "Glossary");
pub const CLOSE_HINT: Label = l("Esc 关闭 · ↑↓ 滚动", "Esc closes · ↑↓ scroll");

pub const COL_ID: Label = l("call_id", "call_id");
pub const COL_TOOL: Label = l("工具", "tool");
pub const COL_ARGS: Label = l("参数", "args");
pub const COL_STATUS: Label = l("状态", "status");
pub const COL_RESULT: Label = l("结果", "result");

pub const GLOSSARY_ENTRIES: [(Label, Label); 9] = [
    (
        l("call_id", "call_id"),
        l(
            "提供方 API 给模型回复里每个工具调用的编号（OpenAI 是 call_…，Anthropic 是 toolu_…）；主机必须原样带着它送回结果，结果靠它找到自己的调用。",
            "The id the provider's API gives each tool call in the model's reply (call_… in OpenAI, toolu_… in Anthropic); the host must send it back unchanged with the result, which finds its call by it.",
        ),
    ),
    (
        l("配对规则", "pairing rule"),
        l(
            "真实 API 要求每个工具调用都有结果：OpenAI 要求带 tool_calls 的助手消息之后，每个 tool_call_id 都有一条 tool 消息；Anthropic 要求每个 tool_use 在下一条消息里有 tool_result。缺一个，请求就以 400 被拒。",
            "Real APIs require a result for every tool call: OpenAI, a tool message for each tool_call_id after the assistant message with tool_calls; Anthropic, a tool_result for each tool_use in the next message. Miss one and the request is rejected with 400.",
        ),
    ),
    (
        l("工具调用", "tool call"),
        l(
            "模型回复中的一段数据：工具名加参数。只是提议，不会自己执行。",
            "Data in the model's reply: a tool name and arguments. A proposal; it runs nothing.",
        ),
    ),
    (
        l("工具结果", "tool result"),
        l(
            "主机执行（或拒绝）调用后得到的文字，带着 call_id 追加给模型。",
            "The text the host gets by running (or refusing) a call, appended with its call_id.",
        ),
    ),
    (
        l("上下文", "context"),
        l(
            "某一次调用时主机发给模型的全部消息和工具定义；模型只知道这些。",
            "All messages and tool definitions the host sends on one call; all the model knows.",
        ),
    ),
    (
        l("外层循环", "outer loop"),
        l(
            "模型调用 → 主机处理工具 → 下一次模型调用，直到结束。",
            "Model call → host runs tools → next model call, until the end.",
        ),
    ),
    (
        l("内层循环", "inner loop"),
        l(
            "一次模型调用内部逐个生成 token 的过程。",
            "Token-by-token generation inside one model call.",
        ),
    ),
    (
        l("主机", "host"),
        l(
            "运行循环的程序：组装上下文、校验并执行工具、决定何时停止。",
            "The program running the loop: builds context, validates and runs tools, decides when to stop.",
        ),
    ),
    (
        l("预算", "budget"),
        l(
            "主机最多调用模型的次数；用完就停，不管模型想不想继续。",
            "The most model calls the host will make; when used up it stops, whatever the model wants.",
        ),
    ),
];

/// Who acts at a step: "Tool → Host", "Host", "user → Host".
pub fn who_acts(step: &Step, lang: Lang) -> String {
    // The provider's API refuses the request; the model itself never runs.
    if matches!(step.kind, StepKind::Rejected { .. }) {
        let api = l(
            "提供方 API（模型未运行）",
            "the provider's API (the model never ran)",
        );
        return format!("{} → {}", api.get(lang), lane_name(step.to, lang));
    }
    match (step.from, step.to) {
        (None, to) => format!("{} → {}", USER.get(lang), lane_name(to, lang)),
        (Some(from), to) if from == to => lane_name(from, lang).to_string(),
        (Some(from), to) => format!("{} → {}", lane_name(from, lang), lane_name(to, lang)),
    }
}

/// Who acts, in as few words as a narrow header allows.
pub fn who_acts_short(step: &Step, lang: Lang) -> String {
    if matches!(step.kind, StepKind::Rejected { .. }) {
        let api = l("API（模型未运行）", "API (model never ran)");
        return format!("{} → {}", api.get(lang), lane_name(step.to, lang));
    }
    who_acts(step, lang)
}

/// The sentence that says the loop has ended, how, and whether the task
/// is done.
pub fn loop_ended(end: EndStatus, task: TaskOutcome, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "循环结束：{}。任务：{}。",
            end_name(end, lang),
            task_name(task, true, lang)
        ),
        Lang::En => format!(
            "The loop has ended: {}. Task: {}.",
            end_name(end, lang),
            task_name(task, true, lang)
        ),
    }
}

/// The marker row over the lanes when earlier steps are scrolled away.
pub fn earlier_steps(hidden: usize, lang: Lang) -> String {
    match (lang, hidden) {
        (Lang::Zh, 1) => "↑ 上方还有第 1 步（↑ 滚动）".into(),
        (Lang::Zh, n) => format!("↑ 上方还有第 1–{n} 步（↑ 滚动）"),
        (Lang::En, 1) => "↑ step 1 is above (scroll ↑)".into(),
        (Lang::En, n) => format!("↑ steps 1–{n} are above (scroll ↑)"),
    }
}

/// A file a running call is working on.
pub fn in_use_by(call: &CallId, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{call} 正在使用"),
        Lang::En => format!("in use by {call}"),
    }
}

/// A message's role as the screen names it: the API's role word, in the
/// screen's language.
pub fn role_name(role: crate::trace::Role, lang: Lang) -> &'static str {
    use crate::trace::Role;
    match role {
        Role::User => l("用户", "user"),
        Role::Assistant => l("助手", "assistant"),
        Role::Tool => l("工具", "tool"),
    }
    .get(lang)
}

pub fn lane_name(lane: Lane, lang: Lang) -> &'static str {
    match lane {
        Lane::Model => l("模型", "Model"),
        Lane::Host => l("主机", "Host"),
        Lane::Tool => l("工具", "Tool"),
    }
    .get(lang)
}

pub fn status_name(status: CallStatus, lang: Lang) -> &'static str {
    match status {
        CallStatus::Proposed => l("已提议", "proposed"),
        CallStatus::Approved => l("已批准", "approved"),
        CallStatus::Running => l("执行中", "running"),
        CallStatus::Done => l("完成", "done"),
        CallStatus::Replayed => l("重放", "replayed"),
        CallStatus::Error => l("出错", "error"),
        CallStatus::Refused => l("被拒绝", "refused"),
    }
    .get(lang)
}

/// How the loop ended, apart from whether the task is done.
pub fn end_name(end: EndStatus, lang: Lang) -> &'static str {
    match end {
        EndStatus::Completed | EndStatus::VerificationMissing => l("最终答案", "final answer"),
        EndStatus::BudgetExhausted => l("预算用尽", "budget used up"),
        EndStatus::Rejected => l("请求被拒", "request rejected"),
        EndStatus::Crashed => l("主机崩溃", "harness crashed"),
    }
    .get(lang)
}

/// Whether the task is done, and how we know: short, then with the reason.
pub fn task_name(task: TaskOutcome, long: bool, lang: Lang) -> &'static str {
    let (short, reason) = match task {
        TaskOutcome::Verified => (
            l("已验证", "verified"),
            l(
                "已验证（改动之后检查通过）",
                "verified (a check passed after the last change)",
            ),
        ),
        TaskOutcome::Answered => (
            l("已回答", "answered"),
            l(
                "已回答（只读，答案未经检查）",
                "answered (read-only; the answer is not checked)",
            ),
        ),
        TaskOutcome::Unverified => (
            l("未验证", "unverified"),
            l(
                "未验证（有改动，没人检查）",
                "unverified (changed, never checked)",
            ),
        ),
        TaskOutcome::NotDone => (l("未完成", "not done"), l("未完成", "not done")),
        TaskOutcome::Unknown => (
            l("不得而知", "unknown"),
            l(
                "不得而知（文件没有记录任何检查）",
                "unknown (the file records no check)",
            ),
        ),
    };
    if long { reason } else { short }.get(lang)
}

/// The header's counters, in words; `short` for narrow screens.
pub fn counters(trace: &Trace, step: &Step, short: bool, lang: Lang) -> String {
    let c = step.counters;
    let sent = step.model_call.map(|i| &trace.model_calls[i]);
    let rejected = matches!(step.kind, StepKind::Rejected { .. });
    let calls = match (lang, rejected) {
        (Lang::Zh, true) => format!("{}/{}（1 次被拒）", c.model_calls, trace.budget),
        (Lang::En, true) => format!("{}/{} (1 rejected)", c.model_calls, trace.budget),
        _ => format!("{}/{}", c.model_calls, trace.budget),
    };
    let runs = match (lang, c.host_checks) {
        (_, 0) => c.tool_runs.to_string(),
        (Lang::Zh, n) => format!("{}（主机验证 {n}）", c.tool_runs),
        (Lang::En, n) => format!(
            "{} ({n} host check{})",
            c.tool_runs,
            if n == 1 { "" } else { "s" }
        ),
    };
    match (lang, sent, short) {
        (Lang::Zh, Some(mc), false) => format!(
            "模型调用 {calls} · 工具执行 {runs} · 写入 {} · 第 {} 次调用发送的上下文 {} 字符 ≈ {} token",
            c.writes, mc.number, mc.context_size, mc.context_tokens
        ),
        (Lang::Zh, Some(mc), true) => format!(
            "模型调用 {calls} · 工具执行 {runs} · 写入 {} · 第 {} 次发送 {} 字符，≈ {} token",
            c.writes, mc.number, mc.context_size, mc.context_tokens
        ),
        (Lang::Zh, None, _) => format!(
            "模型调用 {calls} · 工具执行 {runs} · 写入 {} · 上下文：尚未发送",
            c.writes
        ),
        (Lang::En, Some(mc), false) => format!(
            "model calls {calls} · tool runs {runs} · writes {} · context sent on call #{}: {} chars ≈ {} tokens",
            c.writes, mc.number, mc.context_size, mc.context_tokens
        ),
        (Lang::En, Some(mc), true) => format!(
            "model calls {calls} · tool runs {runs} · writes {} · sent on #{}: {} chars, ≈ {} tokens",
            c.writes, mc.number, mc.context_size, mc.context_tokens
        ),
        (Lang::En, None, _) => format!(
            "model calls {calls} · tool runs {runs} · writes {} · context: nothing sent yet",
            c.writes
        ),
    }
}

/// The context panel's heading: which call, how many messages, and what
/// the size counts.
pub fn context_heading(mc: &crate::trace::ModelCall, new: usize, lang: Lang) -> String {
    let messages = mc.context_size - mc.tools_size;
    match lang {
        Lang::Zh => format!(
            "第 {} 次模型调用发送的上下文 · {} 条消息，新增 {} 条（+）· {} 字符（消息 {} + 工具定义 {}）≈ {} token（估算）",
            mc.number,
            mc.context_len,
            new,
            mc.context_size,
            messages,
            mc.tools_size,
            mc.context_tokens
        ),
        Lang::En => format!(
            "Sent on model call #{} · {} {}, {} new (+) · {} chars ({} in messages + {} in tool definitions) ≈ {} tokens (estimate)",
            mc.number,
            mc.context_len,
            plural(mc.context_len, "message", "messages"),
            new,
            mc.context_size,
            messages,
            mc.tools_size,
            mc.context_tokens
        ),
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// The inner-loop note under a reply.
pub fn inner_loop(number: u32, tokens: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => {
            format!("内层循环：第 {number} 次调用逐个生成了约 {tokens} 个 token，组成这条回复。")
        }
        Lang::En => format!(
            "Inner loop: model call #{number} generated about {tokens} tokens, one by one, to write this reply."
        ),
    }
}

/// The refusal as the host writes it into the tool result the model reads.
pub fn refusal_message(r: &Refusal, tool: &str, lang: Lang) -> String {
    match (r, lang) {
        (Refusal::NotOffered, Lang::Zh) => format!("主机拒绝：没有提供工具 \"{tool}\""),
        (Refusal::NotOffered, Lang::En) => {
            format!("refused by host: tool \"{tool}\" is not offered")
        }
        (Refusal::MissingArg(a), Lang::Zh) => format!("主机拒绝：缺少参数 \"{a}\""),
        (Refusal::MissingArg(a), Lang::En) => format!("refused by host: missing argument \"{a}\""),
        (Refusal::UnknownArg(a), Lang::Zh) => format!("主机拒绝：未知参数 \"{a}\""),
        (Refusal::UnknownArg(a), Lang::En) => format!("refused by host: unknown argument \"{a}\""),
        (Refusal::OutsideWorkspace(p), Lang::Zh) => format!("主机拒绝：路径 \"{p}\" 在工作区之外"),
        (Refusal::OutsideWorkspace(p), Lang::En) => {
            format!("refused by host: path \"{p}\" is outside the workspace")
        }
    }
}

/// The host's message to the model when its own check fails.
pub fn verification_failed(tool: &str, output: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("主机验证失败（{tool}）：{output}"),
        Lang::En => format!("verification failed ({tool}): {output}"),
    }
}

/// The host's answer to an operation id reused for a different call.
pub fn op_conflict(op: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => {
            format!("主机拒绝：操作 id \"{op}\" 已用于另一个调用，同一个 id 不能指向不同的动作")
        }
        Lang::En => format!(
            "refused by host: operation id \"{op}\" was used for a different call; one id cannot name two actions"
        ),
    }
}

/// What a built-in tool says, in words. File contents stay as they are.
pub fn tool_says(said: &ToolSays, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match said {
        ToolSays::Content(text) => text.clone(),
        ToolSays::NoSuchFile(p) if zh => format!("错误：没有这个文件：{p}"),
        ToolSays::NoSuchFile(p) => format!("error: no such file: {p}"),
        ToolSays::Wrote { path, version } if zh => format!("已写入 {path}（现为 v{version}）"),
        ToolSays::Wrote { path, version } => format!("wrote {path} (now v{version})"),
        ToolSays::Patched { path, version } if zh => format!("已修改 {path}（现为 v{version}）"),
        ToolSays::Patched { path, version } => format!("patched {path} (now v{version})"),
        ToolSays::FindNotFound(p) if zh => format!("错误：{p} 里找不到要替换的文字"),
        ToolSays::FindNotFound(p) => format!("error: text to replace not found in {p}"),
        ToolSays::TestsPassed(n) if zh => format!("通过：{n} 项检查全部通过"),
        ToolSays::TestsPassed(n) => format!("passed: {n} of {n} checks"),
        ToolSays::TestFailed {
            path,
            wanted,
            line: true,
        } if zh => {
            format!("失败：{path} 里没有一行是 {wanted:?}")
        }
        ToolSays::TestFailed {
            path,
            wanted,
            line: true,
        } => {
            format!("FAILED: {path} has no line {wanted:?}")
        }
        ToolSays::TestFailed { path, wanted, .. } if zh => {
            format!("失败：{path} 里没有 {wanted:?}")
        }
        ToolSays::TestFailed { path, wanted, .. } => {
            format!("FAILED: {path} does not contain {wanted:?}")
        }
        ToolSays::NoSuchTool(t) if zh => format!("错误：没有名为 \"{t}\" 的工具"),
        ToolSays::NoSuchTool(t) => format!("error: no tool named \"{t}\""),
    }
}

/// The provider's own error for a request with unanswered tool calls, as
/// OpenAI Chat Completions words it (HTTP 400, invalid_request_error). It is
/// the provider's text, so it stays in English on every screen.
pub fn provider_error(unanswered: &[CallId]) -> String {
    format!(
        "400 invalid_request_error: An assistant message with 'tool_calls' must be followed by \
         tool messages responding to each 'tool_call_id'. The following tool_call_ids did not \
         have response messages: {}",
        join_ids(unanswered)
    )
}

fn refusal_reason(r: &Refusal, lang: Lang) -> String {
    match (r, lang) {
        (Refusal::NotOffered, Lang::Zh) => "未提供该工具".into(),
        (Refusal::NotOffered, Lang::En) => "tool not offered".into(),
        (Refusal::MissingArg(a), Lang::Zh) => format!("缺少参数 {a}"),
        (Refusal::MissingArg(a), Lang::En) => format!("missing argument {a}"),
        (Refusal::UnknownArg(a), Lang::Zh) => format!("未知参数 {a}"),
        (Refusal::UnknownArg(a), Lang::En) => format!("unknown argument {a}"),
        (Refusal::OutsideWorkspace(_), Lang::Zh) => "路径在工作区之外".into(),
        (Refusal::OutsideWorkspace(_), Lang::En) => "path outside the workspace".into(),
    }
}

fn join_ids(ids: &[crate::trace::CallId]) -> String {
    ids.iter()
        .map(|c| c.0.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The one-line title of a step, made from what the engine recorded.
pub fn step_title(trace: &Trace, index: usize) -> String {
    let lang = trace.lang;
    let step = &trace.steps[index];
    let zh = lang == Lang::Zh;
    let mut title = match &step.kind {
        StepKind::TaskArrives => {
            if zh {
                "用户的任务到达主机".into()
            } else {
                "The user's task arrives at the host".into()
            }
        }
        StepKind::ModelCall { number } => {
            if zh {
                format!("第 {number} 次模型调用：主机发送上下文")
            } else {
                format!("Model call #{number}: the host sends the context")
            }
        }
        StepKind::Proposes { calls, .. } => {
            let what = match calls.as_slice() {
                [one] => trace
                    .call(one)
                    .map_or(one.0.clone(), |c| format!("{} {}", c.id, c.tool)),
                many => join_ids(many),
            };
            match (zh, calls.len()) {
                (true, 1) => format!("模型提出工具调用 {what}（只是提议）"),
                (true, n) => format!("模型在一次回复中提出 {n} 个调用：{what}"),
                (false, 1) => format!("The model proposes {what} (a proposal only)"),
                (false, n) => format!("The model proposes {n} calls in one reply: {what}"),
            }
        }
        StepKind::Validates { call, verdict } => match (verdict, zh) {
            (Verdict::Approved, true) => format!("主机校验 {call}：批准"),
            (Verdict::Approved, false) => format!("The host validates {call}: approved"),
            (Verdict::Refused(r), true) => format!("主机拒绝 {call}：{}", refusal_reason(r, lang)),
            (Verdict::Refused(r), false) => {
                format!("The host refuses {call}: {}", refusal_reason(r, lang))
            }
        },
        StepKind::Executes { calls } => {
            let what = match calls.as_slice() {
                [one] => trace
                    .call(one)
                    .map_or(one.0.clone(), |c| format!("{} {}", c.id, c.tool)),
                many => join_ids(many),
            };
            match (zh, calls.len()) {
                (true, 1) => format!("主机执行 {what}"),
                (true, _) => format!("主机并行执行 {what}"),
                (false, 1) => format!("The host executes {what}"),
                (false, _) => format!("The host executes {what} in parallel"),
            }
        }
        StepKind::ResultArrives { call } => result_title(trace, call, lang),
        StepKind::Replays {
            call,
            op,
            conflict: false,
        } => {
            if zh {
                format!("主机按记录回答 {call}（操作 {op}）：什么都不执行")
            } else {
                format!("The host answers {call} from its record of {op}: nothing runs")
            }
        }
        StepKind::Replays {
            call,
            op,
            conflict: true,
        } => {
            if zh {
                format!("{call} 把操作 id {op} 用于另一个动作：主机以错误作答，不执行")
            } else {
                format!(
                    "{call} reuses operation id {op} for another action: the host answers with an error"
                )
            }
        }
        StepKind::Rejected {
            number, unanswered, ..
        } => {
            let ids = join_ids(unanswered);
            if zh {
                format!("提供方拒绝第 {number} 次调用（400）：{ids} 没有结果")
            } else {
                format!("The provider rejects model call #{number} (400): {ids} has no result")
            }
        }
        StepKind::Answers { .. } => match (step.end, zh) {
            (Some(EndStatus::VerificationMissing), true) => {
                "模型说“完成了”，主机没有验证就宣布成功".into()
            }
            (Some(EndStatus::VerificationMissing), false) => {
                "The model says done; the host declares success without checking".into()
            }
            (Some(_), true) => "模型给出最终答案，没有工具调用：循环结束".into(),
            (Some(_), false) => "Final answer, no tool calls: the loop ends".into(),
            (None, true) => "模型说“完成了”：主机先验证再接受".into(),
            (None, false) => "The model says done: the host verifies before accepting".into(),
        },
        StepKind::Verifies { tool } => {
            if zh {
                format!("主机亲自运行 {tool} 来验证")
            } else {
                format!("The host runs {tool} itself to verify")
            }
        }
        StepKind::Verified { passed, .. } => match (passed, zh) {
            (true, true) => "验证通过：改动经过了检查".into(),
            (true, false) => "Verification passed: the change has been checked".into(),
            (false, true) => "验证失败：失败结果发回给模型".into(),
            (false, false) => "Verification failed: the failure goes back to the model".into(),
        },
        StepKind::BudgetExhausted { budget } => {
            if zh {
                format!("{budget} 次模型调用的预算已用尽：主机停止循环")
            } else {
                format!("The budget of {budget} model calls is used up: the host stops")
            }
        }
        StepKind::Crashes { call } => {
            if zh {
                format!("主机没有处理 {call} 的错误，自己崩溃了")
            } else {
                format!("The host does not handle the error of {call} and crashes")
            }
        }
    };
    if let Some(end) = step.end
        && !matches!(
            step.kind,
            StepKind::Answers { .. } | StepKind::BudgetExhausted { .. } | StepKind::Rejected { .. }
        )
    {
        title.push_str(if zh { " · 结束：" } else { " · ended: " });
        title.push_str(end_name(end, lang));
    }
    title
}

fn result_title(trace: &Trace, id: &CallId, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let Some(call) = trace.call(id) else {
        return match zh {
            true => format!("{id} 的结果返回，但没有任何调用用过这个 id（孤立结果）"),
            false => format!("A result for {id} arrives, but no call has that id (an orphan)"),
        };
    };
    match (call.pairing(), call.outcome()) {
        (Some(Pairing::Dropped), _) if zh => {
            format!("{id} 的结果返回了，但主机没有把它追加到消息里")
        }
        (Some(Pairing::Dropped), _) => {
            format!("The result for {id} comes back, but the host does not append it")
        }
        (Some(Pairing::WrongId(to)), _) if zh => {
            format!("{id} 的结果返回，却被挂到了 {to} 上（按到达顺序配对）")
        }
        (Some(Pairing::WrongId(to)), _) => {
            format!("The result of {id} comes back but is attached to {to} (paired by order)")
        }
        (_, Some(Outcome::Error)) if zh => format!("{id} 返回错误结果，按 id 配对后追加"),
        (_, Some(Outcome::Error)) => {
            format!("An error result for {id} comes back, paired by id and appended")
        }
        _ if zh => format!("{id} 的结果返回，按 id 配对后追加到消息"),
        _ => format!("The result for {id} comes back, paired by id and appended"),
    }
}

/// The words beside a step's arrow in the lanes.
pub fn arrow_label(trace: &Trace, step: &Step) -> String {
    let lang = trace.lang;
    let zh = lang == Lang::Zh;
    match &step.kind {
        StepKind::TaskArrives => if zh {
            "用户的任务"
        } else {
            "the user's task"
        }
        .to_string(),
        StepKind::ModelCall { number } => {
            let len = step
                .model_call
                .map_or(0, |i| trace.model_calls[i].context_len);
            if zh {
                format!("第 {number} 次调用：发送 {len} 条消息")
            } else {
                format!(
                    "call #{number}: {len} {} sent",
                    plural(len, "message", "messages")
                )
            }
        }
        StepKind::Proposes { calls, .. } => {
            let what: Vec<String> = calls
                .iter()
                .map(|id| {
                    trace
                        .call(id)
                        .map_or(id.0.clone(), |c| format!("{id} {}", c.tool))
                })
                .collect();
            let what = what.join(", ");
            if zh {
                format!("{what}（提议）")
            } else {
                format!("{what} (proposed)")
            }
        }
        StepKind::Validates { call, verdict } => match (verdict, zh) {
            (Verdict::Approved, true) => format!("{call} ✓ 已批准"),
            (Verdict::Approved, false) => format!("{call} ✓ approved"),
            (Verdict::Refused(r), true) => format!("{call} ✗ 拒绝：{}", refusal_reason(r, lang)),
            (Verdict::Refused(r), false) => {
                format!("{call} ✗ refused: {}", refusal_reason(r, lang))
            }
        },
        StepKind::Executes { calls } => {
            format!("{} {}", if zh { "执行" } else { "run" }, join_ids(calls))
        }
        StepKind::ResultArrives { call } => {
            let Some(c) = trace.call(call) else {
                return if zh {
                    format!("{call} ⇐ ✗ 没有这个 id 的调用（孤立结果）")
                } else {
                    format!("{call} ⇐ ✗ no call has this id (orphan)")
                };
            };
            let text = c
                .result
                .as_ref()
                .map_or(String::new(), |r| one_line(&r.text));
            let mark = if c.outcome() == Some(Outcome::Error) {
                "✗ "
            } else {
                ""
            };
            match c.pairing() {
                Some(Pairing::WrongId(to)) if zh => format!("{call} 的结果 ⇒ 挂到 {to} ✗：{text}"),
                Some(Pairing::WrongId(to)) => {
                    format!("{call}'s result ⇒ attached to {to} ✗: {text}")
                }
                Some(Pairing::Dropped) if zh => format!("{call} ⇐ {mark}{text}（未追加！）"),
                Some(Pairing::Dropped) => format!("{call} ⇐ {mark}{text} (not appended!)"),
                _ => format!("{call} ⇐ {mark}{text}"),
            }
        }
        StepKind::Replays { call, op, conflict } => match (conflict, zh) {
            (false, true) => format!("{call} ↺ 按 {op} 的记录作答"),
            (false, false) => format!("{call} ↺ from the record of {op}"),
            (true, true) => format!("{call} ✗ 操作 id {op} 已用于别的调用"),
            (true, false) => format!("{call} ✗ op id {op} already used for another call"),
        },
        StepKind::Rejected { unanswered, .. } => {
            let ids = join_ids(unanswered);
            if zh {
                format!("✗ 400 请求被拒：{ids} 没有结果")
            } else {
                format!("✗ 400 rejected: {ids} has no result")
            }
        }
        StepKind::Answers { .. } => match (step.end.is_some(), zh) {
            (true, true) => "最终答案".into(),
            (true, false) => "final answer".into(),
            (false, true) => "说完成了（没有工具调用）".into(),
            (false, false) => "says done (no tool calls)".into(),
        },
        StepKind::Verifies { tool } => format!("{}{tool}", if zh { "验证：" } else { "verify: " }),
        StepKind::Verified { passed, .. } => match (passed, zh) {
            (true, true) => "✓ 检查通过".into(),
            (true, false) => "✓ check passed".into(),
            (false, true) => "✗ 检查失败".into(),
            (false, false) => "✗ check failed".into(),
        },
        StepKind::BudgetExhausted { .. } => if zh {
            "■ 预算用尽：停止"
        } else {
            "■ budget used up: stop"
        }
        .to_string(),
        StepKind::Crashes { .. } => if zh {
            "✗ 主机崩溃"
        } else {
            "✗ harness crashes"
        }
        .to_string(),
    }
}

/// A multi-line text on one line, each line break shown as ↵.
pub fn one_line(s: &str) -> String {
    s.lines().collect::<Vec<_>>().join(" ↵ ")
}

pub fn first_line(s: &str) -> String {
    let mut lines = s.lines();
    let first = lines.next().unwrap_or("").to_string();
    if lines.next().is_some() {
        first + " …"
    } else {
        first
    }
}

/// A plain explanation for a step the author did not narrate.
pub fn generic_explanation(trace: &Trace, index: usize) -> String {
    let lang = trace.lang;
    let zh = lang == Lang::Zh;
    let step = &trace.steps[index];
    match &step.kind {
        StepKind::TaskArrives => if zh {
            "任务先到主机。模型此时什么都没看到。"
        } else {
            "The task reaches the host first. The model has seen nothing yet."
        }
        .into(),
        StepKind::ModelCall { .. } => if zh {
            "主机把当前的消息列表和工具定义发给模型。模型只知道这些，看不到磁盘。"
        } else {
            "The host sends the message list and the tool definitions. That is all the model knows; it cannot see the disk."
        }
        .into(),
        StepKind::Proposes { .. } => if zh {
            "模型的回复里有工具调用。它们只是数据：在主机执行之前，什么都没有发生。"
        } else {
            "The reply contains tool calls. They are data: nothing happens until the host runs them."
        }
        .into(),
        StepKind::Validates { verdict, .. } => match (verdict, zh) {
            (Verdict::Approved, true) => "主机检查工具是否提供、参数是否正确、路径是否在工作区内，然后批准。",
            (Verdict::Approved, false) => "The host checks the tool is offered, the arguments are right and the path stays in the workspace, then approves.",
            (Verdict::Refused(_), true) => "主机在执行前拒绝了这个调用。拒绝本身作为工具结果发回给模型：主机负责执行规则，上下文只是建议。",
            (Verdict::Refused(_), false) => "The host refuses the call before anything runs. The refusal goes back to the model as a result: the host enforces, the context only advises.",
        }
        .into(),
        StepKind::Executes { calls } if calls.len() > 1 => if zh {
            "几个调用同时执行。它们完成的顺序不一定和请求的顺序相同。"
        } else {
            "The calls run at the same time. They need not finish in the order they were asked."
        }
        .into(),
        StepKind::Executes { .. } => if zh {
            "只有工具泳道会接触环境，而且是在主机批准之后。"
        } else {
            "Only the Tool lane touches the environment, and only after the host approved."
        }
        .into(),
        StepKind::ResultArrives { .. } => if zh {
            "结果靠 call id 找到它的调用，然后追加到消息末尾，下一次模型调用才会看到它。出错的结果也是结果，不是崩溃。"
        } else {
            "The result finds its call by the call id and is appended; the model sees it on the next call. An error result is still a result, not a crash."
        }
        .into(),
        StepKind::Answers { .. } => if zh {
            "没有工具调用的回复结束循环。但“完成了”这句话本身不能证明任务完成。"
        } else {
            "A reply without tool calls ends the loop. But saying done is not proof that the work is done."
        }
        .into(),
        StepKind::Verifies { .. } => if zh {
            "任务改动了文件，所以主机在接受之前自己运行检查。"
        } else {
            "The task changed files, so the host runs the check itself before accepting."
        }
        .into(),
        StepKind::Verified { passed: true, .. } => if zh {
            "检查通过：改动之后的状态经过了验证，主机接受“完成”。"
        } else {
            "The check passed: the state after the change has been verified, and the host accepts \"done\"."
        }
        .into(),
        StepKind::Verified { passed: false, .. } => if zh {
            "检查失败。失败结果发回给模型，循环继续。"
        } else {
            "The check failed. The failure goes back to the model and the loop goes on."
        }
        .into(),
        StepKind::BudgetExhausted { .. } => if zh {
            "预算用完了。决定停止的是主机，而不是模型。"
        } else {
            "The budget is used up. The host decides to stop, not the model."
        }
        .into(),
        StepKind::Crashes { .. } => if zh {
            "错误的做法：把工具错误当成崩溃。正确的主机会把错误作为结果交给模型。"
        } else {
            "The wrong way: treating a tool error as a crash. A sound host hands the error to the model as a result."
        }
        .into(),
        StepKind::Replays { conflict: false, .. } => if zh {
            "这个操作 id 主机已有记录，而且调用完全相同：主机直接把记录的结果交回，工具泳道不动，不会写第二次。"
        } else {
            "The host has a record of this operation id for the very same call: it hands back the recorded result. The Tool lane does nothing and nothing is written twice."
        }
        .into(),
        StepKind::Replays { conflict: true, .. } => if zh {
            "同一个操作 id 不能指向两个不同的动作：主机以错误作答，什么都不执行。"
        } else {
            "One operation id cannot name two different actions: the host answers with an error and runs nothing."
        }
        .into(),
        StepKind::Rejected { .. } => if zh {
            "真实的提供方会拒绝这个请求：上下文里有工具调用却没有对应的结果。OpenAI 要求带 tool_calls 的助手消息后面，每个 tool_call_id 都有一条 tool 消息；Anthropic 要求每个 tool_use 在下一条消息里都有 tool_result。模型根本没有运行。"
        } else {
            "A real provider rejects this request: the context holds a tool call without its result. OpenAI requires a tool message for every tool_call_id after an assistant message with tool_calls; Anthropic requires a tool_result for every tool_use in the next message. The model never ran."
        }
        .into(),
    }
}
