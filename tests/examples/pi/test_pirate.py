"""pi's pirate example (``examples/pi/pirate.py``): after ``/pirate`` the model is asked in
pirate mode, in a real RPC session with a scripted model; a second ``/pirate`` turns it off."""

from __future__ import annotations

from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import Line, RpcClient, write_script

PIRATE = PI_EXAMPLES / "pirate.py"


def _notes(lines: list[Line]) -> list[str]:
    return [
        str(m["message"])
        for m in lines
        if m["type"] == "extension_ui_request" and m.get("method") == "notify"
    ]


async def test_pirate_mode_reaches_the_system_prompt_until_toggled_off(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [
            {"text": "Arrr, matey!", "expect_system_contains": "You are now in PIRATE MODE"},
            {"text": "Plain answer."},
        ],
    )
    args = ("--model", model, "--hook", str(PIRATE), "--no-session")
    async with RpcClient(*args, cwd=tmp_path) as client:
        response, _ = await client.command({"type": "prompt", "message": "/pirate"})
        assert response["success"] is True
        lines = await client.prompt("hello")
        assert [m for m in lines if m["type"] == "extension_error"] == []
        await client.command({"type": "prompt", "message": "/pirate"})
        lines += await client.prompt("hello again")
        assert await client.close_stdin() == 0
    notes = _notes(client.seen)
    assert notes == ["Arrr! Pirate mode enabled!", "Pirate mode disabled"]
    assert "Plain answer." in str(lines)


async def test_without_the_toggle_the_prompt_is_left_alone(tmp_path: Path) -> None:
    from hookline.authoring import HookHarness

    harness = HookHarness(tmp_path).load(PIRATE)
    emitted = await harness.emit("before_agent_start", prompt="hi", system_prompt="base")
    assert emitted.result is None or getattr(emitted.result, "system_prompt", None) is None
    await harness.command("pirate")
    emitted = await harness.emit("before_agent_start", prompt="hi", system_prompt="base")
    assert getattr(emitted.result, "system_prompt", "").startswith("base\n\nIMPORTANT: ")
