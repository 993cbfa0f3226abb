"""``SandboxState``: the mode the ``/sandbox`` panel picks, written as Claude Code writes it,
held from the next bash call of the running session (judged on disk), and never against a
file that fixes it."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest

from hookline.agent.setup import AgentBundle, AgentOptions, build_agent
from hookline.core.messages import content_text
from hookline.sandbox.state import (
    MODE_SETTINGS,
    SandboxState,
    forced_keys,
    offered_modes,
    write_mode,
)
from hookline.settings import load_settings
from hookline.settings.local_settings import LocalSettingsError
from tests.sandbox.helpers import needs_bwrap, write_settings

LOCAL = Path(".claude") / "settings.local.json"


def local(project: Path) -> Any:
    return json.loads((project / LOCAL).read_text())


# -- what is written -------------------------------------------------------------------


def test_each_mode_writes_what_claude_codes_panel_writes(project: Path) -> None:
    write_mode(project, "auto-allow")
    assert local(project) == {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}}
    write_mode(project, "regular")
    assert local(project) == {"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": False}}
    write_mode(project, "off")  # the auto-allow key stays as it was: only enabled changes
    assert local(project) == {"sandbox": {"enabled": False, "autoAllowBashIfSandboxed": False}}


def test_the_other_keys_of_the_file_stay(project: Path) -> None:
    before = {
        "permissions": {"allow": ["WebFetch(domain:pypi.org)"]},
        "sandbox": {"network": {"allowedDomains": ["example.com"]}, "enabled": False},
        "model": "scripted:x.json",
    }
    write_settings(project, before, "settings.local.json")
    write_mode(project, "auto-allow")
    after = local(project)
    assert after["permissions"] == before["permissions"] and after["model"] == before["model"]
    assert after["sandbox"] == {
        "network": {"allowedDomains": ["example.com"]},
        **MODE_SETTINGS["auto-allow"],
    }


@pytest.mark.parametrize("text", ['{"sandbox": "on"}', "{not json", "[1, 2]"])
def test_a_file_it_cannot_change_is_left_as_it_was(project: Path, text: str) -> None:
    (project / ".claude").mkdir()
    (project / LOCAL).write_text(text)
    with pytest.raises(LocalSettingsError):
        write_mode(project, "off")
    assert (project / LOCAL).read_text() == text


# -- what another file fixes -----------------------------------------------------------


def forced_by(project: Path, tmp_path: Path, managed: dict[str, Any]) -> list[str]:
    path = tmp_path / "managed-settings.json"
    path.write_text(json.dumps({"sandbox": managed}))
    loaded = load_settings(project, managed_paths=[path])
    return list(offered_modes(forced_keys(loaded)))


def test_a_managed_file_that_forces_the_sandbox_on_takes_off_away(
    project: Path, tmp_path: Path
) -> None:
    assert forced_by(project, tmp_path, {"enabled": True}) == ["auto-allow", "regular"]
    assert forced_by(project, tmp_path, {"failIfUnavailable": True}) == ["auto-allow", "regular"]
    assert forced_by(project, tmp_path, {"enabled": True, "autoAllowBashIfSandboxed": False}) == [
        "regular"
    ]
    assert forced_by(project, tmp_path, {"enabled": False}) == ["off"]
    assert forced_by(project, tmp_path, {"excludedCommands": ["git"]}) == [
        "auto-allow",
        "regular",
        "off",
    ]


def test_files_the_local_settings_override_fix_nothing(project: Path, tmp_path: Path) -> None:
    write_settings(project, {"sandbox": {"enabled": True, "failIfUnavailable": True}})
    home = Path.home() / ".claude"
    home.mkdir(parents=True)
    (home / "settings.json").write_text(json.dumps({"sandbox": {"enabled": False}}))
    loaded = load_settings(project, managed_paths=[], project_trusted=True)
    assert forced_keys(loaded) == {}


# -- the running session ----------------------------------------------------------------

OUTSIDE = "outside.txt"


async def _bundle(project: Path, turns: int, **options: Any) -> AgentBundle:
    """The agent of ``project``; each of its ``turns`` prompts makes one bash call writing
    ``outside.txt`` next to the project, then ends."""
    target = project.parent / OUTSIDE
    call = {"tool_calls": [{"name": "bash", "arguments": {"command": f"echo pwned > {target}"}}]}
    script = project.parent / "script.json"
    script.write_text(json.dumps({"turns": [call, "done"] * turns}))
    return await build_agent(
        AgentOptions(cwd=str(project), model=f"scripted:{script}", no_session=True, **options),
        stderr=io.StringIO(),
    )


async def _write_outside(bundle: AgentBundle) -> str:
    """One prompt (its bash call writes outside the project); the tool's result text."""
    added = await bundle.agent.prompt("go")
    return "".join(content_text(m["content"]) for m in added if m["role"] == "tool")


