"""Helpers for the claude tests: real shell scripts as hooks, sources built by hand."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Protocol

import pytest

from hookline.claude import ClaudeHooks, HookSource
from hookline.settings.models import CommandHookConfig, HookConfig, MatcherConfig


class ScriptFactory(Protocol):
    def __call__(self, body: str, shebang: str = ...) -> str: ...


@pytest.fixture
def script(tmp_path: Path) -> ScriptFactory:
    """Write an executable bash script; returns its path (use it as the hook command)."""
    count = 0

    def make(body: str, shebang: str = "#!/usr/bin/env bash") -> str:
        nonlocal count
        count += 1
        path = tmp_path / "hooks" / f"hook{count}.sh"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"{shebang}\n{body}\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return str(path)

    return make


def command(cmd: str, **kw: Any) -> CommandHookConfig:
    return CommandHookConfig(type="command", command=cmd, **kw)


def source(
    event: str,
    *commands: str | CommandHookConfig,
    matcher: str | None = None,
    scope: str = "project",
    origin: str = "/proj/.claude/settings.json",
) -> HookSource:
    hooks: list[HookConfig] = [command(c) if isinstance(c, str) else c for c in commands]
    group = MatcherConfig(matcher=matcher, hooks=hooks)
    return HookSource(scope, Path(origin), {event: [group]})  # type: ignore[arg-type]


def hooks_for(tmp_path: Path, *sources: HookSource, **kw: Any) -> ClaudeHooks:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    kw.setdefault("project_dir", project)
    return ClaudeHooks(list(sources), **kw)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie still answers kill(0); treat it as gone
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False
