"""`hookline claude-hook` on the inline path (plain handlers, no event loop), attacked.

Each case starts the real command with Claude Code's JSON on stdin. A hook that
misbehaves in any way must leave the command answering, and a ``PreToolUse``
denied: exit 1 with no decision is a non-blocking error to Claude Code, so the
tool call would run.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from .helpers import HookAnswer, pre_tool_use, run_claude_hook


def _pre(cwd: Path, command: str = "ls") -> dict[str, Any]:
    return pre_tool_use(cwd, "Bash", {"command": command})


def _post(cwd: Path) -> dict[str, Any]:
    return {
        "hook_event_name": "PostToolUse",
        "cwd": str(cwd),
        "tool_name": "Bash",
        "tool_input": {"command": "env"},
        "tool_use_id": "t",
        "tool_response": {"stdout": "KEY=sk-123", "stderr": "", "interrupted": False},
    }


def _run(tmp_path: Path, hook_file: Any, source: str, payload: dict[str, Any]) -> HookAnswer:
    hook = hook_file(textwrap.dedent(source))
    return run_claude_hook(payload, "--no-discovery", "--hook", str(hook), cwd=tmp_path)


def _denied(answer: HookAnswer) -> str:
    decision = answer.output["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny", answer
    return str(decision["permissionDecisionReason"])


# -- what the change must not break: BaseException out of a plain handler ---------------


@pytest.mark.parametrize(
    "raised",
    [
        "SystemExit(0)",
        "KeyboardInterrupt()",
        "GeneratorExit()",
        "asyncio.CancelledError()",
        "Custom('mine')",
    ],
)
def test_any_base_exception_out_of_a_plain_handler_denies(
    tmp_path: Path, hook_file: Any, raised: str
) -> None:
    answer = _run(
        tmp_path,
        hook_file,
        f"""
        import asyncio

        class Custom(BaseException):
            pass

        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                raise {raised}
        """,
        _pre(tmp_path),
    )
    assert answer.code == 0, answer.stderr
    assert "the call is blocked" in _denied(answer)


@pytest.mark.parametrize("raised", ["SystemExit(3)", "KeyboardInterrupt()"])
def test_a_returned_coroutine_raising_a_loop_stopping_exception_denies_cleanly(
    tmp_path: Path, hook_file: Any, raised: str
) -> None:
    """asyncio lets these two out of the loop that runs the coroutine: the answer is the
    same denial, and nothing of that loop (a traceback, a stray task) reaches stderr."""
    answer = _run(
        tmp_path,
        hook_file,
        f"""
        import asyncio, sys

        async def check():
            await asyncio.sleep(0)
            raise {raised}

        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                return check()
        """,
        _pre(tmp_path),
    )
    assert "the call is blocked" in _denied(answer)
    assert answer.stderr.strip().splitlines() == [
        line for line in answer.stderr.strip().splitlines() if line.startswith("hookline: ")
    ], answer.stderr


# -- a failure that cannot be described, an answer that cannot be written ----------------


def test_an_exception_that_cannot_be_printed_still_denies(tmp_path: Path, hook_file: Any) -> None:
    answer = _run(
        tmp_path,
        hook_file,
        """
        class Unprintable(Exception):
            def __str__(self):
                raise ValueError("no text for you")

        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                raise Unprintable()
        """,
        _pre(tmp_path),
    )
    assert "Unprintable" in _denied(answer)


def test_a_rewrite_that_cannot_be_sent_to_claude_denies(tmp_path: Path, hook_file: Any) -> None:
    """A rewritten input Claude's JSON cannot carry must not crash the command (exit 1:
    the original call would run unchecked)."""
    answer = _run(
        tmp_path,
        hook_file,
        """
        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                return {"input": {**event.input, "tags": {"a", "b"}}}
        """,
        _pre(tmp_path),
    )
    assert answer.code == 2, answer.stderr
    assert "set" in _denied(answer)


def test_a_rewrite_claude_cannot_parse_denies(tmp_path: Path, hook_file: Any) -> None:
    """``Infinity`` is what Python writes for it, and no JSON parser reads: Claude Code
    would ignore the answer and run the call as it was."""
    answer = _run(
        tmp_path,
        hook_file,
        """
        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                return {"input": {**event.input, "timeout": float("inf")}}
        """,
        _pre(tmp_path),
    )
    assert answer.code == 2, answer.stderr
    assert "not JSON" in _denied(answer)


def test_a_hook_breaking_the_bridge_itself_still_gets_a_denial(
    tmp_path: Path, hook_file: Any
) -> None:
    """Whatever goes wrong after the hooks ran, the command answers: a crash is exit 1."""
    answer = _run(
        tmp_path,
        hook_file,
        """
        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                ctx.host.context.append(5)  # not text: joining the context fails
        """,
        _pre(tmp_path),
    )
    assert answer.code == 2, answer.stderr
    assert "no answer could be made (TypeError" in _denied(answer)


# -- handler shapes: classified for the loop they need, all answered ---------------------


@pytest.mark.parametrize(
    "handler",
    ["Guard()", "Holder.__dict__['check']", "Holder().bound", "functools.partial(check, 1)"],
)
def test_odd_callables_returning_awaitables_still_block(
    tmp_path: Path, hook_file: Any, handler: str
) -> None:
    answer = _run(
        tmp_path,
        hook_file,
        f"""
        import asyncio, functools

        async def check(*args):
            await asyncio.sleep(0)
            asyncio.get_running_loop()  # a loop runs for it
            return {{"block": True, "reason": "odd callable"}}

        class Guard:
            async def __call__(self, event, ctx):
                return await check()

        class Holder:
            check = staticmethod(check)

            async def bound(self, event, ctx):
                return await check()

        def register(pi):
            pi.on("tool_call", {handler})
        """,
        _pre(tmp_path),
    )
    assert _denied(answer) == "odd callable"


def test_a_failing_plain_tool_result_handler_withholds_the_output(
    tmp_path: Path, hook_file: Any
) -> None:
    answer = _run(
        tmp_path,
        hook_file,
        """
        def register(pi):
            @pi.on("tool_result")
            def redact(event, ctx):
                raise SystemExit("redactor down")
        """,
        _post(tmp_path),
    )
    assert answer.output["decision"] == "block", answer
    assert "withheld" in answer.output["reason"]
    assert "sk-123" not in str(answer.output)


def test_mixed_plain_handlers_first_block_wins_after_a_rewrite(
    tmp_path: Path, hook_file: Any
) -> None:
    answer = _run(
        tmp_path,
        hook_file,
        """
        import asyncio

        async def later(event):
            await asyncio.sleep(0)
            if event.input["command"].startswith("rm"):
                return {"block": True, "reason": "rewritten to rm"}

        def register(pi):
            @pi.on("tool_call")
            def rewrite(event, ctx):
                return {"input": {"command": "rm -rf /"}}

            @pi.on("tool_call")
            def check(event, ctx):
                return later(event)
        """,
        _pre(tmp_path),
    )
    assert _denied(answer) == "rewritten to rm"


# -- the asyncio path of the same command: an orphan must not hold the answer ------------

_STUBBORN = """
import asyncio, sys
from hookline.core.api import HookAPI, LoadedHook
from hookline.core.runner import HookRunner
from hookline.bridge.engine import BridgeHooks

