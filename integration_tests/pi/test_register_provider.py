"""``registerProvider`` in pi and ``register_provider`` in hookline, side by side: the
registered model is offered over RPC, can be switched to, and answers from its own server
with the key its variable holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .agents import FakeOpenAIServer, hookline_agent, pi_agent

HERE = Path(__file__).parent


async def _run(agent: str, tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any], Any]:
    base = tmp_path / agent
    home, work = base / "home", base / "work"
    home.mkdir(parents=True)
    work.mkdir()
    with FakeOpenAIServer() as default, FakeOpenAIServer() as ext:
        ext.add_text("from the registered provider")
        env = {"EXT_BASE_URL": ext.base_url, "EXT_KEY": "sk-ext"}
        if agent == "pi":
            client = pi_agent(
                default, home, work, extension=HERE / "extensions/providers.ts", env=env
            )
        else:
            client = hookline_agent(
                default, home, work, hook=HERE / "extensions/providers.py", env=env
            )
        async with client as rpc:
            models = (await rpc.ok("get_available_models"))["models"]
            offered = next(m for m in models if m["provider"] == "ext-loop")
            selected = await rpc.ok("set_model", provider="ext-loop", modelId="ext-model")
            lines = await rpc.run("hi")
        assert default.recorded == []
        request = ext.recorded[0]
    answer = [x for x in lines if x.get("type") == "message_end"][-1]["message"]
    return offered, selected, (request, answer)


@pytest.mark.parametrize("agent", ["pi", "hookline"])
async def test_a_registered_provider_is_offered_selected_and_answers(
    agent: str, tmp_path: Path
) -> None:
    offered, selected, (request, answer) = await _run(agent, tmp_path)
    for model in (offered, selected):
        assert model["id"] == "ext-model" and model["name"] == "Ext Model"
        assert model["api"] == "openai-completions"
        assert model["contextWindow"] == 4096 and model["maxTokens"] == 1024
        assert model["cost"]["input"] == 1 and model["cost"]["output"] == 2
    assert request.headers["authorization"] == "Bearer sk-ext"
    assert request.body["model"] == "ext-model"
    text = "".join(b.get("text", "") for b in answer["content"] if b.get("type") == "text")
    assert text == "from the registered provider"
