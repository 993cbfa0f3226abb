"""Discovery: priority order, path expansion, dedupe, sorting, trust, HOOKLINE_HOME."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookline.discovery import (
    Discovery,
    SettingsHookPath,
    discover_hooks,
    untrusted_reason,
)

from .conftest import MakeDist, WriteHook


def _names(found: Discovery) -> list[str]:
    return [Path(s.path).name if not s.is_entry_point else s.path for s in found.sources]


def _origins(found: Discovery) -> list[str]:
    return [s.origin for s in found.sources]


def test_five_sources_in_priority_order(
    tmp_path: Path,
    project: Path,
    user_hooks: Path,
    write_hook: WriteHook,
    make_dist: MakeDist,
) -> None:
    cli = write_hook(tmp_path / "cli" / "c.py")
    settings_hook = write_hook(tmp_path / "conf" / "s.py")
    write_hook(project / ".hookline" / "hooks" / "p.py")
    write_hook(user_hooks / "u.py")
    make_dist("pkg-hooks", {"pkg": "pkg_hooks_mod"}, {"pkg_hooks_mod.py": "def register(pi): pass"})

    found = discover_hooks(
        cli_paths=[str(cli)],
        settings_paths=[(str(settings_hook), str(tmp_path), "/etc/x/settings.json")],
        project_dir=project,
        project_trusted=True,
    )

    assert _origins(found) == [
        "cli",
        "settings:/etc/x/settings.json",
        "project",
        "user",
        "entry_point:pkg",
    ]
    assert _names(found) == ["c.py", "s.py", "p.py", "u.py", "pkg_hooks_mod"]
    assert [s.from_project for s in found.sources] == [False, False, True, False, False]
    assert found.skipped == [] and found.shadowed == []


def test_directories_are_sorted_by_name_and_skip_helpers(
    tmp_path: Path, user_hooks: Path, write_hook: WriteHook
) -> None:
    for name in ["zeta.py", "alpha.py", "Mid.py", "_helper.py", ".hidden.py", "notes.txt"]:
        write_hook(user_hooks / name)
    (user_hooks / "dir.py").mkdir()
    cli_dir = tmp_path / "cli_dir"
    for name in ["b.py", "a.py"]:
        write_hook(cli_dir / name)

    found = discover_hooks(cli_paths=[cli_dir], packages=False)

    assert _names(found) == ["a.py", "b.py", "Mid.py", "alpha.py", "zeta.py"]


def test_a_named_package_is_one_hook_its_init(tmp_path: Path, write_hook: WriteHook) -> None:
    """``--hook examples/pi/subagent``: a folder with ``__init__.py`` is one hook (its other
    modules and data files are its own), as pi loads ``<name>/index.ts``."""
    package = tmp_path / "subagent"
    init = write_hook(package / "__init__.py")
    write_hook(package / "helpers.py")

    found = discover_hooks(cli_paths=[package], packages=False)

    assert [s.path for s in found.sources] == [str(init)]


def test_cli_relative_paths_resolve_against_cwd(tmp_path: Path, write_hook: WriteHook) -> None:
    hook = write_hook(tmp_path / "work" / "hooks" / "h.py")

    found = discover_hooks(cli_paths=["hooks/h.py"], cwd=tmp_path / "work", packages=False)

    assert [s.path for s in found.sources] == [str(hook)]


def test_settings_paths_expand_tilde_and_resolve_relative(
    tmp_path: Path, isolated_home: Path, project: Path, write_hook: WriteHook
) -> None:
    in_home = write_hook(isolated_home / "my-hooks" / "home.py")
    in_project = write_hook(project / "tools" / "rel.py")
    settings_file = str(project / ".hookline" / "settings.json")

    found = discover_hooks(
        settings_paths=[
            SettingsHookPath("~/my-hooks/home.py", str(project), "settings:~/.hookline/s.json"),
            SettingsHookPath("tools/rel.py", str(project), settings_file),
            SettingsHookPath("./tools/../tools", str(project), settings_file),
        ],
        project_dir=project,
        project_trusted=True,
        packages=False,
    )

    assert [s.path for s in found.sources] == [str(in_home), str(in_project)]
    assert [s.from_project for s in found.sources] == [False, True]
    assert [s.source.origin for s in found.shadowed] == [f"settings:{settings_file}"]


def test_duplicate_is_shadowed_and_reported_with_both_origins(
    project: Path, user_hooks: Path, write_hook: WriteHook
) -> None:
    hook = write_hook(user_hooks / "dup.py")

    found = discover_hooks(cli_paths=[str(hook)], project_dir=project, packages=False)

    assert _origins(found) == ["cli"]
    [shadow] = found.shadowed
    assert (shadow.source.origin, shadow.by.origin) == ("user", "cli")
    assert shadow.source.path == shadow.by.path == str(hook)
    assert "shadowed by" in shadow.reason and "(user)" in shadow.reason


def test_symlink_to_the_same_file_is_a_duplicate(
    tmp_path: Path, user_hooks: Path, write_hook: WriteHook
) -> None:
    real = write_hook(tmp_path / "real" / "guard.py")
    (user_hooks / "guard_link.py").symlink_to(real)

    found = discover_hooks(cli_paths=[str(real)], packages=False)

    assert [s.path for s in found.sources] == [str(real)]
    [shadow] = found.shadowed
    assert shadow.source.path == str(user_hooks / "guard_link.py")
    assert shadow.source.key == shadow.by.key == os.path.realpath(real)


def test_same_path_twice_on_the_cli_loads_once(tmp_path: Path, write_hook: WriteHook) -> None:
    hook = write_hook(tmp_path / "h.py")

    found = discover_hooks(cli_paths=[hook, str(tmp_path / "." / "h.py")], packages=False)

    assert len(found.sources) == 1 and len(found.shadowed) == 1


def test_missing_cli_path_is_kept_for_the_loader_to_report(tmp_path: Path) -> None:
    found = discover_hooks(cli_paths=[tmp_path / "nope.py"], packages=False)

    assert [s.path for s in found.sources] == [str(tmp_path / "nope.py")]


def test_untrusted_project_sources_are_skipped_with_the_reason(
    tmp_path: Path, project: Path, user_hooks: Path, write_hook: WriteHook
) -> None:
    write_hook(project / ".hookline" / "hooks" / "p.py")
    write_hook(project / "extra" / "s.py")
    write_hook(user_hooks / "u.py")
    project_settings = str(project / ".claude" / "settings.json")

    found = discover_hooks(
        settings_paths=[("extra/s.py", str(project), project_settings)],
        project_dir=project,
        packages=False,
    )

    assert _origins(found) == ["user"]
    assert [s.source.origin for s in found.skipped] == [f"settings:{project_settings}", "project"]
    reason = untrusted_reason(project)
    assert all(s.reason == reason for s in found.skipped)
    assert reason == (
        f"project {project} is not trusted: run `hookline trust {project}` or pass --trust-project"
    )


def test_explicit_from_project_flag_wins_over_the_location(
    tmp_path: Path, project: Path, write_hook: WriteHook
) -> None:
    hook = write_hook(tmp_path / "elsewhere" / "h.py")
    inside = str(project / "custom-settings.json")

    found = discover_hooks(
        settings_paths=[
            SettingsHookPath(str(hook), str(project), "/home/u/.hookline/settings.json", True),
            SettingsHookPath(str(hook), str(project), inside, False),
        ],
        project_dir=project,
        packages=False,
    )

    assert [s.source.origin for s in found.skipped] == ["settings:/home/u/.hookline/settings.json"]
    assert _origins(found) == [f"settings:{inside}"]


def test_a_skipped_project_copy_does_not_hide_the_users_own(
    isolated_home: Path, user_hooks: Path, write_hook: WriteHook
) -> None:
    """When the project is the home folder, its hooks folder is the user's own."""
    write_hook(user_hooks / "mine.py")

    found = discover_hooks(project_dir=isolated_home, packages=False)

    assert _origins(found) == ["user"]
    assert [s.source.origin for s in found.skipped] == ["project"]


