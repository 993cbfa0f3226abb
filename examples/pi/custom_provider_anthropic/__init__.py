"""Custom Anthropic provider: Claude through a stream function of its own, with an API key
or a Claude Pro/Max login.

The Python version of pi's custom-provider-anthropic example. It shows
``pi.register_provider`` with a custom ``api`` name and ``stream_simple``: the
Messages API spoken here (over ``httpx2``), each server-sent event turned into
the provider events hookline folds into the answer (``text_delta``,
``thinking_delta``, ``toolcall_start``/``_delta``/``_end``, then ``done`` with the
stop reason and usage). With an OAuth token (``sk-ant-oat…``) it speaks as
Claude Code does: a bearer token, Claude Code's beta headers and system prompt,
and the tools under Claude Code's names (``Read``, ``Bash`` …), mapped back on
the way in. The login pastes the code of Anthropic's authorize page (PKCE); it is
stored in ``$HOOKLINE_HOME/auth.json`` and refreshed when it expires.

Run it: ``CUSTOM_ANTHROPIC_API_KEY=sk-ant-... hookline --hook
examples/pi/custom_provider_anthropic --model custom-anthropic:claude-sonnet-4-5``.
``CUSTOM_ANTHROPIC_BASE_URL``, ``CUSTOM_ANTHROPIC_AUTHORIZE_URL`` and
``CUSTOM_ANTHROPIC_TOKEN_URL`` point it at other servers (the tests' loopback ones).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import time
import urllib.parse
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx2

from hookline import (
    HookAPI,
    LoginCallbacks,
    Message,
    ModelEntry,
    ModelRequest,
    OAuthCredentials,
    StreamOptions,
    ToolSpec,
)

PROVIDER = "custom-anthropic"
CLIENT_ID = base64.b64decode("OWQxYzI1MGEtZTYxYi00NGQ5LTg4ZWQtNTk0NGQxOTYyZjVl").decode()
REDIRECT_URI = "https://console.anthropic.com/oauth/code/callback"
SCOPES = "org:create_api_key user:profile user:inference"
BETAS = "fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14"
CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude."
EARLY = 5 * 60 * 1000
#: Claude Code's tool names: an OAuth token's requests name the tools so.
CLAUDE_CODE_TOOLS = {
    n.lower(): n
    for n in (
        "Read",
        "Write",
        "Edit",
        "Bash",
        "Grep",
        "Glob",
        "AskUserQuestion",
        "TodoWrite",
        "WebFetch",
        "WebSearch",
    )
}
STOP_REASONS = {
    "end_turn": "stop",
    "pause_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_use",
}
THINKING_BUDGETS = {"minimal": 1024, "low": 4096, "medium": 10240, "high": 20480}


def base_url() -> str:
    return os.environ.get("CUSTOM_ANTHROPIC_BASE_URL") or "https://api.anthropic.com"


def token_url() -> str:
    default = "https://console.anthropic.com/v1/oauth/token"
    return os.environ.get("CUSTOM_ANTHROPIC_TOKEN_URL") or default


def authorize_url() -> str:
    return os.environ.get("CUSTOM_ANTHROPIC_AUTHORIZE_URL") or "https://claude.ai/oauth/authorize"


# -- OAuth ----------------------------------------------------------------------------


def pkce() -> tuple[str, str]:
    verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


async def _tokens(body: dict[str, str], what: str) -> OAuthCredentials:
    async with httpx2.AsyncClient(timeout=30) as client:
        answer = await client.post(token_url(), json={"client_id": CLIENT_ID, **body})
    if answer.status_code >= 400:
        raise RuntimeError(f"{what} failed: {answer.text}")
    data = answer.json()
    expires = time.time() * 1000 + float(data["expires_in"]) * 1000 - EARLY
    return OAuthCredentials(data["refresh_token"], data["access_token"], expires)


async def login(callbacks: LoginCallbacks) -> OAuthCredentials:
    verifier, challenge = pkce()
    query = urllib.parse.urlencode(
        {
            "code": "true",
            "client_id": CLIENT_ID,
            "response_type": "code",
            "redirect_uri": REDIRECT_URI,
            "scope": SCOPES,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": verifier,
        }
    )
    callbacks.on_auth(f"{authorize_url()}?{query}", None)
    code, _, state = (await callbacks.on_prompt("Paste the authorization code:")).partition("#")
    body = {
        "grant_type": "authorization_code",
        "code": code,
        "state": state,
        "redirect_uri": REDIRECT_URI,
        "code_verifier": verifier,
    }
    return await _tokens(body, "Token exchange")


async def refresh_token(credentials: OAuthCredentials) -> OAuthCredentials:
    body = {"grant_type": "refresh_token", "refresh_token": credentials.refresh}
    return await _tokens(body, "Token refresh")


# -- hookline → the Messages API --------------------------------------------------------


def is_oauth(api_key: str) -> bool:
    return "sk-ant-oat" in api_key


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content.strip() else []
    out: list[dict[str, Any]] = []
    for block in content:
        if block["type"] == "text" and block["text"].strip():
            out.append({"type": "text", "text": block["text"]})
        elif block["type"] == "image":
            source = {"type": "base64", "media_type": block["mime_type"], "data": block["data"]}
            out.append({"type": "image", "source": source})
    return out


def convert_messages(messages: list[Message], oauth: bool) -> list[dict[str, Any]]:
    """hookline's messages as the API's; a turn's tool results go in one user message, and
    the last user block is marked for the prompt cache."""
    params: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if not blocks:
            return
        if params and params[-1]["role"] == role:
            params[-1]["content"].extend(blocks)
        else:
            params.append({"role": role, "content": blocks})

    for msg in messages:
        if msg["role"] == "assistant":
            blocks: list[dict[str, Any]] = []
            for block in msg["content"]:
                if block["type"] == "text" and block["text"].strip():
                    blocks.append({"type": "text", "text": block["text"]})
                elif block["type"] == "thinking" and block["thinking"].strip():
                    blocks.append({"type": "text", "text": block["thinking"]})
                elif block["type"] == "tool_call":
                    name = CLAUDE_CODE_TOOLS.get(block["name"].lower(), block["name"])
                    blocks.append(
                        {
                            "type": "tool_use",
                            "id": block["id"],
                            "name": name if oauth else block["name"],
                            "input": block["arguments"],
                        }
                    )
            add("assistant", blocks)
        elif msg["role"] == "tool":
            result = {
                "type": "tool_result",
                "tool_use_id": msg["tool_call_id"],
                "content": _blocks(msg["content"]) or "(no output)",
                "is_error": msg["is_error"],
            }
            add("user", [result])
        else:
            add("user", _blocks(msg["content"]))
    if params and params[-1]["role"] == "user":
        params[-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    return params


def convert_tools(tools: list[ToolSpec], oauth: bool) -> list[dict[str, Any]]:
    out = []
    for tool in tools:
        schema = tool.json_schema()
        name = CLAUDE_CODE_TOOLS.get(tool.name.lower(), tool.name) if oauth else tool.name
        out.append(
            {
                "name": name,
                "description": tool.description,
                "input_schema": {
                    "type": "object",
                    "properties": schema.get("properties", {}),
                    "required": schema.get("required", []),
                },
            }
        )
    return out


def build_params(model: ModelEntry, request: ModelRequest, oauth: bool) -> dict[str, Any]:
    params: dict[str, Any] = {
        "model": model.id,
        "messages": convert_messages(request.messages, oauth),
        "max_tokens": request.max_tokens or model.max_tokens // 3,
        "stream": True,
    }
    system = [CLAUDE_CODE_IDENTITY] if oauth else []
    if request.system_prompt:
        system.append(request.system_prompt)
    if system:
        params["system"] = [
            {"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}
            for text in system
        ]
    if request.tools:
        params["tools"] = convert_tools(request.tools, oauth)
    if request.thinking != "off" and model.reasoning:
        budget = THINKING_BUDGETS.get(request.thinking, 10240)
        params["thinking"] = {"type": "enabled", "budget_tokens": budget}
        params["max_tokens"] = max(params["max_tokens"], budget + 4096)
    return params


def headers(api_key: str, oauth: bool) -> dict[str, str]:
    common = {
        "accept": "text/event-stream",
        "anthropic-version": "2023-06-01",
        "anthropic-dangerous-direct-browser-access": "true",
    }
    if oauth:
        return {
            **common,
            "authorization": f"Bearer {api_key}",
            "anthropic-beta": f"claude-code-20250219,oauth-2025-04-20,{BETAS}",
            "user-agent": "claude-cli/2.1.2 (external, cli)",
            "x-app": "cli",
        }
    return {**common, "x-api-key": api_key, "anthropic-beta": BETAS}


# -- the Messages API's events → hookline's ------------------------------------------


def _usage(usage: Mapping[str, Any]) -> dict[str, int]:
    names = {
        "input_tokens": "input_tokens",
        "output_tokens": "output_tokens",
        "cache_read_input_tokens": "cache_read_tokens",
        "cache_creation_input_tokens": "cache_write_tokens",
    }
    return {ours: int(usage[theirs]) for theirs, ours in names.items() if usage.get(theirs)}


async def stream_custom_anthropic(
    model: ModelEntry, request: ModelRequest, options: StreamOptions
) -> AsyncIterator[dict[str, Any]]:
    api_key = options.api_key or ""
    oauth = is_oauth(api_key)
    tools = {t.name.lower(): t.name for t in request.tools}
    params = build_params(model, request, oauth)
    url = (model.base_url or base_url()).rstrip("/") + "/v1/messages"
    kinds: dict[int, str] = {}
    usage: dict[str, int] = {}
    stop = "stop"
    async with (
        httpx2.AsyncClient(timeout=600) as client,
        client.stream("POST", url, json=params, headers=headers(api_key, oauth)) as response,
    ):
        if response.status_code >= 400:
            await response.aread()
            yield {"type": "error", "error": f"{response.status_code} {response.text}"}
            return
        async for line in response.aiter_lines():
            if not line.startswith("data:"):
                continue
            event = json.loads(line[5:])
            kind = event.get("type")
            if kind == "message_start":
                usage.update(_usage(event["message"].get("usage") or {}))
            elif kind == "content_block_start":
                block = event["content_block"]
                kinds[event["index"]] = block["type"]
                if block["type"] == "tool_use":
                    name = (
                        tools.get(block["name"].lower(), block["name"]) if oauth else block["name"]
                    )
                    yield {
                        "type": "toolcall_start",
                        "content_index": event["index"],
                        "id": block["id"],
                        "name": name,
                    }
            elif kind == "content_block_delta":
                delta, index = event["delta"], event["index"]
                if delta["type"] == "text_delta":
                    yield {"type": "text_delta", "content_index": index, "delta": delta["text"]}
                elif delta["type"] == "thinking_delta":
                    yield {
                        "type": "thinking_delta",
                        "content_index": index,
                        "delta": delta["thinking"],
                    }
                elif delta["type"] == "input_json_delta":
                    yield {
                        "type": "toolcall_delta",
                        "content_index": index,
                        "delta": delta["partial_json"],
                    }
            elif kind == "content_block_stop":
                kind_of = kinds.get(event["index"], "text").replace("tool_use", "toolcall")
                yield {"type": f"{kind_of}_end", "content_index": event["index"]}
            elif kind == "message_delta":
                stop = STOP_REASONS.get(event["delta"].get("stop_reason") or "", stop)
                usage.update(_usage(event.get("usage") or {}))
            elif kind == "error":
                yield {"type": "error", "error": event.get("error", {}).get("message", event)}
                return
    yield {"type": "done", "reason": stop, "usage": usage}


def register(pi: HookAPI) -> None:
    pi.register_provider(
        PROVIDER,
        {
            "base_url": base_url(),
            "api_key": "CUSTOM_ANTHROPIC_API_KEY",
            "api": "custom-anthropic-api",
            "models": [
                {
                    "id": "claude-opus-4-5",
                    "name": "Claude Opus 4.5 (Custom)",
                    "reasoning": True,
                    "input": ["text", "image"],
                    "cost": {"input": 5, "output": 25, "cache_read": 0.5, "cache_write": 6.25},
                    "context_window": 200_000,
                    "max_tokens": 64_000,
                },
                {
                    "id": "claude-sonnet-4-5",
                    "name": "Claude Sonnet 4.5 (Custom)",
                    "reasoning": True,
                    "input": ["text", "image"],
                    "cost": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75},
                    "context_window": 200_000,
                    "max_tokens": 64_000,
                },
            ],
            "oauth": {
                "name": "Custom Anthropic (Claude Pro/Max)",
                "login": login,
                "refresh_token": refresh_token,
                "get_api_key": lambda credentials: credentials.access,
            },
            "stream_simple": stream_custom_anthropic,
        },
    )
