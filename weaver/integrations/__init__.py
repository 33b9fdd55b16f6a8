"""Faces of the weaver for other agent stacks: an MCP server and a LangGraph store.

:class:`~weaver.integrations.service.MemoryService` is what they share: spaces of one
runtime behind one lock, with plain-dict results. The MCP server needs the ``mcp``
extra (``pip install contextweaver[mcp]``), the store the ``langgraph`` extra; this
package imports neither until asked.
"""

from .service import MemoryService

__all__ = ["MemoryService"]
