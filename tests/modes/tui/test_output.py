"""What the transcript shows: long tool output collapsed and expandable, bounded live output,
hook-set working messages, a hook's own component, and the built-in info commands."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hookline.modes.tui.render import COLLAPSED_HEAD_LINES, COLLAPSED_TAIL_LINES, LIVE_TAIL_LINES

from .helpers import app, bash


def test_long_output_is_collapsed_and_ctrl_o_expands_it(tmp_path: Path) -> None:
    turns = [bash("seq 1 5000"), "counted"]
    with app(tmp_path, turns, None, "--permission-mode", "bypassPermissions") as pane:
        pane.ready()
        pane.type("count")
        pane.keys("Enter")
        more = "… 1994 more lines … (ctrl+o to expand)"  # bash kept 2000, then a notice
        screen = pane.wait_all(["✓ bash  seq 1 5000", more, "counted"])
        assert "    3005\n" in screen and "    3006\n" not in screen  # the head
        assert "    4999\n" not in screen and "    5000\n" in screen  # the tail
        pane.keys("C-o")
        pane.wait_for(lambda s: "    4999\n" in s and "    5000\n" in s)


def test_a_5000_line_output_streams_as_a_bounded_tail_and_typing_goes_on(
    tmp_path: Path,
) -> None:
    """Counts, not timing: while 5 000 lines stream, the screen holds a tail of them, the
    count of the rest, and the editor still echoes; the terminal never gets all of them."""
    fifo = tmp_path / "release"
    os.mkfifo(fifo)
    # The call cannot end until the test writes to the FIFO: everything below happens
    # while it runs.
    command = f"seq 1 5000; echo all-printed; read word < {fifo}; echo released-$word"
    turns = [bash(command), "counted"]
    with app(tmp_path, turns, None, "--permission-mode", "bypassPermissions") as pane:
        pane.ready()
        pane.type("count")
        pane.keys("Enter")
        # the output's last line (the call's header names it too, so the indented one)
        screen = pane.wait_for(lambda s: "\n    all-printed" in s and "lines above" in s)
        numbers = [line for line in screen.splitlines() if re.fullmatch(r" {4}\d+", line)]
        assert 0 < len(numbers) <= LIVE_TAIL_LINES, screen
        assert "    5000" in numbers  # the newest lines are the ones shown
        # how many lines came: all of them but those shown (6 including all-printed)
        found = re.search(r"… (\d+) lines above", screen)
        assert found is not None and int(found.group(1)) == 5001 - LIVE_TAIL_LINES, screen
        pane.type("typed while it streams")
        pane.wait_for("› typed while it streams")
        assert "released-" not in pane.scrollback()  # still running
        with fifo.open("w") as writer:
            writer.write("go\n")
        pane.wait_all(["✓ bash", "more lines … (ctrl+o to expand)", "counted"])
        assert "lines above" not in pane.screen()
        # the terminal received a tail and a collapsed result, never the 5 000 lines
        whole = pane.scrollback()
        collapsed = COLLAPSED_HEAD_LINES + COLLAPSED_TAIL_LINES
        assert len(re.findall(r"(?m)^ {4}\d+ *$", whole)) <= collapsed + LIVE_TAIL_LINES
        assert "› typed while it streams" in pane.screen()  # the draft survived the turn


ACTIVITY = """
import asyncio

from hookline import HookAPI
from prompt_toolkit.layout import Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.key_binding import KeyBindings


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    def working(event, ctx):
        ctx.ui.set_working_message("Consulting the oracle")

    @pi.register_command("abortable")
    async def abortable(args, ctx):
        signal = asyncio.Event()
        asyncio.get_running_loop().call_later(1.0, signal.set)
        answer = await ctx.ui.select("Waiting for a signal", ["x", "y"], signal=signal)
        ctx.ui.notify(f"signal closed it: {answer}")

    @pi.register_command("component")
    async def component(args, ctx):
        def factory(done):
            kb = KeyBindings()

            @kb.add("z")
            def _(event):
                done("zed")

            return Window(
                FormattedTextControl("Press z in my component", focusable=True, key_bindings=kb),
                height=1,
            )

        value = await ctx.ui.custom(factory)
        ctx.ui.notify(f"component gave {value}")
