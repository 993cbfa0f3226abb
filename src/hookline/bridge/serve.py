"""``hookline serve``: hook modules loaded once, answering Claude Code and pi.

``--http HOST:PORT`` serves ``hookline.bridge.app`` on uvicorn (the ``serve``
extra), ``--workers N`` processes each loading the hooks: Claude Code's
``http`` hooks POST the hook input and read the reply like a command hook's
stdout, pi's extension POSTs its events to ``/pi``. ``--stdio`` answers JSON
lines (``{"id", "input"}`` → ``{"id", "exit_code", "output", "stderr"}``).
Hooks keep their state between events and no process starts per event.
``hookline serve --stdio`` itself is the CLI's: it answers pi's events too
(``hookline.modes.serve_stdio``) and hands Claude Code lines to
``claude_lines`` over the same loaded hooks (``share_bridge``).

Safety: the HTTP server binds loopback unless ``--allow-remote`` is given
(and then a token is required); with tokens every request must carry one
(``hookline.bridge.guard``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from hookline._extras import install_hint
from hookline.bridge._help import Formatter, positive_int, positive_seconds, say
from hookline.bridge.engine import BridgeHooks
from hookline.bridge.guard import Guard, TokenFileError, is_loopback
from hookline.bridge.mapping import input_failure, unknown_event_answer
from hookline.bridge.service import HookSource, answer_text
from hookline.bridge.worker import AnswerWorker
from hookline.core.runner import DEFAULT_HOOK_TIMEOUT
from hookline.core.store import (
    STORE_ENV,
    UNSHARED,
    StoreConfigError,
    check_setting,
    process_backend,
)
from hookline.modes.rpc.wire import LineTooLong

#: The environment variable a token may come from (keeps it out of ``ps``).
TOKEN_ENV = "HOOKLINE_SERVE_TOKEN"


class ServeError(ValueError):
    """Options ``hookline serve`` refuses; the message says what to do."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        formatter_class=Formatter,
        prog="hookline serve",
        description=(
            "Keep hookline's hook modules loaded and answer Claude Code hook inputs with the "
            "same mapping as `hookline claude-hook`: over HTTP (Claude Code `http` hooks, and "
            "pi's events at /pi; the `serve` extra) or JSON lines on stdin/stdout."
        ),
    )
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="listen for POSTed hook inputs (port 0 picks a free port; the address is printed; "
        f"PORT alone listens on {DEFAULT_HOST}); also GET /healthz, /readyz, /metrics and "
        "POST /pi, /reload",
    )
    how.add_argument(
        "--stdio",
        action="store_true",
        help='JSON lines: {"id": ..., "input": {hook input}} in, '
        '{"id", "exit_code", "output", "stderr"} out; lines with "type" and "data" are '
        "pi's events (integrations/pi/hookline.ts), answered by hookline's agent",
    )
    p.add_argument(
        "--token",
        dest="tokens",
        action="append",
        default=[],
        help="require `Authorization: Bearer TOKEN` (repeatable: any of them is accepted, "
        f"for rotation; default: ${TOKEN_ENV}, comma-separated, when set)",
    )
    p.add_argument(
        "--token-file",
        metavar="PATH",
        help="read the accepted tokens from PATH, one a line, `#` lines skipped (kept out of "
        "`ps` and the env); read again on a reload",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="N worker processes, each with the hooks loaded (default 1); SIGHUP reloads "
        "the hooks in every one",
    )
    p.add_argument(
        "--store",
        metavar="URL",
        help=f"where hooks keep state shared by workers (`memory`, `redis://...`; sets "
        f"${STORE_ENV}); with --workers above 1 and none, ctx.store refuses every call",
    )
    p.add_argument("--ssl-certfile", metavar="PATH", help="serve HTTPS with this certificate")
    p.add_argument("--ssl-keyfile", metavar="PATH", help="the certificate's private key")
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow binding a non-loopback address (a token is then required)",
    )
    p.add_argument(
        "--hook",
        dest="hooks",
        action="append",
        default=[],
        metavar="PATH",
        help="a hook module file or folder (repeatable)",
    )
    p.add_argument(
        "--no-discovery", action="store_true", help="load only --hook paths (see claude-hook)"
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
        default=DEFAULT_HOOK_TIMEOUT,
        metavar="SECONDS",
        help="deny (PreToolUse, PermissionRequest) or answer an error when the hooks have not "
        f"answered an event within SECONDS (default {DEFAULT_HOOK_TIMEOUT:g}); keep it below "
        "the hook's `timeout` in Claude Code's settings",
    )
    return p


