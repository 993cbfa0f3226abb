"""What hooks add to the terminal app: commands with completion, shortcuts, widgets, status,
message renderers, and the trust dialog before anything of a project loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.modes.helpers import write_hook, write_script

from .helpers import app, bash
from .pane import Pane

COMMANDS = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.register_command(
        "deploy",
        description="ship it somewhere",
        get_argument_completions=lambda prefix: [
            ("staging", "the test cluster"), ("production", "careful")
        ],
    )
    async def deploy(args, ctx):
        ctx.ui.notify(f"deploying to [{args}]")

    async def shortcut(ctx):
        ctx.ui.notify("shortcut fired")

    pi.register_shortcut("ctrl+k", shortcut, description="say it fired")
"""


def test_slash_command_completion_with_descriptions_and_arguments(tmp_path: Path) -> None:
    with app(tmp_path, [], COMMANDS) as pane:
        pane.ready()
        pane.type("/dep")
        screen = pane.wait_all(["/deploy", "ship it somewhere"])
        assert "/resume" not in screen  # only names starting with what was typed
        pane.keys("Tab")
        pane.wait_for("› /deploy")
        pane.keys("Enter")  # accepts the completion, does not send
        pane.type(" ")
        pane.wait_all(["staging", "the test cluster", "production"])
        pane.type("pro")
        # the menu narrowed to what was typed (a Tab while completing is dropped)
        pane.wait_for(lambda s: "production" in s and "staging" not in s)
        pane.keys("Tab")
        pane.wait_for("› /deploy production")
        pane.keys("Enter", "Enter")
        pane.wait_for("deploying to [production]", whole=True)


def test_builtin_commands_complete_and_help_lists_hook_commands(tmp_path: Path) -> None:
    with app(tmp_path, [], COMMANDS) as pane:
        pane.ready()
        pane.type("/")
        pane.wait_all(["/help", "commands and keys", "/resume"])
        pane.type("de")
        pane.wait_all(["/deploy", "ship it somewhere"])
        pane.keys("BSpace", "BSpace")
        pane.type("help")
        pane.keys("Enter")
        screen = pane.wait_all(["Commands", "/deploy", "ship it somewhere", "ctrl+k"])
        assert "say it fired" in screen


def test_a_registered_shortcut_fires(tmp_path: Path) -> None:
    with app(tmp_path, [], COMMANDS) as pane:
        pane.ready()
        pane.keys("C-k")
        pane.wait_for("shortcut fired")


def test_a_reserved_shortcut_is_refused_when_the_hook_loads(tmp_path: Path) -> None:
    hook = """
    def register(pi):
        pi.register_shortcut("ctrl+c", lambda ctx: None)
    """
    # in the project's hooks folder (a broken ``--hook`` path would stop the start)
    write_hook(tmp_path / "project" / ".hookline" / "hooks" / "keys.py", hook)
    with app(tmp_path, [], None, "--trust-project") as pane:
        pane.ready()
        # the hooks load while the app is up: setup's notices print above it
        shown = pane.wait_for(lambda s: "is reserved" in s.replace("\n", ""), whole=True)
        assert "failed to load: register() raised KeySpecError" in shown.replace("\n", "")
        pane.type("/hooks")
        pane.keys("Enter")
        # the listing of /hooks, not the load notice above it
        pane.wait_for(lambda s: "is reserved by" in s.partition("\nHooks\n")[2], whole=True)
        pane.wait_for(lambda s: "Working" not in s)
        pane.keys("C-c", "C-c")  # still hookline's: the second press exits
        assert pane.wait_exit() == 0


WIDGETS = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def start(event, ctx):
        ctx.ui.set_status("git", "branch: main")
        ctx.ui.set_status("evil", "ok\\x1b]0;pwned-title\\x07\\x1b[2Jstill-ok")
        ctx.ui.set_widget("todo", ["todo: 3 open", "next: write tests"])
        ctx.ui.set_widget("tip", ["tip below the editor"], placement="below")
        ctx.ui.set_widget(
            "evil-widget", ["w-ok\\x1b]0;pwned-widget\\x07\\x1b[2J\\x1b[1;1Hw-still\\rw-end"]
        )
        ctx.ui.notify("n-ok\\x1b]52;c;cHduZWQ=\\x07n-still")
        ctx.ui.set_title("hookline-test-title")

    @pi.register_command("clear-widgets")
    def clear(args, ctx):
        ctx.ui.set_widget("todo", None)
        ctx.ui.set_status("git", None)
