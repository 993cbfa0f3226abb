"""Running one ``command`` hook: shell, env, stdin JSON, timeout, async hand-off.

The command line runs as ``bash -c LINE`` (``sh -c`` when there is no bash;
``"shell": "sh"`` asks for sh, ``"powershell"`` for ``pwsh -Command``). With
``args`` (the exec form) there is no shell: ``command`` is the program
(looked up on the hook's ``PATH``) and ``args`` its arguments, passed as they
are; only ``${CLAUDE_PROJECT_DIR}``, ``${CLAUDE_PLUGIN_ROOT}`` and
``${CLAUDE_PLUGIN_DATA}`` (also without braces) are replaced in them. Either
form runs in a new session through ``core.process.run_process``: a timeout, an abort or
a cancelled caller kills the whole process group. A hook is judged by its own
exit: once its shell has exited, the pipes get a short grace, then its process
group is killed and the output read so far is the verdict, so ``(notify-send
… &); exit 2`` blocks at once. A helper meant to outlive the hook must leave
the group on purpose (``setsid cmd &``); it is then neither waited for nor
killed. ``CLAUDE_CODE_SHELL_PREFIX``
(from the hook's env) is put in front of the line: ``PREFIX LINE``. Output is
bounded (``max_output`` bytes per stream, the rest counted and reported).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shlex
import shutil
import time
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from hookline.claude.async_hooks import AsyncHookRegistry
from hookline.claude.config import HookDefinition
from hookline.claude.outcome import Outcome, new_outcome, outcome_from_exec
from hookline.claude.timeouts import hook_timeout
from hookline.core.process import ExecResult, run_process
from hookline.settings.models import CommandHookConfig

DEFAULT_MAX_OUTPUT = 1024 * 1024
_FIRST_LINE_LIMIT = 64 * 1024

#: Tracks background hooks started without a registry of their own.
default_registry = AsyncHookRegistry()


@lru_cache(maxsize=1)
def default_shell() -> str:
    """bash when installed (Claude hooks are written for it), else sh."""
    return shutil.which("bash") or "/bin/sh"


def _shell_argv(shell: str | None, line: str) -> list[str] | str:
    """The argv of the shell form, or why it cannot run."""
    if shell == "powershell":
        program = shutil.which("pwsh") or shutil.which("powershell")
        if program is None:
            return "powershell hooks need pwsh or powershell on PATH; neither was found"
        return [program, "-NoProfile", "-NonInteractive", "-Command", line]
    if shell == "sh":
        return ["/bin/sh", "-c", line]
    return [default_shell(), "-c", line]


_PLACEHOLDER = re.compile(
    r"\$(?:\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}"
    r"|(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\b)"
)


def _exec_argv(spec: CommandHookConfig, env: Mapping[str, str], cwd: str) -> list[str] | str:
    """The argv of the exec form (no shell), or why it cannot run."""

    def fill(text: str) -> str:
        return _PLACEHOLDER.sub(lambda m: env.get(m.group(1) or m.group(2), ""), text)

    program = fill(spec.command)
    if "/" in program:
        path = program if os.path.isabs(program) else os.path.join(cwd, program)
    else:
        found = shutil.which(program, path=env.get("PATH", os.defpath))
        if found is None:
            return f"command not found on the hook's PATH: {program!r}"
        path = found
    prefix = shlex.split(env.get("CLAUDE_CODE_SHELL_PREFIX", ""))
    return [*prefix, path, *(fill(a) for a in spec.args or ())]


def command_line(command: str, env: Mapping[str, str]) -> str:
    """Apply ``CLAUDE_CODE_SHELL_PREFIX``: ``prefix + " " + command``."""
    prefix = env.get("CLAUDE_CODE_SHELL_PREFIX", "").strip()
    return f"{prefix} {command}" if prefix else command


def hook_env(
    hook: HookDefinition,
    project_dir: str,
    base: Mapping[str, str] | None = None,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Inherited env + ``CLAUDE_PROJECT_DIR``/``HOOKLINE_PROJECT_DIR`` (+ plugin dirs, extras)."""
    env = dict(os.environ if base is None else base)
    env["CLAUDE_PROJECT_DIR"] = project_dir
    env["HOOKLINE_PROJECT_DIR"] = project_dir
    if hook.plugin_root is not None:
        env["CLAUDE_PLUGIN_ROOT"] = str(hook.plugin_root)
    if hook.plugin_data is not None:
        env["CLAUDE_PLUGIN_DATA"] = str(hook.plugin_data)
    if extra:
        env.update(extra)
    return env


