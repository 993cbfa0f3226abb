"""A hook's ``create_*_tool(operations=...)`` in place of a built-in: the permission rules,
the mode and the ``tool_call`` hooks still stand in front of it.

Judged by effect: the operations write a marker file when they run; a denied call
must never reach them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.modes.helpers import json_lines, run_cli, write_hook, write_script

HOOK = """
from pathlib import Path
from hookline import (
    create_bash_tool, create_edit_tool, create_read_tool, create_write_tool, create_ls_tool,
)

MARKS = Path({marks!r})


class Ops:
    def _mark(self, what):
        MARKS.mkdir(exist_ok=True)
        (MARKS / what).write_text("ran")

    async def exec(self, command, cwd, *, on_data, signal, timeout, env):
        self._mark("bash")
        on_data(b"ok")
        return 0

    async def read_file(self, path):
        self._mark("read_file")
        return b"a b"

    async def write_file(self, path, content):
        self._mark("write_file")

    async def access(self, path):
        return None

    async def mkdir(self, path):
        self._mark("mkdir")

    async def is_dir(self, path):
        self._mark("is_dir")
        return True

    async def list_dir(self, path):
        self._mark("list_dir")
        return ["x"]


def register(pi):
    cwd = {cwd!r}
    ops = Ops()
    pi.register_tool(create_bash_tool(cwd, operations=ops))
    pi.register_tool(create_edit_tool(cwd, operations=ops))
    pi.register_tool(create_write_tool(cwd, operations=ops))
    pi.register_tool(create_read_tool(cwd, operations=ops))
    pi.register_tool(create_ls_tool(cwd, operations=ops))
    {extra}
"""

CALLS = {
    "bash": {"command": "rm -rf /tmp/nothing-here"},
    "edit": {"path": "f.txt", "oldText": "a", "newText": "c"},
    "write": {"path": "f.txt", "content": "x"},
    "read": {"path": "f.txt"},
    "ls": {"path": "."},
}

#: (tool, deny rule, mode): a deny rule for the tool (or a mode that refuses it).
DENIALS = [
    ("bash", ["Bash"], "default"),
    ("bash", ["Bash(rm:*)"], "bypassPermissions"),
    ("bash", ["Bash(rm *)"], "acceptEdits"),
    ("bash", ["Bash"], "bypassPermissions"),
    ("bash", ["Bash(*)"], "dontAsk"),
    ("bash", [], "dontAsk"),
    ("bash", [], "plan"),
    ("edit", ["Edit"], "bypassPermissions"),
    ("edit", ["Edit(f.txt)"], "bypassPermissions"),
    ("edit", ["Edit(/**)"], "acceptEdits"),
    ("edit", ["Edit(**)"], "bypassPermissions"),
    ("edit", [], "plan"),
    ("edit", [], "dontAsk"),
    ("write", ["Write"], "bypassPermissions"),
    ("write", ["Edit"], "bypassPermissions"),
    ("write", ["Edit(f.txt)"], "acceptEdits"),
    ("write", [], "plan"),
    ("write", [], "dontAsk"),
    ("read", ["Read"], "bypassPermissions"),
    ("read", ["Read(f.txt)"], "bypassPermissions"),
    ("read", ["Read(**)"], "default"),
    ("ls", ["Read"], "bypassPermissions"),
]

MARK_OF = {
    "bash": ["bash"],
    "edit": ["read_file", "write_file"],
    "write": ["write_file", "mkdir"],
    "read": ["read_file"],
    "ls": ["is_dir", "list_dir"],
}


def _run(tmp_path: Path, project: Path, tool: str, deny: list[str], mode: str, extra: str = ""):
    marks = tmp_path / "marks"
    hook = write_hook(
        tmp_path / "ops_hook.py", HOOK.format(marks=str(marks), cwd=str(project), extra=extra)
    )
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"permissions": {"deny": deny}}))
    turns = [
        {"text": "calling", "tool_calls": [{"name": tool, "arguments": CALLS[tool]}]},
        {"text": "done"},
    ]
    done = run_cli(
        "-p", "go", "--mode", "json",
        "--model", write_script(tmp_path / "script.json", turns),
        "--hook", str(hook),
        "--settings", str(settings),
        "--permission-mode", mode,
        cwd=project,
    )  # fmt: skip
    return done, marks


@pytest.mark.parametrize(("tool", "deny", "mode"), DENIALS)
def test_a_denied_call_never_reaches_the_operations(tmp_path, project, tool, deny, mode):
    (project / "f.txt").write_text("a b")
    done, marks = _run(tmp_path, project, tool, deny, mode)
    ran = sorted(p.name for p in marks.iterdir()) if marks.exists() else []
    assert not set(ran) & set(MARK_OF[tool]), (ran, done.stdout[-2000:], done.stderr[-2000:])
    ends = [x for x in json_lines(done.stdout) if x["type"] == "tool_execution_end"]
    assert ends and all(x["is_error"] for x in ends), done.stdout[-2000:]


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_a_tool_call_hook_blocks_the_operations_tool(tmp_path, project, tool):
    (project / "f.txt").write_text("a b")
    extra = "pi.on('tool_call', lambda event, ctx: {'block': True, 'reason': 'no'})"
    done, marks = _run(tmp_path, project, tool, [], "bypassPermissions", extra)
    assert not marks.exists(), done.stdout[-2000:]


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_an_allowed_call_does_reach_the_operations(tmp_path, project, tool):
    """The control: without a rule the operations run, so the denials above mean something."""
    (project / "f.txt").write_text("a b")
    done, marks = _run(tmp_path, project, tool, [], "bypassPermissions")
    assert marks.exists() and set(p.name for p in marks.iterdir()) & set(MARK_OF[tool]), (
        done.stdout[-2000:],
        done.stderr[-2000:],
    )


# -- the sandbox's auto-allow holds only for the sandboxed built-in --------------------

SANDBOX_HOOK = """
from hookline import create_bash_tool


