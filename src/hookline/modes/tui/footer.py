"""The footer: permission mode, model, context and token usage, hook status lines.

Usage is recomputed when a message lands, not on every frame: a frame only
formats numbers it already has. A mode other than ``default`` is shown first,
as Claude Code shows it (``⏵⏵ accept edits on (shift+tab to cycle)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hookline.core.ui import StatusLine

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples

    from hookline.agent.agent import Agent
    from hookline.core.messages import Message

#: A mode other than ``default``: its words and colour in the footer, as Claude Code's.
_MODES = {
    "acceptEdits": ("⏵⏵ accept edits on", "fg:#af87ff"),
    "plan": ("⏸ plan mode on", "fg:#48968c"),
    "bypassPermissions": ("⏵⏵ bypass permissions on", "fg:#ff5f5f"),
    "dontAsk": ("⏵⏵ don't ask on", "fg:#ff5f5f"),
}
_CYCLE_HINT = " (shift+tab to cycle)"


def _short(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


@dataclass(slots=True)
class Usage:
    messages: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    context_tokens: int = 0
    reported: bool = False  # the model reported token usage (else the context is estimated)


def measure(agent: Agent) -> Usage:
    """Token totals of the session's current branch and the size of the next context."""
    from hookline.session.compaction import estimate_tokens

    usage = Usage()
    last_input = 0
    context: list[Message] = agent.session.build_context_messages()
    usage.messages = len(context)
    for message in context:
        if message["role"] != "assistant":
            continue
        reported = message.get("usage")
        if reported:
            usage.reported = True
            usage.input_tokens += int(reported.get("input_tokens", 0))
            usage.output_tokens += int(reported.get("output_tokens", 0))
            last_input = (
                int(reported.get("input_tokens", 0))
                + int(reported.get("cache_read_tokens", 0))
                + int(reported.get("output_tokens", 0))
            )
    usage.context_tokens = last_input if usage.reported else estimate_tokens(context)
    return usage


def model_label(spec: str) -> str:
    """How the footer names a model spec: its last path part (``scripted:/x/s.json`` →
    ``s.json``), as it names the loaded provider's model."""
    return spec.strip().rsplit("/", 1)[-1]


def loading_line(model: str, width: int) -> str:
    """The footer while the agent and hooks load: the model named on the command line."""
    line = " · ".join([*([model_label(model)] if model.strip() else []), "loading hooks…"])
    return line if len(line) <= width else line[: max(width - 1, 0)] + "…"


def mode_fragments(mode: str) -> StyleAndTextTuples:
    """``⏵⏵ accept edits on (shift+tab to cycle)``; nothing in ``default``."""
    if mode not in _MODES:
        return []
    words, colour = _MODES[mode]
    return [(colour, words), ("class:footer", _CYCLE_HINT)]


def footer_fragments(agent: Agent, usage: Usage, width: int) -> StyleAndTextTuples:
    """The mode (when not ``default``), then ``footer_line`` in the width left."""
    mode = mode_fragments(agent.gate.mode)
    if not mode:
        return [("class:footer", footer_line(agent, usage, width))]
    left = width - sum(len(fragment[1]) for fragment in mode) - 3
    return [*mode, ("class:footer", " · " + footer_line(agent, usage, max(left, 1)))]


def footer_line(agent: Agent, usage: Usage, width: int) -> str:
    """``model · N msgs · ctx used/window (p%) · ↑in ↓out``, cut to ``width``."""
    window = agent.context_window
    pct = 100 * usage.context_tokens / window if window else 0
    approx = "" if usage.reported else "~"
    parts = [
        model_label(agent.provider.model_id),
        f"{usage.messages} msgs",
        f"ctx {approx}{_short(usage.context_tokens)}/{_short(window)} ({pct:.0f}%)",
    ]
    if usage.reported:
        parts.append(f"↑{_short(usage.input_tokens)} ↓{_short(usage.output_tokens)}")
    line = " · ".join(parts)
    return line if len(line) <= width else line[: max(width - 1, 0)] + "…"


def status_line(status: StatusLine, width: int) -> str:
    return status.render(width)
