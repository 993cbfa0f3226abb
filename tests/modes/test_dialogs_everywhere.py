"""Every dialog kind from every event that can have a UI, in every mode.

Print and JSON mode have no UI: each dialog returns its no-UI value at once. Under
``--mode rpc`` a real subprocess is answered over its pipes as a host would; the
session_start dialogs among them, which are open before any command is read. EOF while
a dialog is open ends the process (the dialog returns its no-UI value). The terminal
app's cases are in tests/modes/tui/test_dialogs.py.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from .helpers import TIMEOUT, Line, RpcClient, run_cli, write_hook, write_script

#: The events of a run, in the order a run meets them, then the compaction a hook asks for.
RUN_EVENTS = [
    "session_start",
    "input",
    "before_agent_start",
    "agent_start",
    "turn_start",
    "context",
    "tool_call",
    "tool_result",
    "turn_end",
    "agent_end",
    "session_before_compact",
]
#: Every place a dialog is opened from: the events, a hook command, the session's end
#: (``/reload`` under RPC, where the host still answers; the exit in print mode).
PLACES = [*RUN_EVENTS, "command", "session_shutdown"]

HOOK = """
import json
from pathlib import Path

RESULTS = Path(RESULTS_PATH)


def register(pi):
    asked = set()

    async def dialogs(place, ctx):
        if place in asked:  # once per place (turn_start comes twice, ...)
            return
        asked.add(place)
        answers = {
            "select": await ctx.ui.select(f"{place} select", ["no", place]),
            "confirm": await ctx.ui.confirm(f"{place} confirm", "sure?"),
            "input": await ctx.ui.input(f"{place} input", "placeholder"),
            "editor": await ctx.ui.editor(f"{place} editor", "prefill"),
            "custom": await ctx.ui.custom(lambda *args: None),
        }
        with RESULTS.open("a") as f:
            f.write(json.dumps({"place": place, **answers}) + "\\n")
        ctx.ui.notify(f"done {place}")

    def on(place):
        async def handler(event, ctx):
            await dialogs(place, ctx)
            if place == "agent_end":
                ctx.compact()  # brings session_before_compact
            if place == "session_before_compact":
                return {"cancel": True}  # no summary to make

        pi.on(place, handler)

    for place in PLACES:
        if place != "command":
            on(place)

    @pi.register_command("ask")
    async def ask(args, ctx):
        await dialogs("command", ctx)

    @pi.register_command("again")
    async def again(args, ctx):
        await ctx.reload()  # session_shutdown (reason "reload") while the host is there