"""


def test_widgets_and_status_appear_and_go(tmp_path: Path) -> None:
    with app(tmp_path, [], WIDGETS) as pane:

        def around_the_editor(screen: str) -> bool:
            lines = screen.splitlines()

            def row(test: str) -> int:
                return next((i for i, line in enumerate(lines) if test in line), -1)

            todo, tip = row("todo: 3 open"), row("tip below the editor")
            editor = next((i for i, line in enumerate(lines) if line.startswith("›")), -1)
            return (
                -1 < todo < editor < tip
                and "branch: main" in screen
                and "next: write tests" in screen
            )

        # One screen read holds all of it (a notice printed above the app redraws it).
        pane.wait_for(around_the_editor)
        pane.wait_for(lambda _: pane.title() == "hookline-test-title")
        pane.type("/clear-widgets")
        pane.keys("Enter")
        pane.wait_for(lambda s: "todo: 3 open" not in s and "branch: main" not in s)


def test_status_widget_and_notice_text_cannot_inject_terminal_escapes(tmp_path: Path) -> None:
    with app(tmp_path, [], WIDGETS) as pane:
        # the sequences were removed, the text kept
        screen = pane.wait_all(["okstill-ok", "w-okw-stillw-end", "n-okn-still"])
        assert "pwned" not in screen
        assert "pwned" not in pane.title()
        assert "todo: 3 open" in screen  # a clear-screen sequence would have wiped it
        assert "cHduZWQ" not in screen  # an OSC 52 clipboard write, removed whole


RENDERER = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    pi.register_message_renderer(
        "deploy-report", lambda message, options: f"DEPLOY REPORT: {message['content']}"
    )

    @pi.register_command("report")
    def report(args, ctx):
        pi.send_message({"custom_type": "deploy-report", "content": "all green"})
        pi.send_message({"custom_type": "plain-note", "content": "no renderer here"})

    def rich_renderer(message, options):
        from rich.text import Text

        text = Text("r-ok\\x1b]0;pwned-renderer\\x1b\\\\\\x1b[2J\\x1b[Hr-still", style="bold")
        text.append(" " + message["content"])
        return text

    pi.register_message_renderer("rich-report", rich_renderer)

    @pi.register_command("rich")
    def rich(args, ctx):
        pi.send_message({"custom_type": "rich-report", "content": "from rich"})
"""


def test_custom_messages_use_their_renderer(tmp_path: Path) -> None:
    with app(tmp_path, [], RENDERER) as pane:
        pane.ready()
        pane.type("/report")
        pane.keys("Enter")
        pane.wait_all(["DEPLOY REPORT: all green", "[plain-note] no renderer here"])


def test_a_renderer_returning_rich_text_cannot_inject_terminal_escapes(tmp_path: Path) -> None:
    with app(tmp_path, [], RENDERER) as pane:
        pane.ready()
        pane.type("/rich")
        pane.keys("Enter")
        screen = pane.wait_for("r-okr-still from rich", whole=True)
        assert "pwned" not in screen and "pwned" not in pane.title()
        assert "hookline ·" in screen  # a clear-screen sequence would have wiped the header


def test_untrusted_project_is_asked_with_a_dialog_before_it_loads(tmp_path: Path) -> None:
    project = tmp_path / "project"
    marker = tmp_path / "imported"
    write_hook(
        project / ".hookline" / "hooks" / "x.py",
        f"""
        from pathlib import Path

        Path({str(marker)!r}).write_text("yes")

        def register(pi):
            pass
        """,
    )
    model = write_script(tmp_path / "script.json", [])
    with Pane(tmp_path, "--model", model, "--no-session", cwd=project) as pane:
        pane.wait_all(["Trust the project", "❯ Yes, trust it", "No, skip its hooks"])
        assert not marker.exists()
        pane.keys("Down", "Enter")
        pane.ready()
        assert not marker.exists()
        pane.keys("C-d")
        pane.wait_exit()
    with Pane(tmp_path, "--model", model, "--no-session", cwd=project) as pane:
        pane.wait_for("Trust the project")
        pane.keys("y")
        pane.ready()
        pane.keys("C-d")
        pane.wait_exit()
    assert marker.exists()
    trusted = json.loads((Path.home() / ".hookline" / "trust.json").read_text())
    assert str(project.resolve()) in json.dumps(trusted)


def test_hook_errors_are_shown_above_the_app(tmp_path: Path) -> None:
    hook = """
    def register(pi):
        @pi.on("input")
        def broken(event, ctx):
            raise RuntimeError("kaboom in a hook")
    """
    with app(tmp_path, ["answered anyway"], hook) as pane:
        pane.ready()
        pane.type("hello")
        pane.keys("Enter")
        pane.wait_all(["kaboom in a hook", "answered anyway"])

        def error_above_footer(screen: str) -> bool:
            lines = screen.splitlines()
            footer = [i for i, line in enumerate(lines) if "msgs · ctx" in line]
            error = [i for i, line in enumerate(lines) if "kaboom" in line]
            return bool(footer and error) and max(error) < min(footer)

        # printed in the transcript, the app drawn below it
        pane.wait_for(error_above_footer, whole=True)
    assert "kaboom" not in pane.stderr()  # not written under the app's frame


