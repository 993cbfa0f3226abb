"""One answer within a deadline, made in a forked child: a stuck hook cannot withhold it.

Claude Code runs the tool when a command hook answers nothing, so ``claude-hook``
forks before it loads the hook modules. The child loads and runs them and sends
its answer through a pipe; the parent waits on that pipe with a deadline and,
when the deadline passes first, kills the child (and its process group: the
programs a hook started) and answers for it. Nothing in the stuck process has to
cooperate: a ``while True``, a ``time.sleep``, a regular expression holding the
GIL or a handler that swallows every exception are all stopped the same way.
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
from typing import Any

#: What a command hook answers: exit code, stdout, stderr.
Reply = tuple[int, str, str]

#: Seconds the child has to exit once it has answered before it is killed.
EXIT_GRACE = 1.0


def reply_within(
    seconds: float, work: Callable[[], Reply], failed: Callable[[str], Reply]
) -> Reply:
    """``work()`` run in a child process; ``failed(why)`` when no answer came in ``seconds``
    or the child ended without one.

    Where ``os.fork`` does not exist, ``work()`` runs here, without a deadline.
    """
    if not hasattr(os, "fork"):
        return work()
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
    reply: Reply | str = "no answer"
    before = _end_with(pid)
    try:
        reply = _wait(read_end, time.monotonic() + seconds)
    finally:
        os.close(read_end)
        status = _end(pid, group=isinstance(reply, str))
        for signum, handler in before.items():
            signal.signal(signum, handler)
    if isinstance(reply, str):
        if reply == "ended":
            return failed(f"the hooks' process ended without an answer ({status})")
        return failed(f"the hook modules gave no answer within {seconds:g} s (--timeout)")
    return reply


def _child(write_end: int, work: Callable[[], Reply]) -> None:
    """Make the answer, send it, leave: no exit handler of a hook runs (or hangs) here."""
    os.setpgid(0, 0)  # the parent can end the programs hooks start with the child
    code = 70
    try:
        reply = work()
        data = (json.dumps(list(reply)) + "\n").encode("utf-8", "surrogatepass")
        while data:
            data = data[os.write(write_end, data) :]
        code = 0
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed stream: nothing more to say
                stream.flush()
        os._exit(code)


def _wait(read_end: int, deadline: float) -> Reply | str:
    """The child's answer once it has exited (or ``EXIT_GRACE`` after it answered);
    ``"late"`` when the deadline passed first, ``"ended"`` when it ended without one."""
    data = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            if not data.endswith(b"\n"):
                return "late"
            break
        ready, _, _ = select.select([read_end], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        data += chunk
        if data.endswith(b"\n"):
            deadline = min(deadline, time.monotonic() + EXIT_GRACE)
    try:
        code, stdout, stderr = json.loads(data)
    except ValueError:
        return "ended"
    return int(code), str(stdout), str(stderr)


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
