//! Every text the screen shows, in Chinese and English, in one place.
//! Step titles and labels are made here from the trace's structured steps.

use crate::scenario::{EndStatus, Lang};
use crate::trace::{CallId, CallStatus, Lane, Refusal, Step, StepKind, Trace, Verdict};

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
    "此后追加，下次调用才会发送",
    "Appended since, sent on the next call",
);
pub const DISK: Label = l(
    "磁盘（模型从未直接看到）",
    "Disk (never shown to the model)",
);
pub const NO_CALLS: Label = l("还没有工具调用。", "No tool calls yet.");
pub const ENVIRONMENT: Label = l("环境", "Environment");
pub const NOT_READ: Label = l("未读", "not read");
pub const READ: Label = l("已读", "read");
pub const WRITTEN: Label = l("已写入", "written");
pub const NOT_APPENDED: Label = l("未追加！", "not appended!");
pub const ATTACHED_TO: Label = l("被挂到", "attached to");
pub const WRONG_ID: Label = l("错误的 id！", "wrong id!");
pub const REPLAYED: Label = l(
    "重放：返回先前结果，未再写入",
    "replayed: earlier result, no new write",
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
pub const KEYS: Label = l("按键", "Keys");
pub const GLOSSARY: Label = l("术语", "Glossary");
pub const CLOSE_HINT: Label = l("Esc 关闭 · ↑↓ 滚动", "Esc closes · ↑↓ scroll");

pub const COL_ID: Label = l("call id", "call id");
pub const COL_TOOL: Label = l("工具", "tool");
pub const COL_ARGS: Label = l("参数", "args");
pub const COL_STATUS: Label = l("状态", "status");
pub const COL_RESULT: Label = l("结果", "result");

pub const GLOSSARY_ENTRIES: [(Label, Label); 8] = [
    (
        l("call id", "call id"),
        l(
            "模型给每个工具调用起的编号；结果靠它找回对应的调用。",
            "The id the model gives each tool call; a result finds its call by it.",
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
            "主机执行（或拒绝）调用后得到的文字，带着 call id 追加给模型。",
            "The text the host gets by running (or refusing) a call, appended with its call id.",
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
    match (step.from, step.to) {
        (None, to) => format!("{} → {}", USER.get(lang), lane_name(to, lang)),
        (Some(from), to) if from == to => lane_name(from, lang).to_string(),
        (Some(from), to) => format!("{} → {}", lane_name(from, lang), lane_name(to, lang)),
    }
}

/// The sentence that says the loop has ended, and how.
pub fn loop_ended(end: EndStatus, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("循环结束：{}", end_name(end, lang)),
        Lang::En => format!("The loop has ended: {}", end_name(end, lang)),
    }
}

/// A file a running call is working on.
pub fn in_use_by(call: &CallId, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{call} 正在使用"),
        Lang::En => format!("in use by {call}"),
    }
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
        CallStatus::Error => l("出错", "error"),
        CallStatus::Refused => l("被拒绝", "refused"),
    }
    .get(lang)
}

pub fn end_name(end: EndStatus, lang: Lang) -> &'static str {
    match end {
        EndStatus::Completed => l("已完成", "completed"),
        EndStatus::BudgetExhausted => l("预算用尽", "budget exhausted"),
        EndStatus::VerificationMissing => l("缺少验证", "verification missing"),
        EndStatus::Crashed => l("主机崩溃", "crashed"),
    }
    .get(lang)
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
                [one] => trace.call(one).map_or(one.0.clone(), |c| {
                    let args: Vec<&str> = c.args.iter().map(|(_, v)| v.as_str()).collect();
                    format!("{} {}({})", c.id, c.tool, args.join(", "))
                }),
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
        StepKind::Answers { .. } => match (step.end, zh) {
            (Some(EndStatus::VerificationMissing), true) => {
                "模型说“完成了”，主机直接相信：没有验证".into()
            }
            (Some(EndStatus::VerificationMissing), false) => {
                "The model says done and the host trusts it: not verified".into()
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
            (true, true) => "验证通过：任务真的完成了".into(),
            (true, false) => "Verification passed: the task is really done".into(),
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
            StepKind::Answers { .. } | StepKind::BudgetExhausted { .. }
        )
    {
        title.push_str(if zh { " · 结束：" } else { " · ended: " });
        title.push_str(end_name(end, lang));
    }
    title
}

