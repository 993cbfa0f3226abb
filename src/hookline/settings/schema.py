"""The settings file's JSON Schema, generated from the pydantic models.

A copy ships as ``settings.schema.json`` (for editors' ``"$schema"`` hints); a
test checks it equals the generated one. Regenerate it after a model change
with ``python -c "from hookline.settings.schema import write_settings_schema as w; w()"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookline.settings.models import Settings

#: The shipped schema file, next to this module.
SCHEMA_PATH: Path = Path(__file__).with_name("settings.schema.json")

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def settings_json_schema() -> dict[str, Any]:
    """The JSON Schema of one settings file (keys as users write them: ``hookTimeout``)."""
    schema = Settings.model_json_schema(by_alias=True, mode="validation")
    schema.update(
        title="hookline settings",
        description=(
            "A hookline settings file (also read from Claude Code's .claude/settings*.json). "
            "Unknown keys are allowed and kept."
        ),
    )
    return {"$schema": _DRAFT, **schema}


def schema_text() -> str:
    """The schema as the shipped file spells it (stable key order, trailing newline)."""
    return json.dumps(settings_json_schema(), indent=2, sort_keys=True) + "\n"


def write_settings_schema(path: Path = SCHEMA_PATH) -> Path:
    """Write the schema file (after a model change); returns where it went."""
    path.write_text(schema_text(), encoding="utf-8")
    return path
