"""The terminal app: transcript above, live activity, dialogs or the editor, the footer.

Finished blocks (your messages, answers, tool calls, notices) are printed
into the terminal's scrollback once (``scrollback``, ``transcript``); only
the bottom part is redrawn (``layout``): what is streaming or running now
(``live_area``, drawn from ``activity``), widgets, the editor or a dialog,
the footer. ``TuiApp`` wires these together, owns the keys and the agent's
arrival, and answers ``host.CommandHost`` for ``ctx.ui`` and the commands.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import ThreadedCompleter, merge_completers
from prompt_toolkit.filters import Condition, Filter, has_focus
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import FileHistory
from prompt_toolkit.key_binding import (
    DynamicKeyBindings,
    KeyBindings,
    merge_key_bindings,
)
from prompt_toolkit.key_binding.defaults import load_key_bindings
from prompt_toolkit.layout import BufferControl, Dimension, Layout, Window
from prompt_toolkit.styles import DynamicStyle

from hookline.components.overlay_stack import OverlayStack
from hookline.core.paths import hookline_home
from hookline.core.ui import StatusLine
from hookline.modes.tui import render
from hookline.modes.tui.activity import Activity, Update
from hookline.modes.tui.commands import SlashCompleter
from hookline.modes.tui.component_host import ComponentControl, OverlayViews
from hookline.modes.tui.dialogs import CustomDialog, Dialog, DialogHost
from hookline.modes.tui.files import FileCompleter, FileIndex, project_paths
from hookline.modes.tui.footer import (
    Usage,
    footer_fragments,
    loading_line,
    measure,
    model_label,
)
from hookline.modes.tui.footer_data import BRANCH_POLL_INTERVAL, FooterData
from hookline.modes.tui.idle import IDLE_MESSAGE, IdleNotifier, idle_seconds
from hookline.modes.tui.keys import editor_keys, shortcut_keys
from hookline.modes.tui.layout import Rows, Widgets, prompt_prefix
from hookline.modes.tui.live_area import LiveArea, spinner_frame
from hookline.modes.tui.preview import ApprovalPreview
from hookline.modes.tui.prompt import Prompt
from hookline.modes.tui.scrollback import (
    Scrollback,
    printed_above,
    terminal_height,
    terminal_width,
)
from hookline.modes.tui.style import Palette, startup_theme
from hookline.modes.tui.submissions import Submissions
from hookline.modes.tui.tasks import Tasks
from hookline.modes.tui.transcript import Transcript
from hookline.modes.tui.ui import TuiUI
from hookline.session.storage import project_slug

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from rich.console import RenderableType

    from hookline.agent.agent import Agent
    from hookline.agent.setup import AgentBundle
    from hookline.core.theme import Theme

#: Messages of a resumed conversation redrawn (the rest stays in the session file).
_REPLAYED = 30


def history_path(cwd: str) -> str:
    """The editor history file of one project, under ``$HOOKLINE_HOME/history``."""
    folder = hookline_home() / "history"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / f"{project_slug(cwd)}.txt")


class TuiApp:
    """One interactive session on the terminal.

    The app is drawn before the agent exists (``start``): the editor takes keys
    while the agent and its hooks load, and what is submitted meanwhile waits
    in order until ``serve`` hands the agent over.
    """

    #: The preview of the call a dialog asks about (made once the app exists).
    preview: ApprovalPreview

    def __init__(self, cwd: str, model: str = "") -> None:
        self.cwd = cwd
        #: The model named on the command line, shown in the footer until the agent is here.
        self.model = model
        self._agent: Agent | None = None
        self._bundle: AgentBundle | None = None
        #: Set once the agent (and so every hook) is loaded; submissions wait for it.
        self.loaded = asyncio.Event()
        self._app_task: asyncio.Future[None] | None = None
        self._hook_keys = KeyBindings()
        self._leaving = False
        self._exit_armed = False
        #: What ``start`` opened (stdout printed above the app), closed when it ends.
        self._closing = contextlib.ExitStack()
        self._ticker: asyncio.Task[None] | None = None
        self.status = StatusLine(keep_style=True)
        self.palette = Palette(startup_theme())
        self.ui = TuiUI(self)
        self.dialogs = DialogHost(self.invalidate)
        self.overlays = OverlayStack(self.size, self.invalidate)
        self.overlay_views = OverlayViews(self.overlays, self.invalidate)
        self.widgets = Widgets(self.width)
        self.working_message: str | None = None
        self.usage = Usage()
        self.activity = Activity()
        #: The paths ``@`` completes; made once the agent (its Read-deny rules) is here.
        self.files: FileIndex | None = None
        self.editor = Buffer(
            multiline=True,
            history=FileHistory(history_path(cwd)),
            # paths are listed in a worker thread: a large tree never holds up the keys
            completer=merge_completers(
                [SlashCompleter(self), ThreadedCompleter(FileCompleter(lambda: self.files))]
            ),
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
            get_line_prefix=prompt_prefix,
        )
        self.prompt = Prompt(self.editor, self._editor_window, self)
        self.app: Application[None] = Application(
            key_bindings=merge_key_bindings(
                [
                    load_key_bindings(),
                    editor_keys(self.editor, self._in_editor(), self),
                    DynamicKeyBindings(lambda: self._hook_keys),
                    DynamicKeyBindings(lambda: self.preview.keys),
                ]
            ),
            style=DynamicStyle(lambda: self.palette.style),
            full_screen=False,
            mouse_support=False,
            min_redraw_interval=0.03,
            erase_when_done=False,
        )
        self.app.ttimeoutlen = 0.05
        self.app.timeoutlen = 0.5
        self.scrollback = Scrollback(self.app, self.palette)
        self.transcript = Transcript(self.scrollback, self.width, self, lambda: self.palette.theme)
        self.live = LiveArea(
            self.activity,
            self.width,
            self.invalidate,
            self.transcript.call_text,
            self.palette,
            self.transcript.partial_result,
        )
        self._footer_data = FooterData(cwd, self.status, self._model_label, lambda: self.usage)
        self._branch_watch: asyncio.Task[None] | None = None
        self.preview = ApprovalPreview(
            self.activity,
            self,
            self._inline_dialog,
            self.width,
            lambda: terminal_height(self.app),
            self.invalidate,
            self.palette,
        )
        self.tasks = Tasks(self.notice, self._tick, self.invalidate)
        self.submissions = Submissions(self, self.tasks, self.transcript, self._refresh_usage)
        rows = Rows(
            dialogs=self.dialogs,
            preview=self.preview,
            widgets=self.widgets,
            live=self.live,
            prompt=self.prompt,
            working=self._working_fragments,
            busy=self.busy,
            footer=self._footer_fragments,
            status=self.status,
            width=self.width,
            height=lambda: terminal_height(self.app),
            overlays=self.overlay_views,
        )
        self.app.layout = Layout(rows.root(), focused_element=self._editor_window)
        self.idle = IdleNotifier(idle_seconds(), self._waits_quietly, self._idle_notification)
        self.app.key_processor.before_key_press += lambda _: self.idle.touched()

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

    def width(self) -> int:
        return terminal_width(self.app)

    # -- what the rows show ------------------------------------------------------

    def _working_fragments(self) -> StyleAndTextTuples:
        frame = spinner_frame()
        if not self.loaded.is_set() and self._leaving:  # the app's last frame
            return [("class:working", "Exiting once the hooks are loaded…")]
        if not self.loaded.is_set():
            queued = self.submissions.queued
            text = f"Loading hooks…{f' {len(queued)} queued' if queued else ''}"
            keys = "(ctrl+c to exit)"
        elif self.dialogs.current is not None:
            text, keys = "Waiting for your answer…", "(esc to cancel)"
        else:
            running = self.activity.running
            text = self.working_message or ("Running tool…" if running else "Working…")
            keys = "(ctrl+c to stop)"
        return [("class:working", f"{frame} {text} "), ("class:footer", keys)]

    def _footer_fragments(self) -> StyleAndTextTuples:
        if self._agent is None or not self.loaded.is_set():
            return [("class:footer", loading_line(self.model, self.width()))]
        return footer_fragments(self._agent, self.usage, self.width())

    # -- keys --------------------------------------------------------------------

    def _in_editor(self) -> Filter:
        return has_focus(self.editor) & Condition(lambda: self.dialogs.current is None)

    def _inline_dialog(self) -> bool:
        """A dialog is up in the editor's place (not a hook's overlay)."""
        dialog = self.dialogs.current
        return dialog is not None and not (isinstance(dialog, CustomDialog) and dialog.overlay)

    def _disarm(self) -> None:
        self._exit_armed = False

    # -- actions -----------------------------------------------------------------

    def busy(self) -> bool:
        if self._agent is None or not self.loaded.is_set():
            return True  # loading
        return self._agent.is_streaming or self.tasks.running()

    def submit(self) -> None:
        text = self.editor.text
        if not text.strip():
            return
        self.editor.append_to_history()
        self.editor.reset()
        self.send(text)

    def send(self, text: str) -> None:
        """Send a prompt written in either editor (its history already has it)."""
        if self.files is not None:
            self.files.forget()  # the next prompt's @ lists the files again
        self._exit_armed = False
        self.submissions.submit(text)

    def interrupt(self) -> None:
        """Ctrl+C: stop the turn; clear the editor; on an empty idle editor, twice exits.

        While loading it exits (the agent still starts and shuts down once loaded).
        """
        if not self.loaded.is_set():
            self.exit()
        elif self.busy():
            self.stop_turn()
        elif self.prompt.text:
            self.prompt.clear()
        elif self._exit_armed:
            self.exit()
        else:
            self._exit_armed = True
            self.notice("press ctrl+c again to exit (or ctrl+d)")

    def stop(self) -> None:
        """Esc: stop the turn, if one runs (not while the agent loads)."""
        if self.busy() and self.loaded.is_set():
            self.stop_turn()

    def toggle_expanded(self) -> None:
        self.transcript.toggle_expanded()

    def cycle_mode(self) -> None:
        """Shift+Tab: the next permission mode, from the next tool call (not while loading)."""
        if self._agent is None or not self.loaded.is_set():
            return
        from hookline.agent.mode_cycle import next_mode

        gate = self._agent.gate
        self._agent.set_permission_mode(
            next_mode(gate.mode, bypass_available=gate.bypass_available)
        )
        self.invalidate()

    def stop_turn(self) -> None:
        self.agent.abort()
        self.tasks.cancel_commands()
        self.notice("stopped", "warning")

    def exit(self) -> None:
        self._leaving = True
        self.dialogs.cancel_all()
        self.overlays.clear()
        if self.app.is_running and self.app.future is not None and not self.app.future.done():
            self.app.exit()

    async def ask(self, dialog: Dialog) -> Any:
        """Show a dialog (after any already open) and return its answer."""
        if not self.app.is_running:
            return dialog.default
        try:
            return await self.dialogs.run(dialog)
        finally:
            with contextlib.suppress(ValueError):
                self.app.layout.focus(self.prompt.window)
            self._refocus()

    # -- output (and the rest of host.UIHost) -----------------------------------

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        self.prompt.replace(factory)
        if self.app.is_running and self.dialogs.current is None:
            with contextlib.suppress(ValueError):
                self.app.layout.focus(self.prompt.window)
        self.invalidate()

    def run_shortcut(self, data: str) -> bool:
        """A hook's shortcut pressed in a hook's editor: run it as the app's keys would."""
        from hookline.components import matches_key

        if self._agent is None or not self.loaded.is_set():
            return False
        for key in self._agent.runner.get_registered_shortcuts():
            if matches_key(data, key):
                self.tasks.spawn(self._agent.runner.run_shortcut(key))
                return True
        return False

    def invalidate(self) -> None:
        if self.app.is_running:
            self._refocus()
            self.app.invalidate()

    def _refocus(self) -> None:
        """The keys go to the overlay that has them, else to the dialog shown, else (once
        an overlay that had them is gone) to the editor."""
        layout = self.app.layout
        window = self.overlay_views.focused_window()
        dialog = self.dialogs.current
        with contextlib.suppress(ValueError):
            if window is not None:
                if not layout.has_focus(window):
                    layout.focus(window)
            elif dialog is not None:
                if not layout.has_focus(dialog.container):
                    layout.focus(dialog.focus)
            elif layout.current_window is not self.prompt.window and isinstance(
                layout.current_control, ComponentControl
            ):
                layout.focus(self.prompt.window)

    def print(self, renderable: RenderableType) -> None:
        """Print a finished block above the app (batched into one redraw)."""
        self.scrollback.print(renderable)

    def notice(self, text: str, kind: str = "info") -> None:
        self.scrollback.notice(text, kind)

    def set_widget(self, key: str, made: object | None, placement: str) -> None:
        self.widgets.set(key, made, placement)
        self.invalidate()

    @property
    def footer_data(self) -> FooterData:
        return self._footer_data

    def _model_label(self) -> str | None:
        return model_label(self._agent.provider.model_id) if self._agent is not None else None

    async def _watch_branch(self) -> None:
        """Look at the git branch now and then: a footer subscribed to it draws again."""
        while self.app.is_running:
            if self._footer_data.poll():
                self.invalidate()
            await asyncio.sleep(BRANCH_POLL_INTERVAL)

    @property
    def theme(self) -> Theme:
        return self.palette.theme

    def set_theme(self, theme: Theme) -> None:
        self.palette.theme = theme
        self.invalidate()

    @property
    def theme_files(self) -> list[Path]:
        return self.agent.resources.themes

    def set_working_message(self, text: str | None) -> None:
        self.working_message = text
        self.invalidate()

    def set_title(self, title: str) -> None:
        self.app.output.set_title(title)

    def size(self) -> tuple[int, int]:
        return self.width(), terminal_height(self.app)

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
        """One agent event: the activity moves on; what it finished is printed."""
        self._draw(self.activity.apply(payload))
        if payload.get("type") == "agent_end":
            self.idle.answered()

    def _waits_quietly(self) -> bool:
        """The prompt waits for the user alone: no dialog open, nothing running."""
        return self.dialogs.current is None and not self.busy()

    async def _idle_notification(self) -> None:
        from hookline.core.events import NotificationEvent

        await self.agent.emit(
            NotificationEvent(message=IDLE_MESSAGE, notification_type="idle_prompt")
        )

    def hooks_changed(self) -> None:
        """Bind the loaded hooks' shortcuts (at start, and again after ``/reload``)."""
        self._hook_keys = shortcut_keys(self.agent.runner, self._in_editor(), self.tasks.spawn)

    def replay_session(self) -> None:
        """At start-up and after ``/resume``: the end of the resumed conversation, its tool
        calls collapsed as they show once done."""
        messages = self.agent.session.build_context_messages()[-_REPLAYED:]
        for message in messages:
            if message["role"] in ("user", "assistant", "tool", "custom"):
                self._draw(self.activity.replayed(dict(message)))

    def _draw(self, update: Update) -> None:
        for shown in update.shown:
            self.transcript.show(shown)
        if update.answer:
            # no redraw per delta: the render started here redraws when it is done
            self.live.answer_changed(self.width())
            self._tick()
        if update.calls:
            self._tick()
            self.invalidate()
        if update.usage:
            self._refresh_usage()

    def _refresh_usage(self) -> None:
        self.usage = measure(self.agent)
        self.invalidate()

    # -- running -----------------------------------------------------------------

    async def start(self) -> None:
        """Draw the first frame (header, editor, a loading footer); keys are read from now on.

        Only prompt_toolkit is needed for it: the agent is imported and built
        meanwhile, and comes with ``serve``.
        """
        self._closing.enter_context(printed_above(self.scrollback))
        header = f"hookline · {self.cwd} · /help for commands, ctrl+d to exit"
        self.scrollback.write_above(render.dim_ansi(header, self.width(), self.palette.theme))
        drawn = asyncio.Event()
        self._app_task = asyncio.ensure_future(self.app.run_async(pre_run=drawn.set))
        await drawn.wait()
        await asyncio.sleep(0)  # the first frame is on the screen
        self._tick()

    async def serve(self, agent: Agent, bundle: AgentBundle, prompt: str | None = None) -> int:
        """Hand the loaded agent over and run until the user exits (at once if they already
        did while it loaded); the caller shuts the agent down. ``prompt`` (the command
        line's) is sent first, before what was typed while loading."""
        assert self._app_task is not None, "start() draws the app first"
        app_task = self._app_task
        unsubscribe = agent.subscribe(self.on_event)
        warm_up: asyncio.Future[None] | None = None
        try:
            self._agent, self._bundle = agent, bundle
            hide = agent.gate.rules.hide_predicate(agent.cwd)
            self.files = FileIndex(agent.cwd, project_paths(hide))
            agent.runner.set_ui(self.ui, True)
            self.hooks_changed()
            self._refresh_usage()
            warm_up = asyncio.ensure_future(asyncio.to_thread(_warm_up, self.palette.theme))
            self._branch_watch = asyncio.ensure_future(self._watch_branch())
            await agent.start()
            self.replay_session()  # a resumed session: its conversation before the prompt
            if prompt is not None:
                self.submissions.queued.insert(0, prompt)
            self.loaded.set()
            if self.app.is_running:
                self.submissions.send_queued()
            self.invalidate()
            # Shielded: a cancel (SIGTERM) ends the app the normal way, terminal restored,
            # and is then raised here, not swallowed by the app.
            await asyncio.shield(app_task)
        except BaseException:
            self.exit()
            await asyncio.gather(app_task, return_exceptions=True)
            raise
        finally:
            if self._branch_watch is not None:
                self._branch_watch.cancel()
            self.idle.cancel()
            self.dialogs.cancel_all()
            self.overlays.clear()
            if agent.is_streaming:
                agent.abort()
            await self.tasks.cancel_all()
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


def _warm_up(theme: Theme) -> None:
    """Import what the first answer needs while the user types the first prompt."""
    render.to_ansi(render.markdown("*warm* `up`\n\n```python\nx = 1\n```"), 80, theme)
