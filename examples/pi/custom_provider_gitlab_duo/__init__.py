"""GitLab Duo provider: Claude and GPT models through GitLab's AI gateway.

The Python version of pi's custom-provider-gitlab-duo example. It shows
``pi.register_provider`` with its own ``stream_simple`` that hands the call on to
a wire protocol hookline speaks (``stream_api``): the GitLab token (a login or
``GITLAB_TOKEN``) is traded for a short-lived direct-access token and headers,
and the call goes to the gateway's Anthropic or OpenAI proxy with them. The
login is GitLab's OAuth with PKCE: the user opens the authorize page and pastes
the callback URL; it is stored in ``$HOOKLINE_HOME/auth.json`` and refreshed when
it expires. (pi speaks OpenAI's Responses API to the GPT models; hookline speaks
Chat Completions, which the gateway's OpenAI proxy forwards alike.)

Run it: ``hookline --hook examples/pi/custom_provider_gitlab_duo --model
gitlab-duo:claude-sonnet-4-5-20250929`` with ``GITLAB_TOKEN=glpat-...``.
``GITLAB_URL`` and ``GITLAB_AI_GATEWAY_URL`` point it at other servers (the
tests' loopback ones).
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import json
import os
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import AsyncIterator
from typing import Any

from hookline import (
    HookAPI,
    LoginCallbacks,
    ModelCost,
    ModelEntry,
    ModelRequest,
    OAuthCredentials,
    StreamOptions,
    stream_api,
)

PROVIDER = "gitlab-duo"
CLIENT_ID = "da4edff2e6ebd2bc3208611e2768bc1c1dd7be791dc5ff26ca34ca9ee44f7d4b"
REDIRECT_URI = "http://127.0.0.1:8080/callback"
#: Direct-access tokens are kept 25 minutes.
DIRECT_ACCESS_TTL = 25 * 60
EARLY = 5 * 60 * 1000


@dataclasses.dataclass(frozen=True, slots=True)
class DuoModel:
    id: str
    name: str
    backend: str  # "anthropic" | "openai"
    cost: ModelCost
    context_window: int
    max_tokens: int


MODELS = (
    DuoModel(
        "claude-opus-4-5-20251101",
        "Claude Opus 4.5",
        "anthropic",
        ModelCost(15, 75, 1.5, 18.75),
        200_000,
        32_000,
    ),
    DuoModel(
        "claude-sonnet-4-5-20250929",
        "Claude Sonnet 4.5",
        "anthropic",
        ModelCost(3, 15, 0.3, 3.75),
        200_000,
        16_384,
    ),
    DuoModel(
        "claude-haiku-4-5-20251001",
        "Claude Haiku 4.5",
        "anthropic",
        ModelCost(1, 5, 0.1, 1.25),
        200_000,
        8_192,
    ),
    DuoModel("gpt-5.1-2025-11-13", "GPT-5.1", "openai", ModelCost(2.5, 10, 0, 0), 128_000, 16_384),
    DuoModel(
        "gpt-5-mini-2025-08-07", "GPT-5 Mini", "openai", ModelCost(0.15, 0.6, 0, 0), 128_000, 16_384
    ),
    DuoModel("gpt-5-codex", "GPT-5 Codex", "openai", ModelCost(2.5, 10, 0, 0), 128_000, 16_384),
)
MODEL_MAP = {m.id: m for m in MODELS}


def gitlab_url() -> str:
    return (os.environ.get("GITLAB_URL") or "https://gitlab.com").rstrip("/")


def gateway_url() -> str:
    return (os.environ.get("GITLAB_AI_GATEWAY_URL") or "https://cloud.gitlab.com").rstrip("/")


def backend(model: DuoModel) -> tuple[str, str]:
    """The gateway proxy a model's calls go to, and the protocol spoken there."""
    if model.backend == "anthropic":
        return f"{gateway_url()}/ai/v1/proxy/anthropic/", "anthropic-messages"
    return f"{gateway_url()}/ai/v1/proxy/openai/v1", "openai-completions"


