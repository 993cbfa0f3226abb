"""Tool parameters declared once, as a pydantic model: the JSON Schema the model is sent,
and the check of the arguments it sends back.

A tool's ``parameters`` is either a JSON Schema dict (sent as it is) or a pydantic
model class. For a model, ``tool_json_schema`` renders the schema providers take: no
``title`` noise, an optional field (``int | None = None``) as its plain type rather
than ``anyOf [..., null]``, no ``default: null``, and not the class docstring (the
tool's ``description`` is what the model reads). ``parse_arguments`` turns a failed
validation into a ``ToolError`` the model can act on ("read: parameter 'limit' must
be an integer >= 1, got str '10'"), since the model reads it as the tool's result.

Nothing is built at import: a model's schema is generated on first use and cached,
so a turn whose provider never sends schemas (the scripted model) never pays for it.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from hookline.core.tool import ModelRef, ToolError, ToolParameters

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError
    from pydantic_core import ErrorDetails

M = TypeVar("M", bound="BaseModel")

#: Errors listed in one message at most; a model that got everything wrong fixes the
#: first ones and hears about the rest on its next try.
_MAX_ERRORS = 5
#: Characters of a parameter name quoted back (an unknown key may be anything).
_MAX_NAME = 60
#: A model class → its cleaned schema as JSON text; weak, so a reloaded hook's old
#: classes go with their schemas.
_SCHEMAS: weakref.WeakKeyDictionary[type[BaseModel], str] = weakref.WeakKeyDictionary()
#: Keys whose value maps names to schemas (a property called ``title`` is not a title).
_NAME_MAPS = ("properties", "patternProperties", "$defs", "definitions")
#: JSON Schema number bounds, in words.
_BOUNDS = (
    ("minimum", ">="),
    ("exclusiveMinimum", ">"),
    ("maximum", "<="),
    ("exclusiveMaximum", "<"),
)
#: pydantic error types that "must be <the field's type and bounds>" describes; any other
#: (a list too short, a pattern) is told by ``plain_errors``.
_TYPE_ERRORS = frozenset(
    {
        "greater_than",
        "greater_than_equal",
        "less_than",
        "less_than_equal",
        "literal_error",
        "enum",
        "int_from_float",
        "int_parsing",
        "float_parsing",
        "bool_parsing",
        "finite_number",
    }
)


def tool_json_schema(parameters: ToolParameters) -> dict[str, Any]:
    """The JSON Schema a provider sends for ``parameters``: a dict as it is, a pydantic
    model's generated and cleaned, or written out beforehand (``ModelRef.schema``); a
    fresh copy each call: payload hooks may edit it."""
    if isinstance(parameters, dict):
        return parameters
    if isinstance(parameters, ModelRef) and parameters.schema is not None:
        return json.loads(parameters.schema)  # type: ignore[no-any-return]
    return json.loads(_model_schema_json(parameters_model(parameters)))  # type: ignore[no-any-return]


def parameters_model(parameters: type[BaseModel] | ModelRef) -> type[BaseModel]:
    """The model class of a tool's model parameters (a ``ModelRef`` imported now)."""
    return parameters.resolve() if isinstance(parameters, ModelRef) else parameters


def parse_arguments(tool: str, model: type[M], params: Any) -> M:
    """``params`` validated into ``model``; a ``ToolError`` naming ``tool``, each field at
    fault and what it must be otherwise."""
    from pydantic import ValidationError

    try:
        return model.model_validate(params)
    except ValidationError as exc:
        raise ToolError(_explain_arguments(tool, model, params, exc)) from None


def _explain_arguments(
    tool: str, model: type[BaseModel], params: Any, error: ValidationError
) -> str:
    """One line for the model: the tool, then each failed field and what it must be."""
    if not isinstance(params, Mapping):
        return f"{tool}: the arguments must be a JSON object, got {_show(params)}"
    try:
        schema = json.loads(_model_schema_json(model))
    except Exception:  # a model with no JSON Schema: pydantic's words alone
        schema = {}
    errors = error.errors(include_url=False)
    parts = [_explain(err, params, schema) for err in errors[:_MAX_ERRORS]]
    if len(errors) > _MAX_ERRORS:
        parts.append(f"and {len(errors) - _MAX_ERRORS} more")
    return f"{tool}: " + "; ".join(parts)


