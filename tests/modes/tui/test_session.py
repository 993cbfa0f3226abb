"""The session in the real terminal app: paste, history, stop, exit, shutdown, user bash."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from .helpers import app, bash
from .pane import DEADLINE


def _running(text: str) -> bool:
    """Some process's command line contains ``text``."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text.encode() in cmdline.read_bytes():
                return True
        except OSError:
            continue
    return False


def _wait_gone(text: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while _running(text):
        assert time.monotonic() < deadline, f"a process with {text!r} is still running"
        time.sleep(0.05)


def _wait_running(text: str) -> None:
    """Wait for the process to appear: "Working…" may show before bash has started."""
    deadline = time.monotonic() + DEADLINE
    while not _running(text):
        assert time.monotonic() < deadline, f"no process with {text!r} ever ran"
        time.sleep(0.05)


SHUTDOWN = """
import os
import signal
import time
from pathlib import Path

from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.on("session_shutdown")
    def done(event, ctx):
        Path(__file__).with_name("shutdown.marker").write_text(event.reason)
"""


def test_ctrl_d_exits_and_session_shutdown_fires(tmp_path: Path) -> None:
    with app(tmp_path, ["hello there"], SHUTDOWN) as pane:
        pane.ready()
        pane.type("hi")
        pane.keys("Enter")
        pane.wait_for("hello there")
        pane.keys("C-d")
        assert pane.wait_exit() == 0
    assert (tmp_path / "shutdown.marker").read_text() == "quit"


def test_ctrl_c_twice_on_an_empty_editor_exits(tmp_path: Path) -> None:
    with app(tmp_path, [], SHUTDOWN) as pane:
        pane.ready()
        pane.type("draft")
        pane.keys("C-c")  # clears the draft, does not exit
        pane.wait_for(lambda s: "draft" not in s)
        pane.keys("C-c")
        pane.wait_for("press ctrl+c again to exit")
        assert not pane.dead()
        pane.keys("C-c")
        assert pane.wait_exit() == 0
    assert (tmp_path / "shutdown.marker").read_text() == "quit"


def test_ctrl_c_stops_a_long_bash_call_and_the_session_goes_on(tmp_path: Path) -> None:
    marker = tmp_path / "finished"
    turns = [
        bash(f"echo started-long; sleep 60; touch {marker}"),
        {"text": "still here", "expect_user_contains": "next question"},
    ]
    with app(tmp_path, turns, SHUTDOWN, "--permission-mode", "bypassPermissions") as pane:
        pane.ready()
        pane.type("run the long thing")
        pane.keys("Enter")
        # the live tail of its output (not the command in the call's header): it runs
        pane.wait_all(["    started-long", "Running tool…"])
        _wait_running(str(marker))
        pane.keys("C-c")
        screen = pane.wait_all(["stopped", "✗ bash"])
        _wait_gone(str(marker))  # the sleep was killed with its process group
        pane.wait_for(lambda s: "Running tool…" not in s)
        pane.type("next question")
        pane.keys("Enter")
        screen = pane.wait_for("still here", whole=True)
        assert "model error" not in screen
        pane.keys("C-d")
        assert pane.wait_exit() == 0
    assert not marker.exists()


def test_a_paste_of_several_lines_is_one_message(tmp_path: Path) -> None:
    turns = [{"text": "got all three", "expect_user_contains": "alpha\nbeta\ngamma"}]
    with app(tmp_path, turns) as pane:
        pane.ready()
        pane.paste("alpha\nbeta\ngamma")
        pane.wait_all(["alpha", "beta", "gamma"])
        assert "got all three" not in pane.screen()  # a paste does not send
        pane.keys("Enter")
        screen = pane.wait_for("got all three", whole=True)
        assert "model error" not in screen and "expected" not in screen


def test_alt_enter_adds_a_line_instead_of_sending(tmp_path: Path) -> None:
    turns = [{"text": "two lines seen", "expect_user_contains": "one\ntwo"}]
    with app(tmp_path, turns) as pane:
        pane.ready()
        pane.type("one")
        pane.keys("M-Enter")
        pane.type("two")
        pane.keys("Enter")
        pane.wait_for("two lines seen", whole=True)


def test_history_is_kept_per_project_across_runs(tmp_path: Path) -> None:
    with app(tmp_path, ["first answer"]) as pane:
        pane.ready()
        pane.type("remember this prompt")
        pane.keys("Enter")
        pane.wait_for("first answer")
        pane.keys("C-d")
        pane.wait_exit()
    with app(tmp_path, []) as pane:
        pane.ready()
        assert "remember this prompt" not in pane.screen()
        pane.keys("Up")
        pane.wait_for("› remember this prompt")


CONTEXT_SPY = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.on("context")
    def spy(event, ctx):
        text = repr(event.messages)
        kept, private = "from-kept-shell" in text, "from-private-shell" in text
        ctx.ui.notify(f"model sees kept={kept} private={private}")
"""


def test_user_bash_output_shown_and_kept_or_not(tmp_path: Path) -> None:
    with app(tmp_path, ["saw it"], CONTEXT_SPY) as pane:
        pane.ready()
        pane.type("!echo from-kept-shell")
        pane.keys("Enter")
        pane.wait_for("⎿ from-kept-shell")
        pane.type("!!echo from-private-shell")
        pane.keys("Enter")
        pane.wait_for("⎿ from-private-shell")
        pane.type("what did I run?")
        pane.keys("Enter")
        screen = pane.wait_for("saw it", whole=True)
        assert "model sees kept=True private=False" in screen


PYTHON_SPY = """
def register(pi):
    @pi.on("user_python")
    def note(event, ctx):
        ctx.ui.notify(f"user_python private={event.exclude_from_context}")

    @pi.on("context")
    def spy(event, ctx):
        text = repr(event.messages)
        kept, private = "py-kept" in text, "py-private" in text
        ctx.ui.notify(f"model sees kept={kept} private={private}")
"""


def test_user_python_output_shown_and_kept_or_not(tmp_path: Path) -> None:
    with app(tmp_path, ["saw it"], PYTHON_SPY) as pane:
        pane.ready()
        pane.type('$print("py-" + "kept")')
        pane.keys("Enter")
        pane.wait_for("⎿ py-kept")
        pane.type('$$print("py-" + "private")')
        pane.keys("Enter")
        screen = pane.wait_for("⎿ py-private")
        assert "user_python private=True" in screen
        pane.type("what did I run?")
        pane.keys("Enter")
        screen = pane.wait_for("saw it", whole=True)
        assert "model sees kept=True private=False" in screen


def test_sigterm_ends_the_app_with_session_shutdown(tmp_path: Path) -> None:
    with app(tmp_path, [], SHUTDOWN) as pane:
        pane.ready()
        pane.type("half-typed")
        pid = int(pane.tmux("display", "-p", "-t", pane.target, "#{pane_pid}").strip())
        # the pane runs `sh -c 'python ...; echo ...'`: signal the python child
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        os.kill(int(children[0]), signal.SIGTERM)
        code = pane.wait_exit()
        assert code == 128 + signal.SIGTERM, (children, pane.scrollback(), pane.stderr())
    assert (tmp_path / "shutdown.marker").read_text() == "sigterm"


def test_ctrl_c_stops_a_user_bash_command(tmp_path: Path) -> None:
    marker = tmp_path / "user-bash-finished"
    with app(tmp_path, ["after it"]) as pane:
        pane.ready()
        pane.type(f"!echo user-started; sleep 60; touch {marker}")
        pane.keys("Enter")
        pane.wait_for("Working…")
        _wait_running(str(marker))
        pane.keys("C-c")
        pane.wait_for(lambda s: "stopped" in s and "Working…" not in s)
        _wait_gone(str(marker))
        pane.type("still usable")
        pane.keys("Enter")
        pane.wait_for("after it", whole=True)
    assert not marker.exists()
