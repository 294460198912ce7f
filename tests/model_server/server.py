#!/usr/bin/env python3
"""A scripted model server for tests: answers OpenAI Chat Completions
(`POST /v1/chat/completions`), OpenAI Responses (`POST /v1/responses`),
Anthropic Messages (`POST /v1/messages`, with `/v1/messages/count_tokens`)
and the Gemini API (`POST /v1beta/models/MODEL:generateContent` and
`:streamGenerateContent?alt=sse`) from a script, on 127.0.0.1, in plain HTTP or HTTPS. Python stdlib only.

    server.py SCRIPT.json [--port 0] [--tls CERT KEY] [--log FILE]

It prints `listening on http(s)://127.0.0.1:PORT` on stdout once it accepts
connections, then serves until killed.

The script is a JSON list of replies, used in order by the requests that
carry tools (the agent loop). A request without tools (a title, summary or
quota probe: a side request) gets a short text reply and does not use up the
script. A reply is an object:

    {"text": "…"}                                   a text answer
    {"tool_calls": [{"name": "shell", "arguments": {"command": ["cat", "x"]}}]}
    {"text": "…", "tool_calls": […]}                both, text first
    {"status": 429} / {"status": 500}               an error, in the provider's
                                                    error shape (no script use
                                                    unless "consume": true)
    {"close_after": N, …}                           stream N events, then close
                                                    the connection mid-stream
    {"framing": "close", …}                         a stream framed by closing the
                                                    connection (HTTP/1.0 style: no
                                                    Transfer-Encoding, no length),
                                                    as servers that stream without
                                                    chunked do; a server killed
                                                    mid-stream then looks ended
    {"delay_ms": N, …}                              wait N ms before each event
    {"chunks": N, …}                                split the text into N deltas
    {"side": true, …}                               also match side requests

A reply with a `status` is used once, like any other. When the script is used
up, loop requests get a 500 error saying so (a test that sees it asked for
more model calls than it scripted).

Streams follow each provider's documented events:
- Chat Completions: `chat.completion.chunk` objects as `data:` lines, the
  first with the role, `tool_calls` deltas with `index`, `id` and
  `function.name` first and the arguments in pieces, a last chunk with
  `finish_reason`, then `data: [DONE]`.
- Responses: `event:`/`data:` pairs with `sequence_number`:
  `response.created`, `response.in_progress`, `response.output_item.added`,
  `response.content_part.added`, `response.output_text.delta`/`.done`,
  `response.content_part.done`, `response.function_call_arguments.delta`/
  `.done`, `response.output_item.done`, `response.completed`.
- Anthropic Messages: `message_start`, `content_block_start`, `ping`,
  `content_block_delta` (`text_delta`, `input_json_delta`),
  `content_block_stop`, `message_delta` (stop_reason, usage), `message_stop`.
- Gemini API: `data:` lines of `GenerateContentResponse` objects, the text
  in pieces, then each `functionCall` part whole (the API streams a call in
  one part, and, like the Gemini API, without an `id`), the last chunk with
  `finishReason` and `usageMetadata`. A Gemini request is a side request
  when it declares no `functionDeclarations`.

Every request is appended to the log (one JSON line: method, path, the
headers' names, the body) when `--log` is given, so a test can compare what
the upstream received with what the tap recorded.
"""

import argparse
import json
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Script:
    def __init__(self, replies):
        self.replies = list(replies)
        self.next = 0
        self.lock = threading.Lock()
        self.counter = 0

    def take(self, side):
        with self.lock:
            self.counter += 1
            n = self.counter
            if self.next < len(self.replies):
                reply = self.replies[self.next]
                if not side or reply.get("side"):
                    self.next += 1
                    return n, reply
            if side:
                return n, {"text": "Scripted side reply."}
            return n, {
                "status": 500,
                "message": "the model server's script is used up "
                f"({len(self.replies)} replies)",
            }


def words(text, pieces):
    """The text cut into about `pieces` deltas, at word starts."""
    if not text:
        return []
    pieces = max(1, pieces)
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]


