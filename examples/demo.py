"""`make demo`: a scripted session in print mode through the example hooks.

No API key and no network: the model is a script (examples/demo/script.yaml).
It copies examples/demo/project to a temporary folder, then runs

    hookline -p ... --model scripted:... --hook <example hooks> --trust-project --verbose

and shows what each hook did: a blocked `rm -rf`, a redacted secret, a
Claude-format settings hook blocking `curl | sh` beside the Python hooks, a
chained command refused although an allow rule covers its first part, a
load error reported with its path, and the final answer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
HOOKS = HERE / "hooks"


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="hookline-demo-") as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(HERE / "demo" / "project", project)
        env = {**os.environ, "HOOKLINE_HOME": str(Path(tmp) / "home")}
        for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
            env.pop(key, None)
        command = [
            sys.executable,
            "-m",
            "hookline.cli",
            "-p",
            "Tidy up this project and tell me what its configuration says.",
            "--model",
            f"scripted:{HERE / 'demo' / 'script.yaml'}",
            "--hook",
            str(HOOKS / "permission_gate.py"),
            "--hook",
            str(HOOKS / "api_key_redactor.py"),
            "--hook",
            str(HOOKS / "protected_paths.py"),
            "--hook",
            str(HERE / "demo" / "broken_hook.py"),
            "--cwd",
            str(project),
            "--trust-project",
            "--no-session",
            "--verbose",
        ]
        print(
            "$ hookline -p 'Tidy up this project ...' --model scripted:demo/script.yaml "
            "--hook <examples> --trust-project --verbose\n",
            flush=True,
        )
        done = subprocess.run(command, env=env, stderr=subprocess.STDOUT, check=False)
        print("\n--- after the session ---")
        print(f"build/ still there: {(project / 'build').is_dir()}")
        audit = project / ".claude" / "audit.log"
        entries = len(audit.read_text().splitlines()) if audit.exists() else 0
        print(f"settings-hook audit log entries: {entries}")
        print(f"TIDIED created by `ls && touch TIDIED`: {(project / 'TIDIED').exists()}")
        notes = project / "NOTES.md"
        print(f"NOTES.md: {notes.read_text().strip() if notes.exists() else '(missing)'}")
        return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
