"""The safe reader: regular files only, a size cap, a nesting cap — each refusal a clear error.

The attacks are real: a settings file linked to ``/dev/stdin`` (a read that
never ends), ``/dev/zero`` (one that never stops growing), a FIFO nobody
writes to, a huge file, and JSON nested 300 deep.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookline.settings import JsonFileError, TrustStore, load_settings, read_json_file
from hookline.settings.safe_json import MAX_BYTES, MAX_DEPTH


def _settings_link(project: Path, target: str | Path) -> Path:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path


def test_settings_linked_to_dev_zero_is_refused(project: Path) -> None:
    path = _settings_link(project, "/dev/zero")
    [error] = load_settings(project, managed_paths=[]).errors
    assert error == f"{path}: not a regular file (a character device); not read"


def test_settings_linked_to_a_fifo_is_refused_without_waiting(
    project: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    path = _settings_link(project, fifo)
    [error] = load_settings(project, managed_paths=[]).errors
    assert error == f"{path}: not a regular file (a FIFO); not read"


def test_settings_linked_to_dev_stdin_does_not_read_stdin(project: Path) -> None:
    """In a child whose stdin is an open pipe nobody writes to, loading still returns."""
    _settings_link(project, "/dev/stdin")
    code = (
        "import sys; from pathlib import Path; from hookline.settings import load_settings; "
        f"print(load_settings(Path({str(project)!r}), managed_paths=[]).errors[0])"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = child.communicate(timeout=60)  # the pipe stays open: a read would block
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert "not a regular file (a FIFO); not read" in out


def test_a_file_over_the_size_cap_is_refused(project: Path) -> None:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "' + "x" * MAX_BYTES + '"}')
    [error] = load_settings(project, managed_paths=[]).errors
    assert error.startswith(f"{path}: file is {MAX_BYTES + 13} bytes; the limit is {MAX_BYTES}")


def test_nesting_deeper_than_the_cap_is_refused_and_at_the_cap_read(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 300 + "]" * 300)
    with pytest.raises(JsonFileError, match=rf"deep\.json:1:{MAX_DEPTH + 1}: JSON nested deeper"):
        read_json_file(deep)
    ok = tmp_path / "ok.json"
    ok.write_text("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert read_json_file(ok) is not None


def test_brackets_inside_strings_do_not_count_as_nesting(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"k": "[" * 500 + '\\"{' * 100}))
    assert read_json_file(path) == {"k": "[" * 500 + '\\"{' * 100}


def test_trust_file_linked_to_a_fifo_means_nothing_trusted(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "trust.json"
    link.symlink_to(fifo)
    store = TrustStore(link)
    assert not store.is_trusted(tmp_path)
    assert store.warning is not None and "not a regular file (a FIFO)" in store.warning