fn result_title(trace: &Trace, id: &crate::trace::CallId, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let Some(call) = trace.call(id) else {
        return match zh {
            true => format!("{id} 的结果返回，但没有任何调用用过这个 id（孤立结果）"),
            false => format!("A result for {id} arrives, but no call has that id (an orphan)"),
        };
    };
    let replayed = call.result.as_ref().is_some_and(|r| r.replayed);
    let error = call.result.as_ref().is_some_and(|r| r.is_error);
    match (&call.paired_to, call.appended) {
        (_, false) if zh => format!("{id} 的结果返回了，但主机没有把它追加到消息里"),
        (_, false) => format!("The result for {id} comes back, but the host does not append it"),
        (Some(to), true) if to != id && zh => {
            format!("{id} 的结果返回，却被挂到了 {to} 上（按到达顺序配对）")
        }
        (Some(to), true) if to != id => {
            format!("The result of {id} comes back but is attached to {to} (paired by order)")
        }
        _ if replayed && zh => format!("{id}：操作 id 重放，返回先前的结果，没有再写一次"),
        _ if replayed => {
            format!("{id}: a replayed operation id returns the earlier result, no second write")
        }
        _ if error && zh => format!("{id} 返回错误结果，按 id 配对后追加"),
        _ if error => format!("An error result for {id} comes back, paired by id and appended"),
        _ if zh => format!("{id} 的结果返回，按 id 配对后追加到消息"),
        _ => format!("The result for {id} comes back, paired by id and appended"),
    }
}

/// A short label drawn on the step's arrow in the lanes.
pub fn arrow_label(trace: &Trace, step: &Step) -> String {
    let lang = trace.lang;
    let zh = lang == Lang::Zh;
    match &step.kind {
        StepKind::TaskArrives => {
            USER.get(lang).to_string() + if zh { "：任务" } else { ": task" }
        }
        StepKind::ModelCall { number } => {
            let len = step
                .model_call
                .map_or(0, |i| trace.model_calls[i].context_len);
            if zh {
                format!("#{number} 上下文 {len} 条")
            } else {
                let noun = if len == 1 { "message" } else { "messages" };
                format!("#{number} context: {len} {noun}")
            }
        }
        StepKind::Proposes { calls, .. } => match calls.as_slice() {
            [one] => trace
                .call(one)
                .map_or(one.0.clone(), |c| format!("{} {}", c.id, c.tool)),
            many => join_ids(many),
        },
        StepKind::Validates { call, verdict } => match verdict {
            Verdict::Approved => format!("{call} {}", if zh { "✓ 批准" } else { "✓ ok" }),
            Verdict::Refused(_) => format!("{call} {}", if zh { "✗ 拒绝" } else { "✗ refused" }),
        },
        StepKind::Executes { calls } => {
            format!("{} {}", if zh { "执行" } else { "run" }, join_ids(calls))
        }
        StepKind::ResultArrives { call } => {
            let result = trace
                .call(call)
                .and_then(|c| c.result.as_ref())
                .map_or(String::new(), |r| first_line(&r.text));
            format!("{call} ⇐ {result}")
        }
        StepKind::Answers { .. } => if zh { "最终答案" } else { "final answer" }.to_string(),
        StepKind::Verifies { tool } => format!("{} {tool}", if zh { "验证" } else { "verify" }),
        StepKind::Verified { passed, .. } => match (passed, zh) {
            (true, true) => "✓ 通过".into(),
            (true, false) => "✓ passed".into(),
            (false, true) => "✗ 失败".into(),
            (false, false) => "✗ failed".into(),
        },
        StepKind::BudgetExhausted { .. } => if zh {
            "■ 预算用尽"
        } else {
            "■ budget spent"
        }
        .to_string(),
        StepKind::Crashes { .. } => if zh { "✗ 崩溃" } else { "✗ crash" }.to_string(),
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
            "检查通过，任务被接受为完成。"
        } else {
            "The check passed; the task is accepted as completed."
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
    }
}
