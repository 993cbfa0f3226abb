"""Fixtures for discovery tests: hook files, a project, a user folder, a dist-info."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hookline.core.paths import hookline_home
from hookline.discovery import MODULE_PREFIX

WriteHook = Callable[..., Path]
MakeDist = Callable[..., Path]

#: A hook module that registers one ``agent_start`` handler logging its label.
LOGGING_HOOK = """
import os

def register(pi):
    @pi.on("agent_start")
    def _log(event, ctx):
        with open(os.environ["HOOK_ORDER_LOG"], "a") as f:
            f.write({label!r} + "\\n")
"""


def write_file(path: Path, body: str) -> Path:
    """Write ``body`` (dedented) to ``path``, creating parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body).lstrip())
    return path


@pytest.fixture(autouse=True)
def _forget_imported_modules(tmp_path: Path) -> Iterator[None]:
    """Hook and entry-point modules imported by a test do not leak into the next one."""
    yield
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None) or ""
        if name.startswith(MODULE_PREFIX) or file.startswith(str(tmp_path)):
            del sys.modules[name]


@pytest.fixture
def order_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file ``LOGGING_HOOK`` handlers append their label to."""
    log = tmp_path / "order.log"
    monkeypatch.setenv("HOOK_ORDER_LOG", str(log))
    return log


@pytest.fixture
def write_hook() -> WriteHook:
    """``write_hook(path, label=..., body=...)``: a logging hook, or any module body."""

    def write(path: Path, label: str | None = None, body: str | None = None) -> Path:
        text = body if body is not None else LOGGING_HOOK.format(label=label or path.stem)
        return write_file(path, text)

    return write


@pytest.fixture
def user_hooks() -> Path:
    """``$HOOKLINE_HOME/hooks`` (created; conftest of tests/ points it under tmp)."""
    folder = hookline_home() / "hooks"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def make_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MakeDist:
    """``make_dist(name, {ep_name: "mod:attr"}, {"mod.py": body})``: a real dist-info on sys.path.

    Each call gets its own site folder prepended to ``sys.path`` so that
    ``importlib.metadata.entry_points(group=...)`` finds it like an installed
    package.
    """
    count = 0

    def make(dist: str, entry_points: dict[str, str], files: dict[str, str]) -> Path:
        nonlocal count
        count += 1
        site = tmp_path / f"site{count}"
        info = site / f"{dist.replace('-', '_')}-1.0.dist-info"  # as pip names it
        write_file(info / "METADATA", f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        lines = "".join(f"{name} = {value}\n" for name, value in entry_points.items())
        write_file(info / "entry_points.txt", "[hookline.hooks]\n" + lines)
        for rel, body in files.items():
            write_file(site / rel, body)
        monkeypatch.syspath_prepend(str(site))
        return site

    return make
