"""Whether the repository git would find may make a read-only ``git`` command run programs.

A project may be anyone's: its own ``.git/config`` can name programs that ``git
status``, ``git diff`` or ``git log`` run (``core.fsmonitor``, ``diff.external``, a
``textconv`` or ``filter`` driver the project's ``.gitattributes`` picks, ``gpg.program``
with ``log.showSignature``, ``core.pager``, an ``include.path``…), and its
``.git/hooks`` a ``post-index-change`` hook that ``git status`` runs. A ``git`` command
is read-only only when the repository's own configuration holds nothing but the keys of
:data:`SAFE_KEYS` and it has no hook: anything else, or anything that cannot be read,
fails closed. The user's own (global, system) configuration is theirs and is trusted.
"""

from __future__ import annotations

import os
import re
import subprocess

__all__ = ["SAFE_KEYS", "SAFE_SECTIONS", "WRITE_HOOKS", "untrusted_repository"]

#: Hooks only commands that write run (commit, merge, push, checkout, rebase, gc…),
#: never one of the read-only subcommands: a repository may hold them
#: (``pre-commit install``, husky's ``core.hooksPath``).
WRITE_HOOKS = frozenset(
    {
        *("applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit"),
        *("pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit"),
        *("pre-rebase", "post-checkout", "post-merge", "pre-push", "post-rewrite"),
        *("pre-receive", "update", "post-receive", "post-update", "push-to-checkout"),
        *("pre-auto-gc", "sendemail-validate"),
    }
)

#: Whole sections of a repository's configuration that name no program a read runs.
SAFE_SECTIONS = frozenset(
    {"user", "author", "committer", "color", "column", "advice", "i18n", "alias", "http"}
)

#: Single keys (``section.key`` or ``section.*.key``, lower case) that name no program.
SAFE_KEYS = frozenset(
    {
        *("core.repositoryformatversion", "core.filemode", "core.bare", "core.ignorecase"),
        *("core.logallrefupdates", "core.precomposeunicode", "core.symlinks"),
        *("core.autocrlf", "core.eol", "core.safecrlf", "core.quotepath", "core.abbrev"),
        *("core.untrackedcache", "core.checkstat", "core.trustctime", "core.commentchar"),
        *("core.whitespace", "core.splitindex", "core.preloadindex", "core.compression"),
        *("core.sparsecheckout", "core.sparsecheckoutcone", "core.multipackindex"),
        *("core.commitgraph", "core.fscache", "core.longpaths", "core.hidedotfiles"),
        *("remote.*.url", "remote.*.pushurl", "remote.*.fetch", "remote.*.push"),
        *("remote.*.tagopt", "remote.*.prune", "remote.*.mirror"),
        *("branch.*.remote", "branch.*.merge", "branch.*.rebase", "branch.*.description"),
        *("branch.*.pushremote", "branch.*.vscode-merge-base", "submodule.*.active"),
        *("init.defaultbranch", "pull.rebase", "pull.ff", "push.default", "fetch.prune"),
        *("push.autosetupremote", "merge.ff", "merge.conflictstyle", "rebase.autosquash"),
        *("rebase.autostash", "rerere.enabled", "gc.auto", "index.version", "pack.threads"),
        *("diff.renames", "diff.algorithm", "diff.colormoved", "diff.mnemonicprefix"),
        *("diff.noprefix", "diff.context", "diff.indentheuristic", "diff.renamelimit"),
        *("log.date", "log.decorate", "log.follow", "log.abbrevcommit", "log.showroot"),
        *("status.showuntrackedfiles", "status.short", "status.branch", "status.relativepaths"),
        *("grep.linenumber", "grep.patterntype", "grep.extendedregexp", "grep.column"),
        *("commit.gpgsign", "tag.gpgsign", "tag.sort", "branch.sort", "extensions.objectformat"),
        *("extensions.worktreeconfig", "feature.manyfiles", "protocol.version"),
    }
)

