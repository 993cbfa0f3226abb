"""Disk full for real: an ``RLIMIT_FSIZE``-limited child makes appends fail with EFBIG.

Whatever the failing write left, the file must end on a whole line, every line
must parse, the run must go on in memory, and the user must be told (once at
the failure, with the ids at close) which entries were not saved.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from hookline.core.messages import user_message
from hookline.session import SessionManager, SessionWriteError

from .helpers import HOOKLINE, file_size_limit, jsonl_lines, run_hookline

# The limit lands in the middle of an entry: its first write is short, the next
# one fails with EFBIG. Every entry after that must stay in memory only.
_APPEND_LOOP = textwrap.dedent(
    """
    import json, os, resource, signal, sys
    from hookline.core.messages import user_message
    from hookline.session import SessionManager

    s = SessionManager.create(sys.argv[1])
    path = s.get_session_file()
    ids = [s.append_message(user_message("x" * 400 + "0000"))]
    one = os.path.getsize(path) - len(open(path, "rb").readline())
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limit = os.path.getsize(path) + 3 * one + one // 2
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    for i in range(1, 12):
        ids.append(s.append_message(user_message("x" * 400 + "%04d" % i)))
    report = {
        "path": path,
        "ids": ids,
        "unsaved": s.unsaved_entry_ids,
        "in_memory": [e["id"] for e in s.get_entries()],
        "context": len(s.build_context_messages()),
        "error_errno": s.save_error.errno if s.save_error else None,
    }
    s.close()
    print(json.dumps(report), flush=True)
    """
)


def test_disk_full_append_loop_cuts_back_and_goes_on_in_memory(project: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _APPEND_LOOP, str(project)],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    ids, unsaved = report["ids"], report["unsaved"]
    # four entries fit under the limit; the fifth was cut short, the rest never written
    assert unsaved == ids[4:], report
    assert report["in_memory"] == ids and report["context"] == 12  # nothing lost in memory
    assert report["error_errno"] == 27  # EFBIG

    path = Path(report["path"])
    lines = jsonl_lines(path)  # ends with "\n", every line parses: no half entry left
    assert [e["id"] for e in lines[1:]] == ids[:4]

    # the user is told at the failure and, with every unsaved id, at close
    err = done.stderr
    assert "EFBIG" in err and "file size limit" in err
    assert f"entry {ids[4]} and every later entry of this run are kept in memory only" in err
    assert "8 entries of this run were not saved (File too large [EFBIG])" in err
    assert all(entry_id in err for entry_id in unsaved)

    # a later writer appends on a fresh line: nothing glued onto a partial entry
    with SessionManager.open(path) as again:
        assert again.load_warnings == []
        new = again.append_message(user_message("after the disk was freed"))
    assert [e["id"] for e in jsonl_lines(path)[1:]] == [*ids[:4], new]


def test_a_short_write_is_cut_back_to_the_entry_start(tmp_path: Path) -> None:
    """The file layer alone: a write that stops half-way leaves the file as it was."""
    script = textwrap.dedent(
        """
        import os, resource, signal, sys
        from pathlib import Path
        from hookline.session import SessionWriteError
        from hookline.session.storage import LockedFile

        f = LockedFile(Path(sys.argv[1]), create=True)
        f.append(b'{"type":"session"}\\n')
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, resource.RLIM_INFINITY))
        try:
            f.append(b'{"a":"' + b"y" * 500 + b'"}\\n')
        except SessionWriteError as exc:
            print(exc.errno, exc.truncated, exc)
        f.append(b'{"b":1}\\n')
        """
    )
    path = tmp_path / "s.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    code, truncated, message = done.stdout.split(" ", 2)
    assert (code, truncated) == ("27", "True")
    assert str(path) in message and "EFBIG" in message
    assert path.read_bytes() == b'{"type":"session"}\n{"b":1}\n'


def test_a_failed_header_write_leaves_no_file(project: Path, tmp_path: Path) -> None:
    """Creating a session on a full disk: a clear error and no headerless file."""
    script = textwrap.dedent(
        """
        import resource, signal, sys
        from hookline.session import SessionManager, SessionWriteError
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (10, resource.RLIM_INFINITY))
        try:
            SessionManager.create(sys.argv[1], session_dir=sys.argv[2])
        except SessionWriteError as exc:
            print("REFUSED", exc)
        """
    )
    folder = tmp_path / "sessions"
    done = subprocess.run(
        [sys.executable, "-c", script, str(project), str(folder)],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    assert done.stdout.startswith("REFUSED could not write session file"), done.stderr
    assert list(folder.glob("*.jsonl")) == []


def test_print_run_on_a_full_disk_answers_and_names_the_unsaved_entries(
    tmp_path: Path, isolated_home: Path
) -> None:
    """``hookline -p`` under a file size limit: answer printed, exit 0, no traceback."""
    project = tmp_path / "proj"
    project.mkdir()
    answer = "The answer is " + "z" * 30_000
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [answer]}))
    done = run_hookline(
        "-p",
        "hello",
        "--model",
        f"scripted:{script}",
        "--cwd",
        str(project),
        preexec_fn=file_size_limit(16_000),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == answer  # the answer is not lost
    assert "Traceback" not in done.stderr
    assert "could not write session file" in done.stderr and "EFBIG" in done.stderr
    assert "1 entry of this run was not saved" in done.stderr

    (path,) = (isolated_home / ".hookline" / "sessions").rglob("*.jsonl")
    lines = jsonl_lines(path)
    assert lines[0]["type"] == "session"
    roles = [e["message"]["role"] for e in lines if e["type"] == "message"]
    assert roles == ["user"]  # the user's prompt is saved, the too-big answer is not
    unsaved = re.search(r"entry (\S+) and every later entry", done.stderr)
    assert unsaved is not None, done.stderr
    assert unsaved.group(1) not in {e.get("id") for e in lines}


def test_write_error_names_the_cause() -> None:
    err = SessionWriteError("/s.jsonl", OSError(28, "No space left on device"))
    assert str(err) == (
        "could not write session file /s.jsonl: No space left on device [ENOSPC] "
        "(the disk is full: free some space)"
    )


async def test_rpc_host_sees_the_unsaved_entries_in_get_state(
    tmp_path: Path, isolated_home: Path
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": ["big " + "z" * 30_000, "small"]}))
    proc = await asyncio.create_subprocess_exec(
        *HOOKLINE,
        "--mode",
        "rpc",
        "--model",
        f"scripted:{script}",
        "--cwd",
        str(project),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=dict(os.environ),
        preexec_fn=file_size_limit(16_000),
        limit=1 << 20,
    )
    assert proc.stdin is not None and proc.stdout is not None

    async def call(command: dict[str, Any]) -> Any:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(command).encode() + b"\n")
        await proc.stdin.drain()
        while True:
            line = json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))
            if line["type"] == "response" and line.get("id") == command["id"]:
                assert line["success"] is True, line
                return line.get("data")

    async def run(command: dict[str, Any]) -> None:
        """A prompt to its end: accepted at once, over at ``agent_end``, then idle."""
        await call(command)
        while json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))["type"] != (
            "agent_end"
        ):
            pass
        while (await call({"type": "get_state", "id": "idle"}))["isStreaming"]:
            pass

    await run({"type": "prompt", "message": "one", "id": "p1"})
    state = await call({"type": "get_state", "id": "s1"})
    assert len(state["unsavedEntryIds"]) == 1 and "EFBIG" in state["saveError"]
    await run({"type": "prompt", "message": "two", "id": "p2"})
    # the run went on in memory: the second exchange is there for the model
    messages = (await call({"type": "get_messages", "id": "m1"}))["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
    proc.stdin.close()
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err
    stderr = err.decode()
    assert "Traceback" not in stderr
    assert "3 entries of this run were not saved" in stderr
    (path,) = (isolated_home / ".hookline" / "sessions").rglob("*.jsonl")
    saved = [e["message"]["role"] for e in jsonl_lines(path) if e["type"] == "message"]
    assert saved == ["user"]  # a clean prefix: nothing after the first unsaved entry
