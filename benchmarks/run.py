"""Run every ``benchmarks/bench_*.py`` module's ``main()`` in one process, in name order.

Each module prints its own table: hookline side by side with the floor or a
peer measured in the same run, and the ratio. Nothing here asserts a time.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    only = set(sys.argv[1:])
    for path in sorted(HERE.glob("bench_*.py")):
        if only and path.stem.removeprefix("bench_") not in only:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"\n== {path.stem} ==", flush=True)
        module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
