"""Sandboxed bash calls for tests: a project folder, its rules and settings, the real bwrap."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from hookline.core.tool import ToolError, ToolResult
from hookline.sandbox.availability import probe
from hookline.sandbox.config import SandboxConfig, resolve_sandbox
from hookline.sandbox.launcher import Sandbox
from hookline.sandbox.placeholders import placeholders
from hookline.settings import load_settings
from hookline.settings.permission_rules import PermissionRules
from hookline.tools.bash import create_bash_tool
from hookline.tools.leftovers import ToolLeftovers

BWRAP = shutil.which("bwrap")
needs_bwrap = pytest.mark.skipif(
    BWRAP is None, reason="bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
)


def write_settings(project: Path, settings: dict[str, Any], name: str = "settings.json") -> None:
    folder = project / ".claude"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(json.dumps(settings), encoding="utf-8")


def config_for(
    project: Path,
    *,
    deny: Sequence[str] = (),
    allow: Sequence[str] = (),
    trusted: bool = True,
    **changes: Any,
) -> SandboxConfig:
    """The resolved sandbox of ``project`` (its settings files and ``deny``/``allow`` rules),
    enabled."""
    loaded = load_settings(project, managed_paths=[], project_trusted=trusted)
    rules = PermissionRules.from_settings(loaded)
    extra = PermissionRules.from_lists(allow=allow, deny=deny, root=str(project))
    rules.deny.extend(extra.deny)
    rules.allow.extend(extra.allow)
    config = resolve_sandbox(loaded, rules, str(project))
    return dataclasses.replace(config, **{"enabled": True, **changes})


@dataclasses.dataclass
class Outcome:
    """A finished bash call: its text (output and status) and whether it failed."""

    text: str
    failed: bool
    details: dict[str, Any]


class Box:
    """The bash tool of ``project`` under a real sandbox."""

    def __init__(self, config: SandboxConfig) -> None:
        assert BWRAP is not None
        self.sandbox = Sandbox(config, bwrap=BWRAP, disable_userns=probe().disables_userns)
        self.leftovers = ToolLeftovers()
        self.tool = create_bash_tool(config.cwd, sandbox=self.sandbox, leftovers=self.leftovers)

    def run(self, command: str, **params: Any) -> Outcome:
        """One call; then the idle stand-ins are swept (they would linger a moment), so a
        test sees the host as the session leaves it."""
        try:
            return asyncio.run(self.arun(command, **params))
        finally:
            placeholders.sweep()

    async def arun(self, command: str, **params: Any) -> Outcome:
        try:
            result: ToolResult = await self.tool.execute("t", {"command": command, **params})
        except ToolError as exc:
            return Outcome(str(exc), True, dict(exc.details or {}))
        text = "".join(part["text"] for part in result.content if part.get("type") == "text")
        return Outcome(text, False, dict(result.details or {}))

    def close(self) -> None:
        self.leftovers.close()


def listing(folder: Path) -> list[str]:
    """Every path below ``folder`` (relative), to compare before and after a call."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
