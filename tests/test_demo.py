"""`make demo` stays true: the scripted session shows every hook doing its job."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_demo_shows_blocks_redaction_settings_hook_chained_denial_load_error_and_answer() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py")],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
        check=False,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "broken_hook.py failed to load: unknown event 'tool_cal'" in out
    assert (
        "-> bash rm -rf build\n     [x] Dangerous command blocked (no UI for confirmation)" in out
    )
    assert "OPENAI_API_KEY=[REDACTED]" in out and "sk-demo" not in out
    assert "blocking: Piping a download into a shell is not allowed" in out
    assert "Done. The build folder was kept" in out
    assert "build/ still there: True" in out
    assert "settings-hook audit log entries: 1" in out
    # an MCP tool's answer went through the redactor like a built-in's
    assert "-> mcp__settings__lookup" in out and "sk-demo" not in out
    assert (
        "http hook received 6 PostToolUse events: Read, mcp__settings__lookup, Write, Bash, "
        "Bash, Bash" in out
    )
    # a hook's ctx.compact() at the end still runs before exit, and the project's
    # SessionStart "compact" hook restores context after it
    assert "SessionStart 'compact' hook runs after the compaction: 1" in out
    # an allow rule for `ls` does not cover a chained `touch`
    assert "-> bash ls && touch TIDIED\n     [x] Permission denied" in out
    assert "TIDIED created by `ls && touch TIDIED`: False" in out
    assert "hookline: 3 tool calls denied:" in out and "'Bash(touch TIDIED)'" in out
