"""The built-in tools with pluggable operations: the I/O goes where the operations say."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from hookline.core.messages import content_text
from hookline.core.tool import ToolError
from hookline.tools import (
    create_bash_tool,
    create_edit_tool,
    create_ls_tool,
    create_read_tool,
    create_write_tool,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


class MemoryFiles:
    """Files in a dict: read, write and edit operations in one object."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.dirs: list[str] = []

    async def read_file(self, path: str) -> bytes:
        return self.files[path]

    async def access(self, path: str) -> None:
        if path not in self.files:
            raise FileNotFoundError(2, "No such file or directory", path)

    async def write_file(self, path: str, content: str) -> None:
        self.files[path] = content.encode()

    async def mkdir(self, path: str) -> None:
        self.dirs.append(path)


class Elsewhere:
    """Bash operations that run every command in another directory, as ssh would."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.seen: list[tuple[str, str]] = []

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: asyncio.Event | None,
        timeout: float | None,
        env: Mapping[str, str],
    ) -> int | None:
        self.seen.append((command, cwd))
        proc = await asyncio.create_subprocess_shell(
            command,
            cwd=self.root,
            env=dict(env),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        assert proc.stdout is not None
        try:
            data = await asyncio.wait_for(proc.stdout.read(), timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            raise
        on_data(data)
        return await proc.wait()


async def test_read_goes_through_operations(tmp_path: Path) -> None:
    ops = MemoryFiles({f"{tmp_path}/a.txt": b"one\ntwo\nthree\n"})
    tool = create_read_tool(str(tmp_path), operations=ops)
    result = await tool.execute("1", {"path": "a.txt", "offset": 2, "limit": 1})
    assert content_text(result.content).startswith("two")
    assert not (tmp_path / "a.txt").exists()


async def test_read_sniffs_images_from_the_bytes(tmp_path: Path) -> None:
    ops = MemoryFiles({f"{tmp_path}/p.png": PNG})
    result = await create_read_tool(str(tmp_path), operations=ops).execute("1", {"path": "p.png"})
    assert [block["type"] for block in result.content] == ["text", "image"]


async def test_read_reports_what_access_raised(tmp_path: Path) -> None:
    tool = create_read_tool(str(tmp_path), operations=MemoryFiles({}))
    with pytest.raises(ToolError, match=r"read: cannot read gone\.txt"):
        await tool.execute("1", {"path": "gone.txt"})


async def test_write_goes_through_operations(tmp_path: Path) -> None:
    ops = MemoryFiles({})
    tool = create_write_tool(str(tmp_path), operations=ops)
    await tool.execute("1", {"path": "sub/new.txt", "content": "hi"})
    assert ops.files == {f"{tmp_path}/sub/new.txt": b"hi"}
    assert ops.dirs == [f"{tmp_path}/sub"]
    assert not (tmp_path / "sub").exists()


async def test_edit_goes_through_operations(tmp_path: Path) -> None:
    ops = MemoryFiles({f"{tmp_path}/e.py": b"x = 1\ny = 2\n"})
    tool = create_edit_tool(str(tmp_path), operations=ops)
    result = await tool.execute("1", {"path": "e.py", "oldText": "y = 2", "newText": "y = 3"})
    assert ops.files[f"{tmp_path}/e.py"] == b"x = 1\ny = 3\n"
    assert result.details is not None and "+y = 3" in result.details["diff"]
    with pytest.raises(ToolError, match="could not find"):
        await tool.execute("2", {"path": "e.py", "oldText": "z", "newText": "w"})


async def test_bash_goes_through_operations(tmp_path: Path) -> None:
    remote = tmp_path / "remote"
    remote.mkdir()
    (remote / "marker").write_text("here")
    ops = Elsewhere(remote)
    tool = create_bash_tool(str(tmp_path / "absent"), operations=ops)
    result = await tool.execute("1", {"command": "cat marker"})
    assert content_text(result.content) == "here"
    assert ops.seen == [("cat marker", str(tmp_path / "absent"))]
    with pytest.raises(ToolError, match="Command exited with code 3"):
        await tool.execute("2", {"command": "echo bad; exit 3"})


async def test_bash_operations_timeout(tmp_path: Path) -> None:
    tool = create_bash_tool(str(tmp_path), operations=Elsewhere(tmp_path))
    with pytest.raises(ToolError, match="timed out") as caught:
        await tool.execute("1", {"command": "sleep 5", "timeout": 0.2})
    assert caught.value.details == {"exit_code": None, "timed_out": True}


class MemoryTree:
    """``ls`` operations over a dict of folder → names (folders end in ``/``)."""

    def __init__(self, tree: dict[str, list[str]]) -> None:
        self.tree = tree

    async def is_dir(self, path: str) -> bool:
        if path in self.tree:
            return True
        parent, _, name = path.rpartition("/")
        if parent in self.tree and name in self.tree[parent]:
            return False
        raise FileNotFoundError(path)

    async def list_dir(self, path: str) -> list[str]:
        return self.tree[path]


async def test_ls_goes_through_operations(tmp_path: Path) -> None:
    root = str(tmp_path)
    ops = MemoryTree({root: ["b.txt", "A"], f"{root}/A": []})
    tool = create_ls_tool(root, operations=ops)
    result = await tool.execute("1", {})
    assert content_text(result.content) == "A/\nb.txt"
    assert content_text((await tool.execute("2", {"path": "A"})).content) == "(empty directory)"
    with pytest.raises(ToolError, match="path not found: nope"):
        await tool.execute("3", {"path": "nope"})
    with pytest.raises(ToolError, match=r"b\.txt is not a directory"):
        await tool.execute("4", {"path": "b.txt"})
