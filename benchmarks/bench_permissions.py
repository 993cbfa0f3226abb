"""The permission decision for a one-line bash command, next to the bare parse.

A typical line (``git commit -m "x" && npm test``) checked against a 20-rule
settings file read from disk: ``check_permission`` parses the line into
simple commands (:mod:`hookline.shell`) and matches every rule. Beside it,
the floor: tree-sitter-bash parsing the same text and nothing else, and
``hookline.shell.parse_command`` alone (the split into commands). They are
measured in alternating rounds with the garbage collector in the same state;
the target is a decision in at most 100 µs. Nothing here asserts a time.
"""

from __future__ import annotations

import gc
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import tree_sitter_bash
from tree_sitter import Language, Parser

from hookline.agent.permissions import PermissionRules, check_permission
from hookline.settings import load_settings
from hookline.shell import parse_command

LINE = 'git commit -m "x" && npm test'
ITERATIONS = 2_000
ROUNDS = 7
TARGET_US = 100.0

SETTINGS = {
    "permissions": {
        "allow": [
            "Bash(git status)",
            "Bash(git diff *)",
            "Bash(git commit *)",
            "Bash(git log:*)",
            "Bash(npm test)",
            "Bash(npm run *)",
            "Bash(ls *)",
            "Read(./src/**)",
            "Edit(src/**/*.py)",
            "mcp__github__get_*",
        ],
        "deny": [
            "Bash(curl:*)",
            "Bash(rm -rf *)",
            "Bash(git push --force *)",
            "Read(./.env)",
            "Read(~/.ssh/**)",
            "Edit(//etc/**)",
        ],
        "ask": [
            "Bash(git push *)",
            "Bash(npm publish *)",
            "Edit(/.github/**)",
            "WebFetch(domain:example.com)",
        ],
    }
}


def _best_us(body: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter_ns()
        for _ in range(ITERATIONS):
            body()
        best = min(best, (time.perf_counter_ns() - start) / ITERATIONS / 1000)
    return best


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.json").write_text(json.dumps(SETTINGS))
        rules = PermissionRules.from_settings(load_settings(project))
        assert len(rules.allow) + len(rules.deny) + len(rules.ask) == 20
        cwd = str(project)
        parser = Parser(Language(tree_sitter_bash.language()))
        data = LINE.encode()

        def decide() -> object:
            return check_permission("default", rules, "bash", {"command": LINE}, cwd)

        def parse() -> object:
            return parser.parse(data)

        def commands() -> object:
            return parse_command(LINE)

        check = check_permission("default", rules, "bash", {"command": LINE}, cwd)
        assert check.decision == "allow", check
        cases = [("decide", decide), ("parse", parse), ("commands", commands)]
        for _, fn in cases:  # warm up
            for _ in range(200):
                fn()
        results: dict[str, list[float]] = {name: [] for name, _ in cases}
        gc.collect()
        gc.disable()  # the same for both: no collection inside a timed round
        try:
            for i in range(4):
                for name, fn in cases if i % 2 == 0 else reversed(cases):
                    results[name].append(_best_us(fn))
        finally:
            gc.enable()
    decision, floor = min(results["decide"]), min(results["parse"])
    split = min(results["commands"])
    print(
        f"line: {LINE!r}, {len(SETTINGS['permissions']['allow'])} allow / "
        f"{len(SETTINGS['permissions']['deny'])} deny / "
        f"{len(SETTINGS['permissions']['ask'])} ask rules → {check.decision}"
    )
    print(f"{'case':<40} {'µs':>9} {'ratio':>8}")
    print(f"{'tree-sitter parse only (floor)':<40} {floor:>9.1f} {1.0:>7.1f}x")
    print(f"{'hookline.shell.parse_command':<40} {split:>9.1f} {split / floor:>7.1f}x")
    print(
        f"{'permission decision (parse + 20 rules)':<40} {decision:>9.1f} {decision / floor:>7.1f}x"
    )
    verdict = "within" if decision <= TARGET_US else "OVER"
    print(f"target ≤ {TARGET_US:.0f} µs per decision: {verdict}")


if __name__ == "__main__":
    main()
