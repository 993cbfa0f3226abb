"""Start-up cost, pinned as counts: the modules ``hookline --version``, ``--help``, a scripted
``-p`` turn and ``import hookline`` load (the times are in ``benchmarks/bench_startup.py``).

Each probe runs the command in a fresh interpreter and lists ``sys.modules``
when it ends, and which modules imported pydantic and ``importlib.metadata``: a
scripted turn loads pydantic to check its script file, so what is pinned is that
nothing else in hookline imports it.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hookline
from hookline import cli
from hookline._stub import render_stub
from hookline.discovery import ENTRY_POINT_GROUP
from hookline.discovery.sources import _may_declare
from hookline.settings.loader import load_settings
from hookline.settings.models import Settings
from tests.fakes import FakeAnthropicServer

#: Never needed to print the version or the help.
HEAVY = (
    "pydantic",
    "pydantic_core",
    "anthropic",
    "openai",
    "httpx",
    "prompt_toolkit",
    "rich",
    "textual",
    "tree_sitter",
    "yaml",
    "asyncio",
)
#: Never needed for a scripted ``-p`` turn: the SDKs, the TUI, YAML (the script is JSON).
NOT_FOR_A_SCRIPTED_TURN = ("anthropic", "openai", "httpx", "prompt_toolkit", "rich", "textual")
#: ``hookline --version`` / ``--help``: the package, its lazy table, the CLI, the mode names.
MAX_HOOKLINE_MODULES = 6
#: The Claude layer: loaded only when settings hooks, plugins, a settings ``env`` or the
#: credential scrub give it something to do.
CLAUDE_LAYER = (
    "hookline.claude.adapter",
    "hookline.claude.engine",
    "hookline.claude.config",
    "hookline.claude.command",
    "hookline.claude.http_hook",
    "hookline.claude.model_hooks",
    "hookline.agent.model_hooks",
)
#: Settings validation: loaded only when a settings file exists.
SETTINGS_VALIDATION = (
    "hookline.settings.validate",
    "hookline.settings._errors",
    "hookline.settings.merge",
    "hookline.settings.trust_filter",
)
#: A scripted ``-p`` turn with no settings file and no hook (108 when this was pinned: the
#: event classes are seven small modules, one per family, loaded on first use; +1: the
#: coroutine driver, ``core.driver``, in a module of its own; +2: the message queues,
#: ``agent.queues``, and the sandbox's side of the agent, ``agent.sandbox_side``; +1: the
#: hooks' reload, ``agent.reload``, out of ``agent.setup``; +1: the built-in tools' schemas
#: written out, ``tools.schemas``, so no request imports pydantic; +1: the handlers a run
#: does not wait for, ``agent.lagging``; +1: the providers hooks register,
#: ``agent.providers.registered``, which the chosen model is looked up in; +1: prompt
#: templates and skills found at start, ``core.resources``; +1: the login store's path,
#: ``agent.auth_store``, which built-in deny rules keep from the model; +1: ``core.store``,
#: whose ``HOOKLINE_STORE`` setting is checked at start).
MAX_TURN_HOOKLINE_MODULES = 121
#: ``claude-hook --no-discovery`` with one hook (37 when this was pinned; +1: the watchdog;
#: +2: ``core.driver`` and the loop-free runners, ``core.loopless``; +3: ``bridge.metrics``
#: and ``telemetry.otel``, which says whether telemetry is on, with its package).
MAX_BRIDGE_HOOKLINE_MODULES = 46
LAZY_PACKAGES = (
    "hookline",
    "hookline.agent.providers",
    "hookline.authoring",
    "hookline.claude",
    "hookline.core.events",
    "hookline.discovery",
    "hookline.mcp",
    "hookline.session",
    "hookline.settings",
    "hookline.telemetry",
    "hookline.tools",
)


#: Runs ``CODE`` (the command), then writes the loaded modules to stderr, even on SystemExit;
#: then, on a line of its own, which modules ran an import statement of each ``WATCHED``
#: module (every statement, not only the first: a cached import is seen too).
_PROBE = """
import builtins, json, sys
WATCHED = ("pydantic", "pydantic_core", "importlib.metadata")
importers = {}
real_import = builtins.__import__

