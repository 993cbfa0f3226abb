"""The ``ls``, ``find`` and ``grep`` tools.

``grep`` scans with ripgrep when its binary is there (the ``ripgrep`` wheel
ships it) and in pure Python otherwise, with the same answers: Python's regex
dialect (ripgrep's matches are re-checked; a pattern it cannot parse runs in
Python), the same order, limits, truncation and details. ``find`` lets ripgrep
walk (``rg --files`` applies the ``.gitignore`` files in native code) and
completes its list in Python with what ripgrep never lists (folders, links,
special files), in the same order as the pure-Python walk; a stalled ripgrep
walk (a FIFO named ``.gitignore``) falls back to that walk. ``grep`` takes the
same list and hands ripgrep the files to scan, explicitly. Walks run in a worker
thread and stop when the abort ``signal`` is set.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

from hookline.core.messages import text
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.core.tool_params import parse_arguments
from hookline.tools import _ripgrep
from hookline.tools._files import open_regular
from hookline.tools._params import existing_dir, is_binary, resolve_path
from hookline.tools._walk import GlobError, glob_matcher, walk
from hookline.tools.details import FindToolDetails, GrepToolDetails, LsToolDetails
from hookline.tools.schemas import params_ref
from hookline.tools.truncation import (
    DEFAULT_MAX_BYTES,
    GREP_MAX_LINE_LENGTH,
    TruncationResult,
    format_size,
    truncate_head,
    truncate_line,
)

if TYPE_CHECKING:
    from hookline.tools.operations import LsOperations

#: The parameter models' module, imported when a tool first runs or sends its schema.

#: Absolute path → True to leave it out of listings and searches (Read-denied files).
HidePath = Callable[[str], bool]

DEFAULT_LS_LIMIT = 500
DEFAULT_FIND_LIMIT = 1000
DEFAULT_GREP_LIMIT = 100
_NO_LINE_LIMIT = 10**9  # listings are bounded by their entry limit and by bytes


def _finish(body: str, notices: list[str]) -> tuple[str, TruncationResult]:
    """Cut ``body`` by bytes and append the notices (and a byte-limit one when cut).

    A file name that is not UTF-8 (held as surrogate escapes) shows with U+FFFD."""
    body = body.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    shown, trunc = truncate_head(body, max_lines=_NO_LINE_LIMIT)
    if trunc["truncated"]:
        notices = [*notices, f"{format_size(DEFAULT_MAX_BYTES)} output limit reached"]
    if notices:
        shown = f"{shown}\n\n[{'. '.join(notices)}]"
    return shown, trunc


# --- ls ---------------------------------------------------------------------


class _LocalLs:
    """``ls`` on this machine's file system."""

    async def is_dir(self, path: str) -> bool:
        if not os.path.exists(path):
            raise FileNotFoundError(path)
        return os.path.isdir(path)

    async def list_dir(self, path: str) -> list[str]:
        return os.listdir(path)


async def _marked(ops: LsOperations, folder: str, name: str) -> str:
    """``name``, with a ``/`` when it is a directory (a dangling link is not)."""
    try:
        return name + "/" if await ops.is_dir(os.path.join(folder, name)) else name
    except OSError:
        return name


def create_ls_tool(
    cwd: str, *, hide: HidePath | None = None, operations: LsOperations | None = None
) -> Tool:
    """The ``ls`` tool for ``cwd``: one directory's entries, dotfiles included, dirs with /.

    ``hide`` leaves entries out (given each entry's absolute path); ``operations`` lists
    directories somewhere else (``hookline.tools.operations``).
    """
    ops: LsOperations = operations if operations is not None else _LocalLs()

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        from hookline.tools.params import LsParams  # pydantic: on first call

        args = parse_arguments("ls", LsParams, params)
        path = args.path or "."
        limit = args.limit or DEFAULT_LS_LIMIT
        full, outside = resolve_path(cwd, path)
        try:
            if not await ops.is_dir(full):
                raise ToolError(f"ls: {path} is not a directory. Use read to see a file.")
            names = sorted(await ops.list_dir(full), key=lambda n: (n.lower(), n))
        except FileNotFoundError:
            raise ToolError(
                f"ls: path not found: {path} (resolved to {full}). "
                "Paths are relative to the working directory."
            ) from None
        except ToolError:
            raise
        except Exception as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise ToolError(f"ls: cannot list {path}: {reason}") from exc
        if hide is not None:
            names = [n for n in names if not hide(os.path.join(full, n))]
        details: LsToolDetails = {"path": full, "outside_cwd": outside}
        if not names:
            return ToolResult([text("(empty directory)")], details)
        notices = []
        if len(names) > limit:
            names = names[:limit]
            details["entry_limit_reached"] = limit
            notices.append(f"{limit} entries limit reached. Use limit={limit * 2} for more")
        lines = [await _marked(ops, full, n) for n in names]
        shown, trunc = _finish("\n".join(lines), notices)
        if trunc["truncated"]:
            details["truncation"] = trunc
        return ToolResult([text(shown)], details)

    return Tool(
        "ls",
        "List a directory's entries, sorted alphabetically, directories with a trailing '/', "
        f"dotfiles included. At most {DEFAULT_LS_LIMIT} entries unless limit is given.",
        params_ref("LsParams"),
        execute,
        label="ls",
    )


