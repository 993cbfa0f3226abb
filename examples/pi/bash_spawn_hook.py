"""Bash spawn hook: change a bash call's command, cwd and env just before the shell starts.

The Python version of pi's bash-spawn-hook example. The hook replaces the ``bash`` tool
with the built-in one made with a spawn hook (``create_bash_tool(cwd, spawn_hook)``):
every command runs after ``source ~/.profile`` (the user's aliases and ``PATH``), with
``PI_SPAWN_HOOK=1`` in its environment. The model, the permission rules and the hooks
see the command as the model wrote it; only the shell gets the rewritten one.

Run it: ``hookline --hook examples/pi/bash_spawn_hook.py``.
"""

from __future__ import annotations

import dataclasses
import os

from hookline import BashSpawnContext, HookAPI, create_bash_tool


def with_profile(spawn: BashSpawnContext) -> BashSpawnContext:
    return dataclasses.replace(
        spawn,
        command=f"source ~/.profile\n{spawn.command}",
        env={**spawn.env, "PI_SPAWN_HOOK": "1"},
    )


def register(pi: HookAPI) -> None:
    pi.register_tool(create_bash_tool(os.getcwd(), with_profile))
