"""``hookline claude-hook``: run hookline's hook modules as one Claude Code command hook.

Claude Code starts this once per event, so start-up is the product: only
the bridge, the runner and the loader are imported (no settings models, no
agent, no SDKs), and nothing is read that the event does not need.

    {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "hookline claude-hook --hook ~/hooks/guard.py"}]}]}}
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from hookline.bridge._help import Formatter


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        formatter_class=Formatter,
        prog="hookline claude-hook",
        description=(
            "Read a Claude Code hook input (JSON) on stdin, run hookline's hook modules for the "
            "matching event (PreToolUse → tool_call, PostToolUse → tool_result, UserPromptSubmit "
            "→ input, Stop → stop, SessionStart → session_start, ...) and answer in Claude "
            "Code's format: decision JSON on stdout, exit 0 (or 1: a hook failed, shown to the "
            "user). Configure it as a `command` hook in .claude/settings.json."
        ),
    )
    p.add_argument(
        "--hook",
        dest="hooks",
        action="append",
        default=[],
        metavar="PATH",
        help="a hook module file or folder (repeatable), relative to the current folder "
        "(Claude Code starts hooks in the project folder)",
    )
    p.add_argument(
        "--no-discovery",
        action="store_true",
        help="load only --hook paths (not the project's .hookline/hooks, ~/.hookline/hooks "
        "or installed packages)",
    )
    p.add_argument(
        "--trust-project",
        action="store_true",
        help="load the project's .hookline/hooks even when `hookline trust` was not run",
    )
    return p


def main(argv: Sequence[str]) -> int:
    """Read stdin, answer on stdout/stderr, return the exit code Claude Code reads."""
    args = _parser().parse_args(argv)
    from hookline.core.gc_pause import gc_paused

    with gc_paused():
        from hookline.bridge.engine import load_bridge
        from hookline.bridge.mapping import BridgeInputError, failure_answer, parse_input
        from hookline.modes.stdout import claim_stdout

    # The answer goes to a private stdout: a hook's print() (or a program it starts)
    # writes to stderr and cannot forge or corrupt the decision JSON.
    out = claim_stdout()
    try:
        payload = parse_input(sys.stdin.buffer.read())
    except BridgeInputError as exc:
        # No event name to go by: deny, as a PreToolUse must fail closed.
        answer = failure_answer("PreToolUse", str(exc))
    else:
        cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
        cwd = cwd or os.getcwd()
        with gc_paused():  # the hook modules' imports
            bridge = load_bridge(
                args.hooks,
                cwd=cwd,
                paths_from=os.getcwd(),
                project_dir=os.environ.get("CLAUDE_PROJECT_DIR") or cwd,
                discover=not args.no_discovery,
                trust_project=args.trust_project,
            )
        answer = bridge.answer_once(payload)
    text = answer.stdout
    if text:
        out.write(text + "\n")
    out.flush()
    if answer.stderr:
        sys.stderr.write(answer.stderr + "\n")
    return answer.exit_code
