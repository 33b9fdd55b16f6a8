"""The travel-planning agent on the CrossWOZ Beijing database, driven by the weaver's memory.

>>> from weaver.agent import TravelAgent, load_transcript      # doctest: +SKIP
>>> agent = TravelAgent(weaver)                                # doctest: +SKIP
>>> for ev in agent.run("帮我找王府井附近的酒店"):               # doctest: +SKIP
...     print(ev.type, ev.text[:40])
"""

from .events import AgentEvent, load_transcript
from .loop import TravelAgent

__all__ = ["TravelAgent", "AgentEvent", "load_transcript"]
