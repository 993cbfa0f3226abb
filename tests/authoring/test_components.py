"""A hook's component under the harness: render it, press keys, read ``done``'s value."""

from __future__ import annotations

import asyncio
from typing import Any

from hookline import HookAPI
from hookline.authoring.harness import HookHarness
from hookline.components import SelectItem, SelectList


def picker(pi: HookAPI) -> None:
    @pi.register_command("pick")
    async def pick(args: str, ctx: Any) -> None:
        def factory(tui: Any, theme: Any, keybindings: Any, done: Any) -> SelectList:
            items = SelectList([SelectItem("apple"), SelectItem("banana")], 5)
            items.on_select = lambda item: done(item.value)
            items.on_cancel = lambda: done(None)
            return items

        value = await ctx.ui.custom(factory, overlay=True, anchor="top-left", width="50%")
        ctx.ui.notify(f"picked {value}")


async def test_a_test_drives_the_component_and_reads_its_answer(hook_harness: HookHarness) -> None:
    hook_harness.register(picker)
    task = asyncio.ensure_future(hook_harness.command("pick"))
    shown = await hook_harness.ui.next_component()
    assert shown.overlay and shown.placement == {"anchor": "top-left", "width": "50%"}
    assert shown.text(30).splitlines() == ["→ apple", "  banana"]
    shown.press("down", "enter")
    assert await task == []
    assert shown.done and shown.value == "banana"
    assert hook_harness.ui.notifications[-1] == ("info", "picked banana")


async def test_a_queued_answer_closes_the_component_at_once(hook_harness: HookHarness) -> None:
    hook_harness.register(picker)
    hook_harness.ui.answer("custom", "apple")
    assert await hook_harness.command("pick") == []
    assert hook_harness.ui.notifications[-1] == ("info", "picked apple")
    assert [d.kind for d in hook_harness.ui.asked] == ["custom"]
