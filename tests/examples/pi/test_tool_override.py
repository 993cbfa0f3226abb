"""pi's tool-override example (``examples/pi/tool_override.py``) in a real agent: the model's
``read`` calls go to the hook's tool, which logs them and refuses sensitive files."""

from __future__ import annotations

import os
from pathlib import Path

from hookline.authoring.ui import ScriptedUI
from hookline.core.messages import content_text
from tests.agent.conftest import MakeAgent

from ..harness import PI_EXAMPLES

HOOK = [str(PI_EXAMPLES / "tool_override.py")]


def read(path: str, **more: int) -> dict[str, object]:
    return {"tool_calls": [{"name": "read", "arguments": {"path": path, **more}}]}


async def test_reads_are_logged_and_secrets_refused(make_agent: MakeAgent) -> None:
    ui = ScriptedUI()
    h = await make_agent(
        [read("notes.txt", offset=2, limit=2), read(".env"), read("missing.txt"), "done"],
        hook_paths=HOOK,
        ui=ui,
    )
    (h.project / "notes.txt").write_text("one\ntwo\nthree\nfour\n")
    (h.project / ".env").write_text("API_KEY=sk-hidden\n")
    await h.runner.run_command("read-log")
    assert ui.notifications == [("info", "No access log found")]

    await h.agent.prompt("read my files")
    results = [content_text(m["content"]) for m in h.seen_by_model(-1) if m["role"] == "tool"]
    assert results[0] == "two\nthree"  # offset 2, limit 2: the hook's read, not the built-in's
    assert results[1].startswith('Access denied: ".env" matches a blocked pattern')
    assert "sk-hidden" not in results[1]
    assert results[2].startswith("Error reading file:")

    log = (Path(os.environ["HOOKLINE_HOME"]) / "read-access.log").read_text().splitlines()
    project = h.project.resolve()
    assert [line.split("] ", 1)[1] for line in log] == [
        f"ALLOWED: {project / 'notes.txt'}",
        f"BLOCKED: {project / '.env'} (matches blocked pattern)",
        f"ALLOWED: {project / 'missing.txt'}",
    ]
    await h.runner.run_command("read-log")
    kind, text = ui.notifications[-1]
    assert kind == "info"
    assert text.splitlines() == ["Recent file access:", *log]
