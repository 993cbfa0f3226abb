"""Print mode (``-p``) and JSON mode (``--mode json``): one prompt, then exit.

Print writes the final answer to stdout; JSON writes every event as one JSON
line. A built-in ``/command`` runs as a command instead (``print_commands``).
Hook UI calls get the no-UI answers; notifications and hook errors go
to stderr so that stdout stays the answer.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from hookline.agent.agent import Agent
from hookline.core.messages import content_text
from hookline.core.pipeline import Denial
from hookline.core.ui import NotifyType, NoUI, OverlayPlacement

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from hookline.modes.print_commands import CommandAnswer, MakeProvider


class StderrUI(NoUI):
    """No UI, but notifications are shown on stderr (print and JSON modes)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__()
        self._stream = stream

    def notify(self, message: str, type: NotifyType = "info") -> None:
        super().notify(message, type)
        stream = self._stream or sys.stderr
        print(f"[{type}] {message}", file=stream, flush=True)

    async def custom(
        self,
        factory: Callable[..., Any],
        *,
        overlay: bool = False,
        **placement: Unpack[OverlayPlacement],
    ) -> Any:
        """No terminal to draw a component on: its text summary is shown as a
        notification (rendered once, 80 columns, no colours) and the answer is ``None``."""
        from hookline.components import show_summary

        show_summary(factory, self.theme, self.notify)
        return None


class LineWriter:
    """Writes lines to stdout (or ``stream``); once the reader is gone the rest is dropped.

    ``hookline --mode json -p ... | head -1`` must not end in a traceback, and a
    listener that raises would stop the agent's events (``session_shutdown``
    hooks included), so a broken pipe only marks the writer ``broken``.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream
        self.broken = False

    def __call__(self, line: str) -> None:
        if self.broken:
            return
        stream = self._stream or sys.stdout
        try:
            stream.write(line + "\n")
            stream.flush()
        except (BrokenPipeError, ValueError):  # ValueError: the stream was closed
            self.broken = True
            _to_devnull(stream)


def _to_devnull(stream: TextIO) -> None:
    """Point the stream's descriptor at /dev/null so the exit-time flush cannot fail."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError):
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


def denial_summary(denials: Sequence[Denial]) -> str:
    """One line: how many calls were denied, why, and which rule or flag would allow each.

    A call a failing hook blocked points at that hook's error, printed when it failed,
    rather than saying it again.
    """
    count = f"{len(denials)} tool call{'s' if len(denials) != 1 else ''} denied"
    parts = []
    for d in denials:
        why = f"its hook {d.hook} failed (error above)" if d.hook_failed else d.reason
        part = f"{d.tool_name} ({d.tool_call_id}): {why}"
        if d.hint:
            part += f" [{d.hint}]"
        parts.append(part)
    return f"{count}: " + "; ".join(parts)


def _json_default(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(exclude_none=True)
    if hasattr(value, "__dataclass_fields__"):
        return {k: getattr(value, k) for k in value.__dataclass_fields__}
    return repr(value)


def dumps(payload: Mapping[str, Any]) -> str:
    """One JSON line; objects that are not JSON are shown, never fatal."""
    return json.dumps(payload, default=_json_default, ensure_ascii=False)


def _json_line(write: LineWriter, payload: dict[str, Any]) -> None:
    """One JSON line per payload, except ``text_delta``: the ``assistant_message_event``
    line of the same step carries that delta (the terminal app still reads it)."""
    if payload.get("type") != "text_delta":
        write(dumps(payload))


async def _as_command(
    agent: Agent, prompt: str, make_provider: MakeProvider | None
) -> CommandAnswer | None:
    """The command's answer when ``prompt`` is a command (the module loads only for
    ``/…`` text: most runs never need it)."""
    if not prompt.lstrip().startswith("/"):
        return None
    from hookline.modes.print_commands import run_slash

    return await run_slash(agent, prompt, make_provider)


async def run_print(
    agent: Agent,
    prompt: str,
    *,
    json_mode: bool = False,
    out: TextIO | None = None,
    make_provider: MakeProvider | None = None,
) -> int:
    """Run ``prompt`` once; returns the exit code (1 when the model failed).

    ``out`` is where the answer (or the JSON lines) goes: the CLI passes the
    private stdout from ``claim_stdout`` so nothing a hook prints lands there.
    A ``/command`` runs as one (``print_commands``); ``make_provider`` serves
    ``/model SPEC``.
    """
    write = LineWriter(out)
    if json_mode:
        agent.subscribe(lambda payload: _json_line(write, payload))
    await agent.start()
    answer = await _as_command(agent, prompt, make_provider)
    if answer is not None:
        if json_mode:
            write(dumps({"type": "command", "name": answer.name, "output": answer.text}))
        elif answer.text:
            write(answer.text)
        await agent.shutdown("quit")
        return answer.code
    added = await agent.prompt(prompt, source="print")
    await agent.wait_for_idle()
    if agent.denials and not json_mode:
        print(f"hookline: {denial_summary(agent.denials)}", file=sys.stderr, flush=True)
    # Not in a `finally`: when cancelled (SIGTERM) the caller shuts down with its reason.
    await agent.shutdown("quit")
    final = next((m for m in reversed(added) if m["role"] == "assistant"), None)
    if final is None:
        return 0
    if final.get("stop_reason") == "error":
        # The agent already reported the error on stderr (ui.notify); stdout stays answers only.
        return 1
    if not json_mode:
        write(content_text(final["content"]))
    return 0
