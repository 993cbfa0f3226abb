"""``hookline --mode rpc`` driven by a client written from pi's ``docs/rpc.md`` alone."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from hookline.modes.rpc.events import PI_EVENTS

from ..helpers import CLI, write_hook, write_script
from .pi_rpc_client import Line, PiRpcClient

PI_HOOK = """
    import json

    def register(pi):
        @pi.on("turn_start")
        async def ask(event, ctx):
            ctx.ui.set_status("guard", "turn running")
            ctx.ui.notify("checking", "warning")
            ok = await ctx.ui.confirm("Go on?", "the turn asks", timeout=30)
            choice = await ctx.ui.select("Pick", ["x", "y"])
            with open(RECORD, "a") as f:
                f.write(json.dumps([ok, choice]) + "\\n")
            ctx.ui.set_status("guard", None)

        @pi.on("agent_end")
        async def broken(event, ctx):
            raise RuntimeError("this hook is broken")

        @pi.register_command("hello", description="say hello")
        async def hello(args, ctx):
            ctx.ui.notify("hello " + args)
"""


def _answer(request: Line) -> dict[str, Any]:
    if request["method"] == "confirm":
        return {"confirmed": True}
    return {"value": request["options"][-1]}


def _client(tmp_path: Path, model: str, *args: str, **kw: Any) -> PiRpcClient:
    project = tmp_path / "proj"
    project.mkdir(exist_ok=True)
    argv = [*CLI, "--mode", "rpc", "--model", model, "--cwd", str(project), *args]
    return PiRpcClient(argv, timeout=30, **kw)


async def test_a_pi_client_drives_a_session_answers_dialogs_and_sees_errors(
    tmp_path: Path,
) -> None:
    record = tmp_path / "answers.jsonl"
    hook = write_hook(tmp_path / "pi_hook.py", PI_HOOK.replace("RECORD", repr(str(record))))
    model = write_script(
        tmp_path / "script.json",
        [
            {"text": "Listing.", "tool_calls": [{"id": "c1", "name": "ls", "arguments": {}}]},
            "All done here.",
        ],
    )
    async with _client(tmp_path, model, "--hook", str(hook), answer=_answer) as pi:
        lines = await pi.run("what is here?")
        kinds = [x["type"] for x in lines]
        assert kinds.index("response") < kinds.index("agent_start")  # answered at once
        # dialogs arrived and were answered by the client; the hook saw the answers
        asked = [x for x in lines if x["type"] == "extension_ui_request"]
        methods = [x["method"] for x in asked]
        assert methods[:4] == ["setStatus", "notify", "confirm", "select"]
        status = asked[0]
        assert (status["statusKey"], status["statusText"]) == ("guard", "turn running")
        assert asked[1]["notifyType"] == "warning" and asked[1]["message"] == "checking"
        assert asked[2]["timeout"] == 30_000  # milliseconds, as pi sends it
        cleared = [x for x in asked if x["method"] == "setStatus" and x is not status]
        assert cleared and cleared[0].get("statusText") is None
        answers = [json.loads(x) for x in record.read_text().splitlines()]
        assert answers == [[True, "y"], [True, "y"]]  # one per turn
        # streaming: start, text deltas, end; tool execution in pi's names
        update = next(x for x in lines if x["type"] == "message_update")
        assert update["assistantMessageEvent"]["type"] == "text_start"
        assert kinds.index("message_update") > max(
            i for i, k in enumerate(kinds[: kinds.index("message_update")]) if k == "message_start"
        )
        end = next(x for x in lines if x["type"] == "tool_execution_end")
        assert (end["toolName"], end["toolCallId"], end["isError"]) == ("ls", "c1", False)

        # the broken agent_end hook: an extension_error event, and the agent goes on
        error = await pi.wait_for(lambda x: x["type"] == "extension_error")
        assert error["event"] == "agent_end" and error["extensionPath"] == str(hook)
        assert "this hook is broken" in error["error"]
        # only the kinds pi's RPC document lists; the error said once
        shown = {"response", "extension_ui_request", *PI_EVENTS}
        assert {x["type"] for x in pi.lines} <= shown, {x["type"] for x in pi.lines} - shown
        assert sum("this hook is broken" in json.dumps(x) for x in pi.lines) == 1

        while (await pi.ok("get_state"))["isStreaming"]:
            pass
        assert await pi.ok("get_last_assistant_text") == {"text": "All done here."}
        stats = await pi.ok("get_session_stats")
        assert (stats["userMessages"], stats["assistantMessages"]) == (1, 2)
        assert (stats["toolCalls"], stats["toolResults"], stats["totalMessages"]) == (1, 1, 4)

        # a /command prompt runs the hook command
        start = len(pi.lines)
        await pi.ok("prompt", message="/hello world")
        note = await pi.wait_for(lambda x: x.get("method") == "notify", start)
        assert note["message"] == "hello world"
        commands = (await pi.ok("get_commands"))["commands"]
        assert {"name": "hello", "description": "say hello", "source": "extension"}.items() <= (
            commands[0].items()
        )


async def test_session_name_fork_messages_fork_and_models(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["one", "two", "three"])
    async with _client(tmp_path, model) as pi:
        await pi.run("first question")
        while (await pi.ok("get_state"))["isStreaming"]:
            pass
        await pi.run("second question")
        while (state := await pi.ok("get_state"))["isStreaming"]:
            pass
        assert "sessionName" not in state
        assert await pi.ok("set_session_name", name="my-work") is None
        assert (await pi.ok("get_state"))["sessionName"] == "my-work"

        forks = (await pi.ok("get_fork_messages"))["messages"]
        assert [f["text"] for f in forks] == ["first question", "second question"]
        # fork at the second prompt: the new session ends before it
        data = await pi.ok("fork", entryId=forks[1]["entryId"])
        assert (data["text"], data["cancelled"]) == ("second question", False)
        state = await pi.ok("get_state")
        assert state["sessionFile"] != forks and state["messageCount"] == 2
        messages = (await pi.ok("get_messages"))["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant"]

        models = (await pi.ok("get_available_models"))["models"]
        # this script and the embedded one (no API key: no other provider is usable)
        assert [m["provider"] for m in models] == ["scripted", "scripted"]
        switched = await pi.ok("set_model", provider="scripted", modelId=models[0]["id"])
        assert switched["id"] == models[0]["id"]
        refused = await pi.call("set_model", provider="nope", modelId="x")
        assert refused["success"] is False and refused["error"]

        assert await pi.ok("set_auto_compaction", enabled=False) is None
        assert (await pi.ok("get_state"))["autoCompactionEnabled"] is False


async def test_steer_follow_up_and_the_streaming_rule(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [
            {"text": "slow", "delay_ms": 400},
            {"text": "steered", "expect_user_contains": "change course"},
            {"text": "followed", "expect_user_contains": "afterwards"},
        ],
    )
    async with _client(tmp_path, model, "--no-session") as pi:
        await pi.ok("prompt", message="start")
        await pi.wait_for(lambda x: x["type"] == "turn_start")
        # streaming: a plain prompt is refused, with what to do instead
        refused = await pi.call("prompt", message="again")
        assert refused["success"] is False and "streamingBehavior" in refused["error"]
        assert await pi.ok("follow_up", message="afterwards") is None
        assert await pi.ok("steer", message="change course") is None
        await pi.wait_for(
            lambda x: (
                x["type"] == "message_end"
                and x["message"]["role"] == "assistant"
                and x["message"]["content"][0]["text"] == "followed"
            )
        )
        while (await pi.ok("get_state"))["isStreaming"]:
            pass
        messages = (await pi.ok("get_messages"))["messages"]
        texts = [m["content"][0]["text"] for m in messages]
        # the steer was delivered before the follow-up, which waited for the end
        assert texts == ["start", "slow", "change course", "steered", "afterwards", "followed"]


async def test_abort_bash_stops_only_the_bash_command(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", ["unused"])
    marker = tmp_path / "started"
    async with _client(tmp_path, model, "--no-session") as pi:
        start = len(pi.lines)
        await pi.send({"type": "bash", "id": "b1", "command": f"touch {marker}; exec sleep 60"})
        deadline = asyncio.get_running_loop().time() + 30
        while not marker.exists():
            assert asyncio.get_running_loop().time() < deadline, "bash never started"
            await asyncio.sleep(0.02)
        assert await pi.ok("abort_bash") is None
        done = await pi.wait_for(lambda x: x.get("id") == "b1", start)
        assert done["success"] is True and done["data"]["cancelled"] is True
        state = await pi.ok("get_state")
        assert state["isStreaming"] is False


def test_the_client_is_not_hookline_specific() -> None:
    """The client module imports nothing from hookline or its tests: rpc.md is its only spec."""
    source = (Path(__file__).parent / "pi_rpc_client.py").read_text()
    imports = [x for x in source.splitlines() if x.startswith(("import ", "from "))]
    assert imports and not any("hookline" in x or "helpers" in x for x in imports), imports


#: A hook naming the session after its first prompt's first line.
FIRST_PROMPT_NAMES = """
def register(pi):
    @pi.on("before_agent_start")
    def name(event, ctx):
        if pi.get_session_name() is None:
            pi.set_session_name(event.prompt.strip().splitlines()[0])
"""


async def test_session_names_are_the_agents_whether_a_hook_or_the_client_gives_them(
    tmp_path: Path,
) -> None:
    hook = tmp_path / "first_prompt_names.py"
    hook.write_text(FIRST_PROMPT_NAMES)
    model = write_script(tmp_path / "script.json", ["one"])
    async with _client(tmp_path, model, "--hook", str(hook)) as pi:
        await pi.run("fix the parser\nplease")
        while (state := await pi.ok("get_state"))["isStreaming"]:
            pass
        assert state["sessionName"] == "fix the parser"  # named by the hook (pi.set_session_name)
        assert await pi.ok("set_session_name", name="renamed") is None
        assert (await pi.ok("get_state"))["sessionName"] == "renamed"
    entries = [json.loads(line) for line in Path(state["sessionFile"]).read_text().splitlines()]
    names = [e["name"] for e in entries if e.get("type") == "session_info"]
    assert names == ["fix the parser", "renamed"]  # one kind of entry, not a custom one
