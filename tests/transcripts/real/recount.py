#!/usr/bin/env python3
"""Recount a real agent run from its file, independently of agent-loop-sim.

    python3 recount.py FILE [FORMAT]

prints one JSON object: model_replies, tool_calls, paired, errors,
parallel_groups, unanswered, orphans. Written from the formats' own
descriptions, not from the Rust reader:

- a reply is one model response: for Codex rollouts the assistant-side
  response items (message, reasoning, function_call, custom_tool_call,
  local_shell_call, web_search_call: the model's own search, no result
  item) between two other items; for Claude Code sessions the
  assistant lines of one API message (same message.id) on the parentUuid
  chain that ends at the last message (side chains and retried branches
  are not part of it), with the lines off the chain of an API message it
  holds (a block copied on another branch aside) and the results to its
  lines; progress lines between them are passed; a compact_boundary whose
  logicalParentUuid the file does not hold goes on from the message line
  above it; for Chat / Anthropic message lists, each assistant message;
- a result pairs with the latest call before it that has its id and no
  result yet (ids may be reused in a later turn); a result that finds none
  is an orphan;
- an error is a result the format marks failed: Anthropic / Claude Code
  is_error, Codex a non-zero exit code (output header lines "Exit code: N"
  or "Process exited with code N", metadata.exit_code, success false, or an
  exec_command_end event), Chat none (the format has no error flag);
- a parallel group is a reply with two or more calls.

mini-swe-agent (.traj.json, docs/usage/output_files.md and the v1 agent's
parse_action): with tool calling, Chat messages (an error is a non-zero
returncode, in extra.returncode or the observation's <returncode>); text-based,
every assistant message is a reply, and it makes a call only if its text holds
exactly one ```bash (or ```mswea_bash_command) block, or extra.actions holds
one action; the user message right after such a reply is its result.

Gemini CLI (chatRecordingTypes.ts / chatRecordingService.ts): each "gemini"
message is a reply, its toolCalls the calls (split into one reply per model
turn where the calls' timestamps are more than 100 ms apart: gemini_turns), a toolCall with a result is
answered (an error: status error or cancelled, or a functionResponse with an
error); a user message of functionResponse parts is the results sent back, a
result only for an id no toolCall answered; in JSONL a record under a known id replaces the earlier one in place,
$rewindTo drops that id and all after it, $set.messages replaces all. A
checkpoint (a list of {role, parts}) is the API history: a model item is a
reply, its functionCall parts the calls, functionResponse parts the results
(by id, else the first open call of that name).
SWE-agent (.traj, sweagent/agent/agents.py add_step_to_history and the
inspector's action summary): the `history`; with function calling, Chat
messages, a tool message answering every id of its tool_call_ids;
text-based (no tool_calls), every assistant message is a reply, and it makes
one call if its `action` is not empty (the command the environment ran), the
next user message is its result (by position: the file names no call). A
message marked is_demo is the demonstration, not part of the run.
OpenHands (V0 event streams, openhands/events/serialization and
memory/conversation_memory.py): a reply is one model response, the
tool_call_metadata.model_response.id its actions share (its tool_calls the
calls), or an agent "message" action without tool_call_metadata; an
observation with tool_call_metadata is the result for its tool_call_id;
an error is an "error" observation or a positive extras.metadata.exit_code
(-1: the command was still running). The older flat layout
(dataclasses.asdict of each event: no event has a source or
tool_call_metadata, the fields flat), as the CodeAct agent without function
calling sent it (get_action_message / get_observation_message): the first
"message" action is the task; every other action is a reply, and one other
than message, finish or reject makes one call named by its action (runtime
actions, change_agent_state, null, recall, are none); an observation answers
that call if it comes before the next reply, with the call's name (and its
command / code where both give one); an error is a positive exit_code.
"""

import json
import re
import sys


class Count:
    def __init__(self):
        self.replies = 0
        self.calls = 0
        self.paired = 0
        self.errors = 0
        self.parallel = 0
        self.orphans = 0
        self.open = {}  # call id -> index of the call (latest wins)
        self.answered = set()
        self.n = 0

    def reply(self, ids):
        self.replies += 1
        if len(ids) > 1:
            self.parallel += 1
        for cid in ids:
            self.open[cid] = self.n
            self.n += 1
            self.calls += 1

    def result(self, cid, error):
        if cid in self.open:
            self.answered.add(self.open.pop(cid))
            self.paired += 1
        else:
            self.orphans += 1
        if error:
            self.errors += 1

    def out(self):
        return {
            "model_replies": self.replies,
            "tool_calls": self.calls,
            "paired": self.paired,
            "errors": self.errors,
            "parallel_groups": self.parallel,
            "unanswered": self.calls - len(self.answered),
            "orphans": self.orphans,
        }