@needs_bwrap
def test_a_mode_picked_mid_session_holds_from_the_next_bash_call(
    project: Path, tmp_path: Path
) -> None:
    async def session() -> None:
        bundle = await _bundle(project, 5, trust_project=True)
        state = bundle.sandbox
        assert state.sandbox is None  # no sandbox settings: nothing started at launch
        target = tmp_path / OUTSIDE

        text = await _write_outside(bundle)
        assert "no UI" in text or "denied" in text.lower(), text  # asked, no UI: denied
        assert not target.exists()

        change = state.set_mode("auto-allow")
        assert (change.asked, change.now, change.note) == ("auto-allow", "auto-allow", None)
        assert change.path == project / LOCAL
        assert state.sandbox is not None  # started now, with the network proxy
        assert state.sandbox.proxy is not None
        text = await _write_outside(bundle)
        assert "Read-only file system" in text, text  # auto-allowed, and the kernel held
        assert not target.exists()

        started = state.sandbox
        assert state.set_mode("regular").now == "regular"
        assert state.sandbox is started  # the same box: only the policy changed
        text = await _write_outside(bundle)
        assert "Read-only file system" not in text  # asked, not auto-allowed: denied
        assert not target.exists()

        bundle.agent.gate.mode = "bypassPermissions"  # answers every ask: runs sandboxed
        text = await _write_outside(bundle)
        assert "Read-only file system" in text, text
        assert not target.exists()

        assert state.set_mode("off").now == "off"
        await _write_outside(bundle)  # bypassPermissions, no sandbox: it runs
        assert target.read_text() == "pwned\n"
        assert local(project) == {"sandbox": {"enabled": False, "autoAllowBashIfSandboxed": False}}
        await bundle.agent.shutdown()

    asyncio.run(session())


@needs_bwrap
def test_switching_off_a_sandbox_started_at_launch_lets_the_next_call_out(
    project: Path, tmp_path: Path
) -> None:
    write_settings(project, {"sandbox": {"enabled": True}})

    async def session() -> None:
        bundle = await _bundle(project, 2, trust_project=True, permission_mode="bypassPermissions")
        target = tmp_path / OUTSIDE
        assert "Read-only file system" in await _write_outside(bundle)
        assert not target.exists()
        assert bundle.sandbox.set_mode("off").now == "off"
        await _write_outside(bundle)
        assert target.read_text() == "pwned\n"
        await bundle.agent.shutdown()

    asyncio.run(session())


def managed_file(tmp_path: Path, sandbox: dict[str, Any]) -> Path:
    path = tmp_path / "managed-settings.json"
    path.write_text(json.dumps({"sandbox": sandbox}))
    return path


@needs_bwrap
def test_a_sandbox_the_managed_file_requires_cannot_be_switched_off(
    project: Path, tmp_path: Path
) -> None:
    managed = managed_file(tmp_path, {"enabled": True, "failIfUnavailable": True})

    async def session() -> None:
        bundle = await _bundle(
            project, 1, managed_paths=[managed], permission_mode="bypassPermissions"
        )
        change = bundle.sandbox.set_mode("off")
        assert change.path is None and change.now == "auto-allow"
        assert change.note is not None and str(managed) in change.note
        assert not (project / LOCAL).exists()
        target = tmp_path / OUTSIDE
        assert "Read-only file system" in await _write_outside(bundle)
        assert not target.exists()
        await bundle.agent.shutdown()

    asyncio.run(session())


@needs_bwrap
def test_an_untrusted_projects_choice_may_only_confine(project: Path) -> None:
    async def session() -> None:
        bundle = await _bundle(project, 1)
        change = bundle.sandbox.set_mode("auto-allow")
        # written, but the trust filter keeps only enabled: true from this project
        assert change.path == project / LOCAL and change.now == "regular"
        assert change.note is not None and "not trusted" in change.note
        assert bundle.sandbox.sandbox is not None
        assert not bundle.sandbox.auto_allows({"command": "ls"}, str(project))
        await bundle.agent.shutdown()

    asyncio.run(session())


def test_nothing_is_written_when_bubblewrap_is_missing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKLINE_BWRAP", "/nonexistent/bwrap")

    async def session() -> None:
        bundle = await _bundle(project, 1)
        change = bundle.sandbox.set_mode("auto-allow")
        assert change.path is None and change.now == "off"
        assert change.note is not None and "bubblewrap (bwrap) not installed" in change.note
        assert not (project / LOCAL).exists()
        assert bundle.sandbox.sandbox is None
        assert bundle.sandbox.set_mode("off").path == project / LOCAL  # off always can
        await bundle.agent.shutdown()

    asyncio.run(session())


def test_a_fixed_state_runs_its_sandbox_and_changes_nothing(project: Path) -> None:
    from hookline.sandbox.config import SandboxConfig
    from hookline.sandbox.launcher import Sandbox

    box = Sandbox(SandboxConfig(enabled=True, cwd=str(project)), bwrap="/usr/bin/bwrap")
    state = SandboxState.fixed(box)
    assert state.sandbox_for({"command": "ls"}) is box
    assert state.auto_allows({"command": "ls"}, str(project))
    change = state.set_mode("off")
    assert change.path is None and change.now == "auto-allow"
    assert state.sandbox_for({"command": "ls"}) is box
    assert not (project / LOCAL).exists()


@needs_bwrap
def test_an_untrusted_project_cannot_switch_off_the_users_sandbox(
    project: Path, tmp_path: Path
) -> None:
    home = Path.home() / ".claude"
    home.mkdir(parents=True)
    (home / "settings.json").write_text(json.dumps({"sandbox": {"enabled": True}}))

    async def session() -> None:
        bundle = await _bundle(project, 1, permission_mode="bypassPermissions")
        change = bundle.sandbox.set_mode("off")
        assert change.path == project / LOCAL and change.now == "auto-allow"
        assert change.note is not None and "not trusted" in change.note
        target = tmp_path / OUTSIDE
        assert "Read-only file system" in await _write_outside(bundle)
        assert not target.exists()
        await bundle.agent.shutdown()

    asyncio.run(session())
