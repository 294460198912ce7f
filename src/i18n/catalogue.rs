//! Every text, in every language: a `Label` (or a `Plural`) a text,
//! one string per language in the order of `Lang::ALL`.
//!
//! Long because it is the one table of every text in every language, read and
//! checked by translators in one place.

use super::label::{Label, Plural, l};

pub const MODEL_CALL_N: Plural = Plural {
    one: l(["次模型调用", "model call"]),
    other: l(["次模型调用", "model calls"]),
};
/// After a number and its measure word in Chinese (条).
pub const RESULT_N: Plural = Plural {
    one: l(["结果", "result"]),
    other: l(["结果", "results"]),
};
/// After a number and its measure word in Chinese (条).
pub const MESSAGE_WORD_N: Plural = Plural {
    one: l(["消息", "message"]),
    other: l(["消息", "messages"]),
};
pub const MESSAGE_N: Plural = Plural {
    one: l(["条消息", "message"]),
    other: l(["条消息", "messages"]),
};
/// A Responses request's `input` items.
pub const ITEM_N: Plural = Plural {
    one: l(["项输入", "input item"]),
    other: l(["项输入", "input items"]),
};
pub const HOST_CHECK_N: Plural = Plural {
    one: l(["主机验证", "host check"]),
    other: l(["主机验证", "host checks"]),
};
pub const STEP_N: Plural = Plural {
    one: l(["步", "step"]),
    other: l(["步", "steps"]),
};
/// Places in a replayed file, after a number in Chinese ("第 3 行").
pub const LINE_N: Plural = Plural {
    one: l(["行", "line"]),
    other: l(["行", "lines"]),
};
pub const ITEM_PLACE_N: Plural = Plural {
    one: l(["项", "item"]),
    other: l(["项", "items"]),
};
pub const REQUEST_N: Plural = Plural {
    one: l(["个请求", "request"]),
    other: l(["个请求", "requests"]),
};
/// Notes on a Gemini CLI session, in the about overlay and the warnings.
pub const GEMINI_RESULTS_TWICE: Plural = Plural {
    one: l([
        "Gemini CLI 把每批工具结果再写一次，作为由 functionResponse 部件组成的 user 消息（user/functionResponse，第 {lines} 行）：结果只按回复记录里的那份画一次。",
        "Gemini CLI writes each batch of tool results a second time, as a user message of functionResponse parts (user/functionResponse, line {lines}): each result is drawn once, from the reply's record",
    ]),
    other: l([
        "Gemini CLI 把每批工具结果再写一次，作为由 functionResponse 部件组成的 user 消息（user/functionResponse，第 {lines} 行）：结果只按回复记录里的那份画一次。",
        "Gemini CLI writes each batch of tool results a second time, as a user message of functionResponse parts (user/functionResponse, lines {lines}): each result is drawn once, from the reply's record",
    ]),
};
pub const GEMINI_TURNS_SPLIT: Plural = Plural {
    one: l([
        "有 {n} 条 gemini 消息记录装着好几轮模型回复的工具调用（位置 {places}，括号里是轮数）：一轮以工具调用开头、没有文字和思考时，Gemini CLI 把它的调用加到上一条消息里；这些调用的记录时间相隔超过 100 毫秒（同一轮的调用在同一时刻记录），所以每轮画成一次单独的回复。那些后来的轮次除了调用还说了什么、用了多少 token，文件没有记录。",
        "{n} gemini message record holds the tool calls of several model turns (at {places}, with the turns in brackets): when a turn starts with a tool call and has no text or thoughts, Gemini CLI adds its calls to the message before it; these calls were recorded more than 100 ms apart (a turn's calls are recorded at one moment), so each turn is drawn as a reply of its own. What those later turns said besides their calls, and their tokens, the file does not record",
    ]),
    other: l([
        "有 {n} 条 gemini 消息记录装着好几轮模型回复的工具调用（位置 {places}，括号里是轮数）：一轮以工具调用开头、没有文字和思考时，Gemini CLI 把它的调用加到上一条消息里；这些调用的记录时间相隔超过 100 毫秒（同一轮的调用在同一时刻记录），所以每轮画成一次单独的回复。那些后来的轮次除了调用还说了什么、用了多少 token，文件没有记录。",
        "{n} gemini message records hold the tool calls of several model turns (at {places}, with the turns in brackets): when a turn starts with a tool call and has no text or thoughts, Gemini CLI adds its calls to the message before it; these calls were recorded more than 100 ms apart (a turn's calls are recorded at one moment), so each turn is drawn as a reply of its own. What those later turns said besides their calls, and their tokens, the file does not record",
    ]),
};
pub const GEMINI_REWOUND: Plural = Plural {
    one: l([
        "会话被回退（$rewindTo）过：{n} 条消息已不在会话里，这里不显示，和 Gemini CLI 恢复会话时一样。",
        "the session was rewound ($rewindTo): {n} message record no longer in it is not shown, as Gemini CLI leaves it out when it resumes the session",
    ]),
    other: l([
        "会话被回退（$rewindTo）过：{n} 条消息已不在会话里，这里不显示，和 Gemini CLI 恢复会话时一样。",
        "the session was rewound ($rewindTo): {n} message records no longer in it are not shown, as Gemini CLI leaves them out when it resumes the session",
    ]),
};
pub const GEMINI_REPLACED: Plural = Plural {
    one: l([
        "{n} 条消息记录被同 id 的后写记录替换（例如工具调用完成后重写的回复）：显示的是最后写入的那份。",
        "{n} message record was rewritten under the same id (a reply written again once its tool calls finished): the last copy is shown",
    ]),
    other: l([
        "{n} 条消息记录被同 id 的后写记录替换（例如工具调用完成后重写的回复）：显示的是最后写入的那份。",
        "{n} message records were rewritten under the same id (a reply written again once its tool calls finished): the last copy is shown",
    ]),
};
pub const GEMINI_IDS_REBUILT: Plural = Plural {
    one: l([
        "检查点里有 {n} 个 functionCall 没有 id：每个 functionResponse 按名字、按顺序对应上一轮模型回复里的调用（Gemini API 的规则）；这些调用的 id（contents[i].parts[j]，即它在文件中的位置）是本程序起的名字，不是文件里的。",
        "{n} functionCall part of the checkpoint carries no id: each functionResponse answers the call of the model turn before it with its name, in order (the Gemini API's rule); the id drawn for it (contents[i].parts[j], its place in the file) is this program's name, not the file's",
    ]),
    other: l([
        "检查点里有 {n} 个 functionCall 没有 id：每个 functionResponse 按名字、按顺序对应上一轮模型回复里的调用（Gemini API 的规则）；这些调用的 id（contents[i].parts[j]，即它在文件中的位置）是本程序起的名字，不是文件里的。",
        "{n} functionCall parts of the checkpoint carry no id: each functionResponse answers the call of the model turn before it with its name, in order (the Gemini API's rule); the ids drawn for them (contents[i].parts[j], their place in the file) are this program's names, not the file's",
    ]),
};
/// Responses `reasoning` items a replayed file holds.
pub const REASONING_ITEM_N: Plural = Plural {
    one: l(["个推理（reasoning）项", "reasoning item"]),
    other: l(["个推理（reasoning）项", "reasoning items"]),
};
/// User-role messages the harness wrote itself, said after a replayed step.
pub const REPLAY_HARNESS_CONTEXT: Plural = Plural {
    one: l([
        "另有 {n} 条 user 角色的消息（{places}）是宿主程序自己写的（比如环境信息、项目说明、提醒、示范、压缩留下的摘要），不是用户写的；它们也在上下文里。",
        " Also appended: {n} user-role message ({places}) written by the harness itself (for example environment details, project instructions, reminders, a demonstration, a compaction's summary), not by the user; the model reads it in the context.",
    ]),
    other: l([
        "另有 {n} 条 user 角色的消息（{places}）是宿主程序自己写的（比如环境信息、项目说明、提醒、示范、压缩留下的摘要），不是用户写的；它们也在上下文里。",
        " Also appended: {n} user-role messages ({places}) written by the harness itself (for example environment details, project instructions, reminders, a demonstration, a compaction's summary), not by the user; the model reads them in the context.",
    ]),
};

