"""``ctx`` and ``pi`` additions on a real agent: control flow, model and thinking level,
session metadata, command-context session moves, reload, async register, the event bus."""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path

from hookline import ContextUsage, ModelInfo, SessionShutdownEvent, SessionStartEvent
from hookline.discovery.loader import module_name_for
from hookline.session import SessionManager

from .conftest import MakeAgent
from .helpers import ScriptedUI, texts

CONTROL = """\
import asyncio

SEEN = {}


def register(pi):
    @pi.on("agent_start")
    def started(event, ctx):
        SEEN["idle_in_run"] = ctx.is_idle()
        SEEN["signal_in_run"] = ctx.signal is not None and not ctx.signal.is_set()
        SEEN["mode"] = ctx.mode
        SEEN["model"] = ctx.model_info

    @pi.on("tool_execution_start")
    def abort_it(event, ctx):
        SEEN["signal"] = ctx.signal
        ctx.abort()
"""


async def test_is_idle_signal_abort_and_mode(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "bash", "arguments": {"command": "sleep 5"}}]}, "never"],
        hooks={"control": CONTROL},
        mode="rpc",
    )
    await asyncio.wait_for(h.agent.prompt("go"), 10)
    seen = h.hook("control").SEEN
    assert seen["idle_in_run"] is False
    assert seen["signal_in_run"] is True
    assert seen["signal"].is_set()  # the abort set the run's signal
    assert seen["mode"] == "rpc"
    model = seen["model"]
    assert isinstance(model, ModelInfo)
    assert model.provider == "scripted" and model.context_window == h.agent.context_window
    assert h.provider.remaining == 1  # the run ended after the abort
    assert h.runner.context.is_idle() is True
    assert h.runner.context.signal is None


async def test_context_usage_and_thinking_level_reach_the_provider(
    make_agent: MakeAgent,
) -> None:
    hook = """\
def register(pi):
    @pi.register_command("think")
    def think(args, ctx):
        ctx.set_thinking_level(args)
"""
    h = await make_agent(["one", "two"], hooks={"think": hook})
    await h.agent.prompt("word " * 400)
    usage = h.runner.context.get_context_usage()
    assert isinstance(usage, ContextUsage)
    assert usage.context_window == h.agent.context_window
    assert usage.tokens is not None and usage.tokens >= 400
    assert usage.percent == round(100 * usage.tokens / usage.context_window, 1)
    assert h.provider.requests[0].thinking == "off"
    await h.runner.run_command("think", "high")
    assert h.runner.context.get_thinking_level() == "high"
    await h.agent.prompt("again")
    assert h.provider.requests[1].thinking == "high"
    await h.runner.run_command("think", "extreme")
    (error,) = h.errors
    assert "thinking level 'extreme'" in error.error and "xhigh" in error.error


async def test_set_model_switches_and_a_bad_spec_returns_false(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"turns": ["from the other model"]}')
    hook = """\
RESULTS = []

def register(pi):
    @pi.register_command("switch")
    async def switch(args, ctx):
        RESULTS.append(await ctx.set_model(args))
        RESULTS.append(ctx.model)
"""
    h = await make_agent([], hooks={"model": hook})
    await h.runner.run_command("switch", "nosuch:provider")
    await h.runner.run_command("switch", f"scripted:{other}")
    results = h.hook("model").RESULTS
    assert results[0] is False
    assert results[2:] == [True, f"scripted:{other}"]
    added = await h.agent.prompt("hi")
    assert texts(added)[-1] == "from the other model"


async def test_compact_and_shutdown_from_a_handler(make_agent: MakeAgent) -> None:
    hook = """\
def register(pi):
    @pi.on("agent_end")
    def ended(event, ctx):
        if len(event.messages) and "bye" in str(event.messages[0]):
            ctx.shutdown()

    @pi.register_command("compact")
    def compact(args, ctx):
        ctx.compact(custom_instructions=args)
"""
    h = await make_agent(["one", "two", "three"], hooks={"sd": hook})
    await h.agent.prompt("first")
    await h.agent.prompt("second " * 18_000)  # past the 20,000 tokens compaction keeps
    await h.runner.run_command("compact", "keep names")
    await h.agent.wait_for_idle()
    (before,) = [e for e in h.recorded() if e.type == "session_before_compact"]
    assert before.custom_instructions == "keep names"  # type: ignore[attr-defined]
    assert any(e["type"] == "compaction" for e in h.entries())
    await h.agent.prompt("bye now")
    await asyncio.wait_for(h.agent.shutdown_requested.wait(), 10)
    assert h.event(SessionShutdownEvent).reason == "shutdown"


