"""``pi.register_provider``: a hook's provider answers real runs over loopback HTTP, its
models are listed and callable from hooks, its login is refreshed when it expired, and a
bad config or an untrusted project's registration never takes effect."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hookline.agent.auth_store import AuthStore
from hookline.agent.completion import complete
from hookline.agent.model_catalog import ModelCatalog
from hookline.agent.model_registry import ModelRegistry
from hookline.agent.provider import ModelRequest
from hookline.agent.providers.registered import ProviderTable
from hookline.core.api import HookAPI, LoadedHook
from hookline.core.events import ModelSelectEvent
from hookline.core.host import ModelInfo
from hookline.core.provider_config import (
    LoginCallbacks,
    OAuthCredentials,
    ProviderConfigError,
    provider_config,
)
from tests.agent.conftest import MakeAgent
from tests.fakes.llm_servers import FakeAnthropicServer
from tests.modes.helpers import json_lines, run_cli, write_hook

MODEL = {"id": "loop-1", "name": "Loop One", "context_window": 1000, "max_tokens": 500}


class TokenServer:
    """A loopback OAuth token endpoint: answers each POST with the next access token and
    records the form it was sent."""

    def __init__(self) -> None:
        self.forms: list[str] = []
        self.count = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                fake.forms.append(self.rfile.read(length).decode())
                fake.count += 1
                body = json.dumps(
                    {
                        "access_token": f"fresh-{fake.count}",
                        "refresh_token": f"refresh-{fake.count}",
                        "expires_in": 3600,
                    }
                ).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/token"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


@pytest.fixture
def tokens() -> Iterator[TokenServer]:
    server = TokenServer()
    yield server
    server.close()


def _hook(path: Path, base_url: str, extra: str = "") -> Path:
    return write_hook(
        path,
        f"""
        def register(pi):
            pi.register_provider("loop", {{
                "base_url": {base_url!r},
                "api_key": "LOOP_KEY",
                "api": "anthropic-messages",
                "headers": {{"x-team": "LOOP_TEAM"}},
                "models": [{MODEL!r}],
            }})
        {extra}
        """,
    )


# -- a real run ------------------------------------------------------------------------


def test_a_registered_model_answers_a_print_run(
    fake: FakeAnthropicServer, project: Path, tmp_path: Path
) -> None:
    fake.add_text("Hello from the loop")
    hook = _hook(tmp_path / "prov.py", fake.url)
    env = {**os.environ, "LOOP_KEY": "sk-loop", "LOOP_TEAM": "blue"}
    done = run_cli(
        "-p", "hi", "--no-session", "--model", "loop:loop-1", "--hook", str(hook),
        "--mode", "json", cwd=project, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = json_lines(done.stdout)
    deltas = [
        line["event"]["delta"]
        for line in lines
        if line.get("type") == "assistant_message_event" and line["event"]["type"] == "text_delta"
    ]
    assert len(deltas) > 1 and "".join(deltas) == "Hello from the loop"  # it streamed
    sent = fake.recorded[0]
    assert sent.body["model"] == "loop-1"
    assert sent.headers["x-api-key"] == "sk-loop"  # the variable the config names
    assert sent.headers["x-team"] == "blue"


def test_pi_s_provider_slash_id_form_is_taken(
    fake: FakeAnthropicServer, project: Path, tmp_path: Path
) -> None:
    fake.add_text("ok")
    hook = _hook(tmp_path / "prov.py", fake.url)
    done = run_cli("-p", "hi", "--no-session", "--model", "loop/loop-1", "--hook", str(hook),
                   cwd=project)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_a_bad_config_stops_the_start_naming_the_hook(project: Path, tmp_path: Path) -> None:
    hook = write_hook(
        tmp_path / "bad_provider.py",
        """
        def register(pi):
            pi.register_provider("loop", {"base_url": "http://x", "api_key": "K",
                                          "api": "anthropic-messages",
                                          "models": [{"id": "m", "context_windw": 5}]})
        """,
    )
    done = run_cli("-p", "hi", "--no-session", "--hook", str(hook), cwd=project)
    assert done.returncode != 0
    assert str(hook) in done.stderr
    assert "register_provider('loop')" in done.stderr and "'context_windw'" in done.stderr


def test_an_untrusted_project_s_provider_does_not_exist(
    fake: FakeAnthropicServer, project: Path
) -> None:
    _hook(project / ".hookline" / "hooks" / "prov.py", fake.url)
    done = run_cli("-p", "hi", "--no-session", "--model", "loop:loop-1", cwd=project)
    assert done.returncode != 0
    assert "invalid model 'loop:loop-1'" in done.stderr
    assert fake.recorded == []
    fake.add_text("trusted now")
    trusted = run_cli(
        "-p", "hi", "--no-session", "--model", "loop:loop-1", "--trust-project",
        cwd=project, env={**os.environ, "LOOP_KEY": "k"},
    )  # fmt: skip
    assert trusted.returncode == 0, trusted.stderr
    assert trusted.stdout.strip() == "trusted now"


# -- the registry ----------------------------------------------------------------------


def _registry(table: ProviderTable | None = None) -> ModelRegistry:
    return ModelRegistry(ModelCatalog(os.environ, registered=table or ProviderTable()))


async def test_registered_models_are_listed_and_complete_through_them(
    fake: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOOP_KEY", "sk-loop")
    fake.add_text("done")
    registry = _registry()
    config = provider_config(
        "loop",
        {"base_url": fake.url, "api_key": "LOOP_KEY", "api": "anthropic-messages",
         "models": [MODEL], "auth_header": True},
    )  # fmt: skip
    registry.register_provider("loop", config)
    entry = registry.find("loop", "loop-1")
    assert entry is not None and entry.context_window == 1000
    assert entry.to_pi()["api"] == "anthropic-messages"
    assert entry in registry.get_available()
    auth = registry.get_api_key_and_headers(entry)
    assert auth.ok and auth.api_key == "sk-loop"
    assert auth.headers == {"Authorization": "Bearer sk-loop"}
    seen: list[str] = []
    message = await complete(
        entry, [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        registry=registry, on_text=seen.append,
    )  # fmt: skip
    assert message["stop_reason"] == "stop" and "".join(seen) == "done"
    assert fake.recorded[0].headers["authorization"] == "Bearer sk-loop"
    registry.unregister_provider("loop")
    assert registry.find("loop", "loop-1") is None


async def test_a_stream_function_s_events_make_the_message() -> None:
    async def stream(model: Any, request: ModelRequest, options: Any) -> Any:
        assert options.api_key == "literal-key"  # no variable of that name: the value itself
        yield {"type": "text_delta", "delta": "Hel"}
        yield {"type": "text_delta", "delta": "lo"}
        yield {"type": "toolcall_start", "content_index": 1, "id": "c1", "name": "ls"}
        yield {"type": "toolcall_delta", "content_index": 1, "delta": '{"path": "."}'}
        yield {"type": "toolcall_end", "content_index": 1}
        yield {"type": "done", "reason": "toolUse", "usage": {"input_tokens": 3}}

    registry = _registry()
    registry.register_provider(
        "mine",
        provider_config(
            "mine",
            {"base_url": "http://unused", "api_key": "literal-key", "api": "my-api",
             "stream_simple": stream, "models": [{"id": "m1"}]},
        ),
    )  # fmt: skip
    seen: list[str] = []
    message = await complete("mine:m1", [], registry=registry, on_text=seen.append)
    assert seen == ["Hel", "lo"]
    assert message["content"] == [
        {"type": "text", "text": "Hello"},
        {"type": "tool_call", "id": "c1", "name": "ls", "arguments": {"path": "."}},
    ]
    assert message["stop_reason"] == "tool_use" and message["usage"] == {"input_tokens": 3}


async def test_an_error_event_is_the_call_s_error() -> None:
    async def stream(model: Any, request: Any, options: Any) -> Any:
        yield {"type": "error", "error": "quota exceeded"}

    registry = _registry()
    registry.register_provider(
        "mine",
        provider_config("mine", {"base_url": "u", "api_key": "k", "api": "x",
                                 "stream_simple": stream, "models": [{"id": "m1"}]}),
    )  # fmt: skip
    message = await complete("mine:m1", [], registry=registry)
    assert message["stop_reason"] == "error" and "quota exceeded" in message["error"]


# -- OAuth -----------------------------------------------------------------------------


def _oauth_config(base_url: str, tokens: TokenServer) -> Any:
    import httpx2 as httpx

    async def login(callbacks: LoginCallbacks) -> OAuthCredentials:
        callbacks.on_auth("http://127.0.0.1/authorize", None)
        code = await callbacks.on_prompt("code?")
        answer = httpx.post(tokens.url, data={"grant_type": "authorization_code", "code": code})
        data = answer.json()
        return OAuthCredentials(
            data["refresh_token"], data["access_token"], time.time() * 1000 + 1e6
        )

    def refresh(credentials: OAuthCredentials) -> dict[str, Any]:
        answer = httpx.post(
            tokens.url, data={"grant_type": "refresh_token", "refresh_token": credentials.refresh}
        )
        data = answer.json()
        return {"refresh": data["refresh_token"], "access": data["access_token"],
                "expires": time.time() * 1000 + 3_600_000}  # fmt: skip

    return provider_config(
        "sso",
        {"base_url": base_url, "api": "anthropic-messages", "models": [MODEL],
         "oauth": {"name": "SSO", "login": login, "refresh_token": refresh}},
    )  # fmt: skip


async def test_an_expired_login_is_refreshed_and_stored(
    fake: FakeAnthropicServer, tokens: TokenServer, tmp_path: Path
) -> None:
    store = AuthStore(tmp_path / "auth.json")
    store.set("sso", OAuthCredentials("refresh-0", "stale", time.time() * 1000 - 1).to_json())
    registry = _registry(ProviderTable(store))
    registry.register_provider("sso", _oauth_config(fake.url, tokens))
    fake.add_text("ok")
    message = await complete("sso:loop-1", [], registry=registry)
    assert message["stop_reason"] == "stop", message
    assert "refresh_token=refresh-0" in tokens.forms[0]
    assert fake.recorded[0].headers["x-api-key"] == "fresh-1"
    stored = store.get("sso")
    assert stored is not None and stored["access"] == "fresh-1" and stored["type"] == "oauth"
    assert stored["expires"] > time.time() * 1000
    assert registry.get_api_key_for_provider("sso") == "fresh-1"


async def test_login_stores_the_credentials(
    fake: FakeAnthropicServer, tokens: TokenServer, tmp_path: Path
) -> None:
    store = AuthStore(tmp_path / "auth.json")
    registry = _registry(ProviderTable(store))
    registry.register_provider("sso", _oauth_config(fake.url, tokens))
    assert not registry.get_api_key_for_provider("sso")
    assert "sso" not in {m.provider for m in registry.get_available()}  # not logged in yet
    urls: list[str] = []

    async def answer(message: str) -> str:
        return "the-code"

    callbacks = LoginCallbacks(on_auth=lambda url, _: urls.append(url), on_prompt=answer)
    credentials = await registry.login("sso", callbacks)
    assert credentials.access == "fresh-1" and urls == ["http://127.0.0.1/authorize"]
    assert "code=the-code" in tokens.forms[0]
    assert json.loads((tmp_path / "auth.json").read_text())["sso"]["refresh"] == "refresh-1"
    assert (tmp_path / "auth.json").stat().st_mode & 0o777 == 0o600
    assert "sso" in {m.provider for m in registry.get_available()}


# -- the hook API ----------------------------------------------------------------------


def test_registration_while_loading_is_kept_for_the_agent() -> None:
    hook = LoadedHook("/hooks/p.py")
    api = HookAPI(hook)
    api.register_provider("loop", {"base_url": "u", "api_key": "k", "api": "openai-completions",
                                   "models": [{"id": "a"}]})  # fmt: skip
    assert hook.providers["loop"].models[0].id == "a"
    api.unregister_provider("loop")
    assert hook.providers == {}


@pytest.mark.parametrize(
    ("config", "says"),
    [
        ({"base_url": "u", "api_key": "k", "models": [{"id": "a"}]}, "no 'api' given"),
        ({"api_key": "k", "api": "openai-completions", "models": [{"id": "a"}]}, "'base_url'"),
        ({"base_url": "u", "api": "openai-completions", "models": [{"id": "a"}]}, "'api_key'"),
        ({"base_url": "u", "api_key": "k", "api": "grpc", "models": [{"id": "a"}]}, "'grpc'"),
        ({"base_url": "u", "api_key": "k", "api": "x", "models": [{"name": "a"}]}, "'id'"),
        ({"bse_url": "u"}, "unknown key 'bse_url' (did you mean 'base_url'?)"),
        ({"base_url": 8080}, "'base_url' must be a string"),
        ({"oauth": "yes"}, "'oauth' must be a mapping"),
        ({"oauth": {"name": "x", "login": print}}, "oauth: 'refresh_token' is missing"),
        (
            {"base_url": "u", "api_key": "k", "api": "x", "models": [{"id": "a", "max_tokens": 0}]},
            "'max_tokens' must be a positive integer",
        ),
    ],
)
def test_a_bad_config_is_refused_naming_the_hook(config: dict[str, Any], says: str) -> None:
    api = HookAPI(LoadedHook("/hooks/p.py"))
    with pytest.raises(ProviderConfigError, match=r"hook /hooks/p\.py") as raised:
        api.register_provider("loop", config)
    assert says in str(raised.value)


# -- in a running agent ----------------------------------------------------------------

_LATE = """
def register(pi):
    @pi.register_command("add-loop")
    def add(args, ctx):
        pi.register_provider("loop", {
            "base_url": args, "api_key": "k", "api": "anthropic-messages",
            "models": [{"id": "late-1", "context_window": 777}],
        })

    @pi.register_command("drop-loop")
    def drop(args, ctx):
        pi.unregister_provider("loop")
