"""``find`` through ripgrep's walk answers exactly as the pure-Python walk does.

Every case runs the same tool twice on the same tree, once letting ripgrep walk
(``rg --files``) and once walking in Python, and compares the whole result
(text and details). A spy checks that the ripgrep side really used ripgrep's
list, so a silent fallback cannot pass for agreement. The trees hold what the
two walks could disagree on: hidden files, ``.gitignore`` files at several
levels with negations, anchors, folder-only patterns and ``**``, links (to
files, to folders, broken), FIFOs, empty folders, folders holding only
ignored files, odd names.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from hookline.core.messages import content_text
from hookline.core.tool import ToolError, ToolResult
from hookline.tools import _ripgrep
from hookline.tools.search import create_find_tool, create_grep_tool

pytestmark = pytest.mark.skipif(_ripgrep.find_ripgrep() is None, reason="ripgrep not installed")

FILES = [
    "README.md",
    ".env",
    ".hidden/conf.py",
    ".hidden/deeper/x.py",
    "src/app.py",
    "src/app.pyc",
    "src/util.py",
    "src/data.json",
    "src/gen/out.py",
    "src/gen/keep.py",
    "src/deep/a/b/c.txt",
    "src/deep/a/b/build/artifact.o",
    "src/Build.txt",
    "tests/test_app.py",
    "tests/fixtures/big.bin",
    "tests/fixtures/small.txt",
    "node_modules/pkg/index.js",
    "build/out.txt",
    "docs/build/page.html",
    "logs/a.log",
    "logs/keep.log",
    "keep.log",
    "drop.log",
    "a.b/z.py",
    "a/z.py",
    "only_ignored/x.tmp",
    "anchored/root.txt",
    "sub/anchored/root.txt",
    "deep/one/two/target.md",
    "name with spaces/file [1].txt",
    "ünïcode/ﬁle.py",
    "sub/.gitignore.d/x",
    "[brackets]/x.py",
    "trailing/x.cfg",
    "nested_repo/.git/HEAD",  # a repository inside: the outer .gitignore still applies
    "nested_repo/x.log",
    "nested_repo/y.py",
]

IGNORES = {
    ".gitignore": (
        "# comment\nnode_modules/\n*.log\n!keep.log\n/build/\n*.tmp\n/anchored/\n**/two/\n\n*.pyc\n"
    ),
    "src/.gitignore": "gen/*\n!gen/keep.py\nbuild\n",
    "tests/.gitignore": "fixtures/*.bin\n",
    "logs/.gitignore": "!a.log\n",  # a deeper file overrides: a.log is back, keep.log too
    "trailing/.gitignore": "*.cfg  \n",  # trailing spaces are not part of the pattern
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "t"
    for rel in FILES:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{rel}\n")
    for rel, body in IGNORES.items():
        (root / rel).write_text(body)
    (root / "empty" / "deeper_empty").mkdir(parents=True)
    (root / "link_to_src").symlink_to(root / "src")
    (root / "link_to_app.py").symlink_to(root / "src" / "app.py")
    (root / "broken_link.py").symlink_to(root / "nowhere.py")
    (root / "ignored_link.tmp").symlink_to(root / "README.md")
    os.mkfifo(root / "pipe.py")
    os.mkfifo(root / "src" / "pipe.tmp")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "src" / ".git").write_text("gitdir: elsewhere\n")  # a worktree's .git file
    return root


CASES: list[dict[str, Any]] = [
    {"pattern": "*"},
    {"pattern": "**"},
    {"pattern": "*.py"},
    {"pattern": "*.log"},
    {"pattern": "**/*.txt"},
    {"pattern": "src/**"},
    {"pattern": "src/*"},
    {"pattern": "src/**/*.py"},
    {"pattern": "*.{py,json}"},
    {"pattern": ".*"},
    {"pattern": "build"},
    {"pattern": "empty"},
    {"pattern": "*link*"},
    {"pattern": "pipe*"},
    {"pattern": "[[]brackets]"},
    {"pattern": "*", "path": "src"},
    {"pattern": "*", "path": "tests"},
    {"pattern": "*", "limit": 5},
    {"pattern": "*.py", "limit": 3},
    {"pattern": "nothing matches this"},
]


async def _both(
    root: Path, params: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> tuple[ToolResult, ToolResult, list[str]]:
    """The ripgrep-walked and the Python-walked result, and how the ripgrep side ended."""
    outcomes: list[str] = []
    real = _ripgrep.list_files

    def spy(*args: Any, **kwargs: Any) -> set[str]:
        try:
            files = real(*args, **kwargs)
        except _ripgrep.RipgrepUnusable:
            outcomes.append("fell back")
            raise
        outcomes.append("listed")
        return files

    monkeypatch.setattr(_ripgrep, "list_files", spy)
    fast = await create_find_tool(str(root)).execute("c", dict(params), None, None)
    slow = await create_find_tool(str(root), ripgrep=False).execute("c", dict(params), None, None)
    return fast, slow, outcomes


@pytest.mark.parametrize("params", CASES, ids=[str(c) for c in CASES])
async def test_ripgrep_and_python_walks_agree(
    tree: Path, params: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, slow, outcomes = await _both(tree, params, monkeypatch)
    assert content_text(fast.content) == content_text(slow.content)
    assert fast.details == slow.details
    assert outcomes == ["listed"]  # the ripgrep side did use ripgrep's list


async def test_the_walks_see_what_git_would(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin the shared answer too, so both walks cannot agree on a wrong one."""
    fast, slow, _ = await _both(tree, {"pattern": "*", "limit": 1000}, monkeypatch)
    listed = content_text(fast.content).split("\n")
    assert listed == content_text(slow.content).split("\n")
    for kept in [
        ".env",
        ".hidden/deeper/x.py",
        "keep.log",
        "logs/a.log",
        "logs/keep.log",
        "src/gen/keep.py",
        "docs/build/",  # /build/ is anchored at the root
        "sub/anchored/root.txt",
        "tests/fixtures/small.txt",
        "empty/deeper_empty/",
        "link_to_src/",  # a link to a folder is listed, not entered
        "link_to_app.py",
        "broken_link.py",
        "pipe.py",
        "only_ignored/",
        "ünïcode/ﬁle.py",
        "name with spaces/file [1].txt",
    ]:
        assert kept in listed, kept
    for gone in [
        "node_modules/",
        "drop.log",
        "build/",
        "src/gen/out.py",
        "src/deep/a/b/build/",  # 'build' in src/.gitignore matches at any depth below it
        "anchored/",
        "deep/one/two/",
        "tests/fixtures/big.bin",
        "only_ignored/x.tmp",
        "ignored_link.tmp",
        "src/pipe.tmp",
        "src/app.pyc",
        "trailing/x.cfg",
        ".git/",
        "src/.git",
        "nested_repo/.git/",
        "nested_repo/x.log",
        "link_to_src/app.py",
    ]:
        assert gone not in listed, gone


