"""Hooks under abuse through the real CLI: hangs end, no exception type kills a run or the
RPC server, and a failing redaction hook withholds the output from model and session."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .helpers import RpcClient, read_jsonl, run_cli, session_files, write_hook, write_script

KINDS = ["CancelledError", "KeyboardInterrupt", "GeneratorExit", "SystemExit", "BaseException"]

RAISING_HOOK = """
    import asyncio

    class Odd(BaseException):
        pass

    RAISE = {
        "CancelledError": asyncio.CancelledError,
        "KeyboardInterrupt": KeyboardInterrupt,
        "GeneratorExit": GeneratorExit,
        "SystemExit": SystemExit,
        "BaseException": Odd,
    }

    def register(pi):
        @pi.on("tool_call")
        async def guard(event, ctx):
            kind = event.input["command"].split()[-1]
            if kind.startswith("late-"):
                await asyncio.sleep(0.001)
                kind = kind[5:]
            raise RAISE[kind]("from the hook")

        @pi.on("turn_start")
        def noisy(event, ctx):
            raise KeyboardInterrupt("turn_start too")
"""


def _calls() -> list[dict[str, object]]:
    names = [*KINDS, *(f"late-{k}" for k in KINDS)]
    return [
        {"name": "bash", "arguments": {"command": f"echo {name}"}, "id": f"c{i}"}
        for i, name in enumerate(names)
    ]


def _script(tmp_path: Path) -> str:
    return write_script(
        tmp_path / "script.json",
        [
            {"tool_calls": _calls()},
            {"text": "all blocked", "expect_tool_result_contains": "the call is blocked"},
        ],
    )


def _assert_every_call_blocked(session: Path) -> None:
    results = [
        e["message"] for e in read_jsonl(session) if e.get("message", {}).get("role") == "tool"
    ]
    assert len(results) == 2 * len(KINDS)
    for result, kind in zip(results, [*KINDS, *KINDS], strict=True):
        text = result["content"][0]["text"]
        assert result["is_error"] is True
        assert "the call is blocked" in text
        assert kind.replace("BaseException", "Odd") in text


def test_no_exception_type_a_hook_raises_kills_a_print_run(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "raiser.py", RAISING_HOOK)
    done = run_cli("-p", "go", "--model", _script(tmp_path), "--hook", str(hook),
                   "--cwd", str(tmp_path))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "all blocked\n"
    assert "Traceback" not in done.stderr
    assert done.stderr.count("failed on tool_call") == 2 * len(KINDS)
    assert "failed on turn_start: KeyboardInterrupt: turn_start too" in done.stderr
    (session,) = session_files(Path.home())
    _assert_every_call_blocked(session)


async def test_no_exception_type_a_hook_raises_kills_the_rpc_server(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "raiser.py", RAISING_HOOK)
    async with RpcClient(
        "--model", _script(tmp_path), "--hook", str(hook), "--cwd", str(tmp_path)
    ) as rpc:
        lines = await rpc.prompt("go")
        state = await rpc.ok({"type": "get_state"})  # the server still answers
        assert state["messageCount"] == 2 + 2 * len(KINDS) + 1
        # each hook failure is pi's extension_error event, naming the hook and the event
        errors = [m for m in lines if m["type"] == "extension_error"]
        assert len([e for e in errors if e["event"] == "tool_call"]) == 2 * len(KINDS)
        assert all(e["extensionPath"] == str(hook) and e["error"] for e in errors)
        _assert_every_call_blocked(Path(state["sessionFile"]))
        assert await rpc.close_stdin() == 0
    assert "Traceback" not in await rpc.stderr()


HANGING_HOOK = """
    import asyncio

    def register(pi):
        @pi.on("tool_call")
        async def guard(event, ctx):
            if "swallow" in event.input["command"]:
                while True:
                    try:
                        await asyncio.sleep(1000)
                    except asyncio.CancelledError:
                        pass
            await asyncio.Event().wait()
"""


@pytest.mark.parametrize("command", ["echo cooperative", "echo swallow"])
def test_a_tool_call_hook_that_never_answers_is_blocked_and_the_run_ends(
    tmp_path: Path, command: str
) -> None:
    hook = write_hook(tmp_path / "hang.py", HANGING_HOOK)
    (tmp_path / "settings.json").write_text(json.dumps({"hookTimeout": 300}))
    model = write_script(
        tmp_path / "script.json",
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]},
            {"text": "gave up", "expect_tool_result_contains": "timed out after 0.3 s"},
        ],
    )
    done = run_cli("-p", "go", "--model", model, "--hook", str(hook), "--cwd", str(tmp_path),
                   "--settings", str(tmp_path / "settings.json"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "gave up\n"
    assert f"hook {hook} failed on tool_call: timed out after 0.3 s" in done.stderr
    (session,) = session_files(Path.home())
    tool = [e["message"] for e in read_jsonl(session) if e.get("message", {}).get("role") == "tool"]
    assert tool[0]["is_error"] is True
    assert tool[0]["content"][0]["text"].startswith(f"tool_call hook {hook} timed out after 0.3 s")


REDACTING_HOOK = """
    import asyncio

    def register(pi):
        @pi.on("tool_result")
        async def redact(event, ctx):
            text = event.content[0]["text"]
            if "hang" in text:
                await asyncio.Event().wait()
            raise ValueError("redaction service down")
