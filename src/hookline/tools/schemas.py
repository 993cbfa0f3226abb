"""The built-in tools' parameter schemas, written out beside their models.

The first model request sends every tool's schema. Generating them from
``hookline.tools.params`` needs pydantic, whose import and schema build took
longer than the rest of the way to that request; ``schemas.json`` holds what
``tool_json_schema`` makes of each model, so the request is sent without them.
The models still check each call's arguments. Run ``python -m
hookline.tools.schemas`` after editing a model: a test fails while the two differ.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from hookline.core.tool import ModelRef

PARAMS_MODULE = "hookline.tools.params"
SCHEMAS_FILE = Path(__file__).with_name("schemas.json")


def params_ref(name: str) -> ModelRef:
    """The parameters model ``name`` of ``hookline.tools.params``, with its schema."""
    return ModelRef(PARAMS_MODULE, name, _written().get(name))


@functools.cache
def _written() -> dict[str, str]:
    """Each model's written-out schema as JSON text (read once)."""
    schemas: dict[str, Any] = json.loads(SCHEMAS_FILE.read_text(encoding="utf-8"))
    return {name: json.dumps(schema) for name, schema in schemas.items()}


def render_schemas() -> str:
    """``schemas.json`` as the models make it now: each ``ToolParams`` model's schema."""
    from hookline.core.tool_params import tool_json_schema
    from hookline.tools.params import ToolParams

    models = sorted(ToolParams.__subclasses__(), key=lambda model: model.__name__)
    schemas = {model.__name__: tool_json_schema(model) for model in models}
    return json.dumps(schemas, indent=2) + "\n"


if __name__ == "__main__":
    SCHEMAS_FILE.write_text(render_schemas(), encoding="utf-8")
