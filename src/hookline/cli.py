"""The ``hookline`` command: parse arguments, build the agent, hand it to a mode.

Bad input (an unknown flag, a missing script file, a malformed model spec)
is one clear line on stderr and exit code 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from hookline.agent.permissions import PERMISSION_MODES

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line plus where to find help."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _main_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="hookline",
        description=(
            "hookline's reference coding agent. Every step emits hook events to Python hook "
            "modules and Claude Code settings hooks.\n\nOther commands: `hookline trust [DIR]`, "
            "`hookline untrust [DIR]`, `hookline settings schema`."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "-p",
        "--print",
        dest="prompt",
        metavar="PROMPT",
        help="run PROMPT once, print the final answer and exit",
    )
    p.add_argument(
        "--mode",
        choices=("text", "json", "rpc"),
        default=None,
        help="text (default), json (every event as a JSON line; needs -p), "
        "rpc (JSON lines on stdin/stdout)",
    )
    p.add_argument(
        "--model",
        default=None,
        metavar="SPEC",
        help="scripted:FILE (deterministic script; the default is an embedded one), "
        "anthropic:NAME, openai:NAME",
    )
    p.add_argument(
        "--base-url",
        default=None,
        metavar="URL",
        help="API base URL (any OpenAI-compatible server with openai:NAME)",
    )
    p.add_argument(
        "--hook",
        "--extension",
        dest="hooks",
        action="append",
        default=[],
        metavar="PATH",
        help="load a hook module file or folder (repeatable)",
    )
    p.add_argument(
        "--settings",
        default=None,
        metavar="FILE",
        help="an extra settings file, merged after the project's",
    )
    p.add_argument(
        "--no-session",
        action="store_true",
        help="keep the session in memory only (ctx.session_file is None)",
    )
    p.add_argument("--session", default=None, metavar="FILE", help="resume this session file")
    p.add_argument(
        "--resume",
        "--continue",
        dest="resume",
        action="store_true",
        help="resume the most recent session of this project",
    )
    p.add_argument(
        "--permission-mode",
        choices=PERMISSION_MODES,
        default=None,
        help="default, acceptEdits, plan, bypassPermissions or dontAsk",
    )
    p.add_argument(
        "--trust-project",
        action="store_true",
        help="trust the project's hooks and settings hooks for this run only",
    )
    p.add_argument(
        "--cwd",
        default=None,
        metavar="DIR",
        help="work in DIR (default: .); relative paths in the other flags are taken from DIR",
    )
    p.add_argument(
        "--system-prompt", default=None, metavar="TEXT", help="replace the default system prompt"
    )
    p.add_argument("--verbose", action="store_true", help="show hook diagnostics on stderr")
    p.add_argument("--version", action="version", version="hookline 0.1.0")
    return p


def _trust_parser(name: str) -> argparse.ArgumentParser:
    p = _Parser(
        prog=f"hookline {name}",
        description=f"{name.capitalize()} a project directory's hooks "
        f"(recorded in $HOOKLINE_HOME/trust.json).",
    )
    p.add_argument("dir", nargs="?", default=".", help="the project directory (default: .)")
    return p


def _trust(argv: Sequence[str], trust: bool) -> int:
    from hookline.settings.trust import TrustStore

    args = _trust_parser("trust" if trust else "untrust").parse_args(argv)
    folder = Path(args.dir).resolve()
    if not folder.is_dir():
        print(f"hookline: error: {folder} is not a directory", file=sys.stderr)
        return EXIT_USAGE
    store = TrustStore()
    if trust:
        store.trust(folder)
        print(f"trusted {folder}: its hooks and settings hooks will run")
    else:
        store.untrust(folder)
        print(f"no longer trusted: {folder}")
    return 0


def _settings(argv: Sequence[str]) -> int:
    p = _Parser(prog="hookline settings", description="Settings file tools.")
    sub = p.add_subparsers(dest="action", required=True)
    sub.add_parser("schema", help="print the JSON Schema of the settings file")
    args = p.parse_args(argv)
    if args.action == "schema":
        from hookline.settings.schema import settings_json_schema

        print(json.dumps(settings_json_schema(), indent=2))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hookline`` console script."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in ("trust", "untrust"):
        return _trust(args_list[1:], args_list[0] == "trust")
    if args_list and args_list[0] == "settings":
        return _settings(args_list[1:])
    parser = _main_parser()
    args = parser.parse_args(args_list)
    mode = args.mode or "text"
    if mode == "json" and args.prompt is None:
        parser.error("--mode json needs a prompt: -p PROMPT")
    if mode == "rpc" and args.prompt is not None:
        parser.error("--mode rpc reads prompts from stdin; drop -p")
    interactive = mode == "text" and args.prompt is None
    cwd = os.path.abspath(args.cwd or ".")
    # --hook and scripted: paths are resolved against --cwd downstream; these two alike.
    settings_file = _under(cwd, args.settings)
    session_file = _under(cwd, args.session)
    if session_file is not None and not os.path.isfile(session_file):
        parser.error(f"--session {session_file}: no such file")
    from hookline.agent.setup import AgentOptions, SetupError

    options = AgentOptions(
        cwd=cwd,
        model=args.model,
        base_url=args.base_url,
        hook_paths=args.hooks,
        settings_file=settings_file,
        no_session=args.no_session,
        session_file=session_file,
        resume=args.resume,
        permission_mode=args.permission_mode,
        trust_project=args.trust_project,
        system_prompt=args.system_prompt,
        interactive=interactive,
        verbose=args.verbose,
    )
    try:
        return asyncio.run(_run(options, mode, args.prompt, interactive))
    except SetupError as exc:
        print(f"hookline: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _under(cwd: str, path: str | None) -> str | None:
    """``path`` with ``~`` expanded, relative to ``cwd``."""
    return None if path is None else os.path.join(cwd, os.path.expanduser(path))


async def _run(options: object, mode: str, prompt: str | None, interactive: bool) -> int:
    from hookline.agent.setup import AgentOptions, build_agent
    from hookline.modes.print_mode import StderrUI, run_print

    assert isinstance(options, AgentOptions)
    ask_trust, stderr = None, None
    if interactive:
        from hookline.modes.interactive import on_terminal

        if on_terminal():  # the terminal app asks with a dialog; a pipe answers a line
            from hookline.modes.tui import FollowStderr
            from hookline.modes.tui.trust import ask_trust as ask_with_dialog

            ask_trust, stderr = ask_with_dialog, FollowStderr()
    bundle = await build_agent(options, ask_trust=ask_trust, stderr=stderr)
    agent = bundle.agent
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()
    terminated = False

    def on_sigterm() -> None:
        # Stop the work first: cancelling the mode unwinds the model call and the
        # tools, so nothing is appended once session_shutdown has closed the session.
        nonlocal terminated
        if terminated or main_task is None:
            return
        terminated = True
        agent.abort()
        main_task.cancel()

    loop.add_signal_handler(signal.SIGTERM, on_sigterm)
    try:
        if mode == "rpc":
            from hookline.modes.rpc_mode import run_rpc

            return await run_rpc(agent, bundle.make_provider)
        if interactive:
            from hookline.modes.interactive import run_interactive

            return await run_interactive(agent, bundle)
        agent.runner.set_ui(StderrUI(), False)
        assert prompt is not None
        return await run_print(agent, prompt, json_mode=mode == "json")
    except asyncio.CancelledError:
        if not terminated or main_task is None:
            raise  # Ctrl-C: asyncio.run turns it into KeyboardInterrupt
        main_task.uncancel()
        return 128 + signal.SIGTERM
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        # The modes shut down when they end normally; this covers a signal or an error.
        await agent.shutdown("sigterm" if terminated else "exit")


if __name__ == "__main__":
    raise SystemExit(main())