#: Canonical key names, as ``git config --name-only --list`` prints them.
_KEY = re.compile(r"(?P<section>[^.]+)(?:\.(?P<sub>.*))?\.(?P<key>[^.]+)\Z")


def _safe_key(name: str) -> bool:
    match = _KEY.match(name)
    if match is None:
        return False
    section, sub, key = match["section"].lower(), match["sub"], match["key"].lower()
    if section in SAFE_SECTIONS:
        return True
    return (f"{section}.*.{key}" if sub is not None else f"{section}.{key}") in SAFE_KEYS


def _git_dir(cwd: str) -> tuple[str | None, str]:
    """The git directory git finds from ``cwd`` (upward: ``.git``, then the folder itself
    when it looks like a bare repository), and the folder it was found in; ``""`` when
    there is none, None when it cannot be told."""
    folder = os.path.realpath(cwd)  # git walks up from the physical folder (getcwd)
    while True:
        dot = os.path.join(folder, ".git")
        if os.path.isdir(dot):
            # git passes over a ``.git`` it does not take for a repository, to one
            # beside or above it: this one must be that repository, or it cannot be told
            return (dot if _valid_git_dir(dot) else None), folder
        if os.path.lexists(dot):
            return _linked_git_dir(dot, folder), folder
        if _looks_bare(folder):
            return (folder if _valid_git_dir(folder) else None), folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return "", folder
        folder = parent


def _looks_bare(folder: str) -> bool:
    """A folder git takes for a bare repository (and reads its ``config``)."""
    return os.path.lexists(os.path.join(folder, "HEAD")) and all(
        os.path.isdir(os.path.join(folder, name)) for name in ("objects", "refs")
    )


#: What git takes for ``HEAD``: a symbolic reference under ``refs/`` or an object name.
_HEAD = re.compile(rb"(?:ref:[ \t]*refs/[^\n]*|[0-9a-f]{40}|[0-9a-f]{64})\n?\Z")


def _valid_git_dir(path: str) -> bool:
    """Whether git takes ``path`` for a git directory (its ``is_git_directory``):
    ``objects`` and ``refs`` folders (in the common directory of a worktree) and a
    ``HEAD`` it can read."""
    common = _common_dir(path)
    if common is None:
        return False
    for name in ("objects", "refs"):  # git tests them with access(X_OK)
        folder = os.path.join(common, name)
        if not (os.path.isdir(folder) and os.access(folder, os.X_OK)):
            return False
    head = os.path.join(path, "HEAD")
    try:
        if os.path.islink(head):
            return os.readlink(head).startswith("refs/")
        with open(head, "rb") as file:
            return _HEAD.match(file.read(4096)) is not None
    except OSError:
        return False


def _linked_git_dir(dot: str, folder: str) -> str | None:
    """``.git`` as a file: ``gitdir: PATH`` (a worktree or a submodule)."""
    try:
        with open(dot, encoding="utf-8") as file:
            text = file.read(4096)
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir: "):
        return None
    target = os.path.join(folder, text[len("gitdir: ") :].strip())
    return target if os.path.isdir(target) else None


def _common_dir(git_dir: str) -> str | None:
    """Where a worktree's repository keeps its configuration and hooks."""
    commondir = os.path.join(git_dir, "commondir")
    if not os.path.lexists(commondir):
        return git_dir
    try:
        with open(commondir, encoding="utf-8") as file:
            return os.path.join(git_dir, file.read(4096).strip())
    except (OSError, UnicodeDecodeError):
        return None


