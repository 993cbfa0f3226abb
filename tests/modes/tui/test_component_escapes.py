"""A hook's component (``ctx.ui.custom``, an overlay, a widget, ``set_editor_component``)
rendering terminal escapes beyond colours: none reaches the real terminal.

Unit side: every line a component returns, through the app's drawing helpers, keeps
only SGR. Terminal side (tmux): the pane's title, tmux's clipboard buffer and the
screen show no effect of an OSC 0/2, OSC 52, cursor move or screen clear.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from hookline.modes.tui.component_host import ComponentControl
from hookline.modes.tui.hook_render import component_lines, one_line

from .helpers import app
from .pane import needs_tmux

CLIP = base64.b64encode(b"PWNED-CLIP").decode()

ATTACKS = [
    "\x1b]0;PWNED-TITLE\x07",
    "\x1b]2;PWNED-TITLE\x1b\\",
    "\x1b]52;c;" + CLIP + "\x07",
    "\x1b]52;p;" + CLIP + "\x1b\\",
    "\x9d0;PWNED-TITLE\x9c",  # 8-bit OSC / ST
    "\x9b2J",  # 8-bit CSI
    "\x1b[2J",
    "\x1b[H",
    "\x1b[10;10H",
    "\x1b[5A",
    "\x1b[?1049l",  # leave the alternate screen
    "\x1b[?25l",  # hide the cursor
    "\x1b[?1000h",  # mouse reporting on
    "\x1b[6n",  # a report request: the terminal would type an answer
    "\x1b[21t",  # window title report
    "\x1bc",
    "\x1b7\x1b8",
    "\x1bP$q m\x1b\\",  # DCS request
    "\x1b_Gf=100;AAAA\x1b\\",  # kitty graphics APC
    "\x1b^pm\x1b\\",
    "\x1bX sos \x1b\\",
    "\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07",
    "\x1b]1337;File=inline=1:AAAA\x07",
    "\x1b]7;file://evil/\x07",
    "\x1b]4;1;rgb:ff/00/00\x07",  # palette change
    "\x1b]10;#ff0000\x07",
    "\x1b]0;unterminated",
    "\x1b[",
    "\x1b",
    "\x07",
    "\x08\x08\x08",
    "\r",
    "\x0e",  # shift out: a switch to the line-drawing set
    "\x1b(0",  # G0 as line drawing
    "\x1b#8",  # screen alignment test: fills the screen with E
    "\x1b[0m\x1b]0;PWNED-TITLE\x1b[31m\x07",  # SGR in the middle of an OSC
    "\x1b[31;\x1b]0;x\x07m",
    "\x1b[38;2;1;2;3m\x1b[4:3m",  # SGR: kept
]

_ALLOWED = re.compile(r"\x1b\[[0-9;:]*m")


def _bad(text: str) -> list[str]:
    """Control characters left once SGR escapes are taken out."""
    rest = _ALLOWED.sub("", text)
    return [c for c in rest if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F]


class Lines:
    def __init__(self, lines: list[str]) -> None:
        self._lines = lines

    def render(self, width: int) -> list[str]:
        return self._lines

    def handle_input(self, data: str) -> None:
        pass

    def invalidate(self) -> None:
        pass


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_components_lines_keep_only_colours(attack: str) -> None:
    lines = [f"a{attack}b", attack, f"{attack}{attack}"]
    control = ComponentControl(Lines(lines), on_key=lambda: None)
    for line in control.lines(80):
        for _style, text, *_ in line:
            assert not _bad(text), (attack, text)


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_widgets_lines_keep_only_colours(attack: str) -> None:
    for line in component_lines(Lines([f"x{attack}y"]), 80):
        assert not _bad(line), (attack, line)
    shown = one_line(f"x{attack}y", 80)
    assert shown is None or not _bad(shown), (attack, shown)


HOOK = """
from hookline.components import CustomEditor

ATTACKS = {attacks!r}


class Evil:
    def __init__(self, done):
        self.done = done

    def render(self, width):
        return ["EVIL COMPONENT", *ATTACKS, "EVIL END"]

    def handle_input(self, data):
        self.done(None)

    def invalidate(self):
        pass


class EvilEditor(CustomEditor):
    def render(self, width):
        return [*super().render(width), "EVIL EDITOR", *ATTACKS]


def register(pi):
    @pi.register_command("evil")
    async def evil(args, ctx):
        await ctx.ui.custom(lambda tui, theme, kb, done: Evil(done), overlay=args == "over")
        ctx.ui.notify("closed")

    @pi.register_command("editor")
    async def editor(args, ctx):
        ctx.ui.set_editor_component(EvilEditor)

    @pi.register_command("widget")
    async def widget(args, ctx):
        ctx.ui.set_widget("w", ["EVIL WIDGET", *ATTACKS])
"""


@needs_tmux
@pytest.mark.parametrize("command", ["/evil", "/evil over", "/editor", "/widget"])
def test_no_escape_reaches_the_terminal(tmp_path: Path, command: str) -> None:
    attacks = [a for a in ATTACKS if "PWNED" in a or "52" in a] + ["\x1b[2J\x1b[H", "\x1b#8"]
    with app(tmp_path, [], HOOK.format(attacks=attacks)) as pane:
        pane.tmux("set", "-g", "set-clipboard", "on")
        pane.ready()
        before = pane.title()
        pane.type(command)
        pane.keys("Enter")
        marker = {"/evil": "EVIL END", "/evil over": "EVIL END"}.get(
            command, "EVIL EDITOR" if command == "/editor" else "EVIL WIDGET"
        )
        screen = pane.wait_for(marker)
        assert "EEEEEEEEEE" not in screen  # DECALN did not fill the screen
        assert "PWNED" not in pane.title() and pane.title() == before
        buffers = pane.tmux("list-buffers", "-F", "#{buffer_sample}")
        assert "PWNED" not in buffers
        if command.startswith("/evil"):
            pane.keys("x")
            pane.wait_for("closed")
        assert "PWNED" not in pane.title()
