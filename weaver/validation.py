"""Every rule a message, task, space name or knob must satisfy, in one place, checked before any write.

The library (``ContextWeaver.ingest_many``, ``set_task``, ``query``, ``Runtime.open``) and the
CLI's file reader call the same functions, so a file is refused whole, line by line, for
exactly the rules ingest would enforce later: a bad line can never surface after earlier
lines were committed. Each failure is a :class:`WeaverError` with a one-line message.

>>> prepare_message(Message(" 5000\\x00 yuan ", meta={"turn": 3})).content
'5000 yuan'
>>> check_turn(True)
Traceback (most recent call last):
...
weaver.models.WeaverError: meta.turn must be an integer from 0 to 1,000,000, not True
"""

from __future__ import annotations

import math
import numbers
import re

from .models import NODE_KINDS, Message, WeaverError, check_dependencies, new_id
from .text import clean_text

__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_TASK_CHARS",
    "MAX_TURN",
    "MAX_META_DEPTH",
    "MAX_META_CHARS",
    "MAX_ID_CHARS",
    "MAX_SPACE_CHARS",
    "prepare_message",
    "prepare_messages",
    "check_query",
    "check_turn",
    "check_meta",
    "check_message_id",
    "check_task",
    "check_budget",
    "check_space_name",
    "check_prefix",
]

MAX_MESSAGE_CHARS = 1_000_000  # longer messages are refused (docs/reliability.md)
MAX_TASK_CHARS = 20_000  # a task is a focus, not a document: the studio's box takes 2,000
MAX_TURN = 1_000_000  # a turn counter beyond this is a bug upstream, and would poison the space's counter
MAX_META_DEPTH = 32  # meta is stored as JSON: deeper nesting is refused before json.dumps recurses
MAX_META_CHARS = 1_000_000
MAX_ID_CHARS = 256
MAX_SPACE_CHARS = 200

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _describe(v) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def check_turn(turn) -> int:
    """An explicit turn number: a real integer (not bool, float, str or list) within 0..MAX_TURN."""
    if isinstance(turn, bool) or not isinstance(turn, numbers.Integral) or not 0 <= int(turn) <= MAX_TURN:
        raise WeaverError(f"meta.turn must be an integer from 0 to {MAX_TURN:,}, not {_describe(turn)}")
    return int(turn)


