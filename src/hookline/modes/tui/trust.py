"""The trust question as a dialog, asked before anything from the project is loaded."""

from __future__ import annotations

from prompt_toolkit.application import Application
from prompt_toolkit.layout import Layout

from hookline.modes.tui.dialogs import STYLE, SelectDialog


async def ask_trust(cwd: str) -> bool:
    """Yes trusts the project for good (recorded); No, Esc or Ctrl+C skip its hooks."""
    dialog = SelectDialog(
        f"Trust the project {cwd}?\n"
        "Its hooks (.hookline/hooks) and settings hooks (.claude/settings.json) will run code.",
        ["Yes, trust it", "No, skip its hooks"],
        values=[True, False],
        default=False,
        descriptions={
            "Yes, trust it": "remembered in $HOOKLINE_HOME/trust.json",
            "No, skip its hooks": "asked again next time",
        },
        keys={"y": 0, "n": 1},
    )
    app: Application[None] = Application(
        layout=Layout(dialog.container, focused_element=dialog.focus),
        full_screen=False,
        erase_when_done=True,
        style=STYLE,
    )
    app.ttimeoutlen = 0.05
    # The answer ends the app in the same key press, so its last frame is erased cleanly.
    dialog.future.add_done_callback(lambda _: app.exit() if app.is_running else None)
    await app.run_async()
    return dialog.future.done() and dialog.future.result() is True
