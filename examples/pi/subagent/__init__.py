"""pi's subagent example: a ``subagent`` tool that hands tasks to specialised agents, each
a separate ``hookline -p --mode json`` process with a context of its own.

An agent is a Markdown file: front matter with ``name``, ``description`` and
optionally ``tools`` (comma-separated) and ``model``; its body is added to the
agent's system prompt. They are found

- beside this hook (``agents/``: scout, planner, reviewer, worker) and in
  ``$HOOKLINE_HOME/agents/`` (scope ``user``, the default; the user's win by name);
- in the nearest ``.hookline/agents/`` up from the project (scope ``project``,
  or ``both``). Project agents are the repository's prompts: with a UI the user
  is asked before they run (``confirm_project_agents``).

The tool runs one agent (``agent`` + ``task``), up to 8 in parallel (``tasks``,
4 at a time) or a chain (``chain``, each step's ``{previous}`` replaced by the
last step's answer). An agent without a ``model`` uses the session's. Progress
streams as tool updates; the result's details hold each run's messages and usage.
Aborting the turn ends the agents' processes. Three workflows come as commands
(pi's prompt templates): ``/implement TASK`` (scout, planner, worker),
``/scout-and-plan TASK`` and ``/implement-and-review TASK`` (worker, reviewer,
worker). In pi the tool draws its calls and results with custom renderers; here
its text is the summary.

    hookline --hook examples/pi/subagent      then  "use scout to find the parser"
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field

from hookline import (
    CommandContext,
    HookAPI,
    HookContext,
    Tool,
    ToolError,
    ToolResult,
    ToolUpdate,
)
from hookline.core.paths import hookline_home

MAX_PARALLEL_TASKS = 8
MAX_CONCURRENCY = 4
#: How long an aborted agent gets to end after SIGTERM before SIGKILL.
KILL_GRACE = 5.0
BUNDLED_AGENTS = Path(__file__).resolve().parent / "agents"
WORKFLOWS = Path(__file__).resolve().parent / "prompts"

AgentScope = Literal["user", "project", "both"]
Source = Literal["user", "project", "unknown"]

# -- agent definitions ---------------------------------------------------------------------


@dataclass(frozen=True)
class AgentConfig:
    name: str
    description: str
    system_prompt: str
    source: Source
    file_path: str
    tools: list[str] | None = None
    model: str | None = None


@dataclass(frozen=True)
class Discovery:
    agents: list[AgentConfig]
    project_agents_dir: str | None


def parse_frontmatter(text: str) -> tuple[dict[str, str], str]:
    """``key: value`` lines between ``---`` lines at the top, and the text after them."""
    match = re.match(r"---\r?\n(.*?)\r?\n---\r?\n?(.*)", text, re.DOTALL)
    if match is None:
        return {}, text
    fields: dict[str, str] = {}
    for line in match.group(1).splitlines():
        key, colon, value = line.partition(":")
        if colon and key.strip():
            fields[key.strip()] = value.strip().strip("\"'")
    return fields, match.group(2)


def load_agents(folder: Path, source: Source) -> list[AgentConfig]:
    agents: list[AgentConfig] = []
    if not folder.is_dir():
        return agents
    for path in sorted(folder.glob("*.md")):
        try:
            fields, body = parse_frontmatter(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        if not fields.get("name") or not fields.get("description"):
            continue
        tools = [t.strip() for t in fields.get("tools", "").split(",") if t.strip()]
        agents.append(
            AgentConfig(
                name=fields["name"],
                description=fields["description"],
                system_prompt=body,
                source=source,
                file_path=str(path),
                tools=tools or None,
                model=fields.get("model") or None,
            )
        )
    return agents


def nearest_project_agents_dir(cwd: str) -> Path | None:
    for folder in (Path(cwd).resolve(), *Path(cwd).resolve().parents):
        if (candidate := folder / ".hookline" / "agents").is_dir():
            return candidate
    return None


def discover_agents(cwd: str, scope: AgentScope) -> Discovery:
    project_dir = nearest_project_agents_dir(cwd)
    found: dict[str, AgentConfig] = {}
    if scope != "project":
        for agent in [
            *load_agents(BUNDLED_AGENTS, "user"),
            *load_agents(hookline_home() / "agents", "user"),
        ]:
            found[agent.name] = agent
    if scope != "user" and project_dir is not None:
        for agent in load_agents(project_dir, "project"):
            found[agent.name] = agent
    return Discovery(list(found.values()), str(project_dir) if project_dir else None)


# -- one agent's run -----------------------------------------------------------------------


@dataclass
class UsageStats:
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    context_tokens: int = 0
    turns: int = 0


@dataclass
class SingleResult:
    agent: str
    agent_source: Source
    task: str
    #: The process's exit status; -1 while it runs.
    exit_code: int
    messages: list[dict[str, Any]] = field(default_factory=list)
    stderr: str = ""
    usage: UsageStats = field(default_factory=UsageStats)
    model: str | None = None
    stop_reason: str | None = None
    error_message: str | None = None
    step: int | None = None

    @property
    def failed(self) -> bool:
        return self.exit_code != 0 or self.stop_reason in ("error", "aborted")


def final_output(messages: Sequence[dict[str, Any]]) -> str:
    """The last assistant message's first text."""
    for message in reversed(messages):
        if message.get("role") == "assistant":
            for part in message.get("content") or []:
                if part.get("type") == "text":
                    return str(part["text"])
    return ""


