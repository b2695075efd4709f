"""A scripted fake model server on 127.0.0.1 and the wire formats it speaks (never the internet).

Each test scripts the server's replies in order — JSON bodies, error statuses,
truncated bodies, stalls, SSE streams with gaps between events — and then reads
back what the provider actually sent. Stalls wait on an event that teardown sets,
so a test never leaves a handler thread sleeping.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Optional, Union


@dataclass
class Reply:
    """A whole response: ``body`` is JSON-encoded unless it is already bytes/str."""

    status: int = 200
    body: Any = None
    delay: float = 0.0
    content_type: str = "application/json"


@dataclass
class Truncated:
    """Promise ``declared`` bytes, send only ``data``, then close the connection."""

    data: bytes
    declared: int = 10_000


@dataclass
class Stream:
    """Server-sent events: each chunk is written and flushed, ``gap`` seconds apart (after ``first_delay``)."""

    chunks: list[str]
    gap: float = 0.0
    first_delay: float = 0.0


Action = Union[Reply, Truncated, Stream]


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FakeServer:
    """The scripted server; ``url`` is its root, ``requests`` what it received."""

    script: list[Action] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    url: str = ""
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def then(self, *actions: Action) -> FakeServer:
        self.script.extend(actions)
        return self

    def next_action(self) -> Action:
        with self.lock:
            if self.script:
                return self.script.pop(0)
        return Reply(500, {"error": {"message": "fake server script exhausted"}})

    def bodies(self) -> list[Any]:
        return [r.body for r in self.requests]


def make_handler(server: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            try:
                body: Any = json.loads(raw)
            except ValueError:
                body = raw
            with server.lock:
                server.requests.append(Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            action = server.next_action()
            try:
                if isinstance(action, Reply):
                    self._reply(action)
                elif isinstance(action, Truncated):
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(action.declared))
                    self.end_headers()
                    self.wfile.write(action.data)
                    self.wfile.flush()
                    self.close_connection = True
                else:
                    self._stream(action)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        def _reply(self, action: Reply) -> None:
            if action.delay and server.stop.wait(action.delay):
                return
            data = action.body if isinstance(action.body, bytes) else (
                action.body.encode() if isinstance(action.body, str) else json.dumps(action.body).encode())
            self.send_response(action.status)
            self.send_header("Content-Type", action.content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, action: Stream) -> None:
            if action.first_delay and server.stop.wait(action.first_delay):
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()
            for i, chunk in enumerate(action.chunks):
                if i and action.gap and server.stop.wait(action.gap):
                    return
                self.wfile.write(chunk.encode())
                self.wfile.flush()
            self.close_connection = True

    return Handler


# -- wire-format builders ------------------------------------------------------------------------


def sse(data: Any, event: Optional[str] = None) -> str:
    """One server-sent event (``data`` JSON-encoded unless it is a str)."""
    payload = data if isinstance(data, str) else json.dumps(data)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n"


def chat_body(text: Optional[str], *, prompt_tokens: int = 10, completion_tokens: int = 5,
              cached_tokens: int = 0) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens,
                  "prompt_tokens_details": {"cached_tokens": cached_tokens}},
    }


def chat_stream(pieces: list[str], *, finish: bool = True, usage: bool = True) -> list[str]:
    def chunk(delta: dict[str, Any], finish_reason: Optional[str] = None) -> dict[str, Any]:
        return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

    out = [sse(chunk({"role": "assistant", "content": ""}))]
    out += [sse(chunk({"content": p})) for p in pieces]
    if finish:
        out.append(sse(chunk({}, "stop")))
        if usage:
            out.append(sse({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                            "choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 3,
                                                     "total_tokens": 10}}))
        out.append("data: [DONE]\n\n")
    return out


def responses_body(text: str, *, status: str = "completed", tool_input: Optional[str] = None) -> dict[str, Any]:
    output: list[dict[str, Any]] = [{
        "type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}]}]
    if tool_input is not None:
        output = [{"type": "custom_tool_call", "id": "ct_1", "call_id": "call_1", "name": "spell_suffix",
                   "input": tool_input}]
    return {"id": "resp_1", "object": "response", "created_at": 1, "model": "m", "status": status,
            "output": output,
            "usage": {"input_tokens": 20, "output_tokens": 8, "total_tokens": 28,
                      "input_tokens_details": {"cached_tokens": 4},
                      "output_tokens_details": {"reasoning_tokens": 2}}}


def responses_stream(text: str) -> list[str]:
    final = responses_body(text)
    return [
        sse({"type": "response.created", "sequence_number": 0, "response": {**final, "status": "in_progress",
                                                                             "output": []}},
            "response.created"),
        sse({"type": "response.output_text.delta", "sequence_number": 1, "item_id": "msg_1", "output_index": 0,
             "content_index": 0, "delta": text, "logprobs": []}, "response.output_text.delta"),
        sse({"type": "response.completed", "sequence_number": 2, "response": final}, "response.completed"),
    ]


def message_body(text: str, *, input_tokens: int = 12, output_tokens: int = 6, cache_read: int = 0,
                 cache_write: int = 0, tool_suffix: Optional[str] = None) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    if tool_suffix is not None:
        content = [{"type": "tool_use", "id": "toolu_1", "name": "spell_suffix", "input": {"suffix": tool_suffix}}]
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": content,
            "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens,
                      "cache_read_input_tokens": cache_read, "cache_creation_input_tokens": cache_write}}


def message_stream(pieces: list[str], *, stop: bool = True, thinking: bool = False) -> list[str]:
    start = {"type": "message_start",
             "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": [],
                         "stop_reason": None, "stop_sequence": None,
                         "usage": {"input_tokens": 30, "output_tokens": 1, "cache_read_input_tokens": 5,
                                   "cache_creation_input_tokens": 0}}}
    out = [sse(start, "message_start"), sse({"type": "ping"}, "ping")]
    index = 0
    if thinking:
        out.append(sse({"type": "content_block_start", "index": 0,
                        "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
                       "content_block_start"))
        out.append(sse({"type": "content_block_delta", "index": 0,
                        "delta": {"type": "thinking_delta", "thinking": "hmm"}}, "content_block_delta"))
        out.append(sse({"type": "content_block_stop", "index": 0}, "content_block_stop"))
        index = 1
    out.append(sse({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
                   "content_block_start"))
    out += [sse({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": p}},
                "content_block_delta") for p in pieces]
    if stop:
        out.append(sse({"type": "content_block_stop", "index": index}, "content_block_stop"))
        out.append(sse({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                        "usage": {"output_tokens": 9}}, "message_delta"))
        out.append(sse({"type": "message_stop"}, "message_stop"))
    return out


def tool_stream(json_pieces: list[str]) -> list[str]:
    start = {"type": "message_start",
             "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": [],
                         "stop_reason": None, "stop_sequence": None,
                         "usage": {"input_tokens": 30, "output_tokens": 1}}}
    out = [sse(start, "message_start"),
           sse({"type": "content_block_start", "index": 0,
                "content_block": {"type": "tool_use", "id": "toolu_1", "name": "spell_suffix", "input": {}}},
               "content_block_start")]
    out += [sse({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
                                                                      "partial_json": p}},
                "content_block_delta") for p in json_pieces]
    out += [sse({"type": "content_block_stop", "index": 0}, "content_block_stop"),
            sse({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                 "usage": {"output_tokens": 4}}, "message_delta"),
            sse({"type": "message_stop"}, "message_stop")]
    return out
