"""The models the agent can switch to, described the way pi's ``Model`` objects are.

Nothing is asked of the network: the providers' well-known models are listed
when they are usable here (the provider's SDK, if it needs one, installed and its API
key set),
next to the model in use, the models the user named (``HOOKLINE_MODEL``,
settings ``model``) and the embedded scripted model. Each entry says whether
the model reasons (``reasoning``): thinking levels apply only then.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookline.agent.model_choice import MODEL_ENV, normalize_spec
from hookline.agent.provider import THINKING_LEVELS, ThinkingLevel
from hookline.agent.providers.registry import ProviderSpecError, parse_spec
from hookline.core.provider_config import ModelCost

if TYPE_CHECKING:
    from hookline.agent.providers.registered import ProviderTable

#: The embedded scripted model (what runs with nothing configured).
SCRIPTED_DEFAULT = "scripted:" + str(Path(__file__).with_name("default_script.yaml"))
#: Thinking levels in order (``xhigh`` only for the models that take it).
LEVELS_WITH_XHIGH = THINKING_LEVELS
LEVELS = tuple(level for level in THINKING_LEVELS if level != "xhigh")

_APIS = {
    "anthropic": ("anthropic-messages", "https://api.anthropic.com"),
    "openai": ("openai-completions", "https://api.openai.com/v1"),
    "scripted": ("hookline-scripted", ""),
}
#: The provider → the environment variable holding its key, and its SDK module.
_KEYS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
#: The SDK a provider's models need (Anthropic's are spoken to over httpx2, a dependency).
_SDKS = {"openai": "openai"}


#: US dollars per million tokens: what a hook's ``register_provider`` model states.
Cost = ModelCost


@dataclass(frozen=True, slots=True)
class ModelEntry:
    """One model: what pi's ``Model`` says about it, and the spec that selects it."""

    provider: str
    id: str
    name: str
    reasoning: bool = True
    context_window: int = 200_000
    max_tokens: int = 8192
    input: tuple[str, ...] = ("text", "image")
    cost: Cost = field(default_factory=Cost)
    base_url: str | None = None
    #: The wire protocol (pi's ``api``), when not the provider's own (a registered one's).
    api: str | None = None

    @property
    def spec(self) -> str:
        """What ``--model`` takes (``anthropic:claude-sonnet-4-5``)."""
        return f"{self.provider}:{self.id}"

    def thinking_levels(self) -> tuple[ThinkingLevel, ...]:
        """The levels this model takes; ``off`` only when it does not reason."""
        if not self.reasoning:
            return ("off",)
        return LEVELS_WITH_XHIGH if supports_xhigh(self.id) else LEVELS

    def to_pi(self) -> dict[str, Any]:
        """pi's ``Model`` object (camelCase)."""
        api, default_url = _APIS.get(self.provider, ("hookline-scripted", ""))
        api = self.api or api
        return {
            "id": self.id,
            "name": self.name,
            "api": api,
            "provider": self.provider,
            "baseUrl": self.base_url if self.base_url is not None else default_url,
            "reasoning": self.reasoning,
            "input": list(self.input),
            "cost": {
                "input": self.cost.input,
                "output": self.cost.output,
                "cacheRead": self.cost.cache_read,
                "cacheWrite": self.cost.cache_write,
            },
            "contextWindow": self.context_window,
            "maxTokens": self.max_tokens,
        }


#: The well-known models of each provider (facts as the providers publish them).
KNOWN: tuple[ModelEntry, ...] = (
    ModelEntry(
        "anthropic", "claude-opus-4-5", "Claude Opus 4.5", True, 200_000, 64_000,
        cost=Cost(5, 25, 0.5, 6.25),
    ),
    ModelEntry(
        "anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5", True, 200_000, 64_000,
        cost=Cost(3, 15, 0.3, 3.75),
    ),
    ModelEntry(
        "anthropic", "claude-haiku-4-5", "Claude Haiku 4.5", True, 200_000, 64_000,
        cost=Cost(1, 5, 0.1, 1.25),
    ),
    ModelEntry("openai", "gpt-5", "GPT-5", True, 400_000, 128_000, cost=Cost(1.25, 10, 0.125)),
    ModelEntry(
        "openai", "gpt-5-mini", "GPT-5 Mini", True, 400_000, 128_000, cost=Cost(0.25, 2, 0.025)
    ),
    ModelEntry("openai", "gpt-5.2", "GPT-5.2", True, 400_000, 128_000, cost=Cost(1.75, 14, 0.175)),
    ModelEntry("openai", "gpt-4.1", "GPT-4.1", False, 1_047_576, 32_768, cost=Cost(2, 8, 0.5)),
)  # fmt: skip
_BY_SPEC = {m.spec: m for m in KNOWN}
#: Model families that do not reason (thinking levels do not apply).
_NO_REASONING = ("gpt-4", "gpt-3.5", "chatgpt-4o", "claude-3-5", "claude-3-haiku", "claude-3-opus")


