#!/usr/bin/env python3
"""Writes the recorded-body fixtures (issue 32, item 4): request bodies as
providers' clients send them, with what the simulator once redrew away.

Written by hand for agent-loop-sim from the providers' documented shapes
(Anthropic Messages: `thinking` with `signature`, `image` with a base64
`source`, the `web_search_20250305` server tool, `server_tool_use` and
`web_search_tool_result` blocks; OpenAI Responses: `reasoning` items with
`encrypted_content`, the `web_search` tool and `web_search_call` items).
No real run, no personal data; ids and encrypted texts are made up.
The PNG is a 1x1 pixel made here. Run from this folder: python3 make_recorded.py
"""
import base64
import json
import struct
import zlib


def png_1x1():
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x80\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def line(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


PNG = base64.b64encode(png_1x1()).decode()

# (a) Anthropic Messages: one request and its response per line.
tools = [
    {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
    {
        "name": "read_file",
        "description": "Read a file of the workspace.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        },
    },
]
task = {
    "role": "user",
    "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        {"type": "text", "text": "This is the error badge from our dashboard. Which timeout does config.txt set, and what does the web say the default is?"},
    ],
}
search_results = [
    {
        "type": "web_search_result",
        "url": f"https://example.com/docs/timeouts-{i}",
        "title": f"Timeouts, part {i}",
        "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1jZjA3LTQ2ZDktOWJjNC0yZDE0YmU4ZmFmZTUSDA" * 8,
        "page_age": "April 30, 2025",
    }
    for i in range(1, 4)
]
reply1 = {
    "role": "assistant",
    "content": [
        {
            "type": "thinking",
            "thinking": "The user wants the timeout from config.txt and the documented default. I should search the web for the default and read the file.",
            "signature": "ErUBCkYIAxgCIkDr4c8sFJ0dlB0r7zK2Z4o6Y8wq3m5n7p9r1t3v5x7z9B1D3F5H7J9L1N3P5R7T9V1X3Z5b7d9f1h3j5l7EgxKb1c2d3e4f5g6h7i8j9k0",
        },
        {
            "type": "server_tool_use",
            "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
            "name": "web_search",
            "input": {"query": "default request timeout config.txt"},
        },
        {
            "type": "web_search_tool_result",
            "tool_use_id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
            "content": search_results,
        },
        {"type": "text", "text": "The default is 60 seconds. Now the file."},
        {
            "type": "tool_use",
            "id": "toolu_01A09q90qw90lq917835lq9",
            "name": "read_file",
            "input": {"path": "config.txt"},
        },
    ],
}
result = {
    "role": "user",
    "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": "timeout=30"}
    ],
}
common = {
    "model": "claude-haiku-4-5",
    "max_tokens": 4096,
    "thinking": {"type": "enabled", "budget_tokens": 2048},
    "tool_choice": {"type": "auto"},
    "system": "You answer questions about the workspace.",
    "tools": tools,
    "metadata": {"user_id": "fixture"},
    "x_client_trace": {"sdk": "anthropic-python", "retry": 0},
}
request1 = {**common, "messages": [task]}
response1 = {
    "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
    "type": "message",
    "role": "assistant",
    "model": "claude-haiku-4-5-20251001",
    "content": reply1["content"],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 1503, "output_tokens": 212, "server_tool_use": {"web_search_requests": 1}},
}
request2 = {**common, "messages": [task, reply1, result]}
response2 = {
    "id": "msg_01Aq9w938a90dw8q",
    "type": "message",
    "role": "assistant",
    "model": "claude-haiku-4-5-20251001",
    "content": [{"type": "text", "text": "config.txt sets timeout=30; the documented default is 60 seconds."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 2210, "output_tokens": 24},
}
with open("anthropic-recorded.jsonl", "w") as f:
    f.write(line({"request": request1, "response": response1}) + "\n")
    f.write(line({"request": request2, "response": response2}) + "\n")

# (b) A tap recording of an SDK client (the openai Python SDK's Responses
# call, streamed), as `agent-loop-sim tap` writes it: one line per call.
sdk_tools = [
    {
        "type": "function",
        "name": "read_file",
        "description": "Read a file of the workspace.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
            "additionalProperties": False,
        },
        "strict": True,
    }
]
settings = {
    "model": "gpt-5",
    "instructions": "You answer questions about the workspace.",
    "tools": sdk_tools,
    "tool_choice": "auto",
    "parallel_tool_calls": False,
    "reasoning": {"effort": "low", "summary": "auto"},
    "store": False,
    "stream": True,
    "include": ["reasoning.encrypted_content"],
    "prompt_cache_key": "fixture-sdk-1",
}
user = {"role": "user", "content": [{"type": "input_text", "text": "What is the timeout in config.txt?"}]}
reasoning = {
    "type": "reasoning",
    "id": "rs_68b1f0a2c3d48190a1b2c3d4e5f60718",
    "summary": [{"type": "summary_text", "text": "**Reading the config**\n\nThe answer is in config.txt; read it."}],
    "encrypted_content": "gAAAAABosfCi" + "Zm9vYmFyYmF6cXV4" * 40,
}
call = {
    "type": "function_call",
    "id": "fc_68b1f0a3d4e58190b2c3d4e5f6071829",
    "call_id": "call_Qm3vXw1ZbYx2K9pLr7TnA4sD",
    "name": "read_file",
    "arguments": "{\"path\":\"config.txt\"}",
    "status": "completed",
}
output = {"type": "function_call_output", "call_id": "call_Qm3vXw1ZbYx2K9pLr7TnA4sD", "output": "timeout=30"}
answer = {
    "type": "message",
    "id": "msg_68b1f0a5e6f78190c3d4e5f607182930",
    "status": "completed",
    "role": "assistant",
    "content": [{"type": "output_text", "text": "The timeout is 30 (seconds).", "annotations": []}],
}


