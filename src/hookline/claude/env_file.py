"""``CLAUDE_ENV_FILE``: the file SessionStart hooks write ``export NAME=value`` lines to.

hookline does not source the file in a shell; it reads the assignments with
``shlex`` (so quotes work as in sh) and expands ``$NAME``/``${NAME}`` outside
single quotes against the environment plus the names already read, which
covers the usual ``export PATH="$PATH:/opt/bin"``. Lines that are not
assignments (comments, commands) are ignored.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import tempfile
from collections.abc import Mapping
from pathlib import Path

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def new_env_file() -> Path:
    """A fresh empty file for one SessionStart run."""
    fd, name = tempfile.mkstemp(prefix="hookline-env-", suffix=".sh")
    os.close(fd)
    return Path(name)


def _expand(line: str, env: Mapping[str, str]) -> str:
    """Substitute variables outside single quotes, re-quoted so shlex keeps them literal."""
    out: list[str] = []
    i, single, double = 0, False, False
    while i < len(line):
        ch = line[i]
        if ch == "\\" and not single and i + 1 < len(line):
            out.append(line[i : i + 2])
            i += 2
            continue
        if ch == "'" and not double:
            single = not single
        elif ch == '"' and not single:
            double = not double
        elif ch == "$" and not single:
            m = _VAR.match(line, i)
            if m:
                value = env.get(m.group(1) or m.group(2), "")
                if double:
                    out.append(re.sub(r'(["\\$`])', r"\\\1", value))
                else:
                    out.append(shlex.quote(value) if value else "''")
                i = m.end()
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def parse_env_exports(text: str, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables ``export A=1 B="two"`` / ``A=1`` lines set, in file order."""
    env = dict(os.environ if base is None else base)
    found: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            words = shlex.split(_expand(line, env), comments=True)
        except ValueError:
            continue  # unbalanced quotes: not an assignment we can read
        if words and words[0] == "export":
            words = words[1:]
        for word in words:
            name, eq, value = word.partition("=")
            if not eq or not _NAME.fullmatch(name):
                break  # a command, not an assignment list
            found[name] = value
            env[name] = value
    return found


def read_env_file(path: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Parse and delete the file; a missing or unreadable file sets nothing."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
    return parse_env_exports(text, base)