"""


def test_working_message_from_a_hook(tmp_path: Path) -> None:
    turns = [bash("echo begin; sleep 30"), "done"]
    with app(tmp_path, turns, ACTIVITY, "--permission-mode", "bypassPermissions") as pane:
        pane.ready()
        pane.type("go")
        pane.keys("Enter")
        pane.wait_all(["Consulting the oracle", "begin"])
        pane.keys("Escape")  # Esc stops the turn too
        pane.wait_for(lambda s: "stopped" in s and "Consulting the oracle" not in s)


def test_a_signal_closes_a_dialog(tmp_path: Path) -> None:
    with app(tmp_path, [], ACTIVITY) as pane:
        pane.ready()
        pane.type("/abortable")
        pane.keys("Enter")
        pane.wait_for("Waiting for a signal")
        pane.wait_for("signal closed it: None", whole=True)
        pane.wait_for(lambda s: "Waiting for a signal" not in s)


def test_a_hook_component_takes_focus_and_returns_a_value(tmp_path: Path) -> None:
    with app(tmp_path, [], ACTIVITY) as pane:
        pane.ready()
        pane.type("/component")
        pane.keys("Enter")
        screen = pane.wait_for("Press z in my component")
        assert screen.count("Press z in my component") == 1  # shown once, in the editor's place
        assert "› " not in screen
        pane.keys("z")
        pane.wait_for("component gave zed", whole=True)
        pane.type("/component")
        pane.keys("Enter")
        pane.wait_for("Press z in my component")
        pane.keys("Escape")
        pane.wait_for("component gave None", whole=True)


OVERLAY = """
from hookline import HookAPI
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import HSplit, Window
from prompt_toolkit.layout.controls import FormattedTextControl


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def start(event, ctx):
        ctx.ui.set_widget("under", ["u" * 100 for _ in range(6)])

    async def float_it(ctx):
        def factory(done):
            kb = KeyBindings()

            @kb.add("z")
            def _(event):
                done("from-the-overlay")

            return HSplit(
                [
                    Window(FormattedTextControl("Press z here", focusable=True, key_bindings=kb)),
                    Window(FormattedTextControl("a floating box")),
                ],
                width=24,
            )

        value = await ctx.ui.custom(factory, overlay=True)
        ctx.ui.notify(f"overlay gave {value}")

    pi.register_shortcut("ctrl+g", float_it, description="an overlay")
"""


def test_an_overlay_component_floats_over_the_app_takes_focus_and_returns(
    tmp_path: Path,
) -> None:
    with app(tmp_path, [], OVERLAY) as pane:
        pane.ready()
        pane.type("my draft")
        pane.keys("C-g")
        screen = pane.wait_for("Press z here")
        lines = screen.splitlines()
        boxed = [line for line in lines if "Press z here" in line]
        # one box, drawn over the widget's row: the widget shows on both sides of it
        assert len(boxed) == 1 and re.fullmatch(r"u+│Press z here +│u+", boxed[0]), screen
        assert sum("a floating box" in line for line in lines) == 1
        # the editor, its draft and the footer are still there underneath
        assert "› my draft" in screen and "msgs · ctx" in screen
        pane.type("typed into the overlay")  # keys go to the overlay, not the editor
        pane.keys("z")
        pane.wait_for("overlay gave from-the-overlay", whole=True)
        screen = pane.wait_for(lambda s: "Press z here" not in s and "› my draft" in s)
        assert "typed into" not in screen
        assert "uuuuuuuuuu" in screen  # the widget is whole again
        pane.keys("C-g")
        pane.wait_for("Press z here")
        pane.keys("Escape")
        pane.wait_for("overlay gave None", whole=True)


def test_a_small_app_makes_room_for_an_overlay(tmp_path: Path) -> None:
    hook = OVERLAY.replace('ctx.ui.set_widget("under"', 'ctx.ui.set_widget("unused"').replace(
        '["u" * 100 for _ in range(6)]', "[]"
    )
    with app(tmp_path, [], hook) as pane:
        pane.ready()
        pane.keys("C-g")
        screen = pane.wait_for("Press z here")
        assert all(t in screen for t in ("a floating box", "esc cancel", "msgs · ctx")), screen
        pane.keys("z")
        pane.wait_for("overlay gave from-the-overlay", whole=True)


def test_hooks_and_permissions_commands(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text('{"permissions": {"deny": ["Bash(rm:*)"], "allow": ["Read"]}}')
    with app(tmp_path, [], ACTIVITY, "--settings", str(settings)) as pane:
        pane.ready()
        pane.type("/hooks")
        pane.keys("Enter")
        pane.wait_all(["Hooks", "hook.py", "tool_call"])
        pane.type("/permissions")
        pane.keys("Enter")
        pane.wait_all(["Permissions", "mode", "default", "deny", "Bash(rm:*)", "allow", "Read"])


def test_new_and_resume_pick_a_session(tmp_path: Path) -> None:
    from tests.modes.helpers import write_script

    model = write_script(tmp_path / "script.json", ["first reply", "second reply"])
    project = tmp_path / "project"
    project.mkdir()
    from .pane import Pane

    with Pane(tmp_path, "--model", model, cwd=project) as pane:
        pane.ready()
        pane.type("the very first question")
        pane.keys("Enter")
        pane.wait_for("first reply")
        pane.type("/new")
        pane.keys("Enter")
        pane.wait_for("new session started")
        pane.type("/resume")
        pane.keys("Enter")
        pane.wait_all(["Resume a session of", "the very first question", "2 msgs"])
        pane.type("VERY")  # the same picker as `hookline -r`: typing filters
        pane.wait_for("1 of 1 · type to filter")
        pane.keys("Enter")
        pane.wait_for("resumed", whole=True)
        screen = pane.wait_for(lambda s: s.count("the very first question") >= 2, whole=True)
        assert "first reply" in screen


def test_version_and_print_mode_never_import_the_terminal_stack(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from hookline.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in ('prompt_toolkit', 'rich') if m in sys.modules]\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    for args in (["--version"], ["-p", "hi", "--no-session"]):
        done = subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=30,
            check=False,
        )
        assert "HEAVY []" in done.stderr, done.stderr


TOOL_RENDERERS = """
from hookline import HookAPI, Tool, ToolResult


