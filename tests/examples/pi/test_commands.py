"""pi's commands example in Python (``examples/pi/commands.py``): ``/commands`` lists what
``pi.get_commands()`` returns, grouped by source, and shows a chosen command's file."""

from __future__ import annotations

from hookline.core.api import HookAPI
from hookline.core.context import HookContext

from ..harness import Example


def _hello(pi: HookAPI) -> None:
    @pi.register_command("hello", description="Say hello")
    def hello(args: str, ctx: HookContext) -> None:
        pass


async def test_the_commands_are_listed_and_the_file_shown(example: Example) -> None:
    harness = example(
        "commands", answers={"select": "/hello - Say hello", "confirm": True}, extra=_hello
    )
    assert await harness.command("commands") == []
    listing = harness.ui.asked[0]
    assert (listing.title, listing.detail) == (
        "Available Commands",
        ["--- Extensions ---", "/commands - List available slash commands", "/hello - Say hello"],
    )
    assert harness.ui.asked[1].detail == "View source path?\nextra.py"
    assert harness.ui.notifications[-1] == ("info", "extra.py")


async def test_a_source_with_no_commands_is_said(example: Example) -> None:
    harness = example("commands", answers={})
    await harness.command("commands", "skill")
    assert harness.ui.notifications == [("info", "No skill commands found")]
    assert harness.ui.asked == []


def test_the_source_is_completed(example: Example) -> None:
    command = example("commands").runner.get_command("commands")
    assert command is not None and command.get_argument_completions is not None
    assert list(command.get_argument_completions("")) == ["extension", "prompt", "skill"]
    assert list(command.get_argument_completions("p")) == ["prompt"]
