"""The travel-planning agent on the CrossWOZ Beijing database, driven by the weaver's memory.

>>> from weaver.agent import TravelAgent, load_transcript      # doctest: +SKIP
>>> agent = TravelAgent(weaver)                                # doctest: +SKIP
>>> for ev in agent.run("帮我找王府井附近的酒店"):               # doctest: +SKIP
...     print(ev.type, ev.text[:40])
"""

from .events import AgentEvent, load_transcript
from .loop import TravelAgent

__all__ = ["TravelAgent", "AgentEvent", "load_transcript", "warm"]


def warm() -> None:
    """Load now what a turn would otherwise load mid-reply, measured with ``bench turns``: the database's name
    and dish indexes (0.65 s of the first turn) and pypinyin (0.75 s of the first English reply naming a Chinese
    place), and the database's names in pinyin ("Quanjude", "Siji Minfu": ~1 s of the first English message, which
    is read for them). The studio calls this under its loading spinner, beside ``Runtime.warm``."""
    from .gloss import pinyin
    from .place_names import pinyin_index
    from .understanding import parse

    parse("王府井附近的烤鸭 near Wangfujing")
    pinyin("北京")
    pinyin_index()