async def test_a_fifo_named_gitignore_falls_back_instead_of_hanging(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ripgrep waits forever opening a FIFO ignore file; the walk notices and walks in Python."""
    os.mkfifo(tree / "docs" / ".gitignore")
    fast, slow, outcomes = await asyncio.wait_for(_both(tree, {"pattern": "*"}, monkeypatch), 60)
    assert outcomes == ["fell back"]
    assert content_text(fast.content) == content_text(slow.content)
    assert "docs/build/page.html" in content_text(fast.content).split("\n")


async def test_a_stalled_walk_falls_back_where_proc_cannot_tell(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``/proc`` to show the FIFO wait, the stall limit ends the walk."""
    os.mkfifo(tree / ".hidden" / ".gitignore")
    monkeypatch.setattr(_ripgrep, "_waits_on_fifo", lambda pid: False)
    monkeypatch.setattr(_ripgrep, "_STALL", 0.5)
    fast, slow, outcomes = await asyncio.wait_for(_both(tree, {"pattern": "*"}, monkeypatch), 60)
    assert outcomes == ["fell back"]
    assert content_text(fast.content) == content_text(slow.content)


async def test_no_ripgrep_process_outlives_a_fallback(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.mkfifo(tree / "src" / "deep" / ".gitignore")
    pids: list[int] = []
    real_popen = _ripgrep.subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> Any:
        proc = real_popen(*args, **kwargs)
        pids.append(proc.pid)
        return proc

    monkeypatch.setattr(_ripgrep.subprocess, "Popen", popen)
    with pytest.raises(_ripgrep.RipgrepUnusable):
        _ripgrep.list_files(_ripgrep.find_ripgrep() or "rg", str(tree))
    assert len(pids) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(pids[0], os.WNOHANG)  # killed and reaped: no such child any more


async def test_an_aborted_walk_stops_ripgrep(tree: Path) -> None:
    signal = asyncio.Event()
    signal.set()
    with pytest.raises(_ripgrep.RipgrepUnusable, match="aborted"):
        _ripgrep.list_files(_ripgrep.find_ripgrep() or "rg", str(tree), signal=signal)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads unreadable folders")
async def test_an_unreadable_folder_is_listed_not_entered(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tree / "src" / "deep"
    locked.chmod(0)
    try:
        fast, slow, outcomes = await _both(tree, {"pattern": "*"}, monkeypatch)
    finally:
        locked.chmod(0o755)
    assert content_text(fast.content) == content_text(slow.content)
    assert "src/deep/" in content_text(fast.content).split("\n")
    assert outcomes == ["listed"]


async def test_a_folder_ripgrep_cannot_read_is_listed_not_entered(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same as an unreadable folder, for any user: a folder ripgrep lists nothing in
    (here its only file is ignored) is judged by the ``.gitignore`` files in Python."""
    fast, slow, outcomes = await _both(tree, {"pattern": "only_ignored"}, monkeypatch)
    assert content_text(fast.content) == content_text(slow.content) == "only_ignored/"
    assert outcomes == ["listed"]


async def test_non_utf8_and_newline_names_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "odd"
    root.mkdir()
    (root / "line\nbreak.py").write_text("x")
    with open(os.path.join(os.fsencode(root), b"latin\xe9.py"), "w") as f:
        f.write("x")
    (root / ".gitignore").write_text("drop*\n")
    (root / "drop\nme.py").write_text("x")
    fast, slow, outcomes = await _both(root, {"pattern": "*.py"}, monkeypatch)
    assert content_text(fast.content) == content_text(slow.content)
    assert "line\nbreak.py" in content_text(fast.content)
    assert "latin\ufffd.py" in content_text(fast.content)  # shown, never a crash
    assert "drop" not in content_text(fast.content)
    assert outcomes == ["listed"]


async def test_hidden_paths_stay_hidden_on_both_walks(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = str(tree / ".env")
    fast = await create_find_tool(str(tree), hide=lambda p: p == secret).execute(
        "c", {"pattern": ".*"}, None, None
    )
    slow = await create_find_tool(str(tree), hide=lambda p: p == secret, ripgrep=False).execute(
        "c", {"pattern": ".*"}, None, None
    )
    assert content_text(fast.content) == content_text(slow.content)
    assert ".env" not in content_text(fast.content).split("\n")


async def test_a_glob_that_cannot_compile_is_a_clear_error(tree: Path) -> None:
    pattern = "{a,b}" * 12  # 4 096 expansions: past wcmatch's limit
    with pytest.raises(ToolError, match=r"^find: invalid glob"):
        await create_find_tool(str(tree)).execute("c", {"pattern": pattern}, None, None)


GITIGNORE_CASES = [
    "*.py\n",
    "/a.py\n",
    "a/\n",
    "a/b/\n",
    "/a/b\n",
    "**/b\n",
    "a/**\n",
    "a/**/c.txt\n",
    "**/x/**/*.md\n",
    "*\n!*.md\n!*/\n",
    "*\n!/a/\n",
    "[a-b]*\n",
    "[!a]*.txt\n",
    "?.py\n",
    "\\#hash.txt\n",
    "\\!bang.txt\n",
    "sp\\ ace.txt\n",
    "trail.txt   \n",
    "*.txt\r\n!keep.txt\r\n",
    "d*/\n",
    "a/b/c.txt\n!a/b/c.txt\n",
    "A.PY\n",
    "**\n!**/*.md\n",
    "x/\n!x/y/\n",
    "\\\n[z-a]\nb/\n",  # lines git cannot parse are skipped, the rest still applies
    # the last match wins across a plain name, a *.ext and any other glob:
    "*.txt\n!keep.txt\nk*.txt\n",
    "k*.txt\n!keep.txt\n",
    "keep.txt\n!*.txt\n",
    "!keep.txt\n*.txt\n",
    "*.md\n!c/x/\n",
]

PLAIN = [
    "a.py",
    "b.py",
    "a/b/c.txt",
    "a/b/d.md",
    "a/e.py",
    "b/c.txt",
    "c/b",
    "c/x/y/z.md",
    "d1/keep.txt",
    "d2/f.txt",
    "x/y/z.txt",
    "x/w.txt",
    "#hash.txt",
    "!bang.txt",
    "sp ace.txt",
    "trail.txt",
    "keep.txt",
    "A.py",
    ".dot/a.py",
]


@pytest.mark.parametrize("body", GITIGNORE_CASES)
async def test_gitignore_patterns_agree(
    tmp_path: Path, body: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for rel in PLAIN:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    (tmp_path / ".gitignore").write_bytes(body.encode())
    (tmp_path / "c" / ".gitignore").write_bytes(body.encode())  # the same rules one level down
    fast, slow, outcomes = await _both(tmp_path, {"pattern": "*"}, monkeypatch)
    assert content_text(fast.content) == content_text(slow.content)
    assert outcomes == ["listed"]


@pytest.mark.parametrize("body", [*GITIGNORE_CASES[:8], "*\n!*.md\n!*/\n", "x/\n!x/y/\n"])
async def test_grep_takes_the_same_list(
    tmp_path: Path, body: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """grep's ripgrep side lists files through ``rg --files`` too, with the same answers."""
    for rel in PLAIN:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x marks\n")
    (tmp_path / ".gitignore").write_text(body)
    listed: list[int] = []
    real = _ripgrep.list_files

    def spy(*args: Any, **kwargs: Any) -> set[str]:
        files = real(*args, **kwargs)
        listed.append(len(files))
        return files

    monkeypatch.setattr(_ripgrep, "list_files", spy)
    params = {"pattern": "marks"}
    fast = await create_grep_tool(str(tmp_path)).execute("c", dict(params), None, None)
    slow = await create_grep_tool(str(tmp_path), ripgrep=False).execute("c", params, None, None)
    assert content_text(fast.content) == content_text(slow.content)
    assert fast.details == slow.details
    assert len(listed) == 1


async def test_grep_with_a_fifo_gitignore_falls_back_instead_of_hanging(tree: Path) -> None:
    os.mkfifo(tree / "src" / "deep" / ".gitignore")
    params = {"pattern": "src"}
    fast = await asyncio.wait_for(
        create_grep_tool(str(tree)).execute("c", dict(params), None, None), 60
    )
    slow = await create_grep_tool(str(tree), ripgrep=False).execute("c", params, None, None)
    assert content_text(fast.content) == content_text(slow.content)
    assert "src/deep/a/b/c.txt:1: src/deep/a/b/c.txt" in content_text(fast.content)
