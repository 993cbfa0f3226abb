"""Running one command under bubblewrap: the argv, environment and descriptors of a call.

Every call gets ``--ro-bind / /``, a fresh ``/dev`` and ``/proc``, a private
``/dev/shm``, new user, PID, network and IPC namespaces, every capability dropped,
``--die-with-parent`` and ``--new-session`` (no ``TIOCSTI`` into the terminal),
then the layers of ``mounts.py``. ``TMPDIR`` is a folder of the session's own
(mode 700, created outside, removed by :meth:`Sandbox.close`).

The network: with no proxy the sandbox has none at all (an empty namespace). With a
``NetworkProxy`` (``hookline.sandbox.network``) each call opens a channel, the command
runs under the in-sandbox forwarder, and the connections the proxy refused come back
in :attr:`Launch.refused`. The seccomp filter (``hookline.sandbox.seccomp``) goes to
bubblewrap's ``--seccomp``: Unix sockets are refused to every process inside.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hookline.sandbox import network, seccomp
from hookline.sandbox.config import SandboxConfig
from hookline.sandbox.mounts import MountPlan, Planner
from hookline.sandbox.placeholders import placeholders
from hookline.sandbox.policy import SandboxPolicy
from hookline.sandbox.shared_net import SharedNetwork

if TYPE_CHECKING:
    from hookline.sandbox.network import NetworkProxy

_log = logging.getLogger("hookline.sandbox")

_NAMESPACES = (
    "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
    "--die-with-parent", "--new-session", "--cap-drop", "ALL",
)  # fmt: skip


@dataclass(slots=True)
class Launch:
    """How to start one sandboxed command (give ``argv``, ``env`` and ``pass_fds`` to the
    process runner, call :meth:`spawned` once it started)."""

    argv: list[str]
    env: dict[str, str]
    pass_fds: tuple[int, ...] = ()
    #: the proxy's refusals during this call (``NetworkDecision``), filled when it ended
    refused: list[Any] = field(default_factory=list)
    #: files the call created where none may be (removed again), filled when it ended
    undone: list[WriteRefused] = field(default_factory=list)
    _after_spawn: list[Callable[[], None]] = field(default_factory=list)

    def spawned(self, pid: int | None = None) -> None:
        """The child started: the parent's copies of the passed descriptors are closed."""
        callbacks, self._after_spawn = self._after_spawn, []
        for callback in callbacks:
            callback()


@dataclass(frozen=True, slots=True)
class WriteRefused:
    """A write the kernel refused inside the sandbox, as the command reported it (the
    ``Read-only file system`` line): for the audit log and OpenTelemetry."""

    reason: str
    kind: str = "filesystem"
    host: None = None
    port: None = None


#: How a refused write shows in a command's output (EROFS: only the sandbox's read-only
#: layers give it to a write inside the working directories).
_REFUSED_WRITE = "Read-only file system"


def violation_fields(refusal: Any) -> dict[str, Any]:
    """A refusal as data, the one shape the tool result, the event stream, the audit log
    and OpenTelemetry share: a ``NetworkDecision`` or a ``WriteRefused``."""
    return {
        "kind": getattr(refusal, "kind", "network"),
        "host": getattr(refusal, "host", None),
        "port": getattr(refusal, "port", None),
        "reason": getattr(refusal, "reason", None),
    }


def _undo(forbidden: list[str]) -> list[WriteRefused]:
    """Remove what a call created at ``forbidden`` paths (they did not exist before it)."""
    undone = []
    for path in forbidden:
        if not os.path.lexists(path):
            continue
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
            what = "removed"
        except OSError as exc:
            what = f"could not be removed: {exc.strerror or exc}"
        undone.append(WriteRefused(f"{path}: created by the command, {what} (git reads it)"))
    return undone


