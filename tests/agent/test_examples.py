"""pi's and oh-my-pi's hook examples, end to end through the real agent.

pi: the permission gate, git checkpointing, the file watcher
(``pi.send`` while idle and while streaming); oh-my-pi: the
``handoff`` command; and a Claude ``Stop`` settings hook that forces one
more turn.
"""

from __future__ import annotations

import asyncio
import json
import stat
import subprocess
from pathlib import Path

from hookline import AgentEndEvent, AgentStartEvent, InputEvent, StopEvent, ToolResultEvent
from hookline.core.messages import content_text

from .conftest import MakeAgent
from .helpers import Harness, ScriptedUI, texts

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hooks"

# -- permission gate ------------------------------------------------------------------

PERMISSION_GATE = r'''
"""pi's permission gate example, in Python."""
import re

DANGEROUS = [
    re.compile(r"\brm\s+(-rf?|--recursive)", re.I),
    re.compile(r"\bsudo\b", re.I),
    re.compile(r"\b(chmod|chown)\b.*777", re.I),
]


def register(pi):
    @pi.on("tool_call")
    async def gate(event, ctx):
        if event.tool_name != "bash":
            return None
        command = event.input["command"]
        if any(p.search(command) for p in DANGEROUS):
            choice = await ctx.ui.select(
                f"Dangerous command:\n\n  {command}\n\nAllow?", ["Yes", "No"]
            )
            if choice != "Yes":
                return {"block": True, "reason": "Blocked by user"}
        return None
'''


def gate_script() -> list[dict[str, object]]:
    return [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf build"}}]},
        {
            "expect_tool_result_contains": "Blocked by user",
            "tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}],
        },
        {"text": "I kept the build folder.", "expect_tool_result_contains": "build"},
    ]


async def test_permission_gate_blocks_and_the_model_reads_the_reason(
    make_agent: MakeAgent, project: Path
) -> None:
    (project / "build").mkdir()
    h = await make_agent(gate_script(), hooks={"gate": PERMISSION_GATE})  # no UI: select → None
    added = await h.agent.prompt("clean up")

    assert (project / "build").is_dir()
    blocked = added[2]
    assert blocked["role"] == "tool" and blocked["is_error"] is True
    assert content_text(blocked["content"]) == "Blocked by user"
    assert texts(added)[-1] == "I kept the build folder."
    assert h.provider.remaining == 0
    # A blocked call never ran, so it has no tool_result; the allowed ``ls`` has one.
    assert [e.input["command"] for e in h.events(ToolResultEvent)] == ["ls"]


async def test_permission_gate_lets_the_command_run_when_the_user_says_yes(
    make_agent: MakeAgent, project: Path
) -> None:
    (project / "build").mkdir()
    ui = ScriptedUI(select="Yes")
    h = await make_agent(
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf build"}}]},
            {"text": "Removed.", "expect_tool_result_contains": "(no output)"},
        ],
        hooks={"gate": PERMISSION_GATE},
        ui=ui,
    )
    await h.agent.prompt("clean up")
    assert not (project / "build").exists()
    assert ui.asked == [("Dangerous command:\n\n  rm -rf build\n\nAllow?", ["Yes", "No"])]


# -- git checkpointing ----------------------------------------------------------------

GIT_CHECKPOINT = (EXAMPLES.parent / "pi" / "git_checkpoint.py").read_text()


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def write_call(content: str) -> dict[str, object]:
    return {"tool_calls": [{"name": "write", "arguments": {"path": "app.py", "content": content}}]}


def _repo(project: Path, work: str) -> None:
    git(project, "init", "-q")
    git(project, "config", "user.email", "dev@example.invalid")
    git(project, "config", "user.name", "dev")
    (project / "app.py").write_text("v0\n")
    git(project, "add", "app.py")
    git(project, "commit", "-qm", "initial")
    (project / "app.py").write_text(work)


def _tool_call_entries(h: Harness) -> list[str]:
    """The assistant messages that asked for a tool call, oldest first."""
    return [
        e["id"]
        for e in h.entries()
        if e["type"] == "message"
        and e["message"]["role"] == "assistant"
        and any(b.get("type") == "tool_call" for b in e["message"]["content"])
    ]


