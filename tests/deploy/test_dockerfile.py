"""deploy/Dockerfile: parsed and checked; built only where a docker engine answers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.helpers import DEPLOY, ROOT, option, require_asgi_serve, unknown_flags

DOCKERFILE = DEPLOY / "Dockerfile"


def _instructions() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` in order; continuation lines joined, comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = pending + line
        pending = ""
        word, _, rest = whole.partition(" ")
        out.append((word.upper(), rest.strip()))
    assert not pending, "a continuation line runs off the end"
    return out


def _one(name: str) -> str:
    found = [rest for word, rest in _instructions() if word == name]
    assert len(found) == 1, (name, found)
    return found[0]


def _exec_form(text: str) -> list[str]:
    words = json.loads(text)
    assert isinstance(words, list) and all(isinstance(w, str) for w in words), text
    return words


def test_base_image_and_serve_extra_from_the_build_context() -> None:
    assert _instructions()[0] == ("FROM", "python:3.11-slim")
    installs = [rest for word, rest in _instructions() if word == "RUN" and "pip install" in rest]
    assert installs and '".[serve]"' in installs[0]
    for word, rest in _instructions():
        if word == "COPY":  # what it copies exists in the build context (the checkout)
            for source in [s for s in rest.split()[:-1] if not s.startswith("--")]:
                assert (ROOT / source).exists(), source


def test_runs_as_a_non_root_user_created_in_the_image() -> None:
    users = [rest for word, rest in _instructions() if word == "USER"]
    assert users, "no USER: the service would run as root"
    assert users[-1] not in ("root", "0") and not users[-1].startswith(("root:", "0:"))
    created = " ".join(rest for word, rest in _instructions() if word == "RUN")
    assert "useradd" in created and users[-1] in created


def test_healthcheck_asks_healthz_on_the_served_port() -> None:
    check = _one("HEALTHCHECK")
    assert "CMD" in check and "/healthz" in check
    port = option(_exec_form(_one("CMD")), "--http")
    assert port is not None and f":{port.rpartition(':')[2]}/healthz" in check
    assert port.rpartition(":")[2] in _one("EXPOSE").split()


def test_command_is_hookline_serve_on_all_interfaces_with_workers() -> None:
    assert _exec_form(_one("ENTRYPOINT")) == ["hookline", "serve"]
    argv = _exec_form(_one("CMD"))
    assert option(argv, "--http") == "0.0.0.0:8377"
    assert "--allow-remote" in argv  # a public address needs it, and then a token
    assert (option(argv, "--workers") or "").isdigit()
    assert option(argv, "--token") is None, "a token on the command line shows in ps"
    baked = [rest for word, rest in _instructions() if word in ("ENV", "ARG")]
    assert not any("TOKEN" in rest for rest in baked), "a token baked into the image"
    assert option(argv, "--hook") == "/etc/hookline/hooks"


def test_command_flags_are_real_serve_flags() -> None:
    require_asgi_serve()
    assert unknown_flags(_exec_form(_one("CMD"))) == []


def _engine() -> str | None:
    """Why no image can be built here, or None when a docker engine answers."""
    if shutil.which("docker") is None:
        return "no docker client"
    done = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        return f"docker info failed: no docker engine answers ({done.stderr.strip()[:200]})"
    return None


def test_image_builds(tmp_path: Path) -> None:
    if (why := _engine()) is not None:
        pytest.skip(why)
    done = subprocess.run(
        ["docker", "build", "-f", str(DOCKERFILE), "-t", "hookline-serve:test", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_copied_files_are_enough_to_build_the_package(tmp_path: Path) -> None:
    """What the image's COPY lines bring in (and the dockerignore lets through) builds the
    wheel pip installs there: no file of the checkout outside them is needed."""
    context = tmp_path / "context"
    for word, rest in _instructions():
        if word == "COPY" and "--chown" not in rest:
            for source in rest.split()[:-1]:
                if (ROOT / source).is_dir():
                    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
                    shutil.copytree(ROOT / source, context / source, ignore=ignore)
                else:
                    (context / source).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(ROOT / source, context / source)
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    done = subprocess.run(
        [*pip, "-w", str(tmp_path / "wheels"), str(context)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert [p.name.split("-")[0] for p in (tmp_path / "wheels").iterdir()] == ["hookline"]
