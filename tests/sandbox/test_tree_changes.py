"""The sandbox looks again only at what changed between calls — and misses nothing.

Each case changes the project between two sandboxed calls (from inside a call, or from
outside as a person or another program would) in a way that creates a file a glob rule
protects, and checks by effect that the next call cannot write (or read) it. Every case
runs with inotify watches and with the ``mtime`` fallback.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from hookline.sandbox.mounts import Planner
from hookline.sandbox.tree import TreeIndex, _Watches
from tests.sandbox.helpers import Box, config_for, needs_bwrap

pytestmark = needs_bwrap

RULES = ["Edit(**/*.lock)", "Read(**/*.pem)"]
SECRET = "TOPSECRET-7719"


@pytest.fixture(params=["watched", "mtime"])
def box(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Box, Path]]:
    project = tmp_path / "proj"
    (project / "a" / "b").mkdir(parents=True)
    (project / "a" / "b" / "old.lock").write_text("old\n")
    b = Box(config_for(project, deny=RULES))
    if request.param == "mtime":
        b.sandbox.planner = Planner(b.sandbox.config, TreeIndex(watch=False))
    yield b, project
    b.close()


def _write(box: Box, path: str) -> None:
    box.run(f"echo pwned > {path}")


def test_a_lock_file_made_by_one_call_is_protected_in_the_next(box: tuple[Box, Path]) -> None:
    b, project = box
    b.run("true")  # the tree is known
    b.run("mkdir -p a/c/d && echo made > a/c/d/new.lock")
    assert (project / "a" / "c" / "d" / "new.lock").read_text() == "made\n"
    _write(b, "a/c/d/new.lock")
    assert (project / "a" / "c" / "d" / "new.lock").read_text() == "made\n"
    _write(b, "a/b/old.lock")
    assert (project / "a" / "b" / "old.lock").read_text() == "old\n"


def test_files_made_outside_between_calls_are_protected(box: tuple[Box, Path]) -> None:
    b, project = box
    b.run("true")
    (project / "e" / "f").mkdir(parents=True)
    (project / "e" / "f" / "x.lock").write_text("x\n")
    (project / "a" / "b" / "y.lock").write_text("y\n")
    (project / "a" / "b" / "key.pem").write_text(SECRET)
    out = b.run("echo pwned > e/f/x.lock; echo pwned > a/b/y.lock; cat a/b/key.pem")
    assert (project / "e" / "f" / "x.lock").read_text() == "x\n"
    assert (project / "a" / "b" / "y.lock").read_text() == "y\n"
    assert SECRET not in out.text


def test_a_folder_renamed_or_replaced_between_calls_is_looked_at_again(
    box: tuple[Box, Path],
) -> None:
    b, project = box
    b.run("true")
    os.rename(project / "a", project / "moved")
    (project / "a").mkdir()  # a new folder under the old name
    (project / "a" / "z.lock").write_text("z\n")
    b.run("echo pwned > moved/b/old.lock; echo pwned > a/z.lock")
    assert (project / "moved" / "b" / "old.lock").read_text() == "old\n"
    assert (project / "a" / "z.lock").read_text() == "z\n"


def test_a_hard_link_made_between_calls_is_protected(box: tuple[Box, Path]) -> None:
    b, project = box
    b.run("true")
    os.link(project / "a" / "b" / "old.lock", project / "notes.txt")
    _write(b, "notes.txt")
    assert (project / "a" / "b" / "old.lock").read_text() == "old\n"


def test_a_lost_event_queue_forgets_every_listing(tmp_path: Path) -> None:
    class Overflowing:
        def read(self, timeout: float | None = None) -> list[Any]:
            return [SimpleNamespace(wd=-1, mask=0x4000, name="")]

    watches = _Watches(Overflowing(), 0, 0x4000, 0x40000000)
    assert watches.drain() is None
    tree = TreeIndex()
    tree.listing(str(tmp_path))
    tree._watches = watches
    assert tree.refresh() is None and tree._cache == {}
