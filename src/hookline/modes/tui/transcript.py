"""The transcript: what the activity finished, as the blocks printed into the scrollback.

A tool's block says who blocked the call, if anyone did (a hook, a settings
hook, a rule, you); a tool or a hook may draw its own call line, result or
custom message (``meta["render_call"]``, ``meta["render_result"]``,
``register_message_renderer``; ``meta["render_preview"]`` is drawn by
``preview``), and a failing renderer falls back to the default. Renderers get
pi's render state: ``expanded`` (Ctrl+O toggles it for every block from then
on, and prints the last tool or custom block again in the new state: the
scrollback above cannot change) and, for a running call, ``is_partial``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookline.core.messages import content_text
from hookline.modes.tui import hook_render, render
from hookline.modes.tui.activity import (
    AnswerEnded,
    CustomShown,
    Notice,
    RunningTool,
    SettingsBlock,
    SettingsBlocked,
    Shown,
    ToolEnded,
    UserText,
)
from hookline.modes.tui.hook_render import call_upto

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.core.pipeline import Denial
    from hookline.core.theme import Theme
    from hookline.modes.tui.host import LoadedAgent
    from hookline.modes.tui.scrollback import Scrollback

#: Who stopped a call, by the pipeline's denial source.
_BLOCKED_BY = {
    "hook": "by a hook",
    "rule": "by a permission rule",
    "mode": "by the permission mode",
    "permission_request": "by a permission_request hook",
    "user": "by you",
    "no_ui": "with no one to ask",
}

#: The last block that has a collapsed and an expanded look: draws it in either.
_Redrawable = Callable[[bool], "RenderableType"]


class Transcript:
    """Prints finished blocks; knows how each kind looks and who may draw it."""

    def __init__(
        self,
        scrollback: Scrollback,
        width: Callable[[], int],
        loaded: LoadedAgent,
        theme: Callable[[], Theme],
    ) -> None:
        self._scrollback = scrollback
        self._width = width
        self._loaded = loaded
        self._theme = theme
        #: Tool outputs and custom messages drawn expanded (Ctrl+O toggles it).
        self.expanded = False
        self._last: _Redrawable | None = None

    def show(self, shown: Shown) -> None:
        """Print what the activity finished."""
        if isinstance(shown, UserText):
            self._scrollback.print(render.styled())  # a blank line before each of your messages
            self._scrollback.print(render.user_block(shown.text))
        elif isinstance(shown, AnswerEnded):
            if shown.text and shown.stop_reason != "error":
                self._scrollback.print(render.markdown(shown.text))
            if shown.stop_reason == "aborted":
                self._scrollback.print(render.dim("(interrupted)"))
            # stop_reason "error": the agent already notified the error
        elif isinstance(shown, ToolEnded):
            self._tool_ended(shown)
        elif isinstance(shown, CustomShown):
            self._custom(shown.message)
        elif isinstance(shown, Notice):
            self._scrollback.notice(shown.text, shown.kind)
        elif isinstance(shown, SettingsBlocked):
            block = shown.block
            reason = f": {block.reason}" if block.reason else ""
            self._scrollback.notice(f"{self._settings_label(block)} blocked{reason}", "warning")

    def bash_output(self, command: str, output: str, failed: bool) -> None:
        """What a ``!cmd`` or ``!!cmd`` you ran printed."""
        args = {"command": command}

        def block(expanded: bool) -> RenderableType:
            drawn, _ = render.tool_block(
                "$",
                args,
                output,
                is_error=failed,
                blocked=False,
                width=self._width(),
                expanded=expanded,
            )
            return drawn

        self._print_redrawable(block)

    def toggle_expanded(self) -> None:
        """Ctrl+O: tool outputs and custom messages expanded (or collapsed again) from now
        on; the last one printed again in the new state."""
        self.expanded = not self.expanded
        state = "expanded" if self.expanded else "collapsed"
        self._scrollback.notice(f"tool output {state} (ctrl+o to toggle)")
        if self._last is not None:
            self._scrollback.print(self._last(self.expanded))

    def _print_redrawable(self, block: _Redrawable) -> None:
        self._last = block
        self._scrollback.print(block(self.expanded))

    def call_text(self, tool: RunningTool) -> str | None:
        """A tool's own ``meta["render_call"](args, theme)``: text (its colours kept) or a
        component; errors fall back to the default."""
        fn = tool_renderer(self._loaded, tool.name, "render_call")
        if fn is None:
            return None
        args = tool.args if isinstance(tool.args, dict) else {}
        try:
            return hook_render.one_line(call_upto(fn, args, self._theme()), self._width())
        except hook_failures() as exc:
            self._loaded.agent.runner.report("", f"render_call:{tool.name}", exc)
            return None

    def partial_result(self, tool: RunningTool) -> RenderableType | None:
        """A running call's own ``render_result`` (``is_partial``), under its header."""
        return self._result(tool, tool.output, tool.details, False, self.expanded, partial=True)

    def _short_path(self, path: str) -> str:
        """``path`` relative to the project when inside it, else with ``~`` for home."""
        return short_path(path, self._loaded.agent.cwd)

    def _tool_ended(self, ended: ToolEnded) -> None:
        """A tool result landed: the call's block, with who blocked it and why if it was."""
        tool, text = ended.tool, ended.text
        denials = self._loaded.agent.denials
        denial = next((d for d in reversed(denials) if d.tool_call_id == ended.call_id), None)
        blocked = denial is not None
        if denial is not None:
            why = "it failed (its error is shown above)" if denial.hook_failed else denial.reason
            text = f"{self._blocked_by(denial, tool)}: {why}"
            if denial.hint:
                text += f"\n{denial.hint}"

        def block(expanded: bool) -> RenderableType:
            width = self._width()
            call = self.call_text(tool)
            own = None
            if not blocked:
                own = self._result(tool, text, ended.details, ended.is_error, expanded)
            if own is not None:
                mark, style = render.tool_mark(ended.is_error, False)
                header = render.tool_header(tool.name, tool.args, mark, style, width, call)
                return render.with_body(header, own)
            drawn, _ = render.tool_block(
                tool.name,
                tool.args,
                text,
                is_error=ended.is_error,
                blocked=blocked,
                width=width,
                expanded=expanded,
                call=call,
            )
            return drawn

        self._print_redrawable(block)

    def _blocked_by(self, denial: Denial, tool: RunningTool) -> str:
        """Who stopped a call: the hook file, the settings hooks (command and file), ..."""
        from hookline.claude.adapter import SETTINGS_HOOK_PATH

        if denial.hook == SETTINGS_HOOK_PATH and tool.blockers:
            return "by " + ", ".join(self._settings_label(b) for b in tool.blockers)
        if denial.hook and denial.hook != SETTINGS_HOOK_PATH:
            kind = "permission_request hook" if denial.source == "permission_request" else "hook"
            return f"by {kind} {self._short_path(denial.hook)}"
        return _BLOCKED_BY.get(denial.source, denial.source)

    def _settings_label(self, block: SettingsBlock) -> str:
        """``PreToolUse hook `./guard.sh` in .claude/settings.json``: what ran, from where."""
        claude = self._loaded.bundle.claude
        table = claude.engine.table if claude is not None else None
        definitions = table.by_event.get(block.event, []) if table is not None else []
        found = next((d for d in definitions if d.id == block.hook_id), None)
        what = found.describe() if found is not None else block.hook_type
        where = self._short_path(block.origin) if block.origin.startswith("/") else block.origin
        return f"{block.event} hook `{one_line_text(what)}` in {where}"

    def _result(
        self,
        tool: RunningTool,
        text: str,
        details: Any,
        is_error: bool,
        expanded: bool,
        *,
        partial: bool = False,
    ) -> RenderableType | None:
        """A tool's own ``meta["render_result"](text, options, theme)``: text, a rich
        renderable or a component; ``None`` for the default block."""
        fn = tool_renderer(self._loaded, tool.name, "render_result")
        if fn is None:
            return None
        width = self._width()
        options = {
            "expanded": expanded,
            "is_partial": partial,
            "is_error": is_error,
            "width": width,
            "details": details,
        }
        try:
            return hook_render.renderable(call_upto(fn, text, options, self._theme()), width)
        except hook_failures() as exc:
            if not partial:  # a live one is drawn ten times a second: the final one reports
                self._loaded.agent.runner.report("", f"render_result:{tool.name}", exc)
            return None

    def _custom(self, message: dict[str, Any]) -> None:
        custom_type = str(message.get("custom_type", ""))
        content = message.get("content", "")
        text = content if isinstance(content, str) else content_text(content)
        runner = self._loaded.agent.runner
        renderer = runner.get_message_renderer(custom_type)
        plain = render.custom_message(custom_type, text)
        if renderer is None:
            self._scrollback.print(plain)
            return

        def block(expanded: bool) -> RenderableType:
            width = self._width()
            options = {"expanded": expanded, "width": width}
            try:
                shown = call_upto(renderer, message, options, self._theme())
                drawn = hook_render.renderable(shown, width)
            except hook_failures() as exc:
                runner.report("", f"renderer:{custom_type}", exc)
                drawn = None
            return plain if drawn is None else drawn

        self._print_redrawable(block)


def tool_renderer(loaded: LoadedAgent, name: str, key: str) -> Callable[..., Any] | None:
    """A tool's own renderer, ``meta[key]`` (``render_call``, ``render_result``,
    ``render_preview``), when it has a callable one."""
    tool = loaded.agent.tools.get(name)
    fn = tool.meta.get(key) if tool is not None else None
    return fn if callable(fn) else None


def hook_failures() -> tuple[type[BaseException], ...]:
    """What a hook's renderer or command may raise without ending the app (the runner's
    ``HOOK_FAILURES``, imported when one is raised: it is not needed for the first frame)."""
    from hookline.core.calling import HOOK_FAILURES

    return HOOK_FAILURES


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
