"""Model providers: scripted (the embedded default), anthropic, openai.

Importing this package is cheap: the SDKs load only when an Anthropic or
OpenAI provider is constructed.
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.agent.providers.anthropic_provider import AnthropicProvider
    from hookline.agent.providers.openai_provider import OpenAIProvider
    from hookline.agent.providers.registry import ProviderSpecError, create_provider, parse_spec
    from hookline.agent.providers.retry import RetryEnd, RetryStart, complete_with_retry
    from hookline.agent.providers.scripted import ScriptedProvider, ScriptError

__all__ = [
    "AnthropicProvider",
    "OpenAIProvider",
    "ProviderSpecError",
    "RetryEnd",
    "RetryStart",
    "ScriptError",
    "ScriptedProvider",
    "complete_with_retry",
    "create_provider",
    "parse_spec",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "AnthropicProvider": "hookline.agent.providers.anthropic_provider",
    "OpenAIProvider": "hookline.agent.providers.openai_provider",
    "ProviderSpecError": "hookline.agent.providers.registry",
    "create_provider": "hookline.agent.providers.registry",
    "parse_spec": "hookline.agent.providers.registry",
    "RetryEnd": "hookline.agent.providers.retry",
    "RetryStart": "hookline.agent.providers.retry",
    "complete_with_retry": "hookline.agent.providers.retry",
    "ScriptError": "hookline.agent.providers.scripted",
    "ScriptedProvider": "hookline.agent.providers.scripted",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
