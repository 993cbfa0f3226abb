"""Pluggable operations: where ``read``, ``write``, ``edit``, ``bash`` and ``ls`` do their I/O.

A built-in tool made with ``operations=`` keeps its parameters, limits, truncation,
messages and details, and sends only the I/O to the object given: a hook can run
the tools on another machine (over ``ssh``), in a container or against an
in-memory tree (pi's ``ReadOperations`` ... ``BashOperations``). Paths passed
are absolute, resolved against the tool's ``cwd`` as the local tools resolve
them; map them to the other side inside the operations. Without ``operations``
the tools use the local file system and shell, with their local safeguards
(regular files only, the sandbox).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import asyncio


class ReadOperations(Protocol):
    """``read``'s I/O. Images are recognised from the bytes ``read_file`` returns."""

    async def read_file(self, path: str) -> bytes:
        """The whole file; raise ``OSError`` (or any error) when it cannot be read."""
        ...

    async def access(self, path: str) -> None:
        """Raise when ``path`` is not a readable file."""
        ...


class WriteOperations(Protocol):
    """``write``'s I/O."""

    async def write_file(self, path: str, content: str) -> None:
        """Create or overwrite ``path`` with ``content`` (UTF-8)."""
        ...

    async def mkdir(self, path: str) -> None:
        """Create the directory ``path`` and its parents (an existing one is fine)."""
        ...


class EditOperations(Protocol):
    """``edit``'s I/O: it reads the file, replaces the text in memory and writes it back."""

    async def read_file(self, path: str) -> bytes: ...

    async def write_file(self, path: str, content: str) -> None: ...

    async def access(self, path: str) -> None:
        """Raise when ``path`` is not a file that can be read and written."""
        ...


class LsOperations(Protocol):
    """``ls``'s I/O (``grep`` and ``find`` search with ripgrep or their own walk: local only)."""

    async def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory; raise ``FileNotFoundError`` when nothing is there."""
        ...

    async def list_dir(self, path: str) -> list[str]:
        """The names in the directory ``path`` (dotfiles included)."""
        ...


class BashOperations(Protocol):
    """``bash``'s I/O: run one command and stream its output (stdout and stderr together)."""

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: asyncio.Event | None,
        timeout: float | None,
        env: Mapping[str, str],
    ) -> int | None:
        """The exit code (None when the process was killed). Raise ``TimeoutError`` when
        ``timeout`` seconds passed; return (killed) once ``signal`` is set."""
        ...
