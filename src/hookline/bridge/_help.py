"""argparse helpers for the bridge's commands: help without a terminal probe, ``--timeout``."""

from __future__ import annotations

import argparse
import os


class Formatter(argparse.HelpFormatter):
    """argparse's formatter with the width from ``$COLUMNS``: argparse would import shutil
    (and zlib, bz2, lzma) just to ask the terminal, on every start."""

    def __init__(self, prog: str) -> None:
        columns = os.environ.get("COLUMNS", "")
        super().__init__(prog, width=(int(columns) if columns.isdigit() else 80) - 2)


def positive_seconds(text: str) -> float:
    """``--timeout``'s value: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value
