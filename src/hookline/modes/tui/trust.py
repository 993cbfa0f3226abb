"""The trust question as a dialog, asked before anything from the project is loaded."""

from __future__ import annotations

from hookline.modes.tui.dialogs import SelectDialog, run_alone


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
    return await run_alone(dialog) is True
