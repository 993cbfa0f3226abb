"""The built-in tools' previews (``meta["render_preview"]``): what a call will do, shown
before it runs: a write's content highlighted, an edit's diff as the edit itself works it
out, a bash line with the simple commands the rules saw."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rich.console import Console

from hookline.core.tool import Tool
from hookline.tools import _preview
from hookline.tools.bash import create_bash_tool
from hookline.tools.edit import create_edit_tool, create_write_tool


def _show(tool: Tool, args: dict[str, Any], width: int = 100) -> str:
    """The tool's preview of ``args`` as plain text."""
    console = Console(width=width, force_terminal=True, color_system="256")
    with console.capture() as captured:
        console.print(tool.meta["render_preview"](args, {"width": width}))
    return re.sub(r"\x1b\[[0-9;]*m", "", captured.get())


def _colours(tool: Tool, args: dict[str, Any]) -> set[str]:
    console = Console(width=100, force_terminal=True, color_system="256")
    with console.capture() as captured:
        console.print(tool.meta["render_preview"](args, {"width": 100}))
    return set(re.findall(r"38;5;(\d+)", captured.get()))


def test_a_write_shows_its_content_numbered_and_highlighted_by_file_type(
    project: Path,
) -> None:
    write = create_write_tool(str(project))
    args = {"path": "greet.py", "content": "def greet():\n    return 1\n"}
    text = _show(write, args)
    assert re.search(r"1 def greet\(\):", text) and re.search(r"2\s+return 1", text)
    as_text = {"path": "greet.txt", "content": args["content"]}
    assert len(_colours(write, args)) > len(_colours(write, as_text))  # python is coloured
    assert not (project / "greet.py").exists()  # a preview writes nothing


def test_a_long_write_is_cut_and_counted(project: Path) -> None:
    lines = _preview.PREVIEW_MAX_LINES + 25
    content = "".join(f"row {n}\n" for n in range(1, lines + 1))
    text = _show(create_write_tool(str(project)), {"path": "rows.txt", "content": content})
    rows = re.findall(r"row (\d+)", text)
    assert rows[-1] == str(_preview.PREVIEW_MAX_LINES) and len(rows) == _preview.PREVIEW_MAX_LINES
    assert "… 25 more lines …" in text


def test_an_invalid_write_says_why() -> None:
    text = _show(create_write_tool("."), {"path": "x.txt"})
    assert "write" in text and "content" in text


async def test_an_edit_preview_is_the_diff_the_edit_makes(project: Path) -> None:
    (project / "notes.txt").write_bytes(b"alpha\r\nbravo\r\ncharlie\r\n")
    edit = create_edit_tool(str(project))
    args = {"path": "notes.txt", "oldText": "bravo", "newText": "BRAVO"}
    text = _show(edit, args)
    assert "-bravo" in text and "+BRAVO" in text and " alpha" in text
    assert "--- a/notes.txt" in text and "+++ b/notes.txt" in text
    assert (project / "notes.txt").read_bytes() == b"alpha\r\nbravo\r\ncharlie\r\n"  # untouched
    result = await edit.execute("c", args, None, None)
    assert result.details is not None
    diff = result.details["diff"]
    assert all(line.rstrip() in text for line in diff.splitlines())  # the same diff


def test_an_edit_that_will_fail_says_so_as_the_edit_would(project: Path) -> None:
    (project / "notes.txt").write_text("same\nsame\n")
    edit = create_edit_tool(str(project))
    missing = _show(edit, {"path": "notes.txt", "oldText": "gone", "newText": "x"})
    assert "could not find oldText in notes.txt" in " ".join(missing.split())
    twice = _show(edit, {"path": "notes.txt", "oldText": "same", "newText": "x"})
    assert "oldText occurs 2 times" in " ".join(twice.split())
    nowhere = _show(edit, {"path": "absent.txt", "oldText": "a", "newText": "b"})
    assert "edit: file not found: absent.txt" in " ".join(nowhere.split())


def test_a_bash_preview_lists_the_simple_commands_the_rules_see(project: Path) -> None:
    bash = create_bash_tool(str(project))
    line = "sudo rm -rf build && echo $(id -u) > out.txt"
    text = _show(bash, {"command": line})
    assert line in text
    assert "• rm -rf build  via sudo" in text
    assert "• echo $(id -u)" in text and "• id -u" in text
    assert "writes  out.txt" in text
    dynamic = _show(bash, {"command": 'bash -c "$SCRIPT"'})
    assert "not analysed: bash -c script is not static" in dynamic