def arg_text(arguments):
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def call_id(n, i):
    return f"call_{n:04d}{i:02d}scripted"


# ---------------------------------------------------------------- Chat


def chat_message(n, reply):
    msg = {"role": "assistant", "content": reply.get("text")}
    calls = reply.get("tool_calls") or []
    if calls:
        msg["tool_calls"] = [
            {
                "id": call_id(n, i),
                "type": "function",
                "function": {"name": c["name"], "arguments": arg_text(c.get("arguments", {}))},
            }
            for i, c in enumerate(calls)
        ]
    return msg, ("tool_calls" if calls else "stop")


def chat_full(n, model, reply):
    msg, finish = chat_message(n, reply)
    return {
        "id": f"chatcmpl-{n:06d}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": msg, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def chat_events(n, model, reply):
    base = {
        "id": f"chatcmpl-{n:06d}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
    }

    def chunk(delta, finish=None):
        return {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    yield None, chunk({"role": "assistant", "content": ""})
    for piece in words(reply.get("text") or "", reply.get("chunks", 3)):
        yield None, chunk({"content": piece})
    calls = reply.get("tool_calls") or []
    for i, c in enumerate(calls):
        yield None, chunk(
            {
                "tool_calls": [
                    {
                        "index": i,
                        "id": call_id(n, i),
                        "type": "function",
                        "function": {"name": c["name"], "arguments": ""},
                    }
                ]
            }
        )
        for piece in words(arg_text(c.get("arguments", {})), 3):
            yield None, chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield None, chunk({}, "tool_calls" if calls else "stop")
    yield None, "[DONE]"


def chat_error(status, message):
    kind = {429: "rate_limit_exceeded", 500: "server_error"}.get(status, "invalid_request_error")
    return {"error": {"message": message, "type": kind, "param": None, "code": kind}}


# ---------------------------------------------------------------- Responses


def responses_items(n, reply, done=True):
    items = []
    text = reply.get("text")
    if text:
        items.append(
            {
                "id": f"msg_{n:06d}",
                "type": "message",
                "status": "completed" if done else "in_progress",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text if done else "", "annotations": []}],
            }
        )
    for i, c in enumerate(reply.get("tool_calls") or []):
        items.append(
            {
                "id": f"fc_{n:06d}{i:02d}",
                "type": "function_call",
                "status": "completed" if done else "in_progress",
                "arguments": arg_text(c.get("arguments", {})) if done else "",
                "call_id": call_id(n, i),
                "name": c["name"],
            }
        )
    return items


def responses_object(n, model, reply, status, output):
    return {
        "id": f"resp_{n:06d}",
        "object": "response",
        "created_at": int(time.time()),
        "status": status,
        "error": None,
        "incomplete_details": None,
        "model": model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": (
            {
                "input_tokens": 10,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": 5,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 15,
            }
            if status == "completed"
            else None
        ),
    }


def responses_full(n, model, reply):
    return responses_object(n, model, reply, "completed", responses_items(n, reply))


def responses_events(n, model, reply):
    seq = iter(range(1_000_000))

    def ev(kind, **fields):
        return kind, {"type": kind, "sequence_number": next(seq), **fields}

    yield ev("response.created", response=responses_object(n, model, reply, "in_progress", []))
    yield ev("response.in_progress", response=responses_object(n, model, reply, "in_progress", []))
    final = responses_items(n, reply)
    for index, (start, item) in enumerate(zip(responses_items(n, reply, done=False), final)):
        yield ev("response.output_item.added", output_index=index, item=start)
        if item["type"] == "message":
            text = item["content"][0]["text"]
            part = {"type": "output_text", "text": "", "annotations": []}
            yield ev("response.content_part.added", item_id=item["id"], output_index=index, content_index=0, part=part)
            for piece in words(text, reply.get("chunks", 3)):
                yield ev(
                    "response.output_text.delta",
                    item_id=item["id"],
                    output_index=index,
                    content_index=0,
                    delta=piece,
                    logprobs=[],
                )
            yield ev(
                "response.output_text.done",
                item_id=item["id"],
                output_index=index,
                content_index=0,
                text=text,
                logprobs=[],
            )
            yield ev(
                "response.content_part.done",
                item_id=item["id"],
                output_index=index,
                content_index=0,
                part=item["content"][0],
            )
        else:
            for piece in words(item["arguments"], 3):
                yield ev("response.function_call_arguments.delta", item_id=item["id"], output_index=index, delta=piece)
            yield ev(
                "response.function_call_arguments.done",
                item_id=item["id"],
                output_index=index,
                arguments=item["arguments"],
            )
        yield ev("response.output_item.done", output_index=index, item=item)
    yield ev("response.completed", response=responses_object(n, model, reply, "completed", final))


