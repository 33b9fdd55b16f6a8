"""ContextWeaver: selective, dependency-structured memory for LLM agents.

>>> from weaver import Runtime, Settings                      # doctest: +SKIP
>>> weaver = Runtime.from_settings(Settings.from_env()).open("demo")  # doctest: +SKIP
>>> weaver.ingest("我对海鲜过敏", "user_input").kept             # doctest: +SKIP
True
"""

from .core import ContextWeaver, IngestResult
from .models import Edge, FilterDecision, MemoryNode, Message, WeaverError
from .retrieval import RetrievalResult
from .runtime import Runtime
from .settings import Settings, WeaverConfig

__all__ = [
    "ContextWeaver",
    "IngestResult",
    "Edge",
    "FilterDecision",
    "MemoryNode",
    "Message",
    "WeaverError",
    "RetrievalResult",
    "Runtime",
    "Settings",
    "WeaverConfig",
]
