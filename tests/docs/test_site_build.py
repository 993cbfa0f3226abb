"""The site builds strictly (``make docs``): a broken ``:::`` reference, a page missing
from the nav or a link MkDocs cannot resolve fails here, not only on the maintainer's
machine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mkdocs_builds_the_site_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocstrings", reason="the docs extra is not installed")
    site = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert built.returncode == 0, built.stderr[-4000:]
    for page in ("events/tool/index.html", "events/settings/index.html", "api/index.html"):
        assert (site / page).is_file(), page
    api = (site / "api/index.html").read_text(encoding="utf-8")
    assert "register_command" in api and "notify" in api  # the docstrings were rendered