"""

NO_UI = {"select": None, "confirm": False, "input": None, "editor": None, "custom": None}


def _setup(tmp_path: Path, places: list[str] = PLACES) -> tuple[str, Path, Path]:
    """The scripted model (one bash call, then an answer), the hook, the results file."""
    results = tmp_path / "results.jsonl"
    hook = write_hook(
        tmp_path / "dialogs.py",
        HOOK.replace("RESULTS_PATH", repr(str(results))).replace("PLACES", repr(places)),
    )
    # two calls printing ~50 KB each: the prompt before them is old enough to summarise
    big = "yes 0123456789012345678901234567890123456789 | head -n 1240"
    bash = {"name": "bash", "arguments": {"command": big}}
    model = write_script(tmp_path / "s.json", [{"tool_calls": [bash, bash]}, "done"])
    return model, hook, results


def _results(path: Path) -> dict[str, dict[str, Any]]:
    """Each place's first answers (a reloaded hook asks again; its exit has no host)."""
    found: dict[str, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        answers = json.loads(line)
        found.setdefault(answers.pop("place"), answers)
    return found


@pytest.mark.parametrize("mode", [["-p"], ["--mode", "json", "-p"]])
def test_without_a_ui_every_dialog_returns_its_no_ui_value(tmp_path: Path, mode: list[str]) -> None:
    model, hook, results = _setup(tmp_path)
    done = run_cli(
        *mode, "go", "--model", model, "--hook", str(hook), "--no-session",
        "--permission-mode", "bypassPermissions", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = _results(results)
    # print and JSON mode run no hook commands: every other place is reached
    assert sorted(found) == sorted(p for p in PLACES if p != "command")
    for place, answers in found.items():
        assert answers == NO_UI, place


def _answer(request: Line) -> Line:
    """What a host answers: the last option, yes, and the title for text."""
    answer: Line = {"type": "extension_ui_response", "id": request["id"]}
    method = request["method"]
    if method == "select":
        answer["value"] = request["options"][-1]
    elif method == "confirm":
        answer["confirmed"] = True
    else:
        answer["value"] = f"{request['title']} answered"
    return answer


async def _host_until(client: RpcClient, done: str) -> list[Line]:
    """Read lines, answering every dialog, until the hook says ``done``."""
    lines = []
    while True:
        line = await client.read()
        lines.append(line)
        if line["type"] != "extension_ui_request":
            continue
        if line["method"] in ("select", "confirm", "input", "editor"):
            await client.send(_answer(line))
        elif line.get("message") == done:
            return lines


def _answered(place: str) -> dict[str, Any]:
    return {
        "select": place,
        "confirm": True,
        "input": f"{place} input answered",
        "editor": f"{place} editor answered",
        "custom": None,  # a terminal component: no RPC form
    }


async def test_rpc_host_answers_every_dialog_from_every_place(tmp_path: Path) -> None:
    model, hook, results = _setup(tmp_path)
    args = ("--model", model, "--hook", str(hook), "--no-session")
    async with RpcClient(*args, "--permission-mode", "bypassPermissions", cwd=tmp_path) as client:
        # session_start's dialogs are open before the host sent anything
        await _host_until(client, "done session_start")
        await client.send({"type": "prompt", "message": "go", "id": "run"})
        await _host_until(client, "done session_before_compact")
        await client.send({"type": "prompt", "message": "/ask", "id": "ask"})
        await _host_until(client, "done command")
        await client.send({"type": "prompt", "message": "/again", "id": "again"})
        await _host_until(client, "done session_shutdown")
        # the reloaded hook asks again from its session_start (source "reload")
        await _host_until(client, "done session_start")
        assert await client.close_stdin() == 0
    found = _results(results)
    assert sorted(found) == sorted(PLACES)
    for place, answers in found.items():
        assert answers == _answered(place), place


async def test_rpc_commands_sent_during_a_session_start_dialog_are_answered_after_it(
    tmp_path: Path,
) -> None:
    model, hook, results = _setup(tmp_path)
    async with RpcClient("--model", model, "--hook", str(hook), "--no-session") as client:
        request = await client.read_until(lambda m: m["type"] == "extension_ui_request")
        await client.send({"type": "get_state", "id": "state"})  # waits for session_start
        await client.send(_answer(request[-1]))  # read although a command waits
        lines = await _host_until(client, "done session_start")
        lines += await client.read_until(lambda m: m.get("id") == "state")
        assert lines[-1]["success"] is True
        assert await client.close_stdin() == 0
    assert _results(results)["session_start"] == _answered("session_start")


async def test_rpc_abort_closes_a_session_start_dialog(tmp_path: Path) -> None:
    model, hook, results = _setup(tmp_path)
    async with RpcClient("--model", model, "--hook", str(hook), "--no-session") as client:
        await client.read_until(lambda m: m["type"] == "extension_ui_request")
        await client.send({"type": "abort", "id": "abort"})
        lines = await client.read_until(lambda m: m.get("id") == "abort")
        assert lines[-1]["success"] is True, lines[-1]
        assert lines[-1]["data"]["dialogsClosed"] == 1
        assert any(m["type"] == "extension_ui_cancelled" for m in lines)
        # the later dialogs of the same handler are refused while the abort winds down,
        # or answered: either way the process keeps serving
        await client.send({"type": "get_state", "id": "state"})
        await _host_until_response(client, "state")
        assert await client.close_stdin() == 0
    assert _results(results)["session_start"]["select"] is None  # closed, never a yes


async def _host_until_response(client: RpcClient, request_id: str) -> Line:
    while True:
        line = await client.read()
        if line["type"] == "extension_ui_request" and line["method"] != "notify":
            await client.send(_answer(line))
        if line["type"] == "response" and line.get("id") == request_id:
            return line


@pytest.mark.parametrize("place", ["session_start", "tool_call"])
async def test_rpc_eof_while_a_dialog_is_open_ends_the_process(tmp_path: Path, place: str) -> None:
    """The host is gone: the open dialog and every later one return the no-UI value, the
    run ends (session_shutdown included) and the process exits 0."""
    model, hook, results = _setup(tmp_path)
    args = ("--model", model, "--hook", str(hook), "--no-session")
    async with RpcClient(*args, "--permission-mode", "bypassPermissions", cwd=tmp_path) as client:
        if place != "session_start":
            await _host_until(client, "done session_start")
            await client.send({"type": "prompt", "message": "go", "id": "run"})
            await _host_until(client, "done context")
        await client.read_until(
            lambda m: m["type"] == "extension_ui_request" and m.get("title") == f"{place} select"
        )
        code = await asyncio.wait_for(client.close_stdin(), TIMEOUT)
    assert code == 0
    found = _results(results)
    assert found[place] == NO_UI
    assert found["session_shutdown"] == NO_UI


def test_interactive_mode_on_a_pipe_reads_each_answer_from_the_next_line(tmp_path: Path) -> None:
    """No terminal: hookline reads prompts and dialog answers line by line (option 2, y, a
    typed line, an edited one); session_start's come before the first prompt."""
    model, hook, results = _setup(tmp_path, ["session_start", "tool_call"])
    answers = "2\ny\ntyped\nedited\n"
    done = run_cli(
        "--model", model, "--hook", str(hook), "--no-session",
        "--permission-mode", "bypassPermissions", cwd=tmp_path, stdin=answers + "go\n" + answers,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = {"confirm": True, "input": "typed", "editor": "edited", "custom": None}
    assert _results(results) == {
        place: {"select": place, **expected} for place in ("session_start", "tool_call")
    }
