"""The cheap check before ``importlib.metadata``: it may say "maybe" too often, never "no"
when ``importlib.metadata`` would find an entry point of the group.

Each case builds real metadata folders on a ``sys.path`` of its own and asks both.
"""

from __future__ import annotations

import sys
import zipfile
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from hookline.discovery import ENTRY_POINT_GROUP, discover_hooks
from hookline.discovery.sources import _may_declare

from .conftest import write_file

OTHER = "console_scripts"


def _dist(site: Path, folder: str, groups: dict[str, str]) -> Path:
    """A metadata folder ``site/folder`` with an ``entry_points.txt`` of ``groups``."""
    info = site / folder
    write_file(info / "METADATA", "Metadata-Version: 2.1\nName: x\nVersion: 1.0\n")
    body = "".join(f"[{group}]\n{line}\n" for group, line in groups.items())
    write_file(info / "entry_points.txt", body)
    return info


def _found(group: str) -> list[str]:
    return [ep.name for ep in metadata.entry_points(group=group)]


@pytest.fixture
def only_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """``sys.path`` emptied for the test; it appends the folders it wants searched."""
    paths: list[str] = []
    monkeypatch.setattr(sys, "path", paths)
    yield paths


def test_no_distribution_names_the_group(tmp_path: Path, only_path: list[str]) -> None:
    _dist(tmp_path, "tool-1.0.dist-info", {OTHER: "tool = tool:main"})
    _dist(tmp_path, "old-2.0.egg-info", {OTHER: "old = old:main"})
    only_path.append(str(tmp_path))

    assert _found(ENTRY_POINT_GROUP) == []
    assert _may_declare(ENTRY_POINT_GROUP) is False
    assert discover_hooks(user=False).sources == []
    # not vacuous: the same folders do declare the other group, and the check sees it
    assert sorted(_found(OTHER)) == ["old", "tool"]
    assert _may_declare(OTHER) is True


@pytest.mark.parametrize(
    "folder",
    ["hooks_pkg-1.0.dist-info", "HOOKS_PKG-1.0.DIST-INFO", "hooks_pkg-1.0.egg-info"],
)
def test_a_declaring_distribution_is_never_missed(
    tmp_path: Path, only_path: list[str], folder: str
) -> None:
    _dist(tmp_path, folder, {ENTRY_POINT_GROUP: "guard = guard_mod"})
    only_path.append(str(tmp_path))

    assert _found(ENTRY_POINT_GROUP) == ["guard"]
    assert _may_declare(ENTRY_POINT_GROUP) is True
    assert [s.origin for s in discover_hooks(user=False).sources] == ["entry_point:guard"]


def test_an_egg_folder_on_the_path(tmp_path: Path, only_path: list[str]) -> None:
    egg = tmp_path / "guard-1.0-py3.11.egg"
    _dist(egg, "EGG-INFO", {ENTRY_POINT_GROUP: "guard = guard_mod"})
    only_path.append(str(egg))

    assert _found(ENTRY_POINT_GROUP) == ["guard"]
    assert _may_declare(ENTRY_POINT_GROUP) is True


def test_the_current_folder_is_searched_for_an_empty_entry(
    tmp_path: Path, only_path: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _dist(tmp_path, "here-1.0.dist-info", {ENTRY_POINT_GROUP: "here = here_mod"})
    monkeypatch.chdir(tmp_path)
    only_path.append("")

    assert _found(ENTRY_POINT_GROUP) == ["here"]
    assert _may_declare(ENTRY_POINT_GROUP) is True


def test_a_zip_on_the_path_is_left_to_importlib(tmp_path: Path, only_path: list[str]) -> None:
    archive = tmp_path / "bundle.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: z\n")
        zf.writestr("zipped-1.0.dist-info/entry_points.txt", f"[{ENTRY_POINT_GROUP}]\nz = z_mod\n")
    only_path.append(str(archive))

    assert _found(ENTRY_POINT_GROUP) == ["z"]
    assert _may_declare(ENTRY_POINT_GROUP) is True


def test_missing_folders_on_the_path_are_skipped(tmp_path: Path, only_path: list[str]) -> None:
    only_path.append(str(tmp_path / "gone"))

    assert _may_declare(ENTRY_POINT_GROUP) is False


class _Dist(metadata.Distribution):
    """A distribution served by a finder, with no folder on disk."""

    def read_text(self, filename: str) -> str | None:
        if filename == "entry_points.txt":
            return f"[{ENTRY_POINT_GROUP}]\nfinder = finder_mod\n"
        if filename == "METADATA":
            return "Metadata-Version: 2.1\nName: served\nVersion: 1.0\n"
        return None

    def locate_file(self, path: Any) -> Path:
        return Path(str(path))


class _Finder:
    @staticmethod
    def find_spec(*args: object) -> None:
        return None

    @staticmethod
    def find_distributions(*args: object, **kwargs: object) -> list[metadata.Distribution]:
        return [_Dist()]


def test_another_finder_of_distributions_is_left_to_importlib(
    only_path: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, _Finder()])

    assert _found(ENTRY_POINT_GROUP) == ["finder"]
    assert _may_declare(ENTRY_POINT_GROUP) is True
