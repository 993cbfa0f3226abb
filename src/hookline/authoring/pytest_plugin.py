"""hookline's pytest plugin (entry point ``pytest11``): fixtures for testing hooks.

``hook_harness`` is a ``HookHarness`` working in the test's ``tmp_path``::

    GUARD = Path(__file__).parent / "guard.py"

    async def test_blocks_rm(hook_harness):
        hook_harness.load(GUARD)
        (await hook_harness.tool_call("bash", {"command": "rm -rf /"})).assert_blocked("rm")

``make_harness(*paths, settings=None, cwd=None, has_ui=True, timeout=30)``
builds one from hook files (and a Claude-format settings file) in one call.
Nothing of hookline is imported until a fixture is used. An ``async def`` test
using these fixtures runs in its own event loop when no other plugin (such as
pytest-asyncio) runs it.
"""

from __future__ import annotations

import asyncio
import inspect
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from hookline.authoring.harness import HookHarness


_FIXTURES = frozenset({"hook_harness", "make_harness"})


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run an ``async def`` hook test that no async plugin took, instead of skipping it."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    if not _FIXTURES & set(pyfuncitem.fixturenames):
        return None
    if pyfuncitem.get_closest_marker("asyncio") is not None:
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


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
