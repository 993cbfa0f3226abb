"""Helpers for the bridge's commands: help without a terminal probe, ``--timeout`` and
``--workers`` values, and ``hookline serve``'s lines on stderr."""

from __future__ import annotations

import argparse
import os
import sys


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


def positive_int(text: str) -> int:
    """``--workers``' value: a whole number above zero."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def say(text: str) -> None:
    """A line of ``hookline serve`` on stderr, where its operator reads: one write, so the
    lines of several workers never interleave."""
    sys.stderr.write(f"hookline serve: {text}\n")
    sys.stderr.flush()
