"""The output/context example hooks, loaded from their files: API-key redactor, context filter."""

from __future__ import annotations

from typing import Any

import pytest

from hookline.core.api import HookAPI
from hookline.core.context import HookContext
from hookline.core.events import ContextEvent, ToolResultEvent
from hookline.core.messages import Message, text, user_message
from hookline.core.results import ToolResultResult

from .harness import Example


def result_of(*chunks: Any, is_error: bool = False) -> ToolResultEvent:
    return ToolResultEvent(
        tool_name="read",
        tool_call_id="c1",
        input={"path": "config.env"},
        content=list(chunks),
        is_error=is_error,
    )


# -- api_key_redactor ------------------------------------------------------------------

SECRETS = [
    ("OPENAI_API_KEY=sk-demo1234567890abcdefghijklmnop", "sk-demo1234567890"),
    ("key: sk-proj-AbCdEf0123456789_ghIJKL-mnop", "sk-proj-AbCdEf"),
    ("anthropic sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "sk-ant-api03-abc"),
    ("publishable pk-abcdefghijklmnopqrstuvwx", "pk-abcdefghij"),
    ("stripe sk_live_abcdefghijklmnop1234", "sk_live_abcdef"),
    ("aws AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"),
    ("token ghp_" + "a" * 36, "ghp_aaaa"),
    ("DB_PASSWORD=hunter2hunter2", "hunter2hunter2"),
    ('{"client_secret": "abcdef123456789"}', "abcdef123456789"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"),
    ("GITHUB_TOKEN: 'v1.0123456789abcdef'", "v1.0123456789abcdef"),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "eyJhbGciOiJIUzI1NiJ9"),
    ("SOME_VERY_LONG_CONFIG_NAME=abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnopqrstuvwxyz0123"),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----",
        "MIIEow",
    ),
]


@pytest.mark.parametrize(("line", "secret"), SECRETS)
async def test_redactor_removes_secrets(line: str, secret: str, example: Example) -> None:
    loaded = example("api_key_redactor")
    result = await loaded.runner.emit_tool_result(result_of(text(f"before\n{line}\nafter")))
    assert isinstance(result, ToolResultResult)
    assert result.content is not None
    out = result.content[0]["text"]  # type: ignore[typeddict-item]
    assert secret not in out
    assert "[REDACTED]" in out
    assert out.startswith("before\n") and out.endswith("\nafter")
    assert loaded.errors == []


async def test_redactor_keeps_the_name_of_named_secrets(example: Example) -> None:
    loaded = example("api_key_redactor")
    result = await loaded.runner.emit_tool_result(result_of(text("DB_PASSWORD=hunter2hunter2")))
    assert isinstance(result, ToolResultResult) and result.content is not None
    assert result.content[0]["text"] == "DB_PASSWORD=[REDACTED]"  # type: ignore[typeddict-item]


@pytest.mark.parametrize(
    "clean",
    [
        "SERVICE_URL=https://service.invalid",
        "max_tokens = 4096",
        "def get_token(self): return self._token",
        "password = input()",
        "tokens_before=1200",
        "skip-this-line and task-list",
        "PWD=/home/user/project",
    ],
)
async def test_redactor_leaves_clean_output_alone(clean: str, example: Example) -> None:
    loaded = example("api_key_redactor")
    assert await loaded.runner.emit_tool_result(result_of(text(clean))) is None


async def test_redactor_keeps_images_and_other_blocks(example: Example) -> None:
    image = {"type": "image", "data": "AAAA", "mime_type": "image/png"}
    loaded = example("api_key_redactor")
    event = result_of(text("x AKIAIOSFODNN7EXAMPLE"), image, text("clean"))
    result = await loaded.runner.emit_tool_result(event)
    assert isinstance(result, ToolResultResult) and result.content is not None
    assert result.content[0] == text("x [REDACTED]")
    assert result.content[1] == image
    assert result.content[2] == text("clean")
    assert event.content[0] == text("x AKIAIOSFODNN7EXAMPLE")  # the event is not mutated


async def test_redactor_redacts_error_results_too(example: Example) -> None:
    loaded = example("api_key_redactor")
    result = await loaded.runner.emit_tool_result(
        result_of(text("failed with AKIAIOSFODNN7EXAMPLE"), is_error=True)
    )
    assert isinstance(result, ToolResultResult) and result.content is not None
    assert "AKIA" not in result.content[0]["text"]  # type: ignore[typeddict-item]


async def test_a_later_override_cannot_undo_the_redaction(example: Example) -> None:
    """tool_result handlers chain: a later handler sees the redacted content, so echoing
    what it was shown keeps the redaction (the old "last override wins" caveat is gone)."""

    def later(api: HookAPI) -> None:
        @api.on("tool_result")
        def echo(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any]:
            return {"content": event.content}

    loaded = example("api_key_redactor", extra=later)
    result = await loaded.runner.emit_tool_result(result_of(text("AKIAIOSFODNN7EXAMPLE")))
    assert isinstance(result, ToolResultResult) and result.content is not None
    assert "AKIAIOSFODNN7EXAMPLE" not in str(result.content)


# -- context_filter ------------------------------------------------------------------------


def custom(custom_type: str, content: str) -> Message:
    return {"role": "custom", "custom_type": custom_type, "content": content, "display": True}


def tool_msg(body: str) -> Message:
    return {
        "role": "tool",
        "tool_call_id": "c1",
        "tool_name": "read",
        "content": [text(body)],
        "is_error": False,
    }


async def test_context_filter_drops_debug_only_messages(example: Example) -> None:
    loaded = example("context_filter")
    messages = [user_message("hi"), custom("debug-only", "secret debug"), custom("note", "keep")]
    out = await loaded.runner.emit_context(messages)
    assert out == [user_message("hi"), custom("note", "keep")]
    assert len(messages) == 3  # the caller's list is not mutated


async def test_context_filter_truncates_long_tool_output(example: Example) -> None:
    loaded = example("context_filter")
    long = "x" * 9000
    short = "y" * 8000
    messages = [tool_msg(long), tool_msg(short)]
    out = await loaded.runner.emit_context(messages)
    first = out[0]["content"][0]["text"]  # type: ignore[index,typeddict-item]
    assert first == "x" * 8000 + "\n[... truncated by context-filter hook]"
    assert out[1] == tool_msg(short)
    assert messages[0]["content"][0]["text"] == long  # type: ignore[index,typeddict-item]


async def test_context_filter_leaves_long_user_text_alone(example: Example) -> None:
    loaded = example("context_filter")
    messages = [user_message("z" * 20000)]
    out = await loaded.runner.emit_context(messages)
    assert out is messages
    assert await loaded.runner.emit(ContextEvent(messages=messages)) is None


async def test_context_filter_chains_with_a_later_hook(example: Example) -> None:
    seen: list[int] = []

    def later(api: HookAPI) -> None:
        @api.on("context")
        def count(event: ContextEvent, ctx: HookContext) -> None:
            seen.append(len(event.messages))

    loaded = example("context_filter", extra=later)
    out = await loaded.runner.emit_context([user_message("a"), custom("debug-only", "d")])
    assert seen == [1]
    assert out == [user_message("a")]