def noting_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0:
        for target in (name, *(name + "." + item for item in fromlist or ())):
            watched = next((w for w in WATCHED if target == w or target.startswith(w + ".")), None)
            if watched is not None:
                importer = (globals or {}).get("__name__", "?")
                importers.setdefault(watched, set()).add(importer)
    return real_import(name, globals, locals, fromlist, level)

builtins.__import__ = noting_import

def report():
    sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
    sys.stderr.write("IMPORTERS " + json.dumps({k: sorted(v) for k, v in importers.items()}))
    sys.stderr.write("\\n")
    sys.stderr.flush()

import os
real_exit = os._exit

def reporting_exit(code):  # claude-hook's hooks run in a forked child that leaves this way
    report()
    real_exit(code)

os._exit = reporting_exit
try:
    exec(sys.argv.pop(1))
finally:
    report()
"""


def _probe(
    code: str, *args: str, cwd: Path | None = None
) -> tuple[set[str], str, dict[str, set[str]]]:
    """A fresh interpreter running ``code``: the modules loaded, its stdout, and the modules
    that imported each watched module."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, code, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=os.environ.copy(),
        timeout=60,
        check=False,
    )
    # The first report: a process that forks a child to run the hooks (claude-hook) waits
    # for it, so the child's report, where the hooks ran, comes before the parent's.
    lines = done.stderr.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith("MODULES ")), len(lines) - 2)
    modules_line, importers_line = lines[at], lines[at + 1]
    assert modules_line.startswith("MODULES "), done.stderr[-2000:]
    assert importers_line.startswith("IMPORTERS "), done.stderr[-2000:]
    assert done.returncode == 0, done.stderr[-2000:]
    importers = json.loads(importers_line.removeprefix("IMPORTERS "))
    return set(modules_line.split()[1:]), done.stdout, {k: set(v) for k, v in importers.items()}


def _imported(code: str, *args: str, cwd: Path | None = None) -> tuple[set[str], str]:
    """The modules a fresh interpreter has loaded after running ``code``, and its stdout."""
    modules, out, _ = _probe(code, *args, cwd=cwd)
    return modules, out


def _hookline_importers(importers: dict[str, set[str]], module: str) -> set[str]:
    """The hookline modules that import ``module`` (what a library imports is its affair)."""
    return {m for m in importers.get(module, set()) if m == "hookline" or m.startswith("hookline.")}


#: Where pydantic enters a scripted turn: the script file's models, nothing else.
SCRIPT_MODELS = "hookline.agent.providers._script_models"


def _cli(*args: str, cwd: Path | None = None) -> tuple[set[str], str]:
    """``hookline ARGS`` as the console script runs it: import the CLI, call ``main()``."""
    code = "from hookline.cli import main; sys.argv[0] = 'hookline'; sys.exit(main())"
    return _imported(code, *args, cwd=cwd)


def _cli_probe(*args: str, cwd: Path | None = None) -> tuple[set[str], str, dict[str, set[str]]]:
    """``_cli`` with the importers of the watched modules."""
    code = "from hookline.cli import main; sys.argv[0] = 'hookline'; sys.exit(main())"
    return _probe(code, *args, cwd=cwd)


def _of(modules: set[str], roots: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in roots)


def _hookline_modules(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m == "hookline" or m.startswith("hookline."))


def test_the_probe_sees_imports() -> None:
    """Not vacuous: reading a name that needs pydantic shows pydantic in the probe."""
    modules, _ = _imported("import hookline; hookline.ToolCallResult")
    assert "pydantic" in modules
    assert "hookline.core.results" in modules


