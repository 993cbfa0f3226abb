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
from uvicorn.supervisors.multiprocess import Multiprocess

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
    """uvicorn's worker supervisor, with ``SIGHUP`` a reload in each worker."""

    def handle_hup(self) -> None:
        for process in self.processes:
            if process.pid is not None:
                os.kill(process.pid, signal.SIGHUP)


def _protocol() -> type[asyncio.Protocol] | str:
    """httptools with its head bounded, or h11 (which bounds it) where httptools is not
    installed."""
    try:
        from hookline.bridge.head_limit import BoundedHead
    except ImportError:
        return "h11"
    return BoundedHead
