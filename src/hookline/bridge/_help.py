"""Help formatting for the bridge's commands, without argparse's terminal probe."""

from __future__ import annotations

import argparse
import os


class Formatter(argparse.HelpFormatter):
    """argparse's formatter with the width from ``$COLUMNS``: argparse would import shutil
    (and zlib, bz2, lzma) just to ask the terminal, on every start."""

    def __init__(self, prog: str) -> None:
        columns = os.environ.get("COLUMNS", "")
        super().__init__(prog, width=(int(columns) if columns.isdigit() else 80) - 2)
