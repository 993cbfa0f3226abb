"""The environment of hook and bash subprocesses: settings ``env``, session exports, scrubbing.

Layers, later wins: the agent's own environment, the settings ``env`` block
(trusted files only: an untrusted project's ``env`` is dropped when settings
load), then, for bash commands only, what ``CLAUDE_ENV_FILE`` scripts exported
this session.

``CLAUDE_CODE_SUBPROCESS_ENV_SCRUB=1`` (in the environment or the settings
``env``) removes provider credentials and ``OTEL_*`` from what hooks and
bash commands see: a hook or a command the model wrote cannot read a key it
has no business with. The switch is read from the configuration layers only,
so a session export cannot turn it off again.
"""

from __future__ import annotations

from collections.abc import Mapping

SCRUB_ENV = "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB"

#: Credentials scrubbed by name (besides every ``*_API_KEY`` / ``*_AUTH_TOKEN``).
CREDENTIAL_NAMES: frozenset[str] = frozenset(
    {
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "CLAUDE_CODE_OAUTH_TOKEN",
        "OPENAI_API_KEY",
        "OPENAI_ORG_ID",
        "AZURE_OPENAI_API_KEY",
        "GOOGLE_API_KEY",
        "GEMINI_API_KEY",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_BEARER_TOKEN_BEDROCK",
    }
)
_CREDENTIAL_SUFFIXES = ("_API_KEY", "_AUTH_TOKEN")
_SCRUBBED_PREFIXES = ("OTEL_",)
_TRUE = frozenset({"1", "true", "yes", "on"})


def scrub_requested(*layers: Mapping[str, str] | None) -> bool:
    """Whether any configuration layer sets ``CLAUDE_CODE_SUBPROCESS_ENV_SCRUB`` to a true value."""
    return any((layer.get(SCRUB_ENV) or "").strip().lower() in _TRUE for layer in layers if layer)


def is_scrubbed(name: str) -> bool:
    """Whether the scrub removes variable ``name``."""
    upper = name.upper()
    return (
        upper in CREDENTIAL_NAMES
        or upper.endswith(_CREDENTIAL_SUFFIXES)
        or upper.startswith(_SCRUBBED_PREFIXES)
    )


def scrub(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without provider credentials and ``OTEL_*``."""
    return {k: v for k, v in env.items() if not is_scrubbed(k)}


def subprocess_env(
    base: Mapping[str, str],
    settings_env: Mapping[str, str] | None = None,
    session_env: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """``base`` + settings ``env`` + session exports, scrubbed when the configuration asks."""
    env = {**base, **(settings_env or {}), **(session_env or {})}
    return scrub(env) if scrub_requested(base, settings_env) else env
