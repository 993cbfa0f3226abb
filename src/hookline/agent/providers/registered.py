"""Providers hooks registered (``pi.register_provider``): their models, keys and calls.

pi's model registry side of ``registerProvider``. A registered provider's models
speak one of hookline's wire protocols (``anthropic-messages`` through
``AnthropicProvider``, ``openai-completions`` through ``OpenAIProvider``) with the
provider's endpoint, key and headers, or the hook's own ``stream_simple``, whose
events (the ``StreamBlocks`` vocabulary, then ``done`` or ``error``) are folded
into the message as a built-in provider's are. The key is found as pi finds it:
a stored entry of ``auth.json`` (an OAuth login, refreshed when it expired and
stored again), else the config's ``api_key`` (an environment variable's name, or
the key itself). A config without models changes a built-in provider's endpoint
and headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import os
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hookline.agent.blocks import StreamBlocks
from hookline.agent.provider import ModelRequest, Provider, ProviderError, TextDelta
from hookline.core.messages import AssistantMessage, Usage

if TYPE_CHECKING:
    from hookline.agent.auth_store import AuthStore
    from hookline.agent.model_catalog import ModelEntry
    from hookline.core.api import LoadedHook
    from hookline.core.provider_config import LoginCallbacks, OAuthCredentials, ProviderConfig

#: The built-in providers a config without models may re-point, and their protocol.
BUILTIN_APIS = {"anthropic": "anthropic-messages", "openai": "openai-completions"}
#: pi's stop reasons (camelCase) as hookline's.
_STOP_REASONS = {"toolUse": "tool_use", "tool_use": "tool_use", "length": "length"}


def resolve_value(value: str) -> str:
    """A config value: the environment variable it names, else itself (pi's rule)."""
    return os.environ.get(value) or value


@dataclass(frozen=True, slots=True)
class StreamOptions:
    """What a ``stream_simple`` function gets beside the model and the request: the key and
    the headers the call is to carry (pi's ``SimpleStreamOptions``)."""

    api_key: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Registration:
    """One ``register_provider`` call that is in effect."""

    name: str
    config: ProviderConfig
    hook_path: str = ""


class ProviderTable:
    """The registered providers, by name; what the catalog lists of them and what builds
    their providers. ``store``: where logins are kept (``$HOOKLINE_HOME/auth.json``)."""

    def __init__(self, store: AuthStore | None = None) -> None:
        self._store = store
        self._registered: dict[str, Registration] = {}

    @property
    def store(self) -> AuthStore:
        if self._store is None:
            from hookline.agent.auth_store import AuthStore

            self._store = AuthStore()
        return self._store

    # -- registering -----------------------------------------------------------------

    def register(self, name: str, config: ProviderConfig, hook_path: str = "") -> None:
        """Add (or replace) ``name``; a config without models must name a built-in."""
        if not config.models and name not in BUILTIN_APIS:
            from hookline.core.provider_config import ProviderConfigError

            where = f"hook {hook_path}: " if hook_path else ""
            raise ProviderConfigError(
                f"{where}register_provider({name!r}): no 'models' given, and {name!r} is not "
                f"a built-in provider ({', '.join(BUILTIN_APIS)}) whose endpoint it could change"
            )
        self._registered[name] = Registration(name, config, hook_path)

    def unregister(self, name: str) -> None:
        """Remove ``name`` (nothing happens for one never registered)."""
        self._registered.pop(name, None)

    def unregister_from(self, hook_path: str) -> None:
        """Remove what the hook at ``hook_path`` registered (it is being reloaded)."""
        for name in [n for n, r in self._registered.items() if r.hook_path == hook_path]:
            del self._registered[name]

    def load(self, hooks: Sequence[LoadedHook], replacing: Sequence[LoadedHook] = ()) -> list[str]:
        """Apply what ``hooks`` registered while they loaded, in load order (a later one of
        a name wins, as in pi), after removing what the ``replacing`` hooks registered (a
        reload). Returns what could not be applied, one line each, naming the hook."""
        for hook in replacing:
            self.unregister_from(hook.path)
        problems = []
        for hook in hooks:
            for name, config in hook.providers.items():
                try:
                    self.register(name, config, hook.path)
                except ValueError as exc:  # a ProviderConfigError, naming its hook
                    problems.append(str(exc))
        return problems

    def get(self, name: str) -> Registration | None:
        return self._registered.get(name)

    def logins(self) -> dict[str, str]:
        """The providers with a login, and the name it goes by (pi's ``/login`` menu)."""
        return {
            name: r.config.oauth.name
            for name, r in self._registered.items()
            if r.config.oauth is not None
        }

    # -- models ----------------------------------------------------------------------

    def models(self) -> list[ModelEntry]:
        """Every registered model, as the stored login sees it (``modify_models``)."""
        return [m for r in self._registered.values() for m in self._models(r)]

    def _models(self, registration: Registration) -> list[ModelEntry]:
        from hookline.agent.model_catalog import ModelEntry

        config = registration.config
        entries = [
            ModelEntry(
                registration.name,
                m.id,
                m.name or m.id,
                m.reasoning,
                m.context_window,
                m.max_tokens,
                tuple(m.input),
                m.cost,
                m.base_url or config.base_url,
                m.api or config.api,
            )
            for m in config.models
        ]
        oauth = config.oauth
        credentials = self._credentials(registration.name)
        if oauth is not None and oauth.modify_models is not None and credentials is not None:
            entries = list(oauth.modify_models(entries, credentials))
        return entries

    def split(self, spec: str) -> tuple[str, str] | None:
        """``provider:id`` or pi's ``provider/id`` → the pair, when ``provider`` is one
        registered here; else None."""
        for sep in (":", "/"):
            provider, found, model_id = spec.strip().partition(sep)
            if found and provider in self._registered and model_id:
                return provider, model_id
        return None

    def entry(self, spec: str) -> ModelEntry | None:
        """The registered model ``spec`` names (a built-in one re-pointed: its new URL)."""
        pair = self.split(spec)
        if pair is None:
            return None
        provider, model_id = pair
        registration = self._registered[provider]
        if not registration.config.models:
            from hookline.agent.model_catalog import describe

            described = describe(f"{provider}:{model_id}")
            return dataclasses.replace(described, base_url=registration.config.base_url)
        return next((m for m in self._models(registration) if m.id == model_id), None)

    # -- credentials -----------------------------------------------------------------

    def _credentials(self, provider: str) -> OAuthCredentials | None:
        if provider not in self._registered:
            return None
        entry = self.store.get(provider)
        if entry is None or entry.get("type") != "oauth":
            return None
        return _credentials_of(entry)

    def stored_key(self, provider: str) -> str | None:
        """The key a call would carry now, without refreshing a login: a stored key, an
        unexpired login's key, else the config's ``api_key``."""
        registration = self._registered.get(provider)
        entry = self.store.get(provider)
        if entry is not None and entry.get("type") == "api_key":
            return resolve_value(str(entry.get("key", "")))
        credentials = self._credentials(provider)
        oauth = registration.config.oauth if registration is not None else None
        if credentials is not None and oauth is not None and not _expired(credentials):
            return oauth.get_api_key(credentials)
        if registration is not None and registration.config.api_key:
            return resolve_value(registration.config.api_key)
        return None

    async def api_key(self, provider: str) -> str | None:
        """The key a call to ``provider`` carries; an expired login is refreshed first (its
        new credentials stored). A failed refresh is a ``ProviderError`` saying to log in."""
        registration = self._registered.get(provider)
        credentials = self._credentials(provider)
        oauth = registration.config.oauth if registration is not None else None
        if credentials is not None and oauth is not None and _expired(credentials):
            try:
                fresh = await _maybe_await(oauth.refresh_token(credentials))
            except Exception as exc:
                raise ProviderError(
                    f"{provider}: refreshing the login failed ({exc}); log in again"
                ) from exc
            self.store.set(provider, _credentials_of(fresh).to_json())
        return self.stored_key(provider)

    async def login(self, provider: str, callbacks: LoginCallbacks) -> OAuthCredentials:
        """Run ``provider``'s OAuth login and store what it returns (pi's ``/login``)."""
        registration = self._registered.get(provider)
        if registration is None or registration.config.oauth is None:
            raise ValueError(f"{provider!r} is not a registered provider with a login")
        credentials = _credentials_of(
            await _maybe_await(registration.config.oauth.login(callbacks))
        )
        self.store.set(provider, credentials.to_json())
        return credentials

    def headers(self, registration: Registration, model_id: str, key: str | None) -> dict[str, str]:
        """The headers a call carries: the provider's, the model's, then ``Authorization``
        with the key when ``auth_header`` asks for it; values name variables or are
        themselves."""
        config = registration.config
        model = next((m for m in config.models if m.id == model_id), None)
        merged = {**config.headers, **(model.headers if model is not None else {})}
        headers = {k: resolve_value(v) for k, v in merged.items()}
        if config.auth_header and key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    # -- providers -------------------------------------------------------------------

    def create(
        self, spec: str, *, api_key: str | None = None, prefetch: bool = False
    ) -> Provider | None:
        """The provider for ``spec`` when it names a registered provider's model; None when
        the provider is not registered. An unknown model of one is a ``ProviderError``."""
        pair = self.split(spec)
        if pair is None:
            return None
        entry = self.entry(spec)
        if entry is None:
            provider, model_id = pair
            known = ", ".join(m.id for m in self._models(self._registered[provider]))
            raise ProviderError(f"{provider} has no model {model_id!r} (it has: {known})")
        return RegisteredProvider(self, self._registered[entry.provider], entry, api_key, prefetch)


class RegisteredProvider:
    """One model of a registered provider, called as its config says."""

    def __init__(
        self,
        table: ProviderTable,
        registration: Registration,
        entry: ModelEntry,
        api_key: str | None = None,
        prefetch: bool = False,
    ) -> None:
        self.table = table
        self.registration = registration
        self.entry = entry
        self._api_key = api_key
        self._prefetch = prefetch
        self._wire: Provider | None = None
        self._wire_key: tuple[str | None, tuple[tuple[str, str], ...]] | None = None

    @property
    def model_id(self) -> str:
        return self.entry.spec

    async def aclose(self) -> None:
        """Close the wire provider's connections."""
        built, self._wire = self._wire, None
        close = getattr(built, "aclose", None)
        if close is not None:
            await close()

    async def complete(
        self, request: ModelRequest, on_text: TextDelta | None = None
    ) -> AssistantMessage:
        name = self.registration.name
        key = self._api_key or await self.table.api_key(name)
        headers = self.table.headers(self.registration, self.entry.id, key)
        stream = self.registration.config.stream_simple
        if stream is not None:
            options = StreamOptions(key, headers)
            return await run_stream(
                stream(self.entry, request, options), self.entry, request, on_text
            )
        provider = await self._wire_provider(key, headers)
        return await provider.complete(request, on_text)

    async def _wire_provider(self, key: str | None, headers: dict[str, str]) -> Provider:
        """The built-in provider that speaks this model's protocol with this key and these
        headers; when they change (a refreshed login) the one before is closed."""
        wanted = (key, tuple(sorted(headers.items())))
        if self._wire_key != wanted or self._wire is None:
            await self.aclose()
            self._wire = wire_provider(self.entry, key, headers, prefetch=self._prefetch)
            self._wire_key = wanted
        return self._wire


def wire_provider(
    entry: ModelEntry,
    api_key: str | None,
    headers: Mapping[str, str],
    *,
    prefetch: bool = False,
) -> Provider:
    """The built-in provider speaking ``entry``'s protocol to its endpoint."""
    api = entry.api or BUILTIN_APIS.get(entry.provider)
    if api == "anthropic-messages":
        from hookline.agent.providers.anthropic_provider import AnthropicProvider

        return AnthropicProvider(
            entry.id, api_key=api_key, base_url=entry.base_url, headers=headers, prefetch=prefetch
        )
    if api == "openai-completions":
        from hookline.agent.providers.openai_provider import OpenAIProvider

        return OpenAIProvider(
            entry.id, api_key=api_key, base_url=entry.base_url, headers=headers, prefetch=prefetch
        )
    raise ProviderError(f"{entry.spec}: hookline does not speak the {api!r} API")


async def stream_api(
    model: ModelEntry, request: ModelRequest, options: StreamOptions
) -> AsyncIterator[dict[str, Any]]:
    """pi's ``streamSimpleAnthropic`` / ``streamSimpleOpenAICompletions``: ``model``'s
    protocol (its ``api``) spoken by hookline's own provider, as the events a
    ``stream_simple`` yields; a ``stream_simple`` that only changes the endpoint, key or
    headers hands the call on with it."""
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    provider = wire_provider(model, options.api_key, options.headers)
    blocks = StreamBlocks(sink=queue.put_nowait)
    inner = dataclasses.replace(request, blocks=blocks)

    async def call() -> None:
        try:
            message = await provider.complete(inner)
            queue.put_nowait({"type": "done", "message": message})
        except ProviderError as exc:
            queue.put_nowait({"type": "error", "error": str(exc)})
        finally:
            queue.put_nowait(None)

    task = asyncio.ensure_future(call())
    try:
        while (event := await queue.get()) is not None:
            yield event
    finally:
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        close = getattr(provider, "aclose", None)
        if close is not None:
            await close()


async def run_stream(
    events: Any, entry: ModelEntry, request: ModelRequest, on_text: TextDelta | None = None
) -> AssistantMessage:
    """A ``stream_simple``'s events folded into the message, reported as they come to the
    request's blocks (or ``on_text``); ``request.signal`` aborts it. An exception the
    stream raises is the call's ``ProviderError``, as an ``error`` event is."""
    from hookline.agent.providers._common import PartialReply, run_abortable

    blocks = request.blocks or StreamBlocks(on_text=on_text)
    partial = PartialReply(model=entry.id)
    try:
        aborted, message = await run_abortable(
            _fold(events, entry, blocks, partial), request.signal
        )
    except ProviderError:
        raise
    except Exception as exc:  # the hook's stream failed: the call's error, not the agent's
        raise ProviderError(f"{entry.spec}: {type(exc).__name__}: {exc}") from exc
    if aborted or message is None:
        return partial.aborted()
    return message


async def _fold(
    events: Any, entry: ModelEntry, blocks: StreamBlocks, partial: Any
) -> AssistantMessage:
    events = await _maybe_await(events)
    if not hasattr(events, "__aiter__"):
        raise ProviderError(
            f"{entry.spec}: stream_simple must return an async iterator of events, "
            f"got {type(events).__name__}"
        )
    done: Mapping[str, Any] = {}
    async for event in events:
        kind = event.get("type") if isinstance(event, Mapping) else None
        index = event.get("content_index", 0) if isinstance(event, Mapping) else 0
        if kind == "text_delta":
            partial.text.append(str(event["delta"]))
            blocks.text(str(event["delta"]))
        elif kind == "thinking_delta":
            partial.thinking.append(str(event["delta"]))
            blocks.thinking(str(event["delta"]))
        elif kind == "toolcall_start":
            blocks.tool_call(index, str(event.get("id", "")), str(event.get("name", "")))
        elif kind == "toolcall_delta":
            blocks.tool_arguments(index, str(event.get("delta", "")))
        elif kind in ("text_end", "thinking_end", "toolcall_end"):
            blocks.end()
        elif kind == "done":
            done = event
            break
        elif kind == "error":
            error = event.get("error")
            text = error.get("error") if isinstance(error, Mapping) else error
            raise ProviderError(f"{entry.spec}: {text}")
    blocks.end()
    return _message(entry, blocks, done)


def _message(entry: ModelEntry, blocks: StreamBlocks, done: Mapping[str, Any]) -> AssistantMessage:
    """The streamed blocks as a message; ``done`` brings the stop reason and usage (in its
    ``message``, or on itself)."""
    inner = done.get("message")
    final: Mapping[str, Any] = inner if isinstance(inner, Mapping) else done
    given = final.get("content")
    content = list(given) if isinstance(given, list) else blocks.partial.message()["content"]
    has_calls = any(b["type"] == "tool_call" for b in content)
    reason = str(final.get("stop_reason") or done.get("reason") or "")
    stop = _STOP_REASONS.get(reason, "tool_use" if has_calls else "stop")
    message: AssistantMessage = {
        "role": "assistant",
        "content": content,
        "model": str(final.get("model") or entry.id),
        "stop_reason": stop,
    }
    usage = final.get("usage")
    if isinstance(usage, Mapping):
        message["usage"] = Usage(**{k: v for k, v in usage.items() if isinstance(v, int)})  # type: ignore[typeddict-item]
    return message


def _expired(credentials: OAuthCredentials) -> bool:
    return time.time() * 1000 >= credentials.expires


def _credentials_of(value: object) -> OAuthCredentials:
    from hookline.core.provider_config import OAuthCredentials

    if isinstance(value, OAuthCredentials):
        return value
    if isinstance(value, Mapping):
        return OAuthCredentials.from_json(value)
    raise ProviderError(f"a login returned {type(value).__name__}, not OAuthCredentials")


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value
