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

import fnmatch
import glob
import os
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from hookline.core.vocabulary import CLAUDE_TOOL_NAMES
from hookline.settings.permission_rules.command import squeeze
from hookline.settings.permission_rules.paths import FilePath

if TYPE_CHECKING:
    from hookline.shell import SimpleCommand

#: hookline tools that read the file or folder named by their ``path`` (default: the cwd).
_READERS = {"read": None, "grep": ".", "find": ".", "ls": "."}
_EDITORS = frozenset({"edit", "write"})
#: Commands after which a relative redirection target no longer names a known place.
_CHANGES_DIR = frozenset({"cd", "pushd", "popd"})
#: Commands that give a file another name (``ln .env y; echo x > y``): after them no
#: redirection target of the line is known to be the file its name says.
_RENAMES = frozenset({"ln", "link", "cp", "mv", "install", "rsync", "rename", "busybox"})
#: Wrappers that run the command as someone else, or in another root, namespace or
#: machine: an allow rule must name them.
_ESCALATING = frozenset(
    {
        *("sudo", "doas", "su", "runuser", "setpriv", "pkexec", "sg", "newgrp", "chroot"),
        *("unshare", "nsenter", "systemd-run", "flatpak-spawn", "ssh", "bwrap", "firejail"),
        "proot",
    }
)
#: Wrappers that may run their command in another folder (``env -C``, ``sudo -D``,
#: ``find -execdir``, ``su -``, a login shell, another root): a relative target inside
#: them is not a known place.
_MAY_CHANGE_DIR = frozenset({"env", "find", "script", *_ESCALATING})


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
    #: It only reads (:mod:`hookline.shell.readonly`): no mode asks for it.
    read_only: bool = False
    #: The paths it creates, changes or removes, when it is a filesystem command that
    #: ``acceptEdits`` runs unasked inside the working directories; else None.
    touches: tuple[FilePath, ...] | None = None
    #: The files a read-only command may read (globs expanded now), or None when they
    #: are not known before it runs (a relative path after ``cd``, ``~-``).
    looks_at: tuple[FilePath, ...] | None = None


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
    #: Input redirection targets (``< $f``, ``$(< glob)``, ``< key`` after ``cd``) whose
    #: place is known only when the line runs: the shell opens them, so Read rules watch.
    unknown_reads: tuple[str, ...] = ()
    #: Why the bash line cannot be checked in full (unparsable, a dynamic program), else None.
    unverifiable: str | None = None
    #: The whole bash line, squeezed (deny rules also see it as one text).
    command_line: str | None = None
    #: Every text a deny or ask Bash rule is compared with: each command's forms and the line.
    command_texts: frozenset[str] = frozenset()

    @property
    def read_only(self) -> bool:
        """A bash line whose every command only reads and that writes no file."""
        return (
            bool(self.commands)
            and all(c.read_only for c in self.commands)
            and not self.edits
            and not self.unknown_edits
            and self.unverifiable is None
        )


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
    from hookline.shell import parse_command  # tree-sitter loads on the first bash call
    from hookline.shell.git_repository import untrusted_repository
    from hookline.shell.readonly import read_only_commands, runs_as_written

    parsed = parse_command(line)
    # the repository is vetted only for a line that runs git (it costs a ``git config``)
    runs_git = any(cmd.name == "git" for cmd in parsed.commands)
    hostile = runs_git and untrusted_repository(cwd)
    reading = read_only_commands(parsed, untrusted_repository=hostile)
    trusted = runs_as_written(parsed)
    commands: list[ShellCommand] = []
    edits: dict[str, FilePath] = {}
    unknown: list[str] = []
    why: str | None = None
    if parsed.unparsable:
        why = f"the command line cannot be read ({'; '.join(parsed.problems)})"
    # After a cd anywhere in the line, a relative target's folder is not known.
    names = {cmd.name for cmd in parsed.commands}
    moved = not names.isdisjoint(_CHANGES_DIR)
    renamed = not names.isdisjoint(_RENAMES)
    reads: dict[str, FilePath] = {}
    unknown_reads: list[str] = []
    for cmd, read_only in zip(parsed.commands, reading, strict=True):
        if cmd.argv:
            touches = _touches(cmd, cwd) if trusted and not moved else None
            looks_at = _looks_at(cmd, cwd, moved) if read_only else None
            shown = _command(line, cmd, cwd)
            commands.append(replace(shown, read_only=read_only, touches=touches, looks_at=looks_at))
            if cmd.program_dynamic and why is None:
                why = f"the program of {commands[-1].loose[0]!r} is known only when it runs"
            if why is None and renamed and "/" in cmd.program:
                # ``cp /bin/rm x; ./x v``: a program the line itself may have put there
                why = f"{cmd.program!r} may be a file the line itself copied or linked"
            if why is None and _renames_programs(cmd):
                why = f"{commands[-1].loose[0]!r} changes what a command name runs"
        for redirection in cmd.redirections:
            target = redirection.target
            if redirection.op in ("<", "<>") and target is not None:
                # ``ls "$(<secrets/key)"``: the shell reads the file; Read rules watch it
                relative = not target.startswith(("/", "~"))
                if redirection.dynamic or (relative and moved) or renamed:
                    unknown_reads.append(target)
                else:
                    file = FilePath.of_shell(target, cwd)
                    reads.setdefault(file.path, file)
            if not redirection.writes_file or target is None:
                continue
            if redirection.dynamic:
                unknown.append(target)
                continue
            relative = not target.startswith(("/", "~"))
            elsewhere = moved or any(w.split()[0] in _MAY_CHANGE_DIR for w in cmd.wrappers)
            # ``/proc/self/cwd/.env`` is the shell's folder, not this process's; ``~+`` and
            # ``~-`` are the shell's ``$PWD`` and ``$OLDPWD``
            odd = target.startswith(("/proc/", "~")) and not target.startswith("~/")
            if (relative and elsewhere) or renamed or odd:
                unknown.append(target)  # never auto-allowed; deny rules still see it below
            file = FilePath.of_shell(target, cwd)
            edits.setdefault(file.path, file)
    if renamed and sum(c.touches is not None for c in commands) > 1:
        # ``cp -a link x; rm -rf x/``: a path may name what an earlier command put there
        commands = [replace(c, touches=None) for c in commands]
    whole = squeeze(line)
    texts = dict.fromkeys(t for c in commands for t in c.loose)
    texts[whole] = None
    return ToolCall(
        "bash",
        "Bash",
        cwd,
        reads=tuple(reads.values()),
        edits=tuple(edits.values()),
        commands=tuple(commands),
        unknown_edits=tuple(dict.fromkeys(unknown)),
        unknown_reads=tuple(dict.fromkeys(unknown_reads)),
        unverifiable=why,
        command_line=whole,
        command_texts=frozenset(texts),
    )


