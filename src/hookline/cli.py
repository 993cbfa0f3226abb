"""The ``hookline`` command: parse arguments, build the agent, hand it to a mode.

Bad input (an unknown flag, a missing script file, a malformed model spec)
is one clear line on stderr and exit code 2 — never a traceback. A hook named with
``--hook`` that does not load is exit 1 (as pi): the run would lack a guard asked for.
"""

from __future__ import annotations

# Imports here are what `hookline --version` and `--help` need; the rest are
# imported where they are used (a chosen subcommand or mode), so start-up stays
# cheap (tests/test_startup.py pins the modules `--version` loads).
import argparse
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from hookline._version import __version__
from hookline.core.vocabulary import PERMISSION_MODES

if TYPE_CHECKING:
    from hookline.core.host import RunMode
    from hookline.modes.tui.launch import Launch
    from hookline.session.manager import SessionManager

EXIT_USAGE = 2
VERSION = f"hookline {__version__}"
#: ``--mode`` (or ``serve``) → how the agent runs, as hooks read it in ``ctx.mode``.
_RUN_MODES: dict[str, RunMode] = {"text": "print", "json": "json", "rpc": "rpc", "serve": "serve"}


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line plus where to find help."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _columns() -> int:
    """The terminal width as ``shutil.get_terminal_size`` finds it, without importing shutil.

    argparse imports shutil (and with it zlib, bz2 and lzma) only to ask this.
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _RawFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's raw-description formatter, its width found without shutil."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = _columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


def _main_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="hookline",
        usage="%(prog)s [options] [PROMPT]",
        description=(
            "hookline's reference coding agent. Every step emits hook events to Python hook "
            "modules and Claude Code settings hooks.\n\n`hookline PROMPT` starts the terminal "
            "app with PROMPT sent first; `hookline -p PROMPT` prints one answer and exits."
            "\n\nOther commands: `hookline trust [DIR]`, "
            "`hookline trust --list`, `hookline untrust [DIR]`, `hookline settings schema`, "
            "`hookline sandbox check` (the bash sandbox: available? what it holds), "
            "`hookline hooks list|explain|test|replay|new` (see `hookline hooks --help`), "
            "`hookline claude-hook` (hook modules as a Claude Code command hook), "
            "`hookline serve --http HOST:PORT | --stdio` (the same, kept loaded)."
        ),
        formatter_class=_RawFormatter,
        epilog=_ENVIRONMENT,
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
        "--rpc-events",
        choices=("pi", "all"),
        default="pi",
        help="rpc mode's event lines: pi (default: the kinds pi's RPC clients read) "
        "or all (hookline's hook events too: session_start, tool_call, ...)",
    )
    p.add_argument(
        "--model",
        default=None,
        metavar="SPEC",
        help="scripted:FILE (deterministic script; the default is an embedded one), "
        "anthropic:NAME, openai:NAME, or PROVIDER:NAME of a provider a hook registers",
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
        "-c",
        "--continue",
        dest="continue_recent",
        action="store_true",
        help="resume the most recent session of this project",
    )
    p.add_argument(
        "-r",
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="ID",
        help="resume a session: its id, a unique start of the id, or its file "
        "(no ID: pick one of this directory's sessions in the terminal app)",
    )
    p.add_argument(
        "--permission-mode",
        choices=PERMISSION_MODES,
        default=None,
        help="default, acceptEdits, plan, bypassPermissions or dontAsk",
    )
    p.add_argument(
        "--dangerously-skip-permissions",
        action="store_true",
        help="run in bypassPermissions (--permission-mode bypassPermissions)",
    )
    p.add_argument(
        "--allow-dangerously-skip-permissions",
        action="store_true",
        help="let Shift+Tab switch to bypassPermissions later, without starting in it",
    )
    p.add_argument(
        "--add-dir",
        dest="add_dirs",
        action="append",
        default=[],
        metavar="DIR",
        help="another working directory: acceptEdits edits there without asking (repeatable)",
    )
    p.add_argument(
        "--require-hook",
        dest="required_hooks",
        action="append",
        default=[],
        metavar="PATH",
        help="load a hook module file and refuse to start if it is missing or fails to load "
        "(repeatable)",
    )
    p.add_argument(
        "--plugin-dir",
        dest="plugin_dirs",
        action="append",
        default=[],
        metavar="DIR",
        help="load a Claude Code plugin folder for this run (repeatable)",
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
    p.add_argument(
        "--append-system-prompt",
        default=None,
        metavar="TEXT",
        help="add TEXT (or the text of the file TEXT names) to the end of the system prompt",
    )
    p.add_argument(
        "--tools",
        default=None,
        metavar="LIST",
        help="offer only these tools, comma-separated (e.g. read,grep,find,ls)",
    )
    loudness = p.add_mutually_exclusive_group()
    loudness.add_argument(
        "--verbose",
        action="store_true",
        help="show hook diagnostics on stderr: each loaded hook, each tool call, tracebacks, "
        "hookline's debug log (HOOKLINE_LOG=debug does the same)",
    )
    loudness.add_argument(
        "-q", "--quiet", action="store_true", help="show only errors on stderr, no warnings"
    )
    p.add_argument(
        "--verbose-context",
        action="store_true",
        help="JSON/RPC: put the whole message list in every `context` event "
        "(default: only the messages added since the previous model call)",
    )
    p.add_argument(
        "--audit-log",
        metavar="FILE",
        help="append every permission decision and hook outcome to FILE as JSON lines "
        "(also HOOKLINE_AUDIT_LOG); HOOKLINE_TELEMETRY=1 sends OpenTelemetry traces and "
        "metrics to the OTEL_EXPORTER_OTLP_ENDPOINT collector",
    )
    p.add_argument("--version", action="version", version=VERSION)
    return p


_ENVIRONMENT = """\
environment:
  HOOKLINE_LOG=LEVEL      what stderr shows of hookline's log and hook modules' own
                          logging.getLogger(__name__) records: debug, info, warning
                          (default) or error; -q and --verbose override it
  HOOKLINE_LOG_FILE=PATH  also append the log records to PATH (with time and logger)
  HOOKLINE_HOME=DIR       hookline's folder (default ~/.hookline: hooks, sessions, trust)
  HOOKLINE_MODEL=SPEC     the model when --model is not given
