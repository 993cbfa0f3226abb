"""pi's overlay-qa-tests example: thirteen commands that exercise overlay placement.

Each command floats one or more components over the app with ``ctx.ui.custom(...,
overlay=True, ...)`` or ``tui.show_overlay``:

- ``/overlay-animation``: a ~30 FPS animation (frame counter, bouncing bar, colours).
- ``/overlay-anchors``: the nine anchors in turn (Space/→ next, Enter picks, Esc).
- ``/overlay-margins``: margins and offsets; ``/overlay-percent``: ``row``/``col`` in %.
- ``/overlay-stack``: three overlays at once, each on top of the last.
- ``/overlay-overflow``: a process's long, coloured, hyperlinked lines cut to the box.
- ``/overlay-edge``: flush with the right edge; ``/overlay-maxheight``: cut to 10 rows.
- ``/overlay-sidepanel``: 25% wide (at least 30), shown only on terminals ≥ 100 columns.
- ``/overlay-toggle``: ``t`` hides the overlay for a second through its handle.
- ``/overlay-passive``: a non-capturing timer panel beside the overlay that has the keys.
- ``/overlay-focus``: three non-capturing panels; Tab gives each the keys in turn.
- ``/overlay-streaming``: three input panels beside a streaming controller.

Needs the terminal app; elsewhere each overlay is shown once as text.

    hookline --hook examples/pi/overlay_qa_tests.py      then  /overlay-anchors
"""

from __future__ import annotations

import asyncio
import colorsys
import time
from collections.abc import Callable
from typing import Any, Literal

from hookline import CommandContext, HookAPI, Theme
from hookline.components import (
    TUI,
    Component,
    Keybindings,
    OverlayHandle,
    matches_key,
    truncate_to_width,
    visible_width,
)

Done = Callable[..., None]
Color = Literal["error", "success", "accent"]
COLORS: tuple[Color, Color, Color] = ("error", "success", "accent")
ANCHORS = (
    "top-left",
    "top-center",
    "top-right",
    "left-center",
    "center",
    "right-center",
    "bottom-left",
    "bottom-center",
    "bottom-right",
)
MARGINS: list[tuple[str, dict[str, Any]]] = [
    ("No margin (top-left)", {"anchor": "top-left", "width": 35}),
    ("Margin: 3 all sides", {"anchor": "top-left", "width": 35, "margin": 3}),
    (
        "Margin: top=5, left=10",
        {"anchor": "top-left", "width": 35, "margin": {"top": 5, "left": 10}},
    ),
    ("Center + offset (10, -3)", {"anchor": "center", "width": 35, "offset_x": 10, "offset_y": -3}),
    ("Bottom-right, margin: 2", {"anchor": "bottom-right", "width": 35, "margin": 2}),
]
PERCENTS = [
    ("rowPercent: 0 (top)", 0, 50),
    ("rowPercent: 50 (middle)", 50, 50),
    ("rowPercent: 100 (bottom)", 100, 50),
    ("colPercent: 0 (left)", 50, 0),
    ("colPercent: 100 (right)", 50, 100),
]
#: What ``/overlay-overflow`` runs: 100 long lines, 0.3 s apart, with colours and links.
OVERFLOW_SCRIPT = r"""
echo "Starting streaming overflow test (30+ seconds)..."
echo "This simulates subagent output with colors, hyperlinks, and long paths"
echo ""
for i in $(seq 1 100); do
  DIR="/home/user/development/pi-mono/packages/coding-agent/src/modes/interactive"
  FILE="${DIR}/components/very-long-component-name-that-exceeds-width-${i}.ts"
  echo -e "\033]8;;file://${FILE}\007▶ read: ${FILE}\033]8;;\007"
  if [ $((i % 5)) -eq 0 ]; then
    echo -e "  \033[32m✓ Successfully processed ${i} files in /home/user/development/pi-mono\033[0m"
  fi
  if [ $((i % 7)) -eq 0 ]; then
    W="very-long-component-name-that-exceeds-width.ts"
    echo -e "  \033[33m⚠ Warning: potential issue detected at line ${i} in ${W}\033[0m"
  fi
  if [ $((i % 11)) -eq 0 ]; then
    P="/some/really/long/path/that/definitely/exceeds/the/overlay/width/limit"
    echo -e "  \033[31m✗ Error: file not found ${P}/file-${i}.ts\033[0m"
  fi
  sleep 0.3
done
echo ""
echo -e "\033[32m✓ Complete - 100 files processed in 30 seconds\033[0m"
echo "Press Esc to close"
"""