# ---------------------------------------------------------------- Anthropic


def anthropic_blocks(n, reply):
    blocks = []
    if reply.get("text"):
        blocks.append({"type": "text", "text": reply["text"]})
    for i, c in enumerate(reply.get("tool_calls") or []):
        args = c.get("arguments", {})
        blocks.append(
            {
                "type": "tool_use",
                "id": f"toolu_{n:04d}{i:02d}scripted",
                "name": c["name"],
                "input": json.loads(args) if isinstance(args, str) else args,
            }
        )
    return blocks


def anthropic_message(n, model, content, stop, output_tokens):
    return {
        "id": f"msg_{n:06d}scripted",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {
            "input_tokens": 10,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": output_tokens,
        },
    }


def anthropic_full(n, model, reply):
    blocks = anthropic_blocks(n, reply)
    stop = "tool_use" if reply.get("tool_calls") else "end_turn"
    return anthropic_message(n, model, blocks, stop, 5)


def anthropic_events(n, model, reply):
    yield "message_start", {"type": "message_start", "message": anthropic_message(n, model, [], None, 1)}
    for index, block in enumerate(anthropic_blocks(n, reply)):
        if block["type"] == "text":
            yield "content_block_start", {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            }
            if index == 0:
                yield "ping", {"type": "ping"}
            for piece in words(block["text"], reply.get("chunks", 3)):
                yield "content_block_delta", {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": piece},
                }
        else:
            yield "content_block_start", {
                "type": "content_block_start",
                "index": index,
                "content_block": {**block, "input": {}},
            }
            for piece in words(json.dumps(block["input"]), 3):
                yield "content_block_delta", {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": piece},
                }
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    stop = "tool_use" if reply.get("tool_calls") else "end_turn"
    yield "message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": stop, "stop_sequence": None},
        "usage": {"output_tokens": 5},
    }
    yield "message_stop", {"type": "message_stop"}


def anthropic_error(status, message):
    kind = {429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}.get(status, "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": message}}


# ---------------------------------------------------------------- Gemini


def gemini_parts(reply):
    parts = []
    if reply.get("text"):
        parts.append({"text": reply["text"]})
    for c in reply.get("tool_calls") or []:
        args = c.get("arguments", {})
        parts.append({"functionCall": {"name": c["name"], "args": json.loads(args) if isinstance(args, str) else args}})
    return parts


def gemini_response(model, parts, finish):
    candidate = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        candidate["finishReason"] = "STOP"
    return {
        "candidates": [candidate],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": model,
    }


def gemini_full(n, model, reply):
    return gemini_response(model, gemini_parts(reply), True)


def gemini_events(n, model, reply):
    pieces = words(reply.get("text") or "", reply.get("chunks", 3))
    calls = [p for p in gemini_parts(reply) if "functionCall" in p]
    for piece in pieces:
        yield None, gemini_response(model, [{"text": piece}], False)
    for part in calls:
        yield None, gemini_response(model, [part], False)
    yield None, gemini_response(model, [{"text": ""}], True)


def gemini_error(status, message):
    kind = {429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}.get(status, "INVALID_ARGUMENT")
    return {"error": {"code": status, "message": message, "status": kind}}


