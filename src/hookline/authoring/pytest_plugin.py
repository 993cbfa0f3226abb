"""hookline's pytest plugin (entry point ``pytest11``): fixtures for testing hooks.

``hook_harness`` is a ``HookHarness`` working in the test's ``tmp_path``::

    async def test_blocks_rm(hook_harness):
        hook_harness.load("hooks/guard.py")
        (await hook_harness.tool_call("bash", {"command": "rm -rf /"})).assert_blocked("rm")

``make_harness(*paths, settings=None, cwd=None, has_ui=True, timeout=30)``
builds one from hook files (and a Claude-format settings file) in one call.
Nothing of hookline is imported until a fixture is used.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from hookline.authoring.harness import HookHarness


@pytest.fixture
def hook_harness(tmp_path: Path) -> HookHarness:
    """An empty harness whose ``cwd`` is ``tmp_path``: ``.load(path)`` hook files into it."""
    from hookline.authoring.harness import HookHarness

    return HookHarness(tmp_path)


@pytest.fixture
def make_harness(tmp_path: Path) -> Callable[..., HookHarness]:
    """``make_harness(*hook_files, settings=FILE, cwd=DIR, has_ui=True, timeout=30.0)``."""
    from hookline.authoring.harness import HookHarness

    def make(
        *paths: str | os.PathLike[str],
        settings: str | os.PathLike[str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        **options: Any,
    ) -> HookHarness:
        harness = HookHarness(cwd if cwd is not None else tmp_path, **options)
        harness.load(*paths)
        if settings is not None:
            harness.use_settings(settings)
        return harness

    return make
