"""pi's session-name example (``examples/pi/session_name.py``) in a real agent: the name is
the session's, listed by ``/resume``, and the command says it back."""

from __future__ import annotations

from pathlib import Path

from hookline.authoring.ui import ScriptedUI
from hookline.session.manager import SessionManager
from tests.agent.conftest import MakeAgent

from ..harness import PI_EXAMPLES

HOOK = [str(PI_EXAMPLES / "session_name.py")]


async def test_the_command_names_the_session_and_says_the_name(make_agent: MakeAgent) -> None:
    ui = ScriptedUI()
    h = await make_agent(["ok"], hook_paths=HOOK, ui=ui)
    await h.agent.prompt("Fix the login bug")
    assert h.agent.get_session_name() is None  # a first prompt names nothing, as in pi
    await h.runner.run_command("session-name", "")
    await h.runner.run_command("session-name", "  auth work ")
    await h.runner.run_command("session-name", "")
    assert ui.notifications == [
        ("info", "No session name set"),
        ("info", "Session named: auth work"),
        ("info", "Session: auth work"),
    ]
    names = [e["name"] for e in h.entries() if e["type"] == "session_info"]
    assert names == ["auth work"]
    file = h.agent.session.get_session_file()
    assert file is not None
    listed = SessionManager.list_sessions(h.project, session_dir=Path(file).parent)
    assert [info.name for info in listed] == ["auth work"]