def _tokens(count: int) -> str:
    if count < 1000:
        return str(count)
    if count < 10_000:
        return f"{count / 1000:.1f}k"
    if count < 1_000_000:
        return f"{round(count / 1000)}k"
    return f"{count / 1_000_000:.1f}M"


def format_usage(usage: UsageStats, model: str | None = None) -> str:
    """``2 turns ↑1.2k ↓340 ctx:5k model``, the parts that are known."""
    parts: list[str] = []
    if usage.turns:
        parts.append(f"{usage.turns} turn{'s' if usage.turns > 1 else ''}")
    for mark, count in (
        ("↑", usage.input),
        ("↓", usage.output),
        ("R", usage.cache_read),
        ("W", usage.cache_write),
    ):
        if count:
            parts.append(f"{mark}{_tokens(count)}")
    if usage.context_tokens > 0:
        parts.append(f"ctx:{_tokens(usage.context_tokens)}")
    if model:
        parts.append(model)
    return " ".join(parts)


@dataclass(frozen=True)
class Launch:
    """How an agent process is started: the session's model for agents without their own."""

    default_cwd: str
    model: str | None
    base_url: str | None


def _record(result: SingleResult, line: str) -> bool:
    """Take one JSON line of the agent's output into ``result``; True when a message came."""
    try:
        event = json.loads(line)
    except ValueError:
        return False
    message = event.get("message") if isinstance(event, dict) else None
    if event.get("type") not in ("message", "message_end", "tool_result_end"):
        return False
    if not isinstance(message, dict) or message.get("role") not in ("assistant", "tool"):
        return False
    result.messages.append(message)
    if message["role"] == "assistant":
        result.usage.turns += 1
        usage = message.get("usage") or {}
        result.usage.input += usage.get("input_tokens", 0)
        result.usage.output += usage.get("output_tokens", 0)
        result.usage.cache_read += usage.get("cache_read_tokens", 0)
        result.usage.cache_write += usage.get("cache_write_tokens", 0)
        result.usage.context_tokens = sum(usage.values()) if usage else 0
        result.model = result.model or message.get("model")
        result.stop_reason = message.get("stop_reason") or result.stop_reason
        result.error_message = message.get("error") or result.error_message
    return True


async def run_single_agent(
    launch: Launch,
    agents: Sequence[AgentConfig],
    name: str,
    task: str,
    cwd: str | None,
    step: int | None,
    signal: asyncio.Event | None,
    on_change: Callable[[SingleResult], None] | None,
) -> SingleResult:
    agent = next((a for a in agents if a.name == name), None)
    if agent is None:
        available = ", ".join(f'"{a.name}"' for a in agents) or "none"
        return SingleResult(
            name,
            "unknown",
            task,
            1,
            stderr=f'Unknown agent: "{name}". Available agents: {available}.',
            step=step,
        )
    result = SingleResult(name, agent.source, task, 0, model=agent.model, step=step)
    args = [sys.executable, "-m", "hookline.cli", "--mode", "json", "--no-session"]
    if agent.model:
        args += ["--model", agent.model]
    elif launch.model:
        args += ["--model", launch.model]
        if launch.base_url:
            args += ["--base-url", launch.base_url]
    if agent.tools:
        args += ["--tools", ",".join(agent.tools)]
    with tempfile.TemporaryDirectory(prefix="hookline-subagent-") as tmp:
        if agent.system_prompt.strip():
            safe_name = re.sub(r"[^\w.-]+", "_", agent.name)
            prompt = Path(tmp) / f"prompt-{safe_name}.md"
            prompt.write_text(agent.system_prompt, encoding="utf-8")
            prompt.chmod(0o600)
            args += ["--append-system-prompt", str(prompt)]
        args += ["-p", f"Task: {task}"]
        aborted = await _run_process(args, cwd or launch.default_cwd, result, signal, on_change)
    if aborted:
        raise ToolError("Subagent was aborted")
    return result


