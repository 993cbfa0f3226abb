"""Loader: every failure kind is reported while good modules load; trust; runner wiring."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from hookline.core.events import AgentStartEvent
from hookline.core.runner import HookRunner
from hookline.discovery import (
    LoadError,
    build_runner,
    discover_hooks,
    load_hook_file,
    load_hooks,
    load_into_runner,
    module_name_for,
    unload_modules,
)

from .conftest import WriteHook

GOOD = """
def register(pi):
    pi.on("agent_start", lambda event, ctx: None)
"""

FAILURES: dict[str, tuple[str, str]] = {
    "syntax": ("def register(pi):\n    x = = 1\n", "syntax error at line 2"),
    "importerr": (
        "import no_such_module_for_hookline_tests\n\ndef register(pi): pass\n",
        "import error: No module named 'no_such_module_for_hookline_tests'",
    ),
    "raising_import": ("raise RuntimeError('boom at import')\n", "RuntimeError: boom at import"),
    "missing": ("def setup(pi): pass\n", "no module-level `register` function"),
    "not_callable": ("register = 42\n", "`register` is not callable (it is int)"),
    "is_async": (
        "async def register(pi): pass\n",
        "register() is async: load it with load_hooks_async",
    ),
    "is_class": (
        "class register:\n    def __init__(self, pi): pass\n",
        "must be a function, not a class",
    ),
    "raising": (
        "def register(pi):\n    raise ValueError('bad config')\n",
        "register() raised ValueError: bad config",
    ),
    "unknown_event": (
        "def register(pi):\n    pi.on('tool_cal', lambda e, c: None)\n",
        "unknown event 'tool_cal' (did you mean 'tool_call'?)",
    ),
    "exits": ("import sys\nsys.exit(3)\n", "error while importing: SystemExit: 3"),
    "pi_options_typo": (
        "def register(pi):\n"
        "    pi.register_command('deploy', {'description': 'd', 'handle': lambda a, c: None})\n",
        "register() raised OptionsError: register_command('deploy', {...}): unknown key "
        "'handle' (did you mean 'handler'?); keys: description, get_argument_completions, "
        "handler (the Python form: register_command('deploy', description=\"…\", handler=fn))",
    ),
    "returns_coroutine": (
        "async def _later(pi): pass\n\ndef register(pi):\n    return _later(pi)\n",
        "register() is async: load it with load_hooks_async",
    ),
}


@pytest.mark.parametrize("kind", sorted(FAILURES))
def test_each_failure_is_reported_and_the_good_module_still_loads(
    tmp_path: Path, write_hook: WriteHook, kind: str
) -> None:
    body, expected = FAILURES[kind]
    bad = write_hook(tmp_path / "hooks" / f"a_{kind}.py", body=body)
    good = write_hook(tmp_path / "hooks" / "b_good.py", body=GOOD)

    result = load_hooks(discover_hooks(cli_paths=[tmp_path / "hooks"], packages=False))

    assert [h.path for h in result.hooks] == [str(good)]
    [error] = result.errors
    assert error.path == str(bad)
    assert error.origin == "cli"
    assert expected in error.reason, error.reason
    assert module_name_for(str(bad)) not in sys.modules


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    result = load_hooks(discover_hooks(cli_paths=[tmp_path / "gone.py"], packages=False))

    assert result.errors == [LoadError(str(tmp_path / "gone.py"), "file not found", "cli")]


def test_syntax_error_in_an_imported_helper_names_that_file(
    tmp_path: Path, write_hook: WriteHook, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_hook(tmp_path / "lib" / "broken_helper_mod.py", body="def (:\n")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    hook = write_hook(tmp_path / "h.py", body="import broken_helper_mod\n")

    error = load_hook_file(str(hook))

    assert isinstance(error, LoadError)
    assert "broken_helper_mod.py line 1" in error.reason


def test_a_failed_module_contributes_nothing(tmp_path: Path, write_hook: WriteHook) -> None:
    hook = write_hook(
        tmp_path / "half.py",
        body="""
        def register(pi):
            pi.on("agent_start", lambda e, c: None)
            pi.register_command("half", lambda args, ctx: None)
            pi.send("hello")
            pi.on("not_an_event", lambda e, c: None)
        """,
    )

    result = load_hooks(discover_hooks(cli_paths=[hook], packages=False))
    runner = build_runner(result)

    assert result.hooks == [] and result.apis == [] and len(result.errors) == 1
    assert not runner.has_handlers("agent_start")
    assert runner.get_command("half") is None


def test_untrusted_project_hook_is_never_imported(
    tmp_path: Path, project: Path, write_hook: WriteHook
) -> None:
    marker = tmp_path / "imported.marker"
    evil = f"""
    open({str(marker)!r}, "w").write("ran")

    def register(pi):
        open({str(marker)!r}, "w").write("registered")
    """
    write_hook(project / ".hookline" / "hooks" / "evil.py", body=evil)
    write_hook(project / "more" / "evil2.py", body=evil)

    result = load_hooks(
        discover_hooks(
            settings_paths=[("more/evil2.py", str(project), str(project / ".hookline/s.json"))],
            project_dir=project,
            project_trusted=False,
            packages=False,
        )
    )

    assert not marker.exists()
    assert result.hooks == [] and result.errors == []
    assert not [name for name in sys.modules if "evil" in name]
    assert sorted(Path(s.source.path).name for s in result.skipped) == ["evil.py", "evil2.py"]
    assert all("is not trusted" in s.reason for s in result.skipped)


def test_trusted_project_hook_loads(tmp_path: Path, project: Path, write_hook: WriteHook) -> None:
    write_hook(project / ".hookline" / "hooks" / "ok.py", body=GOOD)

    result = load_hooks(
        discover_hooks(project_dir=project, project_trusted=True, packages=False), cwd=str(project)
    )

    assert [Path(h.path).name for h in result.hooks] == ["ok.py"]
    assert result.apis[0].cwd == str(project)
    assert [s.origin for s in result.sources] == ["project"]


def test_files_with_the_same_name_do_not_collide(tmp_path: Path, write_hook: WriteHook) -> None:
    for folder in ("one", "two"):
        write_hook(
            tmp_path / folder / "hook.py",
            body=f"""
            NAME = {folder!r}

            def register(pi):
                pi.register_command(NAME, lambda args, ctx: None)
            """,
        )

    result = load_hooks(
        discover_hooks(cli_paths=[tmp_path / "one", tmp_path / "two"], packages=False)
    )

    assert [sorted(h.commands) for h in result.hooks] == [["one"], ["two"]]
    names = {module_name_for(h.path) for h in result.hooks}
    assert len(names) == 2 and all(n.isidentifier() and "." not in n for n in names)


def test_module_is_in_sys_modules_so_dataclasses_and_pickle_work(
    tmp_path: Path, write_hook: WriteHook
) -> None:
    hook = write_hook(
        tmp_path / "state.py",
        body="""
        from __future__ import annotations
        from dataclasses import dataclass, field

        @dataclass
        class State:
            count: int = 0
            seen: list[str] = field(default_factory=list)

        def register(pi):
            pi.register_command("state", lambda args, ctx: State())
        """,
    )

    loaded = load_hook_file(str(hook))

    assert not isinstance(loaded, LoadError)
    state = loaded[0].commands["state"].handler("", None)
    module = sys.modules[module_name_for(str(hook))]
    assert type(state) is module.State
    assert pickle.loads(pickle.dumps(state)) == state


async def test_runner_gets_hooks_in_load_order_with_bound_apis(
    tmp_path: Path, order_log: Path, user_hooks: Path, write_hook: WriteHook
) -> None:
    cli = write_hook(tmp_path / "first.py", label="cli")
    write_hook(user_hooks / "b.py", label="user-b")
    write_hook(user_hooks / "a.py", label="user-a")
    write_hook(
        user_hooks / "c_sender.py",
        body="def register(pi):\n    pi.send('queued before the agent')\n",
    )

    result = load_hooks(discover_hooks(cli_paths=[cli], packages=False), cwd=str(tmp_path))
    runner = build_runner(result, cwd=str(tmp_path), timeout=5)
    await runner.emit(AgentStartEvent())

    assert order_log.read_text().split() == ["cli", "user-a", "user-b"]
    assert runner.hooks == result.hooks
    assert runner.timeout == 5 and runner.context.cwd == str(tmp_path)
    assert all(api._context is runner.context for api in result.apis)


def test_load_into_an_existing_runner_appends(tmp_path: Path, write_hook: WriteHook) -> None:
    hook = write_hook(tmp_path / "h.py", body=GOOD)
    runner = HookRunner()

    returned = load_into_runner(
        load_hooks(discover_hooks(cli_paths=[hook], packages=False)), runner
    )

    assert returned is runner
    assert [h.path for h in runner.hooks] == [str(hook)]
    assert runner.has_handlers("agent_start")


def test_shadowed_and_skipped_are_carried_into_the_result(
    tmp_path: Path, project: Path, user_hooks: Path, write_hook: WriteHook
) -> None:
    dup = write_hook(user_hooks / "dup.py", body=GOOD)
    write_hook(project / ".hookline" / "hooks" / "p.py", body=GOOD)

    result = load_hooks(discover_hooks(cli_paths=[dup], project_dir=project, packages=False))

    assert [h.path for h in result.hooks] == [str(dup)]
    assert [s.source.origin for s in result.shadowed] == ["user"]
    assert [s.source.origin for s in result.skipped] == ["project"]


def test_a_package_hook_imports_its_own_modules(tmp_path: Path, write_hook: WriteHook) -> None:
    """A package's ``__init__.py`` loads as a package: its relative imports find the modules
    beside it (its own code and dependencies), named under the hook's module."""
    package = tmp_path / "dep_hook"
    write_hook(package / "_vendor" / "__init__.py", body="")
    write_hook(package / "_vendor" / "greet.py", body="def greet(name):\n    return 'hi ' + name\n")
    init = write_hook(
        package / "__init__.py",
        body=(
            "from ._vendor.greet import greet\n\n"
            "def register(pi):\n"
            "    pi.register_command('greet', lambda args, ctx: None, description=greet('x'))\n"
        ),
    )
    loaded = load_hook_file(str(init))
    assert not isinstance(loaded, LoadError), loaded
    hook, _ = loaded
    assert hook.commands["greet"].description == "hi x"
    name = module_name_for(str(init))
    assert f"{name}._vendor.greet" in sys.modules
    unload_modules([str(init)])
    assert not [m for m in sys.modules if m.startswith(name)]