# --- find -------------------------------------------------------------------


def _find(
    root: str,
    pattern: str,
    limit: int,
    signal: asyncio.Event | None,
    hide: HidePath | None,
    rg: str | None = None,
) -> list[str]:
    """Up to ``limit + 1`` matches, in walk order; ripgrep's file list when ``rg`` is given
    and its walk finishes, the pure-Python walk otherwise."""
    matches = glob_matcher(pattern)
    found: list[str] = []
    for full, rel, is_dir in walk(root, signal=signal, kept=_kept(rg, root, signal)):
        if matches(rel) and (hide is None or not hide(full)):
            found.append(rel + "/" if is_dir else rel)
            if len(found) > limit:
                break
    return found


def list_paths(
    root: str,
    limit: int,
    *,
    signal: asyncio.Event | None = None,
    hide: HidePath | None = None,
    ripgrep: bool = True,
) -> list[str]:
    """``find``'s walk of ``root``, every path: at most ``limit``, relative, folders ending
    in ``/``, ``.gitignore`` respected (ripgrep's list when it runs, else the Python walk).
    """
    rg = _ripgrep.find_ripgrep() if ripgrep else None
    return _find(root, "*", limit, signal, hide, rg)[:limit]


def _kept(
    rg: str | None, root: str, signal: asyncio.Event | None
) -> tuple[set[str], set[str]] | None:
    """ripgrep's verdict on the tree for ``walk``: the files its ``.gitignore`` files keep
    and their folders; None without ripgrep or when its walk stalls."""
    if rg is None:
        return None
    try:
        files = _ripgrep.list_files(rg, root, signal=signal)
    except _ripgrep.RipgrepUnusable:
        return None
    return files, _folders_of(files)


def _folders_of(files: set[str]) -> set[str]:
    """Every folder holding one of ``files``: the walk enters those without asking the
    ``.gitignore`` files again."""
    folders: set[str] = set()
    for rel in files:
        folder = rel.rpartition("/")[0]
        while folder and folder not in folders:
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    return folders


def create_find_tool(cwd: str, *, hide: HidePath | None = None, ripgrep: bool = True) -> Tool:
    """The ``find`` tool for ``cwd``: paths matching a glob, ``.gitignore`` respected.

    ``hide`` leaves paths out (given each one's absolute path); ``ripgrep=False``
    keeps to the pure-Python walk.
    """

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        from hookline.tools.params import FindParams  # pydantic: on first call

        args = parse_arguments("find", FindParams, params)
        pattern, path = args.pattern, args.path or "."
        limit = args.limit or DEFAULT_FIND_LIMIT
        full, outside = existing_dir("find", cwd, path)
        if not os.path.isdir(full):
            raise ToolError(f"find: {path} is a file; give a directory to search in.")
        rg = _ripgrep.find_ripgrep() if ripgrep else None
        try:
            found = await asyncio.to_thread(_find, full, pattern, limit, signal, hide, rg)
        except GlobError as exc:
            raise ToolError(f"find: {exc}. Fix the pattern.") from None
        details: FindToolDetails = {"path": full, "outside_cwd": outside}
        if not found:
            return ToolResult([text("No files found matching pattern")], details)
        notices = []
        if len(found) > limit:
            found = found[:limit]
            details["result_limit_reached"] = limit
            notices.append(
                f"{limit} results limit reached. Use limit={limit * 2} for more, "
                "or refine the pattern"
            )
        shown, trunc = _finish("\n".join(found), notices)
        if trunc["truncated"]:
            details["truncation"] = trunc
        return ToolResult([text(shown)], details)

    return Tool(
        "find",
        "Find files by glob pattern (e.g. '*.py', '**/*.json', 'src/**/test_*.py'). A pattern "
        "without '/' matches file names, one with '/' matches paths relative to the search "
        "directory. Returns relative paths, directories with a trailing '/'. Respects "
        f".gitignore. At most {DEFAULT_FIND_LIMIT} results unless limit is given.",
        params_ref("FindParams"),
        execute,
        label="find",
    )