class _AsyncLine:
    """Watches stdout for a first line ``{"async": true, ...}`` while the process runs."""

    def __init__(self) -> None:
        self.found: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._buf = b""
        self._decided = False

    def feed(self, data: bytes) -> None:
        if self._decided:
            return
        self._buf += data
        line, nl, _ = self._buf.partition(b"\n")
        if not nl:
            if len(self._buf) > _FIRST_LINE_LIMIT:
                self._decided = True
            return
        self._decided = True
        try:
            obj = json.loads(line)
        except ValueError:
            return
        if isinstance(obj, dict) and obj.get("async") is True and not self.found.done():
            self.found.set_result(obj)


def _budget(obj: dict[str, Any], default: float) -> float:
    """``asyncTimeout`` is milliseconds; invalid or absent → the hook's timeout."""
    value = obj.get("asyncTimeout")
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value) / 1000.0
    return default


async def run_command_hook(
    hook: HookDefinition,
    payload: dict[str, Any],
    *,
    project_dir: str,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    extra_env: Mapping[str, str] | None = None,
    signal: asyncio.Event | None = None,
    max_output: int = DEFAULT_MAX_OUTPUT,
    registry: AsyncHookRegistry | None = None,
    shell: str | None = None,
    timeout: float | None = None,
) -> Outcome:
    """Run ``hook`` with ``payload`` on stdin; always returns an Outcome.

    ``shell`` replaces the default shell of hooks that name none; ``timeout``
    (seconds) defaults to the hook's own or the event's default.
    """
    spec = hook.spec
    assert isinstance(spec, CommandHookConfig)
    full_env = hook_env(hook, project_dir, env, extra_env)
    if timeout is None:
        timeout = hook_timeout(spec, hook.event, full_env)
    workdir = cwd if cwd and Path(cwd).is_dir() else project_dir
    started = time.monotonic()
    if spec.args is not None:
        argv = _exec_argv(spec, full_env, workdir)
    elif spec.shell is None and shell is not None:
        argv = [shell, "-c", command_line(spec.command, full_env)]
    else:
        argv = _shell_argv(spec.shell, command_line(spec.command, full_env))
    if isinstance(argv, str):
        out = new_outcome(hook, "non_blocking_error", argv)
        out.duration = time.monotonic() - started
        return out
    abort = asyncio.Event()
    watch = _AsyncLine()
    if spec.background:
        watch.found.set_result({"async": True})
    process: asyncio.Future[ExecResult] = asyncio.ensure_future(
        run_process(
            argv,
            cwd=workdir,
            env=full_env,
            input=json.dumps(payload).encode(),
            signal=abort,
            max_output=max_output,
            on_stdout=watch.feed,
        )
    )

    def finish(res: ExecResult, cancel: str | None, *, skip: bool = False) -> Outcome:
        return outcome_from_exec(
            hook,
            res,
            duration=time.monotonic() - started,
            cancel_reason=cancel,
            skip_first_line=skip,
        )

    outside = asyncio.ensure_future(signal.wait()) if signal is not None else None
    waiters: set[asyncio.Future[Any]] = {process, watch.found}
    if outside is not None:
        waiters.add(outside)
    try:
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        process.cancel()  # run_process kills the group when cancelled
        with contextlib.suppress(BaseException):
            await process
        raise
    finally:
        if outside is not None:
            outside.cancel()
    if watch.found in done:
        found = watch.found.result()
        task = (registry or default_registry).start(
            hook,
            process,
            abort,
            _budget(found, timeout),
            lambda res, cancel: finish(res, cancel, skip=not spec.background),
        )
        out = new_outcome(hook, "success", f"running in the background as {task.id}")
        out.async_task_id = task.id
        out.duration = time.monotonic() - started
        return out
    watch.found.cancel()
    if process in done:
        return finish(process.result(), None)
    abort.set()
    res = await process
    reason = "hook aborted" if outside is not None and outside in done else None
    return finish(res, reason or f"hook timed out after {timeout:g}s")
