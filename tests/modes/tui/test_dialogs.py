"""Hook dialogs in the real terminal app: confirm, select with arrows, timeouts, Esc."""

from __future__ import annotations

import json
from pathlib import Path

from tests.modes.helpers import write_script

from .helpers import app, bash
from .pane import Pane

CONFIRM_GATE = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    async def gate(event, ctx):
        if event.tool_name == "bash":
            ok = await ctx.ui.confirm("Run it?", event.input["command"])
            if not ok:
                return {"block": True, "reason": "the user said no"}
"""


def test_confirm_answered_no_blocks_the_tool_and_says_so(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    turns = [
        bash(f"touch {marker}"),
        {"text": "ok, not running it", "expect_tool_result_contains": "the user said no"},
    ]
    with app(tmp_path, turns, CONFIRM_GATE, "--permission-mode", "bypassPermissions") as pane:
        pane.ready()
        pane.type("make the file")
        pane.keys("Enter")
        pane.wait_all(["Run it?", f"touch {marker}", "❯ Yes"])
        # not "Running tool…": nothing runs yet; Esc (or Ctrl+C) answers the dialog's default
        pane.wait_for("Waiting for your answer… (esc to cancel)")
        pane.keys("Down")
        pane.wait_for("❯ No")
        pane.keys("Enter")
        # which hook blocked it, by its file, and why (the line wraps at the pane's width)
        blocked = f"⊘ bash touch {marker} ⎿ blocked by hook {tmp_path}/hook.py: the user said no"
        pane.wait_flat([blocked, "ok, not running it"])
    assert not marker.exists()


GUARD = "echo 'rm is not allowed here' >&2; exit 2"


def test_a_settings_hook_block_names_its_command_and_settings_file(tmp_path: Path) -> None:
    settings = tmp_path / "guard-settings.json"
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": GUARD}]}]}
    settings.write_text(json.dumps({"hooks": hooks}))
    marker = tmp_path / "ran"
    turns = [bash(f"touch {marker}"), "understood"]
    args = ("--permission-mode", "bypassPermissions", "--settings", str(settings))
    with app(tmp_path, turns, None, *args) as pane:
        pane.ready()
        pane.type("make the file")
        pane.keys("Enter")
        # the command that blocked, the settings file it is in, and its reason
        pane.wait_flat(
            [
                f"⊘ bash touch {marker} ⎿ blocked by PreToolUse hook `{GUARD}` in {settings}: "
                "rm is not allowed here",
                "understood",
            ]
        )
    assert not marker.exists()


SELECT = """
from hookline import HookAPI


def register(pi: HookAPI) -> None:
    @pi.register_command("pick", description="pick a colour")
    async def pick(args, ctx):
        choice = await ctx.ui.select(
            "Which colour?",
            ["red", "green", "blue"],
            descriptions={"blue": "the calm one"},
        )
        ctx.ui.notify(f"picked {choice}")

    @pi.register_command("ask", description="ask with a deadline")
    async def ask(args, ctx):
        answer = await ctx.ui.confirm("Proceed?", "answer within 2 seconds", timeout=2)
        ctx.ui.notify(f"timed answer {answer}")

    @pi.register_command("name", description="type a name")
    async def name(args, ctx):
        answer = await ctx.ui.input("Your name?", "e.g. Ada")
        ctx.ui.notify(f"name is {answer!r}")

    @pi.register_command("write", description="edit text")
    async def write(args, ctx):
        answer = await ctx.ui.editor("Edit the note", "first line")
        ctx.ui.notify(f"note is {answer!r}")

    @pi.register_command("doc", description="edit a document")
    async def doc(args, ctx):
        answer = await ctx.ui.editor("Edit the doc", "first line", prompt_style=False)
        ctx.ui.notify(f"doc is {answer!r}")