def _show(value: Any) -> str:
    """A value's type and a short repr, as an error message quotes what was sent."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def check_parameters(tool: str, parameters: object) -> None:
    """Raise ``TypeError`` unless ``parameters`` is a JSON Schema dict or a pydantic model
    class whose schema can be generated: a tool that cannot be described to the model is
    refused when it is registered, not on every model call after."""
    if isinstance(parameters, dict):
        return
    if isinstance(parameters, ModelRef):
        parameters = parameters.resolve()
    from pydantic import BaseModel

    if not (isinstance(parameters, type) and issubclass(parameters, BaseModel)):
        raise TypeError(
            f"tool {tool!r}: parameters must be a JSON Schema dict or a pydantic model "
            f"class, got {_show(parameters)}"
        )
    try:
        _model_schema_json(parameters)
    except Exception as exc:
        raise TypeError(
            f"tool {tool!r}: cannot generate the JSON Schema of {parameters.__qualname__}: "
            f"{exc}. Use JSON-compatible field types (str, int, float, bool, lists, "
            "dicts, Literal, nested models)."
        ) from exc


def _model_schema_json(model: type[BaseModel]) -> str:
    """The cleaned schema of ``model`` as JSON text (built once per model class)."""
    cached = _SCHEMAS.get(model)
    if cached is not None:
        return cached
    from hookline.core._json_schema import ProviderJsonSchema

    schema = _without_titles(model.model_json_schema(schema_generator=ProviderJsonSchema))
    schema.pop("description", None)  # the class docstring: the tool has its own description
    schema.setdefault("required", [])
    text = _SCHEMAS[model] = json.dumps(schema)
    return text


def _without_titles(node: Any, names: bool = False) -> Any:
    """``node`` with every schema's ``title`` dropped; ``names`` marks a name → schema map."""
    if isinstance(node, list):
        return [_without_titles(item) for item in node]
    if not isinstance(node, dict):
        return node
    if names:
        return {key: _without_titles(value) for key, value in node.items()}
    return {
        key: _without_titles(value, key in _NAME_MAPS)
        for key, value in node.items()
        if not (key == "title" and isinstance(value, str))
    }


def _where(loc: tuple[int | str, ...]) -> str:
    """``('items', 0, 'name')`` → ``items[0].name`` (a name the model made up, cut short)."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out if len(out) <= _MAX_NAME else out[: _MAX_NAME - 3] + "..."


def _expected(prop: Mapping[str, Any]) -> str | None:
    """What a simple property must be, in words (None for anything more complex)."""
    kind = prop.get("type")
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(v) for v in prop["enum"])
    if kind == "string":
        return "a string"
    if kind == "boolean":
        return "true or false"
    if kind in ("integer", "number"):
        words = "an integer" if kind == "integer" else "a number"
        low, high = prop.get("minimum"), prop.get("maximum")
        if isinstance(low, int | float) and isinstance(high, int | float):
            return f"{words} from {low:g} to {high:g}"
        bounds = [
            f"{sign} {prop[key]:g}"
            for key, sign in _BOUNDS
            if isinstance(prop.get(key), int | float)
        ]
        return " ".join([words, " and ".join(bounds)]) if bounds else words
    if kind == "array":
        return "a list"
    if kind == "object":
        return "an object"
    return None


def _explain(err: ErrorDetails, params: Mapping[str, Any], schema: Mapping[str, Any]) -> str:
    from hookline.core.plain_errors import plain_message

    loc = tuple(err["loc"])
    name = _where(loc)
    if not loc:  # a model-level validator
        return plain_message(err)
    props: Mapping[str, Any] = schema.get("properties", {})
    prop = props.get(str(loc[0]), {}) if len(loc) == 1 else {}
    expected = _expected(prop)
    value = err.get("input")
    if err["type"] == "missing" or (len(loc) == 1 and loc[0] in params and value is None):
        return f"missing required parameter {name!r}" + (f" ({expected})" if expected else "")
    if err["type"] == "extra_forbidden":
        from hookline._typos import closest_hint

        known = ", ".join(repr(k) for k in props)
        hint = closest_hint(str(loc[-1]), props) if len(loc) == 1 else ""
        return f"unknown parameter {name!r}{hint}; the parameters are {known or 'none'}"
    if err["type"] == "string_too_short" and value == "":
        return f"parameter {name!r} must not be empty"
    if expected is not None and (err["type"].endswith("_type") or err["type"] in _TYPE_ERRORS):
        return f"parameter {name!r} must be {expected}, got {_show(value)}"
    return f"parameter {name!r}: {plain_message(err)}"
