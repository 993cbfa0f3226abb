"""What ``pi.register_provider(name, config)`` takes: a provider's models, endpoint, key,
wire protocol or own stream function, headers and OAuth, checked when it is registered.

pi's ``ProviderConfig`` in snake_case. A hook passes a mapping (``{"base_url": ...,
"models": [...]}``) or the dataclasses here; either way the config is checked at
once, so a bad one fails while the hook loads, with a message naming the hook file.
The agent's model registry turns it into models and providers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio

#: The wire protocols hookline speaks itself (pi's names for them).
WIRE_APIS = ("anthropic-messages", "openai-completions")

#: ``login(callbacks)`` → credentials; may be async.
OAuthLogin = Callable[["LoginCallbacks"], Any]
#: ``refresh_token(credentials)`` → new credentials; may be async.
OAuthRefresh = Callable[["OAuthCredentials"], Any]
#: ``get_api_key(credentials)`` → the key requests carry.
OAuthApiKey = Callable[["OAuthCredentials"], str]
#: ``modify_models(models, credentials)`` → the models as these credentials see them.
OAuthModifyModels = Callable[[list[Any], "OAuthCredentials"], list[Any]]
#: ``stream_simple(model, request, options)`` → an async iterator of the provider's events
#: (``text_delta``, ``thinking_delta``, ``toolcall_start``/``_delta``/``_end``, then
#: ``done`` or ``error``): pi's ``streamSimple``.
StreamSimple = Callable[[Any, Any, Any], Any]


class ProviderConfigError(ValueError):
    """A ``register_provider`` config that cannot work; the message names the hook and the
    field."""


@dataclass(frozen=True, slots=True)
class ModelCost:
    """US dollars per million tokens."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0