"""


def test_select_answered_with_arrow_keys_shows_descriptions(tmp_path: Path) -> None:
    with app(tmp_path, [], SELECT) as pane:
        pane.ready()
        pane.type("/pick")
        pane.keys("Enter")
        screen = pane.wait_all(["Which colour?", "❯ red", "the calm one"])
        assert "↑↓ move" in screen
        pane.keys("Down", "Down")
        pane.wait_for("❯ blue")
        pane.keys("Enter")
        pane.wait_for("picked blue", whole=True)


def test_dialog_with_a_timeout_counts_down_and_answers_itself(tmp_path: Path) -> None:
    with app(tmp_path, [], SELECT) as pane:
        pane.ready()
        pane.type("/ask")
        pane.keys("Enter")
        pane.wait_for(lambda s: "Proceed?" in s and "auto-answers No in 2s" in s)
        pane.wait_for("auto-answers No in 1s")
        pane.wait_for("timed answer False", whole=True)
        # the dialog is gone, the editor is back
        pane.wait_for(lambda s: "Proceed?" not in s and "›" in s and "msgs · ctx" in s)


def test_escape_cancels_an_input_dialog_and_enter_answers_one(tmp_path: Path) -> None:
    with app(tmp_path, [], SELECT) as pane:
        pane.ready()
        pane.type("/name")
        pane.keys("Enter")
        pane.wait_all(["Your name?", "e.g. Ada"])
        pane.keys("Escape")
        pane.wait_for("name is None", whole=True)
        pane.type("/name")
        pane.keys("Enter")
        pane.wait_for("Your name?")
        pane.type("Grace")
        pane.keys("Enter")
        pane.wait_for("name is 'Grace'", whole=True)


def test_editor_dialog_takes_several_lines(tmp_path: Path) -> None:
    with app(tmp_path, [], SELECT) as pane:
        pane.ready()
        pane.type("/write")
        pane.keys("Enter")
        pane.wait_all(["Edit the note", "first line"])
        pane.keys("C-j")
        pane.type("second line")
        pane.keys("Enter")
        pane.wait_for("note is 'first line\\nsecond line'", whole=True)


def test_editor_dialog_without_prompt_style_takes_enter_as_a_newline(tmp_path: Path) -> None:
    with app(tmp_path, [], SELECT) as pane:
        pane.ready()
        pane.type("/doc")
        pane.keys("Enter")
        screen = pane.wait_all(["Edit the doc", "first line"])
        assert "enter newline · ctrl+enter submit" in screen
        pane.keys("Enter")
        pane.type("second line")
        pane.keys("C-j")  # what Ctrl+Enter sends in most terminals
        pane.wait_for("doc is 'first line\\nsecond line'", whole=True)


LONG_SELECT = """
def register(pi):
    @pi.register_command("many")
    async def many(args, ctx):
        choice = await ctx.ui.select("Pick a number", [f"option-{i:02d}" for i in range(40)])
        ctx.ui.notify(f"picked {choice}")
