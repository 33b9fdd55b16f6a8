"""``python -m weaver ingest FILE``: read and validate a JSON Lines file whole, then ingest it batch by batch.

Each write section's messages are printed (acknowledged) once they are stored; Ctrl-C stops between sections
and says how many were acknowledged, so a second run of the same file (ids are stable) adds just the rest.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sys
import threading
from pathlib import Path

from .ingest import WRITE_BATCH
from .models import Message, WeaverError
from .validation import check_task, prepare_message

__all__ = ["LINE_KEYS", "cmd_ingest", "decode_line", "read_jsonl"]

LINE_KEYS = ("kind", "content", "meta", "id")  # an ingest line; or {"task": ...} alone


def decode_line(raw: bytes | str) -> str:
    r"""A line of input as text, or a one-line :class:`WeaverError` naming the first byte that is not UTF-8.

    ``raw``: bytes, or text a stream decoded with ``surrogateescape`` (Python's stdin under a C locale, and
    ``input()``): its undecodable bytes are lone surrogates, which would be stored as U+FFFD and shown as
    the user's words. A UTF-8 byte-order mark is not content.

    >>> decode_line("预算五千".encode()), decode_line(b"\xef\xbb\xbfhi\r\n")
    ('预算五千', 'hi\r\n')
    >>> decode_line(b"ok \xff")
    Traceback (most recent call last):
    ...
    weaver.models.WeaverError: not valid UTF-8 (byte 3)
    """
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise WeaverError(f"not valid UTF-8 (byte {exc.start})") from None


def _line_item(path: str, lineno: int, text: str) -> dict:
    """One ingest-file line, checked against every rule ingest applies (weaver/validation.py)."""
    try:
        obj = json.loads(text, strict=False)  # raw control characters: accepted, stripped on ingest
    except json.JSONDecodeError as exc:
        raise WeaverError(f"not valid JSON ({exc.msg} at column {exc.colno})") from exc
    except RecursionError as exc:
        raise WeaverError("JSON nested too deeply") from exc
    except ValueError as exc:  # e.g. an integer literal of more than 4,300 digits
        raise WeaverError(f"not valid JSON ({str(exc).splitlines()[0]})") from exc
    if not isinstance(obj, dict):
        raise WeaverError("expected a JSON object")
    keys = ("task",) if "task" in obj else LINE_KEYS
    extra = [k for k in obj if k not in keys]
    if extra:
        # a key the reader does not take (a "metadata" typo, a "depends_on" or "timestamp" the file format has
        # no place for) would be dropped while the line is reported as ingested: what was written would be lost
        wanted = "a task line holds only task" if keys == ("task",) else "a message line holds " + ", ".join(LINE_KEYS)
        raise WeaverError(f"unknown key {', '.join(map(repr, extra))}: {wanted}")
    if "task" in obj:
        if not isinstance(obj["task"], str) or not obj["task"].strip():
            raise WeaverError("task must be a non-empty string")
        return {"task": check_task(obj["task"]), "line": lineno}
    kind = obj.get("kind", "user_input")
    content = obj.get("content")
    if not isinstance(content, str) or not content.strip():
        raise WeaverError("content must be a non-empty string")
    meta = obj.get("meta")
    meta = {} if meta is None else meta
    mid = obj.get("id")
    if isinstance(mid, int) and not isinstance(mid, bool):
        mid = str(mid)
    elif mid is not None and not isinstance(mid, str):
        raise WeaverError(f"id must be a string, not {type(mid).__name__}")
    # a stable id makes re-ingesting the same file idempotent
    # (surrogateescape: a file name with undecodable bytes arrives from argv with lone surrogates)
    seed = f"{Path(path).name}:{lineno}:{text}".encode("utf-8", "surrogateescape")
    mid = mid or "m_" + hashlib.sha1(seed).hexdigest()[:16]
    # the same checks (and cleaning) ingest runs: nothing can fail later, after earlier lines were committed
    return {"message": prepare_message(Message(content, kind, meta, mid)), "line": lineno}


def read_jsonl(path: str) -> list[dict]:
    """Parse and validate an ingest file completely before anything is ingested.

    Each line: ``{"kind", "content", "meta"?, "id"?}`` or ``{"task": ...}``. A bad
    line raises an error naming the file and the line, and nothing from the file
    is ingested: every rule of ``ingest`` and ``set_task`` is checked here first.
    """
    try:
        raw = Path(path).read_bytes() if path != "-" else sys.stdin.buffer.read()
    except OSError as exc:
        raise WeaverError(f"cannot read {path}: {exc.strerror or exc}") from exc
    path = "stdin" if path == "-" else path
    raw = raw.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark (Windows editors) is not content
    items = []
    for lineno, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            text = decode_line(line)
        except WeaverError as exc:
            raise WeaverError(f"{path}, line {lineno}: {exc}") from exc
        try:
            item = _line_item(path, lineno, text)
        except WeaverError as exc:
            raise WeaverError(f"{path}, line {lineno}: {exc}") from exc
        items.append(item)
    if not items:
        raise WeaverError(f"{path}: no messages or task to ingest (the file is empty)")
    return items


class _StopBetweenBatches:
    """Ctrl-C during an ingest stops it between write sections: the first asks to stop once the batch in
    progress is stored and acknowledged (so the acknowledgments printed are exactly what is stored), a second
    stops at once (still safe: a message without its decision, the commit marker, is dropped on the next open)."""

    def __init__(self):
        self.requested = False
        self.forced = False
        self._old = None

    def _on_sigint(self, signum, frame):
        if self.requested:
            self.forced = True
            raise KeyboardInterrupt
        self.requested = True
        print("stopping after the batch in progress (Ctrl-C again to stop at once)", file=sys.stderr, flush=True)

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():  # signal handlers live on the main thread
            self._old = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def cmd_ingest(rt, args) -> int:
    items = read_jsonl(args.file)
    weaver = rt.open(args.space)
    total = sum("message" in item for item in items)
    done = 0
    reader_gone = False

    def show(res) -> None:
        if args.json:
            print(json.dumps(res.to_dict(), ensure_ascii=False))
            return
        d = res.decision
        mark = "kept " if d.kept else "skip "
        # a duplicate adds nothing: saying "+2 edges" for it would claim a change that did not happen
        tail = (
            "  (duplicate: already stored)" if res.duplicate else (f"  (+{len(res.edges)} edges)" if res.edges else "")
        )
        print(f"{mark} {d.total:4.2f}  {d.content[:60]}" + tail)

    def acknowledge(results) -> None:
        nonlocal reader_gone
        if reader_gone:
            return
        try:
            for res in results:
                show(res)
            sys.stdout.flush()
        except BrokenPipeError:
            # the reader left (`ingest big.jsonl | head`): the ingest goes on to the end, unprinted, as it did
            # when everything was printed at the end; later prints go nowhere instead of failing again
            reader_gone = True
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

    def weave(messages: list[Message]) -> None:
        nonlocal done
        # one write section at a time, each acknowledged (printed, flushed) once it is stored, so a reader of
        # the output (or a user who stops the ingest) knows exactly what landed
        for start in range(0, len(messages), WRITE_BATCH):
            if stop.requested:
                raise KeyboardInterrupt
            results = weaver.ingest_many(messages[start : start + WRITE_BATCH])
            done += len(results)
            acknowledge(results)

    pending: list[Message] = []
    stop = _StopBetweenBatches()
    try:
        with stop:
            for item in items:
                if "task" in item:
                    weave(pending)
                    pending = []
                    if stop.requested:
                        raise KeyboardInterrupt
                    weaver.set_task(item["task"])
                else:
                    pending.append(item["message"])
            weave(pending)
    except KeyboardInterrupt:
        print(
            f"interrupted: {done} of {total} messages stored and acknowledged"
            + (" (the batch in progress may be partly stored too)" if stop.forced else "")
            + "; ingest the same file again for the rest (messages already stored are skipped)",
            file=sys.stderr,
        )
        return 130
    return 0
