"""pi's inline-bash example: ``!{command}`` in a prompt is replaced by the command's output
before the model sees it.

    What's in !{pwd}?
    The current branch is !{git branch --show-current} and status: !{git status --short}

Each command runs with ``bash -c`` (30 s at most); its stdout, else its stderr,
trimmed, takes the pattern's place (``[error: ...]`` when it could not run).
A whole-line ``!command`` is left to the agent. With a UI a notification lists
what was expanded, each output cut to 50 characters.

    hookline --hook examples/pi/inline_bash.py
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from hookline import HookAPI, HookContext, InputEvent

PATTERN = re.compile(r"!\{([^}]+)\}")
TIMEOUT = 30.0
PREVIEW = 50


@dataclass(frozen=True, slots=True)
class Expansion:
    command: str
    output: str
    error: str | None = None

    def summary(self) -> str:
        status = f" ({self.error})" if self.error else ""
        cut = self.output if len(self.output) <= PREVIEW else f"{self.output[:PREVIEW]}..."
        return f'!{{{self.command}}}{status} -> "{cut}"'


def register(pi: HookAPI) -> None:
    async def expand(command: str) -> tuple[Expansion, str]:
        """What ran and the text that replaces ``!{command}``."""
        try:
            done = await pi.exec("bash", ["-c", command], timeout=TIMEOUT)
        except OSError as exc:
            return Expansion(command, "", str(exc)), f"[error: {exc}]"
        output = (done.stdout or done.stderr or "").strip()
        error = f"exit code {done.code}" if done.code != 0 and done.stderr else None
        return Expansion(command, output, error), output

    @pi.on("input")
    async def inline(event: InputEvent, ctx: HookContext) -> dict[str, Any]:
        text = event.text
        start = text.lstrip()
        if start.startswith("!") and not start.startswith("!{"):
            return {"action": "continue"}  # a whole-line !command
        matches = [(m.group(0), m.group(1)) for m in PATTERN.finditer(text)]
        if not matches:
            return {"action": "continue"}
        result = text
        expansions: list[Expansion] = []
        for full, command in matches:
            expansion, replacement = await expand(command)
            expansions.append(expansion)
            result = result.replace(full, replacement, 1)
        if ctx.has_ui:
            lines = "\n".join(e.summary() for e in expansions)
            ctx.ui.notify(f"Expanded {len(expansions)} inline command(s):\n{lines}", "info")
        return {"action": "transform", "text": result, "images": event.images}