async def test_git_checkpoint_restores_the_code_of_the_entry_forked_at(
    make_agent: MakeAgent, project: Path
) -> None:
    _repo(project, "v1 (the user's uncommitted work)\n")
    ui = ScriptedUI(select="Yes, restore code to that point")
    h = await make_agent(
        [write_call("v2\n"), write_call("v3\n"), "Rewrote app.py twice."],
        hooks={"checkpoint": GIT_CHECKPOINT},
        ui=ui,
        permission_mode="acceptEdits",
    )
    await h.agent.prompt("rewrite app.py")
    assert (project / "app.py").read_text() == "v3\n"
    first, _ = _tool_call_entries(h)

    assert await h.agent.fork(first) is True
    assert ui.asked == [
        ("Restore code state?", ["Yes, restore code to that point", "No, keep current code"])
    ]
    assert (project / "app.py").read_text() == "v2\n"  # as it was after that entry's write
    assert ("info", "Code restored to checkpoint") in ui.notifications
    assert h.agent.session.get_leaf_id() == first
    assert h.errors == []


async def test_git_checkpoint_keeps_the_code_when_the_user_says_no(
    make_agent: MakeAgent, project: Path
) -> None:
    _repo(project, "v1\n")
    h = await make_agent(
        [write_call("v2\n"), write_call("v3\n"), "done"],
        hooks={"checkpoint": GIT_CHECKPOINT},
        ui=ScriptedUI(select="No, keep current code"),
        permission_mode="acceptEdits",
    )
    await h.agent.prompt("rewrite app.py")
    first, _ = _tool_call_entries(h)
    assert await h.agent.fork(first) is True
    assert (project / "app.py").read_text() == "v3\n"


# -- file watcher and pi.send -----------------------------------------------------------

FILE_WATCHER = '''
"""pi's file watcher example, in Python (polling stands in for fs.watch)."""
import asyncio
import os

STATE = {}


def register(pi):
    @pi.on("session_start")
    def watch(event, ctx):
        if event.source != "startup":
            return
        trigger = os.path.join(ctx.cwd, "agent-trigger.txt")
        STATE["ran"] = asyncio.Event()

        async def poll():
            while True:
                try:
                    with open(trigger) as f:
                        content = f.read().strip()
                except FileNotFoundError:
                    content = ""
                if content:
                    pi.send(f"External trigger: {content}")
                    open(trigger, "w").close()  # clear after reading
                await asyncio.sleep(0.01)

        STATE["task"] = asyncio.get_running_loop().create_task(poll())
        ctx.ui.notify(f"Watching {trigger}", "info")

    @pi.on("agent_end")
    def ran(event, ctx):
        STATE["ran"].set()

    @pi.on("session_shutdown")
    def stop(event, ctx):
        STATE["task"].cancel()
'''


async def test_file_watcher_send_while_idle_starts_a_run(
    make_agent: MakeAgent, project: Path
) -> None:
    h = await make_agent(
        [{"text": "Running them.", "expect_user_contains": "External trigger: Run the tests"}],
        hooks={"watcher": FILE_WATCHER},
    )
    state = h.hook("watcher").STATE
    assert h.runner.context.ui.notifications == [  # type: ignore[attr-defined]
        ("info", f"Watching {project / 'agent-trigger.txt'}")
    ]
    (project / "agent-trigger.txt").write_text("Run the tests\n")

    await asyncio.wait_for(state["ran"].wait(), 30)
    await h.agent.wait_for_idle()
    await h.agent.shutdown()

    inp = h.event(InputEvent)
    assert (inp.text, inp.source) == ("External trigger: Run the tests", "extension")
    assert len(h.events(AgentStartEvent)) == 1
    assert h.provider.remaining == 0
    assert (project / "agent-trigger.txt").read_text() == ""
    await asyncio.gather(state["task"], return_exceptions=True)
    assert state["task"].cancelled()  # the watcher stopped at session_shutdown
    assert h.errors == []


SEND_WHILE_STREAMING = """\
def register(pi):
    @pi.on("tool_result")
    def ci_result_arrives(event, ctx):
        pi.send("CI build failed: test_parser")
"""


