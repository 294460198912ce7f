#!/usr/bin/env python3
"""A small agent loop on the official `openai` and `anthropic` SDKs, for the
tap tests: it asks the model, runs the `read_file` tool the model asks for
(really reading the file), sends the result back, and prints the answer.

    sdk_client.py chat|responses|anthropic BASE_URL [--stream] [--hold DIR]

BASE_URL is the tap's (or the server's) address without /v1. Retries are
off, so a test sees each model call once. With --hold DIR the client waits
before model call N (N >= 2) until the file DIR/call-N exists, and before
it exits until DIR/end exists: a test sees the agent between its calls.
"""

import json
import os
import sys
import time

HOLD = None


def hold(name):
    """Wait for HOLD/name, when the test holds the client."""
    if HOLD is None:
        return
    while not os.path.exists(os.path.join(HOLD, name)):
        time.sleep(0.05)

TOOL_DESC = "Read a text file and return its content."
SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
SYSTEM = "You are a careful assistant. Use read_file to look at files."
QUESTION = "What is the limit in config.txt?"


def read_file(args):
    with open(args["path"], encoding="utf-8") as f:
        return f.read()


def chat(base, stream):
    import openai

    client = openai.OpenAI(base_url=base + "/v1", api_key="sk-test-not-a-real-key-0000", max_retries=0)
    tools = [{"type": "function", "function": {"name": "read_file", "description": TOOL_DESC, "parameters": SCHEMA}}]
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}]
    for n in range(1, 5):
        if n > 1:
            hold(f"call-{n}")
        if stream:
            content, calls, finish = "", {}, None
            for chunk in client.chat.completions.create(model="gpt-test", messages=messages, tools=tools, stream=True):
                if not chunk.choices:
                    continue
                d = chunk.choices[0].delta
                content += d.content or ""
                for c in d.tool_calls or []:
                    slot = calls.setdefault(c.index, {"id": "", "name": "", "arguments": ""})
                    slot["id"] += c.id or ""
                    if c.function:
                        slot["name"] += c.function.name or ""
                        slot["arguments"] += c.function.arguments or ""
                finish = chunk.choices[0].finish_reason or finish
            calls = [calls[i] for i in sorted(calls)]
        else:
            r = client.chat.completions.create(model="gpt-test", messages=messages, tools=tools)
            m = r.choices[0].message
            content = m.content or ""
            calls = [{"id": c.id, "name": c.function.name, "arguments": c.function.arguments} for c in m.tool_calls or []]
        if not calls:
            return content
        messages.append(
            {
                "role": "assistant",
                "content": content or None,
                "tool_calls": [
                    {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                    for c in calls
                ],
            }
        )
        for c in calls:
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": read_file(json.loads(c["arguments"]))})
    raise SystemExit("no answer after 4 model calls")


def responses(base, stream):
    import openai

    client = openai.OpenAI(base_url=base + "/v1", api_key="sk-test-not-a-real-key-0000", max_retries=0)
    tools = [{"type": "function", "name": "read_file", "description": TOOL_DESC, "parameters": SCHEMA}]
    items = [{"role": "user", "content": QUESTION}]
    for n in range(1, 5):
        if n > 1:
            hold(f"call-{n}")
        if stream:
            with client.responses.stream(model="gpt-test", instructions=SYSTEM, input=items, tools=tools) as s:
                for _event in s:
                    pass
                r = s.get_final_response()
        else:
            r = client.responses.create(model="gpt-test", instructions=SYSTEM, input=items, tools=tools)
        calls = [o for o in r.output if o.type == "function_call"]
        if not calls:
            return r.output_text
        for c in calls:
            items.append({"type": "function_call", "call_id": c.call_id, "name": c.name, "arguments": c.arguments})
            items.append(
                {"type": "function_call_output", "call_id": c.call_id, "output": read_file(json.loads(c.arguments))}
            )
    raise SystemExit("no answer after 4 model calls")


def anthropic_loop(base, stream):
    import anthropic

    client = anthropic.Anthropic(base_url=base, api_key="sk-ant-test-not-a-real-key-0000", max_retries=0)
    tools = [{"name": "read_file", "description": TOOL_DESC, "input_schema": SCHEMA}]
    messages = [{"role": "user", "content": QUESTION}]
    for n in range(1, 5):
        if n > 1:
            hold(f"call-{n}")
        args = dict(model="claude-test", max_tokens=512, system=SYSTEM, messages=messages, tools=tools)
        if stream:
            with client.messages.stream(**args) as s:
                for _event in s:
                    pass
                m = s.get_final_message()
        else:
            m = client.messages.create(**args)
        uses = [b for b in m.content if b.type == "tool_use"]
        if not uses:
            return "".join(b.text for b in m.content if b.type == "text")
        messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in m.content]})
        messages.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": u.id, "content": read_file(u.input)} for u in uses],
            }
        )
    raise SystemExit("no answer after 4 model calls")


def main():
    kind, base = sys.argv[1], sys.argv[2].rstrip("/")
    global HOLD
    stream = "--stream" in sys.argv[3:]
    if "--hold" in sys.argv[3:]:
        HOLD = sys.argv[sys.argv.index("--hold") + 1]
    loop = {"chat": chat, "responses": responses, "anthropic": anthropic_loop}[kind]
    answer = loop(base, stream)
    hold("end")
    print(answer)


if __name__ == "__main__":
    main()