catalogue! {
    STEP = ["步骤", "step"];
    CONTEXT = ["上下文", "Context"];
    PAIRING = ["call_id 配对", "call_id pairing"];
    EXPLAIN = ["说明", "Explanation"];
    LANES = ["泳道", "Lanes"];
    HELP = ["帮助与术语", "Help and glossary"];
    ABOUT = ["关于这个场景", "About this scenario"];
    PLAYING = ["▶ 播放中", "▶ playing"];
    PAUSED = ["‖ 已暂停", "‖ paused"];
    // The live view of a tap (`tap -- COMMAND` in a terminal), in its footer only.
    LIVE_RUNNING = ["● 实时：代理运行中", "● live: the agent runs"];
    LIVE_ENDED = ["实时：代理已结束（退出码 {code}）", "live: the agent ended (exit code {code})"];
    LIVE_STOPPED = ["实时：代理被信号终止", "live: the agent was ended by a signal"];
    LIVE_SERVING = ["● 实时：tap 在 {base} 等待调用（没有启动代理）", "● live: the tap serves at {base} (it started no agent)"];
    LIVE_NEW = ["{n} {steps}新内容（End 跳到最新）", "{n} new {steps} (End shows them)"];
    LIVE_CONVERSATION = ["对话 {k}/{n}（s 切换）", "conversation {k}/{n} (s switches)"];
    LIVE_NEW_SHORT = ["{n} {steps}新", "{n} new {steps}"];
    LIVE_CONVERSATION_SHORT = ["对话 {k}/{n}", "conversation {k}/{n}"];
    SUB_AGENT_INTO = [
        "调用 {call} 启动了子智能体 agent-{agent}，它在自己的循环里运行：对话 {k}/{n}。",
        "Call {call} started sub-agent agent-{agent}, which ran in a loop of its own: conversation {k}/{n}.",
    ];
    SUB_AGENT_INTO_KEYS = [
        "按 d 进入；在那里按 u 回到这一步。",
        " d opens it; u there comes back to this step.",
    ];
    SUB_AGENT_OUT = [
        "这是子智能体 agent-{agent} 自己的循环，由对话 {k}/{n} 的调用 {call} 启动。",
        "This is sub-agent agent-{agent}'s own loop, started by call {call} of conversation {k}/{n}.",
    ];
    SUB_AGENT_OUT_KEYS = [
        "按 u 回到那次调用所在的步骤。",
        " u goes back to that call's step.",
    ];
    LIVE_SUB_AGENT = [
        "调用 {call} 的子智能体 agent-{agent}（u 返回）",
        "sub-agent agent-{agent} of call {call} (u goes back)",
    ];
    LIVE_SUB_AGENT_SHORT = ["子智能体（u 返回）", "sub-agent (u goes back)"];
    LIVE_CONFIRM_QUIT = [
        "代理还在运行。停止它并退出吗？已经结束的模型调用都已写入记录。",
        "The agent is still running. Stop it and quit? Every model call that ended is in the recording.",
    ];
    DWELL = ["间隔", "dwell"];
    ZOOMED = ["放大", "zoomed"];
    FOCUS = ["焦点", "focus"];
    RUNNING_LOOP = ["循环进行中", "loop running"];
    ACTING = ["行动方", "acting"];
    USER = ["用户", "user"];
    CALLER = ["调用方", "caller"];
    TOOLS_OFFERED = ["提供的工具", "Tools offered"];
    TOOL_CHOICE = ["tool_choice", "tool_choice"];
    NOTHING_SENT = ["还没有调用模型：模型什么都没看到。", "No model call yet: the model has seen nothing."];
    HOST_HOLDS = ["主机手中的消息（尚未发送）", "Messages the host holds (not sent yet)"];
    APPENDED_SINCE = ["此后追加：尚未发给模型", "Appended since: not yet sent to the model"];
    APPENDED_AFTER_END = ["最后一次调用之后追加：循环已结束，不会发送", "Added after the last call: never sent"];
    DISK = ["磁盘（模型从未直接看到）", "Disk (not sent to the model)"];
    NONE = ["无", "none"];
    /// Where a replayed file is silent: never "none".
    NOT_RECORDED = ["文件未记录", "not recorded"];
    /// A reasoning item's content only its provider can read.
    ENCRYPTED_CHARS = ["加密内容 {n} 字符", "encrypted: {n} chars"];
    /// A tool offered that the provider runs on its servers, by its type.
    SERVER_TOOL = ["{name}（服务器端工具 {type}）", "{name} (server tool {type})"];
    /// A tool the provider defines and the host runs, by its type.
    BUILTIN_TOOL = ["{name}（{type}）", "{name} ({type})"];
    WRITES_UNKNOWN = ["未知", "unknown"];
    MORE_FILES = ["另有 {n} 个", "+{n} more"];
    NO_CALLS = ["还没有工具调用。", "No tool calls yet."];
    ENVIRONMENT = ["环境", "Environment"];
    NOT_READ = ["未读", "not read"];
    READ = ["已读", "read"];
    WRITTEN = ["已写入", "written"];
    ATTACHED_TO = ["被挂到", "attached to"];
    // The simulator knows the pairing is wrong; the host that made it does not.
    WRONG_ID = ["错误的 id！（模拟器看得出，主机看不出）", "wrong id! (the simulator sees it; the host does not)"];
    REPLAYED = ["重放：主机按记录作答，没有执行", "replayed: answered from the host's record, nothing ran"];
    DROPPED = ["未追加！这个调用一直没有结果", "not appended! the call stays unanswered"];
    CALL_DROPPED = ["未追加！调用和结果都不在消息里", "not appended! neither the call nor its result is in the messages"];
    TOO_SMALL = ["终端太小", "Terminal too small"];
    NEEDS = ["需要至少", "needs at least"];
    NOW = ["当前", "now"];
    MORE_ABOVE = ["↑ 上方还有", "↑ more above"];
    MORE_BELOW = ["↓ 下方还有", "↓ more below"];
    NEW_ABOVE = ["↑ 上方还有新消息（+）", "↑ new (+) above"];
    APPENDED_ABOVE = ["↑ 上方还有此后追加的消息", "↑ more appended above"];
    LINES_LEFT_OUT = ["（略去 {n} {lines}）", "({n} more {lines})"];
    CHARS_IN_ALL = ["（全文 {chars} 字符）", "({chars} chars in all)"];
    CONDITIONS = ["固定输入与条件", "Fixed inputs and conditions"];
    WHY = ["为什么需要这个机制", "Why this mechanism is needed"];
    HOW = ["它是怎么实现的", "How it is implemented"];
    COST = ["代价与常见误解", "What it costs, how it is misunderstood"];
    CHECK = ["怎样判断做对了", "How to tell it was done right"];
    PROVIDER_SAYS = ["提供方返回（{provider} 的原文）", "The provider answers ({provider} wording)"];
    CHANGED_NOW = ["◀ 本步", "◀ now"];
    LOOP = ["循环", "loop"];
    TASK = ["任务", "task"];
    KEYS = ["按键", "Keys"];
    GLOSSARY = ["术语", "Glossary"];
    CLOSE_HINT = ["Esc 关闭 · ↑↓ 滚动", "Esc closes · ↑↓ scroll"];
    COL_ID = ["call_id", "call_id"];
    COL_TOOL = ["工具", "tool"];
    COL_ARGS = ["参数", "args"];
    COL_STATUS = ["状态", "status"];
    COL_RESULT = ["结果", "result"];
    /// The colon after a label.
    COLON = ["：", ": "];
    STEP_TITLE = ["步骤", "Step"];
    CROSSED = ["箭头", "arrow"];
    ENVIRONMENT_LEAD = ["{environment}（{tool}）：", "{environment} ({tool}): "];
    /// The line that stands for the folded rest of a long message.
    // A no-break space keeps the key with its words when the line wraps.
    FOLDED = ["… 已折叠，全文 {chars} 字符（f\u{a0}展开）", "… folded: {chars} chars in all (f\u{a0}shows\u{a0}all)"];
    FOLDED_NO_KEYS = ["… 已折叠，全文 {chars} 字符", "… folded: {chars} chars in all"];
    /// The context's size on each call so far, as a small bar chart.
    GROWTH = [
        "逐次调用的请求：{bars} {first} → {last} 字节（共 {calls} 次）",
        "request per call: {bars} {first} → {last} bytes, {calls} calls",
    ];
    THE_API = ["提供方 API（模型未运行）", "the provider's API (the model never ran)"];
    THE_API_SHORT = ["API（模型未运行）", "API (model never ran)"];
    FROM_TO = ["{from} → {to}", "{from} → {to}"];
    LOOP_ENDED = ["循环结束：{end}。任务：{task}。", "The loop has ended: {end}. Task: {task}."];
    EARLIER_STEP = ["↑ 上方还有第 1 步（↑ 滚动）", "↑ step 1 is above (scroll ↑)"];
    EARLIER_STEPS = ["↑ 上方还有第 1–{n} 步（↑ 滚动）", "↑ steps 1–{n} are above (scroll ↑)"];
    EARLIER_STEP_NO_KEYS = ["↑ 上方还有第 1 步", "↑ step 1 is above"];
    EARLIER_STEPS_NO_KEYS = ["↑ 上方还有第 1–{n} 步", "↑ steps 1–{n} are above"];
    IN_USE_BY = ["{call} 正在使用", "in use by {call}"];
    // The plain transcript: the model's reply at the step it arrives.
    PLAIN_REPLY = ["模型的回复", "The model's reply"];
    ROLE_USER = ["用户", "user"];
    ROLE_ASSISTANT = ["助手", "assistant"];
    ROLE_TOOL = ["工具", "tool"];
    ROLE_SYSTEM = ["系统", "system"];
    /// Responses: the request's `instructions`, its system prompt.
    INSTRUCTIONS = ["instructions", "instructions"];
    LANE_MODEL = ["模型", "Model"];
    LANE_HOST = ["主机", "Host"];
    LANE_TOOL = ["工具", "Tool"];
    STATUS_PROPOSED = ["已提议", "proposed"];
    STATUS_APPROVED = ["已批准", "approved"];
    STATUS_RUNNING = ["执行中", "running"];
    STATUS_DONE = ["完成", "done"];
    STATUS_REPLAYED = ["重放", "replayed"];
    STATUS_UNANSWERED = ["未回答", "unanswered"];
    STATUS_NOT_SENT = ["未发送", "not sent"];
    STATUS_NOT_RUN = ["未执行", "not run"];
    STATUS_WRONG_ID = ["错配", "wrong id"];
    STATUS_ERROR = ["出错", "error"];
    STATUS_REFUSED = ["被拒绝", "refused"];
    END_ANSWER = ["最终答案", "final answer"];
    END_BUDGET = ["预算用尽", "budget used up"];
    END_REJECTED = ["请求被拒", "request rejected"];
    END_CRASHED = ["主机崩溃", "harness crashed"];
    TASK_VERIFIED = ["已验证", "verified"];
    TASK_VERIFIED_WHY = ["已验证（改动之后检查通过）", "verified (a check passed after the last change)"];
    TASK_ANSWERED = ["已回答（未检查）", "answered (unchecked)"];
    TASK_ANSWERED_WHY = ["已回答（只读，答案未经检查）", "answered (read-only; the answer is not checked)"];
    TASK_UNVERIFIED = ["未验证", "unverified"];
    TASK_UNVERIFIED_WHY = ["未验证（有改动，没人检查）", "unverified (changed, never checked)"];
    TASK_NOT_DONE = ["未完成", "not done"];
    TASK_UNKNOWN = ["不得而知", "unknown"];
    TASK_UNKNOWN_WHY = ["不得而知（文件没有记录任何检查）", "unknown (the file records no check)"];
    CALLS_HTTP = ["{calls}（HTTP 请求 {http}）", "{calls} (HTTP requests {http})"];
    CALLS_REJECTED = ["{used}/{budget}（1 次被拒）", "{used}/{budget} (1 rejected)"];
    RUNS_CHECKS = ["{runs}（{checks} {n}）", "{runs} ({n} {checks})"];
    COUNTERS_SENT = [
        "模型调用 {calls} · 工具执行 {runs} · 写入 {writes} · 第 {number} 次调用的请求 {chars} 字节 ≈ {tokens} token",
        "model calls {calls} · tool runs {runs} · writes {writes} · request of call #{number}: {chars} bytes ≈ {tokens} tokens",
    ];
    COUNTERS_SENT_SHORT = [
        "模型调用 {calls} · 工具执行 {runs} · 写入 {writes} · 第 {number} 次发送 {chars} 字节，≈ {tokens} token",
        "model calls {calls} · tool runs {runs} · writes {writes} · sent on #{number}: {chars} bytes, ≈ {tokens} tokens",
    ];
    COUNTERS_SENT_SHORTEST = [
        "模型调用 {calls} · 工具执行 {runs} · 写入 {writes} · 第 {number} 次发送 {chars} 字节",
        "model calls {calls} · tool runs {runs} · writes {writes} · sent on #{number}: {chars} bytes",
    ];
    COUNTERS_NOTHING_SENT = [
        "模型调用 {calls} · 工具执行 {runs} · 写入 {writes} · 上下文：尚未发送",
        "model calls {calls} · tool runs {runs} · writes {writes} · context: nothing sent yet",
    ];
    /// The wire view's heading: the request as sent.
    WIRE_HEADING = [
        "第 {number} 次模型调用的请求体 · {endpoint} · {bytes} 字节（w 回到消息列表）",
        "Request body of model call #{number} · {endpoint} · {bytes} bytes (w: back to the list)",
    ];
    WIRE_HEADING_REPLIED = [
        "第 {number} 次模型调用的请求体，下面是它的响应 · {endpoint} · {bytes} 字节（w 回到消息列表）",
        "Request body of model call #{number}, then its response · {endpoint} · {bytes} bytes (w: back to the list)",
    ];
    /// Under the heading, where the lesson numbers its call ids.
    WIRE_SHORT_IDS = [
        "call_1、call_2… 是本课的简写；{provider} 生成的 id 形如 {shape}。",
        "call_1, call_2… are this lesson's short ids; {provider} makes ids like {shape}.",
    ];
    /// Under the heading, where the file (or the tap) recorded the body.
    WIRE_RECORDED = [
        "按记录原样显示：模型 {model} · {tokens} token（o200k_base，按记录的请求体计）。",
        "As recorded: model {model} · {tokens} tokens (o200k_base, of the body as recorded).",
    ];
    /// Under the heading, where a replayed run's body is rebuilt.
    WIRE_REBUILT = [
        "由消息重建（文件没有记录请求体）· 模型与参数：未记录。",
        "Rebuilt from the messages (the file records no request body) · model and parameters: not recorded.",
    ];
    /// Under a recorded body where the items new since the call before
    /// cannot be told (its list does not extend the one sent before).
    WIRE_NEW_UNKNOWN = [
        "它的列表不是上一次请求的延续：不标出新增项。",
        "Its list does not extend the previous request's: no item is marked new.",
    ];
    WIRE_RESPONSE = ["响应 {status}", "response {status}"];
    /// A streamed reply as the host assembled it from its events.
    WIRE_ASSEMBLED = ["响应 {status}，由流的事件拼成", "response {status}, assembled from the stream's events"];
    WIRE_STREAM = ["响应 200，以流的形式到来（server-sent events），到目前为止的事件", "response 200 as a stream (server-sent events), the events so far"];
    WIRE_TOOLS_ECHOED = ["\"tools\": [… 与请求里的 {n} 个工具相同 …],", "\"tools\": [… the request's tools ({n}), echoed …],"];
    /// How a request's tokens were counted.
    TOKENS_COUNTED = ["o200k_base", "o200k_base"];
    TOKENS_ESTIMATED = ["o200k_base 估算", "o200k_base estimate"];
    CONTEXT_HEADING = [
        "第 {number} 次调用 → {provider} · {len} {messages}，新增 {new} 条（+）· {chars} 字节（其中工具定义 {in_tools} 字节）· {tokens} token（{counted}）",
        "Call #{number} → {provider} · {len} {messages}, {new} new (+) · {chars} bytes ({in_tools} of them tool schemas) · {tokens} tokens ({counted})",
    ];
    /// The same, for a real run whose file does not record the tools sent.
    CONTEXT_HEADING_TOOLS_UNKNOWN = [
        "第 {number} 次调用 → {provider} · {len} {messages}，新增 {new} 条（+）· {chars} 字节（工具定义未记录，不计在内）· {tokens} token（{counted}）",
        "Call #{number} → {provider} · {len} {messages}, {new} new (+) · {chars} bytes (tool schemas not recorded, not counted) · {tokens} tokens ({counted})",
    ];
    SENT_BEFORE = [
        "  前面的调用已发送（见上文）：第 {which} 条 · --full-context 每次全部列出",
        "  already sent on an earlier call (shown there): {which} · --full-context repeats them",
    ];
    INNER_LOOP = [
        "内层循环：第 {number} 次调用逐个生成了约 {tokens} 个 token，组成这条回复。",
        "Inner loop: model call #{number} generated about {tokens} tokens, one by one, to write this reply.",
    ];
    REFUSED_NOT_OFFERED = ["主机拒绝：没有提供工具 \"{tool}\"", "refused by host: tool \"{tool}\" is not offered"];
    REFUSED_MISSING_ARG = ["主机拒绝：缺少参数 \"{arg}\"", "refused by host: missing argument \"{arg}\""];
    REFUSED_UNKNOWN_ARG = ["主机拒绝：未知参数 \"{arg}\"", "refused by host: unknown argument \"{arg}\""];
    REFUSED_OUTSIDE = ["主机拒绝：路径 \"{path}\" 在工作区之外", "refused by host: path \"{path}\" is outside the workspace"];
    VERIFICATION_FAILED = ["主机验证失败（{tool}）：{output}", "verification failed ({tool}): {output}"];
    OP_CONFLICT = [
        "主机拒绝：操作 id \"{op}\" 已用于另一个调用，同一个 id 不能指向不同的动作",
        "refused by host: operation id \"{op}\" was used for a different call; one id cannot name two actions",
    ];
    SAYS_NO_SUCH_FILE = ["错误：没有这个文件：{path}", "error: no such file: {path}"];
    SAYS_WROTE = ["已写入 {path}（现为 v{version}）", "wrote {path} (now v{version})"];
    SAYS_PATCHED = ["已修改 {path}（现为 v{version}）", "patched {path} (now v{version})"];
    SAYS_FIND_NOT_FOUND = ["错误：{path} 里找不到要替换的文字", "error: text to replace not found in {path}"];
    SAYS_TESTS_PASSED = ["通过：{n} 项检查全部通过", "passed: {n} of {n} checks"];
    SAYS_NO_LINE = ["失败：{path} 里没有一行是 {wanted}", "FAILED: {path} has no line {wanted}"];
    SAYS_NOT_CONTAINED = ["失败：{path} 里没有 {wanted}", "FAILED: {path} does not contain {wanted}"];
    SAYS_NO_SUCH_TOOL = ["错误：没有名为 \"{tool}\" 的工具", "error: no tool named \"{tool}\""];
    REASON_NOT_OFFERED = ["未提供该工具", "tool not offered"];
    REASON_MISSING_ARG = ["缺少参数 {arg}", "missing argument {arg}"];
    REASON_UNKNOWN_ARG = ["未知参数 {arg}", "unknown argument {arg}"];
    REASON_OUTSIDE = ["路径在工作区之外", "outside workspace"];
    TITLE_TASK = ["用户的任务到达主机", "The user's task arrives at the host"];
    // A sub-agent's first message: the calling agent's prompt, not the user's words.
    TITLE_SUB_AGENT_TASK = ["调用方的 prompt 到达主机", "The caller's prompt arrives at the host"];
    TITLE_USER_TURN = ["用户又发来一条消息：新的一轮", "The user writes again: a new turn"];
    TITLE_MODEL_CALL = ["第 {number} 次模型调用：主机发送上下文", "Model call #{number}: the host sends the context"];
    TITLE_PROPOSES_ONE = ["模型提出工具调用 {what}（只是提议）", "The model proposes {what} (a proposal only)"];
    TITLE_PROPOSES_MANY = ["模型在一次回复中提出 {n} 个调用：{what}", "The model proposes {n} calls in one reply: {what}"];
    TITLE_APPROVED = ["主机校验 {call}：批准", "The host validates {call}: approved"];
    TITLE_REFUSED = ["主机拒绝 {call}：{reason}", "The host refuses {call}: {reason}"];
    TITLE_EXECUTES_ONE = ["主机执行 {what}", "The host executes {what}"];
    // The count first: a header too narrow for every id still says it.
    TITLE_EXECUTES_MANY = ["主机并行执行 {n} 个调用：{what}", "The host executes {n} calls in parallel: {what}"];
    TITLE_REPLAYS = ["主机按记录回答 {call}（操作 {op}）：什么都不执行", "The host answers {call} from its record of {op}: nothing runs"];
    TITLE_OP_CONFLICT = [
        "{call} 把操作 id {op} 用于另一个动作：主机以错误作答，不执行",
        "{call} reuses operation id {op} for another action: the host answers with an error",
    ];
    TITLE_REJECTED = ["提供方拒绝第 {number} 次调用（400）：{ids} 没有结果", "The provider rejects model call #{number} (400): {ids} has no result"];
    TITLE_STREAM_TEXT_OPENS = ["第 {number} 次调用的回复以流的形式到来：文字开头 “{delta}”", "Model call #{number}'s reply comes as a stream: its text begins “{delta}”"];
    TITLE_STREAM_TEXT_CLOSES = ["文字的其余部分 “{delta}” 到达，文字块完整：“{whole}”", "The rest of the text, “{delta}”, arrives: the text block is whole: “{whole}”"];
    TITLE_STREAM_CALL_OPENS = ["流中开始一个工具调用 {call} {tool}；参数到目前为止是 {delta}，还不是完整的 JSON", "A tool call begins in the stream, {call} {tool}; its arguments so far are {delta}, not yet whole JSON"];
    TITLE_STREAM_CALL_CLOSES = ["{call} 参数的最后一段 {delta} 到达：拼起来是 {whole}", "The last piece of {call}'s arguments, {delta}, arrives: together {whole}"];
    TITLE_STREAM_ENDS = ["第 {number} 次调用的流结束（{stop}）：回复完整了", "Model call #{number}'s stream ends ({stop}): the reply is whole"];
    STOP_TOOL_USE = ["因工具调用而停", "stopped for tool calls"];
    STOP_END_TURN = ["回答完毕而停", "stopped at the end of its turn"];
    STOP_LIMIT = ["达到输出上限而停", "stopped at the output limit"];
    TITLE_RATE_LIMITED = ["提供方拒绝第 {number} 次调用的请求（{status} 限流）：{seconds} 秒后再试", "The provider turns model call #{number} away ({status} rate limit): retry in {seconds} s"];
    TITLE_OVERLOADED = ["提供方拒绝第 {number} 次调用的请求（{status} 过载）：{seconds} 秒后再试", "The provider turns model call #{number} away ({status} overloaded): retry in {seconds} s"];
    TITLE_RESENDS = ["主机等待后重发第 {number} 次调用的同一个请求（第 {http} 个 HTTP 请求）", "The host waits, then sends model call #{number}'s request again (HTTP request {http})"];
    TITLE_CUT = ["第 {number} 次调用没有得到完整的回复：记录把它标为不完整", "Model call #{number} gets no whole reply: the recording marks it incomplete"];
    TITLE_PROVIDER_ERROR = ["提供方对第 {number} 次调用回了错误（{status}），没有回复", "The provider answers model call #{number} with an error ({status}), not a reply"];
    TITLE_UNCHECKED_DONE = ["模型说“完成了”，循环结束，改动没有人检查", "The model says done; the loop ends and no one checks the change"];
    TITLE_FINAL_ANSWER = ["模型给出最终答案，没有工具调用：循环结束", "Final answer, no tool calls: the loop ends"];
    TITLE_SAYS_DONE = ["模型说“完成了”：主机先验证再接受", "The model says done: the host verifies before accepting"];
    TITLE_VERIFIES = ["主机亲自运行 {tool} 来验证", "The host runs {tool} itself to verify"];
    TITLE_CHECK_PASSED = ["验证通过：改动经过了检查", "Verification passed: the change has been checked"];
    TITLE_CHECK_FAILED = ["验证失败：失败结果发回给模型", "Verification failed: the failure goes back to the model"];
    TITLE_BUDGET = ["{budget} {calls}的预算已用尽：主机停止循环", "The budget of {budget} {calls} is used up: the host stops"];
    TITLE_BUDGET_NOT_RUN = ["{budget} {calls}的预算已用尽：主机不执行 {ids}，停止循环并告诉用户", "Budget of {budget} {calls} used up: {ids} not run; the user is told"];
    TITLE_CRASHES = ["主机没有处理 {call} 的错误，自己崩溃了", "The host does not handle the error of {call} and crashes"];
    TITLE_ENDED = [" · 结束：", " · ended: "];
    RESULT_ORPHAN = ["{id} 的结果返回，但没有任何调用用过这个 id（孤立结果）", "A result for {id} arrives, but no call has that id (an orphan)"];
    RESULT_DROPPED = ["{id} 的结果返回了，但主机没有把它追加到消息里", "The result for {id} comes back, but the host does not append it"];
    RESULT_CALL_DROPPED = ["{id} 的结果返回了，但主机既没追加这个调用，也没追加它的结果", "{id}'s result is back; neither it nor its call is appended"];
    RESULT_WRONG_ID = ["{id} 的结果返回，却被挂到了 {to} 上（按到达顺序配对）", "The result of {id} comes back but is attached to {to} (paired by order)"];
    /// A result filed under an id that no call has (a Responses item id).
    RESULT_ITEM_ID = ["{id} 的结果返回，却写在了 {to} 名下：那是 function_call 项的 id，不是 call_id", "The result of {id} comes back but is filed under {to}: the function_call item's id, not its call_id"];
    RESULT_ERROR = ["{id} 返回错误结果，按 id 配对后追加", "An error result for {id} comes back, paired by id and appended"];
    RESULT_HELD = ["{id} 的结果先到：按 id 配对，先留着，按调用顺序追加", "{id}'s result comes first: paired by id, held for call order"];
    RESULT_IN_CALL_ORDER = ["{id} 的结果返回；按调用顺序追加：{ids}", "{id}'s result is in; appended in call order: {ids}"];
    RESULT_PAIRED_BY_POSITION = ["{id} 的输出返回，按位置配对后追加到消息", "The output of {id} comes back, paired by position and appended"];
    RESULT_ERROR_BY_POSITION = ["{id} 返回错误输出，按位置配对后追加", "An error output of {id} comes back, paired by position and appended"];
    RESULT_PAIRED = ["{id} 的结果返回，按 id 配对后追加到消息", "The result for {id} comes back, paired by id and appended"];
    ARROW_TASK = ["用户的任务", "the user's task"];
    ARROW_SUB_AGENT_TASK = ["调用方的 prompt", "the caller's prompt"];
    ARROW_USER_TURN = ["用户的新消息", "the user's new message"];
    ARROW_MODEL_CALL = ["第 {number} 次调用：发送 {len} {messages}", "call #{number}: {len} {messages} sent"];
    ARROW_THROTTLED = ["HTTP {status} · retry-after: {seconds}", "HTTP {status} · retry-after: {seconds}"];
    ARROW_RESENDS = ["第 {number} 次调用：同一个请求，重发", "call #{number}: the same request, again"];
    ARROW_PROPOSED = ["{what}（提议）", "{what} (proposed)"];
    ARROW_APPROVED = ["{call} ✓ 已批准", "{call} ✓ approved"];
    ARROW_REFUSED = ["{call} ✗ 拒绝：{reason}", "{call} ✗ refused: {reason}"];
    ARROW_RUN = ["执行 {ids}", "run {ids}"];
    ARROW_ORPHAN = ["{call} ⇐ ✗ 没有这个 id 的调用（孤立结果）", "{call} ⇐ ✗ no call has this id (orphan)"];
    ARROW_WRONG_ID = ["{call} 的结果 ⇒ {to} ✗ 错配：{text}", "{call}'s result ⇒ {to} ✗ wrong id: {text}"];
    ARROW_DROPPED = ["{call} ⇐ {mark}{text}（未追加！）", "{call} ⇐ {mark}{text} (not appended!)"];
    ARROW_REPLAYS = ["{call} ↺ 重放 {op}", "{call} ↺ replay of {op}"];
    ARROW_OP_CONFLICT = ["{call} ✗ 操作 id {op} 已用于别的调用", "{call} ✗ op id {op} already used for another call"];
    ARROW_CUT = ["✗ 回复被截断", "✗ reply cut"];
    ARROW_STREAM_TEXT = ["Δ 文字 “{delta}”", "Δ text “{delta}”"];
    ARROW_STREAM_CALL_OPENS = ["Δ {call} {tool} 开始 {delta}", "Δ {call} {tool} begins {delta}"];
    ARROW_STREAM_ARGUMENTS = ["Δ {call} 参数 {delta}", "Δ {call} arguments {delta}"];
    ARROW_STREAM_ENDS = ["■ 流结束：{stop}", "■ stream ends: {stop}"];
    ARROW_STREAM_PIECE = ["Δ 流的一段", "Δ a piece of the stream"];
    ARROW_REJECTED = ["✗ 400 请求被拒：{ids} 没有结果", "✗ 400 rejected: {ids} has no result"];
    ARROW_PROVIDER_ERROR = ["✗ {status} 请求被拒", "✗ {status} rejected"];
    ARROW_FINAL_ANSWER = ["最终答案", "final answer"];
    ARROW_SAYS_DONE = ["说完成了（没有工具调用）", "says done (no tool calls)"];
    ARROW_VERIFY = ["验证：{tool}", "verify: {tool}"];
    ARROW_CHECK_PASSED = ["✓ 检查通过", "✓ check passed"];
    ARROW_CHECK_FAILED = ["✗ 检查失败", "✗ check failed"];
    ARROW_BUDGET = ["■ 预算用尽：停止", "■ budget used up: stop"];
    ARROW_BUDGET_TELLS_USER = ["■ 告诉用户：{ids} 没有执行", "■ user told: {ids} not run"];
    ARROW_CRASHES = ["✗ 主机崩溃", "✗ harness crashes"];
    WHY_TASK = ["任务先到主机。模型此时什么都没看到。", "The task reaches the host first. The model has seen nothing yet."];
    WHY_USER_TURN = ["这不是新任务：用户的消息追加在之前的一切之后，模型下一次调用时连同前面的消息一起看到它。", "Not a new task: the user's message is appended after everything before it, and the model sees it, with all that came before, on its next call."];
    WHY_RATE_LIMITED = [
        "提供方在模型运行之前就拒绝了这个请求：这个组织在这一分钟里的请求或 token 已经到了上限。模型什么也没看到，所以没有回复，也不欠任何结果。响应头 retry-after 说要等几秒。",
        "The provider turns this request away before the model runs: the organisation has used its requests or tokens for this minute. The model saw nothing, so there is no reply and no result is owed. The retry-after header says how many seconds to wait.",
    ];
    WHY_OVERLOADED = [
        "提供方在模型运行之前就拒绝了这个请求：它此刻对所有用户都过载了，不是这个组织超了限。模型什么也没看到，所以没有回复，也不欠任何结果。",
        "The provider turns this request away before the model runs: it is overloaded for every user just now, not over this organisation's limit. The model saw nothing, so there is no reply and no result is owed.",
    ];
    WHY_RESENDS = [
        "主机按 retry-after 等了这么久，然后把同一个请求原样再发一次：上下文没有变，所以请求体一个字节都不变。这仍是同一次模型调用，只是多了一个 HTTP 请求。",
        "The host waited as long as retry-after asked, then sends the same request again: the context has not changed, so neither has a byte of the body. It is still the same model call, one more HTTP request.",
    ];
    WHY_MODEL_CALL = [
        "主机把当前的消息列表和工具定义发给模型（提供方可能再加上自己的系统文字）。模型看不到磁盘。",
        "The host sends the message list and the tool definitions (the provider may add system text of its own). The model cannot see the disk.",
    ];
    WHY_PROPOSES = [
        "模型的回复里有工具调用。它们只是数据：在主机执行之前，什么都没有发生。",
        "The reply contains tool calls. They are data: nothing happens until the host runs them.",
    ];
    WHY_APPROVED = [
        "主机检查工具是否提供、参数是否正确、路径是否在工作区内，然后批准。",
        "The host checks the tool is offered, the arguments are right and the path stays in the workspace, then approves.",
    ];
    WHY_REFUSED = [
        "主机在执行前拒绝了这个调用。拒绝本身作为工具结果发回给模型：主机负责执行规则，上下文只是建议。",
        "The host refuses the call before anything runs. The refusal goes back to the model as a result: the host enforces, the context only advises.",
    ];
    WHY_PARALLEL = [
        "几个调用同时执行。它们完成的顺序不一定和请求的顺序相同。",
        "The calls run at the same time. They need not finish in the order they were asked.",
    ];
    WHY_EXECUTES = [
        "只有工具泳道会接触环境，而且是在主机批准之后。",
        "Only the Tool lane touches the environment, and only after the host approved.",
    ];
    WHY_RESULT = [
        "结果靠 call id 找到它的调用，然后追加到消息末尾，下一次模型调用才会看到它。出错的结果也是结果，不是崩溃。",
        "The result finds its call by the call id and is appended; the model sees it on the next call. An error result is still a result, not a crash.",
    ];
    WHY_ANSWERS = [
        "没有工具调用的回复结束循环。但“完成了”这句话本身不能证明任务完成。",
        "A reply without tool calls ends the loop. But saying done is not proof that the work is done.",
    ];
    WHY_VERIFIES = [
        "任务改动了文件，所以主机在接受之前自己运行检查。",
        "The task changed files, so the host runs the check itself before accepting.",
    ];
    WHY_CHECK_PASSED = [
        "检查通过：改动之后的状态经过了验证，主机接受“完成”。",
        "The check passed: the state after the change has been verified, and the host accepts \"done\".",
    ];
    WHY_CHECK_FAILED = [
        "检查失败。失败结果发回给模型，循环继续。",
        "The check failed. The failure goes back to the model and the loop goes on.",
    ];
    WHY_BUDGET = [
        "预算用完了。决定停止的是主机，而不是模型。",
        "The budget is used up. The host decides to stop, not the model.",
    ];
    WHY_CRASHES = [
        "错误的做法：把工具错误当成崩溃。正确的主机会把错误作为结果交给模型。",
        "The wrong way: treating a tool error as a crash. A sound host hands the error to the model as a result.",
    ];
    WHY_REPLAYS = [
        "这个操作 id 主机已有记录，而且调用完全相同：主机直接把记录的结果交回，工具泳道不动，不会写第二次。",
        "The host has a record of this operation id for the very same call: it hands back the recorded result. The Tool lane does nothing and nothing is written twice.",
    ];
    // Custom tools, policies and the user's approval (tools helper).
    STATUS_AWAITING_USER = ["待批准", "asks user"];
    STATUS_USER_APPROVED = ["已获准", "user ok"];
    STATUS_EDITED = ["已改参", "user edit"];
    STATUS_DENIED = ["被否决", "denied"];
    STATUS_INTERRUPTED = ["被中断", "stopped"];
    SAYS_INTERRUPTED = ["用户中断了这个调用：工具在完成之前被停止，没有结果", "interrupted by the user: the tool was stopped before it finished, with no result"];
    TITLE_INTERRUPTED = ["用户中断：主机停止 {what}，并为它追加“被用户中断”的结果", "The user interrupts: the host stops {what} and answers it as interrupted"];
    TITLE_INTERRUPTED_FORGOT = ["用户中断：主机停止 {what}，却没有为它追加结果", "The user interrupts: the host stops {what} and appends no result for it"];
    ARROW_INTERRUPTED = ["{ids} ✗ 用户中断", "{ids} ✗ interrupted by the user"];
    WHY_INTERRUPTED = [
        "用户在工具运行时按了中断（Esc 或 Ctrl+C）。已经返回的结果照常保留；还在运行的调用被停止。下一次模型调用之前，每个调用都必须有结果，所以主机为每个被停止的调用追加一条结果，说明它被用户中断了。",
        "The user pressed interrupt (Esc or Ctrl+C) while tools ran. Results that came back stay; calls still running are stopped. Every call needs a result before the next model call, so the host appends one for each stopped call, saying the user interrupted it.",
    ];
    WHY_INTERRUPTED_FORGOT = [
        "用户在工具运行时按了中断，还在运行的调用被停止。这个主机没有为它们追加结果：下一次请求里会有没有结果的调用，提供方会拒绝它。",
        "The user pressed interrupt while tools ran, and the calls still running are stopped. This host appends no result for them: the next request will hold calls without results, and the provider will refuse it.",
    ];
    REFUSED_NOT_AUTHORISED = ["主机拒绝：工具 \"{tool}\" 未授权", "refused by host: tool \"{tool}\" is not authorised"];
    REFUSED_INVALID_JSON = ["主机拒绝：参数不是合法的 JSON 对象（{why}）", "refused by host: the arguments are not a valid JSON object ({why})"];
    REFUSED_WRONG_TYPE = ["主机拒绝：参数 \"{arg}\" 的类型应为 {expected}", "refused by host: argument \"{arg}\" must be of type {expected}"];
    REASON_NOT_AUTHORISED = ["未授权", "not authorised"];
    REASON_INVALID_JSON = ["参数不是合法 JSON", "arguments are not valid JSON"];
    REASON_WRONG_TYPE = ["{arg} 类型不对", "{arg} has the wrong type"];
    REFUSED_NOT_ALLOWED = ["主机拒绝：参数 \"{arg}\" 应为其中之一：{allowed}", "refused by host: argument \"{arg}\" must be one of: {allowed}"];
    REASON_NOT_ALLOWED = ["{arg} 不是允许的值", "{arg} is not an allowed value"];
    DENIED_BY_USER = ["用户拒绝了这个调用：{reason}", "denied by the user: {reason}"];
    DENIED_NO_REASON = ["用户拒绝了这个调用", "denied by the user"];
    EDITED_BY_USER = ["{result}（运行前，用户改了这些参数：{args}）", "{result} (before it ran, the user changed these arguments: {args})"];
    EDITED_REFUSED = ["{result}（这些参数是用户改的：{args}；主机拒绝了它们，什么也没运行）", "{result} (the user changed the arguments to: {args}; the host refused them, so nothing ran)"];
    TITLE_ASKS_USER = ["主机校验 {call}：合法；这个工具要先问用户", "The host validates {call}: valid; this tool needs the user's approval"];
    TITLE_USER_APPROVES = ["用户批准 {call}", "The user approves {call}"];
    TITLE_USER_EDITS = ["用户修改 {call} 的参数后批准", "The user approves {call} with edited arguments"];
    TITLE_USER_DENIES = ["用户拒绝 {call}：理由作为结果发回给模型", "The user denies {call}: the reason goes back to the model"];
    ARROW_ASKS_USER = ["{call} ? 询问用户", "{call} ? asks the user"];
    ARROW_USER_APPROVES = ["{call} ✓ 用户批准", "{call} ✓ approved by the user"];
    ARROW_USER_EDITS = ["{call} ✎ 用户改了 {names}", "{call} ✎ user changed {names}"];
    ARROW_USER_DENIES = ["{call} ✗ 用户拒绝：{reason}", "{call} ✗ denied: {reason}"];
    WHY_ASKS_USER = [
        "调用本身合法，但这个工具会改变环境，主机的策略是先问用户。用户回答之前，什么都不运行。",
        "The call is valid, but this tool's policy is to ask the user first. Nothing runs until the user answers.",
    ];
    WHY_USER_APPROVES = [
        "用户批准了：主机现在才运行它。批准来自用户，不来自模型。",
        "The user approves: only now does the host run it. The approval comes from the user, not from the model.",
    ];
    WHY_USER_EDITS = [
        "用户改了参数再批准：主机像检查模型的参数一样检查用户的参数，通过后按用户的参数运行。模型上下文里的调用仍是模型自己写的；这个主机在结果里写明用户改了什么（不是每个主机都会说）。",
        "The user edits the arguments and approves: the host checks the user's arguments as it checked the model's, and runs the call with them. The call in the model's context stays as the model wrote it; this host says in the result what the user changed (not every host says so).",
    ];
    WHY_USER_DENIES = [
        "用户拒绝了：什么都不运行。拒绝和理由作为这个调用的错误结果发回给模型，模型可以据此调整。",
        "The user denies it: nothing runs. The denial and its reason go back to the model as this call's error result, so it can adjust.",
    ];
    WHY_OP_CONFLICT = [
        "同一个操作 id 不能指向两个不同的动作：主机以错误作答，什么都不执行。",
        "One operation id cannot name two different actions: the host answers with an error and runs nothing.",
    ];
    WHY_CUT = [
        "回复以流的形式一段一段到达，而这个流在它的 API 用来结束流的事件（Chat 的 data: [DONE]、Responses 的 response.completed、Anthropic 的 message_stop）之前就停了：连接被关闭，或者代理或 tap 被停止。已经到达的部分记录在响应里，但它不是完整的回复，所以不画成回复；读这个流的客户端得到的是一个错误，或者一条被截短的回复。",
        "The reply arrives as a stream, piece by piece, and this one stopped before the event its API ends a stream with (Chat's data: [DONE], Responses' response.completed, Anthropic's message_stop): the connection closed, or the agent or the tap was stopped. What arrived is kept in the recorded response, but it is not a whole reply, so it is not drawn as one; a client reading the stream gets an error, or a reply cut short.",
    ];
    WHY_STREAM_TEXT_OPENS = [
        "请求里写了 \"stream\": true，所以回复不是一次整体到达：提供方把它作为一串事件发来，每个事件带着回复的一小段（delta）。每一段都属于这一次模型调用：这是它生成 token 的内层循环，不是外层循环的新一轮。真实的流会分成很多小段，每段几个 token；这里每个块只分两段。",
        "The request said \"stream\": true, so the reply does not come as one body: the provider sends it as a series of events, each with a small piece of it (a delta). Every piece belongs to this one model call: its inner loop of generated tokens, not a new turn of the outer loop. A real stream sends many small pieces, a few tokens each; here each block comes in two.",
    ];
    WHY_STREAM_TEXT_CLOSES = [
        "文字的最后一段：主机把每一段接在前一段后面，现在文字完整了。文字可以边到边显示给用户；但主机还不知道后面有没有工具调用。",
        "The last piece of the text: the host has appended each piece to the one before, and the text is whole. Text can be shown to the user as it arrives; the host does not yet know whether a tool call follows.",
    ];
    WHY_STREAM_CALL_OPENS = [
        "工具调用也是流式到达的：先是它的 id 和工具名，然后是参数，作为一段 JSON 文本分成几段到达。到目前为止收到的还不是合法的 JSON，所以主机只是把它接起来：什么都不解析，什么都不执行。",
        "A tool call streams too: its id and tool name come first, then its arguments, one JSON text in pieces. What has come so far is not valid JSON, so the host only appends it: it parses nothing and runs nothing yet.",
    ];
    WHY_STREAM_CALL_CLOSES = [
        "参数的最后一段：JSON 文本完整了，这个块关闭（Responses 在 response.function_call_arguments.done 里再给出完整的参数；Anthropic 的文档说在 content_block_stop 时解析；Chat 不标出块的结束）。主机仍然什么都不运行：它等流的结束，那才说明整条回复已经完整。",
        "The last piece of the arguments: the JSON text is whole and its block closes (Responses repeats the whole text in response.function_call_arguments.done; Anthropic's docs say to parse at content_block_stop; Chat marks no block's end). The host still runs nothing: it waits for the stream's end, which says the whole reply is complete.",
    ];
    WHY_STREAM_ENDS = [
        "流的最后事件说明模型为什么停下：Chat 是带 finish_reason 的最后一个 chunk，然后 data: [DONE]；Responses 是 response.completed；Anthropic 是带 stop_reason 的 message_delta，然后 message_stop。到这时回复才完整：主机解析每个调用的参数，之后就和一次性收到的回复一样继续。",
        "The stream's last events say why the model stopped: in Chat a last chunk with finish_reason, then data: [DONE]; in Responses response.completed; in Anthropic message_delta with stop_reason, then message_stop. Only now is the reply whole: the host parses each call's arguments and goes on as with a reply that came in one piece.",
    ];
    WHY_REJECTED = [
        "真实的提供方会拒绝这个请求：上下文里有工具调用却没有对应的结果。OpenAI 要求带 tool_calls 的助手消息后面，每个 tool_call_id 都有一条 tool 消息；Anthropic 要求每个 tool_use 在下一条消息里都有 tool_result。模型根本没有运行。",
        "A real provider rejects this request: the context holds a tool call without its result. OpenAI requires a tool message for every tool_call_id after an assistant message with tool_calls; Anthropic requires a tool_result for every tool_use in the next message. The model never ran.",
    ];
    // The warning line of a scenario file with faults (the run is shown).
    FILE_FAULTS = [
        "⚠ 场景文件有问题：{first}——共 {count} 处；运行照常显示（agent-loop-sim check 列出全部）",
        "⚠ Scenario file fault: {first} — {count} in all; the run is shown as it is (agent-loop-sim check lists them)",
    ];
    // Predict, then reveal (the quiz): questions, choices, verdicts.
    QUIZ_TITLE = ["预测第 {n} 步", "Predict step {n}"];
    QUIZ_WHO_ACTS = ["第 {n} 步由谁行动？", "Who acts in step {n}?"];
    QUIZ_WHICH_CALL = [
        "第 {n} 步：{what} 的结果回到主机。主机把它以哪个 call_id 追加到消息里？",
        "Step {n}: the result of {what} comes back to the host. Under which call_id does the host append it to the messages?",
    ];
    QUIZ_LOOP_REPLY = [
        "第 {n} 步：模型回复第 {number} 次调用。之后循环还会继续吗？为什么？",
        "Step {n}: the model replies to call #{number}. Does the loop go on after it, and why?",
    ];
    QUIZ_NEXT = ["第 {n} 步会发生什么？", "What happens in step {n}?"];
    QUIZ_NEW_CONTEXT = [
        "第 {n} 步是第 {number} 次模型调用。自第 {prev} 次调用以来，上下文里追加了什么？",
        "Step {n} is model call #{number}. What has been appended to the context since call #{prev}?",
    ];
    QUIZ_HOST = [
        "第 {n} 步：主机处理 {call}（{tool}），此时什么都还没执行。主机会怎么做？",
        "Step {n}: the host takes up {call} ({tool}); nothing has run yet. What does the host do?",
    ];
    // A call that passed the checks and carries an operation id the host
    // has a record of (asked after the checks, so not the same question).
    QUIZ_HOST_OP_ID = [
        "第 {n} 步：{call}（{tool}）已通过主机的检查，带着操作 id {op}。执行之前，主机会怎么做？",
        "Step {n}: {call} ({tool}) has passed the host's checks and carries op_id {op}. What does the host do before anything runs?",
    ];
    QUIZ_REPLY_HOLDS = [
        "第 {n} 步：模型回复第 {number} 次调用，回复里有一个工具调用。这条回复里装的是什么？",
        "Step {n}: the model replies to call #{number} with a tool call. What does the reply hold?",
    ];
    QUIZ_REPLY_REQUEST = ["一个请求：工具名和参数，还什么都没有执行", "a request: a tool name and arguments; nothing has run yet"];
    QUIZ_REPLY_OUTPUT = ["工具的输出：模型已经拿到了文件的内容", "the tool's output: the model already has the file's content"];
    QUIZ_REPLY_MODEL_RAN = ["模型自己执行完工具的报告", "the model's report that it ran the tool itself"];
    QUIZ_WHO_RUNS = [
        "第 {n} 步：{what} 已获批准。谁来运行它？模型什么时候看到结果？",
        "Step {n}: {what} is approved. Who runs it, and when does the model see what it gives?",
    ];
    QUIZ_RUNS_HOST = ["主机让工具去运行；模型要到下一次模型调用，在上下文里才看到结果", "the host has the tool run it; the model sees the result only in the next call's context"];
    QUIZ_RUNS_MODEL = ["模型自己运行它，立刻拿到结果", "the model runs it itself and gets the result at once"];
    QUIZ_RUNS_STRAIGHT = ["工具运行后把结果直接送给模型，不经过主机", "the tool runs it and sends the result straight to the model, past the host"];
    QUIZ_NOT_APPENDED = [
        "哪个都不用：主机留着结果却从不追加，消息里 {id} 没有结果",
        "none: the host keeps the result but never appends it, so {id} has no result in the messages",
    ];
    /// `harness.drop_calls`: the call was never appended either.
    QUIZ_NOT_APPENDED_CALL_DROPPED = [
        "哪个都不用：主机既不追加 {id} 这个调用，也不追加它的结果，下一次请求里两者都没有",
        "none: the host appends neither {id} nor its result, so the next request holds neither the call nor the result",
    ];
    QUIZ_RUNS_TOOLS = ["继续：回复里有工具调用，主机去执行它们", "it goes on: the reply has tool calls, and the host runs them"];
    QUIZ_ANSWERS_EACH = [
        "继续：回复里有工具调用，主机给每个调用一个结果，但不是每个都会执行",
        "it goes on: the reply has tool calls, and the host answers each one, though not every one runs",
    ];
    QUIZ_ENDS = ["结束：没有工具调用的回复就是最终答案", "it ends: a reply without tool calls is the final answer"];
    QUIZ_VERIFIES_FIRST = ["还不结束：模型说完成了，主机先自己验证", "not yet: the model says done, and the host verifies first"];
    QUIZ_BUDGET_STOPS_UNRUN = ["结束：主机不执行 {ids}，告诉用户预算已用尽", "it ends: the host does not run {ids} and tells the user the budget is used up"];
    QUIZ_BUDGET_STOPS = ["结束：{budget} 次模型调用的预算已用尽", "it ends: the budget of {budget} model calls is used up"];
    QUIZ_CALLS_AGAIN = ["主机发出第 {number} 次模型调用，模型回复", "the host makes model call #{number}, and the model replies"];
    QUIZ_PROVIDER_REJECTS = [
        "提供方 API 以 400 拒绝第 {number} 次调用：有工具调用没有结果",
        "the provider's API rejects call #{number} with 400: a tool call has no result",
    ];
    QUIZ_CRASHES = ["主机没有处理这个工具错误，自己崩溃，循环停止", "the host does not handle the tool error: it crashes and the loop stops"];
    QUIZ_ERROR_AS_RESULT = ["主机把错误作为结果追加，下次调用时交给模型", "the host appends the error as a result for the model's next call"];
    QUIZ_NEW_USER = ["一条用户消息", "a user message"];
    QUIZ_NEW_REPLY = ["助手的回复（{ids}）", "the assistant's reply ({ids})"];
    QUIZ_NEW_REPLY_TEXT = ["助手的回复（没有工具调用）", "the assistant's reply (no tool calls)"];
    QUIZ_NEW_RESULT = ["{id} 的结果", "the result for {id}"];
    QUIZ_NEW_RESULT_NO_ID = ["一个没有 call_id 的结果", "a result without a call_id"];
    QUIZ_NOTHING_NEW = ["什么都没追加：模型记得上一次调用看到的内容", "nothing: the model remembers what it saw on the last call"];
    QUIZ_APPROVES = ["批准：工具已提供，参数正确，路径在工作区内", "approves it: the tool is offered, the arguments are right, the path is in the workspace"];
    QUIZ_APPROVES_NO_PATH = ["批准：工具已提供，参数正确", "approves it: the tool is offered and the arguments are right"];
    QUIZ_NOT_OFFERED = ["拒绝：没有提供这个工具", "refuses it: the tool is not offered"];
    QUIZ_BAD_ARGS = ["拒绝：参数不对", "refuses it: the arguments are wrong"];
    QUIZ_OUTSIDE = ["拒绝：路径在工作区之外", "refuses it: a path is outside the workspace"];
    QUIZ_REPLAYS = ["按记录作答：这个操作 id 已经执行过，这次什么都不执行", "answers from its record: this operation id already ran, so nothing runs"];
    QUIZ_RUNS_AGAIN = ["再执行一次：工具用同样的参数再运行一遍", "runs it again: the tool runs once more with the same arguments"];
    QUIZ_NOT_AUTHORISED = ["拒绝：工具未授权（作为错误结果返回）", "refuses it: not authorised (an error result)"];
    QUIZ_ASKS_USER = ["先问用户：用户回答之前什么都不执行", "asks the user first: nothing runs until they answer"];
    QUIZ_OP_CONFLICT = ["以错误作答：这个操作 id 已用于另一个动作", "answers with an error: the operation id was used for another action"];
    QUIZ_ANSWER_WITH = ["按 1–{max} 作答 · Esc 关闭问题（不揭晓）", "press 1–{max} to answer · Esc closes the question unrevealed"];
    QUIZ_WAITING = ["先作答：按 1–{max}；或按 Esc 关闭问题，停在这一步", "answer first: press 1–{max}, or Esc to close the question and stay here"];
    QUIZ_RIGHT = ["✓ 答对了：[{n}] {choice}", "✓ Right: [{n}] {choice}"];
    QUIZ_WRONG = ["✗ 没答对：你选了 [{chosen}] {yours}；答案是 [{n}] {choice}", "✗ Not this time: you chose [{chosen}] {yours}; the answer is [{n}] {choice}"];
    QUIZ_DIGIT_HELD = ["上一个数字已用来作答，这个数字没有跳转；要跳到某一步，请再输入步数。", "That digit answered the question, so the next one did not jump; to jump to a step, type its number again."];
    QUIZ_NOT_CHOSEN = ["这一课不在这一步提问，它只在几个选定的步骤提问。", "No question here: this lesson asks only at a few chosen steps."];
    QUIZ_UNASKED = ["这一步没有提问（跳转到达或测验未开），不计分。", "Not asked (reached by a jump, or shown with the quiz off): not scored."];
    QUIZ_WHY = ["为什么（这一步的说明）", "Why, in this step's own words"];
    QUIZ_SCORE = ["得分 {k}/{n}", "score {k}/{n}"];
    // `--class`: the room answers on its phones.
    CLASS_JOIN_TITLE = ["加入课堂：用手机扫描二维码，或在浏览器里打开这个地址", "Join the class: scan the code with a phone, or open this address"];
    CLASS_JOIN_FOOT = ["{n} 部手机已连接 · Esc 关闭 · i 再次显示", "{n} phones connected · Esc closes · i shows it again"];
    CLASS_TOO_SMALL = ["窗口太小，放不下二维码：请放大窗口，或打开上面的地址。", "The window is too small for the code: make it larger, or open the address above."];
    CLASS_UNOPENED = ["课堂没有打开，这一课照常进行：", "The class room did not open; the lesson runs without it:"];
    CLASS_NO_NETWORK = ["没有网络：这台电脑没有手机能访问的局域网地址（请连上教室的 Wi-Fi；或用 --class-addr 127.0.0.1:端口 在本机试用）。", "No network: this machine has no LAN address the phones could reach (join the room's Wi-Fi, or give --class-addr 127.0.0.1:PORT to try it here)."];
    CLASS_PORT_IN_USE = ["端口 {port} 已被占用：请用 --class-addr 换一个，例如 --class-addr 0.0.0.0:{other}。", "Port {port} is in use: choose another with --class-addr, e.g. --class-addr 0.0.0.0:{other}."];
    CLASS_NOT_HERE = ["{ip} 不是这台电脑的地址（--class-addr）。", "{ip} is not an address of this machine (--class-addr)."];
    CLASS_CLOSE = ["Esc 关闭 · i 再次显示", "Esc closes · i shows it again"];
    CLASS_OTHER = ["无法监听 {why}", "Cannot listen on {why}"];
    CLASS_NO_ROOM = ["课堂没有打开，手机不能作答，这一课照常进行：{why}", "The class room did not open, so no phone can answer; the lesson runs without it: {why}"];
    CLASS_ANSWERED = ["{k} / {n} 人已作答", "{k} / {n} answered"];
    CLASS_ROUND_TWO = ["讨论之后再投：{k} / {n} 人已作答（第一轮 {first} 人）", "After discussion: {k} / {n} answered (first vote: {first})"];
    CLASS_KEYS = ["r 揭晓票数 · v 讨论之后再投一轮 · i 二维码", "r reveals the counts · v votes again after discussion · i the code"];
    CLASS_KEYS_ROUND_TWO = ["r 揭晓两轮的票数 · i 二维码", "r reveals both rounds' counts · i the code"];
    CLASS_SPLIT = ["全班的选择（{k} 人作答）：", "The room's choices ({k} answered):"];
    CLASS_SPLIT_TWO = ["全班的选择：第一轮 → 讨论之后（{first} → {k} 人作答）：", "The room's choices, first vote → after discussion ({first} → {k} answered):"];
    CLASS_RIGHT_MARK = ["✓ 正确", "✓ right"];
    // The quiz as a printed handout (`export --quiz`).
    HANDOUT_TITLE = ["{title} · 测验", "{title} · quiz"];
    HANDOUT_INTRO = [
        "每一题问的是下一步会发生什么：先预测，再在模拟器里看那一步。答案在最后。",
        "Each question asks what the next step will do: predict it, then see the step in the simulator. The answers are at the end.",
    ];
    HANDOUT_BEFORE = ["（第 {n} 步之前）{prompt}", "(before step {n}) {prompt}"];
    HANDOUT_KEY = ["答案", "Answer key"];
    HANDOUT_STEP = ["第 {n} 步", "step {n}"];
    // The quiz in the plain transcript (`transcript --quiz`).
    QUIZ_PLAIN_QUESTION = ["测验：{prompt}", "Quiz: {prompt}"];
    QUIZ_PLAIN_ANSWER = ["答案：[{k}] {choice}", "Answer: [{k}] {choice}"];
    QUIZ_CONTEXT_HIDDEN = [
        "作答之前先隐藏：这里会直接列出自上次模型调用以来追加的消息，也就是问题的答案。",
        "Hidden until you answer: this panel lists the messages appended since the last model call, which is the question's answer.",
    ];
    /// The search (`/`), in the header and while typing.
    SEARCH_MATCH = ["“{query}” 第 {k}/{n} 处", "\"{query}\" match {k}/{n}"];
    SEARCH_ELSEWHERE = ["“{query}” 共 {n} 处（n 下一处）", "\"{query}\": {n} matches (n for the next)"];
    SEARCH_NONE = ["“{query}” 没有找到", "\"{query}\": no match"];
    SEARCH_PROMPT = ["搜索：", "search: "];
    SEARCH_KEYS = ["Enter 搜索 · Esc 取消", "Enter searches · Esc cancels"];
    QUIZ_HINT_CLOSE = ["关闭问题", "close"];
    // Esc in the footer of an overlay or the picker.
    HINT_CLOSE = ["关闭", "close"];
    // The lesson picker (`o`).
    PICKER = ["选择课程", "Lessons"];
    PICKER_HINT = ["↑↓ 选择 · Enter 打开 · Esc 关闭", "↑↓ choose · Enter opens · Esc closes"];
    PICKER_CONVERSATIONS = ["tap 运行里的对话", "Conversations of the tap's run"];
    PICKER_HINT_SWITCH = ["↑↓ 选择 · Enter 切换过去 · Esc 关闭", "↑↓ choose · Enter switches to it · Esc closes"];
    PICKER_CHOOSE = ["选择", "choose"];
    /// After the title of the lesson on screen now.
    PICKER_OPEN_NOW = ["（当前）", " (open now)"];
    /// A lesson's length and how its run ends, e.g. "8 steps · final answer · answered (unchecked)".
    PICKER_SUMMARY = ["{steps} {unit} · {end} · {task}", "{steps} {unit} · {end} · {task}"];
    PICKER_SUMMARY_SHORT = ["{steps} {unit} · {end}", "{steps} {unit} · {end}"];
    NEXT_LESSON = ["→ 下一课（今天第 {k}/{n} 课）：{title}", "→ next lesson ({k}/{n} today): {title}"];
    // Self-study (study.rs): where a lesson was left, in the picker.
    PICKER_SEEN = ["看到 {step}/{steps}", "seen {step}/{steps}"];
    PICKER_SEEN_QUIZ = ["看到 {step}/{steps} · 测验 {right}/{answered} 对", "seen {step}/{steps} · quiz {right}/{answered} right"];
    PICKER_CANNOT_OPEN = ["✗ 无法打开", "✗ cannot open"];
    PICKER_NO_LESSONS = ["没有可选的课程。", "No lessons to choose from."];
    PICKER_TRANSCRIPT = ["真实运行的记录", "transcript of a real run"];
    /// On stderr while a big transcript is read, before the screen is drawn.
    LOADING_TRANSCRIPT = ["正在读取 {file}：{read} / {total} MB（{percent}%）", "reading {file}: {read} / {total} MB ({percent}%)"];
    LOADING_BUILDING = ["正在读取 {file}：{total} MB 已读完，正在整理步骤……（{seconds} 秒）", "reading {file}: all {total} MB read, putting the steps together… ({seconds} s)"];
    LOADING_OPENING = ["正在打开 {file}……", "opening {file}…"];
    LOADING_KEYS = ["q 或 Esc：停止并退出", "q or Esc: stop and quit"];
    // A real run replayed from its file (transcript/text.rs).
    REPLAY_FIRST_USER = [
        "真实运行的回放（{format}，{place}）：用户的消息先到主机。模型此时什么都没看到。",
        "A real run, replayed ({format}, {place}): the user's message reaches the host first. The model has seen nothing yet.",
    ];
    REPLAY_FIRST_CALLER = [
        "真实运行的回放（{format}，{place}）：调用它的智能体写的 prompt 先到主机。模型此时什么都没看到。",
        "A real run, replayed ({format}, {place}): the prompt of the agent that called it reaches the host first. The model has seen nothing yet.",
    ];
    REPLAY_USER_AGAIN = ["用户又写了一条消息（{place}），追加到消息末尾。", "The user writes again ({place}); the message is appended."];
    REPLAY_CALL_REWRITTEN = [
        "第 {number} 次模型调用：{place}的请求体与之前的消息对不上（主机改写或删减了历史）。这里显示之前的消息加上新消息，共 {messages} 条，并非确切上下文。",
        "Model call #{number}: the request body at {place} does not extend the earlier messages (the host rewrote or cut its history). Shown: the earlier messages plus the new ones, {messages} in all; not the exact context.",
    ];
    REPLAY_CALL_CONTINUES = [
        "第 {number} 次模型调用（重建）：{place}的请求用 previous_response_id 接着之前的回复，之前的上下文保存在服务器上，不在文件里。这里显示之前的消息加上新消息，共 {messages} 条。",
        "Model call #{number} (reconstructed): the request at {place} continues a previous response (previous_response_id); the earlier context is kept by the server, not in the file. Shown: the earlier messages plus the new ones, {messages} in all.",
    ];
    // The formats a transcript is read as (API names are not translated).
    FORMAT_CHAT = ["OpenAI Chat Completions", "OpenAI Chat Completions"];
    FORMAT_RESPONSES = ["OpenAI Responses", "OpenAI Responses"];
    FORMAT_ANTHROPIC = ["Anthropic Messages", "Anthropic Messages"];
    FORMAT_CODEX = ["Codex CLI 会话记录（rollout）", "Codex CLI rollout"];
    FORMAT_CLAUDE_CODE = ["Claude Code 会话", "Claude Code session"];
    FORMAT_OTEL = ["OpenTelemetry GenAI span（OTLP JSON）", "OpenTelemetry GenAI spans (OTLP JSON)"];
    FORMAT_OTEL_SDK = ["OpenTelemetry GenAI span（SDK 输出的 JSON）", "OpenTelemetry GenAI spans (SDK span JSON)"];
    FORMAT_SWE_AGENT = ["SWE-agent 轨迹（.traj）", "SWE-agent trajectory (.traj)"];
    FORMAT_MINI_SWE_AGENT = ["mini-swe-agent 轨迹（.traj.json）", "mini-swe-agent trajectory (.traj.json)"];
    FORMAT_GEMINI_CLI = ["Gemini CLI 会话", "Gemini CLI session"];
    FORMAT_OPENHANDS = ["OpenHands 事件流", "OpenHands event stream"];
    CLAUDE_SUBAGENTS_STARTED = [
        "这次会话的调用启动了子智能体，每个都是单独的一段对话（按 s 切换）：{list}（子智能体 ← 启动它的调用（结果所在行））。",
        "Calls of this session started sub-agents, each a conversation of its own (s switches): {list} (sub-agent ← the call that started it (its result's line)).",
    ];
    CLAUDE_SUBAGENT_FILE = [
        "这是子智能体 agent-{agent} 自己的文件：它的每一行都是会话的旁支（isSidechain），这里当作一段对话来读；启动它的是主会话里的一次 Task（Agent）调用。",
        "This is sub-agent agent-{agent}'s own file: every line is the session's side chain (isSidechain), read here as one conversation; a Task (Agent) call of the main session started it.",
    ];
    CLAUDE_COMPACTION_FILE = [
        "这是 agent-{agent} 自己的文件：Claude Code 压缩上下文时的那次模型调用（提示词要它总结到目前为止的对话），不是哪次调用启动的子智能体；它的每一行都是会话的旁支（isSidechain），这里当作一段对话来读。",
        "This is agent-{agent}'s own file: the model call Claude Code makes to compact the context (its prompt asks for a summary of the conversation so far), not a sub-agent a call started; every line is the session's side chain (isSidechain), read here as one conversation.",
    ];
    CLAUDE_COMPACTION_PARENT_MISSING = [
        "第 {line} 行的压缩边界（compact_boundary）指向的上一条消息（logicalParentUuid {parent}）不在文件里：这里从它前面最近的一行消息（第 {before} 行）接着读压缩之前的对话。",
        "The compaction boundary at line {line} names a message before it (logicalParentUuid {parent}) that the file does not hold: the conversation before the compaction is read on from the nearest message line above it (line {before}).",
    ];
    OTEL_CALLS_BY_ORDER = [
        "这些 span 不记录调用 id（any-agent 的导出）：这里按顺序给调用编号 call-1、call-2……，每个 execute_tool span 回答同名工具中最早一个还没有结果的调用。",
        "These spans record no call ids (an any-agent export): the calls are numbered here in order (call-1, call-2, …), and each execute_tool span answers the earliest call of its tool's name still without a result.",
    ];
    OTEL_CALL_IDS_FROM_TOOLS = [
        "这些 span 里模型的调用不记录 id（any-agent 的导出）：每个 execute_tool span 回答同名工具中最早一个还没有结果的调用，这个调用显示的是该 span 记录的 id（gen_ai.tool.call.id）；span 没有记录 id 的，调用在这里按顺序编号 call-1、call-2……。",
        "The model's calls in these spans record no ids (an any-agent export): each execute_tool span answers the earliest call of its tool's name still without a result, and that call is shown with the id the span records (gen_ai.tool.call.id), or numbered here in order (call-1, call-2, …) where the span records none.",
    ];
    // Where in a replayed file: a line, an item of a list, a live request.
    PLACE_LINE = ["第 {n} 行", "line {n}"];
    PLACE_ITEM = ["第 {n} 项", "item {n}"];
    PLACE_REQUEST = ["第 {n} 个请求", "request {n}"];
    TITLE_RECONSTRUCTED = [" · 有重建", " · reconstructed"];
    TITLE_REDACTED = [" · 已脱敏", " · redacted"];
    REPLAY_THOUGHT_NO_SUMMARY = ["没有可读的摘要", "no readable summary"];
    REPLAY_THOUGHT_SUMMARY = ["{chars} 字符的摘要（“{excerpt}”）", "{chars} chars of summary (\"{excerpt}\")"];
    REPLAY_THOUGHT = ["回复带有一段推理（reasoning，{place}）：{said}；不显示为消息。", " The reply carries reasoning ({place}): {said}; not drawn as a message."];
    REPLAY_THOUGHT_ENCRYPTED = [
        "回复带有一段推理（reasoning，{place}）：{said}，另有 {encrypted} 字符加密内容；不显示为消息。",
        " The reply carries reasoning ({place}): {said} and {encrypted} chars of encrypted content; not drawn as a message.",
    ];
    REPLAY_NO_RESULT_FOR = ["⚠ 文件里没有 {ids} 的结果：这个调用没有得到回答。", " ⚠ The file holds no result for {ids}: an unanswered call."];
    LIVE_NO_RESULT_FOR_YET = ["目前录下的请求里还没有 {ids} 的结果。", " No request recorded so far holds a result for {ids} yet."];
    REPLAY_FILE_ENDS = ["文件到此结束。", " The file ends here."];
    LIVE_RECORDING_ENDS = ["目前录下的请求到此为止。", " The recording so far ends here."];
    REPLAY_NEVER_ANSWERED = ["⚠ 没有得到结果的调用：{ids}。", " ⚠ Calls that never got a result: {ids}."];
    LIVE_NOT_ANSWERED_YET = ["还没有结果的调用：{ids}（结果会随下一个请求发回）。", " Calls with no result yet: {ids} (its result comes back in the next request)."];
    /// A kind of line the reader does not draw: how many, and where.
    REPLAY_UNREAD_KIND = ["{kind} ×{count}（第 {places} {noun}）", "{kind} ×{count} ({noun} {places})"];
    // The about overlay of a replayed file: its conditions (what is exact,
    // rebuilt or missing), how it pairs, why and how to check it.
    ABOUT_FORMAT = ["格式：{format}（从内容识别，或由 --transcript-format 指定）。", "Format: {format} (detected from the content, or forced with --transcript-format)."];
    ABOUT_EXACT_CALLS = [
        "{calls} 次模型调用中，{exact} 次的上下文来自文件中的请求体（确切），{rebuilt} 次是重建的。",
        "Of {calls} model calls, {exact} have their context from a request body in the file (exact), {rebuilt} are reconstructed.",
    ];
    ABOUT_NO_SYSTEM_IN_BODIES = ["请求体里没有系统提示词。", "The request bodies hold no system prompt."];
    ABOUT_NO_SYSTEM = ["文件里没有系统提示词：不知道发送了什么。", "The file holds no system prompt: what was sent is unknown."];
    ABOUT_SYSTEM = [
        "系统/开发者指令：{n} 段，共 {chars} 字符；计入上下文大小，但不显示为消息。",
        "System/developer instructions: {n} parts, {chars} chars; counted in the context size, not drawn as messages.",
    ];
    ABOUT_TOOLS_KNOWN = ["工具定义取自文件。", "The tool definitions are taken from the file."];
    ABOUT_TOOLS_UNKNOWN = ["文件里没有工具定义（schema）：提供了哪些工具不得而知。", "The file holds no tool schemas: which tools were offered is unknown."];
    ABOUT_NO_VALIDATION = ["文件没有记录主机在运行工具前的检查，所以这里没有“校验”步骤。", "The file records no check by the host before a tool runs, so no validation step is shown."];
    ABOUT_COMPACTIONS_RECORDED = [
        "有 {n} 次压缩（compacted）记录了替换后的历史：之后画出的上下文正是那段历史加上新消息。",
        "{n} compaction(s) record the history that replaced the earlier messages: after each, the context drawn is exactly that history plus the new messages.",
    ];
    ABOUT_COMPACTIONS_GUESSED = ["有 {n} 次压缩（compacted）：之后的真实上下文比这里显示的短。", "{n} compaction(s): after each, the real context was shorter than shown here."];
    ABOUT_CLAUDE_CODE_UNDOCUMENTED = [
        "Claude Code 的会话格式没有官方文档：按观察到的字段宽松读取，沿 parentUuid 链。",
        "The Claude Code session format is not officially documented: read tolerantly, following the parentUuid chain.",
    ];
    ABOUT_WRITES_CODEX = [
        "写入：只数 apply_patch 成功的调用；用 shell 命令改的文件文件里没有记录，不计入。",
        "Writes: successful apply_patch calls are counted; a file changed by a shell command is not recorded as such, so not counted.",
    ];
    ABOUT_WRITES_CLAUDE_CODE = [
        "写入：只数 Edit、Write、MultiEdit、NotebookEdit 成功的调用；用 Bash 改的文件文件里没有记录，不计入。",
        "Writes: successful Edit, Write, MultiEdit and NotebookEdit calls are counted; a file changed by Bash is not recorded as such, so not counted.",
    ];
    ABOUT_WRITES_UNKNOWN = [
        "写入：这种格式不说明哪个工具改了文件，所以写入次数未知；磁盘上的文件也没有记录。",
        "Writes: this format does not say which tool changed a file, so the writes are unknown; nor does it record the files on disk.",
    ];
    ABOUT_LINE_CUT_SHORT = ["第 {line} 行不完整（文件还在写入？），已跳过。", "Line {line} is cut short (was the file still being written?): skipped."];
    ABOUT_OFF_CHAIN = [
        "另有 {n} 行对话不在最后一条消息的 parentUuid 链上（旁支或重试留下的分支），不显示。",
        "{n} conversation lines are off the parentUuid chain of the last message (side chains, or branches left by a retry): not shown.",
    ];
    PAIR_RULE_TOOL_CALL_ID = [
        "每个 tool 消息用 tool_call_id 指明它回答的调用，排在那次回复之后（Chat Completions 的规则）。",
        "each tool message names the call it answers by its tool_call_id, after that call's reply (Chat Completions' rule).",
    ];
    PAIR_RULE_CALL_ID = [
        "每个 function_call_output 用 call_id 指明它回答的调用，排在那一轮之后（Responses 的规则）。",
        "each function_call_output names the call it answers by its call_id, after that call's turn (the Responses rule).",
    ];
    PAIR_RULE_TOOL_USE_ID = [
        "每个 tool_result 块用 tool_use_id 指明它回答的 tool_use，放在回复之后的那条 user 消息里（Anthropic Messages 的规则）。",
        "each tool_result block names the tool_use it answers by its tool_use_id, in the user message after the reply (the Anthropic Messages rule).",
    ];
    PAIR_RULE_FUNCTION_RESPONSE_ID = [
        "每个 functionResponse 用 id 指明它回答的 functionCall；没有 id 的，按名字对应上一轮模型回复里的调用（Gemini API 的规则）。",
        "each functionResponse names the functionCall it answers by its id; one without an id answers the call of that name in the model turn before it (the Gemini API's rule).",
    ];
    PAIR_RULE_PART_ID = [
        "每个 tool_call_response 部件用 id 指明它回答的 tool_call 部件（OpenTelemetry GenAI 消息的规则）。",
        "each tool_call_response part names the tool_call part it answers by its id (OpenTelemetry GenAI messages).",
    ];
    PAIR_RULE_POSITION = [
        "文件里没有调用 id：回复里的那一条命令，由紧随其后的 user 消息给出输出，按位置配对（这个智能体自己的规则）。",
        "the file has no call ids: the user message right after a reply is the output of its one command, paired by position (the agent's own rule).",
    ];
    ABOUT_REPLAY_WHY = [
        "真实的运行比脚本更有说服力：同样的泳道、上下文，以及调用和结果的配对，来自真实文件。",
        "A real run convinces where a script teaches: the same lanes, context and pairing of calls with results, from a real file.",
    ];
    ABOUT_REPLAY_HOW = ["按文件中的顺序回放：每条回复前是一次模型调用；{rule}", "Replayed in the file's order: a model call before each reply; {rule}"];
    ABOUT_REPLAY_COST = [
        "共 {calls} 次模型调用。token 数只在文件记录时显示，否则是估计值。",
        "{calls} model calls. Token counts are the file's where it records them, estimates otherwise.",
    ];
    ABOUT_REPLAY_CHECK = [
        "用 `agent-loop-sim trace --transcript FILE` 查看 summary：回复、调用、配对、错误、并行组、未回答和孤立结果的数目。",
        "`agent-loop-sim trace --transcript FILE` prints the summary: replies, calls, pairs, errors, parallel groups, unanswered calls and orphan results.",
    ];
    GEMINI_DRAWN_AS_CHAT = [
        "Gemini CLI 向 Gemini API 发送 generateContent 请求（contents 里的 functionCall / functionResponse 部件），不是这里画出的三种接口之一：上下文按 OpenAI Chat 的形状重建画出，请求体不是 Gemini 实际发送的样子。",
        "Gemini CLI sends the Gemini API generateContent requests (functionCall / functionResponse parts in contents), not one of the three APIs drawn here: the context is rebuilt in OpenAI Chat's shape, not as the body Gemini CLI sent.",
    ];
    MINI_SWE_AGENT_NO_IDS = [
        "mini-swe-agent 的文件不记录工具调用 id：命令是回复文本里唯一的 ```bash（或 ```mswea_bash_command）代码块（或 extra.actions），结果是紧随其后的 user 消息，按位置配对，这是该智能体自己的规则。这里的 id（messages[N]，即助手消息在文件中的位置）是本程序起的名字，不是文件里的。上下文按 Chat 的形状重建：智能体实际发送的是纯文本消息（助手的文本和 user 消息），没有 tool_calls，也没有 tool 角色。",
        "mini-swe-agent records no tool-call ids: a command is the one ```bash (or ```mswea_bash_command) block of the reply's text (or extra.actions) and its output is the user message right after it, paired by position, as the agent itself does. The ids drawn (messages[N], the assistant message's place in the file) are this program's names, not the file's. The context is rebuilt in Chat's shape: the agent sent plain messages (the assistant's text and a user message), with no tool_calls and no tool role.",
    ];
    SWE_AGENT_NO_IDS = [
        "这个 SWE-agent 运行是纯文本的（没有函数调用），文件不记录工具调用 id：命令是每条助手消息的 action（SWE-agent 从回复文本里解析出来、交给环境执行的那一行或几行），以它的第一个词命名（如 create、edit、submit，或 python 这样的 shell 命令）；它的输出是紧随其后的 user 消息，按位置配对，这是该智能体自己的规则。这里的 id（history[N]，即助手消息在 history 中的位置）是本程序起的名字，不是文件里的。上下文按 Chat 的形状重建：智能体实际发送的是纯文本消息（助手的文本和 user 消息），没有 tool_calls，也没有 tool 角色。",
        "This SWE-agent run is text-based (no function calling) and records no tool-call ids: a command is the action of an assistant message (what SWE-agent parsed from the reply's text and the environment ran), named by its first word (create, edit, submit, or a shell command such as python), and its output is the user message right after it, paired by position, as the agent itself does. The ids drawn (history[N], the assistant message's place in history) are this program's names, not the file's. The context is rebuilt in Chat's shape: the agent sent plain messages (the assistant's text and a user message), with no tool_calls and no tool role.",
    ];
    OPENHANDS_NO_IDS = [
        "这个 OpenHands 事件流是较早的扁平写法（每个事件的字段直接铺开，没有 source、id、args/extras，也没有 tool_call_metadata），文件不记录工具调用 id：第一个 message 动作是用户的任务，其余每个动作是智能体的回复（thought 是回复的文本），message 和 finish 以外的动作是回复的调用，以动作命名（如 run、run_ipython）；结果是之后同名（命令或代码相同）的观察，按位置配对，这是 CodeAct 智能体不用函数调用时自己的做法。这里的 id（history[N]，即动作在列表中的位置）是本程序起的名字，不是文件里的。上下文按 Chat 的形状重建：智能体实际发送的是纯文本消息（助手的文本和 user 消息），没有 tool_calls，也没有 tool 角色。",
        "This OpenHands event stream is in the older flat layout (each event's fields laid out directly: no source, id, args/extras, and no tool_call_metadata) and records no tool-call ids: the first message action is the user's task, every other action is the agent's reply (its thought the reply's text), and an action other than message and finish is the reply's call, named by the action (run, run_ipython, …); its output is the next observation of that name (and of the same command or code), paired by position, as the CodeAct agent does without function calling. The ids drawn (history[N], the action's place in the list) are this program's names, not the file's. The context is rebuilt in Chat's shape: the agent sent plain messages (the assistant's text and a user message), with no tool_calls and no tool role.",
    ];
    RESULTS_FILE_RUNS = [
        "文件里有 {count} 次运行（结果文件：task_id、reward、traj）；这里显示第 {n} 次{label}；用 FILE#N（1 到 {count}）打开别的。",
        "holds {count} runs (a results file: task_id, reward, traj); showing run {n}{label}; open another with FILE#N (1 to {count})",
    ];
    OPENHANDS_OUTPUT_RUNS = [
        "文件里有 {count} 次运行（OpenHands 评测的输出：每行一个 instance_id 和它的 history）；这里显示第 {n} 次{label}；用 FILE#N（1 到 {count}）打开别的。",
        "holds {count} runs (an OpenHands evaluation's output: each line an instance_id and its history); showing run {n}{label}; open another with FILE#N (1 to {count})",
    ];
    REPLAY_CALL_EXACT = [
        "第 {number} 次模型调用：上下文就是{place}请求体里的 {messages} {noun}（确切，来自文件），其中 {new} 条是新的；请求体 {size} 字节。",
        "Model call #{number}: the context is exactly the {messages} {noun} of the request body at {place} ({new} new; a body of {size} bytes).",
    ];
    REPLAY_CALL_RECORDED = [
        "第 {number} 次模型调用：文件在{place}记录了这次请求本身（api-request）：{sent} {sent_noun}，由记录重建的请求体（参数、系统提示词、工具定义、消息）共 {bytes} 字节。这里画出的是会话里的 {messages} {noun}（{new} 条新的）；请求里的消息还包含 Claude Code 自己加的内容（提醒、环境信息）。",
        "Model call #{number}: the file records the request itself at {place} (api-request): {sent} {sent_noun}, a body of {bytes} bytes rebuilt from the records (parameters, system prompt, tool definitions, messages). Drawn: the conversation's {messages} {noun} ({new} new); the request's messages also hold what Claude Code adds (reminders, environment).",
    ];
    REPLAY_CALL_RECONSTRUCTED = [
        "第 {number} 次模型调用（重建）：文件里没有请求体，上下文按{format}的规则由之前的 {messages} {noun}重建，其中 {new} 条是新的；这样重建的请求体 {size} 字节。",
        "Model call #{number} (reconstructed): the file holds no request body; the context is rebuilt by {format} rules from the {messages} {noun} before it ({new} new; rebuilt so, a body of {size} bytes).",
    ];
    REPLAY_REASONING_SENT = [
        "请求里还有 {n} {items}，共 {chars} 字符：不显示为消息，也不计入上面的大小。",
        " The request also holds {n} {items} ({chars} chars): not drawn as messages, not counted in the size above.",
    ];
    /// The same, where the file records the request's body.
    REPLAY_REASONING_IN_BODY = [
        "请求体里还有 {n} {items}，共 {chars} 字符，已计入上面的大小；按 w 可看原样。",
        " The request body also holds {n} {items} ({chars} chars), counted in the size above; w shows them as recorded.",
    ];
    REPLAY_REASONING_BEFORE = [
        "文件在此之前有 {n} {items}，共 {chars} 字符：不显示为消息，也不计入大小；是否随请求发送，文件没有记录。",
        " The file holds {n} {items} before this call ({chars} chars): not drawn as messages, not counted in the size; whether they were sent is not recorded.",
    ];
    REPLAY_INPUT_TOKENS = ["文件记录输入 {tokens} 个 token。", " The file records {tokens} input tokens."];
    REPLAY_SYSTEM_FIRST = ["系统提示词（{chars} 字符）是第 1 条消息，Chat Completions 就这样发送。", " The system prompt ({chars} chars) is message 1, as Chat Completions sends it."];
    REPLAY_SYSTEM_SENT = ["系统/开发者指令 {chars} 字符，画在编号消息上方单独一行（见 a）。", " System/developer instructions: {chars} chars, on their own row above the numbered messages (see a)."];
    REPLAY_NO_SYSTEM = ["文件里没有系统提示词：不知道是否发送过。", " The file holds no system prompt: whether one was sent is unknown."];
    REPLAY_NO_TOOL_SCHEMAS = ["文件里没有工具定义（schema），所以工具列表是空的，并非没有提供工具。", " The file holds no tool schemas, so none are listed; that does not mean none were offered."];
    REPLAY_COMPACTED_HISTORY = [
        "⚠ {place}有一次压缩（compacted）：文件记录了替换后的历史（{items} 项，共 {chars} 字符）；从那里起，这里画出的上下文就是这段历史加上之后的新消息，更早的消息不再发送。",
        " ⚠ Compaction at {place}: the file records the history that replaced the earlier messages ({items} items, {chars} chars); from there the context drawn is exactly that history plus the messages after it, and the earlier ones are no longer sent.",
    ];
    REPLAY_COMPACTED_SUMMARY = ["⚠ {place}有一次压缩（compacted）：之后真实的上下文用摘要代替了更早的消息，这里仍完整显示它们。", " ⚠ Compaction at {place}: from there the real context held a summary instead of the earlier messages, which are still shown here in full."];
    REPLAY_NO_REPLY = ["文件没有记录这次调用的回复。", " The file records no reply to this call."];
    REPLAY_ABORTED = ["⚠ {place}：这一轮被中止（{reason}），还没回答的调用不会再有结果。", " ⚠ At {place} the turn is aborted ({reason}): calls not answered by then get no result."];
    REPLAY_PROPOSES_ONE = [
        "第 {number} 次调用的回复（{place}）请求一个工具：{calls}。这只是数据，主机执行之前什么都没发生。",
        "Reply #{number} ({place}) asks for one tool: {calls}. It is data; nothing happens until the host runs it.",
    ];
    REPLAY_PROPOSES_MANY = [
        "模型一次请求了 {n} 个工具（{place}）：{calls}。它们是一个并行组，结果各自靠 call_id 配对。",
        "The model asks for {n} tools at once ({place}): {calls}. A parallel group: each result finds its call by call_id.",
    ];
    REPLAY_REPLY_TOKENS = ["文件记录这次回复输出了 {tokens} 个 token。", " The file records {tokens} output tokens for this reply."];
    REPLAY_EXECUTES_ONE = [
        "主机运行 {calls}。文件记录了它的结果，但没有记录主机在运行前是否做过检查。",
        "The host runs {calls}. The file records its result; it records no check by the host before running it.",
    ];
    REPLAY_EXECUTES_MANY = [
        "主机运行 {calls}。文件只记录了结果，结果到达的顺序不一定是请求的顺序。",
        "The host runs {calls}. The file records only their results, which need not come back in the order asked.",
    ];
    REPLAY_ORPHAN_RESULT = [
        "⚠ 孤立结果（{place}）：它回答 call_id {id}，但在它之前没有任何调用用过这个 id。模型会读到一个对不上号的结果。",
        "⚠ Orphan result ({place}): it answers call_id {id}, but no call before it has that id. The model reads a result that answers nothing it asked.",
    ];
    REPLAY_SECOND_RESULT = ["⚠ 孤立结果（{place}）：{id} 已经有结果了，这是第二个。", "⚠ Orphan result ({place}): {id} was already answered; this is a second result."];
    REPLAY_ERROR_RESULT = [
        "{id}（{tool}）返回错误结果（{place}），按 call_id 配对后追加。错误也是结果：模型下次调用会读到它。",
        "An error result for {id} ({tool}) at {place}, paired by call_id and appended. An error is still a result: the model reads it on its next call.",
    ];
    REPLAY_RESULT = ["{id}（{tool}）的结果返回（{place}），按 call_id 配对后追加。", "The result for {id} ({tool}) comes back ({place}), paired by call_id and appended."];
    REPLAY_RESULT_BY_POSITION = [
        "{id}（{tool}）的输出返回（{place}）：文件里没有调用 id，它按位置配对（紧跟在发出这个调用的回复之后），追加到消息。",
        "The output of {id} ({tool}) comes back ({place}): the file names no call, so it is paired by position (the message right after the reply that made the call) and appended.",
    ];
    REPLAY_ERROR_RESULT_BY_POSITION = [
        "{id}（{tool}）返回错误输出（{place}）：文件里没有调用 id，它按位置配对（紧跟在发出这个调用的回复之后），追加到消息。错误也是结果：模型下次调用会读到它。",
        "An error output of {id} ({tool}) at {place}: the file names no call, so it is paired by position (the message right after the reply that made the call) and appended. An error is still a result: the model reads it on its next call.",
    ];
    REPLAY_REFUSED = ["提供方拒绝了第 {number} 次调用（{place}），模型没有运行：{error}", "The provider refused model call #{number} ({place}); the model never ran: {error}"];
    /// A server error: whether the model began is not known, only that no reply came.
    /// A recording's `incomplete` call: its `error` says why.
    REPLAY_CUT = ["第 {number} 次调用的回复（{place}）没有完整到达，记录里写着：{error}", "The reply to model call #{number} ({place}) did not arrive whole; the recording says: {error}"];
    REPLAY_SERVER_ERROR = ["提供方对第 {number} 次调用（{place}）回了服务器错误，没有回复：{error}", "The provider answers model call #{number} ({place}) with a server error, not a reply: {error}"];
    REPLAY_ANSWERS = ["第 {number} 次调用的回复（{place}）没有工具调用：这一轮循环在这里结束。", "Reply #{number} ({place}) has no tool calls: this run of the loop ends here."];
    REPLAY_UNREAD = ["文件里没有画成步骤的内容：{parts}。", "Not drawn as steps: {parts}."];
    REPLAY_TASK = ["回放文件 {file} 中记录的真实运行。", "Replay the real run recorded in {file}."];
    // A tap recording's conversations and side requests (transcript/split.rs).
    TAP_CONVERSATIONS = [
        "这份记录里有 {n} 段对话：一个请求的消息历史如果不是接着某段对话的上一个请求，就另起一段（子代理，或代理改写过的历史，比如压缩）。这里显示第 {k} 段（{calls} 次模型调用，模型 {model}）；其余：{others}。在模拟器里按 s 切换，或用 FILE#N 打开（1 到 {n}）。",
        "Holds {n} conversations: a request whose message history does not continue a conversation's latest request starts another (a sub-agent, or a history the agent rewrote, e.g. compacted). Showing conversation {k} ({calls} model calls, model {model}); the others: {others}. In the simulator s switches; FILE#N opens one (1 to {n}).",
    ];
    TAP_CONVERSATION_ITEM = ["第 {k} 段，{calls} 次调用（{model}）", "#{k}, {calls} calls ({model})"];
    TAP_SIDES = [
        "另有 {n} 个旁路请求不是循环的一轮，不画在泳道里：{list}。",
        "{n} side requests are not turns of the loop and are not drawn in the lanes: {list}.",
    ];
    TAP_SIDE_ITEM = ["{place}：{kind}（{model}，状态 {status}）", "{place}: {kind} ({model}, status {status})"];
    TAP_SIDE_REPLY = ["，回答“{reply}”", ", answered \"{reply}\""];
    TAP_SIDE_COUNT_TOKENS = ["数 token", "token count"];
    TAP_SIDE_NO_TOOLS = ["不带工具的请求（标题、摘要之类）", "a request without tools (a title, a summary)"];
    TAP_PLACE_LINE = ["第 {n} 行", "line {n}"];
    TAP_PLACE_REQUEST = ["第 {n} 个请求", "request {n}"];
    // The live view of a tap without a command, before its first model call (tap/live.rs).
    TAP_WAITING = [
        "agent-loop-sim tap：等待第一次模型调用\n\ntap 在 {base} 监听，转发到 {upstream}；每次模型调用都追加到 {file}。\n\n在另一个终端里让代理连到这里：\n\n  Claude Code      ANTHROPIC_BASE_URL={base} claude\n  Anthropic SDK    ANTHROPIC_BASE_URL={base} python agent.py\n                   （或 anthropic.Anthropic(base_url=\"{base}\")）\n  OpenAI SDK       OPENAI_BASE_URL={base}/v1 python agent.py\n                   （或 openai.OpenAI(base_url=\"{base}/v1\")）\n  Codex CLI        codex exec {codex} \"任务\"\n                   （Codex 不读 OPENAI_BASE_URL，要用它的模型提供方设置：见 docs/replay-and-tap.md）\n\n第一次模型调用一到，泳道就在这里打开。q 退出。",
        "agent-loop-sim tap: waiting for the first model call\n\nThe tap listens at {base} and forwards to {upstream}; each model call is appended to {file}.\n\nPoint an agent at it, in another terminal:\n\n  Claude Code      ANTHROPIC_BASE_URL={base} claude\n  Anthropic SDK    ANTHROPIC_BASE_URL={base} python agent.py\n                   (or anthropic.Anthropic(base_url=\"{base}\"))\n  OpenAI SDK       OPENAI_BASE_URL={base}/v1 python agent.py\n                   (or openai.OpenAI(base_url=\"{base}/v1\"))\n  Codex CLI        codex exec {codex} \"TASK\"\n                   (Codex ignores OPENAI_BASE_URL; it takes a model provider's base_url: see docs/replay-and-tap.md)\n\nThe lanes open here at the first model call. q quits.",
    ];
    // The live view of `tap -- COMMAND`, before the agent's first model call (tap/live.rs).
    TAP_AGENT_WAITING = [
        "agent-loop-sim tap：等待 {agent} 的第一次模型调用\n\ntap 在 {base} 监听；每次模型调用都追加到 {file}。\n代理自己的输出写到 {log}。\n\n第一次模型调用一到，泳道就在这里打开。q 退出（并停止代理）。",
        "agent-loop-sim tap: waiting for the first model call of {agent}\n\nThe tap listens at {base}; each model call is appended to {file}.\nThe agent's own output goes to {log}.\n\nThe lanes open here at its first model call. q quits (and stops the agent).",
    ];
    TAP_NO_MODEL = ["未记录模型", "model not recorded"];
    TAP_NO_STATUS = ["无", "none"];
    TAP_MORE = ["还有 {n} 个", "{n} more"];
    LIST_SEPARATOR = ["；", "; "];
    /// Between the items of a short list of names or places.
    ENUMERATION_COMMA = ["、", ", "];
    PICKER_POSITION = ["{n}/{len}", "{n}/{len}"];
    // Two runs side by side (`--compare`, `c`).
    COMPARE_HEADING = ["两次运行并排，同步前进", "Two runs side by side, stepped together"];
    COMPARE_FIRST_DIFF = ["≠ 两次运行从第 {n} 步开始不同（两边都标了 ≠）", "≠ The runs first differ at step {n} (marked ≠ on both sides)"];
    COMPARE_FIRST_DIFF_SHORT = ["≠ 两次运行从第 {n} 步开始不同", "≠ The runs first differ at step {n}"];
    COMPARE_FIRST_DIFF_HERE = ["≠ 两次运行就从这一步（第 {n} 步）开始不同", "≠ The runs first differ here, at step {n}"];
    COMPARE_NO_DIFF = ["两次运行的每一步都相同", "The two runs do not differ at any step"];
    COMPARE_KEYS = ["Tab 换一边 · c 回到单个运行", "Tab other side · c one run"];
    COMPARE_CONTEXT_DIFF = ["；发送的上下文从第 {call} 次调用（第 {n} 步）开始不同", "; the contexts sent, from call #{call} (step {n})"];
    COMPARE_CONTEXT_DIFF_SHORT = ["；上下文从第 {call} 次调用起不同", "; contexts from call #{call}"];
    ANSWER = ["答案", "answer"];
    COMPARE_ENDED = ["已结束，停在最后一步", "ended, stays on its last step"];
    COMPARE_MAIN = ["主运行", "main run"];
    COMPARE_OTHER = ["对照运行", "other run"];
    COMPARE_OFFER = ["按 c 与正确的主机对照：{title}", "press c to compare with the correct harness: {title}"];
    COMPARE_OFFER_OPEN = ["按 c 回到单个运行（正在对照：{title}）", "press c to go back to one run (compared with: {title})"];
    COMPARE_ENDED_SHORT = ["已结束", "ended"];
    COMPARE_KEY_HELP = [
        "并排对照另一次运行（--compare，或场景指定的正确孪生场景）；再按一次关闭",
        "two runs side by side (--compare, or the scenario's correct twin); again to close",
    ];
    COMPARE_FIGURE = ["{main} 对照 {other}", "{main} compared with {other}"];
    // The context window and the host's compaction (engine/compact.rs).
    STATUS_COMPACTED = ["已移出", "compacted"];
    TITLE_COMPACTS_DROP = [
        "主机压缩上下文：{before} token 超过窗口 {window}，{n} 条旧{results}换成占位结果（{after}）",
        "The host compacts: {before} tokens > window {window}; placeholders replace {n} old {results} ({after})",
    ];
    TITLE_COMPACTS_SUMMARY = [
        "主机压缩上下文：{before} token 超过窗口 {window}，{n} 条较早的{messages}换成摘要（{after}）",
        "The host compacts: {before} tokens > window {window}; a summary replaces {n} earlier {messages} ({after})",
    ];
    ARROW_COMPACTS = ["✂ 压缩上下文：{before} → {after} token", "✂ compacts: {before} → {after} tokens"];
    WHY_COMPACTS_DROP = [
        "每次模型调用都要重发整个上下文，而模型一次能接受的 token 有限。这次调用之前，主机数出的 token（用 OpenAI 的 o200k_base 分词器）超过了窗口，于是把模型已经读过的最早几条结果换成简短的占位结果，call_id 不变：提供方会拒绝没有结果的工具调用，所以配对必须保留。那些结果原来写了什么，模型再也看不到了。",
        "Every model call resends the whole context, and a model accepts only so many tokens. Before this call the host's count of tokens (with OpenAI's o200k_base tokenizer) is over the window, so it replaces the oldest results the model has already read with a short placeholder under the same call id: a provider rejects a tool call without its result, so the pair stays. What those results said, the model no longer sees.",
    ];
    WHY_COMPACTS_SUMMARY = [
        "每次模型调用都要重发整个上下文，而模型一次能接受的 token 有限。这次调用之前，主机数出的 token（用 OpenAI 的 o200k_base 分词器）超过了窗口，于是把最早的几轮（每轮是一条回复、它的调用和这些调用的全部结果，绝不拆开）换成一条摘要。摘要是主机放进去的：这一课里它是写好的脚本，真实的工具通常让模型来写。被换掉的几轮，模型再也看不到，只剩摘要里说的。",
        "Every model call resends the whole context, and a model accepts only so many tokens. Before this call the host's count of tokens (with OpenAI's o200k_base tokenizer) is over the window, so it replaces the oldest turns (a reply with its calls and all their results, never split) with one summary message. The summary is the host's: in this lesson it is scripted; real harnesses usually have a model write it. The replaced turns the model no longer sees, only what the summary says.",
    ];
    PLACEHOLDER = [
        "[主机为适应上下文窗口删除了这条结果（原有 {tokens} 个 token）；如需要，请再次调用工具]",
        "[result removed by the host to fit the context window (it was {tokens} tokens); call the tool again if you need it]",
    ];
    SUMMARY_MESSAGE = ["[主机为适应上下文窗口写的前文摘要] {text}", "[summary of earlier turns, written by the host to fit the context window] {text}"];
    COMPACTED_NOT_SENT = ["主机压缩后的消息：尚未发给模型", "Compacted by the host, not sent yet"];
    WINDOW_LINE = [
        "窗口 {window} token",
        "Window {window} tokens",
    ];
    CACHE_LINE = [
        "提示缓存：{input} 个输入 token 中 {cached} 个命中 · 约 ${cost}（不缓存 ${full}，gpt-4.1 标价）",
        "Prompt cache: {cached} of {input} input tokens cached · ≈ ${cost} (uncached ${full}, gpt-4.1 prices)",
    ];
    WINDOW_LINE_ESTIMATED = [
        "窗口 {window}，按 2026-12-01 之前的估算计（约 4 个字符一个 token，只算消息和工具，不算系统提示；压缩的计数也是）",
        "Window {window}, counted as before 2026-12-01 (about 4 characters a token, messages and tools only, no system prompt; so are the compaction counts)",
    ];
    RESULT_COMPACTED_DROP = ["✂ 模型现在只看到主机的占位结果。原结果：{text}", "✂ the model now sees only the host's placeholder; it was: {text}"];
    RESULT_COMPACTED_SUMMARY = ["✂ 模型现在只看到主机的摘要。原结果：{text}", "✂ the model now sees only the host's summary; it was: {text}"];
    COMPACTED_LINE_DROP = [
        "✂ 第 {step} 步：{calls} 的结果换成占位，约 {before} → {after}",
        "✂ step {step}: results of {calls} → placeholders, ~{before} → ~{after}",
    ];
    COMPACTED_LINE_SUMMARY = [
        "✂ 第 {step} 步：{removed} 条{messages}（{calls}）换成摘要，约 {before} → {after}",
        "✂ step {step}: {removed} {messages} ({calls}) → a summary, ~{before} → ~{after}",
    ];
    // An MCP server's steps (`i18n/mcp.rs`, `wire::mcp`).
    TITLE_MCP_LISTS = [
        "启动时，第一次模型调用之前：主机连接 MCP 服务器 {server}，问它有哪些工具（tools/list）",
        "At start-up, before the first model call: the host connects to MCP server {server} and asks for its tools (tools/list)",
    ];
    TITLE_MCP_LISTED = ["MCP 服务器 {server} 列出 {n} 个工具：{names}", "MCP server {server} lists {n} tools: {names}"];
    TITLE_MCP_CALL = ["主机把 {what} 发给 MCP 服务器 {server}（tools/call）", "The host sends {what} to MCP server {server} (tools/call)"];
    TITLE_MCP_RESULT = ["MCP 服务器 {server} 回答 {id}（isError: false）：按 id 配对后追加", "MCP server {server} answers {id} (isError: false): paired by id and appended"];
    TITLE_MCP_IS_ERROR = ["MCP 服务器 {server} 回答 {id}，带 isError: true：一个错误结果，按 id 配对后追加", "MCP server {server} answers {id} with isError: true: an error result, paired by id and appended"];
    MCP_SERVER_CONNECTING = ["MCP 服务器 {server}（连接中）", "MCP server {server} (connecting)"];
    MCP_SERVER_LISTED = ["MCP 服务器 {server}（已连接，提供 {names}）", "MCP server {server} (connected, serving {names})"];
    /// Between the names of a server's tools.
    MCP_NAMES_SEPARATOR = ["、", ", "];
    ARROW_MCP_LISTS = ["initialize，tools/list", "initialize, tools/list"];
    ARROW_MCP_LISTED = ["{n} 个工具及其描述", "{n} tools with their descriptions"];
    ARROW_MCP_CALL = ["tools/call {ids}", "tools/call {ids}"];
    WHY_MCP_LISTS = [
        "本课的工具泳道代表一个 MCP 服务器：主机之外的一个程序，主机在启动时连接它，早于第一次模型调用。先是 initialize 握手（双方约定协议版本，服务器说它提供工具），再用 tools/list 问它有哪些工具。模型此时什么都还没看到。",
        "In this lesson the Tool lane stands for an MCP server: a program outside the host, which the host connects to at start-up, before the first model call. First the initialize handshake (the two agree on a protocol version; the server says it offers tools), then tools/list asks which tools it has. The model has seen nothing yet.",
    ];
    WHY_MCP_LISTED = [
        "服务器回答每个工具的 name、description 和 inputSchema。主机把它们原样变成提供方自己的工具定义（Chat 的 tools[].function，Responses 的 tools[]，Anthropic 的 tools[].input_schema），放进之后的每一次请求。描述是写给模型读的文字：它和系统提示词一样是上下文，由服务器的作者写，不由主机写。",
        "The server answers with each tool's name, description and inputSchema. The host turns them, as they are, into the provider's own tool definitions (Chat's tools[].function, Responses' tools[], Anthropic's tools[].input_schema) in every request from now on. A description is text for the model to read: it is context, like the system prompt, written by the server's author, not by the host.",
    ];
    WHY_MCP_CALL = [
        "这个工具不在主机里运行：主机把调用变成 JSON-RPC 的 tools/call 请求（name 和 arguments）发给服务器，由服务器运行。call id 属于模型的 API，JSON-RPC 的 id 属于这条连接：主机把两者对应起来。",
        "This tool does not run in the host: the host turns the call into a JSON-RPC tools/call request (name and arguments) and the server runs it. The call id belongs to the model's API, the JSON-RPC id to this connection: the host keeps the two matched.",
    ];
    WHY_MCP_IS_ERROR = [
        "服务器回答了，结果带 isError: true：工具运行了，但失败了。这仍是一个结果，不是协议错误：主机把它的文字作为这个 call 的结果交给模型（Anthropic 的 tool_result 标 is_error: true；OpenAI 的两种 API 没有错误标记，只有文字），模型可以据此改正。未知工具、参数不合格这类协议错误则是 JSON-RPC 的 error，由主机处理。",
        "The server answered, with isError: true: the tool ran and failed. That is still a result, not a protocol error: the host gives its text to the model as the call's result (Anthropic's tool_result says is_error: true; OpenAI's two APIs have no error flag, only the text), so the model can correct itself. A protocol error, such as an unknown tool or invalid arguments, comes back as a JSON-RPC error instead, which the host handles.",
    ];
    WHY_MCP_RESULT = [
        "服务器的结果（content 里的文字，isError: false）回到主机；主机把文字作为这个 call 的结果追加，下一次模型调用才会看到它。",
        "The server's result (the text in content, isError: false) comes back to the host, which appends the text as the call's result; the model sees it on the next call.",
    ];
    MCP_WIRE_LEAD = [
        "主机与 MCP 服务器 {server} 之间的 JSON-RPC 消息（→ 主机发出，← 服务器发出）：",
        "JSON-RPC between the host and MCP server {server} (→ from the host, ← from the server):",
    ];
    MCP_TOOL = [
        "{signature}（来自 MCP 服务器 {server}，描述：“{description}”）",
        "{signature} (from MCP server {server}; description: “{description}”)",
    ];
}

