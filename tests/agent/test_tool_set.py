"""Tool-set control through a real agent: active tools, late registration, ctx, conflicts,
wrapping, and the system prompt lines tools add."""

from __future__ import annotations

from hookline.core.messages import content_text

from .conftest import MakeAgent

TOOLS_HOOK = """\
from hookline import Tool, ToolResult

SEEN = {}


async def shout(tool_call_id, params, signal, on_update, ctx):
    SEEN["ctx_cwd"] = ctx.cwd
    SEEN["ctx_idle"] = ctx.is_idle()
    return ToolResult([{"type": "text", "text": params["text"].upper()}])


def register(pi):
    SEEN["before_bind"] = pi.get_active_tools()
    pi.register_tool(Tool(
        name="shout",
        description="Upper-case a text",
        parameters={"type": "object", "properties": {"text": {"type": "string"}}},
        execute=shout,
        prompt_snippet="Upper-case a text",
        prompt_guidelines=["Use shout when the user asks for emphasis."],
    ))

    @pi.register_command("readonly")
    def readonly(args, ctx):
        pi.set_active_tools(["read", "ls"])

    @pi.on("session_start")
    def started(event, ctx):
        SEEN["active"] = pi.get_active_tools()
        SEEN["all"] = [(t.name, t.hook_path) for t in pi.get_all_tools()]
"""


async def test_tool_gets_ctx_last_and_prompt_lines_follow_the_active_set(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [
            {"tool_calls": [{"name": "shout", "arguments": {"text": "hi"}}]},
            {"text": "ok", "expect_tool_result_contains": "HI"},
            {"tool_calls": [{"name": "shout", "arguments": {"text": "again"}}]},
            "refused",
        ],
        hooks={"tools": TOOLS_HOOK},
    )
    seen = h.hook("tools").SEEN
    assert seen["before_bind"] == []
    assert "shout" in seen["active"] and "bash" in seen["active"]
    assert ("shout", str(h.hook_files["tools"])) in seen["all"]
    assert ("read", None) in seen["all"]

    await h.agent.prompt("shout hi")
    assert seen["ctx_cwd"] == str(h.project)
    assert seen["ctx_idle"] is False
    first = h.provider.requests[0]
    assert "- shout: Upper-case a text" in first.system_prompt
    assert "- Use shout when the user asks for emphasis." in first.system_prompt
    assert "shout" in [t.name for t in first.tools]

    assert await h.runner.run_command("readonly")
    await h.agent.prompt("shout again")
    later = h.provider.requests[2]
    assert sorted(t.name for t in later.tools) == ["ls", "read"]
    assert "shout" not in later.system_prompt  # guidelines only while the tool is active
    # The model calls the inactive tool anyway: it is not run (fail closed).
    tool_msg = [m for m in h.seen_by_model(3) if m["role"] == "tool"][-1]
    assert tool_msg["is_error"] is True
    assert "unknown tool 'shout'" in content_text(tool_msg["content"])
    assert h.errors == []


async def test_set_active_tools_rejects_an_unknown_name(make_agent: MakeAgent) -> None:
    hook = """\
ERRORS = []

def register(pi):
    @pi.register_command("bad")
    def bad(args, ctx):
        try:
            pi.set_active_tools(["read", "nope"])
        except ValueError as exc:
            ERRORS.append(str(exc))
"""
    h = await make_agent([], hooks={"bad": hook})
    await h.runner.run_command("bad")
    (message,) = h.hook("bad").ERRORS
    assert "unknown tool(s) 'nope'" in message and "known: " in message
    assert "bash" in h.agent.get_active_tools()  # nothing changed


LATE_HOOK = """\
from hookline import Tool, ToolResult


async def echo(tool_call_id, params, signal, on_update):
    return ToolResult([{"type": "text", "text": "echo:" + params["text"]}])


def register(pi):
    @pi.register_command("add-echo")
    def add(args, ctx):
        pi.register_tool(Tool("echo", "Echo", {"type": "object"}, echo))
"""


async def test_a_tool_registered_after_start_up_is_live_on_the_next_model_call(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        ["no echo yet", {"tool_calls": [{"name": "echo", "arguments": {"text": "x"}}]}, "done"],
        hooks={"late": LATE_HOOK},
    )
    h.agent.set_active_tools(["read"])
    await h.agent.prompt("first")
    assert [t.name for t in h.provider.requests[0].tools] == ["read"]
    assert await h.runner.run_command("add-echo")
    await h.agent.prompt("second")
    # A narrowed set gains the new tool: registering it means offering it.
    assert [t.name for t in h.provider.requests[1].tools] == ["read", "echo"]
    tool_msg = [m for m in h.seen_by_model(2) if m["role"] == "tool"][-1]
    assert content_text(tool_msg["content"]) == "echo:x"


DUP_A = """\
from hookline import Tool, ToolResult

async def run(tool_call_id, params, signal, on_update):
    return ToolResult([{"type": "text", "text": "from A"}])

def register(pi):
    pi.register_tool(Tool("dup", "A's", {"type": "object"}, run))
"""

DUP_B = DUP_A.replace("from A", "from B").replace("A's", "B's")


async def test_two_hooks_registering_one_name_is_a_reported_conflict(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "dup", "arguments": {}}]}, "done", "again"],
        hooks={"a": DUP_A, "b": DUP_B},
        start=False,
    )
    await h.agent.prompt("go")
    await h.agent.prompt("again")
    # Reported when the agent is built (on stderr, like every hook error at start-up),
    # once, not on every model call.
    lines = [line for line in h.stderr.getvalue().splitlines() if "register_tool" in line]
    assert len(lines) == 1, lines
    assert f"hook {h.hook_files['b']} failed on register_tool" in lines[0]
    assert f"also registered by {h.hook_files['a']}" in lines[0] and "wins" in lines[0]
    assert [e for e in h.errors if e.event == "register_tool"] == []
    tool_msg = [m for m in h.seen_by_model(1) if m["role"] == "tool"][-1]
    assert content_text(tool_msg["content"]) == "from A"


WRAP_HOOK = """\
CALLS = []


def register(pi):
    async def audited(original, tool_call_id, params, signal, on_update, ctx):
        CALLS.append(params["path"])
        if params["path"].startswith("secret"):
            return __import__("hookline").ToolResult(
                [{"type": "text", "text": "refused by wrapper"}], is_error=True
            )
        result = await original(tool_call_id, params, signal, on_update)
        result.content.append({"type": "text", "text": f"[read by {ctx.mode}]"})
        return result

    pi.wrap_tool("read", audited)
"""


async def test_a_wrapped_tool_delegates_to_the_original(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [
            {"tool_calls": [{"name": "read", "arguments": {"path": "a.txt"}}]},
            {"tool_calls": [{"name": "read", "arguments": {"path": "secret.txt"}}]},
            "done",
        ],
        hooks={"wrap": WRAP_HOOK},
    )
    (h.project / "a.txt").write_text("alpha\n")
    (h.project / "secret.txt").write_text("sk-live\n")
    await h.agent.prompt("read both")
    results = [m for m in h.seen_by_model(2) if m["role"] == "tool"]
    assert content_text(results[0]["content"]).startswith("alpha")
    assert "[read by print]" in content_text(results[0]["content"])
    assert content_text(results[1]["content"]) == "refused by wrapper"
    assert "sk-live" not in str(h.provider.requests[2].messages)
    assert h.hook("wrap").CALLS == ["a.txt", "secret.txt"]
