"""``make dist``'s wheel, installed as a user would: a fresh venv, the ``mcp`` and ``test``
extras from the package index, then ``hookline --version``, ``hooks new`` and its test.

One test (so a split suite runs it once), marked ``slow``: about a minute, most of it
pip downloading the dependencies. pip's cache is off: nothing is kept outside tmp.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from hookline import __version__

ROOT = Path(__file__).resolve().parents[1]
#: What ``make dist`` reads: the package, its metadata and the Makefile.
_SOURCE = ("src", "pyproject.toml", "README.md", "LICENSE", "Makefile")


def _run(*args: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done


def _make_dist(tmp_path: Path, env: dict[str, str]) -> Path:
    """``make dist`` in a copy of the checkout (setuptools writes build/ beside the code),
    with this interpreter for the venv's (``-o``: the venv is not set up)."""
    source = tmp_path / "source"
    source.mkdir()
    for name in _SOURCE:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    dist = tmp_path / "dist"
    make = ["make", "--no-print-directory", "-o", ".venv/.installed", "dist"]
    _run(*make, f"PY={sys.executable}", f"DIST={dist}", cwd=source, env=env)
    assert len(list(dist.glob("hookline-*.tar.gz"))) == 1  # the sdist too
    (wheel,) = dist.glob("hookline-*-py3-none-any.whl")
    return wheel


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_wheel_from_make_dist_installs_and_runs_a_new_hooks_test(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PIP_NO_CACHE_DIR="1", HOOKLINE_HOME=str(tmp_path / "home"))
    wheel = _make_dist(tmp_path, {**os.environ, "PIP_NO_CACHE_DIR": "1"})

    fresh = tmp_path / "venv"
    venv.create(fresh, with_pip=True)
    python, bin_dir = fresh / "bin" / "python", fresh / "bin"
    _run(python, "-m", "pip", "install", "--quiet", f"{wheel}[mcp,test]", cwd=tmp_path, env=env)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"  # as an activated venv

    version = _run(bin_dir / "hookline", "--version", cwd=tmp_path, env=env)
    assert version.stdout == f"hookline {__version__}\n"
    # the extra's SDK and the pytest plugin's entry point came with it
    probe = (
        "import importlib.metadata as m, mcp, hookline, pytest\n"
        "print(hookline.__file__)\n"
        "print([e.value for e in m.entry_points(group='pytest11') if e.name == 'hookline'])\n"
    )
    where, plugin = _run(python, "-c", probe, cwd=tmp_path, env=env).stdout.splitlines()
    assert where.startswith(str(fresh)) and plugin == "['hookline.authoring.pytest_plugin']"

    project = tmp_path / "project"
    project.mkdir()
    new = _run(bin_dir / "hookline", "hooks", "new", "guard", cwd=project, env=env)
    test = project / ".hookline" / "hooks" / "tests" / "test_guard.py"
    assert new.stdout.splitlines()[-1] == f"run: python -m pytest {test}"
    ran = _run("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", test, cwd=project, env=env)
    assert "1 passed" in ran.stdout
