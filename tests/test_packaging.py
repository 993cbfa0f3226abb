"""Packaging: a wheel that installs and runs, extras for the SDKs, metadata that fits.

The wheel test builds hookline from this checkout and installs it into a fresh
virtualenv with no network: the dependencies come from the test's own
environment through a path file, so what runs is the wheel's code and data.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]

#: Distribution name → the module the code imports.
_IMPORT_NAMES = {
    "pyyaml": "yaml",
    "google-re2": "re2",
    "tree-sitter": "tree_sitter",
    "tree-sitter-bash": "tree_sitter_bash",
    "prompt_toolkit": "prompt_toolkit",
    "typing_extensions": "typing_extensions",
}


def _requirement_name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].strip().lower()


def _imported_top_modules() -> set[str]:
    """Every top-level module that ``src/hookline`` imports anywhere."""
    found: set[str] = set()
    for path in (ROOT / "src" / "hookline").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "SdkImport"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(str(node.args[0].value))
    return found


#: Dependencies that ship a program rather than a module, and the code that runs it.
_PROGRAMS = {"ripgrep": ("src/hookline/tools/_ripgrep.py", '"rg"')}


def test_every_declared_dependency_is_imported_by_the_code() -> None:
    imported = _imported_top_modules()
    for requirement in PROJECT["dependencies"]:
        name = _requirement_name(requirement)
        if name in _PROGRAMS:
            where, needle = _PROGRAMS[name]
            assert needle in (ROOT / where).read_text(encoding="utf-8"), requirement
            continue
        module = _IMPORT_NAMES.get(name, name.replace("-", "_"))
        assert module in imported, f"{requirement} is declared but nothing imports {module}"


def test_the_provider_sdks_are_extras_not_dependencies() -> None:
    core = {_requirement_name(r) for r in PROJECT["dependencies"]}
    assert not core & {"anthropic", "openai"}
    extras = PROJECT["optional-dependencies"]
    assert extras["anthropic"] == []  # the Messages API is spoken over httpx2, a dependency
    assert [_requirement_name(r) for r in extras["openai"]] == ["openai"]
    assert [_requirement_name(r) for r in extras["mcp"]] == ["mcp"]
    assert {_requirement_name(r) for r in extras["otel"]} == {
        "opentelemetry-sdk",
        "opentelemetry-exporter-otlp-proto-http",
    }
    assert {_requirement_name(r) for r in extras["serve"]} == {
        "uvicorn",
        "redis",
        "prometheus-client",
    }
    assert extras["all"] == ["hookline[anthropic,openai,mcp,otel,serve]"]


def test_the_test_extra_brings_pytest_and_dev_includes_it() -> None:
    """``hooks new`` writes a pytest test: ``pip install '.[test]'`` is what it needs (the
    plugin runs its async tests itself), and the dev extra has it and ``build``."""
    extras = PROJECT["optional-dependencies"]
    assert [_requirement_name(r) for r in extras["test"]] == ["pytest"]
    assert "hookline[all,test,docs]" in extras["dev"]  # the suite builds the site too
    assert "build" in {_requirement_name(r) for r in extras["dev"]}


def test_metadata_license_is_spdx_and_platforms_are_stated() -> None:
    assert PROJECT["license"] == "MIT"  # an SPDX expression, not the deprecated table
    assert (ROOT / "LICENSE").is_file()
    classifiers = PROJECT["classifiers"]
    assert "Operating System :: POSIX" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # SPDX replaces them


def test_the_version_lives_in_one_place() -> None:
    from hookline import __version__
    from hookline.cli import VERSION

    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "hookline._version.__version__"
    assert f"hookline {__version__}" == VERSION
    hits = [
        str(p)
        for p in (ROOT / "src").rglob("*.py")
        if re.search(r"""["']\d+\.\d+\.\d+["']""", p.read_text(encoding="utf-8"))
        and p.name != "_version.py"
    ]
    assert hits == []


def test_python_dash_m_hookline_runs_the_cli() -> None:
    from hookline import __version__

    done = subprocess.run(
        [sys.executable, "-m", "hookline", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stdout == f"hookline {__version__}\n"


def test_a_provider_without_its_sdk_says_which_extra_to_install(tmp_path: Path) -> None:
    """Choosing openai when the SDK is absent: one line naming the extra, exit 2."""
    code = (
        "import sys; sys.modules['openai'] = None\n"
        "from hookline.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "HOOKLINE_HOME": str(tmp_path / "h")}
    done = subprocess.run(
        [sys.executable, "-c", code, "-p", "hi", "--model", "openai:gpt-x", "--no-session"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "hookline: error: the openai provider needs the openai SDK, which is not installed: "
        "pip install '.[openai]' in a clone of hookline "
        "(the README's Install section has the wheel, pipx and uv forms)\n"
    )
    assert "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel built from this checkout; returns its python."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"  # a copy: setuptools writes build/ and egg-info beside the code
    shutil.copytree(
        ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(work / "dist"),
            str(source),
        ],
        check=True,
        timeout=300,
        capture_output=True,
    )
    (wheel,) = (work / "dist").glob("hookline-*.whl")
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    # The dependencies, offline: this environment's site-packages, after the venv's own.
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _run(python: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    return subprocess.run(
        [str(python), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=180,
        check=False,
    )


def test_the_wheel_runs_from_a_fresh_venv(installed_wheel: Path, tmp_path: Path) -> None:
    where = _run(installed_wheel, "-c", "import hookline; print(hookline.__file__)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert where.stdout.startswith(str(installed_wheel.parents[1])), where.stdout  # not ./src
    typed = Path(where.stdout.strip()).parent
    assert (typed / "py.typed").is_file() and (typed / "__init__.pyi").is_file()  # the API's types

    hookline_bin = installed_wheel.parent / "hookline"
    version = subprocess.run(
        [str(hookline_bin), "--version"], capture_output=True, text=True, timeout=60
    )
    assert version.returncode == 0 and version.stdout.startswith("hookline ")

    schema = _run(installed_wheel, "-m", "hookline", "settings", "schema", cwd=tmp_path)
    assert schema.returncode == 0 and '"$schema"' in schema.stdout  # package data shipped


def test_the_demo_scenario_runs_on_the_installed_wheel(installed_wheel: Path) -> None:
    done = _run(installed_wheel, str(ROOT / "examples" / "demo.py"))
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    blocked = "[x] Dangerous command blocked (no UI for confirmation)"
    assert f"-> bash rm -rf build\n     {blocked}" in out
    assert "Done. The build folder was kept" in out
