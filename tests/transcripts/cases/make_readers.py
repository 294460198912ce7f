#!/usr/bin/env python3
"""Writes the reader fixtures of issue 34 (items 1-6 and 9): each a file of
the shape a real agent writes, made here from the formats' own
descriptions (sources named in README.md beside this file). No real run,
no personal data; ids, paths and texts are made up.
Run from this folder: python3 make_readers.py
"""
import hashlib
import json

SESSION = "0b7c1e2a-5d4f-4c61-9a0e-2f3b4c5d6e7f"


def write(name, rows):
    with open(name, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")


def write_doc(name, value):
    with open(name, "w", encoding="utf-8") as f:
        f.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def claude_line(kind, uuid, parent, ts, version="2.1.7", **fields):
    line = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/user/proj",
        "sessionId": SESSION,
        "version": version,
        "gitBranch": "main",
        "type": kind,
        "uuid": uuid,
        "timestamp": ts,
    }
    line.update(fields)
    return line


def usage(out):
    return {"input_tokens": 3, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 14000, "output_tokens": out}


def assistant(uuid, parent, ts, mid, block, out=8, **fields):
    message = {
        "model": "claude-sonnet-4-5-20250929",
        "id": mid,
        "type": "message",
        "role": "assistant",
        "content": [block],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage(out),
    }
    return claude_line("assistant", uuid, parent, ts, requestId="req_" + mid, message=message, **fields)


def result(uuid, parent, ts, tool_id, text, **fields):
    message = {"role": "user", "content": [{"tool_use_id": tool_id, "type": "tool_result", "content": text}]}
    return claude_line("user", uuid, parent, ts, message=message, sourceToolAssistantUUID=parent, **fields)


def read(tool_id, path):
    return {"type": "tool_use", "id": tool_id, "name": "Read", "input": {"file_path": path}}


def parallel_out_of_order():
    """Claude Code 2.1.7: one reply's three Read calls, one line a block,
    chained; their results arrive out of order, each parenting its own
    call, so the chain from the last line misses a call and two results."""
    write("claude-code-parallel-out-of-order.jsonl", [
        claude_line("user", "u1", None, "2026-01-14T10:00:00.000Z",
                    message={"role": "user", "content": "Read a.txt, b.txt and c.txt and tell me which is longest."}),
        assistant("a1", "u1", "2026-01-14T10:00:02.000Z", "msg_01", {"type": "text", "text": "I'll read the three files."}),
        assistant("a2", "a1", "2026-01-14T10:00:02.100Z", "msg_01", read("toolu_01A", "/home/user/proj/a.txt")),
        assistant("a3", "a2", "2026-01-14T10:00:02.200Z", "msg_01", read("toolu_01B", "/home/user/proj/b.txt")),
        assistant("a4", "a3", "2026-01-14T10:00:02.300Z", "msg_01", read("toolu_01C", "/home/user/proj/c.txt"), out=160),
        result("r3", "a4", "2026-01-14T10:00:02.400Z", "toolu_01C", "     1\tccc ccc ccc"),
        result("r1", "a2", "2026-01-14T10:00:02.450Z", "toolu_01A", "     1\ta"),
        result("r2", "a3", "2026-01-14T10:00:02.500Z", "toolu_01B", "     1\tbb bb"),
        assistant("a5", "r2", "2026-01-14T10:00:05.000Z", "msg_02",
                  {"type": "text", "text": "c.txt is the longest (11 characters)."}, out=14),
    ])


