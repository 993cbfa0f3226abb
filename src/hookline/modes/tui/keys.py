"""The editor's keys (send, new line, stop, exit, expand, mode) and the hooks' shortcuts.

The keys say what was asked; ``KeyActions`` (the app) decides what it means
now: Ctrl+C stops a turn, clears the editor, or exits, by the app's state.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from hookline.core.keys import prompt_toolkit_keys

if TYPE_CHECKING:
    from prompt_toolkit.buffer import Buffer

    from hookline.core.runner import HookRunner


class KeyActions(Protocol):
    """What the editor's keys ask of the app."""

    def submit(self) -> None:
        """Enter: send the editor's text."""

    def interrupt(self) -> None:
        """Ctrl+C: stop the turn, clear the editor, or (twice) exit."""

    def exit(self) -> None:
        """Ctrl+D on an empty editor: exit."""

    def stop(self) -> None:
        """Esc: stop the turn, if one runs."""

    def toggle_expanded(self) -> None:
        """Ctrl+O: tool outputs expanded (or collapsed again), the last one drawn again."""

    def cycle_mode(self) -> None:
        """Shift+Tab: the next permission mode (default → acceptEdits → plan …)."""


def editor_keys(editor: Buffer, in_editor: Filter, actions: KeyActions) -> KeyBindings:
    """The editor's own keys, active while it has the focus and no dialog is up."""
    kb = KeyBindings()
    empty = Condition(lambda: not editor.text)

    @kb.add("enter", filter=in_editor)
    def _enter(event: KeyPressEvent) -> None:
        state = editor.complete_state
        if state is not None and state.current_completion is not None:
            editor.complete_state = None  # accept the completion, do not send
            return
        actions.submit()

    @kb.add("escape", "enter", filter=in_editor)
    @kb.add("c-j", filter=in_editor)
    def _newline(event: KeyPressEvent) -> None:
        editor.newline(copy_margin=False)

    @kb.add("c-c", filter=in_editor)
    def _interrupt(event: KeyPressEvent) -> None:
        actions.interrupt()

    @kb.add("c-d", filter=in_editor & empty)
    def _eof(event: KeyPressEvent) -> None:
        actions.exit()

    @kb.add("escape", filter=in_editor)
    def _escape(event: KeyPressEvent) -> None:
        if editor.complete_state is not None:
            editor.cancel_completion()
        else:
            actions.stop()

    @kb.add("c-o", filter=in_editor)
    def _expand(event: KeyPressEvent) -> None:
        actions.toggle_expanded()

    @kb.add("s-tab", filter=in_editor)
    def _cycle(event: KeyPressEvent) -> None:
        if editor.complete_state is not None:
            editor.complete_previous()  # in the completion menu it moves back, as Tab moves on
        else:
            actions.cycle_mode()

    return kb


def shortcut_keys(
    runner: HookRunner,
    in_editor: Filter,
    spawn: Callable[[Coroutine[Any, Any, Any]], object],
) -> KeyBindings:
    """The hooks' ``register_shortcut`` keys; each runs its handler as a task."""
    kb = KeyBindings()
    for key in runner.get_registered_shortcuts():
        kb.add(*prompt_toolkit_keys(key), filter=in_editor)(_shortcut(runner, key, spawn))
    return kb


def _shortcut(
    runner: HookRunner, key: str, spawn: Callable[[Coroutine[Any, Any, Any]], object]
) -> Callable[[KeyPressEvent], None]:
    def run(event: KeyPressEvent) -> None:
        spawn(runner.run_shortcut(key))

    return run
