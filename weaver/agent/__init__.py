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
    """Load now what a turn would otherwise load mid-reply: the first English reply that names a Chinese place
    imported pypinyin, 0.75 s of a 1.2 s warm turn, measured (``bench turns``). The studio calls this under its
    loading spinner, beside ``Runtime.warm``."""
    from .gloss import pinyin

    pinyin("北京")
