"""The approval dialog: yes; yes, and don't ask again; no, and tell the agent what to do.

Claude Code's permission prompt, asked through the hooks' generic UI (a select, then
an input for the "tell" answer), so the terminal app and an RPC host show the same
dialog. Esc, or an empty "tell" answer, is a plain no.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from hookline.core.ui import HookUI

Choice = Literal["yes", "always", "no"]

YES = "Yes"
TELL = "No, and tell the agent what to do differently"
TELL_PROMPT = "Tell the agent what to do differently"
#: What the model reads for a plain no.
DENIED = "Permission denied by the user"
#: Claude Code's words for a rejected call, before what the user said to do instead.
_REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected "
    "(eg. if it was a file edit, the new_string was NOT written to the file). "
    "To tell you how to proceed, the user said:\n"
)


@dataclass(frozen=True, slots=True)
class Approval:
    """The user's answer; ``feedback`` is what they told the agent to do instead."""

    choice: Choice
    feedback: str | None = None

    @property
    def denial_reason(self) -> str:
        """What the model reads in the tool result of a call the user refused."""
        return _REJECTED + self.feedback if self.feedback else DENIED


def always_option(rules: Sequence[str]) -> str:
    """The "don't ask again" option, naming the rules it writes."""
    return f"Yes, and don't ask again for {' and '.join(rules)}"


async def ask_approval(ui: HookUI, title: str, rules: Sequence[str]) -> Approval:
    """Ask; "don't ask again" is offered only when ``rules`` would let the call run."""
    always = always_option(rules) if rules else None
    options = [YES, *([always] if always else []), TELL]
    picked = await ui.select(title, options)
    if picked == YES:
        return Approval("yes")
    if always is not None and picked == always:
        return Approval("always")
    if picked == TELL:
        said = await ui.input(TELL_PROMPT)
        return Approval("no", said.strip() if said and said.strip() else None)
    return Approval("no")
