"""What one tool call touches, in the terms rules speak: commands, files read, files written.

A bash line is split with :mod:`hookline.shell` into the simple commands a
shell would run (through ``;``, ``&&``, pipes, ``$(…)``, wrappers such as
``sudo``/``env``/``timeout`` and ``bash -c`` scripts), and each output
redirection that writes a file is an edit of that file. What cannot be known
before the line runs — text that does not parse, a program name computed at
run time, a redirection target behind a variable or after a ``cd`` — is
recorded as such, so the decision can refuse to auto-allow it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from hookline.core.vocabulary import CLAUDE_TOOL_NAMES
from hookline.settings.permission_rules.command import squeeze
from hookline.settings.permission_rules.paths import FilePath

#: hookline tools that read the file or folder named by their ``path`` (default: the cwd).
_READERS = {"read": None, "grep": ".", "find": ".", "ls": "."}
_EDITORS = frozenset({"edit", "write"})
#: Redirection targets that are not files of the project.
_HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})
#: Commands after which a relative redirection target no longer names a known place.
_CHANGES_DIR = frozenset({"cd", "pushd", "popd"})
_RUNTIME_CHARS = ("$", "`", "*", "?", "[")


@dataclass(frozen=True, slots=True)
class ShellCommand:
    """One simple command of a bash line, in the forms rules compare.

    ``exact`` is what an allow rule must match (the program as written);
    ``loose`` adds the program's basename, so a deny of ``rm *`` also stops
    ``/bin/rm -rf x``.
    """

    exact: tuple[str, ...]
    loose: tuple[str, ...]
    dynamic: bool


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call described for the rules."""

    tool: str
    claude_tool: str
    cwd: str
    reads: tuple[FilePath, ...] = ()
    edits: tuple[FilePath, ...] = ()
    commands: tuple[ShellCommand, ...] = ()
    #: Redirection targets whose place is known only when the line runs.
    unknown_edits: tuple[str, ...] = ()
    #: Why the bash line cannot be checked in full (unparsable, a dynamic program), else None.
    unverifiable: str | None = None
    #: The whole bash line, squeezed (deny rules also see it as one text).
    command_line: str | None = None


def describe_call(tool_name: str, input: dict[str, Any], cwd: str) -> ToolCall:
    """The call of hookline tool ``tool_name`` with ``input`` in ``cwd``, as rules see it."""
    cwd = os.path.abspath(cwd)
    claude = CLAUDE_TOOL_NAMES.get(tool_name, tool_name)
    if tool_name in _READERS:
        path = input.get("path") or _READERS[tool_name]
        reads = (FilePath.of(path, cwd),) if isinstance(path, str) else ()
        return ToolCall(tool_name, claude, cwd, reads=reads)
    if tool_name in _EDITORS:
        path = input.get("path")
        edits = (FilePath.of(path, cwd),) if isinstance(path, str) and path else ()
        return ToolCall(tool_name, claude, cwd, edits=edits)
    if tool_name == "bash":
        return _describe_bash(str(input.get("command", "")), cwd)
    return ToolCall(tool_name, claude, cwd)


def _describe_bash(line: str, cwd: str) -> ToolCall:
    from hookline.shell import parse_command

    parsed = parse_command(line)
    commands: list[ShellCommand] = []
    edits: list[FilePath] = []
    unknown: list[str] = []
    why: str | None = None
    if parsed.unparsable:
        problems = "; ".join(str(p) for p in parsed.problems) or "it does not parse"
        why = f"the command line cannot be read ({problems})"
    # After a cd anywhere in the line, a relative target's folder is not known.
    moved = any(str(cmd.name) in _CHANGES_DIR for cmd in parsed.commands)
    for cmd in parsed.commands:
        argv = [str(a) for a in cmd.argv]
        written = squeeze(" ".join(argv))
        source = squeeze(_span_text(line, cmd.span))
        exact = tuple(dict.fromkeys(t for t in (written, source) if t))
        based = squeeze(" ".join([str(cmd.name), *argv[1:]])) if argv else ""
        loose = tuple(dict.fromkeys(t for t in (*exact, based) if t))
        commands.append(ShellCommand(exact, loose, bool(cmd.dynamic)))
        if cmd.dynamic and why is None:
            why = f"the program of {source or written!r} is known only when it runs"
        for target in cmd.writes:
            target = str(target)
            if target in _HARMLESS_TARGETS:
                continue
            if any(c in target for c in _RUNTIME_CHARS) or (moved and not _absolute(target)):
                unknown.append(target)
            else:
                edits.append(FilePath.of(target, cwd))
    return ToolCall(
        "bash",
        "Bash",
        cwd,
        edits=tuple(edits),
        commands=tuple(commands),
        unknown_edits=tuple(unknown),
        unverifiable=why,
        command_line=squeeze(line),
    )


def _absolute(target: str) -> bool:
    return target.startswith(("/", "~"))


def _span_text(line: str, span: Any) -> str:
    """The source text of a command from its span (character or byte offsets)."""
    try:
        start, end = int(span[0]), int(span[1])
    except (TypeError, ValueError, IndexError):
        return ""
    data = line.encode()
    if len(data) != len(line):  # byte offsets from tree-sitter on non-ASCII text
        return data[start:end].decode(errors="replace")
    return line[start:end]