async def execute(call_id, params, signal=None, on_update=None):
    return ToolResult([{"type": "text", "text": "raw-result-" + params["city"]}])


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            "weather",
            "the weather in a city",
            {"type": "object", "properties": {"city": {"type": "string"}}},
            execute,
            meta={
                "render_call": lambda args: f"forecast for {args['city']}",
                "render_result": lambda text, options: "SUNNY " + text.upper(),
            },
        )
    )
"""


def test_a_tool_renders_its_own_call_and_result(tmp_path: Path) -> None:
    call = {"tool_calls": [{"name": "weather", "arguments": {"city": "oslo"}}]}
    turns = [call, "nice"]
    with app(tmp_path, turns, TOOL_RENDERERS, "--permission-mode", "bypassPermissions") as pane:
        pane.ready()
        pane.type("weather?")
        pane.keys("Enter")
        screen = pane.wait_all(["✓ weather  forecast for oslo", "SUNNY RAW-RESULT-OSLO", "nice"])
        assert "⎿ raw-result-oslo" not in screen


STATEFUL_RENDERER = """
import asyncio

from hookline import HookAPI, Tool, ToolResult


async def execute(call_id, params, signal=None, on_update=None):
    process = await asyncio.create_subprocess_shell(f"read word < {params['fifo']}")
    await process.wait()
    return ToolResult([{"type": "text", "text": "l1\\nl2"}], details={"count": 2})


def render_result(text, options, theme):
    if options["is_partial"]:
        return "waiting on the fifo..."
    count = options["details"]["count"]
    return f"{count} lines" + (": " + text.replace("\\n", ",") if options["expanded"] else "")


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            "wait",
            "waits",
            {"type": "object", "properties": {"fifo": {"type": "string"}}},
            execute,
            meta={"render_result": render_result},
        )
    )
"""


def test_a_renderer_gets_the_partial_and_expanded_states(tmp_path: Path) -> None:
    fifo = tmp_path / "release"
    os.mkfifo(fifo)
    call = {"tool_calls": [{"name": "wait", "arguments": {"fifo": str(fifo)}}]}
    bypass = ("--permission-mode", "bypassPermissions")
    with app(tmp_path, [call, "waited"], STATEFUL_RENDERER, *bypass) as pane:
        pane.ready()
        pane.type("go")
        pane.keys("Enter")
        pane.wait_for("waiting on the fifo...")  # drawn live while it runs
        with fifo.open("w") as writer:
            writer.write("go\n")
        screen = pane.wait_all(["✓ wait", "2 lines", "waited"])
        assert "waiting on the fifo" not in pane.screen() and "l1,l2" not in screen
        pane.keys("C-o")
        pane.wait_all(["tool output expanded", "2 lines: l1,l2"])
