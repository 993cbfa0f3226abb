"""The rm -rf blocker example, loaded from its file: tree-sitter analysis of bash commands."""

from __future__ import annotations

import runpy

import pytest

from hookline.core.events import ToolCallEvent
from hookline.core.results import ToolCallResult
from hookline.shell import ShellParseError

from .harness import EXAMPLES, Example


def bash(command: str) -> ToolCallEvent:
    return ToolCallEvent(tool_name="bash", tool_call_id="c1", input={"command": command})


BLOCKED = [
    "rm -rf /",
    "rm -rf ~",
    "rm -rf ..",
    "rm -fr /",
    "rm -r -f ~/",
    "rm -R ../..",
    "rm --recursive --force /",
    "rm -rf /*",
    "rm -rf //",
    'rm -rf "/"',
    'rm -rf "$HOME"',
    "rm -rf ${HOME}/",
    "rm -rf -- /",
    "/bin/rm -rf /",
    "\\rm -rf /",
    "sudo rm -rf /",
    "sudo -u root rm -rf /",
    "FOO=1 sudo rm -rf -- /",
    "FOO=1 BAR=2 rm -rf ~",
    "env -i A=1 rm -rf /",
    "command rm -rf ..",
    "timeout 5 nice -n 10 rm -rf /",
    "echo $(rm -rf /)",
    "echo `rm -rf ~`",
    "ls && rm -rf ..",
    "true || rm -rf /",
    "cd /tmp; rm -rf ~",
    "cat f | rm -rf /",
    "(cd x && rm -rf ..)",
    "if true; then rm -rf /; fi",
    "for d in a b; do rm -rf ~; done",
    "x=${y:-$(rm -rf /)}",
    "cat <<EOF\n$(rm -rf /)\nEOF",
    'bash -c "rm -rf /"',
    "sh -c 'cd x; rm -rf ..'",
    "eval rm -rf /",
    "rm -r /",
    "r\\m -rf /",
    "$'\\x72m' -rf /",
    "timeout -s KILL 5 rm -rf /",
    "find . -exec rm -rf / \\;",
    "bash -c \"bash -c 'rm -rf ~'\"",
    "rm -r\\\nf /",
    "rm >/dev/null -rf /",
    "2>/dev/null rm -rf ~",
]


@pytest.mark.parametrize("command", BLOCKED)
async def test_blocks_dangerous_rm(command: str, example: Example) -> None:
    loaded = example("rm_rf_blocker")
    result = await loaded.runner.emit_tool_call(bash(command))
    assert isinstance(result, ToolCallResult), command
    assert result.block is True
    assert "blocked by safety policy" in (result.reason or "")
    assert loaded.errors == []


ALLOWED = [
    "ls -la",
    "rm -rf build",
    "rm -rf ./node_modules",
    "rm -rf /tmp/scratch",
    "rm -rf ~/project/build",
    "rm -rf ../sibling",
    "rm -f /",  # not recursive: rm refuses a directory
    "rm -rf *",
    "echo rm -rf /",
    "echo 'rm -rf /'",
    'git commit -m "rm -rf /"',
    "grep -r 'rm -rf ~' .",
    "FOO=1 sudo rm -rf -- /x && echo $(rm -rf /y)",
    'sh -c "echo hi"',
    "rmdir /",
]


@pytest.mark.parametrize("command", ALLOWED)
async def test_allows_everything_else(command: str, example: Example) -> None:
    loaded = example("rm_rf_blocker")
    assert await loaded.runner.emit_tool_call(bash(command)) is None, command


@pytest.mark.parametrize("command", ["rm -rf / (", 'rm -rf "unclosed', "if then rm -rf x"])
async def test_unparsable_with_rm_rf_is_blocked(command: str, example: Example) -> None:
    loaded = example("rm_rf_blocker")
    result = await loaded.runner.emit_tool_call(bash(command))
    assert isinstance(result, ToolCallResult) and result.block is True
    assert "unparsable" in (result.reason or "")


@pytest.mark.parametrize("command", ['echo "unclosed', "if then ls", "rm -r -f ( x"])
async def test_unparsable_without_rm_rf_is_allowed(command: str, example: Example) -> None:
    loaded = example("rm_rf_blocker")
    assert await loaded.runner.emit_tool_call(bash(command)) is None


def test_parser_reports_syntax_errors() -> None:
    find_dangerous_rm = runpy.run_path(str(EXAMPLES / "rm_rf_blocker.py"))["find_dangerous_rm"]
    with pytest.raises(ShellParseError):
        find_dangerous_rm('echo "x')
    assert find_dangerous_rm("rm -rf ..") == "rm -rf .."


async def test_confirm_with_ui_lets_it_run(example: Example) -> None:
    loaded = example("rm_rf_blocker", answers={"confirm": True})
    assert await loaded.runner.emit_tool_call(bash("rm -rf ~")) is None
    assert loaded.ui.asked and "rm -rf ~" in loaded.ui.asked[0].detail


async def test_refusal_with_ui_blocks(example: Example) -> None:
    loaded = example("rm_rf_blocker", answers={"confirm": False})
    result = await loaded.runner.emit_tool_call(bash("rm -rf ~"))
    assert isinstance(result, ToolCallResult) and result.block is True


async def test_other_tools_ignored(example: Example) -> None:
    loaded = example("rm_rf_blocker")
    event = ToolCallEvent(tool_name="write", tool_call_id="c", input={"path": "rm -rf /"})
    assert await loaded.runner.emit_tool_call(event) is None
