"""Talk to the weaver's MCP server with the official SDK's client: list the tools, remember, recall.

pip install "contextweaver[mcp]"
python examples/mcp_client.py                  # starts `python -m weaver mcp` itself (stdio)
python examples/mcp_client.py http://127.0.0.1:8766/mcp   # or a running `weaver mcp --http`
"""

import asyncio
import os
import sys

from mcp import Client, StdioServerParameters


async def main(server) -> None:
    async with Client(server, read_timeout_seconds=300) as client:
        print("tools:", ", ".join(t.name for t in (await client.list_tools()).tools))
        for text in (
            "我的预算总共是5000元，我们两个人去北京。",
            "I am allergic to peanuts, so no satay please.",
            "每晚住宿别超过六百块，最好离地铁近一点。",
        ):
            res = await client.call_tool("remember", {"content": text, "space": "example"})
            print("remember:", res.structured_content["kept"], text)
        res = await client.call_tool(
            "recall", {"query": "What should the hotel cost, and what can't I eat?", "budget": 256, "space": "example"}
        )
        print(res.structured_content["context"])


if __name__ == "__main__":
    target = (
        sys.argv[1]
        if len(sys.argv) > 1
        else StdioServerParameters(
            command=sys.executable,
            args=["-m", "weaver", "mcp"],
            # the SDK gives a stdio server only HOME, PATH and a few more: pass the weaver's own settings on
            env={k: v for k, v in os.environ.items() if k.startswith(("WEAVER_", "OPENAI_", "PYTHONPATH"))}
            | {"HF_HUB_OFFLINE": "1"},
        )
    )
    asyncio.run(main(target))
