"""The app is drawn before the agent and its hooks load: typing works meanwhile, nothing
typed reaches the model before the hooks are loaded, and leaving early still shuts down.

The hook here loads only when the test says so: its ``register`` waits (without
holding the loop) for a gate file, so the loading frame stays up as long as needed.
"""

from __future__ import annotations

from pathlib import Path

from .helpers import app
from .pane import Pane, flat

#: A hook whose loading waits for ``gate``; once loaded it records the prompts it sees
#: (``input``) and the session's end.
GATED = """
import asyncio
from pathlib import Path

HERE = Path(__file__).parent


async def register(pi):
    while not (HERE / "gate").exists():
        await asyncio.sleep(0.02)

    @pi.on("input")
    def seen(event, ctx):
        with open(HERE / "inputs.log", "a") as log:
            log.write(event.text + "\\n")

    @pi.on("session_start")
    def started(event, ctx):
        (HERE / "started.marker").write_text("yes")

    @pi.on("session_shutdown")
    def done(event, ctx):
        (HERE / "shutdown.marker").write_text(event.reason)
"""

LOADING = "loading hooks…"


def test_typing_during_loading_is_kept_and_sent_once_the_hooks_are_loaded(
    tmp_path: Path,
) -> None:
    turns = [
        {"text": "first answer", "expect_user_contains": "typed while loading"},
        {"text": "second answer", "expect_user_contains": "and a second one"},
    ]
    with app(tmp_path, turns, GATED) as pane:
        # the first frame: the editor and a footer naming the model, hooks still loading
        screen = pane.wait_all(["─\n›", f"script.json · {LOADING}", "Loading hooks…"])
        assert "msgs · ctx" not in screen
        pane.type("typed while loading")
        pane.wait_for("› typed while loading")  # echoed by the editor while loading
        pane.keys("Enter")
        pane.wait_for("Loading hooks… 1 queued")
        pane.type("and a second one")
        pane.keys("Enter")
        pane.wait_for("Loading hooks… 2 queued")
        assert "first answer" not in pane.scrollback()
        assert not (tmp_path / "inputs.log").exists()  # nothing went anywhere yet

        (tmp_path / "gate").write_text("open")
        pane.wait_flat(["› typed while loading", "first answer", "› and a second one"])
        whole = pane.wait_flat(["second answer"])
        # in order, each after the one before was answered
        order = [whole.index(flat(t)) for t in ("typed while", "first answer", "and a second")]
        assert order == sorted(order)
        # the hook saw both: each went through the loaded hooks before the model
        assert (tmp_path / "inputs.log").read_text() == "typed while loading\nand a second one\n"
        pane.ready()
        pane.keys("C-d")
        assert pane.wait_exit() == 0
    assert (tmp_path / "shutdown.marker").read_text() == "quit"


def test_ctrl_d_while_loading_exits_with_session_shutdown(tmp_path: Path) -> None:
    with app(tmp_path, [], GATED) as pane:
        pane.wait_for(LOADING)
        pane.keys("C-d")
        pane.wait_for("Exiting once the hooks are loaded")  # the app's last frame
        assert not pane.dead()  # still loading: the hooks hear of the end once loaded
        (tmp_path / "gate").write_text("open")
        assert pane.wait_exit() == 0
    assert (tmp_path / "started.marker").read_text() == "yes"
    assert (tmp_path / "shutdown.marker").read_text() == "quit"


def test_ctrl_c_while_loading_exits_and_drops_what_was_queued(tmp_path: Path) -> None:
    with app(tmp_path, [], GATED) as pane:
        pane.wait_for(LOADING)
        pane.type("never sent")
        pane.keys("Enter")
        pane.wait_for("1 queued")
        pane.keys("C-c")
        pane.wait_for("Exiting once the hooks are loaded")
        (tmp_path / "gate").write_text("open")
        assert pane.wait_exit() == 0
    assert (tmp_path / "shutdown.marker").read_text() == "quit"
    assert not (tmp_path / "inputs.log").exists()  # the queued prompt was never sent


def test_a_setup_error_ends_the_app_and_is_said_alone(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    missing = tmp_path / "missing.json"
    with Pane(tmp_path, "--model", f"scripted:{missing}", "--no-session", cwd=project) as pane:
        assert pane.wait_exit() == 2
        assert "hookline: error:" in pane.stderr() and "missing.json" in pane.stderr()
        # the loading frame was erased, not left frozen above the shell
        assert "Loading hooks" not in pane.scrollback()
        assert "loading hooks" not in pane.scrollback()