def sorted_json(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def wire_hash(role, content):
    return hashlib.sha256(sorted_json({"content": content, "role": role}).encode()).hexdigest()


def requests_merged():
    """Claude Code 2.1.328: `api-request` records (shape, blob, request).
    The second request names the reply and the results as the API is sent
    them, one message each (the reply's three lines; the two results),
    by hash, with no blob: the session holds them."""
    v = "2.1.328"
    first = {"role": "user", "content": [
        {"type": "text", "text": "<system-reminder>Today is 2026-11-30.</system-reminder>"},
        {"type": "text", "text": "Which of a.txt and b.txt is longer?"}]}
    blocks = [
        {"type": "text", "text": "I'll read both."},
        read("toolu_01A", "/home/user/proj/a.txt"),
        read("toolu_01B", "/home/user/proj/b.txt"),
    ]
    results = [
        {"tool_use_id": "toolu_01A", "type": "tool_result", "content": "a"},
        {"tool_use_id": "toolu_01B", "type": "tool_result", "content": "bb bb"},
    ]
    shape = {"system": [{"type": "text", "text": "You are Claude Code."}],
             "tools": [{"name": "Read", "description": "Read a file.",
                        "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}}}}]}
    params = {"model": "claude-sonnet-4-5-20250929", "max_tokens": 32000, "stream": True}
    head = wire_hash("user", first["content"])
    line = lambda kind, **f: {"type": kind, "sessionId": SESSION, **f}
    write("claude-code-requests-merged.jsonl", [
        claude_line("user", "u1", None, "2026-11-30T09:00:00.000Z", version=v,
                    message={"role": "user", "content": [first["content"][1]]}),
        line("api-request-shape", shapeHash="shape1", timestamp="2026-11-30T09:00:01.000Z", version=1, shape=shape),
        line("api-request-blob", hash=head, message=first),
        line("api-request", id="req1", shapeHash="shape1", timestamp="2026-11-30T09:00:01.000Z", version=1,
             params=params, keep=0, tail=[head]),
        assistant("a1", "u1", "2026-11-30T09:00:02.000Z", "msg_01", blocks[0], version=v, requestRef="req1"),
        assistant("a2", "a1", "2026-11-30T09:00:02.100Z", "msg_01", blocks[1], version=v, requestRef="req1"),
        assistant("a3", "a2", "2026-11-30T09:00:02.200Z", "msg_01", blocks[2], out=90, version=v, requestRef="req1"),
        result("r1", "a2", "2026-11-30T09:00:02.300Z", "toolu_01A", "a", version=v),
        result("r2", "a3", "2026-11-30T09:00:02.400Z", "toolu_01B", "bb bb", version=v),
        line("api-request", id="req2", shapeHash="shape1", timestamp="2026-11-30T09:00:03.000Z", version=1,
             params=params, base="req1", keep=1,
             tail=[wire_hash("assistant", blocks), wire_hash("user", results)]),
        assistant("a4", "r2", "2026-11-30T09:00:04.000Z", "msg_02",
                  {"type": "text", "text": "b.txt is longer."}, out=6, version=v, requestRef="req2"),
    ])


def harness_text():
    """Claude Code 2.1.33x: the CLI's environment message as a `system`
    role message in a user line, and a `<system-reminder>` block before
    the user's own words in the first user line."""
    v = "2.1.332"
    write("claude-code-harness-text.jsonl", [
        claude_line("user", "u0", None, "2026-12-01T08:00:00.000Z", version=v,
                    message={"role": "system", "content": "Environment: cwd /home/user/proj, platform linux, today 2026-12-01."}),
        claude_line("user", "u1", "u0", "2026-12-01T08:00:00.100Z", version=v,
                    message={"role": "user", "content": [
                        {"type": "text", "text": "<system-reminder>\nAs you answer, use the TodoWrite tool where it helps.\n</system-reminder>"},
                        {"type": "text", "text": "Say hello."}]}),
        assistant("a1", "u1", "2026-12-01T08:00:02.000Z", "msg_01", {"type": "text", "text": "Hello!"}, out=3, version=v),
    ])


def subagent():
    """Claude Code: a session whose Task call ran a sub-agent, and the
    sub-agent's own file beside it (`<session>/subagents/agent-<id>.jsonl`,
    every line `isSidechain: true` with its `agentId`)."""
    agent = "a1b2c3d"
    task = {"type": "tool_use", "id": "toolu_task", "name": "Task",
            "input": {"description": "Count lines", "prompt": "Count the lines of a.txt.", "subagent_type": "general-purpose"}}
    write("claude-code-with-subagent.jsonl", [
        claude_line("user", "u1", None, "2026-12-01T09:00:00.000Z", version="2.1.30",
                    message={"role": "user", "content": "Use a sub-agent to count the lines of a.txt."}),
        assistant("a1", "u1", "2026-12-01T09:00:01.000Z", "msg_01", task, version="2.1.30"),
        result("r1", "a1", "2026-12-01T09:00:09.000Z", "toolu_task", "a.txt has 3 lines.", version="2.1.30",
               toolUseResult={"status": "completed", "agentId": agent, "content": [{"type": "text", "text": "a.txt has 3 lines."}],
                              "totalToolUseCount": 1}),
        assistant("a2", "r1", "2026-12-01T09:00:10.000Z", "msg_02", {"type": "text", "text": "a.txt has 3 lines."}, version="2.1.30"),
    ])
    side = lambda line: {**line, "isSidechain": True, "agentId": agent}
    import os
    os.makedirs("claude-code-with-subagent/subagents", exist_ok=True)
    write("claude-code-with-subagent/subagents/agent-%s.jsonl" % agent, [
        side(claude_line("user", "s1", None, "2026-12-01T09:00:01.500Z", version="2.1.30",
                         message={"role": "user", "content": "Count the lines of a.txt."})),
        side(assistant("s2", "s1", "2026-12-01T09:00:03.000Z", "msg_s1",
                       {"type": "tool_use", "id": "toolu_s1", "name": "Bash", "input": {"command": "wc -l a.txt"}}, version="2.1.30")),
        side(result("s3", "s2", "2026-12-01T09:00:04.000Z", "toolu_s1", "3 a.txt", version="2.1.30")),
        side(assistant("s4", "s3", "2026-12-01T09:00:05.000Z", "msg_s2",
                       {"type": "text", "text": "a.txt has 3 lines."}, version="2.1.30")),
    ])


def codex_unified_exec():
    """Codex CLI unified exec (codex-rs `unified_exec`): `exec_command`
    returns while its process still runs ("Process running with session
    ID"), a later `write_stdin` reports its exit; the process's
    `exec_command_end` names the first call."""
    def line(ts, kind, payload):
        return {"timestamp": ts, "type": kind, "payload": payload}

    def item(ts, payload):
        return line(ts, "response_item", payload)
    write("codex-unified-exec.jsonl", [
        line("2026-11-20T10:00:00.000Z", "session_meta", {"id": "0199aa00-0000-7000-8000-000000000001", "timestamp": "2026-11-20T10:00:00.000Z",
                                                         "cwd": "/home/user/proj", "originator": "codex_cli_rs", "cli_version": "0.171.0",
                                                         "instructions": None}),
        item("2026-11-20T10:00:01.000Z", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Build the project."}]}),
        item("2026-11-20T10:00:03.000Z", {"type": "function_call", "name": "exec_command", "call_id": "call_exec",
                                          "arguments": json.dumps({"cmd": "npm run build", "yield_time_ms": 1000})}),
        item("2026-11-20T10:00:04.000Z", {"type": "function_call_output", "call_id": "call_exec",
                                          "output": "Chunk ID: 1f2e3d\nWall time: 1.0021 seconds\nProcess running with session ID 42\nOriginal token count: 3\nOutput:\n> build\n"}),
        item("2026-11-20T10:00:06.000Z", {"type": "function_call", "name": "write_stdin", "call_id": "call_poll",
                                          "arguments": json.dumps({"session_id": 42, "chars": "", "yield_time_ms": 5000})}),
        line("2026-11-20T10:00:08.000Z", "event_msg", {"type": "exec_command_end", "call_id": "call_exec", "exit_code": 2,
                                                      "stdout": "", "stderr": "error TS2345", "aggregated_output": "error TS2345",
                                                      "duration": {"secs": 4, "nanos": 0}, "formatted_output": "error TS2345"}),
        item("2026-11-20T10:00:08.100Z", {"type": "function_call_output", "call_id": "call_poll",
                                          "output": "Chunk ID: 4a5b6c\nWall time: 2.0000 seconds\nProcess exited with code 2\nOriginal token count: 4\nOutput:\nerror TS2345\n"}),
        item("2026-11-20T10:00:10.000Z", {"type": "message", "role": "assistant",
                                          "content": [{"type": "output_text", "text": "The build fails with TS2345."}]}),
    ])


def swe_agent_history_only():
    """A SWE-agent trajectory saved with only its `history` (the messages
    the model saw), tool results naming their calls in `tool_call_ids`."""
    write_doc("swe-agent-history-only.traj", {"history": [
        {"role": "system", "content": "You are a helpful assistant that can interact with a computer.", "agent": "main", "message_type": "system_prompt"},
        {"role": "user", "content": "Fix the failing test in tests/test_a.py.", "agent": "main", "message_type": "observation"},
        {"role": "assistant", "content": "Let me look at the test.", "agent": "main", "message_type": "action",
         "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"cat tests/test_a.py\"}"}}]},
        {"role": "tool", "content": "def test_a():\n    assert 1 == 2", "agent": "main", "message_type": "observation", "tool_call_ids": ["call_1"]},
        {"role": "assistant", "content": "The assertion is wrong; submitting.", "agent": "main", "message_type": "action",
         "tool_calls": [{"id": "call_2", "type": "function", "function": {"name": "submit", "arguments": "{}"}}]},
    ]})


def mini_bare_list():
    """mini-swe-agent text-based run saved as its messages alone: the
    command is the reply's one ```bash block, the next user message its
    output (`<returncode>`)."""
    fence = "`" * 3
    write_doc("mini-swe-agent-messages.json", [
        {"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
        {"role": "user", "content": "Please solve this issue: the greeting is misspelled."},
        {"role": "assistant", "content": "THOUGHT: find it.\n\n%sbash\ngrep -rn helo .\n%s" % (fence, fence)},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\n./a.py:1:print('helo')\n</output>"},
        {"role": "assistant", "content": "THOUGHT: fix it.\n\n%sbash\nsed -i s/helo/hello/ a.py\n%s" % (fence, fence)},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\n</output>"},
        {"role": "assistant", "content": "THOUGHT: done.\n\n%sbash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n%s" % (fence, fence)},
    ])


def progress(uuid, parent, ts, tool_id, v):
    return claude_line("progress", uuid, parent, ts, version=v, toolUseID=tool_id,
                       data={"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse:Read"})


def streamed_reply():
    """Claude Code 2.1.39 runs a call while its reply still streams: the
    reply's later blocks (one message id) come after the first call's
    result and `progress` lines, one hanging off a progress line that is
    off the chain of the last message."""
    v = "2.1.39"
    t = "2026-12-01T09:00:%02d.000Z"
    write("claude-code-streamed-reply.jsonl", [
        claude_line("user", "u1", None, t % 0, version=v, message={"role": "user", "content": "Read a.txt, b.txt and c.txt."}),
        assistant("a1", "u1", t % 1, "msg_s1", read("toolu_s1", "/home/user/proj/a.txt"), version=v),
        progress("p1", "a1", t % 2, "toolu_s1", v),
        result("r1", "a1", t % 3, "toolu_s1", "alpha", version=v),
        progress("p2", "r1", t % 4, "toolu_s1", v),
        assistant("a2", "p2", t % 5, "msg_s1", read("toolu_s2", "/home/user/proj/b.txt"), version=v),
        progress("p3", "a1", t % 6, "toolu_s1", v),
        assistant("a3", "p3", t % 7, "msg_s1", read("toolu_s3", "/home/user/proj/c.txt"), version=v),
        result("r2", "a2", t % 8, "toolu_s2", "beta", version=v),
        result("r3", "a3", t % 9, "toolu_s3", "gamma", version=v),
        assistant("a4", "r2", t % 10, "msg_s2", {"type": "text", "text": "alpha, beta, gamma."}, version=v),
    ])


def compaction_parent_missing():
    """Claude Code 2.1.39: a compact_boundary whose logicalParentUuid names
    a line the file does not hold, the summary Claude Code wrote after it,
    and a notice of a background task in the user's turn."""
    v = "2.1.39"
    t = "2026-12-01T10:00:%02d.000Z"
    notice = ("<task-notification>\n<task-id>b0c1d2e</task-id>\n<status>completed</status>\n"
              "<summary>Background command \"Run the tests\" completed (exit code 0)</summary>\n"
              "</task-notification>\nRead the output file to retrieve the result: /tmp/tasks/b0c1d2e.output")
    write("claude-code-compaction-parent-missing.jsonl", [
        claude_line("user", "u1", None, t % 0, version=v, message={"role": "user", "content": "Read a.txt."}),
        assistant("a1", "u1", t % 1, "msg_c1", read("toolu_c1", "/home/user/proj/a.txt"), version=v),
        result("r1", "a1", t % 2, "toolu_c1", "alpha", version=v),
        assistant("a2", "r1", t % 3, "msg_c2", {"type": "text", "text": "It says alpha."}, version=v),
        claude_line("system", "b1", None, t % 4, version=v, subtype="compact_boundary", content="Conversation compacted",
                    logicalParentUuid="not-in-this-file", compactMetadata={"trigger": "auto", "preTokens": 150000}),
        claude_line("user", "s1", "b1", t % 5, version=v, isCompactSummary=True, isVisibleInTranscriptOnly=True,
                    message={"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. Summary: a.txt says alpha."}),
        claude_line("user", "n1", "s1", t % 6, version=v, message={"role": "user", "content": notice}),
        assistant("a3", "n1", t % 7, "msg_c3", {"type": "text", "text": "The tests passed."}, version=v),
    ])


def openhands_event(i, source, ts, **fields):
    event = {"id": i, "timestamp": "2025-04-30T16:%02d:00.000000" % ts, "source": source}
    event.update(fields)
    return event


def openhands_call(i, ts, call_id, response_id, command, thought=""):
    call = {"id": call_id, "type": "function", "function": {"name": "execute_bash", "arguments": json.dumps({"command": command})}}
    response = {"id": response_id, "object": "chat.completion", "model": "gpt-4o",
                "choices": [{"index": 0, "finish_reason": "tool_calls",
                             "message": {"role": "assistant", "content": thought, "tool_calls": [call]}}],
                "usage": {"prompt_tokens": 900, "completion_tokens": 20, "total_tokens": 920}}
    meta = {"function_name": "execute_bash", "tool_call_id": call_id, "model_response": response, "total_calls_in_response": 1}
    return openhands_event(i, "agent", ts, message="Running command: " + command, action="run",
                           tool_call_metadata=meta, args={"command": command, "thought": thought})


def openhands_output(i, ts, call_id, response_id, command, output, code):
    meta = {"function_name": "execute_bash", "tool_call_id": call_id, "model_response": {"id": response_id}, "total_calls_in_response": 1}
    return openhands_event(i, "agent", ts, message="Command `%s` executed with exit code %d." % (command, code),
                           cause=i - 1, observation="run", content=output, tool_call_metadata=meta,
                           extras={"command": command, "metadata": {"exit_code": code}})


def openhands_evaluation_output():
    """OpenHands evaluation output (evaluation/benchmarks/*/run_infer.py
    writes `output.jsonl`): a line a run, each an `instance_id` and the
    run's `history` of events. In the second run the model's reply names a
    command the tool refuses: the runtime records an `error` observation
    with no action and no cause (the agent controller's
    FunctionCallValidationError), and ConversationMemory sends it on."""
    system = openhands_event(0, "agent", 0, action="system", args={"content": "You are OpenHands agent."})
    task = lambda t: openhands_event(1, "user", 0, action="message", args={"content": t})
    finish = lambda i, ts: openhands_event(i, "agent", ts, action="message",
                                           args={"content": "Done.", "wait_for_response": True})
    first = [system, task("List the files."),
             openhands_call(2, 1, "call_1", "chatcmpl-1", "ls"),
             openhands_output(3, 2, "call_1", "chatcmpl-1", "ls", "a.py\nb.py", 0),
             finish(4, 3)]
    second = [system, task("Print a.py."),
              openhands_event(2, "agent", 1, observation="error", content="Parameter 'command' is expected to be one of ['view', 'create']." , extras={"error_id": ""}),
              openhands_call(3, 2, "call_2", "chatcmpl-2", "cat a.py"),
              openhands_output(4, 3, "call_2", "chatcmpl-2", "cat a.py", "print('hello')", 0),
              finish(5, 4)]
    records = [{"instance_id": "example__repo-1", "instruction": "List the files.", "metadata": {"agent_class": "CodeActAgent"},
                "history": first, "test_result": {"git_patch": ""}},
               {"instance_id": "example__repo-2", "instruction": "Print a.py.", "metadata": {"agent_class": "CodeActAgent"},
                "history": second, "test_result": {"git_patch": ""}}]
    write("openhands-output.jsonl", records)


def mini_format_error():
    """mini-swe-agent v2 with tool calling: a reply with no tool call is a
    FormatError, raised while the model is queried, so the reply is not
    kept; the harness's message about it is, as a user message whose
    `extra.interrupt_type` names it (minisweagent/agents/default.py)."""
    def call(cid, command):
        return {"id": cid, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}
    write_doc("mini-swe-agent-format-error.traj.json", {
        "trajectory_format": "mini-swe-agent-1.1",
        "info": {"mini_version": "2.0.0", "exit_status": "Submitted"},
        "messages": [
            {"role": "system", "content": "You are a helpful assistant that can interact with a computer shell."},
            {"role": "user", "content": "Fix the greeting in a.py."},
            {"role": "user", "content": "No tool calls found in the response. Every response MUST include at least one tool call.",
             "extra": {"interrupt_type": "FormatError"}},
            {"role": "assistant", "content": None, "tool_calls": [call("call_1", "sed -i s/helo/hello/ a.py")],
             "extra": {"actions": [{"command": "sed -i s/helo/hello/ a.py", "tool_call_id": "call_1"}]}},
            {"role": "tool", "tool_call_id": "call_1", "content": "<returncode>0</returncode>\n<output>\n</output>",
             "extra": {"returncode": 0}},
            {"role": "assistant", "content": None, "tool_calls": [call("call_2", "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")],
             "extra": {"actions": [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", "tool_call_id": "call_2"}]}},
        ],
    })


if __name__ == "__main__":
    mini_format_error()
    openhands_evaluation_output()
    streamed_reply()
    compaction_parent_missing()
    parallel_out_of_order()
    requests_merged()
    harness_text()
    subagent()
    codex_unified_exec()
    swe_agent_history_only()
    mini_bare_list()
