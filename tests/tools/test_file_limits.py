"""read, write and edit under abuse: huge files, devices, FIFOs, sockets, the host's own streams.

Anything that could block is run in a child process with a deadline, so a
regression fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from hookline.core.messages import content_text
from hookline.core.tool import ToolError, ToolResult
from hookline.tools.edit import create_edit_tool, create_write_tool
from hookline.tools.read import COUNT_LIMIT, create_read_tool

GB = 1024 * 1024 * 1024
#: Generous: only a blocked child ever reaches it.
CHILD_TIMEOUT = 60.0

_CHILD = """
import asyncio, json, resource, sys
from hookline.core.messages import content_text
from hookline.core.tool import ToolError
from hookline.tools import (
    create_edit_tool, create_grep_tool, create_read_tool, create_write_tool,
)

TOOLS = {
    "read": create_read_tool, "write": create_write_tool, "edit": create_edit_tool,
    "grep": create_grep_tool,
}

async def call(name, params):
    try:
        res = await TOOLS[name](sys.argv[1]).execute("c", params, None, None)
    except ToolError as exc:
        return {"error": str(exc)}
    return {"text": content_text(res.content)}

def rss_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

warm = json.loads(sys.argv[2])
asyncio.run(call(*warm))  # imports, the loop and the thread pool are paid for here
before = rss_kb()
out = asyncio.run(call(*json.loads(sys.argv[3])))
out["rss_growth_kb"] = rss_kb() - before
print(json.dumps(out))
"""


def in_child(
    cwd: Path, name: str, params: dict[str, Any], *, stdin: int | None = subprocess.DEVNULL
) -> dict[str, Any]:
    """Run one tool call in a fresh interpreter (after a warm-up read) and return its outcome."""
    warm = cwd / "warm.txt"
    warm.write_text("warm\n")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(_CHILD),
            str(cwd),
            json.dumps(["read", {"path": str(warm)}]),
            json.dumps([name, params]),
        ],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


async def read(cwd: Path, **params: Any) -> ToolResult:
    return await create_read_tool(str(cwd)).execute("c", params, None, None)


def _huge(path: Path, size: int = GB) -> None:
    """Two short lines, a ~1 GB line (text for the binary sniff, then NULs: sparse, no disk
    used), then two more."""
    with path.open("wb") as f:
        f.write(b"first\nsecond\n" + b"x" * 16384)
        f.truncate(size)
        f.seek(size)
        f.write(b"\nthird\nfourth\n")


# --- read: only what is shown is read ------------------------------------------------


def test_two_lines_of_a_1gb_file_cost_little_memory(project: Path) -> None:
    _huge(project / "huge.log")
    head = in_child(project, "read", {"path": "huge.log", "limit": 2})
    assert head["text"] == "first\nsecond\n\n[More lines in file. Use offset=3 to continue.]"
    assert head["rss_growth_kb"] <= 50 * 1024, head


def test_grep_over_a_256mb_line_stays_in_bounded_memory(project: Path) -> None:
    _huge(project / "huge.log", 256 * 1024 * 1024)
    found = in_child(project, "grep", {"pattern": "fourth", "path": "huge.log", "context": 1})
    assert found["text"] == "huge.log-4- third\nhuge.log:5: fourth", found
    assert found["rss_growth_kb"] <= 50 * 1024, found


def test_lines_after_a_256mb_line_are_reached_in_bounded_memory(project: Path) -> None:
    _huge(project / "huge.log", 256 * 1024 * 1024)  # five times the bound, quicker to skip
    tail = in_child(project, "read", {"path": "huge.log", "offset": 4, "limit": 2})
    assert tail["text"] == "third\nfourth"
    assert tail["rss_growth_kb"] <= 50 * 1024, tail


async def test_a_file_over_the_count_limit_is_not_counted_to_its_end(project: Path) -> None:
    big = project / "big.txt"
    line = b"x" * 99 + b"\n"
    big.write_bytes(line * (COUNT_LIMIT // len(line) + 10))
    result = await read(project, path="big.txt")
    assert content_text(result.content).endswith(
        "[Showing lines 1-512. Use offset=513 to continue.]"
    )


async def test_counts_stay_exact_for_small_files(project: Path) -> None:
    (project / "n.txt").write_text("".join(f"{i}\n" for i in range(1, 11)))
    result = await read(project, path="n.txt", offset=2, limit=3)
    assert (
        content_text(result.content)
        == "2\n3\n4\n\n[6 more lines in file. Use offset=5 to continue.]"
    )
    # a long line before the window is skipped, not kept
    (project / "long.txt").write_text("y" * 200_000 + "\nafter\n")
    assert content_text((await read(project, path="long.txt", offset=2)).content) == "after"


async def test_a_line_without_final_newline_counts(project: Path) -> None:
    (project / "n.txt").write_text("a\nb\nc")
    result = await read(project, path="n.txt", limit=1)
    assert content_text(result.content) == "a\n\n[2 more lines in file. Use offset=2 to continue.]"
    with pytest.raises(ToolError, match=r"offset 5 is beyond the end of n.txt \(3 lines\)"):
        await read(project, path="n.txt", offset=5)


# --- read: only regular files ----------------------------------------------------------


def test_dev_zero_is_refused(project: Path) -> None:
    out = in_child(project, "read", {"path": "/dev/zero"})
    assert out["error"] == (
        "read: /dev/zero is not a regular file (character device); "
        "read only works on regular files."
    )


def test_a_fifo_is_refused_at_once(project: Path) -> None:
    os.mkfifo(project / "pipe")  # nobody ever writes: an open without O_NONBLOCK blocks
    out = in_child(project, "read", {"path": "pipe"})
    assert out["error"].startswith("read: pipe is not a regular file (named pipe (FIFO))")


def test_a_symlink_to_a_fifo_is_refused(project: Path) -> None:
    os.mkfifo(project / "pipe")
    (project / "innocent.txt").symlink_to(project / "pipe")
    out = in_child(project, "read", {"path": "innocent.txt"})
    assert "is not a regular file (named pipe (FIFO))" in out["error"]


def test_dev_stdin_is_refused(project: Path) -> None:
    # the host's channel: in RPC mode, reading it would steal the host's next command
    out = in_child(project, "read", {"path": "/dev/stdin"}, stdin=subprocess.PIPE)
    assert out["error"].startswith("read: /dev/stdin is not a regular file (named pipe (FIFO))")


async def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        with pytest.raises(ToolError, match=r"s.sock is not a regular file \(socket\)"):
            await read(tmp_path, path="s.sock")


async def test_a_huge_image_is_refused(project: Path) -> None:
    pic = project / "pic.png"
    with pic.open("wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.truncate(GB)
    with pytest.raises(ToolError, match=r"pic.png is 1024.0MB, over the 20.0MB limit"):
        await read(project, path="pic.png")


# --- write and edit: only regular files ------------------------------------------------


def test_write_to_a_fifo_is_refused_and_does_not_hang(project: Path) -> None:
    os.mkfifo(project / "pipe")
    out = in_child(project, "write", {"path": "pipe", "content": "x"})
    assert out["error"].startswith("write: pipe is not a regular file (named pipe (FIFO))")


def test_write_through_a_symlink_to_dev_stdout_is_refused(project: Path) -> None:
    (project / "out.txt").symlink_to("/dev/stdout")
    out = in_child(project, "write", {"path": "out.txt", "content": '{"type": "forged"}\n'})
    # the child's stdout is a pipe here (a terminal would be a character device)
    assert out["error"].startswith("write: out.txt is not a regular file (")
    assert "forged" not in json.dumps({k: v for k, v in out.items() if k != "error"})


def test_edit_of_a_fifo_is_refused_and_does_not_hang(project: Path) -> None:
    os.mkfifo(project / "pipe")
    out = in_child(project, "edit", {"path": "pipe", "oldText": "a", "newText": "b"})
    assert out["error"].startswith("edit: pipe is not a regular file (named pipe (FIFO))")


async def test_write_and_edit_refuse_devices(project: Path) -> None:
    with pytest.raises(ToolError, match=r"^write: /dev/null is not a regular file \(character"):
        await create_write_tool(str(project)).execute(
            "c", {"path": "/dev/null", "content": "x"}, None, None
        )
    with pytest.raises(ToolError, match=r"^edit: /dev/zero is not a regular file \(character"):
        await create_edit_tool(str(project)).execute(
            "c", {"path": "/dev/zero", "oldText": "a", "newText": "b"}, None, None
        )


async def test_edit_refuses_a_file_too_large_to_hold(project: Path) -> None:
    big = project / "big.txt"
    with big.open("wb") as f:
        f.write(b"text\n")
        f.truncate(GB)
    with pytest.raises(ToolError, match=r"big.txt is 1024.0MB, over the 32.0MB limit"):
        await create_edit_tool(str(project)).execute(
            "c", {"path": "big.txt", "oldText": "text", "newText": "t"}, None, None
        )


# --- grep and the walk: a FIFO in the tree is skipped ----------------------------------

_GREP_CHILD = """
import asyncio, sys
from hookline.core.messages import content_text
from hookline.tools import create_grep_tool, create_find_tool

