"""``parse_command`` never raises on junk: random printable text, shell-ish fragments, odd bytes.

A fixed seed keeps failures reproducible. No time is asserted; the length cap
and depth limits are checked in test_shell_parse.py.
"""

from __future__ import annotations

import random
import string

import pytest

from hookline.shell import ParsedCommandLine, SimpleCommand, parse_command

FRAGMENTS = [
    "rm",
    "-rf",
    "/",
    "$(",
    ")",
    "`",
    "'",
    '"',
    "\\",
    "\n",
    ";",
    "&&",
    "||",
    "|",
    "&",
    "<",
    ">",
    ">>",
    "<<",
    "<<<",
    "EOF",
    "{",
    "}",
    "(",
    ")",
    "[[",
    "]]",
    "$((",
    "))",
    "${",
    ":-",
    "if",
    "then",
    "fi",
    "for",
    "in",
    "do",
    "done",
    "case",
    "esac",
    ";;",
    "sudo",
    "env",
    "A=1",
    "bash",
    "-c",
    "eval",
    "xargs",
    "find",
    "-exec",
    "{}",
    "\\;",
    "$'\\x72'",
    "*",
    "?",
    "~",
    "#",
    " ",
    "\t",
    "é",
    "\u202e",
    "\x00",
    "\udc80",
]


def _check(result: ParsedCommandLine, text: str) -> None:
    assert isinstance(result, ParsedCommandLine)
    for command in result.commands:
        assert isinstance(command, SimpleCommand)
        start, end = command.span
        assert 0 <= start <= end <= len(text)
        assert len(command.dynamic_words) == len(command.argv)
        assert command.program == (command.argv[0] if command.argv else "")
    assert result.unparsable == bool(result.problems)


@pytest.mark.parametrize("seed", range(4))
def test_random_printable_text_never_raises(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = string.printable
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))
        _check(parse_command(text), text)


@pytest.mark.parametrize("seed", range(4))
def test_random_shell_fragments_never_raise(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(400):
        text = " ".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(0, 40)))
        _check(parse_command(text), text)


def test_lone_surrogates_and_nul_bytes_are_handled() -> None:
    for text in ("echo \udc80; rm x", "rm \x00 x", "echo \ud800\udc00"):
        result = parse_command(text)
        _check(result, text)
