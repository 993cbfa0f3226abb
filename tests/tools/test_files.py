"""read, write and edit: happy paths and every bad input's error."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from hookline.core.messages import content_text
from hookline.core.tool import ToolError, ToolResult
from hookline.tools.edit import create_edit_tool, create_write_tool
from hookline.tools.read import create_read_tool

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(20)


async def read(cwd: Path, **params: Any) -> ToolResult:
    return await create_read_tool(str(cwd)).execute("c", params, None, None)


async def write(cwd: Path, **params: Any) -> ToolResult:
    return await create_write_tool(str(cwd)).execute("c", params, None, None)


async def edit(cwd: Path, **params: Any) -> ToolResult:
    return await create_edit_tool(str(cwd)).execute("c", params, None, None)


# --- read -------------------------------------------------------------------


async def test_read_text(project: Path) -> None:
    (project / "a.txt").write_text("hello\nworld\n")
    result = await read(project, path="a.txt")
    assert content_text(result.content) == "hello\nworld"
    assert result.details == {"path": str(project / "a.txt"), "outside_cwd": False}


async def test_read_offset_and_limit_say_how_to_continue(project: Path) -> None:
    (project / "n.txt").write_text("".join(f"line{i}\n" for i in range(1, 11)))
    result = await read(project, path="n.txt", offset=3, limit=2)
    assert content_text(result.content) == (
        "line3\nline4\n\n[6 more lines in file. Use offset=5 to continue.]"
    )
    tail = await read(project, path="n.txt", offset=9)
    assert content_text(tail.content) == "line9\nline10"


async def test_read_truncates_long_files_by_lines(project: Path) -> None:
    (project / "big.txt").write_text("".join(f"{i}\n" for i in range(1, 3001)))
    result = await read(project, path="big.txt")
    text = content_text(result.content)
    assert text.endswith("2000\n\n[Showing lines 1-2000 of 3000. Use offset=2001 to continue.]")
    t = result.details["truncation"]
    assert (t["truncated_by"], t["total_lines"], t["output_lines"]) == ("lines", 3000, 2000)


async def test_read_truncates_by_bytes(project: Path) -> None:
    (project / "wide.txt").write_text("".join("y" * 1023 + "\n" for _ in range(100)))
    result = await read(project, path="wide.txt")
    t = result.details["truncation"]
    # sizes are of the selected lines joined by newlines (no final newline)
    assert (t["truncated_by"], t["output_lines"], t["total_bytes"]) == ("bytes", 50, 102_399)
    assert "Use offset=51 to continue." in content_text(result.content)


async def test_read_image_returns_base64(project: Path) -> None:
    (project / "pic.bin").write_bytes(PNG)  # recognised by content, not by name
    result = await read(project, path="pic.bin")
    assert content_text(result.content) == "Read image file [image/png]"
    image = result.content[1]
    assert image["type"] == "image"
    assert base64.b64decode(image["data"]) == PNG and image["mime_type"] == "image/png"
    assert result.details["mime_type"] == "image/png"


async def test_read_outside_cwd_is_allowed_and_reported(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("far\n")
    result = await read(project, path="../elsewhere.txt")
    assert content_text(result.content) == "far"
    assert result.details["outside_cwd"] is True
    absolute = await read(project, path=str(outside))
    assert absolute.details["outside_cwd"] is True


async def test_read_empty_file(project: Path) -> None:
    (project / "empty").write_text("")
    assert content_text((await read(project, path="empty")).content) == "(empty file)"


@pytest.mark.parametrize(
    ("setup", "params", "needle"),
    [
        (None, {"path": "missing.txt"}, "file not found: missing.txt"),
        ("dir", {"path": "sub"}, "sub is a directory, not a file. Use ls"),
        ("binary", {"path": "blob.bin"}, "blob.bin is a binary file"),
        ("text", {"path": "t.txt", "offset": 50}, "offset 50 is beyond the end of t.txt (2 lines)"),
        (None, {}, "missing required parameter 'path'"),
        (None, {"path": 3}, "'path' must be a string, got int 3"),
        ("text", {"path": "t.txt", "limit": "5"}, "'limit' must be an integer >= 1, got str '5'"),
        ("text", {"path": "t.txt", "offset": 0}, "'offset' must be an integer >= 1"),
        ("text", {"path": "t.txt", "limit": True}, "'limit' must be an integer"),
    ],
)
async def test_read_errors(
    project: Path, setup: str | None, params: dict[str, Any], needle: str
) -> None:
    (project / "sub").mkdir()
    (project / "blob.bin").write_bytes(b"\x7fELF\x00\x01\x02")
    (project / "t.txt").write_text("a\nb\n")
    with pytest.raises(ToolError, match=r"^read: ") as info:
        await read(project, **params)
    assert needle in str(info.value)


# --- write ------------------------------------------------------------------


async def test_write_creates_parents_then_overwrites(project: Path) -> None:
    result = await write(project, path="deep/er/f.txt", content="héllo")
    target = project / "deep/er/f.txt"
    assert target.read_text() == "héllo"
    assert content_text(result.content) == "Successfully wrote 6 bytes to deep/er/f.txt"
    assert result.details == {
        "path": str(target),
        "outside_cwd": False,
        "bytes": 6,
        "created": True,
    }
    again = await write(project, path="deep/er/f.txt", content="")
    assert target.read_text() == "" and again.details["created"] is False


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"path": "d"}, "missing required parameter 'content'"),
        ({"content": "x"}, "missing required parameter 'path'"),
        ({"path": "d", "content": "x"}, "d is a directory"),
        ({"path": "f", "content": ["x"]}, "'content' must be a string, got list"),
    ],
)
async def test_write_errors(project: Path, params: dict[str, Any], needle: str) -> None:
    (project / "d").mkdir()
    with pytest.raises(ToolError, match=r"^write: ") as info:
        await write(project, **params)
    assert needle in str(info.value)


# --- edit -------------------------------------------------------------------


async def test_edit_replaces_the_unique_match(project: Path) -> None:
    f = project / "code.py"
    f.write_text("def a():\n    return 1\n\ndef b():\n    return 2\n")
    result = await edit(project, path="code.py", oldText="return 2", newText="return 3")
    assert f.read_text() == "def a():\n    return 1\n\ndef b():\n    return 3\n"
    assert content_text(result.content) == "Successfully replaced text in code.py."
    assert result.details["first_changed_line"] == 5
    assert "-    return 2\n+    return 3\n" in result.details["diff"]
    assert result.details["outside_cwd"] is False


async def test_edit_keeps_crlf_and_bom(project: Path) -> None:
    f = project / "win.txt"
    f.write_bytes("\ufeffone\r\ntwo\r\n".encode())
    await edit(project, path="win.txt", oldText="one\ntwo", newText="uno\ndos")
    assert f.read_bytes() == "\ufeffuno\r\ndos\r\n".encode()


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"path": "f.txt", "oldText": "zzz", "newText": "y"}, "could not find oldText in f.txt"),
        ({"path": "f.txt", "oldText": "x", "newText": "y"}, "oldText occurs 3 times in f.txt"),
        ({"path": "f.txt", "oldText": "x", "newText": "x"}, "identical"),
        ({"path": "f.txt", "oldText": "", "newText": "y"}, "'oldText' must not be empty"),
        ({"path": "f.txt", "newText": "y"}, "missing required parameter 'oldText'"),
        ({"path": "f.txt", "oldText": "x"}, "missing required parameter 'newText'"),
        ({"path": "nope.txt", "oldText": "x", "newText": "y"}, "file not found: nope.txt"),
        ({"path": "blob", "oldText": "x", "newText": "y"}, "blob is a binary file"),
    ],
)
async def test_edit_errors(project: Path, params: dict[str, Any], needle: str) -> None:
    (project / "f.txt").write_text("x1 x2 x3\n")
    (project / "blob").write_bytes(b"x\x00x")
    with pytest.raises(ToolError, match=r"^edit: ") as info:
        await edit(project, **params)
    assert needle in str(info.value)
    assert (project / "f.txt").read_text() == "x1 x2 x3\n"


async def test_not_unique_message_says_how_to_fix(project: Path) -> None:
    (project / "f.txt").write_text("a\na\n")
    with pytest.raises(ToolError, match=r"occurs 2 times .* more surrounding lines"):
        await edit(project, path="f.txt", oldText="a", newText="b")
