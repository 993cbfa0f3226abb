"""The editor from a hook's side (set, get, paste), a component widget, Markdown answers,
and ``/quit``, in the real app."""

from __future__ import annotations

from pathlib import Path

from .helpers import app

EDITOR = """
from pathlib import Path

from hookline import HookAPI
from prompt_toolkit.layout import Window
from prompt_toolkit.layout.controls import FormattedTextControl


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def start(event, ctx):
        def factory():
            return Window(FormattedTextControl(lambda: "component widget is live"), height=1)

        ctx.ui.set_widget("component", factory, placement="below")

    @pi.register_command("fill")
    def fill(args, ctx):
        ctx.ui.set_editor_text("prefilled by a hook")

    async def peek(ctx):
        ctx.ui.notify(f"editor holds [{ctx.ui.get_editor_text()}]")

    async def paste(ctx):
        ctx.ui.paste_to_editor(" + pasted\\x1b[2J\\x1b]0;pwned\\x07 text")

    pi.register_shortcut("ctrl+t", peek, description="peek at the editor")
    pi.register_shortcut("ctrl+y", paste, description="paste into the editor")

    @pi.on("session_shutdown")
    def done(event, ctx):
        Path(__file__).with_name("shutdown.marker").write_text(event.reason)
"""


def test_a_hook_sets_reads_and_pastes_into_the_editor(tmp_path: Path) -> None:
    turns = [{"text": "got it", "expect_user_contains": "prefilled by a hook + pasted text"}]
    with app(tmp_path, turns, EDITOR) as pane:
        pane.ready()
        pane.type("/fill")
        pane.keys("Enter")
        pane.wait_for("› prefilled by a hook")
        pane.keys("C-t")
        pane.wait_for("editor holds [prefilled by a hook]", whole=True)
        pane.keys("C-y")  # inserted at the cursor, escape sequences removed
        screen = pane.wait_for("› prefilled by a hook + pasted text")
        assert "pwned" not in screen and "pwned" not in pane.title()
        pane.keys("Enter")
        pane.wait_for("got it", whole=True)


def test_a_component_widget_is_drawn_below_the_editor(tmp_path: Path) -> None:
    with app(tmp_path, [], EDITOR) as pane:

        def below_the_editor(screen: str) -> bool:
            lines = screen.splitlines()
            editor = next((i for i, line in enumerate(lines) if line.startswith("›")), -1)
            widget = next((i for i, x in enumerate(lines) if "component widget is live" in x), -1)
            return -1 < editor < widget

        pane.wait_for(below_the_editor)


def test_quit_exits_with_session_shutdown(tmp_path: Path) -> None:
    with app(tmp_path, [], EDITOR) as pane:
        pane.ready()
        pane.type("/quit")
        pane.keys("Enter")
        assert pane.wait_exit() == 0
    assert (tmp_path / "shutdown.marker").read_text() == "quit"


ANSWER = """# Release notes

Some **bold** words and a list:

- first item
- second item

```python
def greet(name):
    return f"hello {name}"
```
"""


def test_answers_are_rendered_as_markdown(tmp_path: Path) -> None:
    with app(tmp_path, [ANSWER]) as pane:
        pane.ready()
        pane.type("notes?")
        pane.keys("Enter")
        screen = pane.wait_all(["Release notes", "def greet(name):", "second item"])
        assert "```" not in screen and "**bold**" not in screen and "# Release" not in screen
        assert "• first item" in screen
        colours = pane.tmux("capture-pane", "-p", "-e", "-t", pane.target)
        code = next(line for line in colours.splitlines() if "greet" in line)
        assert code.count("\x1b[") >= 3  # highlighted: several colour runs on the code line
