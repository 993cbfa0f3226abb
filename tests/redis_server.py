"""A real ``redis-server`` for the tests: on a free loopback port, in a folder of its own,
with nothing saved to disk unless a test asks for it (``restart`` keeps the data)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest

BINARY = "redis-server"


class RedisServer:
    """One ``redis-server`` process; ``url`` names it while it runs."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = 0
        self._process: subprocess.Popen[str] | None = None
        self._drain = threading.Thread()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, *, persist: bool = False) -> RedisServer:
        """Start on a free port (the same one on a restart); return once it answers PING.

        ``persist`` writes an append-only file, so what was written survives ``restart``."""
        binary = shutil.which(BINARY)
        if binary is None:
            pytest.skip(f"{BINARY} is not installed (`make install` installs it)")
        for _ in range(5):  # a port found free can be taken before the server binds it
            port = self.port or _free_port()
            argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
            argv += ["--appendonly", "yes" if persist else "no", "--dir", str(self.folder)]
            process = subprocess.Popen(
                argv,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                cwd=self.folder,
            )
            assert process.stdout is not None
            for line in process.stdout:  # the log line it prints once it accepts
                if "Ready to accept connections" in line:
                    self.port, self._process = port, process
                    # Its later log lines are read so a full pipe never stops it.
                    self._drain = threading.Thread(target=process.stdout.read, daemon=True)
                    self._drain.start()
                    self._ping()
                    return self
            process.wait()
            if self.port:
                break
        raise RuntimeError(f"{BINARY} did not start in {self.folder}")

    def stop(self) -> None:
        """Stop the server (with ``persist``, after it flushed its file)."""
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=30)
            self._drain.join(timeout=30)  # at the end of its output, once it exited
            assert self._process.stdout is not None
            self._process.stdout.close()
            self._process = None

    def restart(self) -> None:
        self.stop()
        self.start(persist=True)

    def _ping(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as conn:
            conn.sendall(b"PING\r\n")
            assert conn.recv(64) == b"+PONG\r\n"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