pub const GLOSSARY_ENTRIES: [(Label, Label); 10] = [
    (
        l(["call_id", "call_id"]),
        l([
            "提供方 API 给模型回复里每个工具调用的编号（OpenAI 是 call_…，Anthropic 是 toolu_…）；主机必须原样带着它送回结果，结果靠它找到自己的调用。",
            "The id the provider's API gives each tool call in the model's reply (call_… in OpenAI, toolu_… in Anthropic); the host must send it back unchanged with the result, which finds its call by it.",
        ]),
    ),
    (
        l(["配对规则", "pairing rule"]),
        l([
            "真实 API 要求每个工具调用都有结果：OpenAI 要求带 tool_calls 的助手消息之后，每个 tool_call_id 都有一条 tool 消息；Anthropic 要求每个 tool_use 在下一条消息里有 tool_result。缺一个，请求就以 400 被拒。",
            "Real APIs require a result for every tool call: OpenAI, a tool message for each tool_call_id after the assistant message with tool_calls; Anthropic, a tool_result for each tool_use in the next message. Miss one and the request is rejected with 400.",
        ]),
    ),
    (
        l(["工具调用", "tool call"]),
        l([
            "模型回复中的一段数据：工具名加参数。只是提议，不会自己执行。",
            "Data in the model's reply: a tool name and arguments. A proposal; it runs nothing.",
        ]),
    ),
    (
        l(["工具结果", "tool result"]),
        l([
            "主机执行（或拒绝）调用后得到的文字，带着 call_id 追加给模型。",
            "The text the host gets by running (or refusing) a call, appended with its call_id.",
        ]),
    ),
    (
        l(["上下文", "context"]),
        l([
            "某一次调用时主机发给模型的全部消息和工具定义，加上提供方自己添加的内容（Anthropic 在提供工具时会加一段几百 token 的工具使用系统提示词）；除此之外模型一无所知。",
            "All messages and tool definitions the host sends on one call, plus what the provider adds (Anthropic adds a tool-use system prompt of a few hundred tokens when tools are offered); the model knows nothing else.",
        ]),
    ),
    (
        l(["外层循环", "outer loop"]),
        l([
            "模型调用 → 主机处理工具 → 下一次模型调用，直到结束。",
            "Model call → host runs tools → next model call, until the end.",
        ]),
    ),
    (
        l(["内层循环", "inner loop"]),
        l([
            "一次模型调用内部逐个生成 token 的过程。",
            "Token-by-token generation inside one model call.",
        ]),
    ),
    (
        l(["主机", "host"]),
        l([
            "运行循环的程序：组装上下文、校验并执行工具、决定何时停止。",
            "The program running the loop: builds context, validates and runs tools, decides when to stop.",
        ]),
    ),
    (
        l(["预算", "budget"]),
        l([
            "主机最多调用模型的次数；用完就停，不管模型想不想继续。",
            "The most model calls the host will make; when used up it stops, whatever the model wants.",
        ]),
    ),
    (
        l(["屏幕上的标记", "marks on screen"]),
        l([
            "上下文面板里的 +（本次调用新增）、编号、反色的 ✗（失败的结果）和 ✂（主机替换的内容），以及 ↑/↓ 提示和“略去”说明，都是模拟器画的，不在发给模型的内容里；按 w 看请求原文。",
            "In the context panel, + (new at this call), the numbers, the reversed ✗ (a failed result) and ✂ (what the host put in) and the ↑/↓ and \"more lines\" notes are drawn by the simulator; none of them is in what the model is sent (w shows the request itself).",
        ]),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Lang;

    /// The holes of a template: the names between braces, sorted.
    fn holes(text: &str) -> Vec<&str> {
        let mut out: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn every_text() -> Vec<(String, Label)> {
        let mut all: Vec<(String, Label)> = CATALOGUE
            .iter()
            .map(|(name, label)| (name.to_string(), *label))
            .collect();
        for (i, (term, meaning)) in GLOSSARY_ENTRIES.iter().enumerate() {
            all.push((format!("GLOSSARY_ENTRIES[{i}].0"), *term));
            all.push((format!("GLOSSARY_ENTRIES[{i}].1"), *meaning));
        }
        for (name, p) in [
            ("MESSAGE_N", MESSAGE_N),
            ("ITEM_N", ITEM_N),
            ("HOST_CHECK_N", HOST_CHECK_N),
            ("REASONING_ITEM_N", REASONING_ITEM_N),
            ("LINE_N", LINE_N),
            ("ITEM_PLACE_N", ITEM_PLACE_N),
            ("REQUEST_N", REQUEST_N),
            ("GEMINI_RESULTS_TWICE", GEMINI_RESULTS_TWICE),
            ("GEMINI_REWOUND", GEMINI_REWOUND),
            ("GEMINI_TURNS_SPLIT", GEMINI_TURNS_SPLIT),
            ("GEMINI_REPLACED", GEMINI_REPLACED),
            ("GEMINI_IDS_REBUILT", GEMINI_IDS_REBUILT),
            ("REPLAY_HARNESS_CONTEXT", REPLAY_HARNESS_CONTEXT),
        ] {
            all.push((format!("{name}.one"), p.one));
            all.push((format!("{name}.other"), p.other));
        }
        all
    }

    #[test]
    fn languages_are_indexed_in_the_order_of_all() {
        for (i, lang) in Lang::ALL.into_iter().enumerate() {
            assert_eq!(lang.index(), i);
        }
    }

    #[test]
    fn every_text_exists_in_every_language_with_the_same_holes() {
        let all = every_text();
        assert!(all.len() > 150, "the catalogue lists {} texts", all.len());
        for (name, label) in all {
            let first = holes(label.get(Lang::ALL[0]));
            for lang in Lang::ALL {
                let text = label.get(lang);
                assert!(!text.trim().is_empty(), "{name} is empty in {lang:?}");
                assert_eq!(
                    holes(text),
                    first,
                    "{name}: the {lang:?} text has other holes than the {:?} one",
                    Lang::ALL[0]
                );
            }
        }
    }

    #[test]
    fn fill_replaces_each_hole_and_keeps_the_rest() {
        let t = Label::new(["{a}：{b}{a}", "{a}: {b} {a}"]);
        assert_eq!(t.fill(Lang::Zh, &[("a", &1), ("b", &"x")]), "1：x1");
        assert_eq!(t.fill(Lang::En, &[("a", &1), ("b", &"x")]), "1: x 1");
        // A value that looks like a hole is not filled again.
        assert_eq!(t.fill(Lang::En, &[("a", &"{b}"), ("b", &2)]), "{b}: 2 {b}");
        assert_eq!(Label::new(["{", "a}"]).fill(Lang::Zh, &[]), "{");
    }

    #[test]
    fn plurals() {
        assert_eq!(MESSAGE_N.get(1, Lang::En), "message");
        assert_eq!(MESSAGE_N.get(2, Lang::En), "messages");
        assert_eq!(MESSAGE_N.get(0, Lang::En), "messages");
        assert_eq!(MESSAGE_N.get(1, Lang::Zh), "条消息");
    }
}
