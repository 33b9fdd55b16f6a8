# ruff: noqa: E731  (a measurement script: the variants are lambdas over one dialogue's channels)
"""Every way of hearing a MADial-Bench dialogue-history query tried for issue #17 (session 14), as run.

usage: PYTHONPATH=<tree> python madial_query_variants.py [data_dir] [crosswoz_val_zip]
Prints R@5 / R@10 on zh, its English translation (en) and zh among 3,000 CrossWOZ chat turns (zhx), then three
families' 5-fold cross-validation (``weaver.bench.madial_channels._cv``). ``bench madial-channels`` carries the
shipped rule and the main variants; this script the rest (extra embeddings per query, memory-side graphs).
"""

import re
import sys
from pathlib import Path

import numpy as np

from weaver.bench.madial_channels import _cv, _distractors, _kept, _language_set, _recalls, _speakers
from weaver.embedding import CachedEmbedder, USEEmbedder
from weaver.lexical import LexicalIndex, lexical_tokens
from weaver.query_turns import query_turns

DATA = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/madial")
CROSSWOZ = Path(sys.argv[2] if len(sys.argv) > 2 else "/work/shared/data/crosswoz/val.json.zip")
TAG = re.compile(r"^\s*<([^<>]{1,30})>\s*[:：]")


def agent_lines_dropped(q: str) -> str:
    return "\n".join(ln for ln in q.splitlines() if not ((m := TAG.match(ln.strip())) and m.group(1) == "Assistant"))


def prepare(emb, lang: str, n_extra: int) -> list[dict]:
    memories, dialogues, hist = _language_set(DATA, lang)
    extra = _distractors(CROSSWOZ, n_extra) if n_extra else []
    space = {}
    for u, mids in _kept(memories, emb).items():
        texts = [memories[m].get("event", "") for m in mids] + extra
        lex = LexicalIndex()
        lex.add([str(i) for i in range(len(texts))], texts)
        vecs = emb.embed(texts)
        near = vecs @ vecs.T
        np.fill_diagonal(near, -np.inf)
        space[u] = (mids, vecs, lex, np.argsort(-near, 1)[:, :5], np.nanmean(np.where(near > -2, near, np.nan), 1))
    out = []
    for d, q in zip(dialogues, hist):
        mids, vecs, lex, knn, hub = space[int(d.get("user-id", 0))]
        turns = query_turns(q)
        who = _speakers(q, len(turns))
        user = [t for t, w in zip(turns, who) if w and w != "Assistant"]
        extra_q = {
            "user": "\n".join(user) or q,
            "last2": "\n".join(turns[-2:]),
            "tagged_user": agent_lines_dropped(q),
            "joined": "\n".join(turns),
            "joined_nosep": "".join(turns),
            "last4": "\n".join(turns[-4:]),
        }
        qv = emb.embed([q, *turns, *extra_q.values()])
        sims = (vecs @ qv.T).astype(np.float64)
        centred = (vecs @ (qv - vecs.mean(0)).T).astype(np.float64)  # the query less the memories' centroid
        n = len(turns)
        per_turn_lex = np.stack([lex.raw_scores(lexical_tokens(t)) for t in turns], 1).astype(np.float64)
        out.append(
            {
                "rel": {int(x) for x in d["relevant-id"]},
                "mids": mids,
                "W": sims[:, 0],
                "T": sims[:, 1 : 1 + n],
                "centred": centred[:, : 1 + n],
                "V": {k: sims[:, 1 + n + i] for i, k in enumerate(extra_q)},
                "user_turn": np.array([bool(w) and w != "Assistant" for w in who]),
                "L": lex.scores(q).astype(np.float64),
                "LT": per_turn_lex,
                "Luser": lex.raw_scores(lexical_tokens(extra_q["user"])).astype(np.float64),
                "Ltagged_user": lex.scores(extra_q["tagged_user"]).astype(np.float64),
                "Lset": lex.raw_scores(list(dict.fromkeys(lexical_tokens(q)))).astype(np.float64),
                "knn": knn,
                "hub": hub,
            }
        )
    return out


def z(x):
    sd = x.std()
    return (x - x.mean()) / sd if sd > 0 else np.zeros_like(x)


def fade(r, g, key="T"):
    w = g ** np.arange(r[key].shape[1])[::-1]
    return (r[key] * w).sum(1) / w.sum()


def lse(r, t):  # a soft best turn: log-sum-exp over the turns at temperature t
    return t * np.log(np.exp((r["T"] - r["T"].max()) / t).sum(1))


