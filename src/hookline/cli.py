"""The ``hookline`` command: parse arguments, build the agent, hand it to a mode.

Bad input (an unknown flag, a missing script file, a malformed model spec)
is one clear line on stderr and exit code 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

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
    p.add_argument(
        "--verbose-context",
        action="store_true",
        help="JSON/RPC: put the whole message list in every `context` event "
        "(default: only the messages added since the previous model call)",
    )
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
        verbose_context=args.verbose_context,
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


#: Seconds the graceful stop after SIGTERM/SIGINT may take before the process exits hard.
HARD_EXIT_AFTER = 3.0
#: Seconds after which the reaper process kills us when even the hard exit could not run.
REAPER_AFTER = HARD_EXIT_AFTER + 2.0

_REAPER = """
while :; do
  b=$(dd bs=1 count=1 2>/dev/null | od -An -tu1 | tr -d ' \\n')
  [ -n "$b" ] || exit 0
  case "$b" in {signals}) sleep {after}; kill -KILL {pid} 2>/dev/null; exit 0;; esac
done
"""


class _Signals:
    """SIGTERM and SIGINT end the process, whatever a hook is doing.

    The first signal stops the run gracefully on the loop (``on_first``: the
    agent aborts, the main task is cancelled, ``session_shutdown`` runs) and
    starts a thread that exits hard (``os._exit(128 + signal)``) if the process
    is still alive ``HARD_EXIT_AFTER`` seconds later, e.g. because sync hook
    code holds the event loop. A second signal exits hard at once. Python runs
    these handlers between bytecodes, in ``time.sleep`` and in blocking I/O,
    without the event loop.

    C code that never returns to the interpreter (a catastrophic ``re``
    pattern) holds the GIL, so no Python code runs at all: for that, a small
    reaper process learns of the signal through the wakeup fd (written by the
    C-level handler itself) and sends SIGKILL ``REAPER_AFTER`` seconds later.
    Nothing is lost by either: each session entry is fsynced as it is appended.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, on_first: Callable[[int], None]) -> None:
        self._loop = loop
        self._on_first = on_first
        self._previous: dict[int, Any] = {}
        self._wakeup: int | None = None
        self._previous_wakeup = -1
        self._reaper: subprocess.Popen[bytes] | None = None
        self.received: int | None = None

    def install(self) -> None:
        for signum in (signal.SIGTERM, signal.SIGINT):
            self._previous[signum] = signal.signal(signum, self._handle)
        self._start_reaper()

    def restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        if self._wakeup is not None:
            signal.set_wakeup_fd(self._previous_wakeup)
            os.close(self._wakeup)  # the reaper reads EOF and leaves
            self._wakeup = None

    def _start_reaper(self) -> None:
        read, write = os.pipe()
        try:
            script = _REAPER.format(
                signals="|".join(str(int(s)) for s in self._previous),
                after=f"{REAPER_AFTER:g}",
                pid=os.getpid(),
            )
            self._reaper = subprocess.Popen(
                ["sh", "-c", script],
                stdin=read,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a terminal's Ctrl+C is not for it
            )
        except OSError:
            os.close(write)
            return
        finally:
            os.close(read)
        os.set_blocking(write, False)
        self._previous_wakeup = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        self._wakeup = write

    def _handle(self, signum: int, frame: object) -> None:
        if self.received is not None:
            _hard_exit(128 + signum, "second signal")
        self.received = signum
        with contextlib.suppress(OSError):
            name = signal.Signals(signum).name
            os.write(2, f"hookline: {name} received, stopping (again to exit at once)\n".encode())
        threading.Thread(
            target=_hard_exit_later, args=(128 + signum,), name="hookline-exit", daemon=True
        ).start()
        try:
            self._loop.call_soon_threadsafe(self._on_first, signum)
        except RuntimeError:  # the loop is already closed: nothing left to stop gracefully
            _hard_exit(128 + signum, "loop closed")


def _hard_exit_later(code: int) -> None:
    time.sleep(HARD_EXIT_AFTER)
    _hard_exit(code, f"shutdown did not finish within {HARD_EXIT_AFTER:g} s")


def _hard_exit(code: int, why: str) -> NoReturn:
    """Leave now: no loop, no locks (a stuck thread may hold sys.stderr's)."""
    with contextlib.suppress(OSError):
        os.write(2, f"hookline: exiting at once ({why})\n".encode())
    os._exit(code)


async def _run(options: object, mode: str, prompt: str | None, interactive: bool) -> int:
    from hookline.agent.setup import AgentOptions, build_agent
    from hookline.core.watchdog import LoopWatchdog
    from hookline.modes.print_mode import StderrUI, run_print
    from hookline.modes.stdout import claim_stdout

    assert isinstance(options, AgentOptions)
    # Machine-read output gets a private stdout before any hook is imported: a hook's
    # print() or a program it spawns writes to stderr, never into the answer or JSON.
    out = None if interactive else claim_stdout()
    bundle = await build_agent(options)
    agent = bundle.agent
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()

    def stop(signum: int) -> None:
        # Stop the work first: cancelling the mode unwinds the model call and the
        # tools, so nothing is appended once session_shutdown has closed the session.
        agent.abort()
        if main_task is not None:
            main_task.cancel()

    signals = _Signals(loop, stop)
    signals.install()
    watchdog = LoopWatchdog(agent.runner, loop, agent.runner.timeout or DEFAULT_BLOCKING_REPORT)
    watchdog.start()
    code = 0
    try:
        if mode == "rpc":
            from hookline.modes.rpc_mode import run_rpc

            code = await run_rpc(agent, bundle.make_provider, out)
        elif interactive:
            from hookline.modes.interactive import run_interactive

            code = await run_interactive(agent, bundle)
        else:
            agent.runner.set_ui(StderrUI(), False)
            assert prompt is not None
            code = await run_print(agent, prompt, json_mode=mode == "json", out=out)
    except asyncio.CancelledError:
        if signals.received is None or main_task is None:
            raise
        main_task.uncancel()
        code = 128 + signals.received
    finally:
        # The modes shut down when they end normally; this covers a signal or an error.
        reasons = {int(signal.SIGTERM): "sigterm", int(signal.SIGINT): "sigint"}
        await agent.shutdown(reasons.get(signals.received or 0, "exit"))
        watchdog.stop()
        signals.restore()
    if agent.runner.orphans:
        # Hooks abandoned after their deadline still run; asyncio.run would wait for them
        # forever at exit. Flush what was printed and leave without them.
        for stream in (out, sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.flush()
        os._exit(code)
    return code


#: Seconds of sync hook code holding the loop before it is reported, when hooks have no
#: deadline (``hookTimeout`` off).
DEFAULT_BLOCKING_REPORT = 30.0


if __name__ == "__main__":
    raise SystemExit(main())
