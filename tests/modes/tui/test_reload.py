"""``/reload`` in the real app: hooks edited on disk take effect without a restart."""

from __future__ import annotations

import json
from pathlib import Path

from tests.modes.helpers import write_hook, write_script

from .helpers import app
from .pane import Pane

VERSION = """
def register(pi):
    @pi.on("session_start")
    def start(event, ctx):
        ctx.ui.notify(f"{VERSION} started by {event.source}")

    @pi.on("session_shutdown")
    def stop(event, ctx):
        ctx.ui.notify(f"{VERSION} shut down by {event.reason}")

    @pi.register_command("which")
    def which(args, ctx):
        ctx.ui.notify("{VERSION} answers /which")
"""


def test_reload_swaps_an_edited_hook_in_and_a_broken_one_out(tmp_path: Path) -> None:
    with app(tmp_path, ["ok"], VERSION.replace("{VERSION}", "first")) as pane:
        pane.wait_for("first started by startup", whole=True)
        pane.ready()
        write_hook(tmp_path / "hook.py", VERSION.replace("{VERSION}", "second"))
        pane.type("/reload")
        pane.keys("Enter")
        pane.wait_all(
            ["first shut down by reload", "second started by reload", "hooks reloaded: 1 module"]
        )
        pane.type("/which")
        pane.keys("Enter")
        pane.wait_for("second answers /which", whole=True)
        # now it cannot load: said, and no handler of it is left behind
        broken = (
            VERSION.replace("{VERSION}", "third") + "\nraise RuntimeError('broken on purpose')\n"
        )
        write_hook(tmp_path / "hook.py", broken)
        pane.type("/reload")
        pane.keys("Enter")
        pane.wait_flat(["broken on purpose", "0 modules; 1 could not be loaded"])
        pane.type("/which")
        pane.keys("Enter")
        pane.wait_for("/which", whole=True)
        pane.type("hi")
        pane.keys("Enter")
        pane.wait_for("ok", whole=True)
        text = pane.scrollback()
        assert "third" not in text
        assert text.count("second answers /which") == 1


def _settings_hook(project: Path, message: str) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    answer = json.dumps({"systemMessage": message})
    hook = {"type": "command", "command": f"echo '{answer}'"}
    settings.write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}}))


def test_reload_reads_the_settings_hooks_again(tmp_path: Path) -> None:
    project = tmp_path / "project"
    _settings_hook(project, "settings say one")
    model = write_script(tmp_path / "script.json", ["answer one", "answer two"])
    with Pane(tmp_path, "--model", model, "--no-session", "--trust-project", cwd=project) as pane:
        pane.ready()
        pane.type("first")
        pane.keys("Enter")
        pane.wait_all(["settings say one", "answer one"])
        _settings_hook(project, "settings say two")
        pane.type("/reload")
        pane.keys("Enter")
        pane.wait_for("and the settings hooks", whole=True)
        pane.type("second")
        pane.keys("Enter")
        pane.wait_all(["settings say two", "answer two"])


def test_an_untrusted_project_s_hooks_stay_out_on_reload(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_hook(
        project / ".hookline" / "hooks" / "planted.py", VERSION.replace("{VERSION}", "planted")
    )
    model = write_script(tmp_path / "script.json", ["ok"])
    with Pane(tmp_path, "--model", model, "--no-session", cwd=project) as pane:
        pane.wait_for("Trust")
        pane.keys("Down", "Enter")  # do not trust
        pane.ready()
        pane.type("/reload")
        pane.keys("Enter")
        pane.wait_for("hooks reloaded: 0 modules", whole=True)
        assert "planted" not in pane.scrollback()
