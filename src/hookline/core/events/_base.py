"""``Event``, the base of every event class."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar


@dataclass(slots=True, kw_only=True)
class Event:
    """Base of every event; ``type`` is the name handlers subscribe to."""

    type: ClassVar[str] = ""

    if not TYPE_CHECKING:  # type checkers keep reporting unknown attributes themselves

        def __getattr__(self, name: str) -> Any:
            """Only reached for a missing attribute: say so, bridging Claude's vocabulary."""
            from hookline.core.vocabulary import claude_field_hint

            raise AttributeError(
                f"{type(self).__name__} ({self.type!r} event) has no attribute {name!r}"
                f"{claude_field_hint(name)}",
                name=name,
                obj=self,
            )

    def to_dict(self) -> dict[str, Any]:
        """The payload as a JSON-ready dict with ``type`` first (json mode, RPC, logs)."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = getattr(self, f.name)
        return out
