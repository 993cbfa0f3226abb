"""``ctx.ui.theme`` where nothing is coloured: print, JSON and RPC modes hand hooks a
plain theme (pi's names, the text unchanged) and refuse ``set_theme``, as pi does."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import RpcClient, run_cli, write_hook, write_script

HOOK = """
def register(pi):
    @pi.on("session_start")
    def start(event, ctx):
        theme = ctx.ui.theme
        text = theme.fg("error", "e") + theme.bg("selectedBg", "b") + theme.bold("B")
        result = ctx.ui.set_theme("light")
        ctx.ui.notify(f"themed={text!r} switched={result.success} why={result.error}")
"""


def _setup(tmp_path: Path) -> tuple[str, Path]:
    model = write_script(tmp_path / "script.json", [{"text": "hi"}])
    return model, write_hook(tmp_path / "hook.py", HOOK)


@pytest.mark.parametrize("mode", ["text", "json"])
def test_print_and_json_modes_get_plain_text(tmp_path: Path, mode: str) -> None:
    model, hook = _setup(tmp_path)
    done = run_cli(
        "-p", "go", "--mode", mode, "--model", model, "--hook", str(hook), "--no-session"
    )
    assert done.returncode == 0, done.stderr
    assert "themed='ebB' switched=False why=UI not available" in done.stderr


async def test_rpc_mode_gets_plain_text(tmp_path: Path) -> None:
    model, hook = _setup(tmp_path)
    async with RpcClient("--model", model, "--hook", str(hook), "--no-session") as client:
        lines = await client.read_until(lambda m: m.get("method") == "notify")
        assert lines[-1]["message"] == (
            "themed='ebB' switched=False why=Theme switching not supported in RPC mode"
        )
        assert await client.close_stdin() == 0
