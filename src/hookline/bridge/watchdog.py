"""One answer within a deadline, made in a forked child: a stuck hook cannot withhold it.

Claude Code runs the tool when a command hook answers nothing, so ``claude-hook``
forks first thing, while its heap is small (the child copies less of it). The
child reads the input, says which event it is, loads and runs the hook modules
and sends its answer through a pipe; the parent waits on that pipe with a
deadline and, when the deadline passes first, kills the child (and its process
group: the programs a hook started) and answers for the event itself. Nothing
in the stuck process has to cooperate: a ``while True``, a ``time.sleep``, a
regular expression holding the GIL or a handler that swallows every exception
are all stopped the same way.

The parent writes the answer and leaves with ``leave``, skipping the
interpreter's teardown: no hook ran in it, and deallocating the heap it shared
with the child would write to nearly every page of it again (≈ 3 ms of CPU of
the 8.5 the watchdog cost; see docs/performance.md).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn

#: What a command hook answers: exit code, stdout, stderr.
Reply = tuple[int, str, str]

#: Called by the work with the input's event name, once it is known.
Tell = Callable[[str], None]

#: ``(why, event, timed_out)``: the answer when the child gave none (``event``: what it
#: told, else ``None``; ``timed_out``: the deadline passed, rather than the child ending).
Failed = Callable[[str, str | None, bool], Reply]

#: Seconds the hooks have to answer one event: hookline's hook timeout
#: (``core.runner.DEFAULT_HOOK_TIMEOUT``, a test keeps them equal; imported here it
#: would load the runner before the fork), well below Claude Code's own (600 s).
DEFAULT_DEADLINE = 30.0
#: Seconds the child has to exit once it has answered before it is killed.
EXIT_GRACE = 1.0
#: Whether the work runs in a child; without ``os.fork`` (Windows) it runs in this process.
FORKS = hasattr(os, "fork")


def reply_within(seconds: float, work: Callable[[Tell], Reply], failed: Failed) -> Reply:
    """``work(tell)`` run in a child process; ``failed(why, event, timed_out)`` when no
    answer came in ``seconds`` or the child ended without one.

    Where ``os.fork`` does not exist (``FORKS`` is false), ``work`` runs here, without a
    deadline.
    """
    if not FORKS:
        return work(lambda event: None)
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    # What exists now is never collected: a collection in the child would write to every
    # object's header and copy the pages it shares with this process (≈ 3 ms).
    gc.freeze()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; its effect is tested through the parent
        os.close(read_end)
        _child(write_end, work)
    os.close(write_end)
    with contextlib.suppress(OSError):  # also here: the child may not have run yet
        os.setpgid(pid, pid)
    heard = _Heard()
    before = _end_with(pid)
    try:
        _wait(read_end, time.monotonic() + seconds, heard)
    finally:
        os.close(read_end)
        status = _end(pid, group=heard.reply is None)
        for signum, handler in before.items():
            signal.signal(signum, handler)
    if heard.reply is not None:
        return heard.reply
    if heard.ended:
        why = f"the hooks' process ended without an answer ({status})"
        return failed(why, heard.event, False)
    why = f"the hook modules gave no answer within {seconds:g} s (--timeout)"
    return failed(why, heard.event, True)


def leave(code: int) -> NoReturn:
    """End this process with ``code`` once its answer is written, without tearing the
    interpreter down: for the parent of ``reply_within``, where no hook ran (a process
    whose hooks ran here must exit normally, for their exit handlers)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed stream: nothing more to say
            stream.flush()
    os._exit(code)


class _Heard:
    """What the child said so far: its event, its reply, whether it closed the pipe."""

    def __init__(self) -> None:
        self.event: str | None = None
        self.reply: Reply | None = None
        self.ended = False

    def line(self, data: bytes) -> None:
        try:
            message = json.loads(data)
            if "event" in message:
                self.event = str(message["event"])
            elif "reply" in message:
                code, stdout, stderr = message["reply"]
                self.reply = int(code), str(stdout), str(stderr)
        except (ValueError, TypeError, AttributeError):
            pass  # not the child's (a hook wrote to the pipe?): it gave no answer


def _send(write_end: int, message: dict[str, Any]) -> None:
    data = (json.dumps(message) + "\n").encode("utf-8", "surrogatepass")
    while data:
        data = data[os.write(write_end, data) :]


def _child(write_end: int, work: Callable[[Tell], Reply]) -> None:
    """Make the answer, send it, leave: no exit handler of a hook runs (or hangs) here."""
    os.setpgid(0, 0)  # the parent can end the programs hooks start with the child
    code = 70
    try:
        reply = work(lambda event: _send(write_end, {"event": event}))
        _send(write_end, {"reply": list(reply)})
        code = 0
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed stream: nothing more to say
                stream.flush()
        os._exit(code)


def _wait(read_end: int, deadline: float, heard: _Heard) -> None:
    """Read the child's lines into ``heard`` until it exits (or ``EXIT_GRACE`` after it
    answered), the pipe closes or ``deadline`` passes."""
    data = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        ready, _, _ = select.select([read_end], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_end, 65536)
        if not chunk:
            heard.ended = heard.reply is None
            return
        data += chunk
        *lines, data = data.split(b"\n")
        for line in lines:
            heard.line(line)
        if heard.reply is not None:
            deadline = min(deadline, time.monotonic() + EXIT_GRACE)


#: Signals that end this process while it waits (Claude Code cancelling the hook).
_ENDING = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def _end_with(pid: int) -> dict[int, Any]:
    """Until restored, a signal that ends this process ends the child's group first: a
    hook stuck in a loop must not outlive the command Claude Code stopped."""

    def ending(signum: int, frame: object) -> None:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
        os._exit(128 + signum)

    return {signum: signal.signal(signum, ending) for signum in _ENDING}


def _end(pid: int, group: bool) -> str:
    """Kill the child (with its process group when it gave no answer: what it started
    serves no one) and reap it. After an answer, programs a hook started live on."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if group:
            os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return "not found"
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
