"""``hookline sandbox check``: what the machine offers and what the sandbox would hold.

The same sections serve the terminal app's ``/sandbox`` panel: :func:`check_sections`
returns them as data, :func:`format_sections` as text.
"""

from __future__ import annotations

import os
from pathlib import Path

from hookline.sandbox.availability import Availability, probe
from hookline.sandbox.config import SandboxConfig, resolve_sandbox


def resolve_for(
    cwd: str, *, settings_file: str | None = None, trusted: bool | None = None
) -> tuple[SandboxConfig, list[str]]:
    """The sandbox of ``cwd`` as the agent would resolve it, and the problems found on the
    way (settings that cannot be read, rules that cannot be compiled). ``trusted``
    defaults to the trust store's answer."""
    from hookline.settings import TrustStore, load_settings
    from hookline.settings.permission_rules import PermissionRules

    folder = os.path.abspath(cwd)
    if trusted is None:
        trusted = TrustStore().is_trusted(Path(folder))
    loaded = load_settings(
        Path(folder),
        cli_settings=Path(settings_file) if settings_file else None,
        project_trusted=trusted,
    )
    rules = PermissionRules.from_settings(loaded)
    problems = [*loaded.errors, *(str(e) for e in rules.errors)]
    notice = loaded.untrusted_notice()
    if notice:
        problems.append(notice)
    return resolve_sandbox(loaded, rules, folder), problems


def check_sections(
    config: SandboxConfig, found: Availability | None = None
) -> list[tuple[str, list[str]]]:
    """``(heading, lines)``: the machine first, then the resolved configuration."""
    found = found if found is not None else probe()
    sections = config.report()
    if config.enabled and not found.available:
        effect = (
            "failIfUnavailable: the agent will not start here"
            if config.fail_if_unavailable
            else "unavailable here: bash runs unsandboxed, asked about as usual"
        )
        sections[0][1].insert(1, effect)
    return [("machine", found.lines()), *sections]


def format_sections(sections: list[tuple[str, list[str]]]) -> str:
    out = []
    for heading, lines in sections:
        out.append(f"{heading}:")
        out.extend(f"  {line}" for line in lines)
    return "\n".join(out)
