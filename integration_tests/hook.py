"""A settings hook for the integration cases: record stdin, then answer as told.

    python3 hook.py NAME [--exit N] [--stdout TEXT] [--stderr TEXT] [--when-inactive]
                         [--env VAR ...]

Appends the stdin JSON as one line to ``$CLAUDE_PROJECT_DIR/.rec/NAME.jsonl``
(with the hook's cwd, ``CLAUDE_PROJECT_DIR`` and each ``--env`` variable, or
``None`` when unset, under ``"_env"``), prints
``--stdout``, writes ``--stderr`` and exits with ``--exit``. Standard library
only: both agents run it with the system ``python3``.
"""

import argparse
import json
import os
import sys

parser = argparse.ArgumentParser()
parser.add_argument("name")
parser.add_argument("--exit", type=int, default=0)
parser.add_argument("--stdout", default=None)
parser.add_argument("--stderr", default="")
parser.add_argument(
    "--when-inactive",
    action="store_true",
    help="act only when stop_hook_active is false (a Stop hook that blocks once)",
)
parser.add_argument("--env", action="append", default=[], help="also record this variable")
args = parser.parse_args()
data = json.loads(sys.stdin.read() or "{}")
data["_env"] = {"cwd": os.getcwd(), "CLAUDE_PROJECT_DIR": os.environ.get("CLAUDE_PROJECT_DIR")}
data["_env"].update({name: os.environ.get(name) for name in args.env})
project = os.environ["CLAUDE_PROJECT_DIR"]
with open(os.path.join(project, ".rec", args.name + ".jsonl"), "a") as f:
    f.write(json.dumps(data) + "\n")
if args.when_inactive and data.get("stop_hook_active"):
    sys.exit(0)
if args.stdout is not None:
    print(args.stdout)
if args.stderr:
    print(args.stderr, file=sys.stderr)
sys.exit(args.exit)
