"""Qwen CLI provider: Qwen's models over their OpenAI-compatible API, logged in with
Qwen's device-code OAuth flow.

The Python version of pi's custom-provider-qwen-cli example. It shows
``pi.register_provider`` with a built-in wire protocol (``openai-completions``)
and an ``oauth`` login: a device code (with PKCE) is asked for, the user is sent
to the verification page, the token endpoint is polled until they approved, and
the login is stored in ``$HOOKLINE_HOME/auth.json`` and refreshed when it
expires. The endpoint the login names (``resource_url``) becomes the models'
base URL (``modify_models``).

Run it: ``hookline --hook examples/pi/custom_provider_qwen_cli.py --model
qwen-cli:qwen3-coder-plus``, with ``QWEN_CLI_API_KEY`` set or after logging in.
``QWEN_BASE_URL`` and ``QWEN_OAUTH_URL`` point it at other servers (the tests'
loopback ones).
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
from typing import Any

from hookline import HookAPI, LoginCallbacks, ModelEntry, OAuthCredentials

PROVIDER = "qwen-cli"
CLIENT_ID = "f0304373b74a44d2b584a3fb70ca9e56"
SCOPE = "openid profile email model.completion"
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
DEFAULT_OAUTH_URL = "https://chat.qwen.ai"
DEFAULT_BASE_URL = "https://dashscope.aliyuncs.com/compatible-mode/v1"
POLL_INTERVAL = 2.0
#: Logins are taken to end five minutes early, so a call never carries a dying token.
EARLY = 5 * 60 * 1000

MODELS = [
    {
        "id": "qwen3-coder-plus",
        "name": "Qwen3 Coder Plus",
        "context_window": 1_000_000,
        "max_tokens": 65_536,
    },
    {
        "id": "qwen3-coder-flash",
        "name": "Qwen3 Coder Flash",
        "context_window": 1_000_000,
        "max_tokens": 65_536,
    },
    {
        "id": "vision-model",
        "name": "Qwen3 VL Plus",
        "reasoning": True,
        "input": ["text", "image"],
        "context_window": 262_144,
        "max_tokens": 32_768,
        "compat": {"supportsDeveloperRole": False, "thinkingFormat": "qwen"},
    },
]


def _oauth_url(path: str) -> str:
    return (os.environ.get("QWEN_OAUTH_URL") or DEFAULT_OAUTH_URL).rstrip("/") + path


def pkce() -> tuple[str, str]:
    """A PKCE verifier and its S256 challenge."""
    verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def post_form(url: str, form: dict[str, str], headers: dict[str, str] | None = None) -> Any:
    """POST a form, the answer's JSON; an HTTP error's JSON too (OAuth errors come so),
    with ``_status`` set."""
    request = urllib.request.Request(
        url,
        urllib.parse.urlencode(form).encode(),
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
            **(headers or {}),
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        text = exc.read().decode("utf-8", "replace")
        try:
            data = json.loads(text)
        except ValueError:
            raise RuntimeError(f"{url}: {exc.code} {text}") from None
        return {**data, "_status": exc.code} if isinstance(data, dict) else data


async def poll_for_token(
    device_code: str, verifier: str, interval: float, expires_in: float, callbacks: LoginCallbacks
) -> dict[str, Any]:
    """Ask the token endpoint until the user approved (``authorization_pending`` waits,
    ``slow_down`` waits longer), the code expired or the login was cancelled."""
    deadline = time.monotonic() + expires_in
    wait = max(1.0, interval)
    form = {
        "grant_type": DEVICE_GRANT,
        "client_id": CLIENT_ID,
        "device_code": device_code,
        "code_verifier": verifier,
    }
    while time.monotonic() < deadline:
        if callbacks.signal is not None and callbacks.signal.is_set():
            raise RuntimeError("Login cancelled")
        data = await asyncio.to_thread(post_form, _oauth_url("/api/v1/oauth2/token"), form)
        if data.get("access_token"):
            return dict(data)
        error = data.get("error")
        if error == "authorization_pending":
            await asyncio.sleep(wait)
        elif error == "slow_down":
            wait = min(wait + 5, 10)
            await asyncio.sleep(wait)
        elif error == "expired_token":
            raise RuntimeError("Device code expired. Please restart authentication.")
        elif error == "access_denied":
            raise RuntimeError("Authorization denied by user.")
        else:
            raise RuntimeError(f"Token request failed: {error} - {data.get('error_description')}")
    raise RuntimeError("Authentication timed out. Please try again.")


async def login(callbacks: LoginCallbacks) -> OAuthCredentials:
    verifier, challenge = pkce()
    form = {
        "client_id": CLIENT_ID,
        "scope": SCOPE,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    device = await asyncio.to_thread(
        post_form,
        _oauth_url("/api/v1/oauth2/device/code"),
        form,
        {"x-request-id": str(uuid.uuid4())},
    )
    if not all(device.get(k) for k in ("device_code", "user_code", "verification_uri")):
        raise RuntimeError("Invalid device code response: missing required fields")
    complete = device.get("verification_uri_complete")
    instructions = None if complete else f"Enter code: {device['user_code']}"
    callbacks.on_auth(complete or device["verification_uri"], instructions)
    token = await poll_for_token(
        device["device_code"],
        verifier,
        float(device.get("interval") or POLL_INTERVAL),
        float(device.get("expires_in") or 600),
        callbacks,
    )
    return _credentials(token, refresh="", enterprise_url=None)


async def refresh_token(credentials: OAuthCredentials) -> OAuthCredentials:
    form = {
        "grant_type": "refresh_token",
        "refresh_token": credentials.refresh,
        "client_id": CLIENT_ID,
    }
    data = await asyncio.to_thread(post_form, _oauth_url("/api/v1/oauth2/token"), form)
    if not data.get("access_token"):
        raise RuntimeError(f"Token refresh failed: {data}")
    return _credentials(data, credentials.refresh, credentials.extra.get("enterpriseUrl"))


def _credentials(token: dict[str, Any], refresh: str, enterprise_url: Any) -> OAuthCredentials:
    expires = time.time() * 1000 + float(token.get("expires_in", 0)) * 1000 - EARLY
    extra = {"enterpriseUrl": token.get("resource_url") or enterprise_url}
    return OAuthCredentials(
        token.get("refresh_token") or refresh, token["access_token"], expires, extra
    )


def base_url(resource_url: str | None) -> str:
    """The API's base URL for the endpoint a login names (``https://`` and ``/v1`` added)."""
    if not resource_url:
        return os.environ.get("QWEN_BASE_URL") or DEFAULT_BASE_URL
    url = resource_url if resource_url.startswith("http") else f"https://{resource_url}"
    return url if url.endswith("/v1") else f"{url}/v1"


def modify_models(models: list[ModelEntry], credentials: OAuthCredentials) -> list[ModelEntry]:
    url = base_url(credentials.extra.get("enterpriseUrl"))
    return [dataclasses.replace(m, base_url=url) if m.provider == PROVIDER else m for m in models]


def register(pi: HookAPI) -> None:
    pi.register_provider(
        PROVIDER,
        {
            "base_url": base_url(None),
            "api_key": "QWEN_CLI_API_KEY",
            "api": "openai-completions",
            "models": MODELS,
            "oauth": {
                "name": "Qwen CLI",
                "login": login,
                "refresh_token": refresh_token,
                "get_api_key": lambda credentials: credentials.access,
                "modify_models": modify_models,
            },
        },
    )
