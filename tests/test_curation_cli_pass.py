"""A user's pass over the curation CLI on a space made by a short chat (a JSONL file ingested), zh and en: every
bad input is one line on stderr (exit 2, no traceback), no-ops are not audited, a bare undo after a review pass
or an arrival says what to undo instead, and the log agrees with the graph at the end (real Chroma, rules)."""

from __future__ import annotations

import json

import pytest

from cli_run import run_cli

CHATS = {
    "en": [
        "We are two people visiting Beijing from May 1st to May 3rd.",
        "My total budget is 5000 yuan.",
        ("agent_thought", "I need to search for hotels near Wangfujing under the budget."),
        "I'm allergic to peanuts, please keep them out of every dish.",
        "Actually, make the total budget 8000 yuan.",
    ],
    "zh": [
        "我们两个人五一去北京，5月1日出发，5月3日回来。",
        "整个行程预算别超过五千。",
        ("agent_thought", "先找一下王府井附近预算以内的酒店。"),
        "我对花生过敏，点菜时请注意。",
        "预算改成八千吧。",
    ],
}


def _chat_file(tmp_path, lang: str, session_of_last: int):
    lines = []
    for i, line in enumerate(CHATS[lang]):
        kind, text = line if isinstance(line, tuple) else ("user_input", line)
        session = session_of_last if i == len(CHATS[lang]) - 1 else 1
        lines.append({"kind": kind, "content": text, "meta": {"speaker": "user", "session": session}})
    path = tmp_path / f"chat_{lang}.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(params=["en", "zh"])
def space(request, tmp_path):
    lang = request.param

    def cli(*args):
        return run_cli("--data-dir", str(tmp_path / "data"), "--space", lang, *args, cwd=tmp_path)

    # the restated budget comes in another session: arrival leaves it to the review pass
    assert cli("ingest", str(_chat_file(tmp_path, lang, 2))).returncode == 0
    nodes = json.loads(cli("export").stdout)["nodes"]
    return cli, [n["id"] for n in nodes], nodes


def _log(cli) -> list[dict]:
    return [json.loads(x) for x in cli("log", "--json").stdout.splitlines()]


def _budget(cli) -> list:
    recs = json.loads(cli("constraints").stdout)["constraints"]
    return [r["value"] for r in recs if r["key"] == "budget/total"]


def test_review_apply_then_undo_by_name_and_redo(space):
    cli, ids, _ = space
    assert _budget(cli) == [8000.0]
    out = cli("review", "--apply")
    assert out.returncode == 0 and "applied a" in out.stdout and "undo ENTRY" in out.stdout, out.stdout
    applied = [e for e in _log(cli) if e["actor"] == "review"]
    assert [(e["action"], e["key"], e["after"]["status"]) for e in applied] == [("node.status", ids[1], "superseded")]
    # a bare undo has no human edit to revert: it names the review's edit, one line, nothing changed
    out = cli("undo")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert f"undo {applied[0]['id']}" in out.stderr and "review node.status" in out.stderr
    out = cli("undo", applied[0]["id"][:12])
    assert out.returncode == 0, out.stderr
    assert json.loads(cli("export").stdout)["nodes"][1]["status"] == "active"
    assert cli("redo").returncode == 0
    assert json.loads(cli("export").stdout)["nodes"][1]["status"] == "superseded" and _budget(cli) == [8000.0]
    assert cli("redo").stderr == "error: nothing to redo\n"


def test_no_op_status_is_not_audited_and_bad_input_is_one_line(space):
    cli, ids, nodes = space
    before = len(_log(cli))
    out = cli("status", nodes[3]["message_id"], "active")  # already active
    assert out.returncode == 0 and out.stdout.startswith("unchanged:") and len(_log(cli)) == before
    bad = [
        ("status", ids[3], "superseded", "--by", ids[3]),
        ("status", "n_", "retracted"),
        ("status", "nope", "retracted"),
        ("status", ids[3], "gone"),
        ("edge", "set", ids[0], ids[0], "causal"),
        ("edge", "set", ids[0], "", "causal"),
        ("edge", "rm", ids[0], ids[3]),
        ("edge", "confirm", ids[0], ids[3]),
        ("edge", "set", ids[0], ids[3], "because"),
        ("accept", "nope"),
        ("reject", ""),
        ("undo", "zzz"),
        ("undo", "a"),
        ("delete-node", "n_"),
        ("pin", "nope"),
        ("forget", "--undo", "nope"),
        ("log", "--limit", "-1"),
        ("log", "--limit", "x"),
    ]
    for args in bad:
        out = cli(*args)
        assert out.returncode == 2 and out.stderr.startswith("error: "), (args, out.stderr)
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, (args, out.stderr)
    assert len(_log(cli)) == before  # nothing a refused command did stays
    # a dry run writes nothing; a deletion is undone whole
    assert cli("forget", "--dry-run").returncode == 0 and len(_log(cli)) == before
    assert cli("delete-node", nodes[3]["message_id"]).returncode == 0
    assert cli("undo").returncode == 0
    after = json.loads(cli("export").stdout)
    assert [n["id"] for n in after["nodes"]] == ids
    assert [r["key"] for r in json.loads(cli("constraints").stdout)["constraints"]].count("diet/peanut") == 1


def test_a_why_with_newlines_and_escapes_stays_one_escaped_row(space):
    cli, ids, _ = space
    why = "第一行\nsecond line\x1b[31m red"
    assert cli("edge", "set", ids[0], ids[3], "causal", "--why", why).returncode == 0
    out = cli("log", "--limit", "1")
    assert out.stdout.count("\n") == 1 and "\x1b" not in out.stdout
    assert out.stdout.rstrip().endswith("第一行\\nsecond line\\x1b[31m red")
    assert _log(cli)[-1]["why"] == why  # the record keeps what was said


def test_a_flag_on_a_deleted_memory_is_on_hold_until_the_deletion_is_undone(space):
    cli, ids, _ = space
    assert cli("edge", "set", ids[0], ids[3], "causal").returncode == 0
    assert cli("status", ids[0], "retracted").returncode == 0
    flags = [json.loads(x) for x in cli("queue", "--json").stdout.splitlines()]
    flag = next(f for f in flags if f["target"] == ids[3])
    assert cli("delete-node", ids[3]).returncode == 0
    assert flag["id"] not in cli("queue").stdout  # nothing to decide about a memory that is gone
    for verb in ("accept", "reject"):
        out = cli(verb, flag["id"])
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "on hold" in out.stderr, out.stderr
    assert cli("undo").returncode == 0  # the deletion undone: the flag is back, and can be decided
    assert flag["id"] in cli("queue").stdout
    assert cli("accept", flag["id"]).returncode == 0
    assert json.loads(cli("export").stdout)["nodes"][3]["status"] == "retracted"


def test_pinning_twice_and_undoing_an_undone_pass_are_said_as_no_ops(space):
    """`pin` twice wrote a second, no-op audit entry; `forget --undo` of a pass already undone printed "undid 0
    changes" (found by helper lib20)."""
    cli, ids, _ = space
    assert cli("pin", ids[0]).returncode == 0
    entries = len(_log(cli))
    again = cli("pin", ids[0])
    assert again.returncode == 0 and again.stdout.startswith("unchanged:") and len(_log(cli)) == entries
    assert cli("pin", ids[0], "--off").returncode == 0 and len(_log(cli)) == entries + 1
    assert cli("forget").returncode == 0
    assert cli("forget", "--undo").returncode == 0
    second = cli("forget", "--undo")
    assert second.returncode == 0 and second.stdout.startswith("nothing to undo"), second.stdout
