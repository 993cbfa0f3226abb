"""``CustomEditor``: the ``Editor`` that gives the terminal app's keys back to the app.

A hook's ``ctx.ui.set_editor_component(factory)`` puts its own editor in the
place of the app's prompt; that editor then receives every key. Built on
``CustomEditor`` (pi's class of the same name), the keys it does not take for
itself still do what they do in the app: Esc stops the turn, Ctrl+C clears or
stops, Ctrl+D on an empty editor exits, the hooks' shortcuts run. The app fills
in the handlers when it installs the editor; a subclass calls
``super().handle_input(data)`` for every key it leaves alone.
"""

from __future__ import annotations

from collections.abc import Callable

from hookline.components.component import TUI
from hookline.components.keys import Keybindings, action_name
from hookline.components.text_field import Editor, EditorTheme

#: Actions with a handler of their own (``on_escape``, ``on_ctrl_d``).
_OWN = ("interrupt", "exit")


class CustomEditor(Editor):
    """An ``Editor`` that hands the app's actions to the handlers the app set.

    ``on_action(action, handler)`` binds an app action (``clear``,
    ``expand_tools``, ``cycle_permission_mode``) by its keys in ``keybindings``;
    ``on_escape`` replaces the ``interrupt`` action (Esc), ``on_ctrl_d`` the
    ``exit`` action (only on an empty editor: otherwise Ctrl+D deletes);
    ``on_extension_shortcut(data)`` sees each key first and returns whether a
    hook's shortcut took it.
    """

    def __init__(
        self,
        tui: TUI | None = None,
        theme: EditorTheme | None = None,
        keybindings: Keybindings | None = None,
        *,
        padding_x: int = 0,
    ) -> None:
        super().__init__(tui, theme, padding_x=padding_x, keybindings=keybindings)
        self.action_handlers: dict[str, Callable[[], object]] = {}
        self.on_escape: Callable[[], object] | None = None
        self.on_ctrl_d: Callable[[], object] | None = None
        self.on_extension_shortcut: Callable[[str], bool] | None = None

    def on_action(self, action: str, handler: Callable[[], object]) -> None:
        """Run ``handler`` for the keys of ``action`` (pi's ``expandTools`` spelling too)."""
        self.action_handlers[action_name(action)] = handler

    def handle_input(self, data: str) -> None:
        if self.on_extension_shortcut is not None and self.on_extension_shortcut(data):
            return
        kb = self.keybindings
        if kb.matches(data, "interrupt"):
            handler = self.on_escape or self.action_handlers.get("interrupt")
            if handler is not None:
                handler()
                return
        elif kb.matches(data, "exit") and not self.get_text():
            handler = self.on_ctrl_d or self.action_handlers.get("exit")
            if handler is not None:
                handler()
            return
        for action, run in self.action_handlers.items():
            if action not in _OWN and kb.matches(data, action):
                run()
                return
        super().handle_input(data)