def _clean_json(value, where: str = "meta", depth: int = 0):
    """A JSON-storable copy of ``value``: strings lose lone surrogates (as content does); NaN/inf refused."""
    if depth > MAX_META_DEPTH:
        raise WeaverError(f"meta is nested more than {MAX_META_DEPTH} levels deep")
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, bool) or value is None or isinstance(value, numbers.Integral):
        return value
    if isinstance(value, numbers.Real):
        if not math.isfinite(value):
            raise WeaverError(f"{where} holds a non-finite number ({value!r})")
        return float(value)
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise WeaverError(f"meta keys must be strings, not {_describe(k)}")
            key = _SURROGATE.sub("\ufffd", k)
            out[key] = _clean_json(v, f"{where}.{key}", depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [_clean_json(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
    raise WeaverError(f"{where} must be JSON (a string, number, list or object), not {type(value).__name__}")


def check_meta(meta, kind: str = "user_input") -> dict:
    """A cleaned copy of a message's meta, or WeaverError naming the first problem."""
    if not isinstance(meta, dict):
        raise WeaverError("meta must be an object")
    out = _clean_json(meta)
    if len(repr(out)) > MAX_META_CHARS:
        raise WeaverError(f"meta is larger than {MAX_META_CHARS:,} characters")
    if "turn" in out:
        out["turn"] = check_turn(out["turn"])
    if "summary" in out and not isinstance(out["summary"], str):
        raise WeaverError(f"meta.summary must be a string, not {type(out['summary']).__name__}")
    if "tool" in out and not isinstance(out["tool"], str):
        raise WeaverError(f"meta.tool must be a string, not {type(out['tool']).__name__}")
    return out


def check_message_id(mid) -> str | None:
    """A message id: None (one is generated) or a printable string of up to MAX_ID_CHARS characters."""
    if mid is None or mid == "":
        return None
    if not isinstance(mid, str):
        raise WeaverError(f"a message id must be a string, not {type(mid).__name__}")
    if len(mid) > MAX_ID_CHARS:
        raise WeaverError(f"a message id is limited to {MAX_ID_CHARS} characters (got {len(mid):,})")
    if _SURROGATE.search(mid):
        raise WeaverError(f"message id {_describe(mid)} holds a lone surrogate (not valid Unicode)")
    if _CONTROL.search(mid):
        raise WeaverError(f"message id {_describe(mid)} holds a control character")
    if not mid.strip():
        raise WeaverError("a message id must not be blank")
    return mid


def prepare_message(msg: Message) -> Message:
    """A validated, cleaned copy of ``msg`` (with an id), or WeaverError naming the first problem."""
    if not isinstance(msg.kind, str) or msg.kind not in NODE_KINDS:
        raise WeaverError(f"unknown kind {_describe(msg.kind)}: expected one of {', '.join(NODE_KINDS)}")
    if not isinstance(msg.content, str):
        raise WeaverError("content must be a string")
    if len(msg.content) > MAX_MESSAGE_CHARS:
        raise WeaverError(f"message is {len(msg.content):,} characters; the limit is {MAX_MESSAGE_CHARS:,}")
    mid = check_message_id(msg.message_id)
    meta = check_meta(msg.meta, msg.kind)
    ts = msg.timestamp
    if ts is not None and (isinstance(ts, bool) or not isinstance(ts, numbers.Real) or not math.isfinite(ts) or ts < 0):
        raise WeaverError(f"timestamp must be a finite number of seconds, not {_describe(ts)}")
    content = clean_text(msg.content)
    if not content:
        raise WeaverError("message is empty")
    deps = check_dependencies(msg.depends_on)
    return Message(content, msg.kind, meta, mid or new_id("msg"), None if ts is None else float(ts), deps)


def prepare_messages(messages) -> list[Message]:
    """Every message of a batch validated and cleaned (``prepare_message``), or WeaverError before any write:
    a batch is an iterable of :class:`Message` (a dict, a string or None in it names its position)."""
    if isinstance(messages, (str, bytes, dict, Message)) or not hasattr(messages, "__iter__"):
        raise WeaverError(f"ingest_many takes a list of Message objects, not {type(messages).__name__}")
    out = []
    for i, msg in enumerate(messages):
        if not isinstance(msg, Message):
            raise WeaverError(f"message {i} of the batch is a {type(msg).__name__}, not a Message")
        out.append(prepare_message(msg))
    return out


def check_query(text):
    """A query is a string (None reads as empty: refused where it is cleaned); anything else is refused here,
    before the embedder or the segmenter sees it."""
    if text is not None and not isinstance(text, str):
        raise WeaverError(f"the query must be a string, not {type(text).__name__}")
    return text


def check_task(text) -> str:
    """The cleaned task text, or WeaverError (not a string, empty after cleaning, too long)."""
    if not isinstance(text, str):
        raise WeaverError(f"the task must be a string, not {type(text).__name__}")
    if len(text) > MAX_TASK_CHARS:
        raise WeaverError(f"the task is {len(text):,} characters; the limit is {MAX_TASK_CHARS:,}")
    text = clean_text(text)
    if not text:
        raise WeaverError("the task text is empty")
    return text


def check_budget(budget) -> int | None:
    """A token budget: None (the configured default) or a positive integer."""
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, numbers.Integral) or budget <= 0:
        raise WeaverError(f"the token budget must be a positive integer, not {_describe(budget)}")
    return int(budget)


def check_space_name(name) -> str:
    """A usable space name: a string with visible text, no control characters or lone surrogates."""
    if not isinstance(name, str) or not name.strip():
        raise WeaverError("a space needs a non-empty name")
    if len(name) > MAX_SPACE_CHARS:
        raise WeaverError(f"space names are limited to {MAX_SPACE_CHARS} characters")
    if _CONTROL.search(name):
        raise WeaverError(f"space name {_describe(name)} holds a control character")
    if _SURROGATE.search(name):
        raise WeaverError(f"space name {_describe(name)} holds a lone surrogate (not valid Unicode)")
    return name


def check_prefix(prefix, what: str = "id") -> str:
    """An id prefix typed by a person: non-empty after trimming (``""`` would prefix every id)."""
    if not isinstance(prefix, str) or not prefix.strip():
        raise WeaverError(f"an empty {what} matches everything: give the {what} or a prefix of it")
    return prefix.strip()