async def test_session_name_and_labels_are_entries_listings_show(
    make_agent: MakeAgent, project: Path
) -> None:
    hook = """\
NAMES = []

def register(pi):
    @pi.register_command("name")
    def name(args, ctx):
        pi.set_session_name(args)
        NAMES.append(pi.get_session_name())

    @pi.register_command("mark")
    def mark(args, ctx):
        entry_id, label = args.split(" ", 1)
        pi.set_label(entry_id, None if label == "-" else label)
"""
    h = await make_agent(["answer"], hooks={"meta": hook})
    await h.agent.prompt("question")
    await h.runner.run_command("name", "first try")
    await h.runner.run_command("name", "refactor auth")
    first_id = next(e["id"] for e in h.entries()[1:] if e["type"] == "message")
    await h.runner.run_command("mark", f"{first_id} start here")
    await h.runner.run_command("mark", "nosuch oops")
    assert h.hook("meta").NAMES == ["first try", "refactor auth"]
    assert h.agent.session.get_labels() == {first_id: "start here"}
    (bad,) = h.errors
    assert "'nosuch' is not an entry" in bad.error
    h.agent.session.flush()
    folder = Path(h.agent.session.get_session_file() or "").parent
    (info,) = SessionManager.list_sessions(project, session_dir=folder)
    assert info.name == "refactor auth"
    await h.runner.run_command("mark", f"{first_id} -")
    assert h.agent.session.get_labels() == {}
    # The model never sees metadata entries.
    assert "refactor auth" not in str(h.agent.session.build_context_messages())


async def test_command_context_fork_navigate_switch_and_reload(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    hook = """\
RESULTS = []
LOADS = []

LOADS.append("loaded")


def register(pi):
    @pi.register_command("fork")
    async def fork(args, ctx):
        RESULTS.append(("fork", await ctx.fork(args or None), ctx.session_file))

    @pi.register_command("nav")
    async def nav(args, ctx):
        RESULTS.append(("nav", await ctx.navigate_tree(args)))

    @pi.register_command("switch")
    async def switch(args, ctx):
        RESULTS.append(("switch", await ctx.switch_session(args), ctx.session_file))

    @pi.register_command("reload")
    async def reload(args, ctx):
        await ctx.reload()
"""
    h = await make_agent(["one", "two"], hooks={"cmds": hook})
    await h.agent.prompt("first")
    original = h.agent.session.get_session_file()
    first_user = next(e["id"] for e in h.entries()[1:] if e["type"] == "message")
    module = h.hook("cmds")
    await h.runner.run_command("fork", first_user)
    forked = h.agent.session.get_session_file()
    assert module.RESULTS[0] == ("fork", True, forked) and forked != original
    await h.runner.run_command("switch", str(original))
    assert module.RESULTS[1] == ("switch", True, original)
    await h.runner.run_command("nav", first_user)
    assert module.RESULTS[2] == ("nav", True)
    assert h.agent.session.get_leaf_id() == first_user

    old_recorder = h.hook("recorder")
    await h.runner.run_command("reload")
    # The old hooks hear session_shutdown (reason "reload") last; the reloaded ones (the
    # recorder is re-imported too) hear session_start with source "reload" first.
    last = old_recorder.EVENTS[-1]
    assert isinstance(last, SessionShutdownEvent) and last.reason == "reload"
    starts = [e for e in h.hook("recorder").EVENTS if isinstance(e, SessionStartEvent)]
    assert [s.source for s in starts] == ["reload"]
    assert h.hook("cmds").LOADS == ["loaded"]  # a fresh module
    assert h.hook("cmds") is not module
    assert await h.runner.run_command("fork")  # the reloaded hook's commands work


async def test_async_register_is_awaited_before_the_agent_starts(make_agent: MakeAgent) -> None:
    hook = """\
import asyncio

ORDER = []


async def register(pi):
    await asyncio.sleep(0)
    ORDER.append("registered")

    @pi.on("session_start")
    def started(event, ctx):
        ORDER.append("session_start")
"""
    h = await make_agent([], hooks={"asyncreg": hook})
    assert h.hook("asyncreg").ORDER == ["registered", "session_start"]


async def test_an_async_register_that_fails_contributes_nothing(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    bad = tmp_path / "bad_async.py"
    bad.write_text(
        "async def register(pi):\n"
        f"    pi.events.on('ping', lambda data: open({str(tmp_path / 'heard')!r}, 'w').close())\n"
        "    pi.on('agent_start', lambda e, c: None)\n"
        "    raise RuntimeError('config missing')\n"
        "HEARD = []\n"
    )
    pinger = """\
def register(pi):
    @pi.register_command("ping")
    def ping(args, ctx):
        pi.events.emit("ping", args)
"""
    from hookline.agent.setup import AgentOptions, build_agent

    script = tmp_path / "s.json"
    script.write_text('{"turns": []}')
    stderr = io.StringIO()
    pinger_file = tmp_path / "pinger.py"
    pinger_file.write_text(pinger)
    bundle = await build_agent(
        AgentOptions(
            cwd=str(h_project(tmp_path)),
            model=f"scripted:{script}",
            hook_paths=[str(bad), str(pinger_file)],
            no_session=True,
            trust_project=True,
            hook_paths_must_load=False,  # the failed hook is reported, the other runs
        ),
        stderr=stderr,
    )
    (error,) = bundle.load_result.errors
    assert "register() raised RuntimeError: config missing" in error.reason
    assert not bundle.runner.has_handlers("agent_start")
    await bundle.runner.run_command("ping", "hello")
    # The failed hook's bus subscription went with it: the ping reached no one.
    assert not (tmp_path / "heard").exists()
    assert module_name_for(str(bad)) not in sys.modules
    assert [e for e in bundle.runner.hooks if e.path == str(bad)] == []
    assert "failed to load: register() raised RuntimeError" in stderr.getvalue()
    bundle.agent.session.close()


def h_project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir(exist_ok=True)
    return folder


BUS_A = """\
HEARD = []


def register(pi):
    pi.events.on("deploy", lambda data: HEARD.append(("sync", data)))

    async def later(data):
        HEARD.append(("async", data))

    off = pi.events.on("deploy", later)
    pi.events.on("boom", lambda data: 1 / 0)
    pi.events.on("tool_call", lambda data: HEARD.append(("fake", data)))

    @pi.register_command("off")
    def unsubscribe(args, ctx):
        off()
"""

BUS_B = """\
def register(pi):
    @pi.register_command("deploy")
    def deploy(args, ctx):
        pi.events.emit("deploy", {"env": args})
        pi.events.emit("boom")
"""


async def test_event_bus_between_hooks_is_isolated_from_agent_events(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "ls", "arguments": {}}]}, "done"],
        hooks={"a": BUS_A, "b": BUS_B},
    )
    await h.runner.run_command("deploy", "prod")
    await asyncio.sleep(0)  # let the async subscriber's task run once
    await h.agent.wait_for_idle()
    heard = h.hook("a").HEARD
    for _ in range(100):  # the async subscriber runs as a task: wait for it
        if len(heard) >= 2:
            break
        await asyncio.sleep(0)
    assert heard == [("sync", {"env": "prod"}), ("async", {"env": "prod"})]
    (boom,) = [e for e in h.errors if e.event == "events"]
    assert "ZeroDivisionError" in boom.error and "boom" in boom.hook_path
    # Agent events never reach the bus, and bus channels are not agent events.
    await h.agent.prompt("list")
    assert [x for x in heard if x[0] == "fake"] == []
    assert not h.types().count("deploy")
    await h.runner.run_command("off")
    await h.runner.run_command("deploy", "staging")
    assert heard[-1] == ("sync", {"env": "staging"})
    assert ("async", {"env": "staging"}) not in heard