#: Paths that name a process's own files (``/proc/self/cwd/x``): this process's when the
#: line is checked, the command's when it runs.
_ANOTHER_PROCESS = ("/proc/", "/dev/fd/", "/dev/stdin", "/dev/stdout", "/dev/stderr")


def _touches(cmd: SimpleCommand, cwd: str) -> tuple[FilePath, ...] | None:
    """The paths an ``acceptEdits`` filesystem command touches, resolved as the kernel
    will (through symlinks), or None when it is not one."""
    from hookline.shell.readonly import filesystem_operands

    operands = filesystem_operands(cmd)
    if operands is None:
        return None
    files: list[FilePath] = []
    for operand in operands:
        if operand.startswith(_ANOTHER_PROCESS):
            return None
        matches = _expand(operand, cwd)
        if matches is None:
            return None
        files.extend(FilePath.of_shell(path, cwd) for path in matches)
    return tuple(files)


#: A bracket expression, with the forms bash reads otherwise than :mod:`glob` (``[^x]``,
#: ``[[:alpha:]]``).
_BRACKET = re.compile(r"\[[!^]?\]?(?:\[[:=.][^]]*[:=.]\]|[^]])*\]")


def _expand(word: str, cwd: str) -> list[str] | None:
    """What bash makes of ``word``: when it is a glob, what matches it now (a relative
    one inside ``cwd``), else the word (as bash passes a glob that matches nothing).
    Each bracket expression counts as any one character, so that the matches hold all
    that bash's reading of it may match. None when a part may match ``..`` (``grep -r x
    .*``: bash before 5.2 matches it, :mod:`glob` never)."""
    if not glob.has_magic(word):
        return [word]
    pattern = _BRACKET.sub("?", word)
    if any(fnmatch.fnmatchcase("..", part) for part in pattern.split("/")):
        return None
    if pattern.startswith(("/", "~")):
        matches = glob.glob(os.path.expanduser(pattern))
    else:
        matches = glob.glob(pattern, root_dir=cwd)
    return matches or [word]


