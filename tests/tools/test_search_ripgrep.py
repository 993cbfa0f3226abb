"""``grep`` through ripgrep answers exactly as the pure-Python scan does.

Every case runs the same tool twice on the same tree, once with ripgrep and once
without, and compares the whole result (text and details). A spy checks that the
ripgrep side really ran ripgrep, so a silent fallback cannot pass for agreement.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from hookline.core.messages import content_text
from hookline.tools import _ripgrep
from hookline.tools.search import create_grep_tool

pytestmark = pytest.mark.skipif(_ripgrep.find_ripgrep() is None, reason="ripgrep not installed")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    files = {
        "README.md": "Hello world\nhello again\n",
        "src/app.py": "import os\n\ndef main():\n    print('hello')\n    return 0\n" * 3,
        "src/util.py": "def helper():\n    return 'HELLO'\n",
        "src/deep/a/b/c.txt": "\n".join(
            f"row {i} hello" if i % 7 == 0 else f"row {i}" for i in range(60)
        ),
        "src/data.json": '{"hello": 1}\r\n{"bye": 2}\r\n',
        "tests/test_app.py": "from app import main\n# hello.world (a dot)\n",
        "node_modules/pkg/index.js": "hello from deps\n",
        "build.log": "hello log\n",
        "keep.log": "hello kept\n",
        ".hidden/conf.py": "hello = 1\n",
        "a.b/z.py": "hello in a dotted dir\n",
        "a/z.py": "hello in a\n",
        "latin1.txt": "caf\xe9 hello\n",
        "unicode.txt": "naïve héllo Hello\n",
        "late_nul.txt": "hello\n" + "x" * 9000 + "\x00\n",
    }
    for rel, body in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body.encode("latin-1" if rel == "latin1.txt" else "utf-8"))
    (tmp_path / ".gitignore").write_text("node_modules/\n*.log\n!keep.log\n")
    (tmp_path / "bin.dat").write_bytes(b"hello\x00binary")
    (tmp_path / "bom8.txt").write_bytes(b"\xef\xbb\xbfhello bom\n")
    (tmp_path / "bom16.txt").write_bytes("hello wide\n".encode("utf-16"))
    (tmp_path / "huge_line.txt").write_bytes(b"x" * (2 * 1024 * 1024) + b" hello tail\nhello\n")
    return tmp_path


CASES: list[dict[str, Any]] = [
    {"pattern": "hel+o"},
    {"pattern": "hello", "ignoreCase": True},
    {"pattern": "hello.world", "literal": True},
    {"pattern": "hello.world"},
    {"pattern": "hello", "context": 2},
    {"pattern": "row 1[0-9]", "context": 3},
    {"pattern": "hello", "glob": "*.py"},
    {"pattern": "hello", "glob": "src/**/*.txt"},
    {"pattern": "hello", "limit": 3},
    {"pattern": "hello", "limit": 5, "context": 1},
    {"pattern": "hello", "path": "src"},
    {"pattern": r"^\s+print"},
    {"pattern": r"\d+\}$"},
    {"pattern": "caf. hello"},
    {"pattern": "^hello"},
    {"pattern": "^.hello bom"},
    {"pattern": "w.i.d.e"},
    {"pattern": "h(?=ello)"},  # a look-ahead: ripgrep refuses it, Python runs
    {"pattern": r"(l)\1"},  # a back-reference, the same
    {"pattern": "no such text anywhere"},
]


@pytest.mark.parametrize("params", CASES, ids=[str(c) for c in CASES])
async def test_ripgrep_and_pure_python_agree(
    tree: Path, params: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[str] = []
    real = _ripgrep.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        runs.append(args[3])
        return real(*args, **kwargs)

    monkeypatch.setattr(_ripgrep, "search", spy)
    fast = await create_grep_tool(str(tree)).execute("c", dict(params), None, None)
    slow = await create_grep_tool(str(tree), ripgrep=False).execute("c", dict(params), None, None)
    assert content_text(fast.content) == content_text(slow.content)
    assert fast.details == slow.details
    assert runs == [params["pattern"]]  # the ripgrep side did use ripgrep


async def test_hidden_files_are_never_handed_to_ripgrep(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Read-denied file stays unread: ripgrep is given only the files it may read."""
    handed: list[str] = []
    real = _ripgrep.search

    def spy(rg: str, root: str, files: list[str], *args: Any, **kwargs: Any) -> Any:
        handed.extend(files)
        return real(rg, root, files, *args, **kwargs)

    monkeypatch.setattr(_ripgrep, "search", spy)
    secret = str(tree / ".hidden" / "conf.py")
    result = await create_grep_tool(str(tree), hide=lambda p: p == secret).execute(
        "c", {"pattern": "hello"}, None, None
    )
    assert ".hidden/conf.py" not in handed and "src/app.py" in handed
    assert "conf.py" not in content_text(result.content)


async def test_a_fifo_is_never_handed_to_ripgrep(tmp_path: Path) -> None:
    """ripgrep blocks reading a FIFO it is given; the scan passes regular files only."""
    (tmp_path / "a.txt").write_text("needle\n")
    os.mkfifo(tmp_path / "pipe.txt")
    assert _ripgrep.regular_files(str(tmp_path), ["a.txt", "pipe.txt", "gone.txt"]) == ["a.txt"]
    result = await create_grep_tool(str(tmp_path)).execute("c", {"pattern": "needle"}, None, None)
    assert content_text(result.content) == "a.txt:1: needle"
