"""``hookline.shell.parse_command`` next to its floor, the bare tree-sitter parse of the same text.

For each line, both are timed in rounds that alternate which goes first, with
the garbage collector off for both (best round kept); the ratio shows what
the walk over the tree (words, wrappers, redirections) adds to the parse.
Nothing here asserts a time.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import tree_sitter_bash
from tree_sitter import Language, Parser

from hookline.shell import parse_command

LINES = {
    "one-liner": 'git commit -m "x" && npm test',
    "sudo + substitution": 'FOO=1 sudo rm -rf -- "/x" && echo $(rm -rf /y)',
    "wrappers + bash -c": "timeout 5 sudo -u root env A=1 bash -c 'cd /tmp && rm -rf x'",
}
ITERATIONS = 3_000
ROUNDS = 7


def _round_us(body: Callable[[], object]) -> float:
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(ITERATIONS):
            body()
        return (time.perf_counter() - start) / ITERATIONS * 1e6
    finally:
        if gc_was_enabled:
            gc.enable()


def _compare(text: str) -> tuple[float, float]:
    """Best-of-``ROUNDS`` µs per call: (tree-sitter parse, parse_command)."""
    parser = Parser(Language(tree_sitter_bash.language()))
    data = text.encode()

    def floor() -> object:
        return parser.parse(data)

    def ours() -> object:
        return parse_command(text)

    for _ in range(200):
        floor()
        ours()
    best_floor = best_ours = float("inf")
    for index in range(ROUNDS):
        if index % 2:
            best_ours = min(best_ours, _round_us(ours))
            best_floor = min(best_floor, _round_us(floor))
        else:
            best_floor = min(best_floor, _round_us(floor))
            best_ours = min(best_ours, _round_us(ours))
    return best_floor, best_ours


def main() -> None:
    print(f"{'line':<22} {'tree-sitter':>12} {'parse_command':>14} {'ratio':>7}  text")
    for label, text in LINES.items():
        floor, ours = _compare(text)
        print(f"{label:<22} {floor:>10.1f}µs {ours:>12.1f}µs {ours / floor:>6.1f}x  {text}")
    print("tree-sitter = Parser.parse(bytes) alone; parse_command = parse + the walk")


if __name__ == "__main__":
    main()
