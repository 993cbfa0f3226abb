"""``ctx.model_registry``: the models a hook may call, and the credentials each call would use.

pi's ``ModelRegistry``, for hooks. The models are the catalog's (``model_catalog``);
a model's credentials are found by its provider's own rules (``Credentials.find``,
``find_api_key``), so what the registry answers is what a request would carry.
``provider`` is what ``complete()`` calls: the agent's own provider for the
session's model, else one built per model and kept (a scripted model's turns go on
from call to call, connections stay pooled).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hookline.agent.model_catalog import ModelCatalog, ModelEntry
from hookline.agent.model_choice import normalize_spec
from hookline.agent.provider import PayloadHook, Provider, ProviderError, ResponseHook
from hookline.agent.providers.registry import create_provider
from hookline.core.host import ModelInfo
from hookline.core.provider_config import LoginCallbacks, OAuthCredentials, ProviderConfig

if TYPE_CHECKING:
    from hookline.agent.providers.registered import ProviderTable

#: What names a model: a registry entry, ``ctx.model_info``, or a ``provider:id`` spec.
ModelRef = ModelEntry | ModelInfo | str


@dataclass(frozen=True, slots=True)
class RequestAuth:
    """pi's ``ResolvedRequestAuth``: ``ok`` with the key and headers a request would carry
    (``api_key`` None: the provider sends ``headers``, or needs nothing), or not ``ok``
    with the ``error`` that says what to set."""

    ok: bool
    api_key: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    error: str | None = None


@dataclass(frozen=True, slots=True)
class RequestHooks:
    """The agent's hooks on one provider request (``before_provider_request``,
    ``after_provider_response``); None where no hook listens."""

    on_payload: PayloadHook | None = None
    on_response: ResponseHook | None = None


def _no_hooks() -> RequestHooks:
    return RequestHooks()


class ModelRegistry:
    """The catalog's models with their credentials, and the providers that call them.

    ``current`` is the agent's provider now (the session's model and credentials);
    ``hooks`` the agent's request hooks, asked at each call (a reload changes them).
    """

    def __init__(
        self,
        catalog: ModelCatalog,
        *,
        cwd: str = ".",
        current: Callable[[], Provider] | None = None,
        hooks: Callable[[], RequestHooks] = _no_hooks,
    ) -> None:
        self.catalog = catalog
        self.cwd = cwd
        self._current = current
        self.hooks = hooks
        self._built: dict[tuple[str, str | None], Provider] = {}

    @classmethod
    def from_environment(cls, cwd: str = ".") -> ModelRegistry:
        """A registry with no agent: keys from the environment, no request hooks."""
        return cls(ModelCatalog(os.environ), cwd=cwd)

    # -- the models ----------------------------------------------------------------------

    def _current_spec(self) -> str | None:
        return self._current().model_id if self._current is not None else None

    def resolve(self, model: ModelRef) -> ModelEntry:
        """The entry ``model`` names (an entry is itself; ``ctx.model_info`` or a spec is
        described as the catalog describes it, with ``--base-url`` applied)."""
        if isinstance(model, ModelEntry):
            return model
        return self.catalog.entry(model.spec if isinstance(model, ModelInfo) else model)

    def get_all(self) -> list[ModelEntry]:
        """Every model the registry knows, usable here or not."""
        return self.catalog.listed(self._current_spec() or "")

    def get_available(self) -> list[ModelEntry]:
        """The models that can be called here (their key set, their SDK installed)."""
        return self.catalog.available(self._current_spec() or "")

    def find(self, provider: str, model_id: str) -> ModelEntry | None:
        """The model ``provider``/``model_id`` among ``get_all()``; None if unknown."""
        return next(
            (m for m in self.get_all() if m.provider == provider and m.id == model_id), None
        )

    # -- credentials ---------------------------------------------------------------------

    def get_api_key_and_headers(self, model: ModelRef) -> RequestAuth:
        """The credentials a call to ``model`` would send, found as its provider finds them:
        Anthropic's ``ANTHROPIC_API_KEY`` (else ``ANTHROPIC_AUTH_TOKEN`` as a bearer header),
        OpenAI's ``OPENAI_API_KEY`` (else a placeholder for a ``--base-url`` server); a
        scripted model needs none."""
        entry = self.resolve(model)
        table = self.catalog.registered
        registration = table.get(entry.provider) if table is not None else None
        if table is not None and registration is not None and registration.config.models:
            key = table.stored_key(entry.provider)
            if key is None:
                return RequestAuth(False, error=f"{entry.provider}: no key; log in or set one")
            return RequestAuth(
                True, api_key=key, headers=table.headers(registration, entry.id, key)
            )
        try:
            if entry.provider == "anthropic":
                from hookline.agent.providers.anthropic_http import Credentials

                found = Credentials.find(None, entry.id)
                if found.api_key:
                    return RequestAuth(True, api_key=found.api_key)
                return RequestAuth(True, headers=found.headers())
            if entry.provider == "openai":
                from hookline.agent.providers.openai_provider import find_api_key

                return RequestAuth(True, api_key=find_api_key(None, entry.id, entry.base_url))
        except ProviderError as exc:
            return RequestAuth(False, error=str(exc))
        return RequestAuth(True)

    def get_api_key(self, model: ModelRef) -> str | None:
        """The API key a call to ``model`` would send; None when it sends none or has none."""
        auth = self.get_api_key_and_headers(model)
        return auth.api_key if auth.ok else None

    def get_api_key_for_provider(self, provider: str) -> str | None:
        """The API key calls to ``provider``'s models would send; for a provider the
        registry has no model of, the key stored for it in ``auth.json``, if any."""
        model = next((m for m in self.get_all() if m.provider == provider), None)
        if model is not None:
            return self.get_api_key(model)
        return self.table.stored_key(provider)

    # -- registered providers ------------------------------------------------------------

    @property
    def table(self) -> ProviderTable:
        """The providers hooks registered (made here when the catalog has none)."""
        if self.catalog.registered is None:
            from hookline.agent.providers.registered import ProviderTable

            self.catalog.registered = ProviderTable()
        return self.catalog.registered

    def register_provider(self, name: str, config: ProviderConfig, hook_path: str = "") -> None:
        """pi's ``registerProvider``: ``name``'s models are listed and callable from now on."""
        self.table.register(name, config, hook_path)
        self._forget(name)

    def unregister_provider(self, name: str) -> None:
        """pi's ``unregisterProvider``: ``name``'s models are gone, built-in ones restored."""
        self.table.unregister(name)
        self._forget(name)

    async def login(self, provider: str, callbacks: LoginCallbacks) -> OAuthCredentials:
        """Log in to a registered provider (its ``oauth.login``) and store the credentials
        in ``$HOOKLINE_HOME/auth.json`` (pi's ``/login``)."""
        return await self.table.login(provider, callbacks)

    def _forget(self, provider: str) -> None:
        """Drop the providers built for ``provider``'s models (its config changed)."""
        for key in [k for k in self._built if k[0].partition(":")[0] == provider]:
            del self._built[key]

    def has_configured_auth(self, model: ModelRef) -> bool:
        """Whether a call to ``model`` has the credentials it needs."""
        return self.get_api_key_and_headers(model).ok

    # -- the providers -------------------------------------------------------------------

    def provider(self, model: ModelRef, api_key: str | None = None) -> Provider:
        """The provider a call to ``model`` goes through: the agent's own for the session's
        model (unless ``api_key`` replaces its key), else one built for it and kept.

        Raises ``ProviderError`` when it cannot be built (no key: the message names the
        variable to set), ``ScriptError`` for a bad script.
        """
        entry = self.resolve(model)
        spec = normalize_spec(entry.spec)
        if api_key is None and self._current is not None:
            current = self._current()
            if current.model_id == spec:
                return current
        built = self._built.get((spec, api_key))
        if built is None:
            built = create_provider(
                spec,
                base_url=entry.base_url,
                cwd=self.cwd,
                api_key=api_key,
                registered=self.catalog.registered,
            )
            self._built[(spec, api_key)] = built
        return built

    async def aclose(self) -> None:
        """Close the connections of the providers built here."""
        built, self._built = list(self._built.values()), {}
        for provider in built:
            close = getattr(provider, "aclose", None)
            if close is not None:
                await close()
