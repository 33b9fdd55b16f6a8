"""The weaver as an MCP server (the official ``mcp`` SDK): ``python -m weaver mcp``.

Tools: ``remember`` (ingest), ``recall`` (query within a budget: the narrative and the
trace in brief), ``why`` (why a memory is or is not recalled), ``graph`` (a node's
neighbourhood), ``constraints`` (the user's current slot values), ``edge_set`` /
``edge_remove`` (curation), ``forget`` / ``supersede`` / ``restore`` (node status),
``spaces``. Every tool takes an optional ``space``. Transports: stdio (the default;
what desktop clients launch) and streamable HTTP, bound to 127.0.0.1 only.

A :class:`~weaver.models.WeaverError` reaches the client as a tool error with its
one-line message; any other exception stays in the server's log.
"""

from __future__ import annotations

import functools
import logging
import socket
from typing import Annotated, Any, Callable

from pydantic import BeforeValidator

from ..models import WeaverError, error_line
from .service import MemoryService

__all__ = ["build_server", "serve", "TOOL_NAMES", "DEFAULT_PORT"]

DEFAULT_PORT = 8766  # beside 8765, the Chroma server .ci/run starts
TOOL_NAMES = (
    "remember",
    "recall",
    "why",
    "graph",
    "constraints",
    "edge_set",
    "edge_remove",
    "forget",
    "supersede",
    "restore",
    "spaces",
)


def _no_bool(value: Any) -> Any:
    # JSON's true is no count: the schema's lax integer took it as 1 (hops=true -> 1 hop, budget=true -> 1 token)
    if isinstance(value, bool):
        raise ValueError(f"expected an integer, not {str(value).lower()}")
    return value


Count = Annotated[int, BeforeValidator(_no_bool)]


def _require_mcp():
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError as exc:
        raise WeaverError("the MCP server needs the mcp extra: pip install 'contextweaver[mcp]'") from exc
    return MCPServer, ToolError


