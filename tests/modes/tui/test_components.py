"""A hook's component (``hookline.components``) in the terminal app: inline in the
editor's place, or an overlay placed by its options; keys reach it raw, ``done`` answers."""

from __future__ import annotations

from pathlib import Path

from .helpers import app
from .pane import WIDTH

COMPONENTS = """
from hookline import HookAPI
from hookline.components import Box, Key, SelectItem, SelectList, SelectListTheme, Text, matches_key


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def widget(event, ctx):
        class Progress(Text):
            def render(self, width):
                return [f"progress at width {width}"]

        ctx.ui.set_widget("progress", lambda tui, theme: Progress(), placement="below")

    @pi.register_command("fruit")
    async def fruit(args, ctx):
        def factory(tui, theme, keybindings, done):
            picker = SelectList(
                [SelectItem("apple"), SelectItem("banana"), SelectItem("cherry")],
                5,
                SelectListTheme(selected_text=lambda s: theme.fg("accent", s)),
            )
            picker.on_select = lambda item: done(item.value)
            picker.on_cancel = lambda: done(None)
            return picker

        ctx.ui.notify(f"picked {await ctx.ui.custom(factory)}")

    @pi.register_command("corner")
    async def corner(args, ctx):
        class Counter(Box):
            def __init__(self, tui, done):
                super().__init__(1, 0, border=lambda s: s, title="Counter")
                self.count, self.tui, self.done = 0, tui, done
                self.label = Text("count 0", 0, 0)
                self.add_child(self.label)

            def handle_input(self, data):
                if matches_key(data, Key.escape):
                    self.done(self.count)
                elif matches_key(data, "ctrl+k"):
                    self.label.set_text("ctrl+k reached me")
                elif matches_key(data, "+"):
                    self.count += 1
                    self.label.set_text(f"count {self.count}")
                    self.tui.request_render()

        value = await ctx.ui.custom(
            lambda tui, theme, kb, done: Counter(tui, done),
            overlay=True,
            anchor="top-right",
            width=24,
            margin=1,
        )
        ctx.ui.notify(f"counted {value}")

    pi.register_shortcut("ctrl+k", lambda ctx: ctx.ui.notify("the shortcut ran"))
"""


def test_a_component_takes_the_editors_place_and_answers(tmp_path: Path) -> None:
    with app(tmp_path, [], COMPONENTS) as pane:
        pane.ready()
        pane.type("/fruit")
        pane.keys("Enter")
        screen = pane.wait_for("→ apple")
        assert "  banana" in screen and "› " not in screen  # in the editor's place
        pane.keys("Down")
        pane.wait_for("→ banana")
        pane.keys("Enter")
        pane.wait_for("picked banana", whole=True)
        pane.wait_for(lambda s: "→ " not in s and "›" in s)  # the editor is back
        pane.type("/fruit")
        pane.keys("Enter")
        pane.wait_for("→ apple")
        pane.keys("Escape")  # the component decides what Esc does: here, cancel
        pane.wait_for("picked None", whole=True)


def test_an_overlay_is_placed_by_its_anchor_width_and_margin(tmp_path: Path) -> None:
    with app(tmp_path, [], COMPONENTS) as pane:
        pane.ready()
        pane.type("/corner")
        pane.keys("Enter")
        screen = pane.wait_for("count 0")
        lines = screen.splitlines()
        left = WIDTH - 1 - 24  # the right margin, then the width
        # row 1 (the top margin) of the screen (the app is one row shorter than the
        # terminal while an overlay shows), ending one column before the right edge
        assert lines[2][left:] == "╭─ Counter " + "─" * 12 + "╮" + "─", screen  # the rule under it
        assert lines[3][left:].rstrip() == "│ count 0" + " " * 14 + "│", screen
        assert lines[4][left : left + 24] == "╰" + "─" * 22 + "╯", screen
        assert "msgs · ctx" in screen  # the app, underneath
        pane.keys("C-k")  # a hook's shortcut, but the overlay has the keys
        pane.wait_for("ctrl+k reached me")
        pane.type("+++")
        screen = pane.wait_for("count 3")
        assert screen.splitlines()[3][left:].startswith("│ count 3")
        pane.keys("Escape")
        screen = pane.wait_for("counted 3", whole=True)
        assert "the shortcut ran" not in screen
        pane.wait_for(lambda s: "Counter" not in s)


def test_a_widget_factory_of_tui_and_theme_draws_a_component(tmp_path: Path) -> None:
    with app(tmp_path, [], COMPONENTS) as pane:
        screen = pane.ready()
        screen = pane.wait_for(f"progress at width {WIDTH}")
        lines = screen.splitlines()
        at = next(i for i, line in enumerate(lines) if "progress at width" in line)
        assert lines[at - 1].startswith("›")  # below the editor
