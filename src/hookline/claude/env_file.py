"""``CLAUDE_ENV_FILE``: a script hooks write to, sourced so its exports reach later commands.

Claude Code hands ``SessionStart`` (and ``Setup``, ``CwdChanged``,
``FileChanged``) hooks the path of an empty file; what the hooks append is a
shell script (``export A=1``, ``source ~/.nvm/nvm.sh``, ``eval "$(direnv
export bash)"``). hookline sources it the way Claude does: a shell (bash, else
sh) with the hooks' environment and working folder runs ``. FILE`` and the
variables exported afterwards that differ from before are the session's
exports; they reach later bash tool calls and ``!command`` lines, not later
hooks (as in Claude Code). A script that fails,
hangs (it is killed after ``SOURCE_TIMEOUT``) or exits early exports
nothing it had not exported yet; unset variables are not carried.

``parse_env_exports`` reads plain ``export NAME=value`` lines without a
shell; it stays for callers that only have the text.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import tempfile
from collections.abc import Mapping
from pathlib import Path

from hookline.core.process import run_process

#: Events whose hooks get a ``CLAUDE_ENV_FILE``.
ENV_FILE_EVENTS: frozenset[str] = frozenset({"Setup", "SessionStart", "CwdChanged", "FileChanged"})
#: How long sourcing the file may take (seconds).
SOURCE_TIMEOUT = 30.0
#: Variables every shell sets for itself: never session exports.
_SHELL_OWN = frozenset({"_", "SHLVL", "PWD", "OLDPWD", "CLAUDE_ENV_FILE"})
_MARK = "hookline-env:"
# The environment after sourcing, NUL-separated, from ``env`` found on the
# system's default PATH (a PATH the script changed cannot hide it); the marker
# keeps the script's own output (sent to /dev/null anyway) apart.
_SOURCE = '. "$1" >/dev/null 2>&1 </dev/null; printf %s "$2"; command -p env -0'

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def new_env_file() -> Path:
    """A fresh empty file for one event run."""
    fd, name = tempfile.mkstemp(prefix="hookline-env-", suffix=".sh")
    os.close(fd)
    return Path(name)


async def source_env_file(
    path: Path, env: Mapping[str, str], cwd: str, shell: str
) -> dict[str, str]:
    """Source ``path`` with ``shell`` and return the exports it added or changed; deletes it.

    An empty or missing file exports nothing (no shell is started).
    """
    try:
        if not path.read_bytes().strip():
            return {}
        res = await run_process(
            [shell, "-c", _SOURCE, "hookline-env", str(path), _MARK],
            cwd=cwd,
            env=env,
            timeout=SOURCE_TIMEOUT,
        )
    except OSError:
        return {}
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
    _, mark, dumped = res.stdout.partition(_MARK)
    if not mark or res.code != 0:
        return {}
    after = dict(item.partition("=")[::2] for item in dumped.split("\0") if "=" in item)
    return {k: v for k, v in after.items() if k not in _SHELL_OWN and env.get(k) != v}


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
    """The variables ``export A=1 B="two"`` / ``A=1`` lines set, in file order (no shell)."""
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
    """Parse (without a shell) and delete the file; a missing or unreadable file sets nothing."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
    return parse_env_exports(text, base)
