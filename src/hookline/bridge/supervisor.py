"""Run ``HookApp`` on uvicorn (uvloop and httptools when installed): one process, or
several worker processes sharing one listening socket.

The socket is bound and listening before any worker has loaded its hooks, so a
request that comes early waits in the backlog instead of being refused. Each
worker loads the hooks itself and reloads them on ``SIGHUP``; with several
workers the supervisor forwards its ``SIGHUP`` to each (uvicorn's own would
restart the processes, and a reload that fails must keep the loaded hooks).
``SIGTERM`` stops accepting and lets the decisions in flight finish.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from dataclasses import dataclass

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from hookline.bridge._help import say
from hookline.bridge.app import HookApp


@dataclass(frozen=True, slots=True)
class Tls:
    """uvicorn's TLS options, passed through."""

    certfile: str
    keyfile: str | None = None


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one), inherited by workers."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family, backlog=2048)
    sock.set_inheritable(True)
    return sock


def run(app: HookApp, sock: socket.socket, workers: int, tls: Tls | None) -> None:
    """Serve ``app`` on ``sock`` until ``SIGTERM`` or ``SIGINT``."""
    config = uvicorn.Config(
        app,
        http=_protocol(),
        ws="none",
        workers=workers,
        lifespan="on",
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        server_header=False,
        ssl_certfile=tls.certfile if tls else None,
        ssl_keyfile=tls.keyfile if tls else None,
    )
    if workers > 1:
        _Supervisor(config, [sock]).run()
    else:
        uvicorn.Server(config).run([sock])


class _Supervisor(Multiprocess):
    """uvicorn's worker supervisor, with ``SIGHUP`` a reload in each worker, and a worker
    that dies replaced whatever its exit code.

    uvicorn stops every worker when one exits with its start-up failure code (3), which
    a worker that was serving can exit with too (a hook's ``os._exit(3)``, a C
    library's ``exit(3)``): one crash would take the whole service down. Here a worker
    that exits 3 before it was seen started is replaced once, and only its replacement
    failing the same way stops the service (a broken app fails at every start).
    """

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]) -> None:
        super().__init__(config, sockets)
        self._served: set[int | None] = set()  # the pids of workers seen started
        self._failed_start: set[int] = set()  # the slots whose last worker failed to start

    def handle_hup(self) -> None:
        for process in self.processes:
            if process.pid is not None:
                os.kill(process.pid, signal.SIGHUP)

    def keep_subprocess_alive(self) -> None:
        """uvicorn's own, with the start-up failure code read as said above."""
        if self.should_exit.is_set():
            return
        timeout = self.config.timeout_worker_healthcheck
        for idx, process in enumerate(self.processes):
            pid = process.pid
            if pid in self._served:
                if process.is_alive(timeout=timeout):
                    continue
            elif process.is_ready(timeout=timeout):
                self._served.add(pid)
                self._failed_start.discard(idx)
                continue
            elif process.is_alive(timeout=timeout):
                continue  # still loading its hooks
            process.kill()  # dead, or hung: kill it
            process.join()
            if pid not in self._served and process.exitcode == STARTUP_FAILURE:
                if idx in self._failed_start:
                    say(f"worker {pid} failed to start again; stopping")
                    self.should_exit.set()
                    return
                self._failed_start.add(idx)
            if self.should_exit.is_set():
                return
            self._served.discard(pid)
            say(f"worker {pid} died (exit code {process.exitcode}); starting another")
            replacement = Process(self.config, self.sockets)
            replacement.start()
            self.processes[idx] = replacement


def _protocol() -> type[asyncio.Protocol] | str:
    """httptools with its head bounded, or h11 (which bounds it) where httptools is not
    installed."""
    try:
        from hookline.bridge.head_limit import BoundedHead
    except ImportError:
        return "h11"
    return BoundedHead
