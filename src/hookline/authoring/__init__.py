"""hookline.authoring: tools for hook authors — the ``hookline hooks`` commands and the
pytest plugin's harness. Sits above the agent layer; nothing below imports it."""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.authoring.harness import (
        Emitted,
        HandlerCall,
        HookHarness,
        HookLoadFailed,
        RecordingHost,
    )
    from hookline.authoring.synthetic import EventInputError, event_name, make_event
    from hookline.authoring.ui import Dialog, ScriptedUI

__all__ = [
    "Dialog",
    "Emitted",
    "EventInputError",
    "HandlerCall",
    "HookHarness",
    "HookLoadFailed",
    "RecordingHost",
    "ScriptedUI",
    "event_name",
    "make_event",
]

#: Public name → the module that defines it, imported when the name is first read.
_EXPORTS = {
    "Emitted": "hookline.authoring.harness",
    "HandlerCall": "hookline.authoring.harness",
    "HookHarness": "hookline.authoring.harness",
    "HookLoadFailed": "hookline.authoring.harness",
    "RecordingHost": "hookline.authoring.harness",
    "EventInputError": "hookline.authoring.synthetic",
    "event_name": "hookline.authoring.synthetic",
    "make_event": "hookline.authoring.synthetic",
    "Dialog": "hookline.authoring.ui",
    "ScriptedUI": "hookline.authoring.ui",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