"""


def test_a_long_select_scrolls_instead_of_overflowing(tmp_path: Path) -> None:
    with app(tmp_path, [], LONG_SELECT) as pane:
        pane.ready()
        pane.type("/many")
        pane.keys("Enter")
        screen = pane.wait_all(["❯ option-00", "↓ 30 more"])
        assert "option-10" not in screen
        for _ in range(25):
            pane.keys("Down")
        screen = pane.wait_for("❯ option-25")
        assert "↑ 20 more" in screen and "option-00" not in screen
        pane.keys("Enter")
        pane.wait_for("picked option-25", whole=True)


GATE = Path(__file__).resolve().parents[3] / "examples" / "pi" / "permission_gate.py"


def _gate_app(tmp_path: Path) -> tuple[Pane, Path]:
    """``hookline --hook examples/pi/permission_gate.py``, a scripted model asking for
    ``rm -rf build`` in a project that has a build folder."""
    model = write_script(tmp_path / "script.json", [bash("rm -rf build"), "that is what happened"])
    project = tmp_path / "project"
    (project / "build").mkdir(parents=True)
    (project / "build" / "out.o").write_text("object")
    return Pane(
        tmp_path, "--hook", str(GATE), "--model", model, "--no-session", cwd=project
    ), project


def test_the_permission_gate_example_asks_and_no_blocks(tmp_path: Path) -> None:
    pane, project = _gate_app(tmp_path)
    with pane:
        pane.ready()
        pane.type("clean the build")
        pane.keys("Enter")
        screen = pane.wait_all(["Dangerous command:", "rm -rf build", "Allow?", "❯ Yes", "No"])
        assert "⊘" not in screen and "✓ bash" not in screen  # nothing ran yet
        pane.keys("Down", "Enter")
        pane.wait_flat(
            [f"⊘ bash rm -rf build ⎿ blocked by hook {GATE}: Blocked by user", "that is what"]
        )
    assert (project / "build" / "out.o").exists()


def test_the_permission_gate_example_asks_and_yes_runs(tmp_path: Path) -> None:
    pane, project = _gate_app(tmp_path)
    with pane:
        pane.ready()
        pane.type("clean the build")
        pane.keys("Enter")
        pane.wait_all(["Dangerous command:", "❯ Yes"])
        pane.keys("Enter")
        # the hook let it through; the default permission mode asks as well
        pane.wait_all(["Allow tool call?", "rm -rf build", "❯ Yes"])
        pane.keys("1")
        pane.wait_all(["✓ bash  rm -rf build", "that is what happened"])
    assert not (project / "build").exists()


def test_settings_hook_outcomes_name_the_command_and_file_once(tmp_path: Path) -> None:
    settings = tmp_path / "prompt-settings.json"
    refuse = "grep -q secret && { echo 'no secrets' >&2; exit 2; } || true"
    warn = "echo 'lint is unhappy' >&2; exit 1"
    hooks = {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": refuse}]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": warn}]}],
    }
    settings.write_text(json.dumps({"hooks": hooks}))
    turns = [bash("echo ran"), "after the call"]
    args = ("--permission-mode", "bypassPermissions", "--settings", str(settings))
    with app(tmp_path, turns, None, *args) as pane:
        pane.ready()
        pane.type("tell me the secret")
        pane.keys("Enter")
        pane.wait_flat([f"UserPromptSubmit hook `{refuse}` in {settings} blocked: no secrets"])
        pane.type("run it")
        pane.keys("Enter")
        screen = pane.wait_flat(["after the call", "lint is unhappy"])
        # a non-blocking error is shown once, with where it came from
        assert screen.count("lint is unhappy") == 1, screen
        assert f"PostToolUse hook (command from cli {settings}): hook failed (1)" in screen


EVERY_KIND = """
import json
from pathlib import Path


def register(pi):
    async def dialogs(place, ctx):
        answers = {
            "select": await ctx.ui.select(f"{place} select", ["no", place]),
            "confirm": await ctx.ui.confirm(f"{place} confirm", "sure?"),
            "input": await ctx.ui.input(f"{place} input", "placeholder"),
            "editor": await ctx.ui.editor(f"{place} editor", "prefill"),
        }
        with Path(RESULTS).open("a") as f:
            f.write(json.dumps({"place": place, **answers}) + "\\n")

    @pi.on("session_start")
    async def started(event, ctx):
        await dialogs("session_start", ctx)

    @pi.on("tool_call")
    async def call(event, ctx):
        await dialogs("tool_call", ctx)
"""


def _answer_every_kind(pane: Pane, place: str) -> None:
    """The second option, Yes, a typed line, the prefilled text: each as a user would."""
    pane.wait_all([f"{place} select", "❯ no"])
    pane.keys("Down")
    pane.wait_for(f"❯ {place}")
    pane.keys("Enter")
    pane.wait_all([f"{place} confirm", "❯ Yes"])
    pane.keys("Enter")
    pane.wait_for(f"{place} input")
    pane.type("typed")
    pane.keys("Enter")
    pane.wait_all([f"{place} editor", "prefill"])
    pane.keys("Enter")


def test_every_dialog_kind_from_session_start_and_tool_call(tmp_path: Path) -> None:
    """The terminal app's part of tests/modes/test_dialogs_everywhere.py: a session_start
    dialog is open before the editor is, a tool_call one while the run waits."""
    results = tmp_path / "results.jsonl"
    hook = EVERY_KIND.replace("RESULTS", repr(str(results)))
    marker = tmp_path / "ran"
    turns = [bash(f"touch {marker}"), "finished"]
    with app(tmp_path, turns, hook, "--permission-mode", "bypassPermissions") as pane:
        _answer_every_kind(pane, "session_start")
        pane.ready()
        pane.type("go")
        pane.keys("Enter")
        _answer_every_kind(pane, "tool_call")
        pane.wait_for("finished", whole=True)
    found = [json.loads(line) for line in results.read_text().splitlines()]
    assert found == [
        {"place": p, "select": p, "confirm": True, "input": "typed", "editor": "prefill"}
        for p in ("session_start", "tool_call")
    ]
    assert marker.exists()  # the call went on once every dialog was answered