def _config_entries(path: str) -> list[tuple[str, str]] | None:
    """The keys set in one configuration file, with their values (includes not
    followed), or None."""
    try:
        out = subprocess.run(
            ["git", "config", "--file", path, "--no-includes", "--list", "-z"],
            capture_output=True,
            timeout=10,
            check=False,
            cwd=os.sep,
            env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    entries = out.stdout.decode(errors="replace").split("\0")
    return [(key.lower(), value) for key, _, value in (e.partition("\n") for e in entries if e)]


def _runs_hooks(hooks: str) -> bool:
    """A hook folder holds a hook a read may run (``git status`` runs
    ``post-index-change``): anything but ``git init``'s samples and the hooks of
    :data:`WRITE_HOOKS`."""
    try:
        names = os.listdir(hooks)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return any(not name.endswith(".sample") and name not in WRITE_HOOKS for name in names)


#: The modes an index entry may have; a submodule's (a gitlink) is ``160000``.
_MODES = frozenset({0o100644, 0o100755, 0o120000, 0o040000})
_GITLINK = 0o160000


def _index_modes(data: bytes, oid: int) -> list[int] | None:
    """The modes of an index file's entries (format 2 to 4, object names ``oid``
    bytes long), or None when it does not read as one."""
    if len(data) < 12 or data[:4] != b"DIRC":
        return None
    version, count = int.from_bytes(data[4:8], "big"), int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4):
        return None
    modes: list[int] = []
    at = 12
    for _ in range(count):
        start = at
        mode = int.from_bytes(data[at + 24 : at + 28], "big")
        flags = int.from_bytes(data[at + 40 + oid : at + 42 + oid], "big")
        at += 42 + oid + (2 if version >= 3 and flags & 0x4000 else 0)
        if version == 4:
            while at < len(data) and data[at] & 0x80:  # the length of the prefix it strips
                at += 1
            at += 1
        end = data.find(b"\0", at)
        if end < 0 or mode not in _MODES | {_GITLINK}:
            return None
        at = end + 1 if version == 4 else start + (end - start + 8) // 8 * 8
        modes.append(mode)
    return modes


def _has_gitlinks(git_dir: str) -> bool:
    """The index (or a split index's shared part) may hold a submodule: git reads and runs
    the configuration of its git directory, which may lie inside the working tree
    (``sub/.git``) where no ``modules`` folder shows it. An index that cannot be read
    may hold one."""
    try:
        names = [n for n in os.listdir(git_dir) if n == "index" or n.startswith("sharedindex.")]
        for name in names:
            with open(os.path.join(git_dir, name), "rb") as file:
                data = file.read()
            # SHA-1 or SHA-256 names: a gitlink in either reading counts
            readings = [
                m for m in (_index_modes(data, 20), _index_modes(data, 32)) if m is not None
            ]
            if not readings or any(_GITLINK in modes for modes in readings):
                return True
    except OSError:
        return True
    return False


def untrusted_repository(cwd: str) -> bool:
    """Whether git, run in ``cwd``, may run a program the repository itself names or
    read another repository (or this cannot be told): its configuration holds a key not
    known to be safe, a hook a read may run, submodules or alternates."""
    git_dir, top = _git_dir(cwd)
    if git_dir == "":
        return False
    common = _common_dir(git_dir) if git_dir is not None else None
    if git_dir is None or common is None or _runs_hooks(os.path.join(common, "hooks")):
        return True
    if _has_gitlinks(git_dir):
        return True
    # submodules each have a configuration of their own; alternates lend objects of
    # another repository on disk (``git cat-file --batch-all-objects`` reads them)
    odd = ("modules", "objects/info/alternates", "objects/info/http-alternates")
    if any(os.path.lexists(os.path.join(common, name)) for name in odd):
        return True
    names = ("config", "config.worktree")
    files = {os.path.join(d, n) for d in (git_dir, common) for n in names}
    for path in sorted(f for f in files if os.path.lexists(f)):
        entries = _config_entries(path)
        if entries is None:
            return True
        for key, value in entries:
            if key == "core.hookspath":
                hooks = os.path.join(top, os.path.expanduser(value))
                if _runs_hooks(hooks):
                    return True
            elif not _safe_key(key):
                return True
    return False
