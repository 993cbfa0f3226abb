"""What ``ctx.ui`` and the slash commands need of the terminal app, and nothing more.

``TuiUI`` and the built-in commands are written against these protocols, not
against ``TuiApp``: they import no app, and a test can hand them anything
that answers the same calls.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from rich.console import RenderableType

    from hookline.agent.agent import Agent
    from hookline.agent.setup import AgentBundle
    from hookline.components.overlay_stack import OverlayStack
    from hookline.core.theme import Theme
    from hookline.core.ui import HookUI, StatusLine
    from hookline.modes.tui.dialogs import Dialog
    from hookline.modes.tui.footer_data import FooterData
    from hookline.modes.tui.prompt import Prompt


class UIHost(Protocol):
    """What ``ctx.ui`` does on the screen: dialogs, lines, widgets, the editor's text."""

    @property
    def prompt(self) -> Prompt:
        """Where the prompt is written (hooks read, set and paste its text)."""

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        """Write prompts in ``factory``'s editor component (``None``: the app's own)."""

    @property
    def status(self) -> StatusLine:
        """The hooks' status items, drawn under the footer."""

    async def ask(self, dialog: Dialog) -> Any:
        """Show ``dialog`` after any already open; its answer."""

    def notice(self, text: str, kind: str = "info") -> None:
        """Print a one-line notice into the transcript."""

    def invalidate(self) -> None:
        """Draw the app again."""

    def set_widget(self, key: str, made: object | None, placement: str) -> None:
        """Show (``None``: remove) a hook's widget at ``placement``: lines, a component or
        a prompt_toolkit container."""

    @property
    def footer_data(self) -> FooterData:
        """What a hook's footer factory reads (branch, statuses, model, usage)."""

    @property
    def theme(self) -> Theme:
        """The theme the app is drawn in (``ctx.ui.theme``)."""

    def set_theme(self, theme: Theme) -> None:
        """Draw the app in ``theme`` from the next frame on."""

    @property
    def theme_files(self) -> list[Path]:
        """Themes beside the built-in and custom ones: the agent's resources' files."""

    def set_working_message(self, text: str | None) -> None:
        """The text beside the spinner while the agent works (``None``: the default)."""

    def set_title(self, title: str) -> None:
        """The terminal window's title."""

    def size(self) -> tuple[int, int]:
        """The terminal's columns and rows."""

    @property
    def overlays(self) -> OverlayStack:
        """The hooks' component overlays over the app."""


class LoadedAgent(Protocol):
    """The agent and what setup built with it; read only once they are loaded."""

    @property
    def agent(self) -> Agent:
        """The loaded agent."""

    @property
    def bundle(self) -> AgentBundle:
        """What setup built besides the agent: hooks loaded, settings hooks, sandbox."""


class CommandHost(UIHost, LoadedAgent, Protocol):
    """What a built-in slash command uses: the agent, its setup, the transcript."""

    @property
    def ui(self) -> HookUI:
        """The same dialogs the hooks get."""

    @property
    def loaded(self) -> asyncio.Event:
        """Set once the agent and its hooks are loaded (completion waits for it)."""

    def print(self, renderable: RenderableType) -> None:
        """Print a finished block into the transcript."""

    def hooks_changed(self) -> None:
        """The hooks were reloaded: bind their shortcuts again."""

    def replay_session(self) -> None:
        """Print the last messages of the session just resumed."""

    def exit(self) -> None:
        """End the app."""