async def test_session_manager_is_a_read_only_view(make_agent: MakeAgent) -> None:
    hook = """\
SEEN = []

def register(pi):
    @pi.on("agent_end")
    def ended(event, ctx):
        sm = ctx.session_manager
        SEEN.append(len(sm.get_entries()))
        SEEN.append(sm.get_leaf_id() == sm.get_entries()[-1]["id"])
        for write in ("append_message", "append_custom_entry", "branch", "close"):
            try:
                getattr(sm, write)
            except AttributeError as exc:
                SEEN.append(str(exc).split(":")[0])
"""
    h = await make_agent(["answer"], hooks={"ro": hook})
    await h.agent.prompt("hi")
    seen = h.hook("ro").SEEN
    assert seen[:2] == [2, True]
    assert seen[2:] == ["ctx.session_manager is read-only"] * 4


class _OpenDialogs(ScriptedUI):
    """A UI whose ``confirm`` stays open until cancelled, and says when it was closed."""

    def __init__(self) -> None:
        super().__init__()
        self.opened = asyncio.Event()
        self.closed: list[str] = []

    async def confirm(self, title: str, message: str) -> bool:
        self.opened.set()
        try:
            await asyncio.Event().wait()
        finally:
            self.closed.append(title)
        return False


async def test_an_abort_closes_the_dialogs_hooks_opened(make_agent: MakeAgent) -> None:
    hook = """\
import asyncio

RESULTS = []


def register(pi):
    @pi.on("tool_call")
    async def ask(event, ctx):
        # The dialog is awaited from a task of the handler's own: cancelling the handler
        # alone would leave it on screen.
        task = asyncio.ensure_future(ctx.ui.confirm("Run it?", event.input["command"]))
        try:
            RESULTS.append(await task)
        except asyncio.CancelledError:
            RESULTS.append("cancelled")
            raise
"""
    ui = _OpenDialogs()
    h = await make_agent(
        [{"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]}, "never"],
        hooks={"ask": hook},
        ui=ui,
    )
    run = asyncio.ensure_future(h.agent.prompt("go"))
    await asyncio.wait_for(ui.opened.wait(), 10)
    h.agent.abort()
    await asyncio.wait_for(run, 10)
    assert ui.closed == ["Run it?"]
    assert h.hook("ask").RESULTS == ["cancelled"]
