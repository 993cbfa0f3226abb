"""pi's preset example (``examples/pi/preset.py``) in a real agent: a preset switches the
model (a loopback OpenAI server), the thinking level, the tools and the system prompt."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookline.authoring.ui import ScriptedUI
from tests.agent.conftest import MakeAgent
from tests.fakes import FakeOpenAIServer
from tests.modes.tui.helpers import app
from tests.modes.tui.pane import needs_tmux

from ..harness import PI_EXAMPLES

HOOK = [str(PI_EXAMPLES / "preset.py")]
PLAN = "You are in PLANNING MODE. Do not change files."
PRESETS: dict[str, Any] = {
    "plan": {
        "provider": "openai",
        "model": "gpt-5.2",
        "thinkingLevel": "high",
        "tools": ["read", "grep", "nosuch"],
        "instructions": PLAN,
    },
    "quick": {"thinkingLevel": "low", "tools": ["read", "ls"]},
    "elsewhere": {"provider": "nowhere", "model": "m1"},
}


@pytest.fixture
def openai_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def presets(project: Path) -> Path:
    path = project / ".hookline" / "presets.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(PRESETS))
    return path


def _said(ui: ScriptedUI) -> list[str]:
    return [message for _, message in ui.notifications]


async def test_a_preset_switches_model_thinking_tools_and_instructions(
    make_agent: MakeAgent, openai_server: FakeOpenAIServer, presets: Path
) -> None:
    openai_server.add_text("A plan.")
    ui = ScriptedUI()
    h = await make_agent([], hook_paths=HOOK, ui=ui, base_url=openai_server.base_url)
    await h.runner.run_command("preset", "plan")
    assert _said(ui) == ['Preset "plan": Unknown tools: nosuch', 'Preset "plan" activated']
    assert ui.status.items() == [("preset", "preset:plan")]
    await h.agent.prompt("how would you do it?")

    body = openai_server.recorded[0].body
    assert body["model"] == "gpt-5.2" and body["reasoning_effort"] == "high"
    assert sorted(t["function"]["name"] for t in body["tools"]) == ["grep", "read"]
    system = body["messages"][0]["content"]
    system = system if isinstance(system, str) else system[0]["text"]
    assert system.endswith(f"\n\n{PLAN}")
    assert [e["data"] for e in h.entries() if e.get("custom_type") == "preset-state"] == [
        {"name": "plan"}
    ]


async def test_the_picker_the_cycle_and_what_cannot_be_applied(
    make_agent: MakeAgent, presets: Path
) -> None:
    ui = ScriptedUI()
    h = await make_agent([], hook_paths=HOOK, ui=ui)
    await h.runner.run_command("preset", "nosuch")
    await h.runner.run_command("preset", "elsewhere")
    assert _said(ui) == [
        'Unknown preset "nosuch". Available: plan, quick, elsewhere',
        'Preset "elsewhere": Model nowhere/m1 not found',
        'Preset "elsewhere" activated',
    ]
    ui.answer("select", "quick")
    await h.runner.run_command("preset")
    assert h.errors == []
    picker = ui.asked[-1]
    assert picker.title == "Select Preset"
    assert picker.detail == ["plan", "quick", "elsewhere (active)", "(none)"]
    assert sorted(h.agent.get_active_tools()) == ["ls", "read"]
    assert h.agent.get_thinking_level() == "low"
    assert await h.runner.run_shortcut("alt+u")  # quick → (none): the default tools
    assert _said(ui)[-1] == "Preset cleared, defaults restored"
    assert sorted(h.agent.get_active_tools()) == ["bash", "edit", "read", "write"]
    assert ui.status.items() == []
    assert await h.runner.run_shortcut("alt+u")  # (none) → the first preset by name
    assert _said(ui)[-1] == 'Preset "elsewhere" activated'


async def test_the_flag_and_a_resumed_session(make_agent: MakeAgent, presets: Path) -> None:
    ui = ScriptedUI()
    h = await make_agent(["ok"], hook_paths=HOOK, hook_flags=["--preset", "quick"], ui=ui)
    assert _said(ui) == ['Preset "quick" activated']
    assert sorted(h.agent.get_active_tools()) == ["ls", "read"]
    presets.write_text(
        json.dumps({**PRESETS, "quick": {**PRESETS["quick"], "instructions": "Be brief."}})
    )
    file = h.agent.session.get_session_file()
    await h.agent.prompt("hi")  # the turn keeps the preset's name in the session
    assert file is not None
    h.agent.session.close()

    again = await make_agent(["ok"], hook_paths=HOOK, session_file=file)
    assert "edit" in again.agent.get_active_tools()  # a resume does not apply the tools again
    await again.agent.prompt("and now?")
    assert again.provider.requests[0].system_prompt.endswith("\n\nBe brief.")


async def test_without_presets_it_says_where_to_put_them(make_agent: MakeAgent) -> None:
    ui = ScriptedUI()
    h = await make_agent([], hook_paths=HOOK, ui=ui)
    await h.runner.run_command("preset")
    assert _said(ui) == [
        "No presets defined. Add presets to ~/.hookline/presets.json or .hookline/presets.json"
    ]


@needs_tmux
def test_the_picker_in_the_terminal_app(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".hookline").mkdir(parents=True)
    (project / ".hookline" / "presets.json").write_text(json.dumps({"quick": PRESETS["quick"]}))
    turns = [{"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]}, "Done."]
    with app(tmp_path, turns, None, "--hook", HOOK[0]) as pane:
        pane.ready()
        pane.type("/preset")
        pane.keys("Enter")
        pane.wait_for(lambda s: "Select Preset" in s and "quick" in s and "(none)" in s)
        pane.keys("Enter")
        pane.wait_for(lambda s: 'Preset "quick" activated' in s and "preset:quick" in s)
        pane.type("say hi")
        pane.keys("Enter")
        pane.wait_for("unknown tool 'bash'; available: read, ls")  # the preset's tools only
