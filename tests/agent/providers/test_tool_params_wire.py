"""A tool whose parameters are a pydantic model reaches each real SDK, over loopback, as
the generated JSON Schema (no titles, optional fields as plain types)."""

from __future__ import annotations

from typing import Any

from hookline.agent.provider import ModelRequest, ToolSpec
from hookline.agent.providers import AnthropicProvider, OpenAIProvider
from hookline.core.messages import user_message
from hookline.tools import GrepParams
from tests.fakes import FakeAnthropicServer, FakeOpenAIServer

GREP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pattern": {"type": "string", "description": "Regex (or literal text)", "minLength": 1},
        "path": {"type": "string", "description": "Directory or file (default: .)"},
        "glob": {"type": "string", "description": "Only files matching, e.g. '*.py'"},
        "ignoreCase": {"type": "boolean", "description": "Case-insensitive search"},
        "literal": {"type": "boolean", "description": "Treat pattern as plain text"},
        "context": {
            "type": "integer",
            "description": "Lines of context around matches",
            "minimum": 0,
        },
        "limit": {"type": "integer", "description": "Maximum number of matches", "minimum": 1},
    },
    "required": ["pattern"],
    "additionalProperties": False,
}


def request() -> ModelRequest:
    spec = ToolSpec("grep", "Search file contents.", GrepParams)
    return ModelRequest("sys", [user_message("find it")], [spec], max_tokens=100)


async def test_anthropic_receives_the_generated_schema(
    anthropic_server: FakeAnthropicServer,
) -> None:
    anthropic_server.add_text("ok")
    provider = AnthropicProvider("claude-test", api_key="sk", base_url=anthropic_server.base_url)
    await provider.complete(request())

    assert anthropic_server.recorded[0].body["tools"] == [
        {"name": "grep", "description": "Search file contents.", "input_schema": GREP_SCHEMA}
    ]


async def test_openai_receives_the_generated_schema(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_text("ok")
    provider = OpenAIProvider("gpt-test", api_key="sk", base_url=openai_server.base_url)
    await provider.complete(request())

    assert openai_server.recorded[0].body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "grep",
                "description": "Search file contents.",
                "parameters": GREP_SCHEMA,
            },
        }
    ]
