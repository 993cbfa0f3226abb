"""pi's protected-paths example (``examples/pi/protected_paths.py``): a real ``-p`` run whose
(scripted) model writes ``.env`` is refused and the file untouched; through the pytest plugin,
which paths are protected once resolved."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookline.core.events import ToolCallEvent
from hookline.core.results import ToolCallResult
from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import run_cli, write_script


def write(path: str, tool: str = "write") -> ToolCallEvent:
    return ToolCallEvent(tool_name=tool, tool_call_id="c1", input={"path": path, "content": "x"})


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
    loaded = example("protected_paths", cwd=project, answers={})
    ui = loaded.ui
    result = await loaded.runner.emit_tool_call(write(path))
    assert isinstance(result, ToolCallResult)
    assert result.block is True
    assert result.reason == f'Path "{path}" is protected'
    assert ui.notifications == [("warning", f"Blocked write to protected path: {path}")]


def test_a_run_cannot_write_the_env_file(project: Path, tmp_path: Path) -> None:
    (project / ".env").write_text("SECRET=1\n")
    call = {"name": "write", "arguments": {"path": ".env", "content": "SECRET=2\n"}}
    model = write_script(
        tmp_path / "script.json",
        [
            {"tool_calls": [call]},
            {"text": "Left it alone.", "expect_tool_result_contains": 'Path ".env" is protected'},
        ],
    )
    done = run_cli(
        *("-p", "bump the secret", "--model", model, "--no-session", "--cwd", str(project)),
        *("--hook", str(PI_EXAMPLES / "protected_paths.py")),
        *("--permission-mode", "bypassPermissions"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Left it alone.\n"
    assert "Blocked write to protected path" not in done.stderr  # no UI: nothing said
    assert (project / ".env").read_text() == "SECRET=1\n"


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
