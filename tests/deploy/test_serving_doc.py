"""docs/serving.md: its ``hookline serve`` command lines use flags serve really takes, and
the files it names exist."""

from __future__ import annotations

import re

from tests.deploy.helpers import ROOT, require_asgi_serve, unknown_flags

DOC = ROOT / "docs" / "serving.md"


def _serve_commands() -> list[list[str]]:
    """Every ``hookline serve ...`` of the page's code blocks, continuation lines joined."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", DOC.read_text(), re.DOTALL)
    text = "\n".join(blocks).replace("\\\n", " ")
    return [
        line.split("hookline serve", 1)[1].split()
        for line in text.splitlines()
        if "hookline serve" in line
    ]


def test_command_lines_use_real_serve_flags() -> None:
    require_asgi_serve()
    commands = _serve_commands()
    assert commands
    for argv in commands:
        assert unknown_flags(argv) == [], argv


def test_named_deploy_files_exist() -> None:
    for name in set(re.findall(r"`(deploy/[^`\s]+)`", DOC.read_text())):
        assert (ROOT / name).exists(), name