def test_a_failing_tool_call_hook_is_said_once_and_its_block_points_at_it(
    tmp_path: Path,
) -> None:
    hook = """
    def register(pi):
        @pi.on("tool_call")
        def guard(event, ctx):
            raise RuntimeError("kaboom in a guard")
    """
    marker = tmp_path / "ran"
    turns = [bash(f"touch {marker}"), "blocked then"]
    with app(tmp_path, turns, hook, "--permission-mode", "bypassPermissions") as pane:
        pane.ready()
        pane.type("go")
        pane.keys("Enter")
        shown = pane.wait_flat(["it failed (its error is shown above)", "blocked then"])
        assert shown.count("kaboom in a guard") == 1, shown
    assert not marker.exists()


HEADER_FOOTER = """
def register(pi):
    @pi.on("session_start")
    def start(event, ctx):
        ctx.ui.set_header(["== my team's agent =="])
        ctx.ui.set_footer(["custom footer: \\x1b[31mred?\\x1b[0m no"])

    @pi.register_command("default-footer")
    def restore(args, ctx):
        ctx.ui.set_footer(None)
        ctx.ui.set_header(None)
"""


def test_a_hook_replaces_the_header_and_footer(tmp_path: Path) -> None:
    with app(tmp_path, [], HEADER_FOOTER) as pane:

        def header_above_editor(screen: str) -> bool:
            lines = screen.splitlines()
            header = [i for i, line in enumerate(lines) if "my team's agent" in line]
            editor = [i for i, line in enumerate(lines) if line.startswith("›")]
            return bool(header and editor) and header[0] < editor[-1]

        screen = pane.wait_for(header_above_editor)
        assert "custom footer: red? no" in screen and "msgs · ctx" not in screen
        pane.type("/default-footer")
        pane.keys("Enter")
        pane.wait_for(lambda s: "msgs · ctx" in s and "custom footer" not in s)
        pane.wait_for(lambda s: "my team's agent" not in s)


def test_a_missing_named_hook_closes_the_app_with_exit_1(tmp_path: Path) -> None:
    """The app is drawn while the agent loads; ``--hook`` naming no file ends it (exit 1)
    before any session starts, with the one line on a restored terminal."""
    mark = tmp_path / "started"
    witness = write_hook(
        tmp_path / "witness.py",
        f"""
        from pathlib import Path
        def register(pi):
            pi.on("session_start", lambda event, ctx: Path({str(mark)!r}).write_text("x"))
        """,
    )
    with app(tmp_path, ["answer"], None, "--hook", str(witness), "--hook", "gaurd.py") as pane:
        assert pane.wait_exit() == 1
        project = tmp_path / "project"
        assert pane.stderr() == (
            f"hookline: error: hook {project / 'gaurd.py'} (--hook): no such file; "
            "the agent does not start without a hook it was given\n"
        )
    assert not mark.exists()


def test_bash_in_the_terminal_app_is_marked_as_claude_code_marks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``CLAUDE_CODE_ENTRYPOINT=cli`` here, where ``-p`` says ``sdk-cli``."""
    monkeypatch.delenv("CLAUDECODE", raising=False)  # the pane inherits this environment
    monkeypatch.delenv("CLAUDE_CODE_ENTRYPOINT", raising=False)
    turns = [bash('echo "marks [$CLAUDECODE|$CLAUDE_CODE_ENTRYPOINT]"'), "marked"]
    with app(tmp_path, turns, None, "--permission-mode", "bypassPermissions") as pane:
        pane.ready()
        pane.type("go")
        pane.keys("Enter")
        pane.wait_all(["marks [1|cli]", "marked"])


IDLE_HOOK = """
ENDS = [0]

def register(pi):
    @pi.on("agent_end")
    def ended(event, ctx):
        ENDS[0] += 1

    @pi.on("notification")
    def seen(event, ctx):
        ctx.ui.notify(f"NOTE {event.notification_type} after answer {ENDS[0]}: {event.message}")
"""


def test_an_answer_left_waiting_sends_idle_prompt_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As Claude Code after its minute (shortened here): once per answer left waiting, none
    for an answer the user started typing after."""
    monkeypatch.setenv("HOOKLINE_IDLE_NOTIFY_MS", "1500")
    note = "NOTE idle_prompt after answer {}: hookline is waiting for your input"
    turns = ["first answer", "second answer", "third answer"]
    with app(tmp_path, turns, IDLE_HOOK) as pane:
        pane.ready()
        pane.type("one")
        pane.keys("Enter")
        pane.wait_for(note.format(1))
        pane.type("two")
        pane.keys("Enter")
        pane.wait_for("second answer")
        pane.type("x")  # the user is here: no notice for the second answer
        pane.keys("BSpace")
        pane.type("three")
        pane.keys("Enter")
        screen = pane.wait_flat([note.format(3)])
        assert note.format(2) not in screen
        assert screen.count(note.format(1)) == 1
