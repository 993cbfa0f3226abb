"""A settings hook that runs ``hookline claude-hook``, seen from hookline's own agent.

The manual's "same hook in Claude Code" set-up puts a module in
``.hookline/hooks/`` and ``hookline claude-hook`` in ``.claude/settings.json``.
hookline's agent reads both: it loads the module itself and would run it a
second time through the settings hook. ``skip_bridge_duplicates`` recognises
such a command (``hookline claude-hook``, ``python -m hookline claude-hook``,
an absolute path to the ``hookline`` script, with its flags), works out which
modules it would load — as ``claude-hook`` does, without importing them — and
skips the hook when the agent already loaded every one of them.

It never drops a guard: a command it does not fully understand (a shell
construct, a variable, a flag it does not know) runs, and so does one that
would load a module the agent did not load (another ``--hook``, one that
failed to load here: it denies there) — those then run alongside.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

from hookline.claude.config import HookDefinition
from hookline.discovery.sources import discover_hooks
from hookline.settings.models import CommandHookConfig
from hookline.settings.trust import TrustStore

#: Why ``hooks list`` and json mode show such a hook as skipped.
SKIP_REASON = "runs hook modules this agent already loads"

_PYTHON = re.compile(r"python(\d+(\.\d+)?)?")
_PROJECT_DIR = re.compile(r"\$(\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR\b)")


def bridge_arguments(spec: CommandHookConfig, project_dir: str) -> list[str] | None:
    """The words after ``claude-hook`` when ``spec`` runs the bridge and nothing else,
    else ``None`` (``$CLAUDE_PROJECT_DIR`` is the one variable filled in)."""
    if spec.args is not None:  # the exec form: no shell
        words = [spec.command, *spec.args]
    else:
        try:
            words = shlex.split(spec.command, comments=False, posix=True)
        except ValueError:
            return None
    words = [_PROJECT_DIR.sub(lambda _: project_dir, w) for w in words]
    if not words or any("$" in w or "`" in w for w in words):
        return None
    program = os.path.basename(words[0])
    if program == "hookline":
        rest = words[1:]
    elif _PYTHON.fullmatch(program) and words[1:3] in (["-m", "hookline"], ["-m", "hookline.cli"]):
        rest = words[3:]
    else:
        return None
    return rest[1:] if rest[:1] == ["claude-hook"] else None


def bridge_modules(arguments: list[str], project_dir: str) -> list[str] | None:
    """The keys (real paths) of the modules ``claude-hook ARGUMENTS`` would load when
    Claude Code starts it in ``project_dir``; ``None`` for an argument it does not know."""
    paths: list[str] = []
    discover, trust = True, False
    words = iter(arguments)
    for word in words:
        name, eq, value = word.partition("=")
        if name == "--hook":
            path = value if eq else next(words, None)
            if not path:
                return None
            paths.append(path)
        elif word == "--no-discovery":
            discover = False
        elif word == "--trust-project":
            trust = True
        else:
            return None
    trusted = trust or (
        discover
        and os.path.isdir(os.path.join(project_dir, ".hookline"))
        and TrustStore().is_trusted(Path(project_dir))
    )
    found = discover_hooks(
        cli_paths=paths,
        project_dir=project_dir if discover else None,
        project_trusted=trusted,
        cwd=project_dir,
        user=discover,
        packages=discover,
    )
    return [source.key for source in found.sources]


#: Settings ``env`` keys that change which modules ``claude-hook`` finds (the user's
#: folder, installed packages): with one set, what it loads is not worked out here.
_DISCOVERY_ENV = ("HOOKLINE_HOME", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE")


def skip_bridge_duplicates(
    loaded: Collection[str], project_dir: str, settings_env: Mapping[str, str] | None = None
) -> Callable[[HookDefinition], str | None]:
    """For ``HookEngine(skip=...)``: ``SKIP_REASON`` for a command hook that runs
    ``claude-hook`` on modules whose keys are all in ``loaded`` (the agent's), else None.

    ``settings_env`` is the settings ``env`` the hook's process gets: one that moves
    discovery (``HOOKLINE_HOME`` ...) leaves every such hook running."""
    if any(key in (settings_env or {}) for key in _DISCOVERY_ENV):
        return lambda definition: None

    def skip(definition: HookDefinition) -> str | None:
        spec = definition.spec
        if not isinstance(spec, CommandHookConfig) or definition.plugin_root is not None:
            return None
        arguments = bridge_arguments(spec, project_dir)
        if arguments is None:
            return None
        modules = bridge_modules(arguments, project_dir)
        if modules is None or not set(modules) <= set(loaded):
            return None
        return SKIP_REASON

    return skip
