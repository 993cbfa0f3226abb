"""What the sandbox mounts for one call: writable folders, read-only and hidden paths.

Computed per call from the configuration and the file system as it is (a file an
``Edit(**/*.lock)`` rule protects may have been created by the previous call), with
folder listings cached (``tree.py``). The order of the layers, each on top of the
one before:

1. ``/`` read-only; the working directories, ``allowWrite`` and the private TMPDIR
   writable;
2. each folder between a writable root and a protected path bound onto itself, so it
   is a mount point: it cannot be renamed or removed, which would take the protected
   path away with it and let the command make a fresh one in its place;
3. protected paths read-only (``denyWrite``, ``Edit`` deny rules, the paths every
   project keeps: :data:`ALWAYS_PROTECTED`), a path that does not exist yet covered
   by an unwritable stand-in (``placeholders.py``); hidden paths (``denyRead``,
   ``Read`` deny rules) replaced by an unreadable empty file or an empty read-only
   folder, with ``allowRead`` paths bound back inside it; deeper paths after the
   ones that hold them;
4. a file in a writable folder that is a hard link to a protected or hidden file
   (same device and inode) is protected or hidden too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from hookline.sandbox.config import PathEntry, SandboxConfig
from hookline.sandbox.placeholders import placeholders
from hookline.sandbox.tree import Listing, TreeChanges, TreeIndex

#: Paths at the root of every working directory that a command must never write or
#: create: the agent's own settings and hooks, and code other tools run later. Folders
#: end with ``/``. Existing copies up to three folders deep are protected too.
ALWAYS_PROTECTED: tuple[str, ...] = (
    ".claude/",
    ".hookline/",
    ".mcp.json",
    ".git/hooks/",
    ".git/config",
    ".git/config.worktree",
    ".git/info/",
    ".gitconfig",
    ".gitmodules",
    ".bashrc",
    ".bash_profile",
    ".zshrc",
    ".zprofile",
    ".profile",
    ".ripgreprc",
    ".vscode/",
    ".idea/",
)
#: Files in ``.git`` that make git read its configuration, hooks or objects from
#: somewhere else: read-only when they exist; when missing they get no stand-in (git
#: would stop on an empty one) and one that a call creates is removed after it.
GIT_POINTERS: tuple[str, ...] = (".git/commondir", ".git/objects/info/alternates")
#: How deep below a working directory existing copies of those paths are protected.
NESTED_DEPTH = 3
#: Files of one protected folder checked for other names (hard links) per call.
_LINK_CHECK_LIMIT = 2000


@dataclass(slots=True)
class MountPlan:
    """The layers of one call, as paths (``launcher.py`` turns them into bwrap arguments)."""

    writable: list[str] = field(default_factory=list)
    #: folders bound onto themselves (writable, but not renamable)
    anchors: list[str] = field(default_factory=list)
    readonly: list[str] = field(default_factory=list)
    #: missing protected paths: ``(path, is a folder)``, created as stand-ins
    missing: list[tuple[str, bool]] = field(default_factory=list)
    hidden_files: list[str] = field(default_factory=list)
    hidden_dirs: list[str] = field(default_factory=list)
    #: ``allowRead`` paths inside a hidden folder, bound back read-only
    reread: list[str] = field(default_factory=list)
    #: things said about the plan (a search cut short)
    notes: list[str] = field(default_factory=list)
    #: missing paths a call must not leave behind (removed after it when it made them)
    forbidden: list[str] = field(default_factory=list)


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _depth(path: str) -> int:
    return path.rstrip("/").count("/")


class Planner:
    """Plans calls for one configuration, keeping the folder cache between them."""

    def __init__(self, config: SandboxConfig, tree: TreeIndex | None = None) -> None:
        self.config = config
        self.tree = tree or TreeIndex()
        #: (which rule, folder) -> (its listing, what matched there): reused while the
        #: folder's listing is the same object (unchanged)
        self._found: dict[tuple[int, str], tuple[Listing, list[tuple[str, bool]]]] = {}
        #: (which rule, where) -> its search, brought up to date from the tree's changes
        self._searches: dict[tuple[int, str], _Search] = {}
        #: what changed since the last plan (None: anything may have), and how many plans
        self._changes: TreeChanges | None = None
        self._plans = 0

    def plan(self, tmpdir: str) -> MountPlan:
        config = self.config
        plan = MountPlan()
        self._changes = self.tree.refresh()
        self._plans += 1
        self.tree.truncated = False
        writable = [w for w in config.writable if os.path.isdir(w)]
        plan.writable = sorted(dict.fromkeys([*writable, tmpdir]), key=_depth)
        roots = [w for w in plan.writable if w != tmpdir]
        readonly: dict[str, None] = {}
        missing: dict[str, bool] = {}
        hidden: dict[str, bool] = {}

        def protect(path: str, is_dir: bool) -> None:
            root = _root_of(path, roots)
            if root is None or path == root:
                if path == root:
                    readonly[path] = None  # a working dir denied as a whole
                return
            if os.path.lexists(path):
                readonly[path] = None
            else:
                first = _first_missing(path, root)
                missing[first] = is_dir or first != path

        # 3. the paths every working directory keeps (and existing copies below it)
        for root in [] if config.no_writes else [r for r in roots if r in config.working_dirs]:
            for name in ALWAYS_PROTECTED:
                protect(os.path.join(root, name.rstrip("/")), name.endswith("/"))
            if os.path.isfile(os.path.join(root, ".git")):
                readonly[os.path.join(root, ".git")] = None  # a worktree's pointer file
            for name in GIT_POINTERS:
                path = os.path.join(root, name)
                if os.path.lexists(path):
                    readonly[path] = None
                elif os.path.isdir(os.path.dirname(path)):
                    plan.forbidden.append(path)
            modules = os.path.join(root, ".git", "modules")
            for sub in _subfolders(modules):  # submodules' own config and hooks
                for name in ("config", "hooks"):
                    if os.path.lexists(os.path.join(sub, name)):
                        readonly[os.path.join(sub, name)] = None
            for found in self.tree.walk(root, max_depth=NESTED_DEPTH - 1):
                if found.is_dir:
                    self._nested(found.path, readonly)
        for rule in config.deny_write:
            self._deny_write(rule, roots, readonly, protect)
        for rule in config.deny_read:
            self._deny_read(rule, hidden)
        if self.tree.truncated:
            plan.notes.append(f"a search stopped after {self.tree.limit} entries")
        for path in config.allow_read:
            if hidden.get(path) is False:
                del hidden[path]  # a file read again
        # 4. hard links to what is protected
        self._hard_links(roots, readonly, hidden)
        # A stand-in left from an earlier call is still a missing path: the call takes it
        # again (so it stays), and mounts the unwritable source on it.
        for path, is_dir in placeholders.owned().items():
            if path in readonly or path in hidden or path in missing:
                readonly.pop(path, None)
                hidden.pop(path, None)
                missing[path] = is_dir

        plan.readonly = sorted(readonly, key=_depth)
        plan.missing = sorted(missing.items(), key=lambda item: _depth(item[0]))
        plan.hidden_dirs = sorted((p for p, d in hidden.items() if d), key=_depth)
        plan.hidden_files = sorted((p for p, d in hidden.items() if not d), key=_depth)
        plan.reread = [
            p
            for p in config.allow_read
            if os.path.exists(p) and any(_under(p, h) and p != h for h in plan.hidden_dirs)
        ]
        covered = [*readonly, *missing, *hidden]
        plan.anchors = _anchors(covered, roots, readonly)
        return plan

    def _nested(self, folder: str, readonly: dict[str, None]) -> None:
        names = self.tree.names(folder)
        if not names:
            return
        for name in ALWAYS_PROTECTED:
            head, _, tail = name.rstrip("/").partition("/")
            if head not in names:
                continue
            path = os.path.join(folder, name.rstrip("/"))
            if not tail or os.path.lexists(path):
                readonly[path] = None
        if names.get(".git", (True, 0))[0] is False:
            readonly[os.path.join(folder, ".git")] = None

    def _deny_write(
        self,
        entry: PathEntry,
        roots: list[str],
        readonly: dict[str, None],
        protect: Callable[[str, bool], None],
    ) -> None:
        if entry.glob is None:
            protect(entry.root, os.path.isdir(entry.root))
            return
        if entry.literal is not None:
            protect(entry.literal, False)
        # Only what lies in a writable folder can be written: search there alone.
        for start in _search_roots(entry.root, roots):
            for path, _ in self._search(entry, start):
                readonly[path] = None

    def _deny_read(self, entry: PathEntry, hidden: dict[str, bool]) -> None:
        if entry.glob is None:
            if os.path.lexists(entry.root):
                hidden[entry.root] = os.path.isdir(entry.root)
            return
        for path, is_dir in self._search(entry, entry.root):
            hidden[path] = is_dir

    def _search(self, entry: PathEntry, start: str) -> list[tuple[str, bool]]:
        """What ``entry``'s glob matches below ``start``. The first search walks the tree;
        later ones look again only at the folders the tree says changed (and walk what was
        added), so a call pays for what changed, not for the size of the project."""
        key = (id(entry), start)
        search = self._searches.get(key)
        changes = self._changes
        if search is None or changes is None or search.plan != self._plans - 1:
            search = _Search(self._plans)
            for folder, listing in self.tree.folders(start):
                search.found[folder] = self._matches(entry, folder, listing)
                search.unwatched.update(() if self.tree.watched(folder) else (folder,))
        else:
            search.update(self, entry, start, changes)
        if self.tree.truncated:
            self._searches.pop(key, None)  # incomplete: never reused
        else:
            self._searches[key] = search
        return search.flat()

    def _matches(self, entry: PathEntry, folder: str, listing: Listing) -> list[tuple[str, bool]]:
        """The names in ``folder`` that ``entry`` matches (kept while the listing is)."""
        cached = self._found.get((id(entry), folder))
        if cached is not None and cached[0] is listing:
            return cached[1]
        base = "" if folder == "/" else folder
        found = [
            (f"{base}/{name}", is_dir)
            for name, is_dir, _ in listing.names
            if entry.matches(f"{base}/{name}", is_dir)
        ]
        self._found[(id(entry), folder)] = (listing, found)
        return found

    def _hard_links(
        self, roots: list[str], readonly: dict[str, None], hidden: dict[str, bool]
    ) -> None:
        """Protect (hide) every name in a writable folder that shares an inode with a
        protected (hidden) file; only searched when such a file has more than one name."""
        wanted: dict[tuple[int, int], bool] = {}  # (dev, ino) -> hide?
        for path, hide in [*((p, False) for p in readonly), *((p, True) for p in hidden)]:
            for st in _files_in(path, self.tree):
                if st.st_nlink > 1:
                    key = (st.st_dev, st.st_ino)
                    wanted[key] = wanted.get(key, False) or hide
        if not wanted:
            return
        for root in roots:
            for entry in self.tree.walk(root):
                linked = wanted.get((entry.dev, entry.ino))
                if linked is None or entry.is_dir:
                    continue
                if linked:
                    hidden.setdefault(entry.path, False)
                elif entry.path not in hidden:
                    readonly[entry.path] = None


class _Search:
    """One glob's matches below one folder, by folder, as of plan number ``plan``."""

    def __init__(self, plan: int) -> None:
        self.plan = plan
        self.found: dict[str, list[tuple[str, bool]]] = {}
        #: folders no watch covers: looked at again on every plan
        self.unwatched: set[str] = set()
        self._flat: list[tuple[str, bool]] | None = None

    def update(self, planner: Planner, entry: PathEntry, start: str, changes: TreeChanges) -> None:
        """Bring the matches up to date: drop what was removed, look again at what changed,
        walk what was added."""
        self.plan = planner._plans
        if changes.subtrees:
            gone = tuple(f"{s}/" for s in changes.subtrees)
            for folder in [f for f in self.found if f in changes.subtrees or f.startswith(gone)]:
                del self.found[folder]
                self.unwatched.discard(folder)
                self._flat = None
        tree = planner.tree
        again = [f for f in (*changes.changed, *self.unwatched) if f in self.found]
        if start not in self.found:
            again.append(start)
        for folder in dict.fromkeys(again):
            listing = tree.listing(folder)
            self._flat = None
            if listing is None:
                self.found.pop(folder, None)
                continue
            self.found[folder] = planner._matches(entry, folder, listing)
            if tree.watched(folder):
                self.unwatched.discard(folder)
            base = "" if folder == "/" else folder
            for name, is_dir, _ in listing.names:
                child = f"{base}/{name}"
                if is_dir and child not in self.found:  # added: walk it
                    for sub, sub_listing in tree.folders(child):
                        self.found[sub] = planner._matches(entry, sub, sub_listing)
                        if not tree.watched(sub):
                            self.unwatched.add(sub)

    def flat(self) -> list[tuple[str, bool]]:
        if self._flat is None:
            self._flat = [match for found in self.found.values() for match in found]
        return self._flat


