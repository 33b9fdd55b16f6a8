"""The edge table the Review page edits in bulk: rows out, cell edits back in (through the curation API).

The page keeps the rows stable between reruns and hands ``st.data_editor``'s
``edited_rows`` ({row index: {column: new value}}) to
:func:`apply_edge_table_edits`; all the semantics live here so they are tested
without a browser.
"""

from __future__ import annotations

from typing import Any

from ..models import WeaverError

__all__ = ["EDGE_COLUMNS", "edge_table_rows", "apply_edge_table_edits"]

EDGE_COLUMNS = ("source", "target", "from", "to", "relation", "origin", "confidence", "status", "delete")


def _snippet(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def edge_table_rows(weaver) -> list[dict[str, Any]]:
    """One row per edge, in the order of the target's arrival (stable as long as the graph is)."""
    pos = {nid: i for i, nid in enumerate(weaver.node_ids)}
    rows = []
    for u, v, d in sorted(weaver.graph.edges(data=True), key=lambda e: (pos.get(e[1], 0), pos.get(e[0], 0))):
        rows.append(
            {
                "source": u,
                "target": v,
                "from": _snippet(weaver.nodes[u].content),
                "to": _snippet(weaver.nodes[v].content),
                "relation": d.get("relation"),
                "origin": d.get("origin"),
                "confidence": round(float(d.get("confidence") or 0.0), 2),
                "status": d.get("status"),
                "delete": False,
            }
        )
    return rows


def apply_edge_table_edits(curation, rows: list[dict[str, Any]], edited: dict) -> tuple[list[str], list[str]]:
    """Apply cell edits as human edits: a new ``relation`` relabels, ``delete`` removes, ``status`` "confirmed"
    confirms. Returns (what was done, errors); one bad row never blocks the others."""
    done, errors = [], []
    for idx, change in sorted((int(k), v) for k, v in (edited or {}).items()):
        if not 0 <= idx < len(rows):
            errors.append(f"row {idx}: no such row")
            continue
        row = rows[idx]
        s, t = row["source"], row["target"]
        try:
            if change.get("delete"):
                curation.remove_edge(s, t, "deleted in the edge table")
                done.append(f"deleted {s}->{t}")
                continue
            rel = change.get("relation")
            if rel and rel != row["relation"]:
                curation.set_edge(s, t, rel, "relabelled in the edge table")
                done.append(f"{s}->{t}: {row['relation']} -> {rel}")
            elif change.get("status") == "confirmed" and row["status"] != "confirmed":
                curation.confirm_edge(s, t, "confirmed in the edge table")
                done.append(f"confirmed {s}->{t}")
        except WeaverError as exc:
            errors.append(f"row {idx} ({s}->{t}): {exc}")
    return done, errors
