"""Memory files: the instructions Claude Code users keep in ``CLAUDE.md`` and friends.

Read once when the agent is built, in the order Claude Code uses (later files
take precedence, so the most specific comes last):

1. managed: ``/etc/claude-code/CLAUDE.md``;
2. user: ``~/.claude/CLAUDE.md``;
3. from the filesystem root down to the working directory, in each folder:
   ``CLAUDE.md``, ``.claude/CLAUDE.md``, ``AGENTS.md`` (project) and
   ``CLAUDE.local.md`` (local).

A file may import others with ``@path`` (relative to the importing file,
``~/`` or absolute), outside code spans and fenced blocks, up to
``MAX_IMPORT_DEPTH`` hops; a file already loaded (a cycle, a diamond) is not
loaded again. Only regular files are read, each at most ``MAX_BYTES``.

Trust: memory files add prompt text, never run code, and the model reads the
project's files anyway, so an untrusted project's memory files are read. What
an untrusted project may not do is reach outside itself: its imports must stay
inside the folder the file was found in (a cloned ``CLAUDE.md`` saying
``@~/.ssh/id_rsa`` would otherwise send that key to the model). Such an import
is skipped and reported.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from hookline.settings.safe_json import JsonFileError, JsonFileMissing, read_text_file

MemoryType = Literal["Managed", "User", "Project", "Local"]

MAX_IMPORT_DEPTH = 5
#: Largest memory file read (256 KiB); a bigger one is skipped and reported.
MAX_BYTES = 256 * 1024
MANAGED_MEMORY = Path("/etc/claude-code/CLAUDE.md")
#: Per folder, in order: the file name and its memory type.
PROJECT_FILES: tuple[tuple[str, MemoryType], ...] = (
    ("CLAUDE.md", "Project"),
    (os.path.join(".claude", "CLAUDE.md"), "Project"),
    ("AGENTS.md", "Project"),
    ("CLAUDE.local.md", "Local"),
)
_DESCRIPTIONS: dict[str, str] = {
    "Managed": "managed policy instructions",
    "User": "user's private global instructions for all projects",
    "Project": "project instructions, checked into the codebase",
    "Local": "user's private project instructions, not checked in",
}
_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:[^\s\\]|\\ )+)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"`[^`]*`")


@dataclass(frozen=True, slots=True)
class MemoryFile:
    """One loaded memory file: where, what kind, why, and its text."""

    path: Path
    memory_type: MemoryType
    text: str
    parent: Path | None = None  # the file that imported it

    @property
    def load_reason(self) -> str:
        return "include" if self.parent is not None else "session_start"


@dataclass(slots=True)
class Memory:
    """The memory files of one agent, in prompt order, and what was skipped."""

    files: list[MemoryFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def prompt_section(self) -> str:
        """The text appended to the system prompt ('' when there is none)."""
        parts = [
            f"Contents of {f.path} ({_DESCRIPTIONS[f.memory_type]}):\n\n{f.text.strip()}"
            for f in self.files
            if f.text.strip()
        ]
        if not parts:
            return ""
        head = (
            "# Memory files\nInstructions from the user's and the project's memory files; "
            "follow them. Later files take precedence over earlier ones."
        )
        return "\n\n".join([head, *parts])


def load_memory(
    cwd: str | os.PathLike[str],
    *,
    project_trusted: bool,
    home: Path | None = None,
    managed: Path = MANAGED_MEMORY,
) -> Memory:
    """Every memory file for ``cwd`` with its imports (see the module doc)."""
    loader = _Loader(project_trusted)
    loader.add(managed, "Managed", None)
    loader.add((home or Path.home()) / ".claude" / "CLAUDE.md", "User", None)
    for folder in _folders_down_to(Path(os.path.abspath(cwd))):
        for name, kind in PROJECT_FILES:
            loader.add(folder / name, kind, folder)
    return loader.memory


def _folders_down_to(cwd: Path) -> list[Path]:
    """The ancestors of ``cwd`` (the root itself excluded) and ``cwd``, root-most first."""
    chain = [cwd, *cwd.parents]
    return [p for p in reversed(chain) if p != Path(p.anchor)]


class _Loader:
    def __init__(self, project_trusted: bool) -> None:
        self.trusted = project_trusted
        self.memory = Memory()
        self._seen: set[str] = set()

    def add(self, path: Path, kind: MemoryType, confine: Path | None) -> None:
        """Load a top-level file; ``confine`` is its project folder (imports must stay in it
        when the project is not trusted)."""
        self._load(path, kind, None, 0, confine if not self.trusted else None)

    def _load(
        self, path: Path, kind: MemoryType, parent: Path | None, depth: int, confine: Path | None
    ) -> None:
        real = os.path.realpath(path)
        if real in self._seen:
            return
        try:
            text = read_text_file(path, max_bytes=MAX_BYTES)
        except JsonFileMissing:
            return
        except JsonFileError as exc:
            self.memory.warnings.append(f"memory file skipped: {exc}")
            return
        self._seen.add(real)
        self.memory.files.append(MemoryFile(path, kind, text, parent))
        if depth >= MAX_IMPORT_DEPTH:
            return
        for target in imports(text):
            full = _resolve(target, path.parent)
            if full is None:
                continue
            if confine is not None and not _within(full, confine):
                self.memory.warnings.append(
                    f"{path}: import @{target} leaves the untrusted project {confine}; skipped"
                )
                continue
            self._load(full, kind, path, depth + 1, confine)


def imports(text: str) -> list[str]:
    """The ``@path`` targets of a memory file, outside fenced blocks and code spans."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for match in _IMPORT.finditer(_CODE_SPAN.sub(" ", line)):
            out.append(match.group(1).replace("\\ ", " "))
    return out


def _resolve(target: str, base: Path) -> Path | None:
    """An import's file (``~`` expanded, relative to ``base``); trailing punctuation is
    tried without when the path as written is no file."""
    for candidate in (target, target.rstrip(".,;:!?)")):
        if not candidate:
            continue
        path = Path(os.path.expanduser(candidate))
        full = path if path.is_absolute() else base / path
        if full.is_file():
            return full
    return None


def _within(path: Path, folder: Path) -> bool:
    real, root = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([real, root]) == root


def system_prompt_with_memory(base: str, memory: Memory) -> str:
    section = memory.prompt_section()
    return f"{base}\n\n{section}" if section else base