async def test_send_while_streaming_is_queued_and_seen_at_the_next_model_call(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [
            {"tool_calls": [{"name": "ls", "arguments": {}}]},
            {"text": "Looking at the CI failure.", "expect_user_contains": "CI build failed"},
            "never played",
        ],
        hooks={"ci": SEND_WHILE_STREAMING},
    )
    added = await h.agent.prompt("list the files")

    assert [m["role"] for m in added] == ["user", "assistant", "tool", "user", "assistant"]
    assert texts(added)[3] == "CI build failed: test_parser"
    assert len(h.events(AgentStartEvent)) == 1  # queued into the run, not a new one
    assert h.provider.remaining == 1
    assert [m["role"] for m in h.seen_by_model()] == ["user", "assistant", "tool", "user"]


# -- the handoff command ------------------------------------------------------------------

HANDOFF = (EXAMPLES / "omp_handoff.py").read_text()


async def test_handoff_waits_for_the_run_then_starts_a_child_session(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [
            {"text": "Working on the long job.", "delay_ms": 20},
            {"text": "Picking up.", "expect_user_contains": "what next?"},
        ],
        hooks={"handoff": HANDOFF},
    )
    old = h.agent.session.get_session_file()
    run = asyncio.ensure_future(h.agent.prompt("long job"))
    while not h.agent.is_streaming:
        await asyncio.sleep(0)

    assert await h.runner.run_command("handoff") is True
    assert run.done()  # the command waited for the run to end
    new = h.agent.session.get_session_file()
    assert new is not None and new != old
    header, *entries = h.entries(new)
    assert header["parent_session"] == old
    assert [e["type"] for e in entries] == ["message"]
    assert entries[0]["message"]["content"][0]["text"] == "Continue from prior session summary."
    old_messages = [e["message"] for e in h.entries(old) if e["type"] == "message"]
    assert texts(old_messages) == ["long job", "Working on the long job."]

    await h.agent.prompt("what next?")
    assert texts(h.seen_by_model()) == ["Continue from prior session summary.", "what next?"]
    assert h.errors == []


# -- a Claude Stop hook -------------------------------------------------------------------

STOP_SCRIPT = """#!/usr/bin/env bash
input=$(cat)
printf '%s\\n' "$input" >> "{log}"
if printf '%s' "$input" | grep -q '"stop_hook_active": *false'; then
  echo '{{"decision": "block", "reason": "run the tests"}}'
fi
"""


async def test_a_claude_stop_hook_forces_exactly_one_more_turn(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    log = tmp_path / "stop.log"
    script = tmp_path / "stop.sh"
    script.write_text(STOP_SCRIPT.format(log=log))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    h = await make_agent(
        [
            "Done.",
            {"text": "Ran the tests: all pass.", "expect_user_contains": "run the tests"},
            "never played",
        ],
        claude_settings={
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": str(script)}]}]}
        },
    )
    added = await h.agent.prompt("fix the bug")

    assert texts(added) == ["fix the bug", "Done.", "run the tests", "Ran the tests: all pass."]
    assert h.provider.remaining == 1
    assert [e.stop_hook_active for e in h.events(StopEvent)] == [False, True]
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert [c["stop_hook_active"] for c in calls] == [False, True]
    assert all(c["hook_event_name"] == "Stop" for c in calls)
    assert h.errors == []


FOLLOW_UP = """
ENDS = []
PROBES = []


def register(pi):
    @pi.on("agent_end")
    def follow_up(event, ctx):
        ENDS.append(len(event.messages))
        if len(ENDS) == 1:
            pi.send("and one more thing")  # still streaming: queued for a follow-up run

    @pi.register_command("probe")
    async def probe(args, ctx):
        await ctx.wait_for_idle()
        PROBES.append(len(ENDS))
"""


async def test_wait_for_idle_waits_for_the_follow_up_run_of_a_queued_send(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        ["first", {"text": "second", "expect_user_contains": "and one more thing"}],
        hooks={"follow": FOLLOW_UP},
    )
    run = asyncio.ensure_future(h.agent.prompt("go"))
    while not h.agent.is_streaming:
        await asyncio.sleep(0)
    await h.runner.run_command("probe")

    assert h.hook("follow").PROBES == [2]
    assert not h.agent.is_streaming
    added = await run
    assert texts(added) == ["go", "first", "and one more thing", "second"]
    ends = h.events(AgentEndEvent)  # each run's own messages, not grown afterwards
    assert [texts(e.messages) for e in ends] == [
        ["go", "first"],
        ["and one more thing", "second"],
    ]
    assert h.provider.remaining == 0
