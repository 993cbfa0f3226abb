"""Writing ``.claude/settings.local.json``: other keys kept, broken files never overwritten."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookline.settings.local_settings import LocalSettingsError, update_local_settings


def test_creates_the_file_and_keeps_other_keys(tmp_path: Path) -> None:
    path = update_local_settings(tmp_path, lambda d: d.setdefault("a", 1))
    assert path == tmp_path / ".claude" / "settings.local.json"
    update_local_settings(tmp_path, lambda d: d.update(b=[2]))
    assert json.loads(path.read_text()) == {"a": 1, "b": [2]}


def test_an_empty_file_is_an_empty_object(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.local.json").write_text("\n")
    update_local_settings(tmp_path, lambda d: d.update(x=True))
    assert json.loads((tmp_path / ".claude" / "settings.local.json").read_text()) == {"x": True}


@pytest.mark.parametrize("text", ["{not json", "[1, 2]"])
def test_a_broken_file_is_left_as_it_was(tmp_path: Path, text: str) -> None:
    (tmp_path / ".claude").mkdir()
    path = tmp_path / ".claude" / "settings.local.json"
    path.write_text(text)
    with pytest.raises(LocalSettingsError, match=r"settings\.local\.json"):
        update_local_settings(tmp_path, lambda d: d.update(x=True))
    assert path.read_text() == text


def test_a_planted_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    os.mkfifo(tmp_path / ".claude" / "settings.local.json")
    with pytest.raises(LocalSettingsError, match="not a regular file"):
        update_local_settings(tmp_path, lambda d: d.update(x=True))


def test_a_rule_is_added_once_and_removed(tmp_path: Path) -> None:
    from hookline.settings.local_settings import add_permission_rule, remove_permission_rule

    path = update_local_settings(tmp_path, lambda d: d.update(env={"A": "1"}))
    add_permission_rule(tmp_path, "allow", "Bash(npm run build)")
    add_permission_rule(tmp_path, "allow", "Bash(npm run build)")
    add_permission_rule(tmp_path, "deny", "Read(.env)")
    assert json.loads(path.read_text()) == {
        "env": {"A": "1"},
        "permissions": {"allow": ["Bash(npm run build)"], "deny": ["Read(.env)"]},
    }
    assert remove_permission_rule(tmp_path, "allow", "Bash(npm run build)")
    assert not remove_permission_rule(tmp_path, "allow", "Bash(npm run build)")
    assert json.loads(path.read_text())["permissions"] == {"allow": [], "deny": ["Read(.env)"]}


def test_removing_from_no_file_writes_none(tmp_path: Path) -> None:
    from hookline.settings.local_settings import remove_permission_rule

    assert not remove_permission_rule(tmp_path, "allow", "Bash(ls)")
    assert not (tmp_path / ".claude").exists()


def test_a_rule_list_that_is_not_a_list_is_left_alone(tmp_path: Path) -> None:
    from hookline.settings.local_settings import add_permission_rule

    path = update_local_settings(tmp_path, lambda d: d.update(permissions={"allow": "Bash"}))
    before = path.read_text()
    with pytest.raises(LocalSettingsError, match=r"permissions\.allow"):
        add_permission_rule(tmp_path, "allow", "Bash(ls)")
    assert path.read_text() == before
