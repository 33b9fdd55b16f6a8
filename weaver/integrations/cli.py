"""``python -m weaver mcp [--http [--port N]]``: serve the weaver's memory to MCP clients.

stdio is what desktop clients launch (stdout then carries only the protocol);
``--http`` serves streamable HTTP at ``http://127.0.0.1:PORT/mcp``, never on
another interface.
"""

from __future__ import annotations

from ..cli import port_number
from .mcp_server import DEFAULT_PORT, serve
from .service import MemoryService

__all__ = ["register"]


def cmd_mcp(rt, args) -> int:
    serve(MemoryService(rt, default_space=args.space), "http" if args.http else "stdio", port=args.port)
    return 0


def register(sub) -> None:
    s = sub.add_parser("mcp", help="serve memory over MCP (stdio, or streamable HTTP on 127.0.0.1 with --http)")
    s.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1 instead of stdio")
    s.add_argument("--port", type=port_number, default=DEFAULT_PORT, help=f"HTTP port (default {DEFAULT_PORT})")
    s.set_defaults(func=cmd_mcp)