def lines(path):
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.strip()
            if not raw:
                continue
            try:
                yield json.loads(raw)
            except json.JSONDecodeError:
                return  # a line cut short at the end


EXIT = re.compile(r"^(?:Exit code: |Process exited with code )(-?\d+)\s*$")
# Unified exec: the call returned while its process still ran; the process's
# exit (an exec_command_end under this call's id) is reported by a later
# write_stdin's output, not by this one.
RUNNING = re.compile(r"^Process running with session ID")


def still_running(output):
    text = output if isinstance(output, str) else json.dumps(output)
    for line in text.splitlines()[:8]:
        if line.strip() == "Output:":
            return False
        if RUNNING.match(line):
            return True
    return False


def codex_failed(output):
    if isinstance(output, dict):
        return output.get("success") is False, output.get("content")
    text = output if isinstance(output, str) else json.dumps(output)
    try:
        v = json.loads(text)
        if isinstance(v, dict) and "exit_code" in (v.get("metadata") or {}):
            return v["metadata"]["exit_code"] != 0, v.get("output")
    except (ValueError, TypeError):
        pass
    for line in text.splitlines()[:8]:
        if line.strip() == "Output:":
            break
        m = EXIT.match(line)
        if m:
            return int(m.group(1)) != 0, text
    return False, text


def codex(path):
    c = Count()
    pending = None  # the calls of the reply being read, or None
    results = []  # (call id, failed) in file order, with their exit events
    exits = {}
    order = []
    for v in lines(path):
        item = v.get("payload", v) if "payload" in v else v
        kind = v.get("type")
        if kind == "event_msg":
            if item.get("type") == "exec_command_end" and "exit_code" in item:
                exits[item.get("call_id")] = item["exit_code"]
            continue
        if kind == "compacted" and pending is not None:
            # A compaction comes between two model calls: it ends a reply.
            order.append(("reply", pending))
            pending = None
        if "payload" in v and kind != "response_item":
            continue
        t = item.get("type") or ("message" if "role" in item else None)
        assistant_side = t in ("function_call", "custom_tool_call", "local_shell_call", "reasoning", "web_search_call") or (
            t == "message" and item.get("role") == "assistant"
        )
        if assistant_side:
            if pending is None:
                pending = []
            if t in ("function_call", "custom_tool_call", "local_shell_call"):
                pending.append(item.get("call_id") or item.get("id"))
            continue
        if pending is not None:
            order.append(("reply", pending))
            pending = None
        if t in ("function_call_output", "custom_tool_call_output", "local_shell_call_output"):
            failed, _ = codex_failed(item.get("output"))
            running = still_running(item.get("output"))
            order.append(("result", item.get("call_id") or item.get("id"), failed, running))
    if pending is not None:
        order.append(("reply", pending))
    for entry in order:
        if entry[0] == "reply":
            c.reply(entry[1])
        else:
            _, cid, failed, running = entry
            c.result(cid, failed or (exits.get(cid, 0) != 0 and not running))
    return c.out()


