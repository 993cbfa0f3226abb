"""Model providers: scripted (the embedded default), anthropic, openai.

Importing this package is cheap: the SDKs load only when an Anthropic or
OpenAI provider is constructed.
"""

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