def response(n, items, tokens):
    return {
        "id": f"resp_68b1f0a{n}",
        "object": "response",
        "created_at": 1756491938 + n,
        "status": "completed",
        "model": "gpt-5-2025-08-07",
        "output": items,
        "usage": {"input_tokens": tokens[0], "output_tokens": tokens[1], "total_tokens": sum(tokens)},
    }


with open("tap-sdk-gpt5.jsonl", "w") as f:
    calls = [
        ({**settings, "input": [user]}, response(1, [reasoning, call], (96, 180))),
        ({**settings, "input": [user, reasoning, call, output]}, response(2, [answer], (402, 12))),
    ]
    for n, (request, resp) in enumerate(calls):
        start = 1756491938000 + n * 4000
        f.write(line({
            "provider": "responses",
            "request": request,
            "response": resp,
            "timing": {"start_ms": start, "first_byte_ms": start + 610, "end_ms": start + 1990},
            "status": 200,
            "stream": True,
            "path": "/v1/responses",
        }) + "\n")

# (c) A Responses request body: a reasoning item and a server tool's call
# in its history, the `web_search` tool beside a function.
body = {
    "model": "gpt-4o",
    "instructions": "You answer questions about the workspace.",
    "tools": [{"type": "web_search"}, sdk_tools[0]],
    "max_output_tokens": 4096,
    "input": [
        {"role": "user", "content": [
            {"type": "input_text", "text": "What does the web say the default timeout is, and what does config.txt set?"},
            {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "low"},
        ]},
        {**reasoning, "summary": [{"type": "summary_text", "text": "Search first, then read the file."}]},
        {"type": "web_search_call", "id": "ws_68b1f0b1a2b38190", "status": "completed",
         "action": {"type": "search", "query": "default request timeout"}},
        call,
        output,
    ],
}
with open("responses-recorded.json", "w") as f:
    f.write(json.dumps(body, ensure_ascii=False, indent=2) + "\n")
