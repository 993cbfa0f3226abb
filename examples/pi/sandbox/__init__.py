"""Sandbox: bash commands run under the kernel's sandbox, configured by a JSON file.

The Python version of pi's sandbox example, on hookline's own sandbox
(``hookline.sandbox``: bubblewrap, a filtering network proxy, seccomp) where pi's uses
Anthropic's sandbox runtime. The ``bash`` tool and the user's ``!commands`` run in it:
writes only where ``filesystem.allowWrite`` says (minus ``denyWrite``), ``denyRead``
paths hidden, network only to ``network.allowedDomains``.

The configuration is the defaults below, merged with ``~/.hookline/sandbox.json`` and
then the project's ``.hookline/sandbox.json`` (each section's keys replace the ones
before)::

    {"enabled": true,
     "network": {"allowedDomains": ["github.com", "*.github.com"], "deniedDomains": []},
     "filesystem": {"denyRead": ["~/.ssh"], "allowWrite": [".", "/tmp"],
                    "denyWrite": [".env"]}}

``--no-sandbox`` turns it off; ``/sandbox-config`` shows it (``/sandbox`` is the terminal
app's own panel for the settings' sandbox). Linux only, with bubblewrap installed.

Run it: ``hookline --hook examples/pi/sandbox``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hookline import (
    HookAPI,
    HookContext,
    ToolResult,
    ToolUpdate,
    UserBashEvent,
    UserBashResult,
    create_bash_tool,
)
from hookline.core.paths import hookline_home
from hookline.core.process import run_process
from hookline.sandbox.config import PathEntry, SandboxConfig, entry_for
from hookline.sandbox.domains import DomainPolicy
from hookline.sandbox.launcher import Sandbox
from hookline.sandbox.network import NetworkProxy
from hookline.sandbox.start import start_sandbox
from hookline.tools.leftovers import ToolLeftovers

DEFAULT_CONFIG: dict[str, Any] = {
    "enabled": True,
    "network": {
        "allowedDomains": [
            "npmjs.org",
            "*.npmjs.org",
            "registry.npmjs.org",
            "registry.yarnpkg.com",
            "pypi.org",
            "*.pypi.org",
            "github.com",
            "*.github.com",
            "api.github.com",
            "raw.githubusercontent.com",
        ],
        "deniedDomains": [],
    },
    "filesystem": {
        "denyRead": ["~/.ssh", "~/.aws", "~/.gnupg"],
        "allowWrite": [".", "/tmp"],
        "denyWrite": [".env", ".env.*", "*.pem", "*.key"],
    },
}


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"Warning: Could not parse {path}: {exc}", file=sys.stderr)
        return {}
    return data if isinstance(data, dict) else {}


def merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """``overrides`` over ``base``: ``enabled`` replaced, each section's keys replaced."""
    merged = {**base}
    if "enabled" in overrides:
        merged["enabled"] = overrides["enabled"]
    for section in ("network", "filesystem"):
        if isinstance(overrides.get(section), dict):
            merged[section] = {**base.get(section, {}), **overrides[section]}
    return merged


def load_config(cwd: str) -> dict[str, Any]:
    merged = merge(DEFAULT_CONFIG, _read(hookline_home() / "sandbox.json"))
    return merge(merged, _read(Path(cwd) / ".hookline" / "sandbox.json"))


def _path_entry(pattern: str, cwd: str) -> PathEntry:
    """A ``denyRead``/``denyWrite`` entry: ``~/x`` and ``/x`` are paths, others match in cwd."""
    full = os.path.expanduser(pattern)
    if os.path.isabs(full):
        return entry_for(pattern, "sandbox.json", "/", full)
    return entry_for(pattern, "sandbox.json", cwd, pattern)


def sandbox_config(config: dict[str, Any], cwd: str) -> SandboxConfig:
    """hookline's ``SandboxConfig`` for the JSON configuration."""
    files, network = config.get("filesystem", {}), config.get("network", {})
    return SandboxConfig(
        enabled=True,
        cwd=cwd,
        working_dirs=(cwd,),
        allow_write=tuple(
            os.path.normpath(os.path.join(cwd, os.path.expanduser(p)))
            for p in files.get("allowWrite", [])
        ),
        deny_write=tuple(_path_entry(p, cwd) for p in files.get("denyWrite", [])),
        deny_read=tuple(_path_entry(p, cwd) for p in files.get("denyRead", [])),
        allowed_domains=tuple(network.get("allowedDomains", [])),
        denied_domains=tuple(network.get("deniedDomains", [])),
        allow_unsandboxed=False,
    )