"""


async def test_a_command_registers_a_provider_that_takes_effect_at_once(
    make_agent: MakeAgent, fake: FakeAnthropicServer
) -> None:
    h = await make_agent([], hooks={"late": _LATE})
    registry = h.agent.get_model_registry()
    assert registry.find("loop", "late-1") is None
    await h.runner.run_command("add-loop", fake.url)
    assert registry.find("loop", "late-1") is not None
    listed = h.bundle.catalog().available(h.agent.provider.model_id)  # what /model offers
    assert "loop:late-1" in [m.spec for m in listed]
    fake.add_text("switched")
    assert await h.agent.select_model("loop:late-1")
    assert h.agent.get_model_info() == ModelInfo("loop", "late-1", h.agent.context_window)
    selected = h.events(ModelSelectEvent)[-1].model  # pi's model object, the registered facts
    assert selected["contextWindow"] == 777 and selected["api"] == "anthropic-messages"
    await h.agent.prompt("hi")
    assert fake.recorded[0].body["model"] == "late-1"
    await h.runner.run_command("drop-loop")
    assert registry.find("loop", "late-1") is None
    assert "loop:late-1" not in [m.spec for m in h.bundle.catalog().listed("scripted:x")]


async def test_a_reload_registers_the_hooks_providers_anew(make_agent: MakeAgent) -> None:
    source = (
        'def register(pi):\n    pi.register_provider("loop", {"base_url": "u", "api_key": "k",'
        ' "api": "openai-completions", "models": [{"id": "NAME"}]})\n'
    )
    h = await make_agent([], hooks={"prov": source.replace("NAME", "one")})
    registry = h.agent.get_model_registry()
    assert registry.find("loop", "one") is not None
    h.hook_files["prov"].write_text(source.replace("NAME", "two"))
    await h.bundle.hooks()
    assert registry.find("loop", "one") is None
    assert registry.find("loop", "two") is not None


async def test_a_stream_that_raises_is_the_call_s_error() -> None:
    async def stream(model: Any, request: Any, options: Any) -> Any:
        yield {"type": "text_delta", "delta": "par"}
        raise ConnectionResetError("the gateway hung up")

    registry = _registry()
    registry.register_provider(
        "mine",
        provider_config("mine", {"base_url": "u", "api_key": "k", "api": "x",
                                 "stream_simple": stream, "models": [{"id": "m1"}]}),
    )  # fmt: skip
    message = await complete("mine:m1", [], registry=registry)
    assert message["stop_reason"] == "error"
    assert message["error"] == "mine:m1: ConnectionResetError: the gateway hung up"
