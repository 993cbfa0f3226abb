"""hookline.bridge: hookline's hook modules inside other agents (Claude Code's hook format).

``hookline claude-hook`` answers one command hook per process; ``hookline
serve`` keeps the hooks loaded and answers JSON lines, or ``http`` hooks and
pi's events as an ASGI service (``bridge.app``, on uvicorn: the ``serve`` extra).
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.bridge.engine import BridgeHooks, load_bridge
    from hookline.bridge.mapping import (
        EVENT_MAP,
        BridgeInputError,
        ClaudeAnswer,
        parse_input,
        to_answer,
        to_event,
    )

__all__ = [
    "EVENT_MAP",
    "BridgeHooks",
    "BridgeInputError",
    "ClaudeAnswer",
    "load_bridge",
    "parse_input",
    "to_answer",
    "to_event",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "BridgeHooks": "hookline.bridge.engine",
    "load_bridge": "hookline.bridge.engine",
    "EVENT_MAP": "hookline.bridge.mapping",
    "BridgeInputError": "hookline.bridge.mapping",
    "ClaudeAnswer": "hookline.bridge.mapping",
    "parse_input": "hookline.bridge.mapping",
    "to_answer": "hookline.bridge.mapping",
    "to_event": "hookline.bridge.mapping",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
