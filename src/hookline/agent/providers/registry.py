"""``--model`` specs (``scripted:FILE``, ``anthropic:NAME``, ``openai:NAME``) → providers.

Only the chosen provider's module does any work: its client library (httpx2 for
Anthropic, the SDK for OpenAI) is imported when it is built, never for a scripted run.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hookline.agent.provider import Provider

if TYPE_CHECKING:
    from hookline.agent.providers.registered import ProviderTable

VALID_FORMS = (
    "scripted:FILE, anthropic:NAME, openai:NAME or PROVIDER:NAME of a provider a hook registers"
)
_KINDS = ("scripted", "anthropic", "openai")


class ProviderSpecError(ValueError):
    """A ``--model`` value that names no provider; the message lists the valid forms."""


def parse_spec(spec: str) -> tuple[str, str]:
    """``"anthropic:claude-x"`` → ``("anthropic", "claude-x")``; bad specs raise."""
    kind, sep, name = spec.strip().partition(":")
    if not sep or kind not in _KINDS:
        raise ProviderSpecError(f"invalid model {spec!r}: expected {VALID_FORMS}")
    if not name.strip():
        what = "FILE" if kind == "scripted" else "NAME"
        raise ProviderSpecError(
            f"invalid model {spec!r}: {kind}: needs a {what} (expected {VALID_FORMS})"
        )
    return kind, name.strip()


def create_provider(
    spec: str,
    *,
    base_url: str | None = None,
    cwd: str | Path = ".",
    prefetch: bool = False,
    api_key: str | None = None,
    registered: ProviderTable | None = None,
) -> Provider:
    """The provider ``spec`` names; ``scripted:`` paths are relative to ``cwd``. ``prefetch``:
    import its client library in a background thread until the first request (``SdkImport``).
    ``api_key`` overrides the one the provider finds in the environment. ``registered``:
    the providers hooks registered, which win over the built-in ones of their name.

    Raises ``ProviderSpecError`` for a bad spec, ``ScriptError`` for a bad
    script and ``ProviderError`` when an API key is missing.
    """
    if registered is not None:
        provider = registered.create(spec, api_key=api_key, prefetch=prefetch)
        if provider is not None:
            return provider
    kind, name = parse_spec(spec)
    if kind == "scripted":
        from hookline.agent.providers.scripted import ScriptedProvider

        path = Path(name).expanduser()
        return ScriptedProvider(path if path.is_absolute() else Path(cwd) / path)
    if kind == "anthropic":
        from hookline.agent.providers.anthropic_provider import AnthropicProvider

        return AnthropicProvider(name, api_key=api_key, base_url=base_url, prefetch=prefetch)
    from hookline.agent.providers.openai_provider import OpenAIProvider

    return OpenAIProvider(name, api_key=api_key, base_url=base_url, prefetch=prefetch)