def closes(data: str) -> bool:
    return matches_key(data, "escape") or matches_key(data, "ctrl+c")


def advances(data: str) -> bool:
    return matches_key(data, "space") or matches_key(data, "right")


class Every:
    """A repeating timer on the running loop (``stop`` ends it)."""

    def __init__(self, seconds: float, tick: Callable[[], None]) -> None:
        self._seconds, self._tick = seconds, tick
        self._handle: asyncio.TimerHandle | None = None
        self._schedule()

    def _schedule(self) -> None:
        self._handle = asyncio.get_running_loop().call_later(self._seconds, self._fire)

    def _fire(self) -> None:
        self._tick()
        if self._handle is not None:
            self._schedule()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


class BaseOverlay:
    """A framed box with a centred title, lines cut or padded to fit."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme

    def box(self, lines: list[str], width: int, title: str = "") -> list[str]:
        th = self.theme
        inner = max(1, width - 2)
        label = truncate_to_width(f" {title} ", inner) if title else ""
        left = "─" * ((inner - visible_width(label)) // 2)
        right = "─" * max(0, inner - visible_width(label) - len(left))
        out = [th.fg("border", f"╭{left}") + th.fg("accent", label) + th.fg("border", f"{right}╮")]
        out += [self.row(line, inner, "border") for line in lines]
        out.append(th.fg("border", f"╰{'─' * inner}╯"))
        return out

    def row(self, line: str, inner: int, color: str) -> str:
        side = self.theme.fg(color, "│")
        return side + truncate_to_width(line, inner, "...", pad=True) + side

    def invalidate(self) -> None:
        return None

    def dispose(self) -> None:
        return None


class AnchorTest(BaseOverlay):
    def __init__(self, theme: Theme, anchor: str, done: Done) -> None:
        super().__init__(theme)
        self.anchor, self.done = anchor, done

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.done("cancel")
        elif matches_key(data, "return"):
            self.done("confirm")
        elif advances(data):
            self.done("next")

    def render(self, width: int) -> list[str]:
        dim = self.theme.fg
        lines = ["", f" Current: {dim('accent', self.anchor)}", ""]
        lines += [
            f" {dim('dim', t)}"
            for t in ("Space/→ = next anchor", "Enter = confirm", "Esc = cancel")
        ]
        return self.box([*lines, ""], width, "Anchor Test")


class Stepper(BaseOverlay):
    """One configuration of a series: Space/→ the next, Esc closes."""

    def __init__(self, theme: Theme, name: str, title: str, done: Done) -> None:
        super().__init__(theme)
        self.name, self.title, self.done = name, title, done

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.done("close")
        elif advances(data):
            self.done("next")

    def render(self, width: int) -> list[str]:
        th = self.theme
        step = "Space/→ = next config" if self.title == "Margin Test" else "Space/→ = next"
        lines = ["", f" {th.fg('accent', self.name)}", "", f" {th.fg('dim', step)}"]
        return self.box([*lines, f" {th.fg('dim', 'Esc = close')}", ""], width, self.title)


class StackOverlay(BaseOverlay):
    def __init__(self, theme: Theme, number: int, position: str, done: Done) -> None:
        super().__init__(theme)
        self.number, self.position, self.done = number, position, done

    def handle_input(self, data: str) -> None:
        if closes(data) or matches_key(data, "return"):
            self.done(f"Overlay {self.number}")

    def render(self, width: int) -> list[str]:
        th = self.theme
        color = COLORS[(self.number - 1) % 3]
        inner = max(1, width - 2)
        body = [
            f" Overlay {th.fg('accent', f'#{self.number}')}",
            f" Layer: {th.fg(color, self.position)}",
            "",
            *[f" {'░' * (inner - 2)} "] * 5,
            "",
            th.fg("dim", " Press Enter/Esc to close"),
        ]
        return [
            th.fg(color, f"╭{'─' * inner}╮"),
            *[self.row(line, inner, color) for line in body],
            th.fg(color, f"╰{'─' * inner}╯"),
        ]


class StreamingOverflow(BaseOverlay):
    """A real process's output, scrolled to its end; long lines cut to the box."""

    visible_lines = 15

    def __init__(self, tui: TUI, theme: Theme, done: Done, script: str = OVERFLOW_SCRIPT) -> None:
        super().__init__(theme)
        self.tui, self.done = tui, done
        self.lines: list[str] = []
        self.scroll = 0
        self.finished = False
        self._task = asyncio.ensure_future(self._run(script))

    async def _run(self, script: str) -> None:
        proc = await asyncio.create_subprocess_exec(
            "bash",
            "-c",
            script,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            assert proc.stdout is not None
            async for raw in proc.stdout:
                line = raw.decode(errors="replace").rstrip("\n")
                if line:
                    self.lines.append(line)
                self.scroll = max(0, len(self.lines) - self.visible_lines)
                self.tui.request_render()
            await proc.wait()
            self.finished = True
            self.tui.request_render()
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.dispose()
            self.done()
        elif matches_key(data, "up"):
            self.scroll = max(0, self.scroll - 1)
        elif matches_key(data, "down"):
            self.scroll = min(max(0, len(self.lines) - self.visible_lines), self.scroll + 1)

    def render(self, width: int) -> list[str]:
        th = self.theme
        inner = max(1, width - 2)
        title = truncate_to_width(f" Streaming Output ({len(self.lines)} lines) ", inner)
        top = th.fg("border", "╭") + th.fg("accent", title)
        out = [top + th.fg("border", f"{'─' * max(0, inner - visible_width(title))}╮")]
        below = max(0, len(self.lines) - self.visible_lines - self.scroll)
        scrolls = self.scroll > 0 or below > 0
        out.append(
            self.row(
                th.fg("dim", f" ↑{self.scroll} | ↓{below}") if scrolls else "", inner, "border"
            )
        )
        shown = self.lines[self.scroll : self.scroll + self.visible_lines]
        out += [self.row(f" {line}", inner, "border") for line in shown]
        out += [self.row("", inner, "border")] * (self.visible_lines - len(shown))
        status = th.fg("success", "✓ Done") if self.finished else th.fg("warning", "● Running")
        out.append(
            self.row(f" {status} {th.fg('dim', '| ↑↓ scroll | Esc close')}", inner, "border")
        )
        out.append(th.fg("border", f"╰{'─' * inner}╯"))
        return out

    def dispose(self) -> None:
        self._task.cancel()


class EdgeTest(BaseOverlay):
    def __init__(self, theme: Theme, done: Done) -> None:
        super().__init__(theme)
        self.done = done

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.done()

    def render(self, width: int) -> list[str]:
        dim = self.theme.fg
        lines = ["", " This overlay is at the", " right edge of terminal.", ""]
        lines += [
            f" {dim('dim', 'Verify right border')}",
            f" {dim('dim', 'aligns with edge.')}",
            "",
        ]
        return self.box([*lines, f" {dim('dim', 'Press Esc to close')}", ""], width, "Edge Test")


class MaxHeightTest(BaseOverlay):
    """Renders 21 lines; ``max_height`` 10 cuts it (no bottom border)."""

    def __init__(self, theme: Theme, done: Done) -> None:
        super().__init__(theme)
        self.done = done

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.done()

    def render(self, width: int) -> list[str]:
        th = self.theme
        lines = [
            th.fg("warning", " ⚠ Rendering 21 lines, maxHeight: 10"),
            th.fg("dim", " Lines 11-21 truncated (no bottom border)"),
            "",
            *[f" Line {i} of 14" for i in range(1, 15)],
            "",
            th.fg("dim", " Press Esc to close"),
        ]
        return self.box(lines, width, "MaxHeight Test")


class Sidepanel(BaseOverlay):
    items = ("Dashboard", "Messages", "Settings", "Help", "About")

    def __init__(self, tui: TUI, theme: Theme, done: Done) -> None:
        super().__init__(theme)
        self.tui, self.done = tui, done
        self.selected = 0

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.done()
        elif matches_key(data, "up"):
            self.selected = max(0, self.selected - 1)
        elif matches_key(data, "down"):
            self.selected = min(len(self.items) - 1, self.selected + 1)
        self.tui.request_render()

    def render(self, width: int) -> list[str]:
        th = self.theme
        inner = max(1, width - 2)
        rule = th.fg("border", "├" + "─" * inner + "┤")
        out = [
            th.fg("border", f"╭{'─' * inner}╮"),
            self.row(th.fg("accent", " Responsive Sidepanel"), inner, "border"),
            rule,
        ]
        for i, item in enumerate(self.items):
            chosen = i == self.selected
            prefix = th.fg("accent", "→ ") if chosen else "  "
            out.append(
                self.row(prefix + (th.fg("accent", item) if chosen else item), inner, "border")
            )
        out.append(rule)
        notes = [
            th.fg("warning", " ⚠ Resize terminal < 100 cols"),
            th.fg("warning", "   to see panel auto-hide"),
            th.fg("dim", " Uses visible: (w) => w >= 100"),
            th.fg("dim", " ↑↓ navigate | Esc close"),
        ]
        out += [self.row(note, inner, "border") for note in notes]
        return [*out, th.fg("border", f"╰{'─' * inner}╯")]


def hsl_to_rgb(hue: float, saturation: float, lightness: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
    return round(r * 255), round(g * 255), round(b * 255)


class AnimationDemo(BaseOverlay):
    """Redrawn ~30 times a second: what a game in an overlay needs."""

    def __init__(self, tui: TUI, theme: Theme, done: Done) -> None:
        super().__init__(theme)
        self.tui, self.done = tui, done
        self.frame = self.fps = self._since = 0
        self._last = time.monotonic()
        self._timer = Every(1 / 30, self._tick)

    def _tick(self) -> None:
        self.frame += 1
        self._since += 1
        now = time.monotonic()
        if now - self._last >= 1:
            self.fps, self._since, self._last = self._since, 0, now
        self.tui.request_render()

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.dispose()
            self.done()

    def render(self, width: int) -> list[str]:
        import math

        th = self.theme
        inner = max(1, width - 2)
        bar_width = max(12, inner - 4)
        pos = max(0, int((math.sin(self.frame / 10) + 1) * (bar_width - 10) / 2))
        bar = " " * pos + th.fg("accent", "█" * 10) + " " * max(0, bar_width - 10 - pos)
        r, g, b = hsl_to_rgb((self.frame * 3) % 360 / 360, 0.8, 0.5)
        block = f"\x1b[48;2;{r};{g};{b}m{'  ' * 10}\x1b[0m"
        body = [
            th.fg("accent", " Animation Demo (~30 FPS)"),
            "",
            f" Frame: {th.fg('accent', str(self.frame))}",
            f" FPS: {th.fg('success', str(self.fps))}",
            "",
            f" {bar}",
            f" Spinner: {th.fg('warning', '◐◓◑◒'[self.frame % 4])}",
            f" Color: {block}",
            "",
            th.fg("dim", " This proves overlays can handle"),
            th.fg("dim", " real-time game-like rendering."),
            th.fg("dim", " (pi-doom uses same approach)"),
            "",
            th.fg("dim", " Press Esc to close"),
        ]
        border = th.fg("border", f"╭{'─' * inner}╮")
        return [
            border,
            *[self.row(line, inner, "border") for line in body],
            th.fg("border", f"╰{'─' * inner}╯"),
        ]

    def dispose(self) -> None:
        self._timer.stop()


class ToggleDemo(BaseOverlay):
    """``t`` hides the overlay through its handle; it comes back after a second."""

    def __init__(self, tui: TUI, theme: Theme, done: Done) -> None:
        super().__init__(theme)
        self.tui, self.done = tui, done
        self.handle: OverlayHandle | None = None
        self.toggles = 0
        self.toggling = False

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.done()
        elif matches_key(data, "t") and self.handle is not None and not self.toggling:
            self.toggling = True
            self.toggles += 1
            self.handle.set_hidden(True)
            asyncio.get_running_loop().call_later(1.0, self._restore)

    def _restore(self) -> None:
        if self.handle is not None:
            self.handle.set_hidden(False)
            self.toggling = False
            self.tui.request_render()

    def render(self, width: int) -> list[str]:
        th = self.theme
        lines = [
            "",
            th.fg("accent", " Toggle Demo"),
            "",
            " This overlay demonstrates the",
            " onHandle callback API.",
            "",
            f" Toggle count: {th.fg('accent', str(self.toggles))}",
            "",
            th.fg("dim", " Press 't' to hide for 1 second"),
            th.fg("dim", " (demonstrates setHidden API)"),
            "",
            th.fg("dim", " In real usage, a global keybinding"),
            th.fg("dim", " would toggle visibility externally."),
            "",
            th.fg("dim", " Press Esc to close"),
            "",
        ]
        return self.box(lines, width, "Toggle Demo")


class TimerPanel(BaseOverlay):
    seconds = 0

    def render(self, width: int) -> list[str]:
        th = self.theme
        clock = f"{self.seconds // 60:02d}:{self.seconds % 60:02d}"
        return self.box(
            [f" {th.fg('accent', clock)}", th.fg("dim", " nonCapturing: true")], width, "Timer"
        )


class PassiveDemo(BaseOverlay):
    """Has the keys while a non-capturing timer panel ticks beside it."""

    def __init__(self, tui: TUI, theme: Theme, done: Done) -> None:
        super().__init__(theme)
        self.tui, self.done = tui, done
        self.focused = False
        self.typed = ""
        self.inputs = 0
        self.last = ""
        self.timer = TimerPanel(theme)
        self.timer_handle: OverlayHandle | None = tui.show_overlay(
            self.timer,
            non_capturing=True,
            anchor="top-right",
            width=22,
            margin={"top": 1, "right": 2},
        )
        self._every: Every | None = Every(1.0, self._tick)

    def _tick(self) -> None:
        self.timer.seconds += 1
        self.tui.request_render()

    def handle_input(self, data: str) -> None:
        self.inputs += 1
        self.last = f"len={len(data)} c0={ord(data[0]) if data else 0}"
        if closes(data):
            self.dispose()
            self.done()
        elif matches_key(data, "backspace"):
            self.typed = self.typed[:-1]
        elif len(data) == 1 and ord(data) >= 32:
            self.typed += data

    def render(self, width: int) -> list[str]:
        th = self.theme
        shown = self.typed or th.fg("dim", "(type here)")
        focused = "true" if self.focused else "false"
        lines = [
            "",
            f" {th.fg('dim', f'focused={focused} inputs={self.inputs}')}",
            f" {th.fg('dim', f'last: {self.last or chr(110) + chr(111) + chr(110) + chr(101)}')}",
            "",
            f" > {shown}",
            "",
            th.fg("dim", " Type to prove input goes here."),
            th.fg("dim", " Press Esc to close both."),
            "",
        ]
        return self.box(lines, width, "Non-Capturing Demo")

    def dispose(self) -> None:
        if self._every is not None:
            self._every.stop()
            self._every = None
        if self.timer_handle is not None:
            self.timer_handle.hide()
            self.timer_handle = None


class Panel(BaseOverlay):
    """A non-capturing panel: Tab passes the keys on, Esc closes everything; with
    ``typing`` it keeps what is typed while it has the keys."""

    def __init__(
        self,
        theme: Theme,
        label: str,
        color: Color,
        on_tab: Callable[[], None],
        on_close: Callable[[], None],
        *,
        typing: bool = False,
    ) -> None:
        super().__init__(theme)
        self.label, self.color, self.on_tab, self.on_close = label, color, on_tab, on_close
        self.typing = typing
        self.typed = ""
        self.handle: OverlayHandle | None = None

    def handle_input(self, data: str) -> None:
        if matches_key(data, "tab"):
            self.on_tab()
        elif closes(data):
            self.on_close()
        elif self.typing and matches_key(data, "backspace"):
            self.typed = self.typed[:-1]
        elif self.typing and len(data) == 1 and ord(data) >= 32:
            self.typed += data

    def render(self, width: int) -> list[str]:
        th = self.theme
        inner = max(1, width - 2)
        focused = self.handle is not None and self.handle.is_focused()
        if focused:
            state = [th.fg("success", " ● FOCUSED"), th.fg("dim", " (receiving input)")]
        else:
            state = [
                th.fg("dim", " ○ unfocused"),
                "" if self.typing else th.fg("dim", " (passive)"),
            ]
        body = [f" {th.fg('accent', self.label)}", "", *state]
        if self.typing:
            body += [
                f" > {self.typed or th.fg('dim', '(type here)')}",
                "",
                th.fg("dim", " Tab | Esc"),
            ]
        else:
            body.append("")
        edge = th.fg(self.color, "─" * inner)
        return [
            th.fg(self.color, "╭") + edge + th.fg(self.color, "╮"),
            *[self.row(line, inner, self.color) for line in body],
            th.fg(self.color, "╰") + edge + th.fg(self.color, "╯"),
        ]


class PanelController(BaseOverlay):
    """Shows three non-capturing panels; Tab cycles the keys: itself, then each panel."""

    title = "Focus Demo"

    def __init__(self, tui: TUI, theme: Theme, done: Done) -> None:
        super().__init__(theme)
        self.tui, self.done = tui, done
        self.focus_index = -1
        self.panels: list[Panel] = []
        self.handles: list[OverlayHandle] = []
        for i, (label, color) in enumerate(zip(self.labels(), COLORS, strict=True)):
            panel = Panel(theme, label, color, self.cycle_focus, self.close, typing=self.typing())
            handle = tui.show_overlay(panel, non_capturing=True, **self.placement(i))
            panel.handle = handle
            self.panels.append(panel)
            self.handles.append(handle)

    def labels(self) -> tuple[str, ...]:
        return ("Alpha", "Beta", "Gamma")

    def typing(self) -> bool:
        return False

    def placement(self, index: int) -> dict[str, Any]:
        return {"row": 2, "col": 5 + index * 6, "width": 28}

    def cycle_focus(self) -> None:
        if 0 <= self.focus_index < len(self.handles):
            self.handles[self.focus_index].unfocus()
        self.focus_index += 1
        if self.focus_index >= len(self.handles):
            self.focus_index = -1
        else:
            self.handles[self.focus_index].focus()
        self.tui.request_render()

    def close(self) -> None:
        self.dispose()
        self.done()

    def handle_input(self, data: str) -> None:
        if closes(data):
            self.close()
        elif matches_key(data, "tab"):
            self.cycle_focus()

    def focused_label(self) -> str:
        return "Controller" if self.focus_index == -1 else self.panels[self.focus_index].label

    def render(self, width: int) -> list[str]:
        th = self.theme
        lines = [
            "",
            f" Current focus: {th.fg('accent', self.focused_label())}",
            "",
            " Three overlapping panels above are",
            f" all {th.fg('accent', 'nonCapturing')}. Press Tab to",
            " cycle focus() between them.",
            "",
            " Focused panel renders on top",
            " (focus-based rendering order).",
            "",
            th.fg("dim", " Tab = cycle focus | Esc = close"),
            "",
        ]
        return self.box(lines, width, self.title)

    def dispose(self) -> None:
        for handle in self.handles:
            handle.hide()
        self.handles, self.panels = [], []


class StreamingInputController(PanelController):
    """Input panels on the left while this one streams a line every half second."""

    title = "Streaming + Input Test"

    def __init__(self, tui: TUI, theme: Theme, done: Done) -> None:
        super().__init__(tui, theme, done)
        self.stream: list[str] = []
        self.count = 0
        self._every: Every | None = Every(0.5, self._line)

    def labels(self) -> tuple[str, ...]:
        return ("Panel A", "Panel B", "Panel C")

    def typing(self) -> bool:
        return True

    def placement(self, index: int) -> dict[str, Any]:
        return {"row": 1 + index * 9, "col": 2, "width": 35}

    def _line(self) -> None:
        self.count += 1
        self.stream = [
            *self.stream,
            f"[{time.strftime('%H:%M:%S')}] Streaming line {self.count}...",
        ][-8:]
        self.tui.request_render()

    def render(self, width: int) -> list[str]:
        th = self.theme
        label = (
            th.fg("success", "Controller (this panel)")
            if self.focus_index == -1
            else self.focused_label()
        )
        rule = th.fg("dim", " ─" * ((width - 2) // 2))
        lines = [
            "",
            f" Current focus: {th.fg('accent', label)}",
            "",
            " Simulated streaming output:",
            rule,
        ]
        lines += [f" {th.fg('dim', line)}" for line in self.stream]
        lines += [""] * max(0, 12 - len(lines))
        lines += [
            rule,
            "",
            f" Three {th.fg('accent', 'nonCapturing')} input panels on the left.",
            " Tab cycles: Controller → Panel A → B → C → Controller",
            " Type in each panel to test input routing.",
            "",
            th.fg("dim", " Tab = cycle focus | Esc = close all"),
            "",
        ]
        return self.box(lines, width, self.title)

    def dispose(self) -> None:
        if getattr(self, "_every", None) is not None:
            self._every.stop()  # type: ignore[union-attr]
            self._every = None
        super().dispose()


Factory = Callable[[TUI, Theme, Keybindings, Done], Component]


def shows(kind: Callable[..., Component], *args: Any) -> Factory:
    """A factory of ``kind(theme, *args, done)``."""

    def factory(tui: TUI, theme: Theme, keybindings: Keybindings, done: Done) -> Component:
        return kind(theme, *args, done)

    return factory


def register(pi: HookAPI) -> None:
    def command(name: str, description: str) -> Callable[[Any], Any]:
        return pi.register_command(name, description=description)

    @command("overlay-animation", "Test real-time animation in overlay (~30 FPS)")
    async def animation(args: str, ctx: CommandContext) -> None:
        await ctx.ui.custom(
            lambda tui, theme, kb, done: AnimationDemo(tui, theme, done),
            overlay=True,
            anchor="center",
            width=50,
            max_height=20,
        )

    @command("overlay-anchors", "Cycle through all anchor positions")
    async def anchors(args: str, ctx: CommandContext) -> None:
        index = 0
        while True:
            anchor = ANCHORS[index]
            result = await ctx.ui.custom(
                shows(AnchorTest, anchor),
                overlay=True,
                anchor=anchor,
                width=40,
            )
            if result != "next":
                if result == "confirm":
                    ctx.ui.notify(f"Selected: {anchor}", "info")
                return
            index = (index + 1) % len(ANCHORS)

    @command("overlay-margins", "Test margin and offset options")
    async def margins(args: str, ctx: CommandContext) -> None:
        index = 0
        while True:
            name, options = MARGINS[index]
            result = await ctx.ui.custom(
                shows(Stepper, name, "Margin Test"),
                overlay=True,
                **options,
            )
            if result != "next":
                return
            index = (index + 1) % len(MARGINS)

    @command("overlay-stack", "Test stacked overlays")
    async def stack(args: str, ctx: CommandContext) -> None:
        layers = [
            (-8, -4, "back (red border)"),
            (0, 0, "middle (green border)"),
            (8, 4, "front (blue border)"),
        ]
        opened = []
        for number, (dx, dy, position) in enumerate(layers, 1):
            ctx.ui.notify(f"Showing overlay {number} ({position.split()[0]})...", "info")

            def factory(
                tui: TUI,
                theme: Theme,
                kb: Keybindings,
                done: Done,
                n: int = number,
                p: str = position,
            ) -> Component:
                return StackOverlay(theme, n, p, done)

            shown = ctx.ui.custom(
                factory,
                overlay=True,
                anchor="center",
                width=50,
                offset_x=dx,
                offset_y=dy,
                max_height=15,
            )
            opened.append(asyncio.ensure_future(shown))
            if number < len(layers):
                await asyncio.sleep(0.4)
        results = await asyncio.gather(*opened)
        ctx.ui.notify(f"Closed in order: {', '.join(results)}", "info")

    @command("overlay-overflow", "Test width overflow with streaming process output")
    async def overflow(args: str, ctx: CommandContext) -> None:
        await ctx.ui.custom(
            lambda tui, theme, kb, done: StreamingOverflow(tui, theme, done),
            overlay=True,
            anchor="center",
            width=90,
            max_height=20,
        )

    @command("overlay-edge", "Test overlay positioned at terminal edge")
    async def edge(args: str, ctx: CommandContext) -> None:
        await ctx.ui.custom(
            lambda tui, theme, kb, done: EdgeTest(theme, done),
            overlay=True,
            anchor="right-center",
            width=40,
            margin={"right": 0},
        )

    @command("overlay-percent", "Test percentage-based positioning")
    async def percent(args: str, ctx: CommandContext) -> None:
        index = 0
        while True:
            name, row, col = PERCENTS[index]
            result = await ctx.ui.custom(
                shows(Stepper, name, "Percent Test"),
                overlay=True,
                width=30,
                row=f"{row}%",
                col=f"{col}%",
            )
            if result != "next":
                return
            index = (index + 1) % len(PERCENTS)

    @command("overlay-maxheight", "Test maxHeight truncation")
    async def maxheight(args: str, ctx: CommandContext) -> None:
        await ctx.ui.custom(
            lambda tui, theme, kb, done: MaxHeightTest(theme, done),
            overlay=True,
            anchor="center",
            width=50,
            max_height=10,
        )

    @command("overlay-sidepanel", "Test responsive sidepanel (hides when terminal < 100 cols)")
    async def sidepanel(args: str, ctx: CommandContext) -> None:
        await ctx.ui.custom(
            lambda tui, theme, kb, done: Sidepanel(tui, theme, done),
            overlay=True,
            anchor="right-center",
            width="25%",
            min_width=30,
            margin={"right": 1},
            visible=lambda columns, rows: columns >= 100,
        )

    @command("overlay-toggle", "Test overlay toggle (press 't' to toggle visibility)")
    async def toggle(args: str, ctx: CommandContext) -> None:
        demo: list[ToggleDemo] = []

        def factory(tui: TUI, theme: Theme, kb: Keybindings, done: Done) -> Component:
            demo.append(ToggleDemo(tui, theme, done))
            return demo[0]

        def keep(handle: OverlayHandle) -> None:
            demo[0].handle = handle

        await ctx.ui.custom(factory, overlay=True, anchor="center", width=50, on_handle=keep)

    @command(
        "overlay-passive",
        "Test non-capturing overlay (passive info panel alongside active overlay)",
    )
    async def passive(args: str, ctx: CommandContext) -> None:
        ctx.ui.set_editor_text("")
        await ctx.ui.custom(
            lambda tui, theme, kb, done: PassiveDemo(tui, theme, done),
            overlay=True,
            anchor="center",
            width=48,
        )

    @command("overlay-focus", "Test focus cycling and rendering order with non-capturing overlays")
    async def focus(args: str, ctx: CommandContext) -> None:
        ctx.ui.set_editor_text("")
        await ctx.ui.custom(
            lambda tui, theme, kb, done: PanelController(tui, theme, done),
            overlay=True,
            anchor="bottom-center",
            width=55,
            margin={"bottom": 1},
        )

    @command(
        "overlay-streaming", "Multiple input panels with simulated streaming (Tab to cycle focus)"
    )
    async def streaming(args: str, ctx: CommandContext) -> None:
        ctx.ui.set_editor_text("")
        await ctx.ui.custom(
            lambda tui, theme, kb, done: StreamingInputController(tui, theme, done),
            overlay=True,
            anchor="bottom-center",
            width=60,
            margin={"bottom": 1},
        )