def _looks_at(cmd: SimpleCommand, cwd: str, moved: bool) -> tuple[FilePath, ...] | None:
    """The files a read-only command may read (its words, its ``<`` redirections), a glob
    as it matches now; None when a place is not known before the line runs."""
    from hookline.shell.readonly import path_words

    files: list[FilePath] = []
    for word in path_words(cmd):
        relative = not word.startswith(("/", "~"))
        if (moved and relative) or (word.startswith("~") and word != "~" and word[1] != "/"):
            return None  # ``cd x && cat y``; ``~-`` is the shell's $OLDPWD
        if word.startswith(_ANOTHER_PROCESS):
            return None
        matches = _expand(word, cwd)
        if matches is None:
            return None
        files.extend(FilePath.of_shell(path, cwd) for path in matches)
    for redirection in cmd.redirections:
        # ``cat < escape/secret``: the shell opens the file the command reads
        target = redirection.target
        if redirection.op != "<" or target is None or target == os.devnull:
            continue
        if redirection.dynamic or (moved and not target.startswith(("/", "~"))):
            return None
        files.append(FilePath.of_shell(target, cwd))
    return tuple(files)


def _linked_program(cmd: SimpleCommand, cwd: str) -> str | None:
    """A program given by a path that is a symlink to another program: the command as
    deny rules should see it (``c -s x`` as ``curl -s x``); else None."""
    program = cmd.program
    if not cwd or "/" not in program or cmd.program_dynamic:
        return None
    path = os.path.join(cwd, os.path.expanduser(program))
    if not os.path.islink(path):
        return None
    real = os.path.basename(os.path.realpath(path))
    if real == cmd.name:
        return None
    return squeeze(" ".join([real, *cmd.args]))


def _renames_programs(cmd: SimpleCommand) -> bool:
    """``alias c=rm`` (with ``expand_aliases``) and ``hash -p /bin/rm c`` make a later ``c``
    run another program: no command after them is what it is named."""
    if cmd.name == "alias":
        return any("=" in arg for arg in cmd.args)
    if cmd.name == "hash":
        return any(arg.startswith("-") and "p" in arg for arg in cmd.args)
    return False


def _command(line: str, cmd: SimpleCommand, cwd: str) -> ShellCommand:
    """The texts rules compare for one simple command.

    Allow rules see the command as written (argv joined, or its source text).
    Under ``sudo``/``doas``/``su`` or with variable assignments (``FOO=1 npm
    test``, ``env LD_PRELOAD=… npm test``) they see it only with those in front,
    so ``Bash(npm test)`` does not allow ``sudo npm test``. Deny and ask rules
    see every form, plus the basename of the program and each wrapper's whole
    command as written (``Bash(sudo -u root *)`` stops ``true && sudo -u root rm x``).
    """
    written = squeeze(" ".join(cmd.argv))
    linked = _linked_program(cmd, cwd)
    if linked is not None:  # ``ln -s /usr/bin/curl c; ./c``: deny rules see ``curl``
        shown = _command(line, cmd, "")
        return ShellCommand(shown.exact, (*shown.loose, linked), cmd.program_dynamic)
    start, end = cmd.span
    source = squeeze(line[start:end])
    exact: tuple[str, ...]
    if not cmd.wrappers and not cmd.assignments:  # the common case, kept cheap
        exact = (written,) if source in (written, "") else (written, source)
        if cmd.name == cmd.program:
            return ShellCommand(exact, exact, cmd.program_dynamic)
        based = squeeze(" ".join([cmd.name, *cmd.args]))
        return ShellCommand(exact, (*exact, based), cmd.program_dynamic)
    based = squeeze(" ".join([cmd.name, *cmd.args]))
    assigned = [f"{k}={v}" for k, v in cmd.assignments.items()]
    argvs = cmd.wrapper_argvs
    if len(argvs) != len(cmd.wrappers):  # each wrapper as written; its label if unknown
        argvs = [[label, *cmd.argv] for label in cmd.wrappers]
    wrapper_texts = [squeeze(" ".join(argv)) for argv in argvs]
    labels = [label.split()[0] for label in cmd.wrappers]
    escalating = [i for i, label in enumerate(labels) if label in _ESCALATING]
    if escalating:  # the outermost, as written: ``sudo -u root npm test``
        exact = (wrapper_texts[escalating[0]],)
    elif assigned:
        envs = (text for text, label in zip(wrapper_texts, labels, strict=True) if label == "env")
        exact = tuple(dict.fromkeys((squeeze(" ".join([*assigned, *cmd.argv])), *envs)))
    else:
        exact = tuple(dict.fromkeys(t for t in (written, source) if t))
    labelled = squeeze(" ".join([*cmd.wrappers, *assigned, *cmd.argv]))
    loose = tuple(
        dict.fromkeys(t for t in (*exact, written, based, source, labelled, *wrapper_texts) if t)
    )
    return ShellCommand(exact, loose, cmd.program_dynamic)
