"""pi's notify example: a desktop notification from the terminal when a run ends.

At ``agent_end`` the terminal is told "Pi: Ready for input" in the protocol it
speaks:

- OSC 777 (Ghostty, iTerm2, WezTerm, rxvt-unicode): ``ESC ] 777;notify;TITLE;BODY BEL``;
- OSC 99 (Kitty, when ``$KITTY_WINDOW_ID`` is set): the title, then the body,
  each ended by ``ESC \\``;
- a Windows toast through ``powershell.exe`` (Windows Terminal under WSL, when
  ``$WT_SESSION`` is set).

The sequences go to the process's own stdout (``sys.__stdout__``), as in pi:
the terminal app reroutes ``sys.stdout`` above itself, where escapes would be
shown as text. In the print, JSON and RPC modes hookline keeps the real stdout
for the answer or the protocol, and a hook's stdout is stderr: the terminal
still gets the notification, the answer stays clean.

    hookline --hook examples/pi/notify.py
"""

from __future__ import annotations

import contextlib
import os
import sys

from hookline import AgentEndEvent, HookAPI, HookContext

TITLE = "Pi"
BODY = "Ready for input"


def windows_toast_script(title: str, body: str) -> str:
    """The PowerShell lines that show one toast with ``body``, from app ``title``."""
    kind = "Windows.UI.Notifications"
    manager = f"[{kind}.ToastNotificationManager, {kind}, ContentType = WindowsRuntime]"
    template = f"[{kind}.ToastTemplateType]::ToastText01"
    toast = f"[{kind}.ToastNotification]::new($xml)"
    return "; ".join(
        [
            f"{manager} > $null",
            f"$xml = [{kind}.ToastNotificationManager]::GetTemplateContent({template})",
            "$xml.GetElementsByTagName('text')[0]"
            f".AppendChild($xml.CreateTextNode('{body}')) > $null",
            f"[{kind}.ToastNotificationManager]::CreateToastNotifier('{title}').Show({toast})",
        ]
    )


def osc777(title: str, body: str) -> str:
    return f"\x1b]777;notify;{title};{body}\x07"


def osc99(title: str, body: str) -> str:
    # i: the notification's id; d=0: more parts follow; p=body: this part is the body.
    return f"\x1b]99;i=1:d=0;{title}\x1b\\" + f"\x1b]99;i=1:p=body;{body}\x1b\\"


def _write_terminal(text: str) -> None:
    stdout = sys.__stdout__
    if stdout is not None:
        stdout.write(text)
        stdout.flush()


def register(pi: HookAPI) -> None:
    @pi.on("agent_end")
    async def notify(event: AgentEndEvent, ctx: HookContext) -> None:
        if os.environ.get("WT_SESSION"):
            script = windows_toast_script(TITLE, BODY)
            with contextlib.suppress(OSError):  # no powershell.exe: no toast, as in pi
                await pi.exec("powershell.exe", ["-NoProfile", "-Command", script], timeout=30)
        elif os.environ.get("KITTY_WINDOW_ID"):
            _write_terminal(osc99(TITLE, BODY))
        else:
            _write_terminal(osc777(TITLE, BODY))