def post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(url, body, headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


@dataclasses.dataclass
class DirectAccess:
    """The direct-access token a GitLab token buys, kept until it is due."""

    token: str = ""
    headers: dict[str, str] = dataclasses.field(default_factory=dict)
    expires_at: float = 0.0

    async def get(self, gitlab_token: str) -> DirectAccess:
        if self.token and self.expires_at > time.monotonic():
            return self
        body = json.dumps({"feature_flags": {"DuoAgentPlatformNext": True}}).encode()
        headers = {"Authorization": f"Bearer {gitlab_token}", "Content-Type": "application/json"}
        url = f"{gitlab_url()}/api/v4/ai/third_party_agents/direct_access"
        status, text = await asyncio.to_thread(post, url, body, headers)
        if status == 403:
            raise RuntimeError(
                f"GitLab Duo access denied. Ensure GitLab Duo is enabled for your account. "
                f"Error: {text}"
            )
        if status >= 400:
            raise RuntimeError(f"Failed to get direct access token: {status} {text}")
        data = json.loads(text)
        self.token, self.headers = data["token"], dict(data.get("headers") or {})
        self.expires_at = time.monotonic() + DIRECT_ACCESS_TTL
        return self

    def forget(self) -> None:
        self.token = ""


DIRECT = DirectAccess()


def pkce() -> tuple[str, str]:
    verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


async def token_request(form: dict[str, str], what: str) -> OAuthCredentials:
    body = urllib.parse.urlencode({"client_id": CLIENT_ID, **form}).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    status, text = await asyncio.to_thread(post, f"{gitlab_url()}/oauth/token", body, headers)
    if status >= 400:
        raise RuntimeError(f"{what} failed: {text}")
    data = json.loads(text)
    DIRECT.forget()
    created = float(data.get("created_at") or time.time())
    expires = (created + float(data["expires_in"])) * 1000 - EARLY
    return OAuthCredentials(data["refresh_token"], data["access_token"], expires)


async def login(callbacks: LoginCallbacks) -> OAuthCredentials:
    verifier, challenge = pkce()
    query = urllib.parse.urlencode(
        {
            "client_id": CLIENT_ID,
            "redirect_uri": REDIRECT_URI,
            "response_type": "code",
            "scope": "api",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": str(uuid.uuid4()),
        }
    )
    callbacks.on_auth(f"{gitlab_url()}/oauth/authorize?{query}", None)
    callback = await callbacks.on_prompt("Paste the callback URL:")
    code = urllib.parse.parse_qs(urllib.parse.urlparse(callback).query).get("code")
    if not code:
        raise RuntimeError("No authorization code found in callback URL")
    form = {
        "grant_type": "authorization_code",
        "code": code[0],
        "code_verifier": verifier,
        "redirect_uri": REDIRECT_URI,
    }
    return await token_request(form, "Token exchange")


async def refresh_token(credentials: OAuthCredentials) -> OAuthCredentials:
    form = {"grant_type": "refresh_token", "refresh_token": credentials.refresh}
    return await token_request(form, "Token refresh")


async def stream_gitlab_duo(
    model: ModelEntry, request: ModelRequest, options: StreamOptions
) -> AsyncIterator[dict[str, Any]]:
    """The call, on the gateway proxy of the model's backend with a direct-access token."""
    if not options.api_key:
        yield {"type": "error", "error": "No GitLab access token. Log in or set GITLAB_TOKEN"}
        return
    duo = MODEL_MAP.get(model.id)
    if duo is None:
        yield {"type": "error", "error": f"Unknown model: {model.id}"}
        return
    try:
        direct = await DIRECT.get(options.api_key)
    except RuntimeError as exc:
        yield {"type": "error", "error": str(exc)}
        return
    url, api = backend(duo)
    target = dataclasses.replace(model, base_url=url, api=api)
    headers = {**direct.headers, "Authorization": f"Bearer {direct.token}"}
    async for event in stream_api(target, request, StreamOptions("gitlab-duo", headers)):
        yield event


def register(pi: HookAPI) -> None:
    pi.register_provider(
        PROVIDER,
        {
            "base_url": gateway_url(),
            "api_key": "GITLAB_TOKEN",
            "api": "gitlab-duo-api",
            "models": [
                {
                    "id": m.id,
                    "name": m.name,
                    "reasoning": True,
                    "input": ["text", "image"],
                    "cost": m.cost,
                    "context_window": m.context_window,
                    "max_tokens": m.max_tokens,
                }
                for m in MODELS
            ],
            "oauth": {"name": "GitLab Duo", "login": login, "refresh_token": refresh_token},
            "stream_simple": stream_gitlab_duo,
        },
    )
