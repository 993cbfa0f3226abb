"""ls, find and grep (the pure-Python implementation; no rg or fd involved)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookline.core.messages import content_text
from hookline.core.tool import ToolError, ToolResult
from hookline.tools._walk import glob_matches, walk
from hookline.tools.search import create_find_tool, create_grep_tool, create_ls_tool


async def ls(cwd: Path, **params: Any) -> ToolResult:
    return await create_ls_tool(str(cwd)).execute("c", params, None, None)


async def find(cwd: Path, **params: Any) -> ToolResult:
    return await create_find_tool(str(cwd)).execute("c", params, None, None)


async def grep(cwd: Path, **params: Any) -> ToolResult:
    return await create_grep_tool(str(cwd)).execute("c", params, None, None)


@pytest.fixture
def tree(project: Path) -> Path:
    files = {
        "README.md": "Hello world\n",
        "src/app.py": "import os\n\ndef main():\n    print('hello')\n    return 0\n",
        "src/util.py": "def helper():\n    return 'HELLO'\n",
        "src/data.json": '{"hello": 1}\n',
        "tests/test_app.py": "from app import main\n",
        "node_modules/pkg/index.js": "hello from deps\n",
        "build.log": "hello log\n",
        "keep.log": "hello kept\n",
        ".hidden/conf.py": "hello = 1\n",
    }
    for rel, body in files.items():
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    (project / ".gitignore").write_text("node_modules/\n*.log\n!keep.log\n")
    (project / "bin.dat").write_bytes(b"hello\x00binary")
    return project


# --- glob ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.py", "src/app.py", True),
        ("*.py", "app.pyc", False),
        ("src/*.py", "src/app.py", True),
        ("src/*.py", "src/sub/app.py", False),
        ("src/**/*.py", "src/sub/deep/app.py", True),
        ("**/*.json", "data.json", True),
        ("*.{js,ts}", "a/b.ts", True),
        ("test_?.py", "test_a.py", True),
        ("[ab].txt", "c.txt", False),
        ("[!ab].txt", "c.txt", True),
        ("*", ".hidden", True),  # dotfiles are searched
        ("src/", "src", True),  # a trailing slash is dropped
        ("src/**", "src", False),  # ** under a folder: what is inside it
        ("src/**", "src/a/b.py", True),
        ("*.py", "a.py\n", False),  # no end-of-line slack
        ("{a,b/c}", "b/c", True),
        ("\\*", "*", True),
        ("*.PY", "a.py", False),
    ],
)
def test_glob(pattern: str, path: str, matches: bool) -> None:
    assert glob_matches(pattern, path) is matches


# --- .gitignore (the pure-Python walk) -------------------------------------------


@pytest.mark.parametrize(
    ("gitignore", "nested", "kept"),
    [
        # everything but Markdown: folders re-included so their files are looked at
        ("*\n!*.md\n!*/\n", "", ["a/", "a/b/", "a/b/d.md", "c/", "c/x.md", "top.md"]),
        # a deeper file overrides a shallower one, both ways
        ("*.md\n", "!x.md\n", ["a/", "a/b/", "a/b/e.py", "c/", "c/.gitignore", "c/x.md"]),
        ("", "*.md\n", ["a/", "a/b/", "a/b/d.md", "a/b/e.py", "c/", "c/.gitignore", "top.md"]),
        # the last match wins across a name, a *.ext and any other glob
        ("*.md\n!top.md\nt*.md\n", "", ["a/", "a/b/", "a/b/e.py", "c/"]),
        ("t*.md\n!top.md\n", "", ["a/", "a/b/", "a/b/d.md", "a/b/e.py", "c/", "c/x.md", "top.md"]),
        # anchored, folder-only, ** in the middle
        ("/b/\nb\n", "", ["a/", "c/", "c/x.md", "top.md"]),
        ("/b/\n", "", ["a/", "a/b/", "a/b/d.md", "a/b/e.py", "c/", "c/x.md", "top.md"]),
        ("a/**/e.py\ne.py/\n", "", ["a/", "a/b/", "a/b/d.md", "c/", "c/x.md", "top.md"]),
    ],
)
def test_gitignore_semantics(tmp_path: Path, gitignore: str, nested: str, kept: list[str]) -> None:
    root = tmp_path / "t"
    for rel in ["a/b/d.md", "a/b/e.py", "c/x.md", "top.md"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x")
    (root / ".gitignore").write_text(gitignore)
    if nested:
        (root / "c" / ".gitignore").write_text(nested)
    listed = [rel + "/" if is_dir else rel for _, rel, is_dir in walk(str(root))]
    assert [rel for rel in listed if rel != ".gitignore"] == kept


# --- ls -------------------------------------------------------------------------


async def test_ls_sorted_with_dirs_and_dotfiles(tree: Path) -> None:
    result = await ls(tree)
    assert content_text(result.content).split("\n") == [
        ".gitignore",
        ".hidden/",
        "bin.dat",
        "build.log",
        "keep.log",
        "node_modules/",
        "README.md",
        "src/",
        "tests/",
    ]
    assert result.details == {"path": str(tree), "outside_cwd": False}


async def test_ls_limit(tree: Path) -> None:
    result = await ls(tree, path="src", limit=2)
    assert content_text(result.content) == (
        "app.py\ndata.json\n\n[2 entries limit reached. Use limit=4 for more]"
    )
    assert result.details["entry_limit_reached"] == 2


async def test_ls_empty_directory(project: Path) -> None:
    (project / "e").mkdir()
    assert content_text((await ls(project, path="e")).content) == "(empty directory)"


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"path": "nope"}, "path not found: nope"),
        ({"path": "README.md"}, "README.md is not a directory. Use read"),
        ({"limit": 0}, "'limit' must be an integer >= 1"),
        ({"path": 5}, "'path' must be a string"),
    ],
)
async def test_ls_errors(tree: Path, params: dict[str, Any], needle: str) -> None:
    with pytest.raises(ToolError, match=r"^ls: ") as info:
        await ls(tree, **params)
    assert needle in str(info.value)


# --- find -------------------------------------------------------------------


async def test_find_by_name_respects_gitignore(tree: Path) -> None:
    result = await find(tree, pattern="*.py")
    assert content_text(result.content).split("\n") == [
        ".hidden/conf.py",
        "src/app.py",
        "src/util.py",
        "tests/test_app.py",
    ]
    logs = await find(tree, pattern="*.log")
    assert content_text(logs.content) == "keep.log"  # build.log ignored, keep.log negated back


async def test_find_with_path_pattern_and_directory(tree: Path) -> None:
    result = await find(tree, pattern="**/*.json", path="src")
    assert content_text(result.content) == "data.json"
    dirs = await find(tree, pattern="src")
    assert content_text(dirs.content) == "src/"


async def test_find_limit_and_no_results(tree: Path) -> None:
    result = await find(tree, pattern="*", limit=3)
    text = content_text(result.content)
    assert len(text.split("\n\n")[0].split("\n")) == 3
    assert "[3 results limit reached. Use limit=6 for more" in text
    assert result.details["result_limit_reached"] == 3
    none = await find(tree, pattern="*.rs")
    assert content_text(none.content) == "No files found matching pattern"


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({}, "missing required parameter 'pattern'"),
        ({"pattern": "*", "path": "README.md"}, "README.md is a file"),
        ({"pattern": "*", "path": "gone"}, "path not found: gone"),
        ({"pattern": "*", "limit": 1.5}, "'limit' must be an integer"),
    ],
)
async def test_find_errors(tree: Path, params: dict[str, Any], needle: str) -> None:
    with pytest.raises(ToolError, match=r"^find: ") as info:
        await find(tree, **params)
    assert needle in str(info.value)


# --- grep -------------------------------------------------------------------


async def test_grep_regex_skips_ignored_and_binary(tree: Path) -> None:
    result = await grep(tree, pattern="hel+o")
    assert content_text(result.content).split("\n") == [
        ".hidden/conf.py:1: hello = 1",
        "keep.log:1: hello kept",
        "src/app.py:4:     print('hello')",
        'src/data.json:1: {"hello": 1}',
    ]
    assert result.details == {"path": str(tree), "outside_cwd": False}


async def test_grep_context_merges_groups_and_marks_gaps(project: Path) -> None:
    (project / "f.txt").write_text("a\nx\nx\nx\na\nx\na\nx\nx\n")
    result = await grep(project, pattern="a", path="f.txt", context=1, limit=2)
    assert content_text(result.content).split("\n")[:6] == [
        "f.txt:1: a",
        "f.txt-2- x",
        "--",
        "f.txt-4- x",
        "f.txt:5: a",
        "f.txt-6- x",  # the limit stops at the second match; its trailing context still shows
    ]
    result = await grep(project, pattern="a", path="f.txt", context=1)
    assert content_text(result.content).split("\n")[4:] == [
        "f.txt:5: a",
        "f.txt-6- x",
        "f.txt:7: a",
        "f.txt-8- x",
    ]


async def test_grep_ignore_case_glob_and_file_path(tree: Path) -> None:
    result = await grep(tree, pattern="hello", ignoreCase=True, glob="*.py", path="src")
    assert (
        content_text(result.content)
        == "app.py:4:     print('hello')\nutil.py:2:     return 'HELLO'"
    )
    one = await grep(tree, pattern="world", path="README.md")
    assert content_text(one.content) == "README.md:1: Hello world"


async def test_grep_literal(tree: Path) -> None:
    (tree / "re.txt").write_text("a.b\naxb\n")
    result = await grep(tree, pattern="a.b", literal=True, path="re.txt")
    assert content_text(result.content) == "re.txt:1: a.b"


async def test_grep_context_merges_and_separates(project: Path) -> None:
    (project / "f.txt").write_text("".join(f"l{i}\n" for i in range(1, 21)))
    result = await grep(project, pattern="^l(3|4|10)$", context=1)
    assert content_text(result.content).split("\n") == [
        "f.txt-2- l2",
        "f.txt:3: l3",
        "f.txt:4: l4",
        "f.txt-5- l5",
        "--",
        "f.txt-9- l9",
        "f.txt:10: l10",
        "f.txt-11- l11",
    ]


async def test_grep_limit_and_long_lines(project: Path) -> None:
    (project / "m.txt").write_text("match\n" * 10 + "match " + "z" * 600 + "\n")
    limited = await grep(project, pattern="match", limit=3)
    text = content_text(limited.content)
    assert text.count("m.txt:") == 3 and "[3 matches limit reached. Use limit=6" in text
    assert limited.details["match_limit_reached"] == 3
    long = await grep(project, pattern="z{600}")
    assert "... [truncated]" in content_text(long.content)
    assert long.details["lines_truncated"] is True
    assert "Some lines truncated to 500 chars" in content_text(long.content)


async def test_grep_output_truncated_by_bytes(project: Path) -> None:
    (project / "w.txt").write_text(("w" * 400 + "\n") * 400)
    result = await grep(project, pattern="w", limit=1000)
    t = result.details["truncation"]
    assert t["truncated_by"] == "bytes" and t["total_lines"] == 400
    assert "50.0KB output limit reached" in content_text(result.content)


async def test_grep_no_matches(tree: Path) -> None:
    result = await grep(tree, pattern="nothing-like-this")
    assert content_text(result.content) == "No matches found"


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"pattern": "("}, "invalid regex '('"),
        ({"pattern": "x", "ignoreCase": "yes"}, "'ignoreCase' must be true or false"),
        ({"pattern": "x", "context": -1}, "'context' must be an integer >= 0"),
        ({"pattern": "x", "path": "nope"}, "path not found: nope"),
        ({}, "missing required parameter 'pattern'"),
    ],
)
async def test_grep_errors(tree: Path, params: dict[str, Any], needle: str) -> None:
    with pytest.raises(ToolError, match=r"^grep: ") as info:
        await grep(tree, **params)
    assert needle in str(info.value)