def claude_code(path):
    rows = list(lines(path))
    by_uuid = {r["uuid"]: r for r in rows if "uuid" in r}

    def message_row(r):
        return r.get("type") in ("user", "assistant") and "message" in r and not r.get("isApiErrorMessage")

    def results_only(r):
        content = r["message"].get("content")
        return (
            r["message"].get("role", r["type"]) == "user"
            and isinstance(content, list)
            and len(content) > 0
            and all(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
        )

    convo = [r for r in rows if message_row(r) and not r.get("isSidechain")]
    if not convo:
        # A sub-agent's own file: every line is its side chain.
        convo = [r for r in rows if message_row(r)]
    if not convo:
        return Count().out()
    members = set(id(r) for r in convo)
    included = set()
    at = convo[-1]
    seen = set()
    position = {id(r): k for k, r in enumerate(rows)}
    while at is not None and at["uuid"] not in seen:
        seen.add(at["uuid"])
        included.add(id(at))
        parent = at.get("parentUuid") or at.get("logicalParentUuid")
        before = by_uuid.get(parent)
        if before is None and parent and at.get("subtype") == "compact_boundary":
            # Its logical parent is a line the file did not keep: the
            # history before it goes on from the message line above it.
            earlier = [r for r in rows[: position[id(at)]] if id(r) in members]
            before = earlier[-1] if earlier else None
        at = before

    def message_parent(r):
        # The nearest line above that holds a message (past progress lines).
        seen_here = set()
        at = by_uuid.get(r.get("parentUuid"))
        while at is not None and at.get("uuid") not in seen_here:
            seen_here.add(at.get("uuid"))
            if message_row(at):
                return at
            at = by_uuid.get(at.get("parentUuid"))
        return None

    # Off the chain but of its turns: the lines of an API message (one
    # message.id) the chain holds, as Claude Code writes a reply a block a
    # line and runs a call while the reply still streams (later blocks may
    # hang off a progress line), a block copied on another branch aside;
    # and the results to included lines (a parallel group's results each
    # parent their own call).
    held_ids = set(r["message"].get("id") for r in rows if id(r) in included and message_row(r) and r["type"] == "assistant")
    held_blocks = set(json.dumps(r["message"].get("content"), sort_keys=True) for r in rows if id(r) in included and message_row(r))
    for r in rows:
        if id(r) in included or id(r) not in members:
            continue
        if r["type"] == "assistant" and r["message"].get("id") in held_ids:
            block = json.dumps(r["message"].get("content"), sort_keys=True)
            if block not in held_blocks:
                held_blocks.add(block)
                included.add(id(r))
            continue
        parent = message_parent(r)
        if results_only(r) and parent is not None and id(parent) in included:
            included.add(id(r))
    chain = [r for r in rows if id(r) in included]
    c = Count()
    reply = None  # (message id, calls) being gathered
    held = []  # results read while the reply's lines still come

    def flush():
        nonlocal reply, held
        if reply is not None:
            c.reply(reply[1])
            reply = None
        for cid, failed in held:
            c.result(cid, failed)
        held = []

    for r in chain:
        if not message_row(r):
            continue
        m = r["message"]
        content = m.get("content")
        blocks = content if isinstance(content, list) else []
        if m.get("role", r["type"]) == "assistant":
            mid = m.get("id") or r["uuid"]
            calls = [b.get("id") for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]
            if reply is not None and reply[0] == mid:
                reply[1].extend(calls)
            else:
                flush()
                reply = (mid, calls)
            continue
        results = [
            (b.get("tool_use_id"), b.get("is_error") is True)
            for b in blocks
            if isinstance(b, dict) and b.get("type") == "tool_result"
        ]
        if results_only(r):
            held.extend(results)
            continue
        flush()
        for cid, failed in results:
            c.result(cid, failed)
    flush()
    return c.out()


def messages(items, anthropic):
    c = Count()
    for m in items:
        role = m.get("role")
        content = m.get("content")
        blocks = content if isinstance(content, list) else []
        if role == "assistant":
            if anthropic:
                ids = [b.get("id") for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]
            else:
                ids = [t.get("id") for t in m.get("tool_calls") or []]
            c.reply(ids)
        elif role == "tool" and not anthropic:
            c.result(m.get("tool_call_id"), False)
        elif role == "user" and anthropic:
            for b in blocks:
                if isinstance(b, dict) and b.get("type") == "tool_result":
                    c.result(b.get("tool_use_id"), b.get("is_error") is True)
    return c.out()


RETURNCODE = re.compile(r"^\s*<returncode>(-?\d+)</returncode>")
BLOCK = re.compile(r"```(?:bash|mswea_bash_command)\s*\n(.*?)\n```", re.S)


def returncode(m):
    extra = m.get("extra") or {}
    if isinstance(extra.get("returncode"), int):
        return extra["returncode"]
    content = m.get("content")
    if isinstance(content, str):
        found = RETURNCODE.match(content)
        if found:
            return int(found.group(1))
    return None


def mini_swe_agent(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
        # A run saved as its messages alone is the list itself.
        msgs = doc if isinstance(doc, list) else doc["messages"]
    c = Count()
    if any(m.get("tool_calls") or m.get("role") == "tool" for m in msgs):
        for m in msgs:
            if m.get("role") == "assistant":
                c.reply([t.get("id") for t in m.get("tool_calls") or []])
            elif m.get("role") == "tool":
                code = returncode(m)
                c.result(m.get("tool_call_id"), code is not None and code != 0)
        return c.out()
    waiting = None
    for i, m in enumerate(msgs):
        role = m.get("role")
        if role == "assistant":
            actions = (m.get("extra") or {}).get("actions")
            if actions is None:
                actions = BLOCK.findall(m.get("content") or "")
            one = len(actions) == 1
            waiting = "msg%d" % i if one else None
            c.reply([waiting] if one else [])
        elif role == "user" and waiting is not None:
            code = returncode(m)
            c.result(waiting, code is not None and code != 0)
            waiting = None
    return c.out()


def swe_agent(history):
    run = [m for m in history if not m.get("is_demo")]
    if any(m.get("tool_calls") or m.get("role") == "tool" for m in run):
        # A tool message answers every id of its tool_call_ids.
        items = []
        for m in run:
            ids = m.get("tool_call_ids") if m.get("role") == "tool" else None
            items.extend([dict(m, tool_call_id=i) for i in ids] if ids else [m])
        return messages(items, False)
    c = Count()
    waiting = None
    for i, m in enumerate(run):
        if m.get("role") == "assistant":
            action = m.get("action")
            waiting = "history%d" % i if isinstance(action, str) and action.strip() else None
            c.reply([waiting] if waiting else [])
        elif m.get("role") == "user" and waiting is not None:
            c.result(waiting, False)
            waiting = None
    return c.out()


def gemini_records(path):
    """The message records of a session, every update and rewind applied."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, list):
        return whole, True
    if isinstance(whole, dict):
        return list(whole.get("messages") or []), False
    order = []  # [id, record] pairs; a rewind removes from the list
    for raw in text.splitlines():
        if not raw.strip():
            continue
        r = json.loads(raw)
        if "$rewindTo" in r:
            ids = [k for k, _ in order]
            cut = ids.index(r["$rewindTo"]) if r["$rewindTo"] in ids else 0
            del order[cut:]
        elif "$set" in r:
            if isinstance(r["$set"].get("messages"), list):
                order = [[m.get("id"), m] for m in r["$set"]["messages"]]
        elif "type" in r and "id" in r:
            for pair in order:
                if pair[0] == r["id"]:
                    pair[1] = r
                    break
            else:
                order.append([r["id"], r])
        elif "messages" in r:
            order = [[m.get("id"), m] for m in r["messages"]]
    return [m for _, m in order], False


def gemini_failed(result):
    parts = result if isinstance(result, list) else [result]
    return any(
        isinstance(p, dict) and (p.get("functionResponse") or {}).get("response", {}).get("error") not in (None, "")
        for p in parts
    )


def gemini_turns(tool_calls):
    """A gemini message's calls by the model turn that made them: recordToolCalls
    adds a turn that starts with a call to the message before it, and
    recordCompletedToolCalls stamps one batch's calls at one moment; calls
    stamped more than 100 ms apart are of different turns. Always one turn."""
    from datetime import datetime
    def at(t):
        try:
            return datetime.strptime(t.get("timestamp", ""), "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()
        except (ValueError, TypeError):
            return None
    turns, last = [[]], None
    for t in tool_calls:
        now = at(t)
        if now is not None and last is not None and now - last > 0.1:
            turns.append([])
        last = now if now is not None else last
        turns[-1].append(t)
    return turns


def gemini_cli(path):
    records, checkpoint = gemini_records(path)
    c = Count()
    if checkpoint:
        calls = []  # (name, id) of the latest model turn, still open
        n = 0
        for item in records:
            parts = item.get("parts") or []
            if item.get("role") == "model":
                calls = []
                ids = []
                for p in parts:
                    if "functionCall" in p:
                        n += 1
                        cid = p["functionCall"].get("id") or "rebuilt-%d" % n
                        calls.append((p["functionCall"].get("name"), cid))
                        ids.append(cid)
                c.reply(ids)
                continue
            for p in parts:
                if "functionResponse" in p:
                    fr = p["functionResponse"]
                    cid = fr.get("id")
                    if cid is None:
                        match = [k for k, (name, _) in enumerate(calls) if name == fr.get("name")]
                        cid = calls.pop(match[0])[1] if match else ""
                    else:
                        calls = [x for x in calls if x[1] != cid]
                    c.result(cid, gemini_failed(p))
        return c.out()
    answered = set()
    for m in records:
        if m.get("type") == "user":
            # The results as sent back (gemini-cli 0.61 records them again,
            # as a user message of functionResponse parts): a result only
            # where the reply's toolCalls did not hold it.
            content = m.get("content")
            parts = content if isinstance(content, list) else [content]
            for p in parts:
                if isinstance(p, dict) and "functionResponse" in p:
                    cid = p["functionResponse"].get("id") or ""
                    if cid not in answered:
                        answered.add(cid)
                        c.result(cid, gemini_failed(p))
            continue
        if m.get("type") != "gemini":
            continue
        for turn in gemini_turns(m.get("toolCalls") or []):
            c.reply([t.get("id") for t in turn])
            for t in turn:
                if t.get("result") is not None:
                    failed = t.get("status") in ("error", "cancelled") or gemini_failed(t["result"])
                    answered.add(t.get("id") or "")
                    c.result(t.get("id"), failed)
    return c.out()


def any_agent(path):
    """An any-agent trace export {spans: [...]}: in order of start_time, a
    call_llm span is a reply, its calls the list its JSON output holds
    (tool.name / name / function.name); an execute_tool span is the result
    of the earliest open call of its tool's name (the calls name no ids, so
    the gen_ai.tool.call.id some tool spans record, Agno's and Google ADK's,
    is none of theirs); an error is a span whose status_code is error."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    spans = sorted(doc["spans"], key=lambda s: int(s.get("start_time") or 0))
    c = Count()
    open_calls = []  # (name, id)
    n = 0
    for s in spans:
        a = s.get("attributes") or {}
        op = a.get("gen_ai.operation.name")
        failed = ((s.get("status") or {}).get("status_code") or "").lower() == "error"
        if op == "call_llm":
            out = a.get("gen_ai.output", a.get("genai.output"))
            kind = a.get("gen_ai.output.type", a.get("genai.output.type"))
            calls = []
            if kind == "json":
                try:
                    v = json.loads(out) if isinstance(out, str) else out
                except ValueError:
                    v = None
                if isinstance(v, list):
                    calls = v
            ids = []
            for call in calls:
                n += 1
                name = call.get("tool.name") or call.get("name") or (call.get("function") or {}).get("name")
                cid = "call-%d" % n
                open_calls.append((name, cid))
                ids.append(cid)
            c.reply(ids)
        elif op == "execute_tool":
            name = a.get("gen_ai.tool.name")
            match = [k for k, (nm, _) in enumerate(open_calls) if nm == name]
            cid = open_calls.pop(match[0])[1] if match else None
            c.result(cid, failed)
    return c.out()


def openhands_flat(events):
    c = Count()
    task = False
    waiting = None  # (call id, the action) answered by the next observation of its name
    for i, e in enumerate(events):
        kind = e.get("action")
        if kind in ("change_agent_state", "null", "recall", "system"):
            continue
        if kind == "message" and not task:
            task = True
        elif kind is not None:
            call = kind not in ("message", "finish", "reject")
            waiting = ("history%d" % i, e) if call else None
            c.reply([waiting[0]] if call else [])
        elif waiting is not None and e.get("observation") == waiting[1]["action"]:
            if all(k not in e or k not in waiting[1] or e[k] == waiting[1][k] for k in ("command", "code")):
                code = e.get("exit_code")
                c.result(waiting[0], isinstance(code, int) and code > 0)
                waiting = None
    return c.out()


def openhands(path):
    with open(path, encoding="utf-8") as f:
        events = json.load(f)
    if not any("source" in e or "tool_call_metadata" in e for e in events):
        return openhands_flat(events)
    c = Count()
    seen = set()
    for e in events:
        meta = e.get("tool_call_metadata") or {}
        if "action" in e:
            response = meta.get("model_response") or {}
            if meta and response.get("id") in seen:
                continue
            if meta:
                seen.add(response.get("id"))
                message = (response.get("choices") or [{}])[0].get("message") or {}
                c.reply([t["id"] for t in message.get("tool_calls") or []])
            elif e["action"] == "message" and e.get("source") == "agent":
                c.reply([])
        elif "observation" in e and meta.get("tool_call_id"):
            code = ((e.get("extras") or {}).get("metadata") or {}).get("exit_code")
            failed = e["observation"] == "error" or (isinstance(code, int) and code > 0)
            c.result(meta["tool_call_id"], failed)
    return c.out()


def main():
    path = sys.argv[1]
    fmt = sys.argv[2] if len(sys.argv) > 2 else None
    if fmt is None:
        first = next(lines(path), {})
        if "payload" in first or "record_type" in first:
            fmt = "codex"
        elif "sessionId" in first or "leafUuid" in first or "parentUuid" in first:
            fmt = "claude-code"
        else:
            fmt = "chat"
    if fmt == "codex":
        out = codex(path)
    elif fmt == "claude-code":
        out = claude_code(path)
    elif fmt == "mini-swe-agent":
        out = mini_swe_agent(path)
    elif fmt == "gemini-cli":
        out = gemini_cli(path)
    elif fmt == "openhands":
        out = openhands(path)
    elif fmt == "otel-sdk":
        out = any_agent(path)
    else:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        items = doc.get("messages", doc) if isinstance(doc, dict) else doc
        if fmt == "swe-agent":
            out = swe_agent(doc["history"])
        else:
            out = messages(items, fmt == "anthropic")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
