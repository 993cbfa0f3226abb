"""The preview above an approval dialog, without a terminal: a tool's own renderer, the
arguments for a tool without one, and the fallback when a renderer fails."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any

from hookline.core.theme import theme_by_name
from hookline.core.tool import Tool
from hookline.modes.tui import render
from hookline.modes.tui.activity import Activity, Approval
from hookline.modes.tui.preview import MIN_ROWS, RESERVED_ROWS, ApprovalPreview, call_preview
from hookline.modes.tui.style import Palette


async def _execute(*args: Any) -> Any:
    raise AssertionError("a preview never runs the tool")


def _loaded(**meta: Any) -> Any:
    """An agent holding one tool ``t`` with ``meta``; ``reports`` collects what failed."""
    reports: list[tuple[str, str, BaseException]] = []
    runner = SimpleNamespace(report=lambda path, event, exc: reports.append((path, event, exc)))
    tool = Tool("t", "a tool", {"type": "object"}, _execute, meta=meta)
    return SimpleNamespace(agent=SimpleNamespace(tools={"t": tool}, runner=runner), reports=reports)


def _plain(shown: Any) -> str:
    assert shown is not None
    text = shown if isinstance(shown, str) else render.to_ansi(shown, 60, theme_by_name("dark"))
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_a_tool_draws_its_own_preview_from_the_call_arguments() -> None:
    seen: list[Any] = []

    def preview(args: dict[str, Any], options: dict[str, Any]) -> str:
        seen.append((args, options))
        return f"to {args['target']}\x1b[2J"

    loaded = _loaded(render_preview=preview)
    lines = call_preview(loaded, Approval("c1", "t", {"target": "mars"}), 60)
    assert _plain(lines).strip() == "to mars"  # cleaned: no screen clearing
    assert seen == [({"target": "mars"}, {"width": 60})]


def test_without_a_renderer_the_arguments_are_shown_and_nothing_without_them() -> None:
    loaded = _loaded()
    assert '"target": "venus"' in _plain(
        call_preview(loaded, Approval("c", "t", {"target": "venus"}), 60)
    )
    assert call_preview(loaded, Approval("c", "t", {}), 60) is None
    # a renderer that returns None (or anything not drawable) asks for the default
    quiet = _loaded(render_preview=lambda args, options: None)
    assert '"a": 1' in _plain(call_preview(quiet, Approval("c", "t", {"a": 1}), 60))


def test_a_raising_renderer_falls_back_to_the_arguments_and_is_reported() -> None:
    loaded = _loaded(render_preview=lambda args, options: 1 / 0)
    lines = call_preview(loaded, Approval("c", "t", {"target": "venus"}), 60)
    assert '"target": "venus"' in _plain(lines)
    ((_, event, exc),) = loaded.reports
    assert event == "render_preview:t" and isinstance(exc, ZeroDivisionError)


class _Unprintable:
    """A renderable whose drawing fails (a hook's bug shows only when rich draws it)."""

    def __rich_console__(self, console: Any, options: Any) -> Any:
        raise RuntimeError("cannot draw")


async def _drawn(preview: ApprovalPreview, redraws: asyncio.Event) -> list[str]:
    """The preview's lines once drawn off the loop (first a placeholder line)."""
    first = preview.lines()
    assert first is not None and "preparing the preview" in _plain("\n".join(first))
    await asyncio.wait_for(redraws.wait(), 10)
    redraws.clear()
    lines = preview.lines()
    assert lines is not None
    return lines


async def test_a_preview_is_drawn_with_a_dialog_only_and_scrolls_within_its_lines() -> None:
    long = "\n".join(f"row {n}" for n in range(1, 101))
    activity, dialog, redraws = Activity(), [False], asyncio.Event()
    preview = ApprovalPreview(
        activity,
        _loaded(render_preview=lambda args, options: long),
        lambda: dialog[0],
        lambda: 80,
        lambda: 30,
        redraws.set,
        Palette(theme_by_name("dark")),
    )
    assert preview.lines() is None  # nothing pending
    activity.approval = Approval("c", "t", {})
    assert preview.lines() is None  # pending, but no dialog asks yet
    dialog[0] = True
    assert len(await _drawn(preview, redraws)) == 100
    assert preview.shown() and preview.height() == max(30 - RESERVED_ROWS, MIN_ROWS)
    preview.scroll(-5)
    assert preview.top == 0
    preview.scroll(1000)
    assert preview.top == 100 - preview.height()
    activity.approval = Approval("c2", "t", {})  # the next call starts at its top
    await _drawn(preview, redraws)
    assert preview.top == 0


async def test_a_preview_that_fails_to_draw_falls_back_to_the_arguments() -> None:
    activity, redraws = Activity(), asyncio.Event()
    loaded = _loaded(render_preview=lambda args, options: _Unprintable())
    preview = ApprovalPreview(
        activity,
        loaded,
        lambda: True,
        lambda: 80,
        lambda: 30,
        redraws.set,
        Palette(theme_by_name("dark")),
    )
    activity.approval = Approval("c", "t", {"target": "venus"})
    assert '"target": "venus"' in _plain("\n".join(await _drawn(preview, redraws)))
    ((_, event, exc),) = loaded.reports
    assert event == "render_preview:t" and isinstance(exc, RuntimeError)
