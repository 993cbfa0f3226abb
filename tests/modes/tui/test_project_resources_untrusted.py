"""An untrusted project's templates in the terminal app: a template named like one of
the app's commands does not take its place, and escapes in a name never reach tmux."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import app
from .pane import needs_tmux

#: A command of the app and what it shows.
BUILTINS = {"help": "Keys", "model": "Select a model", "hooks": "Hooks", "logout": "usage"}


@needs_tmux
@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_a_project_template_does_not_replace_a_command(tmp_path: Path, name: str) -> None:
    prompts = tmp_path / "project" / ".hookline" / "prompts"
    prompts.mkdir(parents=True)
    (prompts / f"{name}.md").write_text("TEMPLATE-TOOK-OVER\n")
    (prompts / "x\x1b]0;PWNED-TITLE\x07.md").write_text("t\n")
    turns = [{"text": "model answered", "expect_user_contains": "TEMPLATE-TOOK-OVER"}]
    with app(tmp_path, turns) as pane:
        pane.ready()
        before = pane.title()
        pane.type(f"/{name}")
        pane.keys("Enter")
        screen = pane.wait_for(lambda s: "model answered" in s or BUILTINS[name] in s)
        assert "model answered" not in screen
        assert "PWNED" not in pane.title() and pane.title() == before
