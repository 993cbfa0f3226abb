"""pi's names for hookline's own: the aliases, a late ``pi.on``, events pi replaced."""

from __future__ import annotations

import pytest

import hookline
from hookline.core.api import HookAPI, LateRegistrationError, LoadedHook, UnknownEventError
from hookline.core.process import exec_command, run_process
from hookline.core.runner import HookRunner
from hookline.core.wrapping import HookToolWrapper, wrap_tool
from hookline.discovery import discover_and_load_hooks


def test_pi_names_are_the_current_ones() -> None:
    assert HookToolWrapper is wrap_tool
    assert HookRunner.set_ui_context is HookRunner.set_ui
    for name in ("HookToolWrapper", "exec_command", "discover_and_load_hooks"):
        assert name in hookline.__all__
        assert getattr(hookline, name) is not None


async def test_exec_command_runs_the_program_with_its_arguments(tmp_path: object) -> None:
    done = await exec_command("sh", ["-c", 'printf "%s" "$0" "$PWD"', "a b"], str(tmp_path))
    assert done.code == 0
    assert done.stdout == f"a b{tmp_path}"
    assert run_process is not exec_command


def test_set_ui_context_sets_the_ui_and_has_ui() -> None:
    from hookline.core.ui import NoUI

    runner = HookRunner()
    runner.set_ui_context(NoUI(), True)
    assert runner.context.has_ui is True


def test_on_after_register_returned_raises_with_the_hook_path() -> None:
    hook = LoadedHook("/hooks/late.py")
    api = HookAPI(hook)
    api.on("turn_start", lambda e, c: None)  # inside register(pi): fine
    HookRunner().add_hook(hook, api)
    with pytest.raises(LateRegistrationError, match=r"/hooks/late\.py.*'turn_end'.*register"):
        api.on("turn_end", lambda e, c: None)
    with pytest.raises(LateRegistrationError):
        api.on("turn_end")  # the decorator form too
    assert list(hook.handlers) == ["turn_start"]


def test_the_single_session_event_names_what_replaced_it() -> None:
    api = HookAPI(LoadedHook("h.py"))
    with pytest.raises(UnknownEventError) as info:
        api.on("session", lambda e, c: None)
    said = str(info.value)
    assert "did you mean" not in said
    assert "session_start" in said and "session_shutdown" in said
    assert "get_entries()" in said


def test_discover_and_load_hooks_loads_the_configured_paths(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "a.py").write_text("def register(pi):\n    pi.on('agent_start', print)\n")
    result = discover_and_load_hooks(["a.py"], cwd=str(folder))
    assert [h.path for h in result.hooks] == [str(folder / "a.py")]
    assert result.errors == []