@dataclass(frozen=True, slots=True)
class ProviderModel:
    """One model of the provider (pi's ``ProviderModelConfig``)."""

    id: str
    name: str = ""
    reasoning: bool = False
    input: tuple[str, ...] = ("text",)
    cost: ModelCost = field(default_factory=ModelCost)
    context_window: int = 128_000
    max_tokens: int = 16_384
    #: This model's protocol, else the provider's.
    api: str | None = None
    #: This model's endpoint, else the provider's.
    base_url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    #: pi's ``compat`` quirks, kept for the stream function to read.
    compat: Mapping[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class OAuthCredentials:
    """A stored login: ``expires`` in milliseconds since the epoch, as pi stores it;
    ``extra`` keeps what else the login returned (pi's ``enterpriseUrl`` ...)."""

    refresh: str
    access: str
    expires: float
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """pi's ``auth.json`` entry (``extra`` never changes its ``type``: a token
        server's answer must not turn a login into an ``api_key`` entry)."""
        return {
            "type": "oauth",
            **{k: v for k, v in self.extra.items() if k != "type"},
            "refresh": self.refresh,
            "access": self.access,
            "expires": self.expires,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OAuthCredentials:
        extra = {k: v for k, v in data.items() if k not in ("type", "refresh", "access", "expires")}
        return cls(
            str(data.get("refresh", "")),
            str(data.get("access", "")),
            float(data.get("expires", 0)),
            extra,
        )


async def _no_answer(message: str) -> str:
    raise RuntimeError(f"this login asks {message!r}, and nothing here can answer it")


@dataclass(frozen=True, slots=True)
class LoginCallbacks:
    """What a provider's ``login`` is given (pi's ``OAuthLoginCallbacks``): where to send
    the user (``on_auth(url, instructions)``), a device code to show, a question to ask
    (``await on_prompt(message)``); ``signal`` is set when the login is cancelled."""

    on_auth: Callable[[str, str | None], None] = lambda url, instructions: None
    on_device_code: Callable[[str, str], None] = lambda user_code, verification_uri: None
    on_prompt: Callable[[str], Awaitable[str]] = _no_answer
    signal: asyncio.Event | None = None


@dataclass(frozen=True, slots=True)
class OAuthConfig:
    """Login for the provider (pi's ``OAuthProviderInterface``)."""

    name: str
    login: OAuthLogin
    refresh_token: OAuthRefresh
    get_api_key: OAuthApiKey = lambda credentials: credentials.access
    modify_models: OAuthModifyModels | None = None


@dataclass(frozen=True, slots=True)
class ProviderConfig:
    """pi's ``ProviderConfig``. ``api_key`` and header values name an environment
    variable or are the value itself; ``models`` replaces the provider's models, without
    it only the endpoint and headers of an existing provider change."""

    base_url: str | None = None
    api_key: str | None = None
    api: str | None = None
    stream_simple: StreamSimple | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    auth_header: bool = False
    models: tuple[ProviderModel, ...] = ()
    oauth: OAuthConfig | None = None

    def check(self, name: str) -> None:
        """Raise ``ProviderConfigError`` for a config that cannot work (pi's checks)."""
        if not name or not isinstance(name, str):
            raise ProviderConfigError(f"provider name must be a non-empty string, got {name!r}")
        if self.stream_simple is not None and not callable(self.stream_simple):
            raise ProviderConfigError("'stream_simple' must be callable")
        if self.stream_simple is not None and not self.api:
            raise ProviderConfigError("'api' is required with 'stream_simple' (name your API)")
        if not self.models:
            return
        if not self.base_url and not all(m.base_url for m in self.models):
            raise ProviderConfigError("'base_url' is required when defining models")
        if not self.api_key and self.oauth is None:
            raise ProviderConfigError("'api_key' or 'oauth' is required when defining models")
        for model in self.models:
            api = model.api or self.api
            if not api:
                raise ProviderConfigError(f"model {model.id!r}: no 'api' given")
            if self.stream_simple is None and api not in WIRE_APIS:
                raise ProviderConfigError(
                    f"model {model.id!r}: api {api!r} is not one hookline speaks "
                    f"({', '.join(WIRE_APIS)}); give 'stream_simple' to speak it yourself"
                )


def provider_config(name: str, config: ProviderConfig | Mapping[str, Any]) -> ProviderConfig:
    """``config`` checked, as a ``ProviderConfig`` (a mapping's keys are its fields)."""
    if isinstance(config, Mapping):
        config = _from_mapping(config)
    elif not isinstance(config, ProviderConfig):
        raise ProviderConfigError(
            f"config must be a mapping or a ProviderConfig, got {type(config).__name__}"
        )
    config.check(name)
    return config


def _from_mapping(data: Mapping[str, Any]) -> ProviderConfig:
    values = _known(data, ProviderConfig, "config")
    models = values.get("models", ())
    if not isinstance(models, Sequence) or isinstance(models, str):
        raise ProviderConfigError("'models' must be a list")
    values["models"] = tuple(_model(m, i) for i, m in enumerate(models))
    if isinstance(values.get("oauth"), Mapping):
        oauth = _known(values["oauth"], OAuthConfig, "oauth")
        for key in ("name", "login", "refresh_token"):
            if key not in oauth:
                raise ProviderConfigError(f"oauth: {key!r} is missing")
        for key in ("login", "refresh_token", "get_api_key", "modify_models"):
            if key in oauth and oauth[key] is not None and not callable(oauth[key]):
                raise ProviderConfigError(f"oauth: {key!r} must be callable")
        values["oauth"] = OAuthConfig(**oauth)
    if values.get("oauth") is not None and not isinstance(values["oauth"], OAuthConfig):
        raise ProviderConfigError("'oauth' must be a mapping or an OAuthConfig")
    for key in ("base_url", "api_key", "api"):
        if values.get(key) is not None and not isinstance(values[key], str):
            raise ProviderConfigError(f"{key!r} must be a string, got {values[key]!r}")
    _strings(values.get("headers", {}), "headers")
    return ProviderConfig(**values)


def _model(data: object, index: int) -> ProviderModel:
    if isinstance(data, ProviderModel):
        return data
    where = f"models[{index}]"
    if not isinstance(data, Mapping):
        raise ProviderConfigError(f"{where} must be a mapping, got {type(data).__name__}")
    values = _known(data, ProviderModel, where)
    if not isinstance(values.get("id"), str) or not values["id"]:
        raise ProviderConfigError(f"{where}: 'id' is missing")
    values.setdefault("name", values["id"])
    for key in ("context_window", "max_tokens"):
        if key in values and (not isinstance(values[key], int) or values[key] <= 0):
            raise ProviderConfigError(f"{where}: {key!r} must be a positive integer")
    if "input" in values:
        values["input"] = tuple(values["input"])
    if isinstance(values.get("cost"), Mapping):
        values["cost"] = ModelCost(**_known(values["cost"], ModelCost, f"{where}.cost"))
    _strings(values.get("headers", {}), f"{where}.headers")
    return ProviderModel(**values)


def _known(data: Mapping[str, Any], cls: type, where: str) -> dict[str, Any]:
    """``data``'s keys, each a field of ``cls`` (an unknown one is named, with the fields)."""
    fields = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(str(k) for k in data if k not in fields)
    if unknown:
        from hookline.core.plain_errors import unknown_key

        raise ProviderConfigError(f"{where}: {unknown_key(unknown[0], fields)}")
    return dict(data)


def _strings(headers: object, where: str) -> None:
    if not isinstance(headers, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        raise ProviderConfigError(f"{where} must map names to strings")
