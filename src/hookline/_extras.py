"""How to install one of hookline's extras, worded once for every message that needs it.

hookline is installed from a clone of its repository (or a wheel built there,
or as a tool from either; the README's Install section), so the command named
is the one that works in a clone.
"""

from __future__ import annotations


def install_hint(extra: str) -> str:
    """``pip install '.[openai]' in a clone of hookline (…)``: how to get ``extra``."""
    return (
        f"pip install '.[{extra}]' in a clone of hookline "
        "(the README's Install section has the wheel, pipx and uv forms)"
    )