# --- grep -------------------------------------------------------------------


class _Grep:
    """One search: matching lines with merged context, up to ``limit`` matches."""

    def __init__(self, regex: re.Pattern[str], context: int, limit: int) -> None:
        self.regex = regex
        self.context = context
        self.limit = limit
        self.matches = 0
        self.lines_truncated = False
        self.out: list[str] = []

    @property
    def full(self) -> bool:
        return self.matches >= self.limit

    def search(self, full: str, rel: str) -> None:
        """Stream the file line by line: a huge file or line never sits in memory whole."""
        f = open_regular(full)  # a FIFO or device in the tree is skipped, never read
        if f is None:
            return
        try:
            with f:
                head = f.read(8192)
                if is_binary(head):
                    return
                f.seek(3 if head.startswith(_UTF8_BOM) else 0)  # a BOM is not text
                self.scan(rel, enumerate(_capped_lines(f)))
        except OSError:
            return

    def scan(self, rel: str, lines: Iterable[tuple[int, str]]) -> None:
        """Show the hits among ``(index, text)`` lines, in order, with context.

        ``lines`` may skip lines far from any hit (ripgrep reports only those near
        one); a line is a hit when the regex finds it.
        """
        before: deque[tuple[int, str]] = deque(maxlen=self.context or 1)
        shown_until = -1  # the last line shown
        after_until = -1  # the last line of the last hit's trailing context
        for i, line in lines:
            if not self.full and self.regex.search(line):
                self.matches += 1
                earlier = (
                    [b for b in before if b[0] > shown_until and b[0] >= i - self.context]
                    if self.context
                    else []
                )
                start = earlier[0][0] if earlier else i
                if self.context and self.out and (shown_until < 0 or start > shown_until + 1):
                    self.out.append("--")
                for j, text in earlier:
                    self._show(rel, j, text, "-")
                self._show(rel, i, line, ":")
                shown_until, after_until = i, i + self.context
            elif i <= after_until:
                self._show(rel, i, line, "-")
                shown_until = i
            elif self.full:
                return
            else:
                before.append((i, line))

    def _show(self, rel: str, i: int, text: str, sep: str) -> None:
        line, cut = truncate_line(text.replace("\r", ""))
        self.lines_truncated |= cut
        self.out.append(f"{rel}{sep}{i + 1}{sep} {line}")


def _binary_file(full: str) -> bool:
    """The scan's binary test on a file ripgrep found a match in (unreadable counts too)."""
    f = open_regular(full)
    if f is None:
        return True
    with f:
        try:
            return is_binary(f.read(8192))
        except OSError:
            return True


_UTF8_BOM = b"\xef\xbb\xbf"

#: Bytes of one line that grep searches; the rest of a longer line is skipped unread.
_LINE_CAP = 1024 * 1024


def _capped_lines(f: BinaryIO) -> Iterator[str]:
    """The file's lines without their newline, each cut to ``_LINE_CAP`` bytes."""
    while raw := f.readline(_LINE_CAP):
        if not raw.endswith(b"\n"):
            while (rest := f.readline(_LINE_CAP)) and not rest.endswith(b"\n"):
                pass  # the rest of an overlong line: read in bounded pieces and dropped
        yield raw.removesuffix(b"\n").decode("utf-8", errors="replace")


def _grep(
    root: str,
    glob: str | None,
    search: _Grep,
    signal: asyncio.Event | None,
    hide: HidePath | None,
) -> None:
    if os.path.isfile(root):
        if hide is None or not hide(root):
            search.search(root, os.path.basename(root))
        return
    matches = glob_matcher(glob) if glob is not None else None
    for full, rel, is_dir in walk(root, signal=signal):
        if is_dir or (matches is not None and not matches(rel)):
            continue
        if hide is not None and hide(full):
            continue
        search.search(full, rel)
        if search.full:
            return


