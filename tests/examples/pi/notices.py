"""A scripted UI whose notices a test can wait for, by event rather than by sleeping."""

from __future__ import annotations

import asyncio

from hookline.authoring.ui import ScriptedUI
from hookline.core.ui import NotifyType


class NoticeUI(ScriptedUI):
    """``await ui.notice("text")``: the first notice containing ``text``, once it comes."""

    def __init__(self) -> None:
        super().__init__()
        self._changed = asyncio.Event()

    def notify(self, message: str, type: NotifyType = "info") -> None:
        super().notify(message, type)
        self._changed.set()

    async def notice(self, text: str, timeout: float = 10.0) -> tuple[str, str]:
        try:
            async with asyncio.timeout(timeout):
                while True:
                    found = next(((t, m) for t, m in self.notifications if text in m), None)
                    if found is not None:
                        return found
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            raise AssertionError(f"no notice {text!r} among {self.notifications}") from None
