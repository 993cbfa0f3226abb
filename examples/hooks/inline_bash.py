"""Inline bash: ``!{command}`` in a prompt is replaced by the command's output before the
model sees it (a whole-line ``!command`` is left to the agent).

The Python version of pi's inline-bash example.
"""

from __future__ import annotations

import re
from typing import Any

from hookline import HookAPI, HookContext, InputEvent

PATTERN = re.compile(r"!\{([^}]+)\}")
TIMEOUT = 30.0


def register(pi: HookAPI) -> None:
    @pi.on("input")
    async def expand(event: InputEvent, ctx: HookContext) -> dict[str, Any]:
        text = event.text
        if text.lstrip().startswith("!") and not text.lstrip().startswith("!{"):
            return {"action": "continue"}
        if not PATTERN.search(text):
            return {"action": "continue"}
        pieces: list[str] = []
        last = 0
        for match in PATTERN.finditer(text):
            done = await pi.exec("bash", ["-c", match.group(1)], timeout=TIMEOUT)
            output = (done.stdout or done.stderr).strip()
            if done.code != 0:
                output = f"[{match.group(1)!r} failed with exit code {done.code}: {output}]"
            pieces += [text[last : match.start()], output]
            last = match.end()
        pieces.append(text[last:])
        return {"action": "transform", "text": "".join(pieces)}
