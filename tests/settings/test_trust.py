"""Trust store: subdirectories, links, corrupt files, atomic writes."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from hookline.settings import TrustError, TrustStore


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    (path / "sub" / "deeper").mkdir(parents=True)
    return path


def test_default_path_follows_hookline_home_at_call_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    store = TrustStore()
    assert store.path == isolated_home / ".hookline" / "trust.json"
    monkeypatch.setenv("HOOKLINE_HOME", str(tmp_path / "other"))
    assert store.path == tmp_path / "other" / "trust.json"


def test_nothing_trusted_without_a_file(folder: Path) -> None:
    store = TrustStore()
    assert not store.is_trusted(folder)
    assert store.trusted_dirs() == []
    assert store.warning is None
    assert not store.path.exists()


def test_trust_creates_file_and_parent_and_covers_subdirectories(
    folder: Path, tmp_path: Path
) -> None:
    store = TrustStore()
    assert not store.path.parent.exists()
    assert store.trust(folder) is True
    assert store.trust(folder) is False
    assert store.path.is_file()
    assert store.is_trusted(folder)
    assert store.is_trusted(folder / "sub" / "deeper")
    assert store.is_trusted(folder / "not-yet-created")
    assert not store.is_trusted(folder.parent)
    assert not store.is_trusted(tmp_path / "repo-other")  # a prefix is not a parent
    assert store.trusted_dirs() == [folder.resolve()]
    data = json.loads(store.path.read_text())
    assert data == {"version": 1, "trusted": [str(folder.resolve())]}


def test_a_new_store_object_sees_the_recorded_trust(folder: Path) -> None:
    TrustStore().trust(folder)
    assert TrustStore().is_trusted(folder / "sub")


def test_paths_are_resolved(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    link = tmp_path / "link"
    link.symlink_to(folder)
    store = TrustStore()
    store.trust(link)
    assert store.trusted_dirs() == [folder.resolve()]
    assert store.is_trusted(folder / "sub")
    monkeypatch.chdir(folder)
    assert store.is_trusted(Path("sub"))
    assert store.is_trusted("sub/../sub/deeper")


def test_untrust(folder: Path) -> None:
    store = TrustStore()
    store.trust(folder)
    store.trust(folder / "sub")
    assert store.untrust(folder) is True
    assert store.untrust(folder) is False
    assert not store.is_trusted(folder)
    assert store.is_trusted(folder / "sub" / "deeper")
    assert store.trusted_dirs() == [(folder / "sub").resolve()]


def test_untrusting_a_subdirectory_of_a_trusted_one_keeps_it_trusted(folder: Path) -> None:
    store = TrustStore()
    store.trust(folder)
    assert store.untrust(folder / "sub") is False
    assert store.is_trusted(folder / "sub")


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[]",
        '{"trusted": "/"}',
        '{"trusted": [1]}',
        '{"trusted": ["relative/path"]}',
        "",
    ],
)
def test_corrupt_file_trusts_nothing_with_a_warning(
    tmp_path: Path, folder: Path, content: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "trust.json"
    path.write_text(content)
    store = TrustStore(path)
    with caplog.at_level(logging.WARNING, logger="hookline.settings.trust"):
        assert not store.is_trusted(Path("/"))
        assert not store.is_trusted(folder)
    assert store.warning is not None and str(path) in store.warning
    assert "no directory as trusted" in caplog.text


def test_trusting_over_a_corrupt_file_keeps_a_copy_of_it(tmp_path: Path, folder: Path) -> None:
    path = tmp_path / "trust.json"
    path.write_text('{"trusted": "/"}')
    store = TrustStore(path)
    assert store.trust(folder)
    assert store.warning is None
    assert store.trusted_dirs() == [folder.resolve()]
    assert (tmp_path / "trust.json.corrupt").read_text() == '{"trusted": "/"}'


def test_unreadable_file_is_corrupt(tmp_path: Path, folder: Path) -> None:
    path = tmp_path / "trust.json"
    path.mkdir()
    store = TrustStore(path)
    assert not store.is_trusted(folder)
    assert store.warning is not None and "not a regular file" in store.warning


def test_atomic_write_leaves_no_temp_file(tmp_path: Path, folder: Path) -> None:
    path = tmp_path / "state" / "trust.json"
    store = TrustStore(path)
    store.trust(folder)
    store.trust(folder / "sub")
    store.untrust(folder)
    assert sorted(os.listdir(path.parent)) == ["trust.json"]


def test_failed_write_keeps_old_file_and_removes_temp(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "state" / "trust.json"
    store = TrustStore(path)
    store.trust(folder)
    before = path.read_text()

    def boom(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(TrustError, match=r"cannot write .*trust\.json: disk full"):
        store.trust(folder / "sub")
    monkeypatch.undo()
    assert path.read_text() == before
    assert sorted(os.listdir(path.parent)) == ["trust.json"]
