"""The hooks' UI over RPC: a dialog is an ``extension_ui_request`` line the host answers.

Dialogs (``select``, ``confirm``, ``input``, ``editor``) wait for the host's
``extension_ui_response`` with the same id, checked by ``protocol.ui_answer``;
``notify``, the status line, widgets and the title are one-way requests. A
timeout, the hook's signal, an abort or EOF closes an open dialog with its
no-UI value and tells the host (``extension_ui_cancelled``).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hookline.core.ui import (
    NO_EDITOR_NOTICE,
    NotifyType,
    OverlayPlacement,
    StatusLine,
    WidgetContent,
    WidgetPlacement,
)
from hookline.modes.rpc.protocol import DialogAnswer, Request, ui_answer

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from hookline.core.theme import Theme, ThemeInfo, ThemeResult

#: Writes one line to the host.
Writer = Callable[[Mapping[str, Any]], None]


class RpcUI:
    """Hook UI over the RPC channel: dialogs are requests the host answers."""

    def __init__(self, write: Writer) -> None:
        self._write = write
        self._ids = itertools.count(1)
        self._pending: dict[str, asyncio.Future[DialogAnswer]] = {}
        #: What each open dialog asked: its method and, for select, its options.
        self._asked: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.status = StatusLine()
        self._editor_text = ""
        self._told_no_editor = False
        self.closed = False
        #: While an abort winds the run down, new dialogs are answered 'cancelled' at once.
        self.refusing = False

    def resolve(self, message: Request) -> str | None:
        """Answer an open dialog; returns why not, if the answer was refused.

        A malformed answer leaves the dialog open (the host may answer again,
        or abort): it never resolves to a yes.
        """
        request_id = str(message.get("id"))
        future = self._pending.get(request_id)
        if future is None or future.done():
            return f"no open UI request with id {request_id[:80]!r}"
        method, options = self._asked[request_id]
        try:
            answer = ui_answer(method, options, message)
        except ValueError as exc:
            return f"{exc}; the {method} dialog {request_id} is still open"
        del self._pending[request_id], self._asked[request_id]
        future.set_result(answer)
        return None

    def close_dialogs(self, reason: str) -> int:
        """Resolve every open dialog as cancelled and tell the host; returns how many."""
        open_ids = [i for i, f in self._pending.items() if not f.done()]
        for request_id in open_ids:
            self._pending[request_id].set_result({"cancelled": True})
            self._write({"type": "extension_ui_cancelled", "id": request_id, "reason": reason})
        self._pending.clear()
        self._asked.clear()
        return len(open_ids)

    def _close_one(self, request_id: str, reason: str) -> None:
        self._pending.pop(request_id, None)
        self._asked.pop(request_id, None)
        self._write({"type": "extension_ui_cancelled", "id": request_id, "reason": reason})

    def cancel_all(self) -> None:
        """The host is gone: every open and later dialog answers 'cancelled'."""
        self.closed = True
        for future in self._pending.values():
            if not future.done():
                future.set_result({"cancelled": True})
        self._pending.clear()
        self._asked.clear()

    async def _ask(
        self,
        method: str,
        *,
        signal: asyncio.Event | None = None,
        **fields: Any,
    ) -> DialogAnswer:
        """Send the request and wait for its answer.

        A ``timeout`` (sent to the host in milliseconds) or a set ``signal``
        closes the dialog with its default answer; the host is told
        (``extension_ui_cancelled``, reason ``timeout`` or ``signal``) and a
        late answer is refused like any answer to a closed dialog.
        """
        if self.closed or self.refusing or (signal is not None and signal.is_set()):
            return {"cancelled": True}
        request_id = f"ui-{next(self._ids)}"
        future: asyncio.Future[DialogAnswer] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._asked[request_id] = (method, tuple(fields.get("options") or ()))
        self._write({"type": "extension_ui_request", "id": request_id, "method": method, **fields})
        timeout = fields["timeout"] / 1000 if "timeout" in fields else None
        try:
            if timeout is None and signal is None:
                return await future
            waiters: set[asyncio.Future[Any]] = {future}
            stop = asyncio.ensure_future(signal.wait()) if signal is not None else None
            if stop is not None:
                waiters.add(stop)
            try:
                await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            finally:
                if stop is not None:
                    stop.cancel()
            if future.done():
                return future.result()
            self._close_one(request_id, "signal" if stop is not None and stop.done() else "timeout")
            return {"cancelled": True}
        finally:
            if self._pending.pop(request_id, None) is not None:
                # The hook stopped waiting (cancelled, timed out): the dialog is gone.
                del self._asked[request_id]
                self._write(
                    {"type": "extension_ui_cancelled", "id": request_id, "reason": "withdrawn"}
                )

    async def select(
        self,
        title: str,
        options: Sequence[str],
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        descriptions: Mapping[str, str] | None = None,
    ) -> str | None:
        extra = {"descriptions": dict(descriptions)} if descriptions else {}
        answer = await self._ask(
            "select",
            title=title,
            options=list(options),
            signal=signal,
            **_timeout(timeout),
            **extra,
        )
        value = answer.get("value")
        return value if isinstance(value, str) and not answer.get("cancelled") else None

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> bool:
        answer = await self._ask(
            "confirm", title=title, message=message, signal=signal, **_timeout(timeout)
        )
        return bool(answer.get("confirmed", answer.get("value"))) and not answer.get("cancelled")

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
    ) -> str | None:
        answer = await self._ask(
            "input", title=title, placeholder=placeholder, signal=signal, **_timeout(timeout)
        )
        value = answer.get("value")
        return value if isinstance(value, str) and not answer.get("cancelled") else None

    async def editor(
        self,
        title: str,
        prefill: str | None = None,
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        prompt_style: bool | None = None,
    ) -> str | None:
        style = {} if prompt_style is None else {"promptStyle": prompt_style}
        answer = await self._ask(
            "editor", title=title, prefill=prefill, signal=signal, **style, **_timeout(timeout)
        )
        value = answer.get("value")
        return value if isinstance(value, str) and not answer.get("cancelled") else None

    def notify(self, message: str, type: NotifyType = "info") -> None:
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "notify",
                "message": message,
                "notifyType": type,
            }
        )

    def set_status(self, key: str, text: str | None) -> None:
        self.status.set(key, text)
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "setStatus",
                "statusKey": key,
                "statusText": text,
            }
        )

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

    def set_editor_text(self, text: str) -> None:
        self._editor_text = text
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "set_editor_text",
                "text": text,
            }
        )

    def get_editor_text(self) -> str:
        return self._editor_text

    def paste_to_editor(self, text: str) -> None:
        self.set_editor_text(self._editor_text + text)

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        """The client draws its own editor: the factory is not called; said once."""
        if factory is not None and not self._told_no_editor:
            self._told_no_editor = True
            self.notify(NO_EDITOR_NOTICE)

    def set_widget(
        self, key: str, content: WidgetContent | None, *, placement: WidgetPlacement = "above"
    ) -> None:
        if callable(content):  # a component factory: its lines, rendered once
            from hookline.components import widget_lines

            lines = widget_lines(content, self.theme)
        else:
            lines = None if content is None else [str(x) for x in content]
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "setWidget",
                "widgetKey": key,
                "widgetLines": lines,
                "widgetPlacement": "belowEditor" if placement == "below" else "aboveEditor",
            }
        )

    def set_working_message(self, text: str | None) -> None:
        return None

    def set_header(self, content: WidgetContent | None) -> None:
        """Replacing the terminal app's header and footer has no RPC equivalent."""
        return None

    def set_footer(self, content: WidgetContent | None) -> None:
        return None

    def set_title(self, title: str) -> None:
        self._write(
            {
                "type": "extension_ui_request",
                "id": f"ui-{next(self._ids)}",
                "method": "setTitle",
                "title": title,
            }
        )

    @property
    def theme(self) -> Theme:
        """pi's colour names without colour: the text goes to a client, not a terminal."""
        from hookline.core.theme import plain_theme

        return plain_theme()

    def set_theme(self, theme: str | Theme) -> ThemeResult:
        """The client draws its own UI: there is no theme to switch (as in pi)."""
        from hookline.core.theme import ThemeResult

        return ThemeResult(False, "Theme switching not supported in RPC mode")

    def get_theme(self, name: str) -> Theme | None:
        return None

    def get_all_themes(self) -> list[ThemeInfo]:
        return []


def _timeout(seconds: float | None) -> dict[str, int]:
    """The request's ``timeout`` field (milliseconds, as pi sends it), when the hook gave one."""
    return {} if seconds is None else {"timeout": max(0, round(seconds * 1000))}
