"""pi's truncated-tool example (``examples/pi/truncated_tool.py``): an ``rg`` tool whose
output is cut like the built-ins', drawn by its own renderers, expanded with Ctrl+O."""

from __future__ import annotations

from pathlib import Path

from hookline.authoring import HookHarness
from hookline.core.messages import content_text
from hookline.core.theme import plain_theme
from tests.examples.harness import example_path
from tests.modes.tui.helpers import app

MATCHES = 2500
BYPASS = ("--permission-mode", "bypassPermissions")


def _haystack(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hay.txt").write_text("".join(f"needle {i}\n" for i in range(MATCHES)))
    (folder / "other.txt").write_text("nothing here\n")


async def test_a_long_output_is_cut_and_saved_whole(tmp_path: Path) -> None:
    _haystack(tmp_path)
    harness = HookHarness(tmp_path).load(example_path("truncated_tool"))
    tool = harness.runner.get_registered_tools()["rg"]
    outcome = await harness.run_tool(tool, {"pattern": "needle"})
    result = outcome.result
    text = content_text(result.content)
    details = result.details
    kept = details["truncation"]["output_lines"]  # 50 KB came before 2000 lines
    assert text.count("needle") == kept < MATCHES
    assert f"[Output truncated: showing {kept} of {MATCHES} lines" in text
    assert details["match_count"] == MATCHES and details["truncation"]["truncated"]
    saved = Path(details["full_output_path"])
    assert saved.read_text().count("needle") == MATCHES
    assert text.endswith(f"Full output saved to: {saved}]")
    none = await harness.run_tool(tool, {"pattern": "absent-word"})
    assert content_text(none.result.content) == "No matches found"


def test_the_renderers_follow_the_render_state() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("rg_port", example_path("truncated_tool"))
    assert spec is not None and spec.loader is not None
    port = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(port)
    theme = plain_theme()
    details = {"match_count": 3, "full_output_path": "/tmp/x"}
    partial = {"is_partial": True, "expanded": False, "details": None}
    assert port.render_result("", partial, theme) == "Searching..."
    collapsed = {"is_partial": False, "expanded": False, "details": details}
    assert port.render_result("a\nb\nc", collapsed, theme) == "3 matches"
    expanded = {**collapsed, "expanded": True}
    assert port.render_result("a\nb\nc", expanded, theme) == (
        "3 matches\na\nb\nc\nFull output: /tmp/x"
    )
    assert port.render_call({"pattern": "x", "path": "src"}, theme) == '"x" in src'


def test_in_the_terminal_app_ctrl_o_shows_the_matches(tmp_path: Path) -> None:
    _haystack(tmp_path / "project")
    call = {"tool_calls": [{"name": "rg", "arguments": {"pattern": "needle"}}]}
    hook = str(example_path("truncated_tool"))
    with app(tmp_path, [call, "found"], None, "--hook", hook, *BYPASS) as pane:
        pane.ready()
        pane.type("search")
        pane.keys("Enter")
        screen = pane.wait_all(['✓ rg  "needle"', f"{MATCHES} matches (truncated)", "found"])
        assert "Full output:" not in screen and "needle 1\n" not in screen
        pane.keys("C-o")
        screen = pane.wait_all(["Full output: /tmp/", "... (use read tool to see full output)"])
        assert "hay.txt:1:needle 0" in screen