def _subfolders(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as it:
            return [e.path for e in it if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []


def _files_in(path: str, tree: TreeIndex) -> Iterable[os.stat_result]:
    """``stat`` of ``path`` when it is a file, of the files below it when it is a folder."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return []
    if not os.path.isdir(path) or os.path.islink(path):
        return [st] if os.path.isfile(path) else []
    out: list[os.stat_result] = []
    for entry in tree.walk(path):
        if len(out) >= _LINK_CHECK_LIMIT:
            break  # a huge protected folder: its first files only (docs/sandbox.md)
        if not entry.is_dir:
            try:
                out.append(os.stat(entry.path, follow_symlinks=False))
            except OSError:
                continue
    return out


def _root_of(path: str, roots: list[str]) -> str | None:
    """The deepest writable root holding ``path`` (None: it is read-only anyway)."""
    best = None
    for root in roots:
        if _under(path, root) and (best is None or len(root) > len(best)):
            best = root
    return best


def _first_missing(path: str, root: str) -> str:
    """The first component of ``path`` below ``root`` that does not exist."""
    rel = os.path.relpath(path, root).split("/")
    current = root
    for part in rel:
        current = os.path.join(current, part)
        if not os.path.lexists(current):
            return current
    return path


def _search_roots(start: str, roots: list[str]) -> list[str]:
    """The parts of ``start`` that are writable: ``start`` inside a root, or the roots
    inside ``start``."""
    if any(_under(start, r) for r in roots):
        return [start]
    return [r for r in roots if _under(r, start)]


def _anchors(covered: Iterable[str], roots: list[str], readonly: dict[str, None]) -> list[str]:
    out: dict[str, None] = {}
    for path in covered:
        root = _root_of(path, roots)
        if root is None or path == root:
            continue
        parent = os.path.dirname(path)
        while parent != root and _under(parent, root):
            if not any(_under(parent, r) for r in readonly):
                out[parent] = None
            parent = os.path.dirname(parent)
    return sorted(out, key=_depth)
