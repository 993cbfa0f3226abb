"""``hookline hooks ...``: list, explain, test, replay and scaffold hooks (argument parsing).

Each subcommand loads the project's hooks the way the agent does (trust,
policy, discovery, settings) and never calls a model.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _project_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cwd", default=".", metavar="DIR", help="the project folder (default: .)")
    p.add_argument(
        "--hook",
        dest="hooks",
        action="append",
        default=[],
        metavar="PATH",
        help="also load this hook module file or folder, as `hookline --hook` (repeatable)",
    )
    p.add_argument("--settings", default=None, metavar="FILE", help="an extra settings file")
    p.add_argument(
        "--trust-project",
        action="store_true",
        help="treat the project as trusted for this command (its hooks load)",
    )


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="hookline hooks",
        description="Inspect and try the hooks of a project without a model: which hooks "
        "load, which would run for an event and why, and what they answer.",
    )
    sub = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    ls = sub.add_parser(
        "list",
        help="every module and settings hook: source, scope, order, events, status",
        description="List module hooks (in the order they run) and settings hooks with their "
        "status: loaded, shadowed (by what), skipped (trust, policy, disabled), failed "
        "(why), or never fires in hookline.",
    )
    ls.add_argument("--json", action="store_true", help="one JSON object on stdout")
    _project_options(ls)
    ex = sub.add_parser(
        "explain",
        help="which hooks EVENT would run, in what order, with what timeouts, and why",
        description="Show the selection for one event: module handlers in load order with "
        "their deadline, then the settings hooks' matchers tested, skips, dedupes and order.",
    )
    ex.add_argument("event", help="hookline's event name (tool_call) or Claude's (PreToolUse)")
    ex.add_argument("--tool", default=None, metavar="NAME", help="the tool (bash or Bash)")
    ex.add_argument(
        "--input", default=None, metavar="FILE", help="the event's fields as JSON (- for stdin)"
    )
    ex.add_argument("--json", action="store_true", help="one JSON object on stdout")
    _project_options(ex)
    te = sub.add_parser(
        "test",
        help="run the hooks on a synthetic EVENT; exit 0 allowed, 1 blocked, 2 error",
        description="Run module and settings hooks for one synthetic event, without a model. "
        "Prints each hook's outcome and the combined result. Exit code: 0 allowed, 1 blocked, "
        "2 a hook failed or the input is wrong. Tool events take hookline's vocabulary "
        '({"tool_name": "edit", "input": {"path": ...}}) or Claude\'s '
        '({"tool_name": "Edit", "tool_input": {"file_path": ...}}).',
    )
    te.add_argument("event", help="hookline's event name (tool_call) or Claude's (PreToolUse)")
    te.add_argument(
        "--input", required=True, metavar="FILE", help="the event's fields as JSON (- for stdin)"
    )
    te.add_argument("--json", action="store_true", help="one JSON object on stdout")
    _project_options(te)
    rp = sub.add_parser(
        "replay",
        help="re-run a session's tool calls through the current hooks; exit 1 if one is "
        "now blocked",
        description="Run every tool call recorded in SESSION through today's hooks and "
        "report what would now be blocked or changed; exit 0, or 1 when a call would now be "
        "blocked. SESSION is a session file, a session id or a unique start of one; --last "
        "is the project's newest session; with neither, a terminal offers the project's "
        "sessions to pick from. Tools are not executed (their recorded "
        "output is given to tool_result hooks) unless --execute is given; then the project's "
        "permission rules apply and whatever would ask is denied (no one is asked).",
    )
    rp.add_argument("session", nargs="?", metavar="SESSION")
    rp.add_argument("--last", action="store_true", help="the project's newest session")
    rp.add_argument(
        "--execute",
        action="store_true",
        help="really run the tools again (permission rules apply; asks are denied)",
    )
    rp.add_argument("--json", action="store_true", help="one JSON object on stdout")
    _project_options(rp)
    new = sub.add_parser(
        "new",
        help="write a typed hook module skeleton and its pytest test",
        description="Write NAME.py (a typed hook on EVENT) and tests/test_NAME.py (a test "
        "through hookline's pytest plugin) into --dir. Existing files are never overwritten.",
    )
    new.add_argument("name", help="the hook's name (a Python identifier)")
    new.add_argument(
        "--event",
        default="tool_call",
        metavar="E",
        help="the event to handle (default: tool_call; Claude's names accepted)",
    )
    new.add_argument(
        "--dir", default=".hookline/hooks", metavar="DIR", help="where (default: .hookline/hooks)"
    )
    return p


def main(argv: Sequence[str]) -> int:
    """``hookline hooks ARGS``; returns the exit code."""
    args = _parser().parse_args(list(argv))
    try:
        return _run(args)
    except _Failure as exc:
        print(f"hookline hooks {args.action}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


class _Failure(Exception):
    """A bad input or project: one line on stderr, exit 2."""


def _run(args: argparse.Namespace) -> int:
    from hookline.authoring.synthetic import EventInputError

    if args.action == "new":
        return _new(args)
    try:
        if args.action == "list":
            return _list(args)
        if args.action == "explain":
            return _explain(args)
        if args.action == "test":
            return _test(args)
        return _replay(args)
    except EventInputError as exc:
        raise _Failure(str(exc)) from None


def _project(args: argparse.Namespace) -> Any:
    from hookline.authoring.project import ProjectError, load_project_hooks

    cwd = os.path.abspath(args.cwd)
    settings = None if args.settings is None else os.path.join(cwd, args.settings)
    try:
        project = load_project_hooks(
            cwd, hook_paths=args.hooks, settings_file=settings, trust_project=args.trust_project
        )
    except ProjectError as exc:
        raise _Failure(str(exc)) from None
    if not getattr(args, "json", False):
        for note in project.notes:
            print(f"hookline: {note}", file=sys.stderr, flush=True)
    return project


def _read_json(where: str | None) -> dict[str, Any]:
    if where is None:
        return {}
    try:
        text = sys.stdin.read() if where == "-" else Path(where).read_text(encoding="utf-8")
    except OSError as exc:
        raise _Failure(f"--input {where}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Failure(f"--input {where}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _Failure(f"--input {where}: expected a JSON object of the event's fields")
    return data


def _list(args: argparse.Namespace) -> int:
    from hookline.authoring.inventory import inventory, render

    project = _project(args)
    rows = inventory(project)
    if args.json:
        print(json.dumps({"hooks": [r.to_dict() for r in rows], "notes": project.notes}))
    else:
        print(render(rows, []))
    return 0


def _explain(args: argparse.Namespace) -> int:
    from hookline.authoring.explain import explain, render
    from hookline.authoring.synthetic import event_name, make_event

    name = event_name(args.event)
    data = _read_json(args.input)
    if args.tool is not None:
        data["tool_name"] = args.tool
    if "tool_name" not in data and name in ("tool_call", "tool_result", "permission_request"):
        raise _Failure(f"{name} needs a tool: pass --tool NAME (e.g. --tool bash)")
    event = make_event(name, data)
    ex = explain(_project(args), event)
    print(json.dumps(ex.to_dict()) if args.json else render(ex))
    return 0


def _test(args: argparse.Namespace) -> int:
    from hookline.authoring.synthetic import make_event
    from hookline.authoring.trial import exit_code, project_harness, render, report

    event = make_event(args.event, _read_json(args.input))
    harness = project_harness(_project(args))
    emitted = asyncio.run(harness.emit(event))
    print(json.dumps(report(emitted)) if args.json else render(emitted))
    return exit_code(emitted)


def _replay(args: argparse.Namespace) -> int:
    from hookline.authoring.trial import (
        permission_stage,
        project_harness,
        render_replay,
        replay,
        replay_exit_code,
    )
    from hookline.session import SessionError

    path = _session_to_replay(args)
    if path is None:
        print("No session replayed.")
        return 0
    project = _project(args)
    harness = project_harness(project)
    authorize = permission_stage(project, harness) if args.execute else None
    try:
        items = asyncio.run(replay(harness, path, execute=args.execute, authorize=authorize))
    except SessionError as exc:
        raise _Failure(str(exc)) from None
    if args.json:
        print(json.dumps({"session": path, "calls": [i.to_dict() for i in items]}))
    else:
        print(render_replay(items, args.execute))
    return replay_exit_code(items)


def _session_to_replay(args: argparse.Namespace) -> str | None:
    """The file SESSION or ``--last`` names, or the one picked on a terminal (``None``: the
    user left the picker); with neither and no terminal, the sessions are listed."""
    from hookline.session.lookup import SessionNotFoundError, find_session
    from hookline.session.manager import SessionManager
    from hookline.session.storage import sessions_dir

    cwd = os.path.abspath(args.cwd)
    if args.last and args.session is not None:
        raise _Failure("SESSION and --last each name a session: give one")
    if args.session == "last":
        raise _Failure("no session named 'last': --last replays this project's newest session")
    if args.session is not None:
        try:
            return find_session(cwd, args.session)
        except SessionNotFoundError as exc:
            raise _Failure(str(exc)) from None
    sessions = SessionManager.list_sessions(cwd)
    if not sessions:
        where = sessions_dir(cwd, None)
        raise _Failure(f"no session of {cwd} to replay (sessions are kept in {where})")
    if args.last:
        return sessions[0].path
    from hookline.modes.interactive import on_terminal

    if on_terminal():
        from hookline.modes.tui.picker import pick_session

        title = f"Replay a session of {cwd} through today's hooks"
        return asyncio.run(pick_session(cwd, sessions, title=title))
    from hookline.authoring.trial import session_rows

    print("\n".join(session_rows(sessions)))
    raise _Failure(
        "which session? give SESSION (a session file, an id or its start, from the list "
        "above) or --last for the newest"
    )


def _new(args: argparse.Namespace) -> int:
    from hookline.authoring.scaffold import ScaffoldError, run_line, scaffold
    from hookline.authoring.synthetic import EventInputError, event_name

    try:
        event = event_name(args.event)
        hook, test = scaffold(args.name, event, Path(args.dir).absolute())
    except (ScaffoldError, EventInputError) as exc:
        raise _Failure(str(exc)) from None
    print(f"wrote {hook}\nwrote {test}\n{run_line(test)}")
    return 0


__all__ = ["main"]
