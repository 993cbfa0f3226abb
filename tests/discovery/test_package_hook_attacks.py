"""A package hook (a folder with ``__init__.py``): what its modules may not shadow, and
that an untrusted project's package never runs.

Judged by effect: ``sys.modules`` keeps the real ``json``/``os``/``hookline``, and a
marker file a skipped package would write is never written.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

import pytest

import hookline
from hookline.discovery import discover_hooks, load_hooks, unload_modules

SHADOWED = ["json", "os", "re", "typing", "hookline", "asyncio", "pathlib", "sitecustomize"]

REGISTER = "def register(pi):\n    pass\n"


def _package(root: Path, name: str, init: str, modules: dict[str, str]) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(init)
    for module, text in modules.items():
        target = folder / module
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return folder


def _load(paths: list[Path], **kwargs):
    result = load_hooks(discover_hooks(cli_paths=paths, user=False, packages=False, **kwargs))
    return result


@pytest.fixture
def originals():
    saved = {name: sys.modules.get(name) for name in SHADOWED}
    yield saved
    for name, module in saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module


@pytest.mark.parametrize("shadow", SHADOWED)
def test_a_module_beside_the_init_shadows_nothing(tmp_path, shadow, originals):
    marker = tmp_path / "ran"
    modules = {f"{shadow}.py": f"open({str(marker)!r}, 'w').write('x')\nEVIL = True\n"}
    init = (
        f"from . import {shadow} as mine\ntry:\n    import {shadow}\nexcept ImportError:\n"
        "    pass\n" + REGISTER
    )
    folder = _package(tmp_path, "pkg", init, modules)
    result = _load([folder])
    try:
        assert not result.errors, result.errors
        assert marker.exists()  # the hook's own relative import did run its module
        for name, module in originals.items():
            assert sys.modules.get(name) is module, name
        assert not getattr(sys.modules.get(shadow), "EVIL", False)
    finally:
        unload_modules([str(folder / "__init__.py")])


@pytest.mark.parametrize("shadow", SHADOWED)
def test_a_package_named_like_a_module_shadows_nothing(tmp_path, shadow, originals):
    folder = _package(tmp_path, shadow, "EVIL = True\n" + REGISTER, {})
    result = _load([folder])
    try:
        assert not result.errors, result.errors
        for name, module in originals.items():
            assert sys.modules.get(name) is module, name
        assert importlib.import_module("json").dumps([1]) == "[1]"
        assert os.path.join("a", "b") == "a/b"
        assert hookline.__name__ == "hookline"
    finally:
        unload_modules([str(folder / "__init__.py")])


@pytest.mark.parametrize("shadow", SHADOWED)
def test_a_package_subfolder_named_like_a_module_shadows_nothing(tmp_path, shadow, originals):
    modules = {f"{shadow}/__init__.py": "EVIL = True\n"}
    folder = _package(tmp_path, "pkg", f"from . import {shadow}\n" + REGISTER, modules)
    result = _load([folder])
    try:
        assert not result.errors, result.errors
        for name, module in originals.items():
            assert sys.modules.get(name) is module, name
    finally:
        unload_modules([str(folder / "__init__.py")])


def test_two_packages_with_the_same_vendored_module_keep_their_own(tmp_path):
    a = _package(
        tmp_path / "a",
        "pkg",
        "from ._vendor import dep\nWHO = dep.WHO\n" + REGISTER,
        {"_vendor/__init__.py": "", "_vendor/dep.py": "WHO = 'a'\n"},
    )
    b = _package(
        tmp_path / "b",
        "pkg",
        "from ._vendor import dep\nWHO = dep.WHO\n" + REGISTER,
        {"_vendor/__init__.py": "", "_vendor/dep.py": "WHO = 'b'\n"},
    )
    from hookline.discovery import module_name_for

    result = _load([a, b])
    try:
        assert not result.errors
        whos = sorted(sys.modules[module_name_for(str(p / "__init__.py"))].WHO for p in (a, b))
        assert whos == ["a", "b"]
    finally:
        unload_modules([str(a / "__init__.py"), str(b / "__init__.py")])


def test_a_failed_package_leaves_no_submodule(tmp_path):
    folder = _package(
        tmp_path,
        "pkg",
        "from . import helper\nraise RuntimeError('no')\n",
        {"helper.py": "X = 1\n"},
    )
    from hookline.discovery import module_name_for

    name = module_name_for(str(folder / "__init__.py"))
    result = _load([folder])
    assert result.errors
    assert not [m for m in sys.modules if m == name or m.startswith(name + ".")]


def _project_with_package(tmp_path: Path, marker: Path) -> Path:
    project = tmp_path / "project"
    init = f"open({str(marker)!r}, 'w').write('ran')\n" + REGISTER
    _package(project / ".hookline" / "hooks", "pkg", init, {"helper.py": ""})
    _package(project, "tools_pkg", init, {})
    (project / ".hookline" / "hooks" / "flat.py").write_text(init)
    return project


PROJECT_ROUTES = [
    ".hookline/hooks/pkg",
    ".hookline/hooks",
    "tools_pkg",
    "./tools_pkg",
    "tools_pkg/",
    ".hookline/hooks/pkg/__init__.py",
    "../project/tools_pkg",
]


@pytest.mark.parametrize("route", PROJECT_ROUTES)
def test_an_untrusted_projects_package_from_its_settings_never_runs(tmp_path, route):
    from hookline.discovery.sources import SettingsHookPath

    marker = tmp_path / "ran"
    project = _project_with_package(tmp_path, marker)
    settings = project / ".hookline" / "settings.json"
    settings.write_text(json.dumps({"hooks": [route]}))
    entry = SettingsHookPath(route, str(project), f"settings:{settings}", True)
    discovery = discover_hooks(
        settings_paths=[entry],
        project_dir=project,
        project_trusted=False,
        user=False,
        packages=False,
    )
    load_hooks(discovery)
    assert not marker.exists()
    assert discovery.sources == []


def test_an_untrusted_projects_hooks_folder_never_runs_a_package(tmp_path):
    marker = tmp_path / "ran"
    project = _project_with_package(tmp_path, marker)
    discovery = discover_hooks(
        project_dir=project, project_trusted=False, user=False, packages=False
    )
    load_hooks(discovery)
    assert not marker.exists()
