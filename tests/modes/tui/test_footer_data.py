"""``footer_data``: the git branch (followed as it changes), the statuses, the model."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hookline.core.ui import StatusLine
from hookline.modes.tui.footer import Usage
from hookline.modes.tui.footer_data import FooterData, git_head, read_branch


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def _data(cwd: Path, status: StatusLine | None = None) -> FooterData:
    return FooterData(str(cwd), status or StatusLine(), lambda: "model-x", Usage)


def test_the_branch_is_read_and_followed(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    inner = tmp_path / "src" / "deep"
    inner.mkdir(parents=True)
    data = _data(inner)
    assert data.get_git_branch() == "main"
    told: list[str] = []
    unsubscribe = data.on_branch_change(lambda: told.append(str(data.get_git_branch())))
    assert data.poll() is False  # nothing changed
    _git(tmp_path, "checkout", "-q", "-b", "feature")
    assert data.poll() is True and told == ["feature"]
    unsubscribe()
    _git(tmp_path, "checkout", "-q", "-b", "other")
    assert data.poll() is True and told == ["feature"]  # no longer told


def test_a_failing_subscriber_does_not_stop_the_others(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    data = _data(tmp_path)
    data.get_git_branch()
    told: list[int] = []

    def broken() -> None:
        raise RuntimeError("no")

    data.on_branch_change(broken)
    data.on_branch_change(lambda: told.append(1))
    _git(tmp_path, "checkout", "-q", "-b", "feature")
    assert data.poll() and told == [1]


def test_outside_a_repository_there_is_no_branch(tmp_path: Path) -> None:
    assert git_head(str(tmp_path)) is None  # the temporary folder is in no repository
    assert read_branch(None) is None
    assert _data(tmp_path).get_git_branch() is None


def test_a_worktree_and_a_detached_head(tmp_path: Path) -> None:
    gitdir = tmp_path / "real" / "worktrees" / "wt"
    gitdir.mkdir(parents=True)
    (gitdir / "HEAD").write_text("0123456789abcdef0123456789abcdef01234567\n")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / ".git").write_text(f"gitdir: {gitdir}\n")
    assert git_head(str(checkout)) == gitdir / "HEAD"
    assert _data(checkout).get_git_branch() == "detached"


def test_statuses_model_and_usage_are_read_when_asked() -> None:
    status = StatusLine()
    data = FooterData("/", status, lambda: "model-x", lambda: Usage(messages=3))
    status.set("b", "two")
    status.set("a", "one")
    assert list(data.get_extension_statuses().items()) == [("a", "one"), ("b", "two")]
    assert data.get_model() == "model-x" and data.get_usage().messages == 3
