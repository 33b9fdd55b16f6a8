"""Property-based: whatever a model replies, the parser returns a valid schema object or raises ReplyError.

1,000 generated replies per schema: JSON of any shape (numbers of any size,
NaN/Infinity, wrong types, nested junk), valid replies with perturbed fields,
replies wrapped in prose or code fences, truncated replies, and arbitrary text.
A valid result always has its scores inside the scale and a known relation.
"""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from weaver.backends.openai_llm import ReplyError, extract_json, parse_reply
from weaver.prompts import FilterScores, RelationReply, ToolSummary

_SETTINGS = settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["5", " 3 ", "4.5", "NaN", "inf", "-inf", "1e999", "high", "", "五", "３"]),
)
_json = st.recursive(
    _scalars,
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=12), kids, max_size=4)),
    max_leaves=12,
)
_relations = st.sampled_from(
    [
        "causal",
        "temporal",
        "conditional",
        "elaborates",
        "none",
        "CAUSAL",
        " Temporal ",
        "because",
        "",
        "依赖",
        "causes",
        None,
        3,
    ]
)


def _dump(obj) -> str:
    try:
        return json.dumps(obj, ensure_ascii=False)  # NaN/Infinity become JSON's non-standard literals
    except (ValueError, OverflowError):
        return str(obj)


def _wrap(draw, body: str) -> str:
    style = draw(st.sampled_from(["bare", "prose", "fence", "truncate", "double", "junk"]))
    if style == "prose":
        return f"{draw(st.text(max_size=40))} {body} {draw(st.text(max_size=40))}"
    if style == "fence":
        return f"Here you go:\n```json\n{body}\n```\nAnything else?"
    if style == "truncate":
        return body[: draw(st.integers(min_value=0, max_value=max(0, len(body) - 1)))]
    if style == "double":
        return body + "\n" + body
    if style == "junk":
        return draw(st.text(max_size=200))
    return body


@st.composite
def filter_replies(draw):
    fields = {
        k: draw(st.one_of(_scalars, st.integers(1, 5), st.floats(-10, 10)))
        for k in ("relevance", "novelty", "importance")
    }
    if draw(st.booleans()):
        fields["reason"] = draw(_json)
    if draw(st.booleans()):
        del fields[draw(st.sampled_from(sorted(fields)))]
    if draw(st.integers(0, 9)) == 0:
        fields = draw(_json)
    return _wrap(draw, _dump(fields))


@st.composite
def relation_replies(draw):
    items = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "candidate": st.one_of(st.sampled_from(["C1", "c2", " C3 ", "C99", ""]), _scalars),
                    "relation": _relations,
                },
                optional={"confidence": _scalars, "rationale": _json},
            ),
            max_size=5,
        )
    )
    obj = {"relations": items} if draw(st.integers(0, 9)) else draw(_json)
    return _wrap(draw, _dump(obj))


@st.composite
def summary_replies(draw):
    obj = {"summary": draw(st.one_of(st.text(max_size=80), _scalars))} if draw(st.booleans()) else draw(_json)
    return _wrap(draw, _dump(obj))


def _check(text, schema):
    try:
        out = parse_reply(text, schema)
    except ReplyError:
        return None
    assert isinstance(out, schema)
    return out


@_SETTINGS
@given(filter_replies())
def test_filter_replies_parse_to_valid_scores_or_reply_error(text):
    out = _check(text, FilterScores)
    if out is not None:
        for v in (out.relevance, out.novelty, out.importance):
            assert isinstance(v, float) and math.isfinite(v) and 1.0 <= v <= 5.0
        assert isinstance(out.reason, str) and len(out.reason) <= 500


@_SETTINGS
@given(relation_replies())
def test_relation_replies_parse_to_known_relations_or_reply_error(text):
    out = _check(text, RelationReply)
    if out is not None:
        for item in out.relations:
            assert isinstance(item.candidate, str)
            assert math.isfinite(item.confidence) and 0.0 <= item.confidence <= 1.0
            assert isinstance(item.rationale, str) and len(item.rationale) <= 500
            if item.known:
                assert item.relation in ("causal", "temporal", "conditional", "elaborates", "none")


@_SETTINGS
@given(summary_replies())
def test_summary_replies_parse_to_text_or_reply_error(text):
    out = _check(text, ToolSummary)
    if out is not None:
        assert isinstance(out.summary, str) and out.summary.strip() and len(out.summary) <= 1000


@_SETTINGS
@given(st.one_of(st.none(), st.text(max_size=300), st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_arbitrary_text_never_escapes_as_another_exception(text):
    for schema in (FilterScores, RelationReply, ToolSummary):
        _check(text, schema)


def test_pathological_replies_are_reply_errors():
    deep = '{"a": ' * 100_000 + "1" + "}" * 100_000
    for text in (
        deep,
        "{" * 200_000,
        '{"relevance": ' + "9" * 5000 + ', "novelty": 1, "importance": 1}',
        '{"relevance": NaN, "novelty": Infinity, "importance": -Infinity}',
        "\x00{\x00}",
        "```json\n```",
    ):
        out = _check(text, FilterScores)
        if out is not None:
            assert all(1.0 <= v <= 5.0 for v in (out.relevance, out.novelty, out.importance))
    assert extract_json('prose {"a": 1} more {"b": 2}') == {"a": 1}
