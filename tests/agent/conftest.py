"""Fixtures for the agent tests: a project folder and ``make_agent`` (a real, built agent)."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from hookline.agent.setup import AgentOptions, build_agent
from hookline.core.ui import HookUI
from hookline.discovery.loader import unload_modules

from .helpers import RECORDER, RECORDINGS, Harness

MakeAgent = Callable[..., Awaitable[Harness]]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "covers(*events): the test checks these events' payloads")


@pytest.fixture
async def make_agent(tmp_path: Path, project: Path) -> AsyncIterator[MakeAgent]:
    """``await make_agent(turns, hooks={name: source}, ...)`` → a started ``Harness``.

    - ``turns``: the scripted model's turns (written to a JSON script file);
    - ``hooks``: hook module sources, written to ``<tmp>/hooks/<name>.py`` and
      passed as ``--hook`` paths after the recorder (``record=False`` drops it);
    - ``claude_settings``: written to ``<project>/.claude/settings.json``;
    - ``ui``: set as the hook UI (``has_ui`` true);
    - ``start``: emit ``session_start`` as the modes do (default true);
    - other keywords go to ``AgentOptions`` (default ``permission_mode``:
      ``bypassPermissions``, so only hooks decide; ``trust_project`` true).
    """
    built: list[Harness] = []
    count = 0

    async def make(
        turns: Sequence[Mapping[str, Any] | str] = (),
        *,
        hooks: Mapping[str, str] | None = None,
        record: bool = True,
        claude_settings: Mapping[str, Any] | None = None,
        ui: HookUI | None = None,
        start: bool = True,
        **options: Any,
    ) -> Harness:
        nonlocal count
        count += 1
        script = tmp_path / "scripts" / f"script{count}.json"
        script.parent.mkdir(exist_ok=True)
        script.write_text(json.dumps({"turns": list(turns)}))
        sources = {"recorder": RECORDER} if record else {}
        sources.update(hooks or {})
        files: dict[str, Path] = {}
        for name, source in sources.items():
            path = tmp_path / "hooks" / f"{name}.py"
            path.parent.mkdir(exist_ok=True)
            path.write_text(source)
            files[name] = path
            RECORDINGS.pop(str(path), None)
        if claude_settings is not None:
            settings = project / ".claude" / "settings.json"
            settings.parent.mkdir(exist_ok=True)
            settings.write_text(json.dumps(claude_settings))
        options.setdefault("cwd", str(project))
        options.setdefault("model", f"scripted:{script}")
        options.setdefault("permission_mode", "bypassPermissions")
        options.setdefault("trust_project", True)
        stderr = io.StringIO()
        bundle = await build_agent(
            AgentOptions(
                hook_paths=[*(str(p) for p in files.values()), *options.pop("hook_paths", [])],
                **options,
            ),
            stderr=stderr,
        )
        assert not bundle.load_result.errors, bundle.load_result.errors
        harness = Harness(bundle, project, files, stderr)
        bundle.runner.on_error(harness.errors.append)
        if ui is not None:
            bundle.runner.set_ui(ui, True)
        bundle.agent.retry.base_delay = 0.001
        built.append(harness)
        if start:
            await bundle.agent.start()
        return harness

    yield make

    for harness in built:
        agent = harness.agent
        for task in list(agent._background):
            task.cancel()
        await asyncio.gather(*agent._background, return_exceptions=True)
        agent.session.close()
        unload_modules(str(p) for p in harness.hook_files.values())
