"""Judging an attack line by its effect: what changed on disk, and who was reached.

Shared by the attack sets (tests/shell, tests/agent): each runs the lines a rule lets
through for real and compares the world before and after, never the message.
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
from pathlib import Path


class ConnectionCounter:
    """A loopback TCP server that counts the connections it accepts."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port: int = self.sock.getsockname()[1]
        self.hits = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.hits += 1
            conn.close()


def file_state(path: str) -> tuple[object, ...]:
    """A path's mode, size, mtime and (for a regular file) the hash of its content."""
    st = os.lstat(path)
    data = ""
    if os.path.isfile(path) and not os.path.islink(path):
        data = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return (st.st_mode, st.st_size, st.st_mtime_ns, data)


def digest(root: Path) -> dict[str, tuple[object, ...]]:
    """Every path under ``root`` with its ``file_state``."""
    return {
        os.path.join(folder, name): file_state(os.path.join(folder, name))
        for folder, dirs, files in os.walk(root)
        for name in dirs + files
    }
