"""The terminal app: transcript above, live activity, dialogs or the editor, the footer.

Finished blocks (your messages, answers, tool calls, notices) are printed
into the terminal's scrollback once; only the bottom part is redrawn: what
is streaming or running now, widgets, the editor or a dialog, the footer.
The live part is bounded (a tail), so a long answer or a 5 000-line tool
output costs the same per frame as a short one.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition, has_completions, has_focus
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples
from prompt_toolkit.history import FileHistory
from prompt_toolkit.key_binding import (
    DynamicKeyBindings,
    KeyBindings,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.key_binding.defaults import load_key_bindings
from prompt_toolkit.layout import (
    AnyContainer,
    ConditionalContainer,
    Container,
    Dimension,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, UIContent
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.patch_stdout import patch_stdout

from hookline.core.keys import prompt_toolkit_keys
from hookline.core.messages import content_text
from hookline.core.paths import hookline_home
from hookline.core.ui import StatusLine, WidgetContent, strip_terminal_controls
from hookline.modes.tui import render
from hookline.modes.tui.commands import BUILTINS, SlashCompleter
from hookline.modes.tui.dialogs import STYLE, CustomDialog, Dialog, DialogHost
from hookline.modes.tui.footer import Usage, footer_line, loading_line, measure
from hookline.modes.tui.live import LiveAnswer
from hookline.modes.tui.ui import TuiUI
from hookline.session.storage import project_slug

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.agent.agent import Agent
    from hookline.agent.setup import AgentBundle
    from hookline.tools.pipeline import Denial

#: Events after which the footer's message and token counts are measured again.
_SESSION_CHANGES = frozenset(
    {
        "agent_end",
        "session_switch",
        "session_fork",
        "session_tree",
        "session_branch",
        "session_compact",
        "model_select",
    }
)
#: Who stopped a call, by the pipeline's denial source.
_BLOCKED_BY = {
    "hook": "by a hook",
    "rule": "by a permission rule",
    "mode": "by the permission mode",
    "permission_request": "by a permission_request hook",
    "user": "by you",
    "no_ui": "with no one to ask",
}
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: No answer streaming: one empty list, so that the live area sees the same text.
_NOTHING: StyleAndTextTuples = []
#: Lines of a streaming answer shown live (the whole answer is printed when it ends).
LIVE_TEXT_LINES = 12
#: Seconds between two Markdown renders of a streaming answer (the spinner's tick
#: draws the latest text after a burst): typing stays quick however fast it streams.
LIVE_RENDER_INTERVAL = 0.15


def history_path(cwd: str) -> str:
    """The editor history file of one project, under ``$HOOKLINE_HOME/history``."""
    folder = hookline_home() / "history"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / f"{project_slug(cwd)}.txt")


class _RunningTool:
    """A call on screen while it runs: the tail of its output, never all of it."""

    __slots__ = ("args", "blockers", "lines", "name", "output")

    def __init__(self, name: str, args: Any) -> None:
        self.name = name
        self.args = args
        #: The last lines of output (``render.LIVE_TAIL_LINES``), and how many lines came.
        self.output = ""
        self.lines = 0
        #: The settings hooks (PreToolUse) that blocked this call, as labels.
        self.blockers: list[str] = []

    def add_output(self, new: str) -> None:
        """More output (a tool's update carries what is new since the one before)."""
        self.lines += new.count("\n")
        self.output = render.keep_tail(self.output + new, render.LIVE_TAIL_LINES)


class TuiApp:
    """One interactive session on the terminal.

    The app is drawn before the agent exists (``start``): the editor takes keys
    while the agent and its hooks load, and what is submitted meanwhile waits
    in order until ``serve`` hands the agent over.
    """

    def __init__(self, cwd: str, model: str = "") -> None:
        self.cwd = cwd
        #: The model named on the command line, shown in the footer until the agent is here.
        self.model = model
        self._agent: Agent | None = None
        self._bundle: AgentBundle | None = None
        #: Set once the agent (and so every hook) is loaded; submissions wait for it.
        self.loaded = asyncio.Event()
        #: Editor texts submitted while loading, sent in order once loaded.
        self._queued: list[str] = []
        self._app_task: asyncio.Future[None] | None = None
        self._hook_keys = KeyBindings()
        self._leaving = False
        #: What ``start`` opened (stdout printed above the app), closed when it ends.
        self._closing = contextlib.ExitStack()
        self.status = StatusLine()
        self.ui = TuiUI(self)
        self.dialogs = DialogHost(self.invalidate)
        #: Hook widgets by key: placement ("above"/"below" the editor, or the
        #: "header"/"footer" a hook replaced) and the container shown.
        self.widgets: dict[str, tuple[str, AnyContainer]] = {}
        self.working_message: str | None = None
        self.usage = Usage()
        self._live_text = ""
        #: The streaming answer's rendered tail: (text length, width, ANSI), the render
        #: under way, and which answer it is (a render of an ended one is dropped).
        self._live_cache: tuple[int, int, StyleAndTextTuples] = (-1, -1, [])
        self._live_rendered_at = 0.0
        self._live_job: asyncio.Future[None] | None = None
        self._live_generation = 0
        self._live = LiveAnswer(LIVE_TEXT_LINES)
        #: What the live area shows and what it was made from (see ``_live_fragments``).
        self._live_drawn: tuple[object, StyleAndTextTuples] = (None, [])
        self._tools: dict[str, _RunningTool] = {}
        #: Calls whose execution ended, shown once their result message (and any
        #: denial) is known.
        self._ended: dict[str, _RunningTool] = {}
        self._last_collapsed: tuple[str, Any, str, bool, bool] | None = None
        self._pending: list[RenderableType] = []
        self._printer: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._exit_armed = False
        self._ticker: asyncio.Task[None] | None = None
        self.editor = Buffer(
            multiline=True,
            history=FileHistory(history_path(cwd)),
            completer=SlashCompleter(self),
            complete_while_typing=True,
            on_text_changed=lambda _: self._disarm(),
        )
        self._editor_window = Window(
            BufferControl(self.editor),
            height=Dimension(min=1, max=10),
            dont_extend_height=True,
            wrap_lines=True,
            # a prefix, not a window beside the editor: a split shares out its width a
            # column at a time, at every frame
            get_line_prefix=_prompt_prefix,
        )
        self.app: Application[None] = Application(
            layout=Layout(self._root(), focused_element=self._editor_window),
            key_bindings=merge_key_bindings(
                [
                    load_key_bindings(),
                    self._bindings(),
                    DynamicKeyBindings(lambda: self._hook_keys),
                ]
            ),
            style=STYLE,
            full_screen=False,
            mouse_support=False,
            min_redraw_interval=0.03,
            erase_when_done=False,
        )
        self.app.ttimeoutlen = 0.05
        self.app.timeoutlen = 0.5

    @property
    def agent(self) -> Agent:
        """The agent; there is none before ``serve`` (everything reading it runs after)."""
        if self._agent is None:
            raise RuntimeError("the agent is still loading")
        return self._agent

    @property
    def bundle(self) -> AgentBundle:
        if self._bundle is None:
            raise RuntimeError("the agent is still loading")
        return self._bundle

    # -- layout ------------------------------------------------------------------

    def _root(self) -> AnyContainer:
        """The app, with a float for a hook's overlay component over it.

        The app draws only its own rows (not full screen): while an overlay is up,
        blank rows below the footer make room when the app is shorter than it.
        """
        app = self._app_rows()
        overlay = ConditionalContainer(
            DynamicContainer(self._overlay_container), filter=Condition(self._overlay_shown)
        )

        def room() -> Dimension:
            if not self._overlay_shown():
                return Dimension.exact(0)
            width = self.width()
            needed = overlay.preferred_height(width, 1000).preferred
            return Dimension.exact(max(needed - app.preferred_height(width, 1000).preferred, 0))

        return FloatContainer(
            HSplit([app, Window(height=room)]),
            floats=[_CenteredOver(overlay, app, self.width, self._overlay_shown)],
        )

    def _overlay(self) -> CustomDialog | None:
        dialog = self.dialogs.current
        return dialog if isinstance(dialog, CustomDialog) and dialog.overlay else None

    def _overlay_shown(self) -> bool:
        return self._overlay() is not None

    def _overlay_container(self) -> AnyContainer:
        dialog = self._overlay()
        return dialog.container if dialog is not None else Window(height=0)

    def _app_rows(self) -> HSplit:
        no_dialog = Condition(lambda: self.dialogs.current is None)
        return HSplit(
            [
                DynamicContainer(lambda: self._widget_box("header")),
                ConditionalContainer(
                    Window(
                        _StableText(self._live_fragments),
                        dont_extend_height=True,
                        wrap_lines=False,
                    ),
                    filter=Condition(lambda: bool(self._live_text or self._tools)),
                ),
                ConditionalContainer(
                    Window(FormattedTextControl(self._working_fragments), height=1),
                    filter=Condition(self.busy),
                ),
                DynamicContainer(lambda: self._widget_box("above")),
                Window(height=1, char="─", style="class:rule"),
                DynamicContainer(self._center),
                ConditionalContainer(
                    CompletionsMenu(max_height=8, scroll_offset=1),
                    filter=no_dialog & has_completions,
                ),
                DynamicContainer(lambda: self._widget_box("below")),
                DynamicContainer(self._footer),
                ConditionalContainer(
                    Window(FormattedTextControl(self._status_fragments), height=1),
                    filter=Condition(lambda: bool(self.status.items())),
                ),
            ]
        )

    def _center(self) -> AnyContainer:
        dialog = self.dialogs.current
        if dialog is not None and self._overlay() is None:
            return dialog.container
        return self._editor_window

    def _footer(self) -> AnyContainer:
        replaced = [c for p, c in self.widgets.values() if p == "footer"]
        if replaced:
            return replaced[0]
        return Window(FormattedTextControl(self._footer_fragments), height=1, style="class:footer")

    def _widget_box(self, placement: str) -> AnyContainer:
        items = [c for p, c in self.widgets.values() if p == placement]
        return HSplit(items) if items else Window(height=0)

    def width(self) -> int:
        try:
            return max(self.app.output.get_size().columns, 20)
        except OSError:
            return 80

    def _live_fragments(self) -> StyleAndTextTuples:
        """The answer's tail and the running calls: the same list until one of them changes
        (the live area's control builds its lines only for a new one).

        Running calls are drawn again at the spinner's tick, not at each piece of output:
        a command printing thousands of lines a second costs ten renders a second.
        """
        width = self.width()
        answer = _NOTHING
        if self._live_text:
            self._render_live_text(width)
            answer = self._live_cache[2]
        frame = SPINNER[int(time.monotonic() * 10) % len(SPINNER)]
        # the objects themselves, not their ids: a new one may take a freed one's address
        key = (answer, width, tuple(self._tools.values()), frame if self._tools else "")
        if self._live_drawn[0] != key:
            self._live_drawn = (key, self._live_fragments_now(answer, frame, width))
        return self._live_drawn[1]

    def _live_fragments_now(
        self, answer: StyleAndTextTuples, frame: str, width: int
    ) -> StyleAndTextTuples:
        parts: list[str] = []
        for tool in self._tools.values():
            block = render.running_tool(
                tool.name, tool.args, tool.output, frame, width, self._render_call(tool), tool.lines
            )
            parts.append(render.to_ansi(block, width).rstrip("\n"))
        if not parts:
            return answer
        tools = _fragments("\n".join(parts))
        return [*answer, ("", "\n"), *tools] if answer else tools

    def _render_live_text(self, width: int) -> None:
        """Start rendering the streaming answer's tail, off the loop, when it changed.

        One render at a time, at most every ``LIVE_RENDER_INTERVAL``; the frame
        shows the last finished one meanwhile, so keys are read while it renders.
        """
        size = (len(self._live_text), width)
        if self._live_cache[:2] == size or self._live_job is not None:
            return
        now = time.monotonic()
        if self._live_cache[1] == width and now - self._live_rendered_at < LIVE_RENDER_INTERVAL:
            return
        self._live_rendered_at = now
        self._live_job = asyncio.ensure_future(
            self._render_live(self._live_text, width, self._live_generation)
        )

    async def _render_live(self, text: str, width: int, generation: int) -> None:
        try:
            fragments = await asyncio.to_thread(_live_answer, self._live, text, width)
        finally:
            self._live_job = None
        if generation == self._live_generation:  # still the same answer
            self._live_cache = (len(text), width, fragments)
            self.invalidate()

    def _working_fragments(self) -> StyleAndTextTuples:
        frame = SPINNER[int(time.monotonic() * 10) % len(SPINNER)]
        if not self.loaded.is_set() and self._leaving:  # the app's last frame
            return [("class:working", "Exiting once the hooks are loaded…")]
        if not self.loaded.is_set():
            queued = f" {len(self._queued)} queued" if self._queued else ""
            text, keys = f"Loading hooks…{queued}", "(ctrl+c to exit)"
        elif self.dialogs.current is not None:
            text, keys = "Waiting for your answer…", "(esc to cancel)"
        else:
            text = self.working_message or ("Running tool…" if self._tools else "Working…")
            keys = "(ctrl+c to stop)"
        return [("class:working", f"{frame} {text} "), ("class:footer", keys)]

    def _footer_fragments(self) -> StyleAndTextTuples:
        if self._agent is None or not self.loaded.is_set():
            line = loading_line(self.model, self.width())
        else:
            line = footer_line(self._agent, self.usage, self.width())
        return [("class:footer", line)]

    def _status_fragments(self) -> StyleAndTextTuples:
        return [("class:status", self.status.render(self.width()))]

    # -- keys --------------------------------------------------------------------

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        in_editor = has_focus(self.editor) & Condition(lambda: self.dialogs.current is None)
        empty = Condition(lambda: not self.editor.text)

        @kb.add("enter", filter=in_editor)
        def _enter(event: KeyPressEvent) -> None:
            state = self.editor.complete_state
            if state is not None and state.current_completion is not None:
                self.editor.complete_state = None  # accept the completion, do not send
                return
            self.submit()

        @kb.add("escape", "enter", filter=in_editor)
        @kb.add("c-j", filter=in_editor)
        def _newline(event: KeyPressEvent) -> None:
            self.editor.newline(copy_margin=False)

        @kb.add("c-c", filter=in_editor)
        def _interrupt(event: KeyPressEvent) -> None:
            self.interrupt()

        @kb.add("c-d", filter=in_editor & empty)
        def _eof(event: KeyPressEvent) -> None:
            self.exit()

        @kb.add("escape", filter=in_editor)
        def _escape(event: KeyPressEvent) -> None:
            if self.editor.complete_state is not None:
                self.editor.cancel_completion()
            elif self.busy() and self.loaded.is_set():
                self.stop_turn()

        @kb.add("c-o", filter=in_editor)
        def _expand(event: KeyPressEvent) -> None:
            self.expand_last()

        return kb

    def _bind_shortcuts(self, agent: Agent) -> None:
        """The hooks' ``register_shortcut`` keys, bound once they are loaded."""
        in_editor = has_focus(self.editor) & Condition(lambda: self.dialogs.current is None)
        kb = KeyBindings()
        for key in agent.runner.get_registered_shortcuts():
            kb.add(*prompt_toolkit_keys(key), filter=in_editor)(self._shortcut(key))
        self._hook_keys = kb

    def _shortcut(self, key: str) -> Callable[[KeyPressEvent], None]:
        def run(event: KeyPressEvent) -> None:
            self.spawn(self.agent.runner.run_shortcut(key))

        return run

    def _disarm(self) -> None:
        self._exit_armed = False

    # -- actions -----------------------------------------------------------------

    def busy(self) -> bool:
        if self._agent is None or not self.loaded.is_set():
            return True  # loading
        return self._agent.is_streaming or bool(self._tasks)

    def submit(self) -> None:
        text = self.editor.text
        if not text.strip():
            return
        self.editor.append_to_history()
        self.editor.reset()
        self._exit_armed = False
        if not self.loaded.is_set():
            # Nothing reaches the model before the hooks that watch it are loaded.
            self._queued.append(text)
            self.invalidate()
            return
        # Ctrl+C cancels a running `!cmd` (its process group is killed); a turn is
        # stopped through agent.abort() instead, so it ends cleanly.
        self.spawn(self.handle(text), command=text.lstrip().startswith("!"))

    def interrupt(self) -> None:
        """Ctrl+C: stop the turn; clear the editor; on an empty idle editor, twice exits.

        While loading it exits (the agent still starts and shuts down once loaded).
        """
        if not self.loaded.is_set():
            self.exit()
        elif self.busy():
            self.stop_turn()
        elif self.editor.text:
            self.editor.reset()
        elif self._exit_armed:
            self.exit()
        else:
            self._exit_armed = True
            self.notice("press ctrl+c again to exit (or ctrl+d)")

    def stop_turn(self) -> None:
        self.agent.abort()
        for task in list(self._tasks):
            if getattr(task, "_hookline_command", False):
                task.cancel()
        self.notice("stopped", "warning")

    def exit(self) -> None:
        self._leaving = True
        self.dialogs.cancel_all()
        if self.app.is_running and self.app.future is not None and not self.app.future.done():
            self.app.exit()

    def expand_last(self) -> None:
        if self._last_collapsed is None:
            self.notice("nothing to expand")
            return
        name, args, result, is_error, blocked = self._last_collapsed
        block, _ = render.tool_block(
            name,
            args,
            result,
            is_error=is_error,
            blocked=blocked,
            width=self.width(),
            expanded=True,
        )
        self.print(block)

    def spawn(self, coro: Coroutine[Any, Any, Any], *, command: bool = False) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(self._guard(coro))
        task._hookline_command = command  # type: ignore[attr-defined]
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        self._tick()
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        self.invalidate()

    async def _guard(self, coro: Coroutine[Any, Any, Any]) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            pass
        except _hook_failures() as exc:
            self.notice(f"{type(exc).__name__}: {exc}", "error")

    async def handle(self, text: str) -> None:
        """One submitted editor text: ``/command``, ``!bash``, ``!!bash`` or a prompt."""
        stripped = text.strip()
        if stripped.startswith("!"):
            keep = not stripped.startswith("!!")
            command = stripped[1 if keep else 2 :].strip()
            await self.user_bash(command, keep)
        elif stripped.startswith("/") and not stripped.startswith("//"):
            await self.command(stripped[1:])
            self._refresh_usage()
        else:
            await self.agent.prompt(text)

    async def user_bash(self, command: str, keep: bool) -> None:
        if not command:
            return
        self.print(render.user_block(("!" if keep else "!!") + command))
        result = await self.agent.run_user_bash(command)
        output = content_text(result.content)
        details = result.details if isinstance(result.details, dict) else {}
        failed = bool(details.get("exit_code"))
        block, collapsed = render.tool_block(
            "$", {"command": command}, output, is_error=failed, blocked=False, width=self.width()
        )
        if collapsed:
            self._last_collapsed = ("$", {"command": command}, output, failed, False)
        self.print(block)
        if keep:
            self.agent.send_message(
                {
                    "role": "custom",
                    "custom_type": "user_bash",
                    "content": f"I ran `{command}` in the shell:\n{output}",
                    "display": False,
                },
                False,
            )

    async def command(self, text: str) -> None:
        name, _, args = text.partition(" ")
        builtin = BUILTINS.get(name)
        if builtin is not None:
            await builtin.run(self, args)
        elif not await self.agent.runner.run_command(name, args):
            self.notice(f"no command /{name} (try /help)", "warning")

    def known_models(self) -> list[str]:
        current = self.agent.provider.model_id
        seen = [current]
        for entry in self.agent.session.get_entries():
            if entry.get("type") == "model_change":
                for spec in (entry.get("model"), entry.get("previous")):
                    if isinstance(spec, str) and spec and spec not in seen:
                        seen.append(spec)
        return seen

    async def ask(self, dialog: Dialog) -> Any:
        """Show a dialog (after any already open) and return its answer."""
        if not self.app.is_running:
            return dialog.default
        try:
            return await self.dialogs.run(dialog)
        finally:
            with contextlib.suppress(ValueError):
                self.app.layout.focus(self._editor_window)

    # -- output ------------------------------------------------------------------

    def invalidate(self) -> None:
        dialog = self.dialogs.current
        if dialog is not None and self.app.is_running:
            with contextlib.suppress(ValueError):
                if not self.app.layout.has_focus(dialog.container):
                    self.app.layout.focus(dialog.focus)
        if self.app.is_running:
            self.app.invalidate()

    def print(self, renderable: RenderableType) -> None:
        """Print a finished block above the app (batched into one redraw)."""
        self._pending.append(renderable)
        if self._printer is None or self._printer.done():
            self._printer = asyncio.ensure_future(self._flush())

    def notice(self, text: str, kind: str = "info") -> None:
        self.print(render.notice(text, kind))

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # let a burst of events land in one batch
        while self._pending:
            batch, self._pending = self._pending, []
            width = self.width()
            # Rendered off the loop: an expanded 5 000-line output takes rich most of a
            # second, and keys go on being read meanwhile. Batches stay in order.
            self._write_above(await asyncio.to_thread(_render_batch, batch, width))

    def _write_above(self, text: str) -> None:
        """Erase the live part, write ``text`` where it was, and draw the live part below.

        Unlike ``run_in_terminal`` the input stays attached and in raw mode: a key
        typed while output streams is never cooked (Ctrl+C a SIGINT, Ctrl+D lost).
        """
        output = self.app.output
        running = self.app.is_running and not self.app.is_done
        if running:
            self.app.renderer.erase()
        output.write_raw(text.replace("\n", "\r\n"))
        output.flush()
        if running:
            self.app.renderer.reset()
            self.app.renderer.request_absolute_cursor_position()
            self.app.invalidate()

    async def drain(self) -> None:
        """Wait until everything printed so far is on the screen."""
        while self._printer is not None and not self._printer.done():
            await self._printer

    def _tick(self) -> None:
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.ensure_future(self._spin())

    async def _spin(self) -> None:
        while self.busy() and self.app.is_running:
            self.app.invalidate()
            await asyncio.sleep(0.1)
        self.invalidate()

    # -- agent events ------------------------------------------------------------

    def on_event(self, payload: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "text_delta":
            # no redraw per delta: the render started here redraws when it is done
            self._live_text += str(payload.get("text", ""))
            self._render_live_text(self.width())
            self._tick()
        elif kind == "message":
            self._on_message(payload["message"])
        elif kind == "tool_execution_start":
            call_id = str(payload.get("tool_call_id"))
            self._tools[call_id] = _RunningTool(str(payload.get("tool_name")), payload.get("input"))
            self._tick()
            self.invalidate()
        elif kind == "tool_execution_update":
            tool = self._tools.get(str(payload.get("tool_call_id")))
            if tool is not None:
                partial = payload.get("partial_result")
                if isinstance(partial, dict):  # {"content": [...], "details": ...}
                    partial = content_text(partial.get("content") or [])
                # drawn at the spinner's next tick (``_live_fragments``)
                tool.add_output(partial if isinstance(partial, str) else str(partial or ""))
        elif kind == "tool_execution_end":
            call_id = str(payload.get("tool_call_id"))
            ended = self._tools.pop(call_id, None)
            if ended is not None:
                self._ended[call_id] = ended
            self.invalidate()
        elif kind == "settings_hook_outcome":
            self._settings_outcome(payload)
        elif kind == "auto_retry_start":
            self.notice(
                f"model call failed ({payload.get('error')}); retry {payload.get('attempt')}"
                f"/{payload.get('max_attempts')} in {int(payload.get('delay_ms') or 0)} ms",
                "warning",
            )
        elif kind in _SESSION_CHANGES:
            self._refresh_usage()

    def _on_message(self, message: dict[str, Any]) -> None:
        role = message.get("role")
        if role == "user":
            self.print(render.styled())  # a blank line before each of your messages
            self.print(render.user_block(content_text(message["content"])))
        elif role == "assistant":
            self._live_text = ""
            self._live_cache = (-1, -1, [])
            self._live_generation += 1
            text = content_text(message["content"]).strip()
            if text and message.get("stop_reason") != "error":
                self.print(render.markdown(text))
            if message.get("stop_reason") == "aborted":
                self.print(render.dim("(interrupted)"))
            # stop_reason "error": the agent already notified the error
        elif role == "tool":
            self._tool_done(message)
        elif role == "custom" and message.get("display", True):
            self.print(self._custom(message))
        self._refresh_usage()

    def _custom(self, message: dict[str, Any]) -> RenderableType:
        custom_type = str(message.get("custom_type", ""))
        content = message.get("content", "")
        text = content if isinstance(content, str) else content_text(content)
        renderer = self.agent.runner.get_message_renderer(custom_type)
        if renderer is not None:
            try:
                shown = renderer(message, {"expanded": False, "width": self.width()})
            except _hook_failures() as exc:
                self.agent.runner.report("", f"renderer:{custom_type}", exc)
                shown = None
            if isinstance(shown, str):
                return render.styled(render.clean(shown))
            if shown is not None and (
                hasattr(shown, "__rich_console__") or hasattr(shown, "__rich__")
            ):
                return shown  # type: ignore[no-any-return]
        return render.custom_message(custom_type, text)

    def _tool_done(self, message: dict[str, Any]) -> None:
        """A tool result landed: the call's block, with who blocked it and why if it was."""
        call_id = str(message.get("tool_call_id"))
        tool = (
            self._ended.pop(call_id, None)
            or self._tools.pop(call_id, None)
            or _RunningTool(str(message.get("tool_name")), {})
        )
        text = content_text(message.get("content") or [])
        is_error = bool(message.get("is_error"))
        denial = next((d for d in reversed(self.agent.denials) if d.tool_call_id == call_id), None)
        blocked = denial is not None
        if denial is not None:
            text = f"{self._blocked_by(denial, tool)}: {denial.reason}"
            if denial.hint:
                text += f"\n{denial.hint}"
        block, collapsed = render.tool_block(
            tool.name,
            tool.args,
            text,
            is_error=is_error,
            blocked=blocked,
            width=self.width(),
            call=self._render_call(tool),
        )
        own = None if blocked else self._render_result(tool, text, is_error)
        if own is not None:
            mark, style = render.tool_mark(is_error, False)
            call = self._render_call(tool)
            self.print(render.tool_header(tool.name, tool.args, mark, style, self.width(), call))
            self.print(render.indented(own, 4))
        else:
            if collapsed:
                self._last_collapsed = (tool.name, tool.args, text, is_error, blocked)
            self.print(block)
        self.invalidate()

    def _blocked_by(self, denial: Denial, tool: _RunningTool) -> str:
        """Who stopped a call: the hook file, the settings hooks (command and file), ..."""
        from hookline.claude.adapter import SETTINGS_HOOK_PATH

        if denial.hook == SETTINGS_HOOK_PATH and tool.blockers:
            return "by " + ", ".join(tool.blockers)
        if denial.hook and denial.hook != SETTINGS_HOOK_PATH:
            kind = "permission_request hook" if denial.source == "permission_request" else "hook"
            return f"by {kind} {self.short_path(denial.hook)}"
        return _BLOCKED_BY.get(denial.source, denial.source)

    def short_path(self, path: str) -> str:
        """``path`` relative to the project when inside it, else with ``~`` for home."""
        return short_path(path, self.agent.cwd)

    def _tool_meta(self, name: str, key: str) -> Any:
        tool = self.agent.tools.get(name)
        fn = tool.meta.get(key) if tool is not None else None
        return fn if callable(fn) else None

    def _render_call(self, tool: _RunningTool) -> str | None:
        """A tool's own ``meta["render_call"](args)`` text; errors fall back to the default."""
        fn = self._tool_meta(tool.name, "render_call")
        if fn is None:
            return None
        try:
            text = fn(tool.args if isinstance(tool.args, dict) else {})
        except _hook_failures() as exc:
            self.agent.runner.report("", f"render_call:{tool.name}", exc)
            return None
        return str(text) if text is not None else None

    def _render_result(self, tool: _RunningTool, text: str, is_error: bool) -> Any:
        """A tool's own ``meta["render_result"](text, options)``: a string or rich renderable."""
        fn = self._tool_meta(tool.name, "render_result")
        if fn is None:
            return None
        options = {"expanded": False, "is_error": is_error, "width": self.width()}
        try:
            shown = fn(text, options)
        except _hook_failures() as exc:
            self.agent.runner.report("", f"render_result:{tool.name}", exc)
            return None
        if isinstance(shown, str):
            return render.styled(render.clean(shown))
        if hasattr(shown, "__rich_console__") or hasattr(shown, "__rich__"):
            return shown
        return None

    def _settings_outcome(self, payload: dict[str, Any]) -> None:
        """A settings hook that blocked: shown on its tool call (PreToolUse) or as a notice.

        Non-blocking errors and cancellations are not shown here: the settings
        hooks notify them themselves (``ctx.ui.notify``).
        """
        decided = (
            payload.get("kind") == "blocking"
            or payload.get("permission_decision") == "deny"
            or payload.get("continue_") is False
        )
        if not decided:
            return
        label = self._settings_label(payload)
        running = list(self._tools.values())
        if payload.get("event") == "PreToolUse" and running:
            running[-1].blockers.append(label)  # calls run one at a time: the last started
            return
        reason = payload.get("reason") or payload.get("permission_decision_reason") or ""
        self.notice(f"{label} blocked" + (f": {reason}" if reason else ""), "warning")

    def _settings_label(self, payload: dict[str, Any]) -> str:
        """``PreToolUse hook `./guard.sh` in .claude/settings.json``: what ran, from where."""
        event = str(payload.get("event"))
        hook_id = payload.get("hook_id")
        claude = self.bundle.claude
        table = claude.engine.table if claude is not None else None
        definitions = table.by_event.get(event, []) if table is not None else []
        found = next((d for d in definitions if d.id == hook_id), None)
        what = found.describe() if found is not None else str(payload.get("hook_type"))
        origin = str(payload.get("origin") or "")
        where = self.short_path(origin) if origin.startswith("/") else origin
        return f"{event} hook `{one_line_text(what)}` in {where}"

    def _refresh_usage(self) -> None:
        self.usage = measure(self.agent)
        self.invalidate()

    # -- hook UI pieces ----------------------------------------------------------

    def set_widget(self, key: str, content: WidgetContent | None, placement: str) -> None:
        if content is None:
            self.widgets.pop(key, None)
        elif callable(content):
            self.widgets[key] = (placement, content())
        else:
            lines = [strip_terminal_controls(str(line)) for line in content]
            self.widgets[key] = (
                placement,
                Window(
                    FormattedTextControl([("class:widget", "\n".join(lines))]),
                    dont_extend_height=True,
                    wrap_lines=True,
                ),
            )
        self.invalidate()

    def replay_session(self) -> None:
        """After ``/resume``: the last messages of the resumed conversation."""
        messages = self.agent.session.build_context_messages()[-10:]
        for message in messages:
            if message["role"] in ("user", "assistant", "custom"):
                self._on_message(dict(message))

    # -- running -----------------------------------------------------------------

    async def start(self) -> None:
        """Draw the first frame (header, editor, a loading footer); keys are read from now on.

        Only prompt_toolkit is needed for it: the agent is imported and built
        meanwhile, and comes with ``serve``.
        """
        self._closing.enter_context(patch_stdout(raw=False))
        header = f"hookline · {self.cwd} · /help for commands, ctrl+d to exit"
        self._write_above(render.dim_ansi(header, self.width()))
        drawn = asyncio.Event()
        self._app_task = asyncio.ensure_future(self.app.run_async(pre_run=drawn.set))
        await drawn.wait()
        await asyncio.sleep(0)  # the first frame is on the screen
        self._tick()

    async def serve(self, agent: Agent, bundle: AgentBundle) -> int:
        """Hand the loaded agent over and run until the user exits (at once if they already
        did while it loaded); the caller shuts the agent down."""
        assert self._app_task is not None, "start() draws the app first"
        app_task = self._app_task
        unsubscribe = agent.subscribe(self.on_event)
        warm_up: asyncio.Future[None] | None = None
        try:
            self._agent, self._bundle = agent, bundle
            agent.runner.set_ui(self.ui, True)
            self._bind_shortcuts(agent)
            self._refresh_usage()
            warm_up = asyncio.ensure_future(asyncio.to_thread(_warm_up))
            await agent.start()
            self.loaded.set()
            if self._queued and self.app.is_running:
                self.spawn(self._send_queued())
            self.invalidate()
            # Shielded: a cancel (SIGTERM) ends the app the normal way, terminal restored,
            # and is then raised here, not swallowed by the app.
            await asyncio.shield(app_task)
        except BaseException:
            self.exit()
            await asyncio.gather(app_task, return_exceptions=True)
            raise
        finally:
            self.dialogs.cancel_all()
            if agent.is_streaming:
                agent.abort()
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            unsubscribe()
            if warm_up is not None:
                await asyncio.gather(warm_up, return_exceptions=True)
            self._closing.close()
        return 0

    async def close(self) -> None:
        """End the app without an agent (it failed to load): its frame is erased, so the
        error printed next stands alone, and the terminal is restored."""
        if not self.loaded.is_set():
            self.app.erase_when_done = True
        self.exit()
        if self._app_task is not None:
            await asyncio.gather(self._app_task, return_exceptions=True)
        self._closing.close()

    async def _send_queued(self) -> None:
        """What was submitted while loading, in order, each once the one before is done."""
        while self._queued:
            await self.handle(self._queued.pop(0))


class _StableText(FormattedTextControl):
    """A text control for text that changes now and then (the live area): its lines are
    built once per text and width.

    prompt_toolkit's control splits the text into lines and searches it for a cursor
    at every call, and a frame asks a dozen times (heights, then drawing): with a
    screenful of highlighted Markdown that was most of a frame while an answer
    streamed. ``text`` must return the same list object while nothing changed.
    """

    def __init__(self, text: Callable[[], StyleAndTextTuples]) -> None:
        self._source = text
        self._current: StyleAndTextTuples = []
        super().__init__(lambda: self._current)
        self._made: tuple[object, int, UIContent] | None = None

    def create_content(self, width: int, height: int | None) -> UIContent:
        fragments = self._source()
        made = self._made
        if made is not None and made[0] is fragments and made[1] == width:
            return made[2]
        # built from these fragments (prompt_toolkit keeps one text per frame otherwise)
        self._current = fragments
        self._fragment_cache.clear()
        content = super().create_content(width, height)
        self._made = (fragments, width, content)
        return content


class _CenteredOver(Float):
    """A float centred on the rows the app draws, not on the terminal.

    The app is not full screen: its drawing area reaches the terminal's bottom
    while its rows may end higher, so ``top`` is measured again at each frame.
    """

    def __init__(
        self,
        content: Container,
        over: Container,
        width: Callable[[], int],
        shown: Callable[[], bool],
    ) -> None:
        super().__init__(content, z_index=10)
        self._content, self._over, self._width, self._shown = content, over, width, shown

    @property  # type: ignore[override]
    def top(self) -> int:
        if not self._shown():
            return 0  # nothing floats: measuring the app here cost a third of each frame
        width = self._width()
        rows = self._over.preferred_height(width, 1000).preferred
        height = self._content.preferred_height(width, 1000).preferred
        return max((rows - height) // 2, 0)

    @top.setter
    def top(self, value: int | None) -> None:
        """Set by ``Float.__init__``; the position is always computed."""


def _prompt_prefix(line: int, wrapped: int) -> StyleAndTextTuples:
    """``› `` before the editor's first line, two spaces before the others."""
    return [("class:prompt", "› " if line == 0 and wrapped == 0 else "  ")]


def short_path(path: str, cwd: str) -> str:
    """``path`` relative to ``cwd`` when inside it, else with ``~`` for the home folder."""
    try:
        return str(Path(path).relative_to(cwd))
    except ValueError:
        pass
    home = str(Path.home())
    if path == home or path.startswith(home.rstrip("/") + "/"):
        return "~" + path[len(home.rstrip("/")) :]
    return path


def one_line_text(text: str) -> str:
    """A command as one line, cut at 60 characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= 60 else flat[:59] + "…"


def _live_answer(live: LiveAnswer, text: str, width: int) -> StyleAndTextTuples:
    """The last ``LIVE_TEXT_LINES`` lines of a streaming answer, rendered (only its open
    block anew) and parsed into prompt_toolkit fragments once (parsing ANSI at every
    frame slowed typing down)."""
    return _fragments(live.tail(text, width))


def _fragments(ansi: str) -> StyleAndTextTuples:
    """ANSI text as prompt_toolkit fragments, without the plain spaces rich pads lines with
    to the width: a frame copies every cell of the live area, one at a time."""
    lines = ansi.split("\n")
    return list(ANSI("\n".join(line.rstrip(" ") for line in lines)).__pt_formatted_text__())


def _hook_failures() -> tuple[type[BaseException], ...]:
    """What a hook's renderer or command may raise without ending the app (the runner's
    ``HOOK_FAILURES``, imported when one is raised: it is not needed for the first frame)."""
    from hookline.core.calling import HOOK_FAILURES

    return HOOK_FAILURES


def _render_batch(batch: list[RenderableType], width: int) -> str:
    return "".join(render.to_ansi(r, width) for r in batch)


def _warm_up() -> None:
    """Import what the first answer needs while the user types the first prompt."""
    render.to_ansi(render.markdown("*warm* `up`\n\n```python\nx = 1\n```"), 80)