def supports_xhigh(model_id: str) -> bool:
    """The models that take the ``xhigh`` level (the newest GPT-5 and Opus releases)."""
    return any(tag in model_id for tag in ("gpt-5.2", "gpt-5.3", "gpt-5.4", "opus-4-6", "opus-4.6"))


def describe(spec: str, base_url: str | None = None) -> ModelEntry:
    """The entry for ``spec`` (``provider:id``): a known model's facts, else what a model of
    that provider is taken to be (a custom model on an OpenAI-compatible server, a script).
    """
    spec = normalize_spec(spec)
    provider, _, model_id = spec.partition(":")
    if not model_id:
        provider, model_id = "scripted", spec
    known = _BY_SPEC.get(f"{provider}:{model_id}")
    if known is not None:
        return known if base_url is None else _with_url(known, base_url)
    name = Path(model_id).name if provider == "scripted" else model_id
    reasoning = not model_id.startswith(_NO_REASONING)
    return ModelEntry(provider, model_id, name, reasoning, base_url=base_url)


def _with_url(entry: ModelEntry, base_url: str) -> ModelEntry:
    return ModelEntry(
        entry.provider,
        entry.id,
        entry.name,
        entry.reasoning,
        entry.context_window,
        entry.max_tokens,
        entry.input,
        entry.cost,
        base_url,
    )


def _sdk_installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


@dataclass(slots=True)
class ModelCatalog:
    """Lists the models usable here; ``installed`` answers whether a provider's SDK is."""

    env: Mapping[str, str]
    settings_model: str | None = None
    base_url: str | None = None
    installed: Callable[[str], bool] = _sdk_installed
    #: The providers hooks registered (``pi.register_provider``): their models are listed
    #: too, and replace the built-in ones of their name.
    registered: ProviderTable | None = None

    def entry(self, spec: str) -> ModelEntry:
        if self.registered is not None:
            found = self.registered.entry(spec)
            if found is not None:
                return found
        provider = normalize_spec(spec).partition(":")[0]
        return describe(spec, self.base_url if provider in _KEYS else None)

    def usable(self, provider: str) -> bool:
        """Whether a model of ``provider`` can be built here: scripted always; the others
        need their API key (OpenAI: or ``--base-url``, a local server) and their SDK; a
        registered provider's, a key or a login."""
        registration = self.registered.get(provider) if self.registered is not None else None
        if self.registered is not None and registration is not None and registration.config.models:
            return self.registered.stored_key(provider) is not None
        if provider not in _KEYS:
            return True
        keyed = bool(self.env.get(_KEYS[provider], "").strip())
        if provider == "openai" and self.base_url:
            keyed = True
        sdk = _SDKS.get(provider)
        return keyed and (sdk is None or self.installed(sdk))

    def listed(self, current: str) -> list[ModelEntry]:
        """The model in use, the ones named by the user, the scripted model, then every
        provider's known models; no repeats, nothing whose spec names no provider."""
        named = [s for s in (self.env.get(MODEL_ENV, ""), self.settings_model or "") if s.strip()]
        registered = self.registered.models() if self.registered is not None else []
        replaced = {m.provider for m in registered}
        known = [m.spec for m in KNOWN if m.provider not in replaced]
        specs = [current, *named, SCRIPTED_DEFAULT, *known, *(m.spec for m in registered)]
        seen: dict[str, ModelEntry] = {}
        for spec in specs:
            if self.names_a_provider(spec):  # a bad name in the environment or settings is not one
                entry = self.entry(spec)
                seen.setdefault(entry.spec, entry)
        return list(seen.values())

    def available(self, current: str) -> list[ModelEntry]:
        """``listed`` less what could not be built here (the model in use always stays)."""
        in_use = self.entry(current).spec if self.names_a_provider(current) else None
        return [e for e in self.listed(current) if e.spec == in_use or self.usable(e.provider)]

    def names_a_provider(self, spec: str) -> bool:
        """Whether ``spec`` names a built-in or a registered provider."""
        if self.registered is not None and self.registered.split(spec) is not None:
            return True
        return _names_a_provider(spec)


def _names_a_provider(spec: str) -> bool:
    try:
        parse_spec(normalize_spec(spec))
    except ProviderSpecError:
        return False
    return True
