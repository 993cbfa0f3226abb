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
    folder = os.path.abspath(cwd)
    while True:
        dot = os.path.join(folder, ".git")
        if os.path.isdir(dot):
            return dot, folder
        if os.path.lexists(dot):
            return _linked_git_dir(dot, folder), folder
        if _looks_bare(folder):
            return folder, folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return "", folder
        folder = parent


def _looks_bare(folder: str) -> bool:
    """A folder git takes for a bare repository (and reads its ``config``)."""
    return os.path.lexists(os.path.join(folder, "HEAD")) and all(
        os.path.isdir(os.path.join(folder, name)) for name in ("objects", "refs")
    )


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
