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
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from hookline.bridge._help import Formatter, positive_seconds

if TYPE_CHECKING:
    from hookline.bridge.mapping import ClaudeAnswer


def _parser() -> argparse.ArgumentParser:
    from hookline.bridge.watchdog import DEFAULT_DEADLINE

    p = argparse.ArgumentParser(
        formatter_class=Formatter,
        prog="hookline claude-hook",
        description=(
            "Read a Claude Code hook input (JSON) on stdin, run hookline's hook modules for the "
            "matching event (PreToolUse → tool_call, PostToolUse → tool_result, UserPromptSubmit "
            "→ input, Stop → stop, SessionStart → session_start, ...) and answer in Claude "
            "Code's format: decision JSON on stdout, exit 0 (or 1: a hook failed, shown to the "
            "user). Whatever cannot be answered (bad input, a hook module that did not load, "
            "an untrusted project, no answer in time) denies a PreToolUse or "
            "PermissionRequest. Configure it as a `command` hook in .claude/settings.json."
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
    p.add_argument(
        "--allow-untrusted-skip",
        action="store_true",
        help="in a project that was not trusted, skip its .hookline/hooks and let tool calls "
        "through (said once on stderr). Without it such calls are denied until you run "
        "`hookline trust DIR`. Risk: the project's guards are off and nothing blocks",
    )
    p.add_argument(
        "--timeout",
        type=positive_seconds,
        default=DEFAULT_DEADLINE,
        metavar="SECONDS",
        help="deny (PreToolUse, PermissionRequest) or report an error when the hooks have not "
        f"answered within SECONDS (default {DEFAULT_DEADLINE:g}); keep it below the hook's "
        "`timeout` in Claude Code's settings (600 s unless set), or Claude runs the tool",
    )
    return p


def main(argv: Sequence[str]) -> int:
    """Read stdin, answer on stdout/stderr, end with the exit code Claude Code reads
    (returned where the hooks ran in this process, else the process leaves with it).

    The hooks run in a forked child (``hookline.bridge.watchdog``), forked first thing:
    the less this process holds then, the less the child copies. Where they did, this
    process leaves as soon as its answer is written (``leave``: no teardown).
    """
    args = _parser().parse_args(argv)
    from hookline.bridge.watchdog import FORKS, leave, reply_within
    from hookline.modes.stdout import claim_stdout

    # The answer goes to a private stdout: a hook's print() (or a program it starts)
    # writes to stderr and cannot forge or corrupt the decision JSON.
    out = claim_stdout()
    started = time.perf_counter()
    code, stdout, stderr = reply_within(
        args.timeout,
        lambda tell: _run(args, tell),
        lambda why, event, timed_out: _failed(why, event, timed_out, started),
    )
    if stdout:
        out.write(stdout + "\n")
    out.flush()
    if stderr:
        sys.stderr.write(stderr + "\n")
    if FORKS:
        leave(code)
    return code


def _run(args: argparse.Namespace, tell: Callable[[str], None]) -> tuple[int, str, str]:
    """Read the hook input, say its event, load the hook modules and answer it (in the
    watchdog's child)."""
    from hookline.core.gc_pause import gc_paused

    with gc_paused():
        from hookline.bridge.mapping import MAX_INPUT, BridgeInputError, input_failure, parse_input

    raw = sys.stdin.buffer.read(MAX_INPUT + 1)  # one byte more: a larger input is refused
    if len(raw) > MAX_INPUT:
        while sys.stdin.buffer.read(1 << 20):  # read to the end: Claude's write must not fail
            pass
    try:
        payload = parse_input(raw)
    except BridgeInputError as exc:
        return _reply(input_failure(raw, str(exc)))
    tell(payload["hook_event_name"])
    with gc_paused():
        from hookline.bridge.engine import load_bridge
        from hookline.bridge.metrics import hook_metrics

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
            allow_skip=args.allow_untrusted_skip,
            timeout=args.timeout,
            metrics=hook_metrics(_warn),
        )
    answer = bridge.answer_once(payload)
    bridge.metrics.flush()  # this process ends with the event: send its counts now
    return _reply(answer)


def _failed(
    reason: str, event: str | None, timed_out: bool, started: float
) -> tuple[int, str, str]:
    """The parent's answer when the child gave none: a deny where the event can block
    (counted, with the timeout, when telemetry is on: the child's counts died with it)."""
    from hookline.bridge.mapping import failure_answer, unknown_event_answer
    from hookline.bridge.metrics import NO_HOOK, claude_decision, hook_metrics

    answer = failure_answer(event, reason) if event else unknown_event_answer(reason)
    metrics = hook_metrics(_warn)
    if metrics.sinks:
        decision = claude_decision(event or "", NO_HOOK, answer)
        if timed_out:
            metrics.event_timed_out(decision.event)
        metrics.decided(decision, started)
        metrics.flush()
    return _reply(answer)


def _warn(text: str) -> None:
    sys.stderr.write(f"hookline claude-hook: {text}\n")


def _reply(answer: ClaudeAnswer) -> tuple[int, str, str]:
    return answer.exit_code, answer.stdout, answer.stderr
