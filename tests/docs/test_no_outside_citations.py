"""No source, test, example or doc cites a document that is not in the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Written in two parts so this file does not match itself.
_OUTSIDE = re.compile("|".join([r"\.\./" + "shared", "se" + r"eds/", "DESIGN" + r"\.md"]))
#: A document cited as a reference: "see X.md", "X.md §3", "X.md, section 2".
_MD_NAME = re.compile(r"\bsee\s+`?([\w./-]+\.md)\b|\b([\w./-]+\.md)`?\s*(?:§|,?\s+section\b)", re.I)
#: This folder's tests hold sample citations and links on purpose.
_SELF = Path(__file__).resolve().parent


def _files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [
        ROOT / f
        for f in listed
        if f.endswith((".py", ".md", ".toml", ".yml", ".yaml", ".json", ".sh")) or f == "Makefile"
    ]


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _problems(files: list[Path], present: set[str]) -> list[str]:
    out = []
    for path in files:
        if not path.is_file() or path.resolve().parent == _SELF:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in _OUTSIDE.finditer(text):
            out.append(f"{_shown(path)}: cites {m.group(0)!r}")
        for found in _MD_NAME.finditer(text):
            name = Path(found.group(1) or found.group(2)).name
            if name not in present:
                out.append(f"{_shown(path)}: cites {name}, not in the repository")
    return out


def test_no_file_cites_a_document_outside_the_repository() -> None:
    files = _files()
    present = {p.name for p in files}
    assert _problems(files, present) == []


def test_the_check_finds_a_citation(tmp_path: Path) -> None:
    bad = tmp_path / "probe.py"
    try:
        bad.write_text("# see " + "DESIGN" + ".md; see NOTES.md; PLAN.md § 2; writes OUT.md\n")
        problems = _problems([bad], {"README.md"})
    finally:
        bad.unlink()
    assert len(problems) == 4
