"""Hook policy: only the managed file switches off managed hooks; allows() per scope and trust."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookline.settings import HookPolicy, allows, hook_policy, load_settings

ALL_SCOPES = ["user", "project", "local", "cli", "managed", "plugin", "callback"]


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def _policy(
    project: Path,
    managed_paths: list[Path],
    *,
    user: dict[str, Any] | None = None,
    local: dict[str, Any] | None = None,
    managed: dict[str, Any] | None = None,
) -> HookPolicy:
    if user is not None:
        _write(Path.home() / ".claude" / "settings.json", user)
    if local is not None:
        _write(project / ".claude" / "settings.local.json", local)
    if managed is not None:
        _write(managed_paths[0], managed)
    return hook_policy(load_settings(project, managed_paths=managed_paths))


def test_defaults_allow_everything(project: Path, managed_paths: list[Path]) -> None:
    assert _policy(project, managed_paths) == HookPolicy(disable_all=False, managed_only=False)


def test_merged_values_apply_when_managed_sets_nothing(
    project: Path, managed_paths: list[Path]
) -> None:
    policy = _policy(project, managed_paths, user={"disableAllHooks": True}, managed={"model": "x"})
    assert policy == HookPolicy(disable_all=False, managed_only=False, disable_unmanaged=True)
    policy = _policy(project, managed_paths, local={"allowManagedHooksOnly": True})
    assert policy.managed_only


def test_only_the_managed_file_disables_managed_hooks(
    project: Path, managed_paths: list[Path]
) -> None:
    """A user/project ``disableAllHooks`` stops every hook but the administrator's."""
    policy = _policy(project, managed_paths, user={"disableAllHooks": True}, managed={})
    assert policy == HookPolicy(disable_all=False, disable_unmanaged=True)
    assert allows("managed", policy, True)[0]
    for scope in ("user", "project", "local", "cli", "plugin", "callback"):
        ok, reason = allows(scope, policy, True)
        assert not ok and "only managed hooks run" in reason
    policy = _policy(project, managed_paths, managed={"disableAllHooks": True})
    assert policy.disable_all and not allows("managed", policy, True)[0]


def test_managed_false_does_not_reenable_what_a_user_disabled(
    project: Path, managed_paths: list[Path]
) -> None:
    policy = _policy(
        project, managed_paths, user={"disableAllHooks": True}, managed={"disableAllHooks": False}
    )
    assert policy == HookPolicy(disable_all=False, disable_unmanaged=True)


def test_untrusted_project_disable_all_hooks_is_ignored(
    project: Path, managed_paths: list[Path]
) -> None:
    """An untrusted clone cannot switch off the user's own guard hooks."""
    _write(project / ".claude" / "settings.local.json", {"disableAllHooks": True})
    loaded = load_settings(project, managed_paths=managed_paths, project_trusted=False)
    assert hook_policy(loaded) == HookPolicy()
    trusted = load_settings(project, managed_paths=managed_paths, project_trusted=True)
    assert hook_policy(trusted).disable_unmanaged


@pytest.mark.parametrize("value", [True, False])
def test_managed_allow_managed_only_wins_both_ways(
    project: Path, managed_paths: list[Path], value: bool
) -> None:
    policy = _policy(
        project,
        managed_paths,
        user={"allowManagedHooksOnly": not value},
        local={"allowManagedHooksOnly": not value},
        managed={"allowManagedHooksOnly": value},
    )
    assert policy.managed_only is value


def test_cli_settings_cannot_override_managed(
    project: Path, managed_paths: list[Path], tmp_path: Path
) -> None:
    cli = tmp_path / "cli.json"
    _write(cli, {"disableAllHooks": True, "allowManagedHooksOnly": False})
    _write(managed_paths[1], {"disableAllHooks": False, "allowManagedHooksOnly": True})
    loaded = load_settings(project, cli_settings=cli, managed_paths=managed_paths)
    assert hook_policy(loaded) == HookPolicy(
        disable_all=False, managed_only=True, disable_unmanaged=True
    )


def test_invalid_managed_entry_is_skipped_and_the_rest_applies(
    project: Path, managed_paths: list[Path]
) -> None:
    _write(managed_paths[0], {"disableAllHooks": "maybe", "allowManagedHooksOnly": True})
    loaded = load_settings(project, managed_paths=managed_paths)
    assert hook_policy(loaded) == HookPolicy(disable_all=False, managed_only=True)
    [warning] = loaded.warnings
    assert "disableAllHooks" in warning and warning.endswith("; ignored")


@pytest.mark.parametrize("scope", ALL_SCOPES)
@pytest.mark.parametrize("trusted", [True, False])
def test_disable_all_runs_nothing(scope: str, trusted: bool) -> None:
    ok, reason = allows(scope, HookPolicy(disable_all=True, managed_only=False), trusted)
    assert not ok and "disableAllHooks" in reason


@pytest.mark.parametrize("scope", ALL_SCOPES)
def test_managed_only_runs_only_managed_and_code_callbacks(scope: str) -> None:
    ok, reason = allows(scope, HookPolicy(disable_all=False, managed_only=True), True)
    assert ok is (scope in ("managed", "callback"))
    if not ok:
        assert "allowManagedHooksOnly" in reason and scope in reason


@pytest.mark.parametrize(
    ("scope", "untrusted_ok"),
    [
        ("user", True),
        ("project", False),
        ("local", False),
        ("cli", True),
        ("managed", True),
        ("plugin", True),
        ("callback", True),
    ],
)
def test_project_and_local_need_trust(scope: str, untrusted_ok: bool) -> None:
    policy = HookPolicy(disable_all=False, managed_only=False)
    assert allows(scope, policy, True)[0]
    ok, reason = allows(scope, policy, False)
    assert ok is untrusted_ok
    if not ok:
        assert "not trusted" in reason and "hookline trust" in reason


def test_unknown_scope_is_refused() -> None:
    ok, reason = allows("somewhere", HookPolicy(), True)
    assert not ok and "somewhere" in reason


def test_managed_only_with_untrusted_project_still_runs_managed() -> None:
    assert allows("managed", HookPolicy(managed_only=True), False) == (
        True,
        "managed hook allowed",
    )
