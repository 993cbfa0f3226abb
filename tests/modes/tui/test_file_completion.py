"""``@`` completes paths of the working directory in the real app, ``.gitignore`` kept."""

from __future__ import annotations

from pathlib import Path

from .helpers import app
from .pane import Pane


def _project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "home.py").write_text("x = 1\n")
    (project / "src" / "hooks.py").write_text("y = 2\n")
    (project / "src" / "homework.log").write_text("ignored\n")
    (project / ".gitignore").write_text("*.log\n")


def _menu_row(pane: Pane, path: str) -> bool:
    """``path`` shown in the completion menu (below the editor's rule, not the editor)."""
    below = pane.screen().split("─" * 20, 1)[-1].splitlines()
    return any(path in row for row in below if not row.startswith("› "))


def test_at_completes_a_path_and_tab_inserts_it(tmp_path: Path) -> None:
    _project(tmp_path)
    with app(tmp_path, ["read it"]) as pane:
        pane.ready()
        pane.type("look at @src/ho")
        pane.wait_for(lambda s: _menu_row(pane, "src/home.py") and _menu_row(pane, "src/hooks.py"))
        assert not _menu_row(pane, "homework.log")  # .gitignore'd: never offered
        pane.type("me")
        pane.wait_for(lambda s: _menu_row(pane, "src/home.py") and not _menu_row(pane, "hooks"))
        pane.keys("Tab")
        pane.wait_for("› look at @src/home.py")
        pane.keys("Enter")  # the first Enter closes the menu (the path stays), the next sends
        pane.wait_for(lambda s: not _menu_row(pane, "src/home.py"))
        pane.keys("Enter")
        pane.wait_for("read it", whole=True)


def test_enter_takes_the_highlighted_path_and_a_folder_goes_on(tmp_path: Path) -> None:
    _project(tmp_path)
    with app(tmp_path, ["fine"]) as pane:
        pane.ready()
        pane.type("@sr")
        pane.wait_for(lambda s: _menu_row(pane, "src/"))
        pane.keys("Down")  # highlight the first: Enter then takes it, not sends
        pane.keys("Enter")
        pane.wait_for(lambda s: "› @src/" in s and "› @src/ " not in s)
        assert "fine" not in pane.scrollback()