def refused_writes(output: str, limit: int = 20) -> list[WriteRefused]:
    """The lines of ``output`` that report a write the sandbox refused (at most ``limit``)."""
    lines = [line.strip() for line in output.splitlines() if _REFUSED_WRITE in line]
    return [WriteRefused(line[:300]) for line in dict.fromkeys(lines)][:limit]


class Sandbox:
    """One session's sandbox: its configuration, private folder, proxy and mount planner."""

    def __init__(
        self,
        config: SandboxConfig,
        *,
        bwrap: str,
        proxy: NetworkProxy | None = None,
        on_violation: Callable[[Any], None] | None = None,
        disable_userns: bool = False,
    ) -> None:
        self.config = config
        self.bwrap = bwrap
        #: ``--disable-userns`` (bubblewrap 0.8+): no nested user namespace inside
        self.disable_userns = disable_userns
        self.proxy = proxy
        self.on_violation = on_violation
        #: one network namespace for every call, when the machine allows it
        self.shared = SharedNetwork.find(bwrap, proxy) if proxy is not None else None
        self._running = 0  # calls in the shared namespace now
        self.planner = Planner(config)
        #: which calls run here (the sandbox exists, so it is active)
        self.policy = SandboxPolicy(config, active=True)
        self._home: str | None = None
        self._said: set[str] = set()

    # -- the session's private folder ------------------------------------------------

    @property
    def home(self) -> str:
        """The session's private folder: ``tmp`` (the TMPDIR), and the empty stand-ins."""
        if self._home is None:
            home = tempfile.mkdtemp(prefix=f"hookline-sandbox-{os.getuid()}-")
            os.mkdir(os.path.join(home, "tmp"), 0o700)
            os.mkdir(os.path.join(home, "empty"), 0o555)
            os.close(os.open(os.path.join(home, "unreadable"), os.O_CREAT | os.O_WRONLY, 0))
            os.chmod(os.path.join(home, "unreadable"), 0)
            self._home = home
        return self._home

    @property
    def tmpdir(self) -> str:
        return os.path.join(self.home, "tmp")

    async def aclose(self) -> None:
        """End the session's network (forwarder and proxy), then :meth:`close`."""
        if self.shared is not None:
            await self.shared.aclose()
        if self.proxy is not None:
            await self.proxy.aclose()
        self.close()

    def report(self, violations: list[WriteRefused]) -> None:
        """Say what the kernel refused during a call (the audit log, OpenTelemetry)."""
        if self.on_violation is not None:
            for violation in violations:
                self.on_violation(violation)

    def close(self) -> None:
        """Remove the private folder and the idle stand-ins, stop watching (idempotent)."""
        placeholders.sweep()
        self.planner.tree.close()
        if self.shared is not None:
            self.shared.close()
        home, self._home = self._home, None
        if home is not None:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(home, "empty"), 0o700)
            shutil.rmtree(home, ignore_errors=True)

    # -- one call ----------------------------------------------------------------------

    def plan(self) -> MountPlan:
        return self.planner.plan(self.tmpdir)

    @contextlib.asynccontextmanager
    async def launch(
        self, argv: Sequence[str], *, cwd: str, env: Mapping[str, str]
    ) -> AsyncIterator[Launch]:
        """The sandboxed form of ``argv``; stand-ins are held and the proxy channel open
        until the block ends."""
        plan = self.plan()
        for note in plan.notes:
            if note not in self._said:  # once per session
                self._said.add(note)
                _log.warning("sandbox: %s; paths beyond it are not protected", note)
        shared = self.shared if self.shared is not None and await self.shared.start() else None
        with placeholders.held(plan.missing) as made:
            launch = Launch([], {**env, "TMPDIR": self.tmpdir})
            channel = None
            mark = 0
            try:
                inner = list(argv)
                prefix: list[str] = []
                fds: list[int] = []
                if shared is not None and shared.channel is not None:
                    prefix = shared.enter_argv()
                    mark = len(shared.channel.refused)
                    if not self._running:
                        shared.channel.forget_answers()
                    self._running += 1
                    launch.env.update(network.proxy_env())
                elif self.proxy is not None:
                    channel = self.proxy.open_channel()
                    launch._after_spawn.append(channel.spawned)
                    inner = network.inside_argv(sys.executable, channel.inside_fd, inner)
                    launch.env.update(network.proxy_env())
                    fds.append(channel.inside_fd)
                args = self.arguments(plan, set(made), cwd, own_network=shared is None)
                if shared is not None:
                    args += shared.identity_args()
                seccomp_fd = _seccomp_fd()
                launch._after_spawn.append(lambda: _close(seccomp_fd))
                args += ["--seccomp", str(seccomp_fd)]
                fds.append(seccomp_fd)
                launch.argv = [*prefix, self.bwrap, *args, "--", *inner]
                launch.pass_fds = tuple(fds)
                yield launch
            finally:
                launch.spawned()  # a spawn that failed (or never came) closes them too
                if shared is not None and shared.channel is not None:
                    self._running -= 1
                    launch.refused = shared.channel.refused[mark:]
                elif channel is not None:
                    await channel.aclose()
                    launch.refused = list(channel.refused)
                for decision in launch.refused:
                    if self.on_violation is not None:
                        self.on_violation(decision)
                launch.undone = _undo(plan.forbidden)

    def arguments(
        self, plan: MountPlan, made: set[str], cwd: str, *, own_network: bool = True
    ) -> list[str]:
        """bubblewrap's options for ``plan`` (stand-ins only where one was ``made``);
        without ``own_network`` the call stays in the network namespace it was started in
        (the session's shared one)."""
        empty = os.path.join(self.home, "empty")
        unreadable = os.path.join(self.home, "unreadable")
        args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        spaces = [a for a in _NAMESPACES if own_network or a != "--unshare-net"]
        args += ["--tmpfs", "/dev/shm", *spaces]
        if self.disable_userns:
            args.append("--disable-userns")
        for path in plan.writable:
            args += ["--bind", path, path]
        layers: list[tuple[int, int, list[str]]] = []
        for path in plan.anchors:
            layers.append((_depth(path), 0, ["--bind", path, path]))
        for path in plan.readonly:
            layers.append((_depth(path), 1, ["--ro-bind", path, path]))
        for path, is_dir in plan.missing:
            if path in made:
                source = empty if is_dir else unreadable
                layers.append((_depth(path), 1, ["--ro-bind", source, path]))
            elif os.path.lexists(path):  # created meanwhile by someone else: protect it
                layers.append((_depth(path), 1, ["--ro-bind", path, path]))
        for path in plan.hidden_files:
            layers.append((_depth(path), 2, ["--ro-bind", unreadable, path]))
        for path in plan.hidden_dirs:
            inside = [r for r in plan.reread if r.startswith(path.rstrip("/") + "/")]
            if not inside:
                layers.append((_depth(path), 2, ["--ro-bind", empty, path]))
                continue
            ops = ["--tmpfs", path]
            for again in inside:
                ops += ["--ro-bind", again, again]
            layers.append((_depth(path), 2, [*ops, "--remount-ro", path]))
        hidden = [h.rstrip("/") + "/" for h in plan.hidden_dirs]
        for _, _, ops in sorted(layers, key=lambda layer: (layer[0], layer[1])):
            target = ops[-1]
            if any(target.startswith(h) for h in hidden):
                continue  # inside a hidden folder: hidden already
            args += ops
        args += ["--chdir", cwd]
        return args


def _depth(path: str) -> int:
    return path.rstrip("/").count("/")


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


def _seccomp_fd() -> int:
    """A pipe holding the Unix-socket filter for ``--seccomp``."""
    program = seccomp.unix_socket_filter()
    read, write = os.pipe()
    try:
        os.write(write, program)  # a few hundred bytes: fits the pipe's buffer
    finally:
        os.close(write)
    return read
