"""Build the reference's pages in memory, write them, or list those on disk that differ."""

from __future__ import annotations

from pathlib import Path

from tools.reference.facts import ROOT, all_events
from tools.reference.render import pages

DOCS = ROOT / "docs"


def build() -> dict[Path, str]:
    return {DOCS / name: text for name, text in pages(all_events()).items()}


def stale() -> list[Path]:
    """The generated pages whose file is missing or differs from what the code says."""
    return [
        path
        for path, text in build().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def write() -> list[Path]:
    written = []
    for path, text in build().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
