"""pi's protected-paths example: block ``write``/``edit`` into ``.env`` files, ``.git/`` and
``node_modules/``.

One change from pi: pi's example tests ``path.includes(".env")``, a substring match that
blocks ``src/my.env.example`` and lets ``sub/../.env`` through only by luck.
Here the path is *resolved* first (relative to ``ctx.cwd``, ``..`` folded,
symlinks followed) and its components are compared:

- a component ``.git`` or ``node_modules`` anywhere below the working folder
  (``.git/config``, ``web/node_modules/x.js``),
- a file named ``.env`` or ``.env.<name>`` (``.env.local``,
  ``.env.production``), except the conventional templates ``.env.example``,
  ``.env.sample`` and ``.env.template``.

So ``./.env``, ``sub/../.env`` and ``/abs/cwd/.env`` are blocked and
``src/my.env.example`` is allowed. The model reads ``Path "<path>" is
protected``; with a UI the user is told too (``ctx.ui.notify(..., "warning")``).

    hookline --hook examples/pi/protected_paths.py
"""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent

PROTECTED_DIRS = frozenset({".git", "node_modules"})
ENV_TEMPLATES = frozenset({".env.example", ".env.sample", ".env.template"})
WRITING_TOOLS = frozenset({"write", "edit"})


def _is_env_file(name: str) -> bool:
    return (name == ".env" or name.startswith(".env.")) and name not in ENV_TEMPLATES


def protected_reason(path: str, cwd: str) -> str | None:
    """Why writing ``path`` (relative to ``cwd``) is refused, or ``None`` when it is allowed."""
    base = Path(cwd).expanduser().resolve()
    target = Path(path).expanduser()
    if not target.is_absolute():
        target = base / target
    resolved = target.resolve()  # folds "..", follows symlinks; the file need not exist
    try:
        parts: tuple[str, ...] = resolved.relative_to(base).parts
    except ValueError:  # outside the working folder: judge the whole path
        parts = PurePath(resolved).parts[1:]
    if not parts:
        return None
    for part in parts:
        if part in PROTECTED_DIRS:
            return f"{part}/ is protected"
    if _is_env_file(parts[-1]):
        return f"{parts[-1]} files are protected"
    return None


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    async def guard(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name not in WRITING_TOOLS:
            return None
        path = event.input.get("path")
        if not isinstance(path, str) or not path:
            return None
        if protected_reason(path, ctx.cwd) is None:
            return None
        if ctx.has_ui:
            ctx.ui.notify(f"Blocked write to protected path: {path}", "warning")
        return {"block": True, "reason": f'Path "{path}" is protected'}
