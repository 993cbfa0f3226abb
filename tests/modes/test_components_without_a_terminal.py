"""A hook's component where nothing can draw it: print, JSON and RPC mode show its text
once (80 columns, no colours) the way each shows a notification; ``custom`` is None."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import RpcClient, run_cli, write_hook, write_script

HOOK = """
import json
from pathlib import Path

from hookline.components import Box, Text


def register(pi):
    @pi.on("agent_start")
    async def show(event, ctx):
        def factory(tui, theme, keybindings, done):
            box = Box(1, 0, border=lambda s: theme.fg("border", s), title="Scores")
            box.add_child(Text(theme.fg("accent", "high score 42"), 0, 0))
            return box

        value = await ctx.ui.custom(factory, overlay=True, anchor="top-right", width=30)
        Path(RECORD).write_text(json.dumps(value))
        ctx.ui.set_widget("progress", lambda tui, theme: Text(theme.fg("accent", "3 of 5"), 1, 0))
"""
BOX = "╭─ Scores ─"


def _hook(tmp_path: Path) -> tuple[Path, Path, str]:
    record = tmp_path / "record.json"
    hook = write_hook(tmp_path / "hook.py", HOOK.replace("RECORD", repr(str(record))))
    return record, hook, write_script(tmp_path / "script.json", ["Done."])


def test_print_and_json_modes_show_the_summary_on_stderr(tmp_path: Path) -> None:
    record, hook, model = _hook(tmp_path)
    for mode in ("text", "json"):
        done = run_cli(
            "-p", "go", "--mode", mode, "--model", model, "--hook", str(hook), "--no-session"
        )
        assert done.returncode == 0, done.stderr
        assert "[info] ╭─ Scores ─" in done.stderr and "│ high score 42" in done.stderr
        assert "\x1b[" not in done.stderr  # no colours
        assert BOX not in done.stdout
        assert json.loads(record.read_text()) is None


async def test_rpc_sends_the_summary_as_a_notification(tmp_path: Path) -> None:
    record, hook, model = _hook(tmp_path)
    async with RpcClient("--model", model, "--hook", str(hook), "--no-session") as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        await rpc.read_until(lambda m: m["type"] == "agent_end")
        assert await rpc.close_stdin() == 0
    notes = [m for m in rpc.seen if m["type"] == "extension_ui_request" and m["method"] == "notify"]
    (note,) = [n for n in notes if BOX in n["message"]]
    lines = note["message"].splitlines()
    assert lines[1].startswith("│ high score 42") and len(lines[0]) == 80  # rendered at 80
    assert note["notifyType"] == "info"
    assert json.loads(record.read_text()) is None


async def test_rpc_sends_a_component_widget_as_its_lines(tmp_path: Path) -> None:
    _, hook, model = _hook(tmp_path)
    async with RpcClient("--model", model, "--hook", str(hook), "--no-session") as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        await rpc.read_until(lambda m: m["type"] == "agent_end")
        assert await rpc.close_stdin() == 0
    (widget,) = [
        m for m in rpc.seen if m["type"] == "extension_ui_request" and m["method"] == "setWidget"
    ]
    assert widget["widgetKey"] == "progress" and widget["widgetLines"] == [" 3 of 5"]