@pytest.mark.parametrize("argv", [["--version"], ["--verbose", "--version"]])
def test_version_loads_only_what_it_prints(argv: list[str]) -> None:
    modules, out = _cli(*argv)

    assert out == "hookline 0.1.0\n"
    assert _of(modules, HEAVY) == []
    assert len(_hookline_modules(modules)) <= MAX_HOOKLINE_MODULES, _hookline_modules(modules)


def test_help_loads_only_the_parser() -> None:
    modules, out = _cli("--help")

    assert "--permission-mode" in out
    assert _of(modules, HEAVY) == []
    assert "hookline.agent.permissions" not in modules  # the mode names live apart
    assert len(_hookline_modules(modules)) <= MAX_HOOKLINE_MODULES, _hookline_modules(modules)


def test_trust_loads_only_the_trust_store(tmp_path: Path) -> None:
    modules, out = _cli("trust", str(tmp_path))

    assert out.startswith("trusted ")
    assert _of(modules, HEAVY) == []
    assert "tempfile" in modules  # the store is written atomically (the import is here)
    # the trust store and the safe JSON reader it reads trust.json with
    assert [m for m in _hookline_modules(modules) if m.startswith("hookline.settings.")] == [
        "hookline.settings.safe_json",
        "hookline.settings.trust",
    ]


def test_a_scripted_turn_loads_no_sdk_no_tui_no_yaml(tmp_path: Path) -> None:
    script = tmp_path / "one-turn.json"
    script.write_text(json.dumps({"turns": ["hello"]}), encoding="utf-8")
    argv = ["-p", "hi", "--no-session", "--model", f"scripted:{script}"]

    modules, out, importers = _cli_probe(*argv, cwd=tmp_path)

    assert out == "hello\n"
    assert _of(modules, (*NOT_FOR_A_SCRIPTED_TURN, "yaml")) == []
    # No bash call, no bash parser: tree-sitter loads on the first permission check of one.
    assert _of(modules, ("tree_sitter", "tree_sitter_bash")) == []
    assert "hookline.shell" not in modules
    assert "hookline.agent.providers.anthropic_provider" not in modules
    assert "hookline.modes.interactive" not in modules
    # No settings file, no hook: neither the Claude layer nor the settings validators.
    assert [m for m in CLAUDE_LAYER + SETTINGS_VALIDATION if m in modules] == []
    if not _may_declare(ENTRY_POINT_GROUP):  # no installed package offers hooks here
        assert "importlib.metadata" not in modules
        assert importers == {}
    assert len(_hookline_modules(modules)) <= MAX_TURN_HOOKLINE_MODULES, len(
        _hookline_modules(modules)
    )


def test_an_anthropic_turn_loads_no_sdk_and_no_pydantic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first request with ``anthropic:`` is spoken over httpx2 and sends the built-in
    tools' written-out schemas: neither the SDK nor pydantic is on its path."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    with FakeAnthropicServer() as fake:
        fake.add_text("hello")
        argv = ["-p", "hi", "--no-session", "--model", "anthropic:claude-test"]
        modules, out = _cli(*argv, "--base-url", fake.url, cwd=tmp_path)

    assert out == "hello\n"
    assert fake.requests[0]["tools"], "the tools' schemas were sent"
    assert "httpx2" in modules
    assert _of(modules, ("anthropic", "openai", "pydantic", "pydantic_core", "rich")) == []
    assert _of(modules, ("prompt_toolkit", "tree_sitter", "yaml")) == []
    assert "hookline.tools.params" not in modules


def test_a_turn_with_settings_hooks_loads_the_claude_layer(tmp_path: Path) -> None:
    """Not vacuous: a settings file with a command hook brings both back."""
    script = tmp_path / "one-turn.json"
    script.write_text(json.dumps({"turns": ["hello"]}), encoding="utf-8")
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    hook = {"type": "command", "command": "true"}
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [hook]}]}}), encoding="utf-8")
    argv = ["-p", "hi", "--no-session", "--trust-project", "--model", f"scripted:{script}"]

    modules, out = _cli(*argv, cwd=tmp_path)

    assert out == "hello\n"
    assert "hookline.claude.adapter" in modules
    assert "hookline.settings.validate" in modules
    assert _of(modules, ("httpx", "httpx2")) == []  # an http hook's run imports it


