"""The docs' first hook works as written: extracted from the page, loaded, and tried."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hookline.authoring import HookHarness

PAGE = Path(__file__).resolve().parents[2] / "docs" / "getting-started.md"


async def test_the_getting_started_hook_blocks_force_pushes(
    hook_harness: HookHarness, tmp_path: Path
) -> None:
    [code] = re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)
    hook = tmp_path / "no_force_push.py"
    hook.write_text(code)
    hook_harness.load(hook)
    (await hook_harness.tool_call("bash", {"command": "git push --force"})).assert_blocked("force")
    (await hook_harness.tool_call("Bash", {"command": "git push"})).assert_allowed()
    (await hook_harness.tool_call("bash", {"command": "'git' push --force"})).assert_blocked()


EMBEDDING = PAGE.with_name("embedding.md")


def test_the_embedding_example_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page's program, run in a folder with a guard in hooks/: it prints what it says."""
    [code] = re.findall(r"```python\n(.*?)```", EMBEDDING.read_text(), re.S)
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "guard.py").write_text(
        "def register(pi):\n"
        "    @pi.on('tool_call')\n"
        "    def guard(event, ctx):\n"
        "        if 'rm -rf' in event.input.get('command', ''):\n"
        "            pi.send_message({'custom_type': 'guard', 'content': 'no rm -rf'})\n"
        "            return {'block': True, 'reason': 'no rm -rf here'}\n"
    )
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(EMBEDDING), "exec"), {"__name__": "__main__"})
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "a hook says: no rm -rf",
        "blocked: no rm -rf here",
        "a hook says: no rm -rf",
        "blocked: no rm -rf here",
        "hello",
    ]


def test_the_embedding_example_refuses_to_start_without_its_guard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [code] = re.findall(r"```python\n(.*?)```", EMBEDDING.read_text(), re.S)
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "guard.py").write_text("def register(pi):\n    raise ValueError('x')\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match="hook failed to load"):
        exec(compile(code, str(EMBEDDING), "exec"), {"__name__": "__main__"})
