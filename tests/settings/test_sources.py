"""Settings sources, their scopes and order, managed paths, hook paths and their base dirs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookline.settings import (
    DEFAULT_MANAGED_PATHS,
    Settings,
    load_settings,
    settings_candidates,
)

from .helpers import WriteJson
from .helpers import load as _load
from .helpers import sources as _sources

# --- sources and scopes -------------------------------------------------------------


def test_every_candidate_is_listed_in_merge_order_with_its_scope(
    isolated_home: Path, project: Path, managed_paths: list[Path], tmp_path: Path
) -> None:
    cli = tmp_path / "cli.json"
    cli.write_text("{}")
    loaded = _load(project, managed_paths, cli_settings=cli)
    src = _sources(isolated_home, project)
    assert [(f.path, f.scope) for f in loaded.files] == [
        (src["hookline_user"], "user"),
        (src["claude_user"], "user"),
        (src["claude_project"], "project"),
        (src["hookline_project"], "project"),
        (src["local"], "local"),
        (cli, "cli"),
        (managed_paths[0], "managed"),
        (managed_paths[1], "managed"),
    ]
    assert [f.exists for f in loaded.files] == [False] * 5 + [True, False, False]
    assert loaded.errors == []
    assert loaded.merged == Settings()


def test_each_source_is_read_with_its_scope(
    isolated_home: Path, project: Path, managed_paths: list[Path], write_json: WriteJson
) -> None:
    for name, path in _sources(isolated_home, project).items():
        write_json(path, {"origin": name})
    write_json(managed_paths[1], {"origin": "managed"})
    loaded = _load(project, managed_paths)
    seen = [(f.scope, f.raw) for f in loaded.files if f.exists]
    assert seen == [
        ("user", {"origin": "hookline_user"}),
        ("user", {"origin": "claude_user"}),
        ("project", {"origin": "claude_project"}),
        ("project", {"origin": "hookline_project"}),
        ("local", {"origin": "local"}),
        ("managed", {"origin": "managed"}),
    ]
    assert all(f.settings is not None and f.error is None for f in loaded.files if f.exists)
    assert loaded.merged.extra_keys() == {"origin": "managed"}


def test_hookline_home_env_moves_the_first_source(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_json: WriteJson
) -> None:
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("HOOKLINE_HOME", str(elsewhere))
    write_json(elsewhere / "settings.json", {"model": "from-env-home"})
    loaded = load_settings(project, managed_paths=[])
    assert loaded.files[0].path == elsewhere / "settings.json"
    assert loaded.merged.model == "from-env-home"


def test_later_sources_win_for_scalars_in_the_documented_order(
    isolated_home: Path,
    project: Path,
    managed_paths: list[Path],
    write_json: WriteJson,
    tmp_path: Path,
) -> None:
    src = _sources(isolated_home, project)
    order = list(src.values())
    cli = tmp_path / "cli.json"
    order += [cli, managed_paths[0]]
    # Each file sets `model`; removing them from the last one shows each earlier one wins
    # over everything before it.
    for index, path in enumerate(order):
        write_json(path, {"model": f"m{index}"})
    for expected in range(len(order) - 1, -1, -1):
        loaded = _load(project, managed_paths, cli_settings=cli if cli.exists() else None)
        assert loaded.merged.model == f"m{expected}"
        order[expected].unlink()


def test_first_existing_managed_path_is_the_managed_file(
    project: Path, managed_paths: list[Path], write_json: WriteJson
) -> None:
    write_json(managed_paths[1], {"model": "second"})
    loaded = _load(project, managed_paths)
    managed = [f for f in loaded.files if f.scope == "managed"]
    assert [(f.path, f.exists) for f in managed] == [(managed_paths[1], True)]
    assert loaded.merged.model == "second"

    write_json(managed_paths[0], {"model": "first"})
    loaded = _load(project, managed_paths)
    managed = [f for f in loaded.files if f.scope == "managed"]
    assert [f.path for f in managed] == [managed_paths[0]]
    assert loaded.merged.model == "first"
    assert loaded.managed is managed[0]


def test_invalid_managed_file_does_not_fall_back_to_the_next_path(
    project: Path, managed_paths: list[Path], write_json: WriteJson
) -> None:
    write_json(managed_paths[0], "[1]")
    write_json(managed_paths[1], {"model": "second"})
    loaded = _load(project, managed_paths)
    assert [f.path for f in loaded.files if f.scope == "managed"] == [managed_paths[0]]
    assert loaded.managed is None
    assert loaded.merged.model is None
    assert len(loaded.errors) == 1


def test_default_managed_paths_are_the_etc_locations() -> None:
    assert (
        Path("/etc/hookline/managed-settings.json"),
        Path("/etc/claude-code/managed-settings.json"),
    ) == DEFAULT_MANAGED_PATHS
    scopes = [scope for _, scope in settings_candidates(Path("/nonexistent-project"))]
    assert scopes[-1] == "managed"


def test_empty_managed_paths_means_no_managed_source(project: Path) -> None:
    loaded = load_settings(project, managed_paths=[])
    assert all(f.scope != "managed" for f in loaded.files)


def test_missing_cli_settings_file_is_an_error(
    project: Path, managed_paths: list[Path], tmp_path: Path
) -> None:
    missing = tmp_path / "nope.json"
    loaded = _load(project, managed_paths, cli_settings=missing)
    cli = next(f for f in loaded.files if f.scope == "cli")
    assert not cli.exists
    assert cli.error is not None and str(missing) in cli.error
    assert loaded.errors == [cli.error]


def test_relative_cli_settings_is_taken_from_the_current_directory(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_json: WriteJson
) -> None:
    write_json(tmp_path / "here" / "s.json", {"model": "cli"})
    monkeypatch.chdir(tmp_path / "here")
    loaded = load_settings(project, cli_settings=Path("s.json"), managed_paths=[])
    assert loaded.files[-1].path == tmp_path / "here" / "s.json"
    assert loaded.merged.model == "cli"


def test_project_that_is_the_home_reads_each_file_once_as_user(
    isolated_home: Path, write_json: WriteJson
) -> None:
    write_json(isolated_home / ".claude" / "settings.json", {"hooks": ["h.py"]})
    write_json(isolated_home / ".hookline" / "settings.json", {"model": "x"})
    loaded = load_settings(isolated_home, managed_paths=[])
    paths = [f.path for f in loaded.files]
    assert len(paths) == len(set(paths)) == 3  # two user files and settings.local.json
    assert [f.scope for f in loaded.files] == ["user", "user", "local"]
    assert [(p, f.scope) for p, _, f in loaded.hook_paths()] == [("h.py", "user")]


# --- hook paths and timeout -----------------------------------------------------------


def test_hook_paths_base_dirs_per_scope(
    isolated_home: Path,
    project: Path,
    managed_paths: list[Path],
    write_json: WriteJson,
    tmp_path: Path,
) -> None:
    src = _sources(isolated_home, project)
    for name, path in src.items():
        write_json(path, {"hooks": [f"{name}.py"]})
    cli = write_json(tmp_path / "cli" / "s.json", {"hooks": ["cli.py", "~/abs.py"]})
    managed = write_json(managed_paths[0], {"hooks": ["managed.py"]})
    loaded = _load(project, managed_paths, cli_settings=cli)
    got = [(entry, base, file.scope) for entry, base, file in loaded.hook_paths()]
    assert got == [
        ("hookline_user.py", isolated_home, "user"),
        ("claude_user.py", isolated_home, "user"),
        ("claude_project.py", project, "project"),
        ("hookline_project.py", project, "project"),
        ("local.py", project, "local"),
        ("cli.py", cli.parent, "cli"),
        ("~/abs.py", cli.parent, "cli"),
        ("managed.py", managed.parent, "managed"),
    ]


def test_hook_paths_skip_invalid_entries_and_keep_duplicates(
    project: Path, write_json: WriteJson
) -> None:
    write_json(project / ".claude" / "settings.json", {"hooks": ["a.py", "b.py"]})
    write_json(project / ".hookline" / "settings.json", {"hooks": ["a.py"]})
    local = write_json(project / ".claude" / "settings.local.json", {"hooks": ["c.py", 1]})
    loaded = load_settings(project, managed_paths=[])
    # Shadowing of duplicates is the discovery layer's job (it reports it).
    assert [entry for entry, _, _ in loaded.hook_paths()] == ["a.py", "b.py", "a.py", "c.py"]
    assert loaded.warnings == [
        f"{local}: hooks[1]: not a module path (a non-empty string); skipped"
    ]


def test_project_dir_is_absolute(
    project: Path, monkeypatch: pytest.MonkeyPatch, write_json: WriteJson
) -> None:
    monkeypatch.chdir(project.parent)
    write_json(project / ".claude" / "settings.json", {"hooks": ["x.py"]})
    loaded = load_settings(Path(project.name), managed_paths=[])
    assert loaded.project_dir == project
    assert os.path.isabs(loaded.hook_paths()[0][1])


def test_hook_timeout_seconds(project: Path, write_json: WriteJson) -> None:
    assert load_settings(project, managed_paths=[]).hook_timeout_seconds == 30.0
    write_json(project / ".claude" / "settings.json", {"hookTimeout": 1500})
    assert load_settings(project, managed_paths=[]).hook_timeout_seconds == 1.5
