"""Package-level contracts: the public API resolves, and layers import downward only."""

from __future__ import annotations

import ast
from pathlib import Path

import hookline

SRC = Path(hookline.__file__).resolve().parent
#: The README's layers, top to bottom; a module may import only its own layer and those below.
LAYERS = [
    "cli",
    "authoring",
    "bridge",
    "modes",
    "telemetry",
    "agent",
    "session",
    "mcp",
    "tools",
    "sandbox",
    "claude",
    "settings",
    "discovery",
    "core",
    "shell",
]


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "hookline" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in LAYERS else None


def _imports(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


def test_every_public_name_resolves() -> None:
    missing = [name for name in hookline.__all__ if not hasattr(hookline, name)]
    assert missing == []
    assert len(set(hookline.__all__)) == len(hookline.__all__)


def test_layers_import_downward_only() -> None:
    violations = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        own = rel.parts[0].removesuffix(".py")
        if own not in LAYERS:
            continue
        for module in _imports(path):
            target = _layer(module)
            if target is not None and LAYERS.index(target) < LAYERS.index(own):
                violations.append(f"{rel} imports {module}")
    assert violations == []


def test_the_layer_check_sees_a_violation(tmp_path: Path) -> None:
    """The check above is not vacuous: an upward import is found."""
    bad = tmp_path / "bad.py"
    bad.write_text("from hookline.agent.agent import Agent\n")
    assert _layer(_imports(bad)[0]) == "agent"
    assert LAYERS.index("agent") < LAYERS.index("core")