class SandboxedBash:
    """``BashOperations`` for the user's ``!commands``: each one under the sandbox."""

    def __init__(self, box: Sandbox) -> None:
        self.box = box

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: asyncio.Event | None,
        timeout: float | None,
        env: Mapping[str, str],
    ) -> int | None:
        async with self.box.launch(["bash", "-c", command], cwd=cwd, env=env) as go:
            done = await run_process(
                go.argv,
                cwd=cwd,
                env=go.env,
                timeout=timeout,
                signal=signal,
                max_output=0,
                merge_stderr=True,
                on_stdout=on_data,
                pass_fds=go.pass_fds,
                on_spawn=go.spawned,
            )
        if done.timed_out:
            raise TimeoutError
        return None if done.killed else done.code


def register(pi: HookAPI) -> None:
    pi.register_flag(
        "no-sandbox", type="boolean", default=False, description="Disable sandboxing for bash"
    )
    cwd = os.getcwd()
    leftovers = ToolLeftovers()
    local_bash = create_bash_tool(cwd, leftovers=leftovers)
    box: Sandbox | None = None
    sandboxed = local_bash

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        return await sandboxed.execute(tool_call_id, params, signal, on_update)

    pi.register_tool(dataclasses.replace(local_bash, execute=execute, label="bash (sandboxed)"))

    @pi.on("session_start")
    def start(event: Any, ctx: HookContext) -> None:
        nonlocal box, sandboxed
        if pi.get_flag("no-sandbox"):
            ctx.ui.notify("Sandbox disabled via --no-sandbox", "warning")
            return
        config = load_config(ctx.cwd)
        if not config.get("enabled", True):
            ctx.ui.notify("Sandbox disabled via config", "info")
            return
        if sys.platform != "linux":
            ctx.ui.notify(f"Sandbox not supported on {sys.platform}", "warning")
            return
        resolved = sandbox_config(config, ctx.cwd)
        policy = DomainPolicy(allowed=resolved.allowed_domains, denied=resolved.denied_domains)
        started = start_sandbox(resolved, proxy=NetworkProxy(policy))
        if started.sandbox is None:
            ctx.ui.notify(f"Sandbox initialization failed: {started.warning}", "error")
            return
        box = started.sandbox
        sandboxed = create_bash_tool(cwd, leftovers=leftovers, sandbox=box)
        domains, writable = len(resolved.allowed_domains), len(config["filesystem"]["allowWrite"])
        ctx.ui.set_status(
            "sandbox",
            ctx.ui.theme.fg("accent", f"🔒 Sandbox: {domains} domains, {writable} write paths"),
        )
        ctx.ui.notify("Sandbox initialized", "info")

    @pi.on("user_bash")
    def user_bash(event: UserBashEvent, ctx: HookContext) -> UserBashResult | None:
        return None if box is None else UserBashResult(operations=SandboxedBash(box))

    @pi.on("session_shutdown")
    def shutdown(event: Any, ctx: HookContext) -> None:
        leftovers.close()  # the sandbox's private folder, background jobs, spill files

    @pi.register_command("sandbox-config", description="Show sandbox configuration")
    def show(args: str, ctx: HookContext) -> None:
        if box is None:
            ctx.ui.notify("Sandbox is disabled", "info")
            return
        config = load_config(ctx.cwd)
        network, files = config["network"], config["filesystem"]

        def listed(values: list[str]) -> str:
            return ", ".join(values) or "(none)"

        lines = [
            "Sandbox Configuration:",
            "",
            "Network:",
            f"  Allowed: {listed(network.get('allowedDomains', []))}",
            f"  Denied: {listed(network.get('deniedDomains', []))}",
            "",
            "Filesystem:",
            f"  Deny Read: {listed(files.get('denyRead', []))}",
            f"  Allow Write: {listed(files.get('allowWrite', []))}",
            f"  Deny Write: {listed(files.get('denyWrite', []))}",
        ]
        ctx.ui.notify("\n".join(lines), "info")