#: A trivial ``tool_call`` guard: blocks ``rm -rf``, else says nothing.
_GUARD = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if "rm -rf" in event.input.get("command", ""):
            return {"block": True, "reason": "no"}
"""


def _claude_hook(tmp_path: Path, command: str, *flags: str) -> tuple[set[str], str]:
    """``hookline claude-hook FLAGS --hook guard.py`` answering a Bash PreToolUse."""
    (tmp_path / "guard.py").write_text(_GUARD, encoding="utf-8")
    payload = {
        "session_id": "s",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(tmp_path),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    }
    code = (
        "from hookline.cli import main; sys.argv[0] = 'hookline'; "
        "sys.stdin = open(sys.argv.pop(), encoding='utf-8'); sys.exit(main())"
    )
    stdin = tmp_path / "input.json"
    stdin.write_text(json.dumps(payload), encoding="utf-8")
    argv = ["claude-hook", *flags, "--hook", "guard.py", str(stdin)]
    return _imported(code, *argv, cwd=tmp_path)


def test_claude_hook_whose_hook_says_nothing_loads_no_result_models(tmp_path: Path) -> None:
    modules, out = _claude_hook(tmp_path, "ls -la", "--no-discovery")

    assert out == ""
    assert _of(modules, ("pydantic", "pydantic_core", "httpx", "httpx2", "yaml")) == []
    assert "hookline.core.results" not in modules
    assert [m for m in _hookline_modules(modules) if m.startswith("hookline.settings")] == []
    assert [m for m in _hookline_modules(modules) if m.startswith("hookline.agent")] == []
    assert len(_hookline_modules(modules)) <= MAX_BRIDGE_HOOKLINE_MODULES, len(
        _hookline_modules(modules)
    )


def test_claude_hook_with_plain_handlers_runs_without_asyncio(tmp_path: Path) -> None:
    """One PreToolUse, every handler a plain function: no event loop, and of the event
    classes only the tool family is built."""
    modules, out = _claude_hook(tmp_path, "rm -rf build", "--no-discovery")

    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert _of(modules, ("asyncio", "ssl", "concurrent")) == []
    families = sorted(m for m in modules if m.startswith("hookline.core.events."))
    assert families == [
        "hookline.core.events._base",
        "hookline.core.events._names",  # the names ``on()`` accepts: no class built
        "hookline.core.events._tools",
    ]


def test_claude_hook_with_an_async_handler_runs_it_in_a_loop(tmp_path: Path) -> None:
    """Not vacuous: an ``async def`` handler needs the loop, and gets it."""
    (tmp_path / "wait.py").write_text(
        "import asyncio\n"
        "def register(pi):\n"
        "    @pi.on('tool_call')\n"
        "    async def wait(event, ctx):\n"
        "        await asyncio.sleep(0.01)\n"
        "        return {'block': True, 'reason': 'waited'}\n",
        encoding="utf-8",
    )
    modules, out = _claude_hook(tmp_path, "ls", "--no-discovery", "--hook", "wait.py")

    decision = json.loads(out)["hookSpecificOutput"]
    assert (decision["permissionDecision"], decision["permissionDecisionReason"]) == (
        "deny",
        "waited",
    )
    assert "asyncio" in modules


def test_claude_hook_with_discovery_reads_the_trust_store_only(tmp_path: Path) -> None:
    """Discovery reads trust.json (to know whether the project's hooks may load); writing
    it is ``hookline trust``'s job, so nothing for writing files is imported."""
    modules, out = _claude_hook(tmp_path, "ls -la")

    assert out == ""
    assert "hookline.settings.trust" in modules
    assert _of(modules, ("tempfile", "shutil", "pydantic")) == []
    if not _may_declare(ENTRY_POINT_GROUP):  # no installed package offers hooks here
        assert "importlib.metadata" not in modules


def test_claude_hook_whose_hook_returns_a_dict_validates_it(tmp_path: Path) -> None:
    """Not vacuous: the returned dict is validated by the result model, which loads then."""
    modules, out = _claude_hook(tmp_path, "rm -rf build", "--no-discovery")

    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "hookline.core.results" in modules
    assert "pydantic" in modules


def test_a_bare_turn_imports_no_pydantic(tmp_path: Path) -> None:
    """No settings file, no hook, a script of text turns: nothing is validated, so neither
    the settings, result or script models (nor pydantic) are imported."""
    script = tmp_path / "one-turn.json"
    script.write_text(json.dumps({"turns": ["hello"]}), encoding="utf-8")
    argv = ["-p", "hi", "--no-session", "--model", f"scripted:{script}"]

    modules, out, importers = _cli_probe(*argv, cwd=tmp_path)

    assert out == "hello\n"
    assert _of(modules, ("pydantic", "pydantic_core", "annotated_types")) == []
    assert importers == {}
    assert "hookline.core.results" not in modules
    assert "hookline.settings.models" not in modules


def test_a_script_with_a_mapping_turn_is_checked_by_the_script_models(tmp_path: Path) -> None:
    """Not vacuous: a turn that is a mapping goes through the script file's models, and they
    are hookline's only importer of pydantic."""
    script = tmp_path / "one-turn.json"
    script.write_text(json.dumps({"turns": [{"text": "hello"}]}), encoding="utf-8")
    argv = ["-p", "hi", "--no-session", "--model", f"scripted:{script}"]

    modules, out, importers = _cli_probe(*argv, cwd=tmp_path)

    assert out == "hello\n"
    assert _hookline_importers(importers, "pydantic") == {SCRIPT_MODELS}
    assert _hookline_importers(importers, "pydantic_core") <= {SCRIPT_MODELS}
    assert "hookline.core.results" not in modules
    assert "hookline.settings.models" not in modules


def test_typed_in_memory_turns_load_no_pydantic() -> None:
    """The scripted model itself needs no pydantic: turns that are already typed (a string,
    a ``ScriptedTurn``) are played without the script file's models."""
    code = (
        "from hookline.agent.providers.scripted import ScriptedProvider, ScriptedTurn\n"
        "ScriptedProvider.from_turns(['hello', ScriptedTurn(text='typed')])"
    )
    modules, _, importers = _probe(code)

    assert _of(modules, ("pydantic", "pydantic_core", "annotated_types")) == []
    assert SCRIPT_MODELS not in modules
    assert importers == {}


_SILENT_HOOK = """
def register(pi):
    @pi.on("stop")
    def stop(event, ctx):
        return None

    @pi.on("before_agent_start")
    def start(event, ctx):
        return None
"""


def test_a_turn_whose_hooks_return_nothing_imports_no_pydantic(tmp_path: Path) -> None:
    script = tmp_path / "one-turn.json"
    script.write_text(json.dumps({"turns": ["hello"]}), encoding="utf-8")
    (tmp_path / "silent.py").write_text(_SILENT_HOOK, encoding="utf-8")
    argv = ["-p", "hi", "--no-session", "--hook", "silent.py", "--model", f"scripted:{script}"]

    modules, out, importers = _cli_probe(*argv, cwd=tmp_path)

    assert out == "hello\n"
    assert "hookline.discovery.loader" in modules  # the hook was loaded
    assert _of(modules, ("pydantic",)) == []
    assert importers == {}
    assert "hookline.core.results" not in modules


def test_a_turn_whose_hook_answers_loads_the_result_models(tmp_path: Path) -> None:
    """Not vacuous: a ``before_agent_start`` answer is validated, so the models load."""
    script = tmp_path / "one-turn.json"
    script.write_text(json.dumps({"turns": ["hello"]}), encoding="utf-8")
    hook = _SILENT_HOOK.replace(
        "def start(event, ctx):\n        return None",
        "def start(event, ctx):\n        return {'system_prompt': 'Be brief.'}",
    )
    (tmp_path / "answers.py").write_text(hook, encoding="utf-8")
    argv = ["-p", "hi", "--no-session", "--hook", "answers.py", "--model", f"scripted:{script}"]

    modules, out, importers = _cli_probe(*argv, cwd=tmp_path)

    assert out == "hello\n"
    assert "hookline.core.results" in modules
    assert "hookline.core.results" in _hookline_importers(importers, "pydantic")
    assert SCRIPT_MODELS not in modules  # text turns: the script models stay out


def test_settings_without_files_equal_validated_defaults(tmp_path: Path) -> None:
    loaded = load_settings(tmp_path, managed_paths=[])
    assert loaded.empty
    merged = loaded.merged  # built on this first read
    validated = Settings.model_validate({})

    assert merged == validated
    assert merged.model_fields_set == validated.model_fields_set
    assert merged.model_extra == validated.model_extra == {}
    assert merged.model_dump() == validated.model_dump()


def test_import_hookline_loads_two_modules() -> None:
    modules, _ = _imported("import hookline")

    assert _hookline_modules(modules) == ["hookline", "hookline._lazy"]
    assert _of(modules, HEAVY) == []


@pytest.mark.parametrize("package", LAZY_PACKAGES[1:])
def test_importing_a_subpackage_loads_none_of_its_modules(package: str) -> None:
    modules, _ = _imported(f"import {package}")

    assert [m for m in modules if m.startswith(package + ".")] == []
    assert _of(modules, ("pydantic",)) == []


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_public_name_resolves_to_its_module(package: str) -> None:
    module = importlib.import_module(package)
    exports: dict[str, str] = module._EXPORTS

    assert sorted(exports) == sorted(module.__all__)
    for name in module.__all__:
        defining = importlib.import_module(exports[name])
        assert getattr(module, name) is getattr(defining, name), name
    assert set(module.__all__) <= set(dir(module))


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_type_checkers_see_the_same_names(package: str) -> None:
    """What type checkers read names exactly the runtime table, module for module: the
    package's ``__init__.pyi`` where it has one, else its ``if TYPE_CHECKING:`` imports."""
    module = importlib.import_module(package)
    source = Path(module.__file__ or "")
    stub = source.with_suffix(".pyi")
    tree = ast.parse((stub if stub.exists() else source).read_text(encoding="utf-8"))
    seen: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            imports = node.body
        elif stub.exists() and isinstance(node, ast.ImportFrom):
            imports = [node]
        else:
            continue
        for stmt in imports:
            assert isinstance(stmt, ast.ImportFrom) and stmt.module
            seen.update({alias.name: stmt.module for alias in stmt.names})

    assert seen == module._EXPORTS


def test_the_public_api_is_written_once() -> None:
    """``hookline/__init__.py`` lists each public name once, in ``_API``; ``__init__.pyi``
    is exactly what ``python -m hookline._stub`` makes of that table."""
    stub = Path(hookline.__file__ or "").with_suffix(".pyi")

    assert stub.read_text(encoding="utf-8") == render_stub("hookline", hookline._API), (
        "hookline/__init__.pyi is out of date: run `python -m hookline._stub`"
    )
    assert hookline.__all__ == [name for names in hookline._API.values() for name in names]


def test_star_import_gives_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from hookline import *", namespace)

    assert set(namespace) - {"__builtins__"} == set(hookline.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'hookline' has no attribute 'Nope'"):
        _ = hookline.Nope  # type: ignore[attr-defined]
    with pytest.raises(ImportError, match="Nope"):
        exec("from hookline.tools import Nope", {})


@pytest.mark.parametrize("columns", [None, "60", "200", "0", "-3", "wide"])
def test_help_width_is_the_terminal_width_shutil_would_give(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)

    assert cli._columns() == shutil.get_terminal_size().columns