def qpp(r, g, k):  # each channel's say from its own confidence: the z gap between its first and k-th memory
    cs = [z(r["W"]), z(r["T"].max(1)), z(fade(r, g)), z(r["L"])]
    w = np.array([max(np.sort(c)[::-1][0] - np.sort(c)[::-1][k], 1e-6) for c in cs])
    return sum(wi * c for wi, c in zip(w / w.mean(), cs))


BEST = lambda r: z(r["W"]) + z(r["T"].max(1))
LATEST = lambda r: z(r["T"][:, -1])
SHIP = lambda r, g=0.4: BEST(r) + z(fade(r, g)) + z(r["L"])
VARIANTS = {
    "equal say, latest turn alone (the previous release)": lambda r: SHIP(r, 0.0),
    **{
        f"latest turn with earlier turns fading x{g}": (lambda g: lambda r: SHIP(r, g))(g)
        for g in (0.1, 0.2, 0.3, 0.4, 0.5, 0.7)
    },
    "latest turn weights 1/(k+1)^2, k turns back": lambda r: (
        BEST(r) + z((r["T"] / (np.arange(r["T"].shape[1])[::-1] + 1.0) ** 2).sum(1)) + z(r["L"])
    ),
    "latest turn weights 1/(k+1)": lambda r: (
        BEST(r) + z((r["T"] / (np.arange(r["T"].shape[1])[::-1] + 1.0)).sum(1)) + z(r["L"])
    ),
    "+ the last two turns embedded as one text, a fifth channel (latest turn alone)": lambda r: (
        BEST(r) + z(r["T"][:, -1]) + z(r["V"]["last2"]) + z(r["L"])
    ),
    "latest channel: the last two turns embedded as one text": lambda r: BEST(r) + z(r["V"]["last2"]) + z(r["L"]),
    "whole: the user's turns only, embedded as one text (agent filler dropped)": lambda r: (
        z(r["V"]["user"]) + z(r["T"].max(1)) + LATEST(r) + z(r["L"])
    ),
    "+ the user's turns as one text, a fifth channel": lambda r: SHIP(r, 0.0) + z(r["V"]["user"]),
    "+ the user's lines (speaker tags kept) as one text, a fifth channel, fade 0.4": lambda r: (
        SHIP(r) + z(r["V"]["tagged_user"])
    ),
    "best turn among the user's turns only": lambda r: (
        z(r["W"]) + z(r["T"][:, r["user_turn"]].max(1)) + LATEST(r) + z(r["L"])
    ),
    "best turn: max over turns of z-scored similarities": lambda r: (
        z(r["W"]) + z(np.column_stack([z(c) for c in r["T"].T]).max(1)) + LATEST(r) + z(r["L"])
    ),
    "best turn: mean over turns of z-scored similarities": lambda r: (
        z(r["W"]) + z(np.column_stack([z(c) for c in r["T"].T]).mean(1)) + LATEST(r) + z(r["L"])
    ),
    "BM25 on the user's turns only (tags dropped)": lambda r: BEST(r) + LATEST(r) + z(r["Luser"]),
    "BM25 with the agent's lines dropped (tags kept), fade 0.4": lambda r: (
        BEST(r) + z(fade(r, 0.4)) + z(r["Ltagged_user"])
    ),
    "BM25 on distinct query terms": lambda r: BEST(r) + LATEST(r) + z(r["Lset"]),
    "BM25 of the latest turn only": lambda r: BEST(r) + LATEST(r) + z(r["LT"][:, -1]),
    "BM25 per turn, fading x0.5": lambda r: BEST(r) + LATEST(r) + z(fade(r, 0.5, "LT")),
    "BM25 per turn, max of z-scores": lambda r: (
        BEST(r) + LATEST(r) + z(np.column_stack([z(c) for c in r["LT"].T]).max(1))
    ),
    "channels weighted by confidence (z gap top 1 - top 5), fade 0.4": lambda r: qpp(r, 0.4, 5),
    "memory kNN smoothing (+0.3 x mean of 5 nearest memories' scores), fade 0": lambda r: (
        lambda s: s + 0.3 * s[r["knn"]].mean(1)
    )(SHIP(r, 0.0)),
    "hubness: minus z(memory's mean similarity to the others), fade 0": lambda r: SHIP(r, 0.0) - z(r["hub"]),
    "hubness x0.5, fade 0": lambda r: SHIP(r, 0.0) - 0.5 * z(r["hub"]),
    "whole embedded without tags and frame (turns joined by newlines)": lambda r: (
        z(r["V"]["joined"]) + z(r["T"].max(1)) + LATEST(r) + z(r["L"])
    ),
    "whole embedded without tags, turns joined with no separator": lambda r: (
        z(r["V"]["joined_nosep"]) + z(r["T"].max(1)) + LATEST(r) + z(r["L"])
    ),
    "whole: the last four turns only": lambda r: z(r["V"]["last4"]) + z(r["T"].max(1)) + LATEST(r) + z(r["L"]),
    "whole without tags + fade 0.3": lambda r: z(r["V"]["joined"]) + z(r["T"].max(1)) + z(fade(r, 0.3)) + z(r["L"]),
    **{
        f"best turn: log-sum-exp over turns, temperature {t}": (
            lambda t: lambda r: z(r["W"]) + z(lse(r, t)) + LATEST(r) + z(r["L"])
        )(t)
        for t in (0.01, 0.02, 0.05, 0.1)
    },
    "query less the memories' centroid, all dense channels": lambda r: (
        z(r["centred"][:, 0]) + z(r["centred"][:, 1:].max(1)) + z(r["centred"][:, -1]) + z(r["L"])
    ),
    "+ the user's turns as one text, a fifth channel, fade 0.3": lambda r: SHIP(r, 0.3) + z(r["V"]["user"]),
    "+ the user's turns as one text, fifth channel, BM25 x1.25": lambda r: (
        BEST(r) + z(r["V"]["user"]) + LATEST(r) + 1.25 * z(r["L"])
    ),
    **{
        f"BM25 per turn, fading x{g}": (lambda g: lambda r: BEST(r) + LATEST(r) + z(fade(r, g, "LT")))(g)
        for g in (0.3, 0.7, 1.0)
    },
    "dense fade 0.3 and BM25 per turn fading x0.5": lambda r: BEST(r) + z(fade(r, 0.3)) + z(fade(r, 0.5, "LT")),
    "BM25 per turn, sum of z-scores": lambda r: (
        BEST(r) + LATEST(r) + z(np.column_stack([z(c) for c in r["LT"].T]).sum(1))
    ),
    "BM25 whole + BM25 of the latest turn": lambda r: BEST(r) + LATEST(r) + z(r["L"]) + z(r["LT"][:, -1]),
    "channels weighted by confidence (z gap top 1 - top 3), fade 0": lambda r: qpp(r, 0.0, 3),
    "channels weighted by confidence (z gap top 1 - top 10), fade 0": lambda r: qpp(r, 0.0, 10),
    "memory kNN smoothing k 3 (+0.3), fade 0": lambda r: (lambda s: s + 0.3 * s[r["knn"][:, :3]].mean(1))(SHIP(r, 0.0)),
    "memory kNN smoothing k 5 (+0.6), fade 0": lambda r: (lambda s: s + 0.6 * s[r["knn"]].mean(1))(SHIP(r, 0.0)),
}
AB = [(a, b) for a in (0, 0.5, 1, 1.5, 2) for b in (0, 0.5, 1, 1.5, 2)]
FAMILIES = {
    "the user's turns as a fifth channel, weights a (latest), b (BM25)": {
        f"{a},{b}": (lambda a, b: lambda r: BEST(r) + z(r["V"]["user"]) + a * LATEST(r) + b * z(r["L"]))(a, b)
        for a, b in AB
    },
}


def main() -> None:
    emb = CachedEmbedder(USEEmbedder())
    sets = {"zh": prepare(emb, "zh", 0), "en": prepare(emb, "en", 0), "zhx": prepare(emb, "zh", 3000)}
    score = lambda rule, recs: np.array([_recalls(rule(r), r["mids"], r["rel"]) for r in recs])
    print("| variant | zh R@5 / R@10 | en | zh among 3,000 turns |\n|---|---|---|---|")
    for name, rule in VARIANTS.items():
        cells = [
            f"{100 * p[:, 0].mean():.1f} / {100 * p[:, 1].mean():.1f}" for p in (score(rule, s) for s in sets.values())
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\n| family | zh in-sample / 5-fold CV R@5 | en | zhx |\n|---|---|---|---|")
    for name, members in FAMILIES.items():
        cells = []
        for recs in sets.values():
            per = {k: score(f, recs) for k, f in members.items()}
            cells.append(f"{100 * max(p[:, 0].mean() for p in per.values()):.1f} / {_cv(per)[0]:.1f}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
