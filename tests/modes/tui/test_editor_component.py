"""``ctx.ui.set_editor_component``: a hook's editor as the prompt, and back."""

from __future__ import annotations

from pathlib import Path

from .helpers import app
from .pane import needs_tmux

HOOK = """
from hookline.components import CustomEditor


class Loud(CustomEditor):
    def render(self, width):
        lines = super().render(width)
        return [*lines[:-1], "LOUD EDITOR"]


def register(pi):
    @pi.register_command("loud")
    async def loud(args, ctx):
        ctx.ui.set_editor_component(Loud if args != "off" else None)

    @pi.register_command("fill")
    async def fill(args, ctx):
        ctx.ui.set_editor_text("filled")
        ctx.ui.paste_to_editor(" and pasted")
        ctx.ui.notify("editor says " + ctx.ui.get_editor_text())
"""


@needs_tmux
def test_a_hooks_editor_takes_the_text_paste_and_hook_calls(tmp_path: Path) -> None:
    with app(tmp_path, ["first answer", "second answer"], HOOK) as pane:
        pane.ready()
        pane.type("/loud")
        pane.keys("Enter")
        pane.wait_for("LOUD EDITOR")
        pane.paste("line one\nline two")  # a bracketed paste keeps its lines
        pane.wait_all(["line one", "line two"])
        pane.keys("C-c")  # clears, as in the app's editor
        pane.wait_for(lambda s: "line one" not in s)
        pane.type("/fill")
        pane.keys("Enter")
        pane.wait_for(lambda s: s.count("filled and pasted") == 2)  # the notice, the editor
        pane.keys("C-u")  # the editor's own key: delete to the line's start
        pane.wait_for(lambda s: s.count("filled and pasted") == 1)
        pane.type("hello there")
        pane.keys("Enter")
        pane.wait_all(["hello there", "first answer"])
        pane.type("/loud off")
        pane.keys("Enter")
        pane.wait_for(lambda s: "LOUD EDITOR" not in s)
        pane.keys("Up")  # the app's editor has what the hook's sent, in its history
        pane.wait_for(lambda s: "› /loud off" in s)
        pane.keys("Up")
        pane.wait_for("› hello there")


@needs_tmux
def test_reload_puts_the_apps_editor_back(tmp_path: Path) -> None:
    with app(tmp_path, ["Done."], HOOK) as pane:
        pane.ready()
        pane.type("/loud")
        pane.keys("Enter")
        pane.wait_for("LOUD EDITOR")
        pane.type("/reload")
        pane.keys("Enter")
        pane.wait_all(["hooks reloaded: 1 module"])
        pane.wait_for(lambda s: "LOUD EDITOR" not in s and "›" in s)
