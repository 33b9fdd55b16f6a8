"""OpenAI-compatible reasoning backend with validation, retries and a rules fallback.

Works with any endpoint that speaks chat-completions (OpenAI, Ollama, vLLM, LM
Studio, llama.cpp server). Transport retries with exponential backoff (429,
5xx, connection errors, timeouts) are the `openai` SDK's own (``max_retries``);
a reply that is not valid JSON for the schema is asked for once more, then the
rules backend answers and the fallback is recorded on the decision.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from ..models import RELATIONS
from ..prompts import (
    FilterScores,
    RelationReply,
    ToolSummary,
    filter_messages,
    relation_messages,
    tool_summary_messages,
)
from .base import Completion, Correction, Judgement, RelateRequest, RelateResult, ScoreRequest, ScoreResult
from .rules import RulesReasoner

__all__ = ["OpenAIReasoner", "ReplyError", "parse_reply", "extract_json", "make_client", "describe_error"]


class ReplyError(ValueError):
    """The model's reply could not be turned into the expected schema."""


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


_OBJECT_START = re.compile(r'\{[ \t\n\r]*["}]')


def extract_json(text: str | None) -> Any:
    """The first JSON object in a reply: bare, fenced, or wrapped in prose.

    >>> extract_json('Sure! ```json\\n{"a": 1}\\n``` hope it helps')
    {'a': 1}
    >>> extract_json('Result: {"a": {"b": 2}} done')
    {'a': {'b': 2}}
    """
    if not text or not text.strip():
        raise ReplyError("empty reply")
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for cand in candidates:
        # only a "{" that can open an object (JSON whitespace, then a key or "}"): every other start fails, and
        # each failure costs a scan back to the line start, so 200,000 "{" took 14 s
        for start in (m.start() for m in _OBJECT_START.finditer(cand)):
            try:
                obj, _ = decoder.raw_decode(cand, start)
            except ValueError:
                continue
            if isinstance(obj, dict):
                return obj
    raise ReplyError(f"no JSON object in reply: {text[:80]!r}")


def parse_reply(text: str | None, schema: type[BaseModel]) -> BaseModel:
    """Extract and validate; raises :class:`ReplyError` with a readable reason."""
    try:
        obj = extract_json(text)
    except RecursionError as exc:  # absurdly deep nesting
        raise ReplyError("reply nests too deeply") from exc
    try:
        return schema.model_validate(obj)
    except ValidationError as exc:
        raise ReplyError(f"reply does not fit {schema.__name__}: {exc.errors()[0]['msg']}") from exc
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:  # a validator's own failure
        raise ReplyError(f"reply does not fit {schema.__name__}: {type(exc).__name__}") from exc


_KEYLIKE = re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}|(?<=Bearer )\S+")  # OpenAI-style keys, bearer tokens


def describe_error(exc: BaseException, secret: str | None = None, limit: int = 160) -> str:
    """``"Type: message"`` safe to store and show: an endpoint that echoes the API key gets it redacted.

    >>> describe_error(ValueError("Incorrect API key provided: sk-abc123456789"), "sk-abc123456789")
    'ValueError: Incorrect API key provided: ***'
    """
    text = str(exc)
    if secret and secret != "not-needed":
        text = text.replace(secret, "***")
    text = _KEYLIKE.sub("***", text)
    return f"{type(exc).__name__}: {text[:limit]}"


def make_client(settings) -> Any:
    """The `openai` client for the settings (only call when an endpoint is configured)."""
    from openai import OpenAI

    return OpenAI(
        api_key=settings.openai_api_key or "not-needed",  # local servers ignore the key
        base_url=settings.openai_base_url or None,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
    )