#: Where ``--http PORT`` (or ``:PORT``) listens: loopback unless a host is named.
DEFAULT_HOST = "127.0.0.1"


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6), ``:PORT`` or ``PORT`` → ``(host, port)``.

    Without a host it is loopback; ``ServeError`` when the text is not an address.
    """
    host, _, port = text.rpartition(":")
    if not port.isdigit() or int(port) > 65535 or (host.startswith("[") != host.endswith("]")):
        raise ServeError(f"--http {text!r}: expected HOST:PORT or PORT, e.g. 127.0.0.1:8377")
    return host.removeprefix("[").removesuffix("]") or DEFAULT_HOST, int(port)


def check_bind(host: str, has_token: bool, allow_remote: bool) -> None:
    """Refuse a non-loopback bind unless asked for, and then never without a token."""
    if is_loopback(host):
        return
    if not allow_remote:
        raise ServeError(
            f"refusing to listen on {host}: not a loopback address (anyone who reaches it "
            "could steer your hooks); use 127.0.0.1, or pass --allow-remote with a --token"
        )
    if not has_token:
        raise ServeError(f"--allow-remote on {host} needs a token: --token or ${TOKEN_ENV}")


# -- stdio ------------------------------------------------------------------------------


def claude_lines(
    bridge: BridgeHooks, seconds: float | None
) -> Callable[[str | bytes | LineTooLong], Awaitable[dict[str, Any]]]:
    """What answers Claude Code hook-input lines on ``serve --stdio``'s shared stream, each
    within ``seconds`` (``None``: hookline's hook timeout)."""
    return functools.partial(_stdio_reply, _worker(bridge, seconds or DEFAULT_HOOK_TIMEOUT))


def _worker(bridge: BridgeHooks, seconds: float) -> AnswerWorker:
    return AnswerWorker(bridge, seconds, say)


async def _stdio_reply(worker: AnswerWorker, line: str | bytes | LineTooLong) -> dict[str, Any]:
    if isinstance(line, LineTooLong):  # dropped unread: no event to go by
        answer = unknown_event_answer(f"line of {line.size} bytes is too long")
        return {"id": None, "exit_code": 0, "output": dict(answer.output), "stderr": answer.stderr}
    try:
        request = json.loads(line, parse_constant=_refuse_constant)
    except RecursionError:
        request, problem = None, "request is nested too deeply"
    except ValueError as exc:
        request, problem = None, f"request is not JSON: {exc}"
    else:
        problem = "" if isinstance(request, dict) else "request is not a JSON object"
    request_id = request.get("id") if isinstance(request, dict) else None
    if problem:
        answer = input_failure(line, problem)
    else:
        assert isinstance(request, dict)
        payload = request.get("input", request)
        text: str | bytes
        try:
            text = json.dumps(payload)
        except (RecursionError, ValueError):
            text = line  # refused by parse_input below, with the event when it can be told
        answer = await answer_text(worker, text)
    return {
        "id": request_id,
        "exit_code": answer.exit_code,
        "output": dict(answer.output),
        "stderr": answer.stderr,
    }


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# -- command ----------------------------------------------------------------------------


def main(argv: Sequence[str]) -> int:
    """``hookline serve --http`` (and ``--help``); ``--stdio`` is run by the CLI, whose agent
    answers pi's events and hands Claude Code's lines to ``claude_lines``."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.http:
        parser.error("--stdio is run by `hookline serve --stdio`")
    try:
        address = parse_address(args.http)
        guard = Guard(_given_tokens(args), not is_loopback(address[0]), args.token_file)
        check_bind(address[0], guard.has_tokens, args.allow_remote)
        if args.ssl_keyfile and not args.ssl_certfile:
            raise ServeError("--ssl-keyfile needs --ssl-certfile")
        _needs_uvicorn()
        if args.store:
            os.environ[STORE_ENV] = args.store  # read where hooks' state lives, in every worker
        elif args.workers > 1 and not os.environ.get(STORE_ENV, "").strip():
            os.environ[STORE_ENV] = UNSHARED  # a count split between workers would be wrong
        process_backend()  # HOOKLINE_STORE names a backend hooks' ctx.store can use
    except (ServeError, TokenFileError, StoreConfigError) as exc:
        say(f"error: {exc}")
        return 2
    return _serve_http(args, address, guard)


def _needs_uvicorn() -> None:
    try:
        import uvicorn  # noqa: F401
    except ImportError:
        raise ServeError(
            "--http needs the serve extra (uvicorn): " + install_hint("serve")
        ) from None


def _given_tokens(args: argparse.Namespace) -> list[str]:
    """``--token``s; without them or a ``--token-file``, ``$HOOKLINE_SERVE_TOKEN``'s."""
    tokens = args.tokens or ([] if args.token_file else os.environ.get(TOKEN_ENV, "").split(","))
    return [token.strip() for token in tokens if token.strip()]


def _serve_http(args: argparse.Namespace, address: tuple[str, int], guard: Guard) -> int:
    from hookline.bridge.app import HookApp
    from hookline.bridge.metrics import shared_metrics_dir
    from hookline.bridge.supervisor import Tls, listen, run

    cwd = os.getcwd()
    source = HookSource(
        tuple(args.hooks),
        cwd=cwd,
        project_dir=os.environ.get("CLAUDE_PROJECT_DIR") or cwd,
        discover=not args.no_discovery,
        trust_project=args.trust_project,
        allow_skip=args.allow_untrusted_skip,
        timeout=args.timeout,
    )
    app = HookApp(source, guard)
    try:
        sock = listen(*address)
    except OSError as exc:
        say(f"error: cannot listen on {args.http}: {exc}")
        return 1
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    scheme = "https" if args.ssl_certfile else "http"
    say(f"listening on {scheme}://{shown}:{port}")
    store = check_setting(os.environ.get(STORE_ENV, "").strip())
    if args.workers > 1 and store != "redis":
        kept = (
            "each worker keeps its own ctx.store (a count a hook keeps is split between them)"
            if store == "memory"
            else "ctx.store refuses every call (a hook using it blocks its tool call)"
        )
        say(
            f"warning: with --workers {args.workers} and no shared store, "
            f"{kept}: pass --store redis://HOST:6379/0 to share it"
        )
    tls = Tls(args.ssl_certfile, args.ssl_keyfile) if args.ssl_certfile else None
    # Several workers count into files one scrape sums (Prometheus' multiprocess mode).
    shared = shared_metrics_dir() if args.workers > 1 else contextlib.nullcontext()
    try:
        with shared:
            run(app, sock, args.workers, tls)
    except KeyboardInterrupt:
        return 130
    return 0
