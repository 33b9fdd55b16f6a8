"""Drive the studio's chat with the free-form chats of tests/test_agent_chats.py and screenshot the chat page.

Run: ``python tests/shoot_chats.py docs/img`` (needs chromium). Writes chat-graph-zh.png and chat-graph-en.png, the
screenshots docs/agent.md shows, and checks that the browser contacted nothing but the local studio.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

# run as a script, its own folder (tests/) is first on the import path
from studio_server import CHROMIUM, CHROMIUM_ARGS, running_studio
from test_agent_chats import CHATS


def _idle(page, timeout=180_000):
    page.wait_for_timeout(600)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    page.wait_for_timeout(500)


def shoot(out: Path, langs=tuple(CHATS), keep: Path | None = None) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        messages = CHATS[lang]
        with (
            tempfile.TemporaryDirectory() as tmp,
            running_studio((keep or Path(tmp)) / lang, Path(tmp) / "s.log") as base,
        ):
            outside: list[str] = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1500, "height": 1100})
                page.on(
                    "request",
                    lambda r: (
                        outside.append(r.url) if not r.url.startswith((base, "blob:", "data:", "about:")) else None
                    ),
                )
                page.goto(base + ("?lang=zh" if lang == "zh" else ""))
                box = page.locator('[data-testid="stChatInputTextArea"]')
                box.wait_for(timeout=90_000)
                for msg in messages:
                    box.fill(msg)
                    box.press("Enter")
                    _idle(page)
                page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
                page.wait_for_timeout(2500)  # the layout settles
                page.screenshot(path=str(out / f"chat-graph-{lang}.png"))
                browser.close()
            if outside:
                raise SystemExit(f"the browser contacted {outside[:3]}")
            print(f"wrote {out / f'chat-graph-{lang}.png'}")


if __name__ == "__main__":
    shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"), tuple(sys.argv[2:]) or tuple(CHATS))
