"""Package-level contracts: the public API resolves, layers import downward only, and no
modules import each other in a circle."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import hookline

SRC = Path(hookline.__file__).resolve().parent
README = Path(__file__).resolve().parents[1] / "README.md"
#: The layers, top to bottom (the README's Architecture table lists them in this order); a
#: module may import only its own layer and those below.
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
    "components",
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


def test_the_readme_lists_the_layers_in_their_order() -> None:
    """The Architecture table's first column is LAYERS, top to bottom."""
    section = README.read_text(encoding="utf-8").split("## Architecture", 1)[1]
    table = section.split("\n|---|---|\n", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == LAYERS


def test_every_part_of_the_package_is_a_layer() -> None:
    """A new package must be placed in LAYERS, or the layer check would not see it."""
    parts = {
        path.name.removesuffix(".py")
        for path in SRC.iterdir()
        if not path.name.startswith("_")
        and (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert parts == set(LAYERS)


def test_the_layer_check_sees_a_violation(tmp_path: Path) -> None:
    """The check above is not vacuous: an upward import is found."""
    bad = tmp_path / "bad.py"
    bad.write_text("from hookline.agent.agent import Agent\n")
    assert _layer(_imports(bad)[0]) == "agent"
    assert LAYERS.index("agent") < LAYERS.index("core")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _load_time_imports(tree: ast.Module, known: set[str]) -> set[str]:
    """The modules a module imports while it loads: not under ``TYPE_CHECKING``, not inside
    a function (a lazy import runs later). ``from pkg import mod`` imports ``pkg.mod``."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{a.name}" for a in node.names} & known
                found.update(subs or {node.module})
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            else:
                for child in ("body", "orelse", "finalbody"):
                    visit(getattr(node, child, []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return found & known


def _circles(graph: dict[str, set[str]]) -> Iterator[list[str]]:
    """Tarjan's strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(module: str) -> Iterator[list[str]]:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                yield from visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                yield sorted(component)

    for module in sorted(graph):
        if module not in index:
            yield from visit(module)


def _graph(root: Path) -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in root.rglob("*.py")}
    known = set(paths)
    return {
        name: _load_time_imports(ast.parse(path.read_text(encoding="utf-8")), known) - {name}
        for name, path in paths.items()
    }


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert list(_circles(_graph(SRC))) == []


def test_the_circle_check_sees_a_circle() -> None:
    """Not vacuous: two modules that import each other at load time are one circle."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert list(_circles(graph)) == [["a", "b", "c"]]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "from x import y\n"
        "if TYPE_CHECKING:\n    import z\n"
        "def f():\n    import w\n"
    )
    assert _load_time_imports(tree, {"x", "x.y", "z", "w"}) == {"x.y"}