async def stubborn(event, ctx):
    while True:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            pass  # ignores every cancellation

runner = HookRunner(cwd=".", timeout=0.2, grace=0.2)
hook = LoadedHook(path="/x/stubborn.py")
api = HookAPI(hook)
api.on("tool_call", stubborn)
runner.add_hook(hook, api)
payload = {"hook_event_name": "PreToolUse", "cwd": "/tmp", "tool_name": "Bash",
           "tool_input": {"command": "ls"}, "tool_use_id": "t"}
answer = BridgeHooks(runner).answer_once(payload)
print(answer.output["hookSpecificOutput"]["permissionDecision"])
"""


def test_an_async_handler_ignoring_its_cancellation_does_not_hold_the_answer(
    tmp_path: Path,
) -> None:
    """``asyncio.run`` waits at its end for every task left, the abandoned handler too: the
    command would never answer, and Claude Code's own timeout lets the call through."""
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _STUBBORN],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("answer_once did not return: it waits for the abandoned handler")
    assert proc.stdout.strip() == "deny", proc.stderr


async def test_serve_answers_an_unencodable_rewrite_with_a_denial_too() -> None:
    """``hookline serve`` answers through ``BridgeHooks.answer``: an answer it could not
    send would be an HTTP error, a non-blocking one, and the call would run."""
    from hookline.bridge.engine import BridgeHooks
    from hookline.core.api import HookAPI, LoadedHook
    from hookline.core.runner import HookRunner

    runner = HookRunner(cwd=".")
    hook = LoadedHook(path="/x/rewrite.py")
    api = HookAPI(hook)
    api.on("tool_call", lambda event, ctx: {"input": {"command": "ls", "tags": {"a"}}})
    runner.add_hook(hook, api)
    payload = {
        "hook_event_name": "PreToolUse",
        "cwd": "/tmp",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_use_id": "t",
    }

    answer = await BridgeHooks(runner).answer(payload)

    assert answer.exit_code == 2
    assert answer.output["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "not JSON" in answer.stderr


def test_an_async_bus_subscriber_runs_when_a_plain_handler_emits_to_it(
    tmp_path: Path, hook_file: Any
) -> None:
    """A hook listening on ``pi.events`` may be ``async``: the event then runs in a loop,
    so what a plain handler emits reaches it (stepped without a loop, it never ran)."""
    seen = tmp_path / "seen.txt"
    source = f"""
        import pathlib

        def register(pi):
            async def audit(command):
                pathlib.Path({str(seen)!r}).write_text(command)

            pi.events.on("audit", audit)

            @pi.on("tool_call")
            def guard(event, ctx):
                pi.events.emit("audit", event.input["command"])
                return {{"block": True, "reason": "audited"}}
    """
    answer = _run(tmp_path, hook_file, source, _pre(tmp_path, "rm -rf build"))

    assert _denied(answer) == "audited"
    assert seen.read_text() == "rm -rf build"
