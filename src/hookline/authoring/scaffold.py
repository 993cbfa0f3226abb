"""``hookline hooks new NAME``: a typed hook module and its pytest test, ready to edit."""

from __future__ import annotations

import importlib.util
import keyword
import re
import shutil
import sys
from pathlib import Path

from hookline._extras import install_hint
from hookline.core.events import EVENT_TYPES
from hookline.core.results import RESULT_TYPES


class ScaffoldError(ValueError):
    """The name or event cannot make a hook, or a file would be overwritten."""


def _hook_source(name: str, event: str) -> str:
    event_cls = EVENT_TYPES[event].__name__
    result = RESULT_TYPES.get(event)
    returns = f"{result.__name__} | None" if result else "None"
    names = {"HookAPI", "HookContext", event_cls, *([result.__name__] if result else [])}
    imports = ", ".join(sorted(names))
    body = _BODIES.get(event, "        return None\n")
    return f'''"""{name}: a hookline hook on ``{event}``.

Load it with ``hookline --hook {name}.py`` or put it in ``.hookline/hooks/``;
see it with ``hookline hooks list`` and try it with ``hookline hooks test {event} --input FILE``.
"""

from __future__ import annotations

from hookline import {imports}


def register(pi: HookAPI) -> None:
    @pi.on("{event}")
    async def {name}(event: {event_cls}, ctx: HookContext) -> {returns}:
{body}'''


_BODIES = {
    "tool_call": """\
        command = str(event.input.get("command", ""))
        if event.tool_name == "bash" and "TODO-BLOCK" in command:
            return ToolCallResult(block=True, reason="{name} blocks TODO-BLOCK")
        return None
""",
    "tool_result": """\
        if event.is_error:
            note = "{name} saw an error"
            return ToolResultResult(append=[{"type": "text", "text": note}])
        return None
""",
    "input": """\
        if event.text.startswith("TODO-BLOCK"):
            return InputResult(handled=True)
        return None
""",
}

_CHECKS = {
    "tool_call": """\
    blocked = await hook_harness.tool_call("bash", {"command": "echo TODO-BLOCK"})
    blocked.assert_blocked("{name}")
    (await hook_harness.tool_call("bash", {"command": "ls"})).assert_allowed()
""",
    "tool_result": """\
    failed = await hook_harness.tool_result("bash", {}, "boom", is_error=True)
    failed.assert_patched("saw an error")
    (await hook_harness.tool_result("bash", {}, "ok")).assert_allowed()
""",
    "input": """\
    (await hook_harness.prompt("TODO-BLOCK now")).assert_blocked()
    (await hook_harness.prompt("hello")).assert_allowed()
""",
}
_OTHER_CHECK = """\
    emitted = await hook_harness.emit("{event}")
    emitted.assert_allowed()
    assert [call.handler for call in emitted.calls] == ["register.<locals>.{name}"]
"""

_TEST = '''"""Tests of {hook_file} through hookline's pytest plugin (``hook_harness``)."""

from pathlib import Path

from hookline.authoring import HookHarness

HOOK = Path(__file__).resolve().parents[1] / "{hook_file}"


async def test_{name}(hook_harness: HookHarness) -> None:
    hook_harness.load(HOOK)
'''


def _test_source(name: str, event: str, hook_file: str) -> str:
    checks = _CHECKS.get(event, _OTHER_CHECK)
    head = _TEST.replace("{hook_file}", hook_file)
    return (head + checks).replace("{name}", name).replace("{event}", event)


def scaffold(name: str, event: str, folder: Path) -> tuple[Path, Path]:
    """Write ``folder/NAME.py`` and ``folder/tests/test_NAME.py``; never overwrites."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or keyword.iskeyword(name):
        raise ScaffoldError(f"{name!r} is not a Python identifier: use letters, digits and _")
    if event not in EVENT_TYPES:
        raise ScaffoldError(f"unknown event {event!r}")
    hook = folder / f"{name}.py"
    test = folder / "tests" / f"test_{name}.py"
    for path in (hook, test):
        if path.exists():
            raise ScaffoldError(f"{path} exists; pick another name or remove it")
    test.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(_hook_source(name, event).replace("{name}", name), encoding="utf-8")
    test.write_text(_test_source(name, event, hook.name), encoding="utf-8")
    return hook, test


def run_line(test: Path) -> str:
    """How to run the new test: with the Python hookline runs on (its pytest plugin is
    there), and how to get pytest first when that Python has none."""
    line = f"run: {_python()} -m pytest {test}"
    if importlib.util.find_spec("pytest") is None:
        line += f"\npytest is not installed here: {install_hint('test')}"
    return line


def _python() -> str:
    """``python`` when that is hookline's own interpreter on the PATH, else its full path
    (a tool install's venv, a python3-only system)."""
    found = shutil.which("python")
    if found is not None and Path(found).parent == Path(sys.executable).parent:
        return "python"
    return sys.executable
