"""The environment of bash calls and hooks in a real agent: settings ``env``, CLAUDE_ENV_FILE
exports, the credential scrub, and the Stop-block cap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookline.core.events import StopEvent

from .conftest import MakeAgent
from .helpers import texts

SECRETS = {
    "ANTHROPIC_API_KEY": "sk-ant-secret",
    "OPENAI_API_KEY": "sk-openai-secret",
    "ACME_API_KEY": "acme-secret",
    "OTEL_EXPORTER_OTLP_HEADERS": "auth=secret",
}


def bash_turn(command: str, call_id: str = "t1") -> dict[str, Any]:
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}, "id": call_id}]}


def tool_output(messages: list[Any]) -> str:
    return "\n".join(
        t for m, t in zip(messages, texts(messages), strict=True) if m["role"] == "tool"
    )


def env_dump_hook(out: Path) -> dict[str, Any]:
    """A UserPromptSubmit hook that writes its environment as JSON to ``out``."""
    py = f"import json,os; json.dump(dict(os.environ), open({str(out)!r}, 'w'))"
    return {"type": "command", "command": "python3", "args": ["-c", py]}


async def test_settings_env_reaches_bash_and_hooks(make_agent: MakeAgent, tmp_path: Path) -> None:
    seen = tmp_path / "hook-env.json"
    h = await make_agent(
        [bash_turn('echo "bash sees [$FROM_SETTINGS]"'), "done"],
        claude_settings={
            "env": {"FROM_SETTINGS": "yes"},
            "hooks": {"UserPromptSubmit": [{"hooks": [env_dump_hook(seen)]}]},
        },
    )
    added = await h.agent.prompt("go")
    assert "bash sees [yes]" in tool_output(added)
    assert json.loads(seen.read_text())["FROM_SETTINGS"] == "yes"


async def test_untrusted_project_env_is_ignored(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [bash_turn('echo "bash sees [${FROM_PROJECT:-}]"'), "done"],
        claude_settings={"env": {"FROM_PROJECT": "evil"}},
        trust_project=False,
    )
    added = await h.agent.prompt("go")
    assert "bash sees []" in tool_output(added)


@pytest.mark.parametrize("scrub", [True, False])
async def test_scrub_removes_credentials_from_bash_and_hooks(
    make_agent: MakeAgent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scrub: bool
) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    seen = tmp_path / "hook-env.json"
    env = {"CLAUDE_CODE_SUBPROCESS_ENV_SCRUB": "1"} if scrub else {}
    h = await make_agent(
        [bash_turn("env"), "done"],
        claude_settings={
            "env": env,
            "hooks": {"UserPromptSubmit": [{"hooks": [env_dump_hook(seen)]}]},
        },
    )
    added = await h.agent.prompt("go")
    bash_env = tool_output(added)
    hook_env = json.loads(seen.read_text())
    assert "PATH=" in bash_env and "PATH" in hook_env
    for name, value in SECRETS.items():
        assert (value in bash_env) is not scrub, name
        assert (name in hook_env) is not scrub, name


async def test_env_file_exports_reach_bash_not_later_hooks(
    make_agent: MakeAgent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
    seen = tmp_path / "hook-env.json"
    start = (
        'echo "export FROM_ENV_FILE=exported" >> "$CLAUDE_ENV_FILE"; '
        # a session export cannot switch the scrub off again
        'echo "export CLAUDE_CODE_SUBPROCESS_ENV_SCRUB=0" >> "$CLAUDE_ENV_FILE"'
    )
    h = await make_agent(
        [bash_turn('echo "[$FROM_ENV_FILE] [${ANTHROPIC_API_KEY:-}]"'), "done"],
        claude_settings={
            "env": {"CLAUDE_CODE_SUBPROCESS_ENV_SCRUB": "1"},
            "hooks": {
                "SessionStart": [{"hooks": [{"type": "command", "command": start}]}],
                "UserPromptSubmit": [{"hooks": [env_dump_hook(seen)]}],
            },
        },
    )
    added = await h.agent.prompt("go")
    assert "[exported] []" in tool_output(added)
    hook_env = json.loads(seen.read_text())
    # as in Claude Code, a later hook does not see the exports; the scrub still holds
    assert "FROM_ENV_FILE" not in hook_env and "ANTHROPIC_API_KEY" not in hook_env


ALWAYS_BLOCK = """echo '{"decision": "block", "reason": "keep going"}'"""


@pytest.mark.parametrize(("cap", "turns"), [(None, 9), ("2", 3)])
async def test_stop_block_cap_and_its_env_override(
    make_agent: MakeAgent, monkeypatch: pytest.MonkeyPatch, cap: str | None, turns: int
) -> None:
    if cap is not None:
        monkeypatch.setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", cap)
    else:
        monkeypatch.delenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", raising=False)
    h = await make_agent(
        [f"answer {i}" for i in range(12)],
        claude_settings={
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": ALWAYS_BLOCK}]}]}
        },
    )
    await h.agent.prompt("go")
    # One answer, then one more per block until the cap: the default cap is 8.
    assert h.provider.remaining == 12 - turns
    assert len(h.events(StopEvent)) == turns


async def test_without_settings_hooks_the_claude_layer_is_not_built(make_agent: MakeAgent) -> None:
    """Nothing for it to do (no settings file): the agent runs without it, bash as usual."""
    h = await make_agent([bash_turn('echo "bash ran [$HOME]"'), "done"])
    added = await h.agent.prompt("go")

    assert h.bundle.claude is None and h.agent.claude is None
    assert "bash ran [/" in tool_output(added)


async def test_settings_env_without_hooks_still_reaches_bash(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [bash_turn('echo "bash sees [$FROM_SETTINGS]"'), "done"],
        claude_settings={"env": {"FROM_SETTINGS": "yes"}},
    )
    added = await h.agent.prompt("go")

    assert h.bundle.claude is not None
    assert "bash sees [yes]" in tool_output(added)


@pytest.mark.parametrize("where", ["environment", "settings"])
async def test_scrub_without_hooks_still_removes_credentials(
    make_agent: MakeAgent, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """The scrub asked for by the agent's own environment or a settings ``env`` alone, with
    no hook configured: bash still never sees a credential."""
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    settings: dict[str, Any] | None = None
    if where == "environment":
        monkeypatch.setenv("CLAUDE_CODE_SUBPROCESS_ENV_SCRUB", "1")
    else:
        settings = {"env": {"CLAUDE_CODE_SUBPROCESS_ENV_SCRUB": "1"}}
    h = await make_agent([bash_turn("env"), "done"], claude_settings=settings)
    added = await h.agent.prompt("go")
    bash_env = tool_output(added)

    assert "PATH=" in bash_env
    for name, value in SECRETS.items():
        assert value not in bash_env, name
    # and the user's own `!command` alike
    user = await h.agent.run_user_bash("env")
    user_env = "\n".join(b.get("text", "") for b in user.content)
    assert "PATH=" in user_env
    assert not any(value in user_env for value in SECRETS.values())
