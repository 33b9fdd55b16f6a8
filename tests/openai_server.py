"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions and embeddings protocol.

Tests script its replies; the code under test talks to it through the real
``openai`` SDK. Each scripted reply is one of:

- a string: the assistant message content;
- ``{"status": 429}`` / ``{"status": 500}``: an HTTP error with an OpenAI-style body;
- ``{"delay": seconds, "content": ...}``: a slow reply;
- ``{"tool_calls": [{"name": ..., "arguments": {...}}], "content": None}``: function calling;
- a callable ``(request_json) -> any of the above``: computed from the request.

When the script runs out, ``default`` (a reply or callable) answers. Every
request is recorded in ``server.requests`` (path and JSON body).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

import numpy as np

Reply = Any


class OpenAIStub:
    def __init__(self, default: Reply = '{"relevance": 3, "novelty": 3, "importance": 3, "reason": "default"}'):
        self.script: deque[Reply] = deque()
        self.default = default
        self.requests: list[dict] = []
        self.embedding_dim = 64
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with stub._lock:
                    stub.requests.append({"path": self.path, "body": body})
                if self.path.endswith("/embeddings"):
                    return self._send(200, stub._embeddings(body))
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "not found"}})
                with stub._lock:
                    reply = stub.script.popleft() if stub.script else stub.default
                if callable(reply):
                    reply = reply(body)
                if isinstance(reply, dict) and "status" in reply:
                    return self._send(
                        reply["status"],
                        {"error": {"message": reply.get("message", "scripted error"), "type": "server_error"}},
                        {"retry-after-ms": "10"},
                    )
                if isinstance(reply, dict) and reply.get("delay"):
                    time.sleep(reply["delay"])
                return self._send(200, stub._completion(body, reply))

            def do_GET(self):
                if self.path.endswith("/models"):
                    return self._send(200, {"object": "list", "data": [{"id": "stub-model", "object": "model"}]})
                self._send(404, {"error": {"message": "not found"}})

            def _send(self, status: int, obj: dict, headers: dict | None = None):
                data = json.dumps(obj).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    # ----------------------------------------------------------------- API
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def start(self) -> "OpenAIStub":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self.script.extend(replies)

    def chat_requests(self) -> list[dict]:
        return [r["body"] for r in self.requests if r["path"].endswith("/chat/completions")]

    # ------------------------------------------------------------- helpers
    def _completion(self, body: dict, reply: Reply) -> dict:
        message: dict = {"role": "assistant", "content": None}
        finish = "stop"
        if isinstance(reply, dict) and "tool_calls" in reply:
            message["content"] = reply.get("content")
            message["tool_calls"] = [
                {
                    "id": f"call_{i}_{int(time.time() * 1000) % 100000}",
                    "type": "function",
                    "function": {
                        "name": c["name"],
                        "arguments": json.dumps(c.get("arguments", {}), ensure_ascii=False),
                    },
                }
                for i, c in enumerate(reply["tool_calls"])
            ]
            finish = "tool_calls"
        elif isinstance(reply, dict):
            message["content"] = reply.get("content")
        else:
            message["content"] = reply
        prompt_tokens = sum(len(str(m.get("content") or "")) // 4 for m in body.get("messages", []))
        completion_tokens = len(str(message.get("content") or "")) // 4 + 1
        return {
            "id": "chatcmpl-stub",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "stub-model"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _embeddings(self, body: dict) -> dict:
        inputs = body.get("input")
        inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
        data = []
        for i, text in enumerate(inputs):
            # deterministic bag-of-characters vector: similar texts get similar vectors
            v = np.zeros(self.embedding_dim, dtype=np.float32)
            for ch in str(text):
                v[int(hashlib.md5(ch.encode()).hexdigest(), 16) % self.embedding_dim] += 1.0
            v /= np.linalg.norm(v) or 1.0
            data.append({"object": "embedding", "index": i, "embedding": v.tolist()})
        return {
            "object": "list",
            "data": data,
            "model": body.get("model"),
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }


def start_stub(default: Reply | Callable | None = None) -> OpenAIStub:
    return (OpenAIStub(default) if default is not None else OpenAIStub()).start()