"""


@pytest.mark.parametrize(
    ("secret", "why"),
    [("sk-live-1234 raise", "failed (ValueError: redaction service down)"),
     ("sk-live-1234 hang", "timed out after 0.3 s")],
    ids=["raises", "times-out"],
)  # fmt: skip
def test_a_failing_redaction_hook_withholds_the_output(
    tmp_path: Path, secret: str, why: str
) -> None:
    hook = write_hook(tmp_path / "redact.py", REDACTING_HOOK)
    (tmp_path / "settings.json").write_text(json.dumps({"hookTimeout": 300}))
    (tmp_path / "creds.txt").write_text(secret + "\n")
    model = write_script(
        tmp_path / "script.json",
        [
            {"tool_calls": [{"name": "read", "arguments": {"path": "creds.txt"}}]},
            {"text": "withheld", "expect_tool_result_contains": "the tool's output was withheld"},
        ],
    )
    done = run_cli("-p", "go", "--model", model, "--hook", str(hook), "--cwd", str(tmp_path),
                   "--permission-mode", "bypassPermissions",
                   "--settings", str(tmp_path / "settings.json"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    (session,) = session_files(Path.home())
    assert "sk-live-1234" not in session.read_text()  # neither the model nor the file saw it
    tool = [e["message"] for e in read_jsonl(session) if e.get("message", {}).get("role") == "tool"]
    assert tool[0]["is_error"] is True
    assert tool[0]["content"] == [
        {
            "type": "text",
            "text": f"tool_result hook {hook} {why}; the tool's output was withheld",
        }
    ]


LOAD_KINDS = {
    "GeneratorExit": "GeneratorExit",
    "CancelledError": "asyncio.CancelledError",
    "Odd": "type('Odd', (BaseException,), {})",
}


def test_no_exception_type_raised_at_import_or_in_register_kills_the_run(tmp_path: Path) -> None:
    # found in the user's hooks folder: each failure is reported and the run goes on
    # (a ``--hook`` path that fails stops the start instead)
    folder = Path(os.environ["HOOKLINE_HOME"]) / "hooks"
    for name, expr in LOAD_KINDS.items():
        write_hook(folder / f"import_{name}.py", f"""
            import asyncio
            raise {expr}("at import")
            def register(pi):
                pass
        """)  # fmt: skip
        write_hook(folder / f"register_{name}.py", f"""
            import asyncio
            def register(pi):
                raise {expr}("in register")
        """)  # fmt: skip
    model = write_script(tmp_path / "script.json", [{"text": "still here"}])
    done = run_cli("-p", "go", "--model", model, "--cwd", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "still here\n"
    assert "Traceback" not in done.stderr
    for name in LOAD_KINDS:
        assert f"error while importing: {name}: at import" in done.stderr
        assert f"register() raised {name}: in register" in done.stderr


STUCK_TOOL_HOOK = """
    import asyncio
    from hookline import Tool

    def register(pi):
        async def execute(call_id, params, signal, on_update):
            while True:  # ignores the abort signal and swallows every cancellation
                try:
                    await asyncio.sleep(1000)
                except BaseException:
                    pass

        pi.register_tool(Tool("stuck", "never ends", {"type": "object"}, execute))
"""


async def test_rpc_abort_ends_a_hook_tool_that_swallows_cancellation(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "stuck.py", STUCK_TOOL_HOOK)
    model = write_script(
        tmp_path / "script.json",
        [{"tool_calls": [{"name": "stuck", "arguments": {}, "id": "c1"}]}, {"text": "next run"}],
    )
    async with RpcClient(
        "--model", model, "--hook", str(hook), "--cwd", str(tmp_path),
        "--permission-mode", "bypassPermissions",
    ) as rpc:  # fmt: skip
        await rpc.send({"type": "prompt", "message": "go", "id": "first"})
        await rpc.read_until(lambda m: m["type"] == "tool_execution_start")
        abort, before = await rpc.command({"type": "abort"})
        assert abort["data"]["commandsAbandoned"] == 0, abort
        first = [m for m in rpc.seen if m["type"] == "response" and m.get("id") == "first"]
        assert [m["success"] for m in first] == [True, False], first  # accepted, then aborted
        ended = [m for m in before if m["type"] == "tool_execution_end"]
        assert ended and ended[0]["toolCallId"] == "c1" and ended[0]["isError"] is True
        state = await rpc.ok({"type": "get_state"})
        assert state["isStreaming"] is False  # the agent is free for the next prompt
        await rpc.prompt("again")
        assert await rpc.close_stdin() == 0
    assert "Traceback" not in await rpc.stderr()


STUCK_COMMAND_HOOK = """
    import asyncio

    def register(pi):
        async def hang(args, ctx):
            ctx.ui.notify("hang: started")
            while True:  # swallows every cancellation
                try:
                    await asyncio.sleep(1000)
                except BaseException:
                    pass

        pi.register_command("hang", hang)
"""


async def test_rpc_exits_on_eof_after_abort_gave_up_on_a_hung_command(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "stuck.py", STUCK_COMMAND_HOOK)
    model = write_script(tmp_path / "script.json", [{"text": "unused"}])
    async with RpcClient("--model", model, "--hook", str(hook), "--cwd", str(tmp_path)) as rpc:
        await rpc.send({"type": "command", "name": "hang", "id": "h"})
        await rpc.read_until(lambda m: "hang: started" in str(m.get("message")))
        abort = await rpc.ok({"type": "abort"})
        assert abort["commandsAbandoned"] == 1, abort
        assert await rpc.close_stdin() == 0  # the abandoned command is not waited for
    assert "Traceback" not in await rpc.stderr()
