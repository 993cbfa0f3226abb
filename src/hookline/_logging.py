"""hookline's diagnostics through stdlib ``logging``: what is shown, where, and how.

hookline logs under the ``hookline`` hierarchy (``hookline.agent``,
``hookline.claude``, ``hookline.mcp`` ...); hook modules log with
``logging.getLogger(__name__)`` and their lines name the hook's file. The
level comes from ``-q`` / ``--verbose`` / ``HOOKLINE_LOG``; hookline's and the
hooks' loggers follow it, other libraries show warnings and worse only.

Records go to whatever ``sys.stderr`` is when they are emitted, never to
stdout (in JSON and RPC modes stdout is the protocol): plain lines, or rich's
handler when the real stderr is a terminal. rich is imported only when a
record is actually shown on a terminal, so a quiet run never pays for it.
This module imports nothing of hookline: every layer may use it.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Mapping

#: ``HOOKLINE_LOG`` values, lowest first.
LEVELS: dict[str, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
LEVEL_VARIABLE = "HOOKLINE_LOG"
FILE_VARIABLE = "HOOKLINE_LOG_FILE"
#: hookline's own loggers live under this name.
ROOT = "hookline"


class LogConfigError(ValueError):
    """A bad ``HOOKLINE_LOG`` value or an unusable ``HOOKLINE_LOG_FILE``; says what to set."""


def choose_level(environ: Mapping[str, str], *, quiet: bool = False, verbose: bool = False) -> int:
    """``-q`` (errors only) > ``--verbose`` (debug) > ``HOOKLINE_LOG`` > warning.

    A bad ``HOOKLINE_LOG`` is an error even when a flag overrides it: a typo
    should not pass unnoticed until the flag is dropped.
    """
    raw = environ.get(LEVEL_VARIABLE, "").strip()
    level = logging.WARNING
    if raw:
        try:
            level = LEVELS[raw.lower()]
        except KeyError:
            valid = ", ".join(LEVELS)
            raise LogConfigError(
                f"{LEVEL_VARIABLE}={raw!r} is not a log level; use one of: {valid}"
            ) from None
    if quiet:
        return logging.ERROR
    if verbose:
        return logging.DEBUG
    return level


def configure_logging(
    level: int, *, rich: bool = True, log_file: str | None = None
) -> Callable[[], None]:
    """Show records at ``level`` on stderr (and in ``log_file``); returns the undo.

    ``rich=False`` keeps plain lines even on a terminal (JSON and RPC modes:
    a program reads that stderr too). Raises ``LogConfigError`` when the log
    file cannot be opened.
    """
    handlers: list[logging.Handler] = [_StderrHandler(rich=rich)]
    if log_file:
        try:
            file_handler = logging.FileHandler(log_file, encoding="utf-8")
        except OSError as exc:
            raise LogConfigError(
                f"{FILE_VARIABLE}={log_file}: cannot open it: {exc.strerror or exc} "
                "(point it at a writable file, or unset it)"
            ) from None
        file_handler.setFormatter(_FileFormatter())
        handlers.append(file_handler)
    root = logging.getLogger()
    previous = root.level
    for handler in handlers:
        handler.addFilter(_Scope(level))
        root.addHandler(handler)
    root.setLevel(level)

    def undo() -> None:
        for handler in handlers:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(previous)

    return undo


def source(name: str) -> str | None:
    """Who logged: ``None`` for hookline itself, ``hook FILE`` for a hook module's logger
    (or a child of it), else the logger's name."""
    if name == ROOT or name.startswith(ROOT + "."):
        return None
    top = name.partition(".")[0]
    # Hook modules exist only once the loader has run, so its absence means "not a hook".
    loader = sys.modules.get("hookline.discovery.loader")
    prefix = getattr(loader, "MODULE_PREFIX", None)
    if isinstance(prefix, str) and top.startswith(prefix):
        path = getattr(sys.modules.get(top), "__file__", None)
        return f"hook {path or top}"
    return name


def _followed(name: str) -> bool:
    """hookline's loggers and hook modules' follow the chosen level; others stay at warning."""
    found = source(name)
    return found is None or found.startswith("hook ")


class _Scope(logging.Filter):
    """Passes records at the level, other libraries' only from warning on."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        floor = self.level if _followed(record.name) else max(self.level, logging.WARNING)
        return record.levelno >= floor


class _PlainFormatter(logging.Formatter):
    """``hookline: text`` for hookline's notices (the lines users and scripts know),
    ``hookline: debug: ...`` / ``error:`` for the other levels, and the source for
    anyone else's: ``hookline: hook /path/guard.py: warning: text``."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        who = source(record.name)
        level = record.levelname.lower()
        if who is not None:
            return f"hookline: {who}: {level}: {record.message}"
        if record.levelno in (logging.INFO, logging.WARNING):
            return f"hookline: {record.message}"
        return f"hookline: {level}: {record.message}"


class _RichFormatter(logging.Formatter):
    """The message and its source; rich's handler adds the level column."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        who = source(record.name)
        return record.message if who is None else f"{who}: {record.message}"


class _FileFormatter(logging.Formatter):
    """A log file keeps the time, the level and the logger (a hook's as its file)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        who = source(record.name)
        name = who if who is not None and who.startswith("hook ") else record.name
        return f"{self.formatTime(record)} {record.levelname} {name}: {record.message}"


class _StderrHandler(logging.Handler):
    """Writes to the current ``sys.stderr`` (the terminal app swaps it while it runs).

    On a terminal (the real stderr, not a stand-in) records go through rich's
    handler, built on first use; anywhere else they are plain lines.
    """

    def __init__(self, rich: bool) -> None:
        super().__init__()
        self.setFormatter(_PlainFormatter())
        self._rich_allowed = rich
        self._rich: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:
        stream = sys.stderr
        if stream is None:  # pythonw, or stderr closed: nowhere to say it
            return
        if self._rich_allowed and stream is sys.__stderr__ and _isatty(stream):
            self._rich_handler().emit(record)
            return
        try:
            stream.write(self.format(record) + "\n")
            stream.flush()
        except Exception:
            self.handleError(record)

    def _rich_handler(self) -> logging.Handler:
        if self._rich is None:
            from rich.console import Console
            from rich.logging import RichHandler

            self._rich = RichHandler(
                console=Console(stderr=True),
                show_time=False,
                show_path=False,
                markup=False,  # a message's [brackets] are text, never styles
                rich_tracebacks=False,
            )
            self._rich.setFormatter(_RichFormatter())
        return self._rich

    def close(self) -> None:
        if self._rich is not None:
            self._rich.close()
        super().close()


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False
