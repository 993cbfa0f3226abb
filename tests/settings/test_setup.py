"""``build_agent`` applies the settings rules: bypass mode, managed policy, required hooks."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from hookline.agent.setup import AgentOptions, SetupError, build_agent


def _write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _options(project: Path, managed: list[Path], **kwargs: Any) -> AgentOptions:
    return AgentOptions(cwd=str(project), no_session=True, managed_paths=managed, **kwargs)


async def test_managed_disable_bypass_refuses_the_flag(
    project: Path, managed_paths: list[Path]
) -> None:
    managed = _write(managed_paths[0], {"permissions": {"disableBypassPermissionsMode": "disable"}})
    options = _options(project, managed_paths, permission_mode="bypassPermissions")
    with pytest.raises(SetupError, match=f"bypassPermissions is disabled by .* in {managed}"):
        await build_agent(options, stderr=io.StringIO())


async def test_managed_disable_bypass_downgrades_a_user_default_mode(
    isolated_home: Path, project: Path, managed_paths: list[Path]
) -> None:
    _write(managed_paths[0], {"permissions": {"disableBypassPermissionsMode": "disable"}})
    _write(
        isolated_home / ".claude" / "settings.json",
        {"permissions": {"defaultMode": "bypassPermissions"}},
    )
    err = io.StringIO()
    bundle = await build_agent(_options(project, managed_paths), stderr=err)
    try:
        assert bundle.agent.gate.mode == "default"
        assert "disableBypassPermissionsMode" in err.getvalue()
    finally:
        await bundle.agent.shutdown("quit")


async def test_trusted_project_settings_never_grant_bypass(
    project: Path, managed_paths: list[Path]
) -> None:
    _write(
        project / ".claude" / "settings.json", {"permissions": {"defaultMode": "bypassPermissions"}}
    )
    err = io.StringIO()
    bundle = await build_agent(_options(project, managed_paths, trust_project=True), stderr=err)
    try:
        assert bundle.agent.gate.mode == "default"
        assert "bypassPermissions is not accepted from project settings" in err.getvalue()
    finally:
        await bundle.agent.shutdown("quit")


async def test_user_disable_all_hooks_keeps_managed_settings_hooks(
    isolated_home: Path, project: Path, managed_paths: list[Path]
) -> None:
    hooks = {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}]}
    _write(managed_paths[0], {"hooks": hooks})
    _write(isolated_home / ".claude" / "settings.json", {"disableAllHooks": True, "hooks": hooks})
    bundle = await build_agent(_options(project, managed_paths), stderr=io.StringIO())
    try:
        sel = bundle.claude.engine.select("UserPromptSubmit", None)
        assert [h.scope for h in sel.hooks] == ["managed"]
        assert [s.hook.scope for s in sel.skipped] == ["user"]
    finally:
        await bundle.agent.shutdown("quit")


def _marker_hook(path: Path, marker: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('x')\n"
        "def register(pi):\n    pass\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("user_settings", "managed_extra"),
    [({"disableAllHooks": True}, {}), ({}, {"allowManagedHooksOnly": True})],
)
async def test_only_the_managed_files_hook_modules_load_when_others_are_off(
    isolated_home: Path,
    project: Path,
    managed_paths: list[Path],
    tmp_path: Path,
    user_settings: dict[str, Any],
    managed_extra: dict[str, Any],
) -> None:
    managed_hook = _marker_hook(tmp_path / "org" / "guard.py", tmp_path / "managed-loaded")
    _marker_hook(isolated_home / ".hookline" / "hooks" / "mine.py", tmp_path / "user-loaded")
    _write(managed_paths[0], {"hooks": [str(managed_hook)], **managed_extra})
    _write(isolated_home / ".claude" / "settings.json", user_settings)
    err = io.StringIO()
    bundle = await build_agent(_options(project, managed_paths), stderr=err)
    try:
        assert (tmp_path / "managed-loaded").exists()
        assert not (tmp_path / "user-loaded").exists()
        assert "only the managed settings' hook modules run" in err.getvalue()
    finally:
        await bundle.agent.shutdown("quit")


async def test_managed_disable_all_hooks_loads_no_module_at_all(
    project: Path, managed_paths: list[Path], tmp_path: Path
) -> None:
    managed_hook = _marker_hook(tmp_path / "org" / "guard.py", tmp_path / "managed-loaded")
    _write(managed_paths[0], {"hooks": [str(managed_hook)], "disableAllHooks": True})
    bundle = await build_agent(_options(project, managed_paths), stderr=io.StringIO())
    try:
        assert not (tmp_path / "managed-loaded").exists()
    finally:
        await bundle.agent.shutdown("quit")


@pytest.mark.parametrize(
    ("options", "user", "available"),
    [
        ({}, {}, False),
        ({"allow_bypass_permissions": True}, {}, True),
        ({"permission_mode": "bypassPermissions"}, {}, True),
        ({}, {"permissions": {"defaultMode": "bypassPermissions"}}, True),
        (
            {"allow_bypass_permissions": True},
            {"permissions": {"disableBypassPermissionsMode": "disable"}},
            False,
        ),
    ],
)
async def test_bypass_may_be_switched_to_when_started_in_it_or_allowed_and_not_forbidden(
    isolated_home: Path,
    project: Path,
    managed_paths: list[Path],
    options: dict[str, Any],
    user: dict[str, Any],
    available: bool,
) -> None:
    _write(isolated_home / ".claude" / "settings.json", user)
    bundle = await build_agent(_options(project, managed_paths, **options), stderr=io.StringIO())
    try:
        assert bundle.agent.gate.bypass_available is available
    finally:
        await bundle.agent.shutdown("quit")


async def test_a_managed_policy_keeps_bypass_off_the_ring_whatever_allowed_it(
    project: Path, managed_paths: list[Path]
) -> None:
    _write(managed_paths[0], {"permissions": {"disableBypassPermissionsMode": "disable"}})
    options = _options(project, managed_paths, allow_bypass_permissions=True)
    bundle = await build_agent(options, stderr=io.StringIO())
    try:
        assert not bundle.agent.gate.bypass_available
    finally:
        await bundle.agent.shutdown("quit")