def gemini_kind(path):
    """(model, streamed) for a Gemini API path, else None."""
    if not path.startswith("/v1beta/models/") or ":" not in path:
        return None
    model, method = path[len("/v1beta/models/") :].rsplit(":", 1)
    if method not in ("generateContent", "streamGenerateContent"):
        return None
    return model, method == "streamGenerateContent"


# ---------------------------------------------------------------- HTTP

KINDS = {
    "/v1/chat/completions": (chat_full, chat_events, chat_error),
    "/v1/responses": (responses_full, responses_events, chat_error),
    "/v1/messages": (anthropic_full, anthropic_events, anthropic_error),
}


class Server(ThreadingHTTPServer):
    # 50 concurrent streams in the tests: more than socketserver's 5.
    request_queue_size = 128
    daemon_threads = True


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "scripted-model-server/1"

    def log_message(self, *args):
        pass

    def reply_json(self, status, body, extra=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            out = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return out
                out += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_GET(self):
        path = self.path.split("?")[0]
        self.log(path, None)
        if path.rstrip("/").endswith("/models"):
            self.reply_json(200, {"object": "list", "data": [{"id": "scripted-model", "object": "model"}]})
        else:
            self.reply_json(404, {"error": {"message": f"no such path {path}", "type": "not_found"}})

    def log(self, path, body):
        log = self.server.log
        if log is None:
            return
        line = {
            "method": self.command,
            "path": path,
            "headers": sorted(k.lower() for k in self.headers.keys()),
            "body": body,
        }
        with self.server.log_lock:
            log.write(json.dumps(line) + "\n")
            log.flush()

    def do_POST(self):
        path = self.path.split("?")[0]
        raw = self.read_body()
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self.log(path, raw.decode("utf-8", "replace"))
            self.reply_json(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
            return
        self.log(path, body)
        if path == "/v1/messages/count_tokens":
            self.reply_json(200, {"input_tokens": max(1, len(raw) // 4)})
            return
        gemini = gemini_kind(path)
        if gemini is not None:
            full, events, error = gemini_full, gemini_events, gemini_error
            model, stream = gemini
            side = not any(t.get("functionDeclarations") for t in body.get("tools") or [])
        elif path in KINDS:
            full, events, error = KINDS[path]
            model, stream = body.get("model", "scripted-model"), bool(body.get("stream"))
            side = not body.get("tools")
        else:
            self.reply_json(404, {"error": {"message": f"no such path {path}", "type": "not_found"}})
            return
        n, reply = self.server.script.take(side)
        delay = reply.get("delay_ms", 0) / 1000
        if delay and not stream:
            time.sleep(delay)
        if "status" in reply:
            status = reply["status"]
            extra = [("Retry-After", "0")] if status == 429 else []
            self.reply_json(status, error(status, reply.get("message", f"scripted {status}")), extra)
            return
        if not stream:
            self.reply_json(200, full(n, model, reply))
            return
        chunked = reply.get("framing", "chunked") == "chunked"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        close_after = reply.get("close_after")
        for i, (name, data) in enumerate(events(n, model, reply)):
            if close_after is not None and i >= close_after:
                self.wfile.flush()
                # Abrupt: no last chunk, the connection just ends.
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return
            if delay:
                time.sleep(delay)
            text = data if isinstance(data, str) else json.dumps(data)
            frame = (f"event: {name}\n" if name else "") + f"data: {text}\n\n"
            payload = frame.encode()
            if chunked:
                payload = b"%x\r\n%s\r\n" % (len(payload), payload)
            self.wfile.write(payload)
            self.wfile.flush()
        if chunked:
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("script")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--log")
    args = ap.parse_args()
    with open(args.script, encoding="utf-8") as f:
        replies = json.load(f)
    server = Server(("127.0.0.1", args.port), Handler)
    server.script = Script(replies)
    server.log = open(args.log, "a", encoding="utf-8") if args.log else None
    server.log_lock = threading.Lock()
    scheme = "http"
    if args.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(*args.tls)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    print(f"listening on {scheme}://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