Log lines go to stderr only; stdout carries the answer (or the JSON/RPC protocol)."""


def _trust_parser(name: str) -> argparse.ArgumentParser:
    what = (
        "Trust a project directory and everything below it, including folders cloned there "
        "later: its hook modules, settings hooks and settings that loosen permissions apply."
        if name == "trust"
        else "Stop trusting a project directory (a trusted parent still covers it)."
    )
    p = _Parser(
        prog=f"hookline {name}", description=f"{what} Recorded in $HOOKLINE_HOME/trust.json."
    )
    p.add_argument("dir", nargs="?", default=".", help="the project directory (default: .)")
    if name == "trust":
        p.add_argument("--list", action="store_true", help="show the trusted directories")
    return p


def _trust(argv: Sequence[str], trust: bool) -> int:
    from pathlib import Path

    from hookline.settings.trust import TrustError, TrustStore

    args = _trust_parser("trust" if trust else "untrust").parse_args(argv)
    store = TrustStore()
    if trust and args.list:
        dirs = store.trusted_dirs()  # a damaged trust.json is logged as a warning
        for folder in dirs:
            print(f"{folder}  (and everything below it)")
        if not dirs:
            print(f"no trusted directories (recorded in {store.path})")
        return 0
    folder = Path(args.dir).resolve()
    if not folder.is_dir():
        print(f"hookline: error: {folder} is not a directory", file=sys.stderr)
        return EXIT_USAGE
    try:
        changed = store.trust(folder) if trust else store.untrust(folder)
    except TrustError as exc:
        print(f"hookline: error: {exc}", file=sys.stderr)
        return 1
    if trust:
        already = "" if changed else " (already trusted)"
        print(
            f"trusted {folder}{already}: it and everything below it, including folders cloned "
            "there later, may run hooks and loosen permissions"
        )
    elif changed:
        print(f"no longer trusted: {folder}")
    else:
        covering = [d for d in store.trusted_dirs() if d in folder.parents]
        note = f"; it stays trusted through {covering[0]}" if covering else ""
        print(f"{folder} was not recorded as trusted{note}")
    return 0


def _settings(argv: Sequence[str]) -> int:
    p = _Parser(prog="hookline settings", description="Settings file tools.")
    sub = p.add_subparsers(dest="action", required=True)
    sub.add_parser("schema", help="print the JSON Schema of the settings file")
    args = p.parse_args(argv)
    if args.action == "schema":
        import json

        from hookline.settings.schema import settings_json_schema

        print(json.dumps(settings_json_schema(), indent=2))
    return 0


def _sandbox(argv: Sequence[str]) -> int:
    p = _Parser(
        prog="hookline sandbox",
        description="The bash sandbox (Claude Code's `sandbox` settings, held by bubblewrap).",
    )
    sub = p.add_subparsers(dest="action", required=True)
    check = sub.add_parser(
        "check",
        help="what the machine offers and the resolved sandbox of a folder",
        description=(
            "Print whether the sandbox can run here (bubblewrap, user namespaces, seccomp, "
            "Landlock) and the sandbox the settings give DIR: settings files, writable, "
            "read-only and hidden paths, allowed domains, mode. Exit 0 when the sandbox is "
            "available, 1 when it is not."
        ),
    )
    check.add_argument("--cwd", default=".", metavar="DIR", help="the project folder (default .)")
    check.add_argument("--settings", metavar="FILE", help="an extra settings file, as the agent's")
    args = p.parse_args(argv)
    from hookline.sandbox.availability import probe
    from hookline.sandbox.check import check_sections, format_sections, resolve_for

    config, problems = resolve_for(args.cwd, settings_file=args.settings)
    found = probe()
    print(format_sections(check_sections(config, found)))
    for problem in problems:
        print(f"hookline: {problem}", file=sys.stderr)
    return 0 if found.available else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``hookline`` console script: quiet when whoever reads its output
    goes away (``hookline hooks list | head``), as a shell tool killed by SIGPIPE is."""
    try:
        code = _main(argv)
        if sys.stdout is not None:  # None when started with fd 1 closed (``>&-``)
            sys.stdout.flush()  # here, not at exit, where a closed pipe is printed as noise
    except BrokenPipeError:
        _silence_stdout()
        return _CLOSED_PIPE
    return code