async def _run_process(
    args: list[str],
    cwd: str,
    result: SingleResult,
    signal: asyncio.Event | None,
    on_change: Callable[[SingleResult], None] | None,
) -> bool:
    """Run the agent to its end (or the signal); True when the signal ended it."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *args,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=16 * 1024 * 1024,
        )
    except OSError as exc:
        result.exit_code, result.stderr = 1, str(exc)
        return False
    assert proc.stdout is not None and proc.stderr is not None
    stdout, stderr = proc.stdout, proc.stderr

    async def read_out() -> None:
        async for raw in stdout:
            if _record(result, raw.decode("utf-8", "replace")) and on_change is not None:
                on_change(result)

    async def read_err() -> None:
        result.stderr = (await stderr.read()).decode("utf-8", "replace")

    work = asyncio.ensure_future(asyncio.gather(read_out(), read_err(), proc.wait()))
    watch = asyncio.ensure_future(signal.wait()) if signal is not None else None
    try:
        await asyncio.wait(
            [w for w in (work, watch) if w is not None], return_when="FIRST_COMPLETED"
        )
        if not work.done():
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), KILL_GRACE)
            except TimeoutError:
                proc.kill()
            await asyncio.gather(work, return_exceptions=True)
            return True
        await work
    finally:
        if watch is not None:
            watch.cancel()
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    result.exit_code = proc.returncode if proc.returncode is not None else 1
    return False


# -- the tool --------------------------------------------------------------------------------


class TaskItem(BaseModel):
    agent: str = Field(description="Name of the agent to invoke")
    task: str = Field(description="Task to delegate to the agent")
    cwd: str | None = Field(None, description="Working directory for the agent process")


class ChainItem(BaseModel):
    agent: str = Field(description="Name of the agent to invoke")
    task: str = Field(description="Task with optional {previous} placeholder for prior output")
    cwd: str | None = Field(None, description="Working directory for the agent process")


class SubagentParams(BaseModel):
    agent: str | None = Field(None, description="Name of the agent to invoke (for single mode)")
    task: str | None = Field(None, description="Task to delegate (for single mode)")
    tasks: list[TaskItem] | None = Field(
        None, description="Array of {agent, task} for parallel execution"
    )
    chain: list[ChainItem] | None = Field(
        None, description="Array of {agent, task} for sequential execution"
    )
    agent_scope: AgentScope = Field(
        "user",
        description='Which agent directories to use. Default: "user". Use "both" to include '
        "project-local agents.",
    )
    confirm_project_agents: bool = Field(
        True, description="Prompt before running project-local agents. Default: true."
    )
    cwd: str | None = Field(None, description="Working directory for the agent process (single)")


DESCRIPTION = (
    "Delegate tasks to specialized subagents with isolated context. Modes: single (agent + "
    "task), parallel (tasks array), chain (sequential with {previous} placeholder). Default "
    'agent scope is "user" (the bundled agents and ~/.hookline/agents). To enable '
    'project-local agents in .hookline/agents, set agent_scope: "both" (or "project").'
)

T = TypeVar("T")
R = TypeVar("R")


async def map_limited(
    items: Sequence[T], limit: int, run: Callable[[T, int], Awaitable[R]]
) -> list[R]:
    """``run`` over ``items``, at most ``limit`` at a time, results in order."""
    gate = asyncio.Semaphore(max(1, limit))

    async def one(index: int, item: T) -> R:
        async with gate:
            return await run(item, index)

    return list(await asyncio.gather(*(one(i, item) for i, item in enumerate(items))))


class SubagentTool:
    """The tool's ``execute``: one call's mode, its agents and the updates it streams."""

    async def __call__(
        self,
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
        ctx: HookContext,
    ) -> ToolResult:
        args = SubagentParams.model_validate(params)
        discovery = discover_agents(ctx.cwd, args.agent_scope)
        agents = discovery.agents
        modes = [bool(args.chain), bool(args.tasks), bool(args.agent and args.task)]
        mode = "chain" if args.chain else "parallel" if args.tasks else "single"

        def details(results: Sequence[SingleResult]) -> dict[str, Any]:
            return {
                "mode": mode,
                "agent_scope": args.agent_scope,
                "project_agents_dir": discovery.project_agents_dir,
                "results": [asdict(r) for r in results],
            }

        def answer(text: str, results: Sequence[SingleResult], error: bool = False) -> ToolResult:
            return ToolResult([{"type": "text", "text": text}], details(results), is_error=error)

        if sum(modes) != 1:
            available = ", ".join(f"{a.name} ({a.source})" for a in agents) or "none"
            return answer(
                f"Invalid parameters. Provide exactly one mode.\nAvailable agents: {available}", []
            )
        if not await self._approved(args, agents, discovery, ctx):
            return answer("Canceled: project-local agents not approved.", [])

        model = ctx.model_info
        entry = ctx.model_registry.find(model.provider, model.id) if model else None
        launch = Launch(ctx.cwd, model.spec if model else None, getattr(entry, "base_url", None))

        def update(text: str, results: Sequence[SingleResult]) -> None:
            if on_update is not None:
                on_update(answer(text, results))

        if args.chain:
            results: list[SingleResult] = []
            previous = ""
            for number, step in enumerate(args.chain, 1):
                task = step.task.replace("{previous}", previous)
                result = await run_single_agent(
                    launch, agents, step.agent, task, step.cwd, number, signal,
                    lambda r: update(final_output(r.messages) or "(running...)", [*results, r]),
                )  # fmt: skip
                results.append(result)
                if result.failed:
                    why = result.error_message or result.stderr or final_output(result.messages)
                    text = f"Chain stopped at step {number} ({step.agent}): {why or '(no output)'}"
                    return answer(text, results, error=True)
                previous = final_output(result.messages)
            return answer(final_output(results[-1].messages) or "(no output)", results)

        if args.tasks:
            if len(args.tasks) > MAX_PARALLEL_TASKS:
                text = f"Too many parallel tasks ({len(args.tasks)}). Max is {MAX_PARALLEL_TASKS}."
                return answer(text, [])
            current = [SingleResult(t.agent, "unknown", t.task, -1) for t in args.tasks]

            def progress() -> None:
                running = sum(r.exit_code == -1 for r in current)
                done = len(current) - running
                update(f"Parallel: {done}/{len(current)} done, {running} running...", current)

            async def run(item: TaskItem, index: int) -> SingleResult:
                def seen(result: SingleResult) -> None:
                    current[index] = result
                    progress()

                result = await run_single_agent(
                    launch, agents, item.agent, item.task, item.cwd, None, signal, seen
                )
                seen(result)
                return result

            finished = await map_limited(args.tasks, MAX_CONCURRENCY, run)
            succeeded = sum(r.exit_code == 0 for r in finished)
            summaries = []
            for r in finished:
                output = final_output(r.messages)
                preview = output[:100] + ("..." if len(output) > 100 else "")
                status = "completed" if r.exit_code == 0 else "failed"
                summaries.append(f"[{r.agent}] {status}: {preview or '(no output)'}")
            text = f"Parallel: {succeeded}/{len(finished)} succeeded\n\n" + "\n\n".join(summaries)
            return answer(text, finished)

        assert args.agent is not None and args.task is not None
        result = await run_single_agent(
            launch, agents, args.agent, args.task, args.cwd, None, signal,
            lambda r: update(final_output(r.messages) or "(running...)", [r]),
        )  # fmt: skip
        if result.failed:
            why = result.error_message or result.stderr or final_output(result.messages)
            text = f"Agent {result.stop_reason or 'failed'}: {why or '(no output)'}"
            return answer(text, [result], error=True)
        return answer(final_output(result.messages) or "(no output)", [result])

    @staticmethod
    async def _approved(
        args: SubagentParams, agents: Sequence[AgentConfig], found: Discovery, ctx: HookContext
    ) -> bool:
        """With a UI, the user's yes before project agents (the repository's prompts) run."""
        if args.agent_scope == "user" or not args.confirm_project_agents or not ctx.has_ui:
            return True
        wanted = {s.agent for s in args.chain or []} | {t.agent for t in args.tasks or []}
        if args.agent:
            wanted.add(args.agent)
        project = [a.name for a in agents if a.name in wanted and a.source == "project"]
        if not project:
            return True
        return await ctx.ui.confirm(
            "Run project-local agents?",
            f"Agents: {', '.join(project)}\nSource: {found.project_agents_dir or '(unknown)'}\n\n"
            "Project agents are repo-controlled. Only continue for trusted repositories.",
        )


def register_workflows(pi: HookAPI, folder: Path = WORKFLOWS) -> None:
    """Each ``prompts/<name>.md`` is a command ``/<name> TASK`` that sends its text, ``$@``
    replaced by the task (pi installs these as prompt templates)."""
    for path in sorted(folder.glob("*.md")):
        fields, body = parse_frontmatter(path.read_text(encoding="utf-8"))

        def send(args: str, ctx: CommandContext, body: str = body.strip()) -> None:
            pi.send_user_message(body.replace("$@", args.strip()))

        pi.register_command(path.stem, send, description=fields.get("description", ""))


def register(pi: HookAPI) -> None:
    register_workflows(pi)
    pi.register_tool(
        Tool(
            name="subagent",
            label="Subagent",
            description=DESCRIPTION,
            parameters=SubagentParams,
            execute=SubagentTool(),
        )
    )


__all__ = ["discover_agents", "format_usage", "parse_frontmatter", "register"]
