"""The tool_call example hooks, loaded from their files: permission gate, protected paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookline.core.events import ToolCallEvent
from hookline.core.results import ToolCallResult

from .harness import Example


def bash(command: str) -> ToolCallEvent:
    return ToolCallEvent(tool_name="bash", tool_call_id="c1", input={"command": command})


def write(path: str, tool: str = "write") -> ToolCallEvent:
    return ToolCallEvent(tool_name=tool, tool_call_id="c1", input={"path": path, "content": "x"})


# -- protected_paths ---------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _project_files(project: Path) -> None:
    """What every test here finds in the project folder."""
    root = project
    (root / "src").mkdir(parents=True)
    (root / "sub").mkdir()


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        "./.env",
        "sub/../.env",
        "sub/.env",
        ".env.local",
        ".git/config",
        ".git/hooks/pre-commit",
        "node_modules/pkg/index.js",
        "web/node_modules/x.js",
        "src/../.git/HEAD",
    ],
)
async def test_protected_paths_blocks(project: Path, path: str, example: Example) -> None:
    loaded = example("protected_paths", cwd=project)
    ui = loaded.ui
    result = await loaded.runner.emit_tool_call(write(path))
    assert isinstance(result, ToolCallResult)
    assert result.block is True
    assert path in (result.reason or "")
    assert ui.notifications == [("warning", f"Blocked write to protected path: {path}")]


async def test_protected_paths_blocks_absolute_path_and_edit(
    project: Path, example: Example
) -> None:
    loaded = example("protected_paths", cwd=project)
    result = await loaded.runner.emit_tool_call(write(str(project / ".env"), tool="edit"))
    assert isinstance(result, ToolCallResult) and result.block is True


async def test_protected_paths_follows_symlinks(project: Path, example: Example) -> None:
    (project / ".git").mkdir()
    os.symlink(project / ".git", project / "innocent")
    loaded = example("protected_paths", cwd=project)
    result = await loaded.runner.emit_tool_call(write("innocent/config"))
    assert isinstance(result, ToolCallResult) and result.block is True


async def test_protected_paths_relative_cwd_path(
    project: Path, monkeypatch: pytest.MonkeyPatch, example: Example
) -> None:
    monkeypatch.chdir(project.parent)
    loaded = example("protected_paths", cwd="project")
    result = await loaded.runner.emit_tool_call(write("sub/../.env"))
    assert isinstance(result, ToolCallResult) and result.block is True
    assert await loaded.runner.emit_tool_call(write("src/app.py")) is None


@pytest.mark.parametrize(
    "path",
    [
        "src/my.env.example",
        "src/app.py",
        ".env.example",
        "config.env",
        "docs/.github/workflow.yml",
        "node_modules_notes.md",
        ".gitignore",
        "environment/.envrc",
    ],
)
async def test_protected_paths_allows(project: Path, path: str, example: Example) -> None:
    loaded = example("protected_paths", cwd=project)
    ui = loaded.ui
    assert await loaded.runner.emit_tool_call(write(path)) is None
    assert ui.notifications == []


async def test_protected_paths_ignores_reads(project: Path, example: Example) -> None:
    loaded = example("protected_paths", cwd=project)
    event = ToolCallEvent(tool_name="read", tool_call_id="c", input={"path": ".env"})
    assert await loaded.runner.emit_tool_call(event) is None