def build_server(service: MemoryService):
    """An ``MCPServer`` whose tools call ``service`` (one lock serialises them: the SDK runs each sync tool on a
    worker thread)."""
    MCPServer, ToolError = _require_mcp()
    from pydantic import ValidationError  # the SDK's own dependency

    class Server(MCPServer):  # type: ignore[misc,valid-type]  # the SDK is imported on use (an extra)
        async def call_tool(self, name, arguments, context=None):
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as exc:
                # arguments that fail the tool's schema: the SDK quotes pydantic's report (several lines and a
                # link); the client gets one line, as for every other tool error, naming each field and its need
                cause = exc.__cause__
                if not isinstance(cause, ValidationError) or type(exc) is not ToolError:
                    raise
                fields = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in cause.errors())
                raise ToolError(f"Error executing tool {name}: invalid arguments: {fields}") from cause

    server = Server(
        name="contextweaver",
        version=_version(),
        log_level="WARNING",  # the SDK configures the root logger; on stdio only the protocol goes to stdout
        instructions=(
            "Selective, dependency-structured memory. `remember` every user message and agent step; "
            "`recall` before answering; `why` explains a recall; `constraints` lists what the user "
            "asked for (budget, dates, diet...). Every tool takes an optional `space`."
        ),
    )

    def tool(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except WeaverError as exc:  # the user can fix this: say what, in one line
                raise ToolError(error_line(exc)) from exc

        server.tool()(wrapped)
        return wrapped

    @tool
    def remember(
        content: str,
        kind: str = "user_input",
        space: str | None = None,
        message_id: str | None = None,
        depends_on: list[list[str]] | None = None,
    ) -> dict[str, Any]:
        """Remember one message. kind: user_input | agent_thought | tool_result | agent_response.
        depends_on: [[node or message id, relation, why?], ...] this message is known to depend on
        (relations: causal, temporal, conditional, elaborates). A message_id makes a retry idempotent.
        Returns the filter decision (kept, scores, reason) and the node and edges woven."""
        return service.remember(content, kind, space=space, message_id=message_id, depends_on=depends_on)

    @tool
    def recall(query: str, budget: Count | None = None, space: str | None = None) -> dict[str, Any]:
        """Recall the memories relevant to a query, within a token budget, as a cause-before-effect narrative
        (`context`), with the nodes used, their edges and a trace summary (seeds, expansion, budget cuts).
        A space nothing was remembered in yet recalls nothing, with a `note` saying so (it is not created)."""
        return service.recall(query, budget=budget, space=space)

    @tool
    def why(node: str, query: str, budget: Count | None = None, space: str | None = None) -> dict[str, Any]:
        """Why a memory (node id, unique id prefix, or message id) is or is not in the recall for a query:
        filtered at ingest, inactive, cut by the budget, pruned, or not reached — with the numbers."""
        return service.why(node, query, budget=budget, space=space)

    @tool
    def graph(node: str, hops: Count = 1, space: str | None = None) -> dict[str, Any]:
        """The neighbourhood of a memory: the nodes within `hops` (1-3) edges, either direction, and their
        edges with relation, origin, confidence and status."""
        return service.graph(node, hops=hops, space=space)

    @tool
    def constraints(space: str | None = None) -> dict[str, Any]:
        """The user's current constraints read from active memory (budget with bounds, dates, party size,
        nights, diet restrictions, minimum rating, where to stay), each with the memory that stated it."""
        return service.constraints(space=space)

    @tool
    def edge_set(source: str, target: str, relation: str, why: str = "", space: str | None = None) -> dict[str, Any]:
        """Add or relabel the dependency edge source -> target (target depends on source). Audited and
        undoable; an edge that would make a cycle is refused.
        relation: causal, temporal, conditional, elaborates or supersedes."""
        return service.set_edge(source, target, relation, why=why, space=space)

    @tool
    def edge_remove(source: str, target: str, why: str = "", space: str | None = None) -> dict[str, Any]:
        """Remove the edge source -> target (audited, undoable)."""
        return service.remove_edge(source, target, why=why, space=space)

    @tool
    def forget(node: str, why: str = "", space: str | None = None) -> dict[str, Any]:
        """Retract a memory: recall no longer uses it; its dependents are flagged for review. Undoable."""
        return service.set_status(node, "retracted", why=why, space=space)

    @tool
    def supersede(node: str, by: str, why: str = "", space: str | None = None) -> dict[str, Any]:
        """Mark a memory superseded by a later one (`by`): recall gives the later value, the earlier one only
        to questions about history."""
        return service.set_status(node, "superseded", why=why, by=by, space=space)

    @tool
    def restore(node: str, why: str = "", space: str | None = None) -> dict[str, Any]:
        """Make a retracted or superseded memory active again."""
        return service.set_status(node, "active", why=why, space=space)

    @tool
    def spaces() -> dict[str, Any]:
        """The memory spaces on this server."""
        return {"spaces": service.spaces()}

    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("contextweaver")
    except PackageNotFoundError:  # a checkout that was never installed
        return "0+checkout"


def _check_port_free(port: int) -> None:
    """Refuse a port already taken, in the CLI's one line (uvicorn printed its own ``ERROR:`` line and exited 3)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: TIME_WAIT is no conflict
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            raise WeaverError(
                f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc} (another `weaver mcp --http`?); "
                "choose another with --port"
            ) from exc


def serve(service: MemoryService, transport: str = "stdio", port: int = DEFAULT_PORT) -> None:
    """Run until the client leaves (stdio) or the process is stopped (HTTP on 127.0.0.1:``port``/mcp)."""
    # the SDK's handler on the root logger would print bm25s's debug lines (bm25s sets its logger to DEBUG)
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    server = build_server(service)
    if transport == "stdio":
        server.run("stdio")
    elif transport == "http":
        _check_port_free(port)
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        raise WeaverError(f"unknown transport {transport!r}: stdio or http")
