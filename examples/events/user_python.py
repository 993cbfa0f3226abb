"""``user_python``: run the user's ``$`` code with warnings silenced."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, UserPythonEvent


def register(pi: HookAPI) -> None:
    @pi.on("user_python")
    def quiet(event: UserPythonEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {"env": {"PYTHONWARNINGS": "ignore"}}