class OpenAIReasoner:
    name = "openai"
    kind = "llm"

    def __init__(self, client: Any, model: str, fallback: RulesReasoner | None = None, schema_retries: int = 1):
        self.client = client
        self.model = model
        self.fallback = fallback or RulesReasoner()
        self.schema_retries = schema_retries

    # one chat call -> validated model, counting calls and tokens
    def _ask(self, messages: list[dict], schema: type[BaseModel]) -> tuple[BaseModel, int, int]:
        calls = tokens = 0
        last: Exception | None = None
        for _ in range(1 + self.schema_retries):
            resp = self.client.chat.completions.create(
                model=self.model, messages=messages, temperature=0, response_format={"type": "json_object"}
            )
            calls += 1
            if resp.usage is not None:
                tokens += int(resp.usage.total_tokens or 0)
            text = resp.choices[0].message.content if resp.choices else None
            try:
                return parse_reply(text, schema), calls, tokens
            except ReplyError as exc:
                last = exc
        raise _Failed(str(last), calls, tokens)

    def complete(self, messages: list[dict], schema: type[BaseModel]) -> Completion:
        """The one LLM call every task makes (:class:`~weaver.backends.base.Completer`): never raises; a failed
        call has ``parsed`` None and the reason in ``error`` (the API key redacted)."""
        try:
            parsed, calls, tokens = self._ask(messages, schema)
            return Completion(parsed, self.name, self.model, calls, tokens)
        except _Failed as exc:
            return Completion(None, self.name, self.model, exc.calls, exc.tokens, f"invalid reply: {exc}")
        except Exception as exc:  # transport errors after the SDK's retries: fall back, never crash
            error = describe_error(exc, getattr(self.client, "api_key", None))
            return Completion(None, self.name, self.model, 1, 0, error)

    def score(self, req: ScoreRequest) -> ScoreResult:
        msgs = filter_messages(req.task, req.content, req.kind, [req.nearest_content] if req.nearest_content else [])
        c = self.complete(msgs, FilterScores)
        parsed, calls, tokens, error = c.parsed, c.calls, c.tokens, c.error
        if parsed is None:
            res = self.fallback.score(req)
            res.llm_calls, res.llm_tokens, res.fallback = calls, tokens, error
            res.backend = "rules (fallback)"
            return res
        return ScoreResult(
            parsed.relevance, parsed.novelty, parsed.importance, parsed.reason or "llm", self.name, calls, tokens
        )

    def relate(self, req: RelateRequest, corrections: list[Correction] | None = None) -> RelateResult:
        if not req.candidates:
            return RelateResult([], self.name)
        # the obvious pairs need no model
        shortcut = self.fallback.relate(
            RelateRequest(req.content, req.kind, req.turn, req.meta, req.candidates), None
        ).judgements
        examples = [
            {
                "earlier": {"kind": c.parent_kind, "text": c.parent_content[:200]},
                "new": {"kind": c.child_kind, "text": c.child_content[:200]},
                "relation": c.relation or "none",
            }
            for c in (corrections or [])
        ]
        msgs = relation_messages(
            {"kind": req.kind, "text": req.content},
            [{"kind": c.kind, "text": c.content} for c in req.candidates],
            examples,
        )
        c = self.complete(msgs, RelationReply)
        parsed, calls, tokens, error = c.parsed, c.calls, c.tokens, c.error
        if parsed is None:
            return RelateResult(shortcut, "rules (fallback)", calls, tokens, error)
        by_label = {f"C{i + 1}": c for i, c in enumerate(req.candidates)}
        judged: dict[str, Judgement] = {}
        for item in parsed.relations:
            cand = by_label.get(item.candidate.strip().upper())
            if cand is None:
                continue
            if not item.known:
                continue  # an unknown relation name is rejected, never stored
            rel = None if item.relation == "none" else item.relation
            if rel is not None and rel not in RELATIONS:
                continue
            judged[cand.id] = Judgement(cand.id, rel, item.confidence, item.rationale or "llm")
        out = []
        for j in shortcut:
            if j.confidence >= 0.95 and j.relation == "temporal" and "tool result" in j.rationale:
                out.append(j)  # the thought -> tool-result rule is certain
            else:
                out.append(judged.get(j.parent_id, Judgement(j.parent_id, None, 0.5, "llm gave no verdict")))
        return RelateResult(out, self.name, calls, tokens)

    def summarize_tool(self, tool: str, output: str) -> tuple[str | None, int, int]:
        c = self.complete(tool_summary_messages(tool, output), ToolSummary)
        return (c.parsed.summary if c.ok else None), c.calls, c.tokens


class _Failed(Exception):
    def __init__(self, msg: str, calls: int, tokens: int):
        super().__init__(msg)
        self.calls, self.tokens = calls, tokens