class LocalOps:
    async def exec(self, command, cwd, *, on_data, signal, timeout, env):
        import asyncio
        proc = await asyncio.create_subprocess_exec("bash", "-c", command, cwd=cwd)
        return await proc.wait()


def register(pi):
    {tool}
"""

HOOK_BASHES = {
    "operations": "pi.register_tool(create_bash_tool({cwd!r}, operations=LocalOps()))",
    "no-sandbox": "pi.register_tool(create_bash_tool({cwd!r}))",
}


def _sandboxed_run(tmp_path: Path, project: Path, tool: str | None, mode: str):
    outside = tmp_path / "outside"
    outside.mkdir()
    marker = outside / "marker"
    args = []
    if tool is not None:
        body = SANDBOX_HOOK.format(tool=HOOK_BASHES[tool].format(cwd=str(project)))
        args = ["--hook", str(write_hook(tmp_path / "sandbox_hook.py", body))]
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps({"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}})
    )
    turns = [
        {
            "text": "calling",
            "tool_calls": [{"name": "bash", "arguments": {"command": f"touch {marker}"}}],
        },
        {"text": "done"},
    ]
    done = run_cli(
        "-p", "go", "--mode", "json",
        "--model", write_script(tmp_path / "script.json", turns),
        "--settings", str(settings),
        "--permission-mode", mode,
        *args,
        cwd=project,
    )  # fmt: skip
    return done, marker


def _sandbox_runs() -> bool:
    from hookline.sandbox.availability import probe

    return probe().available


needs_sandbox = pytest.mark.skipif(not _sandbox_runs(), reason="no bubblewrap sandbox here")


@needs_sandbox
@pytest.mark.parametrize("tool", sorted(HOOK_BASHES))
@pytest.mark.parametrize("mode", ["default", "dontAsk"])
def test_a_hooks_unsandboxed_bash_is_not_auto_allowed(tmp_path, project, tool, mode):
    """Auto-allow trusts the sandbox: a hook's bash that runs outside it must ask (and so,
    with no one to ask, be refused)."""
    done, marker = _sandboxed_run(tmp_path, project, tool, mode)
    assert not marker.exists(), (done.stdout[-2000:], done.stderr[-2000:])


@needs_sandbox
def test_the_control_the_built_in_bash_is_auto_allowed_and_confined(tmp_path, project):
    done, marker = _sandboxed_run(tmp_path, project, None, "default")
    assert not marker.exists()
    ends = [x for x in json_lines(done.stdout) if x["type"] == "tool_execution_end"]
    assert ends, done.stdout[-2000:]


OUTSIDE_PATHS = [
    "../outside.txt",
    "../../etc/hosts",
    "/etc/hosts",
    "~/.bashrc",
    "sub/../../outside.txt",
    ".claude/settings.json",
    ".hookline/hooks/evil.py",
    ".git/hooks/pre-commit",
]


@pytest.mark.parametrize("path", OUTSIDE_PATHS)
@pytest.mark.parametrize("tool", ["write", "edit"])
def test_accept_edits_does_not_let_an_operations_tool_write_outside(tmp_path, project, tool, path):
    """acceptEdits allows edits inside the project only, and never to the files that plant
    code: the hook's operations tool gets the same answer as the built-in."""
    marks = tmp_path / "marks"
    hook = write_hook(
        tmp_path / "ops_hook.py", HOOK.format(marks=str(marks), cwd=str(project), extra="")
    )
    args = dict(CALLS[tool], path=path)
    turns = [{"text": "calling", "tool_calls": [{"name": tool, "arguments": args}]}, {"text": "d"}]
    done = run_cli(
        "-p", "go", "--mode", "json",
        "--model", write_script(tmp_path / "script.json", turns),
        "--hook", str(hook),
        "--permission-mode", "acceptEdits",
        cwd=project,
    )  # fmt: skip
    ran = sorted(p.name for p in marks.iterdir()) if marks.exists() else []
    assert "write_file" not in ran, (ran, done.stdout[-2000:])


WRAP_HOOK = """
import asyncio

from hookline import ToolResult


def register(pi):
    async def run_it_here(original, tool_call_id, params, signal, on_update, ctx):
        proc = await asyncio.create_subprocess_exec("bash", "-c", params["command"])
        await proc.wait()
        return ToolResult([{"type": "text", "text": "ran outside"}])

    pi.wrap_tool("bash", run_it_here)
"""


@needs_sandbox
@pytest.mark.parametrize("mode", ["default", "dontAsk"])
def test_a_wrapped_bash_that_runs_outside_the_sandbox_is_not_auto_allowed(tmp_path, project, mode):
    outside = tmp_path / "outside"
    outside.mkdir()
    marker = outside / "marker"
    hook = write_hook(tmp_path / "wrap_hook.py", WRAP_HOOK)
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps({"sandbox": {"enabled": True, "autoAllowBashIfSandboxed": True}})
    )
    turns = [
        {
            "text": "calling",
            "tool_calls": [{"name": "bash", "arguments": {"command": f"touch {marker}"}}],
        },
        {"text": "done"},
    ]
    done = run_cli(
        "-p", "go", "--mode", "json",
        "--model", write_script(tmp_path / "script.json", turns),
        "--settings", str(settings),
        "--permission-mode", mode,
        "--hook", str(hook),
        cwd=project,
    )  # fmt: skip
    assert not marker.exists(), (done.stdout[-2000:], done.stderr[-2000:])
