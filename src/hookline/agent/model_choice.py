"""Which model the agent uses: ``--model`` > ``HOOKLINE_MODEL`` > settings ``model`` > an API key.

Claude Code settings name models the way Claude Code does (``claude-sonnet-4-5``,
``sonnet``); those bare names mean ``anthropic:``. With nothing configured, an
``ANTHROPIC_API_KEY`` (else ``OPENAI_API_KEY``) in the environment picks that
provider's default model, and the agent says so on stderr; with no key either,
the embedded scripted model runs (no network, the tests' and the demo's default).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: ``sonnet``/``opus``/``haiku`` as Claude Code's aliases name them.
CLAUDE_ALIASES: dict[str, str] = {
    "sonnet": "claude-sonnet-4-5",
    "opus": "claude-opus-4-5",
    "haiku": "claude-haiku-4-5",
}
#: The model each API key selects when nothing names one.
KEY_DEFAULTS: tuple[tuple[str, str], ...] = (
    ("ANTHROPIC_API_KEY", "anthropic:" + CLAUDE_ALIASES["sonnet"]),
    ("OPENAI_API_KEY", "openai:gpt-5"),
)
MODEL_ENV = "HOOKLINE_MODEL"


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """The model spec, where it came from (for error messages), and what to tell the user."""

    spec: str
    source: str
    note: str | None = None


def normalize_spec(spec: str) -> str:
    """Bare Claude model names and aliases → ``anthropic:NAME``; anything else unchanged."""
    value = spec.strip()
    if ":" in value:
        return value
    if value in CLAUDE_ALIASES:
        return "anthropic:" + CLAUDE_ALIASES[value]
    if value.startswith("claude-"):
        return "anthropic:" + value
    return value


def choose_model(
    cli: str | None,
    settings_model: str | None,
    default: str,
    env: Mapping[str, str],
    settings_origin: str = "settings",
) -> ModelChoice:
    """The first of ``--model``, ``HOOKLINE_MODEL``, settings, an API key, ``default``."""
    if cli:
        return ModelChoice(normalize_spec(cli), "--model")
    if env.get(MODEL_ENV, "").strip():
        return ModelChoice(normalize_spec(env[MODEL_ENV]), MODEL_ENV)
    if settings_model and settings_model.strip():
        return ModelChoice(normalize_spec(settings_model), f"model in {settings_origin}")
    for key, spec in KEY_DEFAULTS:
        if env.get(key, "").strip():
            note = f"no model configured; {key} is set, so using {spec} (choose with --model)"
            return ModelChoice(spec, key, note)
    return ModelChoice(default, "default")