#: The status a shell reports for a program that SIGPIPE ended (128 + 13).
_CLOSED_PIPE = 141


def _silence_stdout() -> None:
    """Point stdout at /dev/null: what is still buffered is dropped at exit, not raised."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor behind sys.stdout
        pass
    finally:
        os.close(devnull)


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list == ["--version"]:
        return _version()
    command = _SUBCOMMANDS.get(args_list[0]) if args_list else None
    if command is not None:
        return command(args_list[1:])
    serve = bool(args_list) and args_list[0] == "serve"
    discover = True
    allow_skip = False
    if serve:
        args_list = args_list[1:]
        if "--stdio" not in args_list:
            if any(w in ("-h", "--help") or w.split("=")[0] == "--http" for w in args_list):
                from hookline.bridge.serve import main as serve_http

                return serve_http(args_list)
            _main_parser().error(
                "serve needs --stdio (JSON lines on stdin/stdout) or --http HOST:PORT"
            )
        if any(w.split("=")[0] == "--http" for w in args_list):
            _main_parser().error(
                "serve takes --stdio or --http HOST:PORT, not both: each is one server"
            )
        args_list.remove("--stdio")
        # claude-hook's flags: no project, user or package hooks (one load serves both
        # hosts); an untrusted project's hooks skipped with calls let through.
        discover = "--no-discovery" not in args_list
        allow_skip = "--allow-untrusted-skip" in args_list
        args_list = [w for w in args_list if w not in ("--no-discovery", "--allow-untrusted-skip")]
    parser = _main_parser()
    args_list, after_dashes = _before_dashes(args_list)
    if "-h" in args_list or "--help" in args_list:
        return _help(parser, args_list)
    # Words argparse does not know are hook flags (``register_flag``): checked once the
    # hooks are loaded, where an unknown one is an error. The other words are the prompt.
    args, unknown = parser.parse_known_args(args_list)
    hook_flags, prompt_words = _split_prompt(unknown)
    if prompt_words and not serve and after_dashes is None and args_list[0] == prompt_words[0]:
        _refuse_mistyped_command(parser, prompt_words)
    prompt_words += after_dashes or []
    if prompt_words and (serve or args.prompt is not None or args.mode not in (None, "text")):
        parser.error(
            f"unexpected argument {prompt_words[0]!r}: a prompt without -p starts the "
            "terminal app; -p PROMPT runs it once"
        )
    first_prompt = " ".join(prompt_words) or None
    mode = "serve" if serve else args.mode or "text"
    if mode == "json" and args.prompt is None:
        parser.error("--mode json needs a prompt: -p PROMPT")
    if mode == "rpc" and args.prompt is not None:
        parser.error("--mode rpc reads prompts from stdin; drop -p")
    interactive = mode == "text" and args.prompt is None
    from hookline._logging import FILE_VARIABLE, LogConfigError, choose_level, configure_logging

    try:
        level = choose_level(os.environ, quiet=args.quiet, verbose=args.verbose)
    except LogConfigError as exc:
        parser.error(str(exc))
    cwd = os.path.abspath(args.cwd or ".")
    # --hook and scripted: paths are resolved against --cwd downstream; these two alike.
    settings_file = _under(cwd, args.settings)
    session_file = _under(cwd, args.session)
    permission_mode = args.permission_mode
    if args.dangerously_skip_permissions:
        if permission_mode not in (None, "bypassPermissions"):
            parser.error(
                f"--dangerously-skip-permissions and --permission-mode {permission_mode} "
                "ask for two modes: give one"
            )
        permission_mode = "bypassPermissions"
    if args.resume is not None and session_file is not None:
        parser.error("--resume ID and --session FILE each name a session: give one")
    if session_file is not None and not os.path.isfile(session_file):
        parser.error(f"--session {session_file}: no such file")
    if args.resume:
        from hookline.session.lookup import SessionNotFoundError, find_session

        try:
            session_file = find_session(cwd, args.resume)
        except SessionNotFoundError as exc:
            print(f"hookline: error: --resume: {exc}", file=sys.stderr)
            return EXIT_USAGE
    import asyncio

    launch = None
    if interactive:
        from hookline.modes.interactive import on_terminal

        if on_terminal():  # the app is drawn first; the agent is imported and built after
            from hookline.modes.tui.launch import Launch

            launch = Launch(
                cwd, model=args.model, trust_project=args.trust_project, settings_file=settings_file
            )
    if args.resume == "":
        if launch is None:
            parser.error(
                "--resume without an ID opens a picker, which needs the terminal app; "
                "here name the session: --resume ID (its id, a unique start of it, or its "
                "file), or -c for this directory's most recent"
            )
        picked = _picked_session(cwd)
        if isinstance(picked, int):
            return picked
        session_file = picked

    def make_options() -> object:
        from hookline.agent.setup import AgentOptions

        return AgentOptions(
            cwd=cwd,
            model=args.model,
            base_url=args.base_url,
            hook_paths=args.hooks,
            settings_file=settings_file,
            # serve answers another agent's events: no hookline session unless one is named.
            no_session=args.no_session or (serve and session_file is None),
            session_file=session_file,
            resume=args.continue_recent,
            permission_mode=permission_mode,
            allow_bypass_permissions=args.allow_dangerously_skip_permissions,
            add_dirs=args.add_dirs,
            trust_project=args.trust_project,
            required_hooks=args.required_hooks,
            plugin_dirs=[os.path.join(cwd, os.path.expanduser(d)) for d in args.plugin_dirs],
            system_prompt=args.system_prompt,
            append_system_prompt=_text_or_file(args.append_system_prompt, cwd),
            tools=_tool_list(args.tools),
            interactive=interactive,
            verbose=level <= logging.DEBUG,
            verbose_context=args.verbose_context,
            mode="interactive" if interactive else _RUN_MODES[mode],
            hook_flags=hook_flags,
            known_flags=tuple(parser._option_string_actions),
            discover=discover,
            hook_paths_must_load=not serve,  # serve denies tool calls instead (its answer)
        )

    from hookline.modes.stdout import fill_closed_fds

    fill_closed_fds()  # `hookline -p x >&-`: fd 1 must not become the loop's or a session's
    try:
        # Plain lines where a program reads stderr too (JSON, RPC, serve); rich on a terminal.
        unconfigure = configure_logging(
            level, rich=mode == "text", log_file=os.environ.get(FILE_VARIABLE) or None
        )
    except LogConfigError as exc:
        parser.error(str(exc))
    run = _run(
        make_options,
        mode,
        first_prompt if interactive else args.prompt,
        interactive,
        args.audit_log,
        launch=launch,
        allow_skip=allow_skip,
        rpc_events=args.rpc_events,
    )
    try:
        return asyncio.run(run)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        from hookline.agent.setup import SetupError

        if not isinstance(exc, SetupError):
            raise
        from hookline.agent.setup import HookFlagError

        hint = f" (see `{parser.prog} --help`)" if isinstance(exc, HookFlagError) else ""
        print(f"hookline: error: {exc}{hint}", file=sys.stderr)
        return exc.exit_code
    finally:
        unconfigure()


def _picked_session(cwd: str) -> str | int:
    """``--resume`` with no ID: the file of the session picked, else the exit code (0: the
    user left the picker; 1: this directory has no session to resume)."""
    import asyncio

    from hookline.session.manager import SessionManager

    sessions = SessionManager.list_sessions(cwd)
    if not sessions:
        print(
            f"hookline: no sessions here to resume ({cwd}); `hookline` starts a new one",
            file=sys.stderr,
        )
        return 1
    from hookline.modes.tui.picker import pick_session

    picked = asyncio.run(pick_session(cwd, sessions))
    if picked is None:
        print("No session resumed.")
        return 0
    return picked


def _hooks_command(argv: list[str]) -> int:
    from hookline.authoring.command import main as hooks_main

    return _logged(lambda: hooks_main(argv))


def _claude_hook_command(argv: list[str]) -> int:
    from hookline.bridge.claude_hook import main as claude_hook

    return claude_hook(argv)


#: The subcommands that are programs of their own (``serve`` runs an agent: main takes it);
#: also what "did you mean" offers when the first word is one of them mistyped.
_SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {
    "trust": lambda argv: _logged(lambda: _trust(argv, True)),
    "untrust": lambda argv: _logged(lambda: _trust(argv, False)),
    "settings": _settings,
    "sandbox": lambda argv: _logged(lambda: _sandbox(argv)),
    "hooks": _hooks_command,
    "claude-hook": _claude_hook_command,
}


def _before_dashes(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """The words before ``--``, and those after it (all prompt), None without ``--``."""
    if "--" not in argv:
        return argv, None
    at = argv.index("--")
    return argv[:at], argv[at + 1 :]


def _split_prompt(words: list[str]) -> tuple[list[str], list[str]]:
    """The words argparse left: hook flags, and the prompt.

    A word right after a hook flag ``--name`` (without ``=``) is left to it: a string
    flag takes its value so (``--preset fast``); which flags take one is known only
    once the hooks are loaded.
    """
    flags: list[str] = []
    prompt: list[str] = []
    for i, word in enumerate(words):
        before = words[i - 1] if i else ""
        value = before.startswith("--") and "=" not in before and flags[-1:] == [before]
        (flags if word.startswith("-") or value else prompt).append(word)
    return flags, prompt


def _refuse_mistyped_command(parser: argparse.ArgumentParser, prompt_words: list[str]) -> None:
    """``hookline hoks``: one word like a subcommand is a typo, not a prompt."""
    if len(prompt_words) > 1:
        return
    from hookline._typos import did_you_mean

    word = prompt_words[0]
    guess = did_you_mean(word, (*_SUBCOMMANDS, "serve"))
    if guess:
        parser.error(f"unknown command {word!r}{guess} (a one-word prompt: `hookline -- {word}`)")


def _logged(run: Callable[[], int]) -> int:
    """A subcommand with hookline's log on stderr as plain lines, ``HOOKLINE_LOG``'s level."""
    from hookline._logging import FILE_VARIABLE, LogConfigError, choose_level, configure_logging

    try:
        level = choose_level(os.environ)
        undo = configure_logging(level, rich=False, log_file=os.environ.get(FILE_VARIABLE) or None)
    except LogConfigError as exc:
        print(f"hookline: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return run()
    finally:
        undo()


def _help(parser: argparse.ArgumentParser, argv: list[str]) -> int:
    """``--help``, then the flags hooks register, with their hook (only when hooks may load:
    ``--hook`` given, or a hooks folder exists; otherwise nothing more is imported)."""
    parser.print_help()
    hook_paths = _values(argv, ("--hook", "--extension"))
    cwd = os.path.abspath((_values(argv, ("--cwd",)) or ["."])[-1])
    home = os.environ.get("HOOKLINE_HOME") or os.path.join(os.path.expanduser("~"), ".hookline")
    folders = (os.path.join(cwd, ".hookline"), os.path.join(home, "hooks"))
    if not hook_paths and not any(os.path.isdir(f) for f in folders):
        return 0
    import asyncio

    from hookline.agent.setup import AgentOptions, SetupError, hook_flags_help

    options = AgentOptions(cwd=cwd, hook_paths=hook_paths, trust_project="--trust-project" in argv)
    try:
        lines = asyncio.run(hook_flags_help(options))
    except SetupError as exc:
        print(f"hookline: hook flags not listed: {exc}", file=sys.stderr)
        return 0
    if lines:
        print("\nhook flags:")
        print("\n".join(lines))
    return 0


def _values(argv: list[str], names: tuple[str, ...]) -> list[str]:
    """The values given to ``names`` (``--name VALUE`` or ``--name=VALUE``), in order."""
    out = []
    for i, word in enumerate(argv):
        name, eq, value = word.partition("=")
        if name in names:
            if eq:
                out.append(value)
            elif i + 1 < len(argv):
                out.append(argv[i + 1])
    return out


def _version() -> int:
    """``hookline --version`` alone: print it before building the parser."""
    print(VERSION)
    return 0


def _under(cwd: str, path: str | None) -> str | None:
    """``path`` with ``~`` expanded, relative to ``cwd``."""
    return None if path is None else os.path.join(cwd, os.path.expanduser(path))


def _text_or_file(value: str | None, cwd: str) -> str | None:
    """``--append-system-prompt``: the text of the file it names, else the text itself."""
    if value is None:
        return None
    path = os.path.join(cwd, os.path.expanduser(value))
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as file:
            return file.read()
    return value


def _tool_list(value: str | None) -> list[str] | None:
    """``--tools read,grep``: the names, in order, blanks left out."""
    if value is None:
        return None
    return [name.strip() for name in value.split(",") if name.strip()]


def _observers(agent: object, audit_log: str | None) -> Callable[[], None]:
    """Telemetry and the audit log, when asked for; their modules load only then."""
    if not (
        audit_log or os.environ.get("HOOKLINE_AUDIT_LOG") or os.environ.get("HOOKLINE_TELEMETRY")
    ):
        return lambda: None
    from hookline.telemetry.setup import attach_observers

    log = logging.getLogger("hookline.telemetry")
    return attach_observers(agent, audit_log=audit_log, warn=lambda text: log.warning("%s", text))


def _agent_imports() -> None:
    """What a run imports before building the agent (in a thread while the app is drawn)."""
    import hookline.agent.setup
    import hookline.core.watchdog
    import hookline.modes.print_mode
    import hookline.modes.signals  # noqa: F401


async def _run(
    make_options: Callable[[], object],
    mode: str,
    prompt: str | None,
    interactive: bool,
    audit_log: str | None = None,
    launch: Launch | None = None,
    allow_skip: bool = False,
    rpc_events: str = "pi",
) -> int:
    """One run of the agent in ``mode``; with ``launch`` (the terminal app) the app is
    drawn first and the agent is imported (off the loop: keys are read) and built after.
    ``prompt``: print mode's, or the interactive session's first (``hookline "..."``).
    ``allow_skip``: ``serve --stdio --allow-untrusted-skip``. ``rpc_events``: ``all``
    sends hookline's own event lines in rpc mode too."""
    import asyncio
    import contextlib

    ask_trust = None
    if launch is not None:
        await launch.open()  # invalid settings, the trust question, then the first frame
        ask_trust = launch.ask_trust
        imported = asyncio.ensure_future(asyncio.to_thread(_agent_imports))
        try:
            await launch.settle_settings()  # in the app, when not asked before it
            await imported
        except BaseException:
            await launch.close()
            raise

    from hookline.core.gc_pause import gc_paused

    with gc_paused():  # start-up builds many long-lived objects: no collection passes
        from hookline.agent.setup import AgentOptions, build_agent
    from hookline.core.watchdog import LoopWatchdog
    from hookline.modes.print_mode import StderrUI, run_print
    from hookline.modes.signals import ExitSignals
    from hookline.modes.stdout import claim_stdout

    options = make_options()
    assert isinstance(options, AgentOptions)
    # Machine-read output gets a private stdout before any hook is imported: a hook's
    # print() or a program it spawns writes to stderr, never into the answer or JSON.
    out = None if interactive else claim_stdout()
    try:
        with gc_paused():
            set_aside = launch.set_aside if launch is not None else ()
            bundle = await build_agent(options, ask_trust=ask_trust, set_aside=set_aside)
    except BaseException:
        if launch is not None:
            await launch.close()  # the terminal restored before the error is printed
        raise
    agent = bundle.agent
    stop_observers = _observers(agent, audit_log)
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()

    def stop(signum: int) -> None:
        # Stop the work first: cancelling the mode unwinds the model call and the
        # tools, so nothing is appended once session_shutdown has closed the session.
        agent.abort()
        if main_task is not None:
            main_task.cancel()

    # SIGTERM and SIGINT always end the process: gracefully, else hard after a few
    # seconds (a hook stuck in sync code), a second signal at once.
    signals = ExitSignals(loop, stop)
    signals.install()
    watchdog = LoopWatchdog(agent.runner, loop, agent.runner.timeout or DEFAULT_BLOCKING_REPORT)
    watchdog.start()
    code = 0
    try:
        if mode == "rpc":
            from hookline.modes.rpc.server import run_rpc

            rpc = run_rpc(
                agent, bundle.make_provider, out, bundle.catalog(), all_events=rpc_events == "all"
            )
            code = await _until_shutdown(agent, rpc)
        elif mode == "serve":
            from hookline.bridge._help import say
            from hookline.bridge.engine import share_bridge
            from hookline.bridge.metrics import serving_metrics
            from hookline.bridge.serve import claude_lines
            from hookline.modes.serve_stdio import serve_stdio

            agent.runner.set_ui(StderrUI(), False)
            # Claude Code's lines are answered by the modules the agent loaded: one state.
            metrics = serving_metrics(scraped=False, warn=say)
            bridge = share_bridge(bundle.load_result, agent.runner, allow_skip, metrics)
            claude = claude_lines(bridge, agent.runner.timeout)
            served = serve_stdio(agent, out, claude, bridge.missing(), metrics)
            code = await _until_shutdown(agent, served)
        elif interactive:
            from hookline.modes.interactive import run_interactive

            code = await _until_shutdown(agent, run_interactive(agent, bundle, launch, prompt))
        else:
            agent.runner.set_ui(StderrUI(), False)
            assert prompt is not None
            code = await run_print(
                agent, prompt, json_mode=mode == "json", out=out, make_provider=bundle.make_provider
            )
    except asyncio.CancelledError:
        if signals.received is None or main_task is None:
            raise
        main_task.uncancel()
        code = 128 + signals.received
    finally:
        # The modes shut down when they end normally; this covers a signal or an error.
        reasons = {int(signal.SIGTERM): "sigterm", int(signal.SIGINT): "sigint"}
        await agent.shutdown(reasons.get(signals.received or 0, "quit"))
        if launch is not None:
            await launch.close()
        stop_observers()
        watchdog.stop()
        signals.restore()
    if mode == "text":
        _resume_hint(agent.session, sys.stdout if interactive else sys.stderr)
    if agent.runner.orphans:
        # Hooks abandoned after their deadline still run; asyncio.run would wait for them
        # forever at exit. Flush what was printed and leave without them.
        for stream in (out, sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.flush()
        os._exit(code)
    return code


def _resume_hint(session: SessionManager, stream: TextIO) -> None:
    """On exit, how to come back to this conversation (``/resume`` may have switched it)."""
    if session.is_persistent and session.get_entries():
        print(f"Resume with: hookline --resume {session.get_session_id()}", file=stream)


async def _until_shutdown(agent: Any, mode: Coroutine[Any, Any, int]) -> int:
    """Run ``mode`` until it ends, or until a hook's ``ctx.shutdown()`` has shut the
    session down (then the mode is cancelled and the exit code is 0)."""
    import asyncio

    running = asyncio.ensure_future(mode)
    requested = asyncio.ensure_future(agent.shutdown_requested.wait())
    try:
        await asyncio.wait({running, requested}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:  # a signal: the mode unwinds as if awaited directly
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        raise
    finally:
        requested.cancel()
    if running.done():
        return running.result()
    running.cancel()
    await asyncio.gather(running, return_exceptions=True)
    return 0


#: Seconds of sync hook code holding the loop before it is reported, when hooks have no
#: deadline (``hookTimeout`` off).
DEFAULT_BLOCKING_REPORT = 30.0


if __name__ == "__main__":
    raise SystemExit(main())
