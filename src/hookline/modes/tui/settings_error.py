"""The settings-error screen: an invalid settings file, before anything else is asked.

A file that parsed but is invalid (``SettingsFile.may_set_aside``) is shown
with what is wrong in it, key path by key path; the user exits to fix it, or
goes on without it (only what restricts of it still applies: ``load_settings``
``set_aside``).
"""

from __future__ import annotations

import os

from hookline.modes.tui.dialogs import SelectDialog
from hookline.settings.loader import SettingsFile

EXIT = "Exit and fix it"
GO_ON = "Continue without this file"


def settings_error_dialog(file: SettingsFile, cwd: str) -> SelectDialog:
    """The question about ``file``: True goes on without it; False, Esc or Ctrl+C exit."""
    where = str(file.path)
    if file.path.is_relative_to(cwd):
        where = os.path.relpath(file.path, cwd)
    lines = [
        f"Settings error in {where}",
        *(f"  └ {problem}" for problem in file.problems),
        "Without it, its hooks, allow rules and other settings are ignored; "
        "its deny and ask rules still apply.",
    ]
    return SelectDialog(
        "\n".join(lines),
        [EXIT, GO_ON],
        values=[False, True],
        default=False,
        descriptions={EXIT: "nothing is started", GO_ON: "for this run"},
        keys={"e": 0, "c": 1},
    )
