"""Every "install the extra" message names the command that works, worded in one place."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from hookline._extras import install_hint

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "hookline"


def test_the_hint_names_the_command_that_works_from_a_clone() -> None:
    assert install_hint("mcp") == (
        "pip install '.[mcp]' in a clone of hookline "
        "(the README's Install section has the wheel, pipx and uv forms)"
    )


def _hinted_extras() -> list[tuple[str, str]]:
    """``(file, extra)`` for every ``install_hint("extra")`` call in the source."""
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "install_hint"
                and node.args
            ):
                arg = node.args[0]
                extra = arg.value if isinstance(arg, ast.Constant) else "<computed>"
                found.append((str(path.relative_to(SRC)), str(extra)))
    return found


def test_every_hint_names_a_declared_extra_and_none_is_written_by_hand() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    hinted = _hinted_extras()
    files = {file for file, _ in hinted}
    assert {"telemetry/otel.py", "mcp/servers.py", "authoring/scaffold.py"} <= files
    assert [(f, e) for f, e in hinted if e not in extras and e != "<computed>"] == []
    by_hand = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if "pip install 'hookline[" in p.read_text(encoding="utf-8")
    ]
    assert by_hand == []
