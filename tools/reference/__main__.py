"""``python -m tools.reference`` writes docs/events/; ``--check`` only says whether it is stale."""

from __future__ import annotations

import sys

from tools.reference.build import stale, write


def main(argv: list[str]) -> int:
    if "--check" in argv:
        paths = stale()
        for path in paths:
            print(f"stale: {path} (run: python -m tools.reference)", file=sys.stderr)
        return 1 if paths else 0
    for path in write():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