def test_hookline_home_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_hook: WriteHook
) -> None:
    other = tmp_path / "elsewhere-home"
    write_hook(other / "hooks" / "moved.py")
    monkeypatch.setenv("HOOKLINE_HOME", str(other))

    found = discover_hooks(packages=False)

    assert [s.path for s in found.sources] == [str(other / "hooks" / "moved.py")]


def test_default_user_folder_is_home_dot_hookline(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch, write_hook: WriteHook
) -> None:
    monkeypatch.delenv("HOOKLINE_HOME")
    write_hook(isolated_home / ".hookline" / "hooks" / "u.py")

    found = discover_hooks(packages=False)

    assert _names(found) == ["u.py"]


def test_sources_can_be_switched_off(
    project: Path, user_hooks: Path, write_hook: WriteHook, make_dist: MakeDist
) -> None:
    write_hook(user_hooks / "u.py")
    make_dist("d", {"d": "d_mod"}, {"d_mod.py": "def register(pi): pass"})

    found = discover_hooks(user=False, packages=False)

    assert found.sources == []


def test_project_settings_without_a_project_dir_name_their_base(
    tmp_path: Path, write_hook: WriteHook
) -> None:
    write_hook(tmp_path / "repo" / "h.py")
    entry = SettingsHookPath("h.py", str(tmp_path / "repo"), "repo/.hookline/settings.json", True)

    found = discover_hooks(settings_paths=[entry], packages=False)

    [skipped] = found.skipped
    assert skipped.source.project_dir == str(tmp_path / "repo")
    assert skipped.reason == untrusted_reason(tmp_path / "repo")