def _grep_rg(
    rg: str,
    root: str,
    glob: str | None,
    search: _Grep,
    options: tuple[str, bool, bool],
    signal: asyncio.Event | None,
    hide: HidePath | None,
) -> None:
    """``_grep`` with ripgrep scanning: the walk lists the files (ripgrep's ``--files``
    verdict on the ``.gitignore`` files, as ``find`` takes it; hidden files left out, so
    ripgrep never reads them), ripgrep narrows the lines, ``search`` decides and shows."""
    pattern, ignore_case, literal = options
    matches = glob_matcher(glob) if glob is not None else None
    listed = [
        rel
        for full, rel, is_dir in walk(root, signal=signal, kept=_kept(rg, root, signal))
        if not is_dir and (matches is None or matches(rel)) and (hide is None or not hide(full))
    ]
    files = _ripgrep.search(
        rg,
        root,
        _ripgrep.regular_files(root, listed),
        pattern,
        ignore_case=ignore_case,
        literal=literal,
        context=search.context,
    )
    try:
        for rel, lines in files:
            if signal is not None and signal.is_set():
                return
            full = os.path.join(root, rel)
            if lines is None:  # a line too long for ripgrep's JSON: read it in bounded pieces
                search.search(full, rel)
            elif not _binary_file(full):
                search.scan(rel, ((line.index, line.text) for line in lines))
            if search.full:
                return
    finally:
        files.close()


def create_grep_tool(cwd: str, *, hide: HidePath | None = None, ripgrep: bool = True) -> Tool:
    """The ``grep`` tool for ``cwd``: regex (or literal) search over files.

    ``hide`` skips files (given each one's absolute path); ``ripgrep=False`` keeps
    to the pure-Python walk, where hidden files are never opened.
    """

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        from hookline.tools.params import GrepParams  # pydantic: on first call

        args = parse_arguments("grep", GrepParams, params)
        pattern, path, glob = args.pattern, args.path or ".", args.glob or None
        ignore_case, literal = bool(args.ignore_case), bool(args.literal)
        context = args.context or 0
        limit = args.limit or DEFAULT_GREP_LIMIT
        try:
            regex = re.compile(
                re.escape(pattern) if literal else pattern, re.IGNORECASE if ignore_case else 0
            )
        except re.error as exc:
            raise ToolError(
                f"grep: invalid regex {pattern!r}: {exc}. Fix the pattern, or set literal=true "
                "to search for the text as it is."
            ) from None
        full, outside = existing_dir("grep", cwd, path)
        if glob is not None:
            try:
                glob_matcher(glob)
            except GlobError as exc:
                raise ToolError(f"grep: {exc}. Fix the glob.") from None
        search = _Grep(regex, context, limit)
        rg = _ripgrep.find_ripgrep() if ripgrep and os.path.isdir(full) else None
        try:
            if rg is None:
                raise _ripgrep.RipgrepUnusable("not used")
            options = (pattern, ignore_case, literal)
            await asyncio.to_thread(_grep_rg, rg, full, glob, search, options, signal, hide)
        except _ripgrep.RipgrepUnusable:
            search = _Grep(regex, context, limit)
            await asyncio.to_thread(_grep, full, glob, search, signal, hide)
        details: GrepToolDetails = {"path": full, "outside_cwd": outside}
        if not search.out:
            return ToolResult([text("No matches found")], details)
        notices = []
        if search.full:
            details["match_limit_reached"] = limit
            notices.append(
                f"{limit} matches limit reached. Use limit={limit * 2} for more, "
                "or refine the pattern"
            )
        if search.lines_truncated:
            details["lines_truncated"] = True
            notices.append(
                f"Some lines truncated to {GREP_MAX_LINE_LENGTH} chars. Use read to see them"
            )
        shown, trunc = _finish("\n".join(search.out), notices)
        if trunc["truncated"]:
            details["truncation"] = trunc
        return ToolResult([text(shown)], details)

    return Tool(
        "grep",
        "Search file contents for a regex (Python syntax) or, with literal=true, plain text. "
        "Returns 'path:line: text' for matches and 'path-line- text' for context lines. "
        f"Respects .gitignore; skips binary files. At most {DEFAULT_GREP_LIMIT} matches "
        f"unless limit is given; long lines are cut to {GREP_MAX_LINE_LENGTH} chars.",
        params_ref("GrepParams"),
        execute,
        label="grep",
    )
