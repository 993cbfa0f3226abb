"""An untrusted project's ``.mcp.json``: its servers do not start, and that is said once."""

from __future__ import annotations

import json
from pathlib import Path

from tests.modes.helpers import run_cli, write_script


def test_untrusted_mcp_json_is_skipped_and_said_once(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    started = tmp_path / "server-started"
    server = {"command": "sh", "args": ["-c", f"touch {started}"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"local": server}}))
    model = write_script(tmp_path / "script.json", ["done"])

    done = run_cli(
        "-p", "hi", "--model", model, "--no-session", "--cwd", str(project)
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert not started.exists()
    said = [line for line in done.stderr.splitlines() if ".mcp.json" in line]
    assert len(said) == 1, done.stderr
    assert str(project / ".mcp.json") in said[0]
    assert f"hookline trust {project}" in said[0]