async def main():
    grep = await create_grep_tool(sys.argv[1]).execute("c", {"pattern": "needle"}, None, None)
    find = await create_find_tool(sys.argv[1]).execute("c", {"pattern": "*.txt"}, None, None)
    print(content_text(grep.content))
    print(content_text(find.content))

asyncio.run(main())
"""


def test_grep_and_find_skip_fifos_in_the_tree(project: Path) -> None:
    (project / "a.txt").write_text("a needle here\n")
    os.mkfifo(project / "b.txt")  # a search that opened it would block forever
    (project / "sub").mkdir()
    os.mkfifo(project / "sub" / ".gitignore")
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_GREP_CHILD), str(project)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a.txt:1: a needle here\na.txt\nb.txt\n"


async def test_skipping_to_a_far_offset_stops_when_the_call_is_aborted(project: Path) -> None:
    _huge(project / "huge.log", 256 * 1024 * 1024)
    aborted = asyncio.Event()
    aborted.set()
    with pytest.raises(ToolError, match=r"^read: aborted$"):
        await create_read_tool(str(project)).execute(
            "c", {"path": "huge.log", "offset": 4}, aborted, None
        )


_LIMITED_CHILD = """
import asyncio, json, resource, signal, sys
from hookline.core.tool import ToolError
from hookline.tools import create_edit_tool, create_write_tool

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))  # room for 1000 bytes a file

async def main():
    out = []
    cwd = sys.argv[1]
    calls = [
        (create_write_tool, {"path": "keep.txt", "content": "x" * 5000}),
        (create_edit_tool, {"path": "keep.txt", "oldText": "original", "newText": "y" * 5000}),
        (create_write_tool, {"path": "new.txt", "content": "z" * 5000}),
    ]
    for make, params in calls:
        try:
            await make(cwd).execute("c", params, None, None)
            out.append("ok")
        except ToolError as exc:
            out.append(str(exc))
    print(json.dumps(out))

asyncio.run(main())
"""


def test_a_write_that_does_not_fit_leaves_the_file_as_it_was(project: Path) -> None:
    keep = project / "keep.txt"
    keep.write_text("original content\n")
    done = subprocess.run(
        [sys.executable, "-c", _LIMITED_CHILD, str(project)],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    errors = json.loads(done.stdout)
    assert errors[0] == "write: cannot write keep.txt: File too large"
    assert errors[1] == "edit: cannot write keep.txt: File too large"
    assert errors[2] == "write: cannot write new.txt: File too large"
    assert keep.read_text() == "original content\n", "the old content was lost"
    assert not (project / "new.txt").exists(), "a file the write could not fill was left"
