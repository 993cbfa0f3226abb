"""The JSON Schema generator for tool parameters: plain types for optional fields.

Imported on first use only (``hookline.core.tool_params``): pydantic's schema
machinery is not needed by a turn that never sends a schema.
"""

from __future__ import annotations

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema


class ProviderJsonSchema(GenerateJsonSchema):
    """A schema model APIs take as tool parameters.

    An optional field (``int | None = None``) is its plain type: the model leaves the
    field out rather than sending ``null``, and a ``null`` that comes anyway means
    "not given", as the default does. ``default: null`` is left out as noise.
    """

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        if schema.get("default", ...) is None:
            return self.generate_inner(schema["schema"])
        return super().default_schema(schema)
