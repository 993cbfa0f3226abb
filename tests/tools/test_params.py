"""Tool parameters as pydantic models: the schema the model sees, and the checks of what
it sends.

``HAND_WRITTEN`` is each built-in tool's schema as it was written by hand before
the models; the generated one must keep its properties, order, types,
descriptions and required list, adding only the bounds the old hand-written
checks enforced without telling the model.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from hookline import parse_arguments, tool_json_schema
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.core.tool_params import parameters_model
from hookline.core.wrapping import wrap_tool
from hookline.tools import BUILTIN_PARAMS, builtin_tools
from hookline.tools.params import BashParams, EditParams, GrepParams, ReadParams
from hookline.tools.schemas import SCHEMAS_FILE, render_schemas

_PATH = {"type": "string", "description": "Path to the file (relative or absolute)"}


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def _str(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def _int(description: str) -> dict[str, Any]:
    return {"type": "integer", "description": description}


HAND_WRITTEN: dict[str, dict[str, Any]] = {
    "read": _obj(
        {
            "path": _PATH,
            "offset": _int("Line number to start from (1-based)"),
            "limit": _int("Maximum number of lines to read"),
        },
        ["path"],
    ),
    "bash": _obj(
        {
            "command": _str("Bash command to execute"),
            "timeout": {"type": "number", "description": "Timeout in seconds (optional)"},
            "dangerouslyDisableSandbox": {
                "type": "boolean",
                "description": (
                    "Run this command outside the sandbox (only when the sandbox blocked "
                    "something it needs); it then needs the user's approval"
                ),
            },
        },
        ["command"],
    ),
    "edit": _obj(
        {
            "path": _PATH,
            "oldText": _str("Exact text to find and replace (must occur exactly once)"),
            "newText": _str("Text to replace it with"),
        },
        ["path", "oldText", "newText"],
    ),
    "write": _obj({"path": _PATH, "content": _str("Content to write")}, ["path", "content"]),
    "grep": _obj(
        {
            "pattern": _str("Regex (or literal text)"),
            "path": _str("Directory or file (default: .)"),
            "glob": _str("Only files matching, e.g. '*.py'"),
            "ignoreCase": {"type": "boolean", "description": "Case-insensitive search"},
            "literal": {"type": "boolean", "description": "Treat pattern as plain text"},
            "context": _int("Lines of context around matches"),
            "limit": _int("Maximum number of matches"),
        },
        ["pattern"],
    ),
    "find": _obj(
        {
            "pattern": _str("Glob pattern to match"),
            "path": _str("Directory to search (default: .)"),
            "limit": _int("Maximum number of results"),
        },
        ["pattern"],
    ),
    "ls": _obj(
        {
            "path": _str("Directory (default: current)"),
            "limit": _int("Maximum number of entries"),
        },
        [],
    ),
}

#: What the generated schemas add: the bounds the hand-written checks enforced silently.
BOUNDS: dict[tuple[str, str], dict[str, Any]] = {
    ("read", "path"): {"minLength": 1},
    ("read", "offset"): {"minimum": 1},
    ("read", "limit"): {"minimum": 1},
    ("bash", "command"): {"minLength": 1},
    ("bash", "timeout"): {"exclusiveMinimum": 0},
    ("edit", "path"): {"minLength": 1},
    ("edit", "oldText"): {"minLength": 1},
    ("write", "path"): {"minLength": 1},
    ("grep", "pattern"): {"minLength": 1},
    ("grep", "context"): {"minimum": 0},
    ("grep", "limit"): {"minimum": 1},
    ("find", "pattern"): {"minLength": 1},
    ("find", "limit"): {"minimum": 1},
    ("ls", "limit"): {"minimum": 1},
}


# --- the schema -------------------------------------------------------------


@pytest.mark.parametrize("tool", sorted(HAND_WRITTEN))
def test_generated_schema_keeps_the_hand_written_one(tool: str) -> None:
    old = HAND_WRITTEN[tool]
    new = tool_json_schema(BUILTIN_PARAMS[tool])

    assert set(new) == set(old)
    assert new["type"] == "object" and new["additionalProperties"] is False
    assert new["required"] == old["required"]
    assert list(new["properties"]) == list(old["properties"])  # the order the model reads
    for name, was in old["properties"].items():
        assert new["properties"][name] == {**was, **BOUNDS.get((tool, name), {})}, name


def test_the_built_in_tools_send_the_generated_schema(tmp_path: Path) -> None:
    for tool in builtin_tools(str(tmp_path)):
        assert not isinstance(tool.parameters, dict)  # a lazily imported model
        assert parameters_model(tool.parameters) is BUILTIN_PARAMS[tool.name]
        assert tool_json_schema(tool.parameters)["properties"].keys() == (
            HAND_WRITTEN[tool.name]["properties"].keys()
        )
        # written out beforehand, equal to what the model generates
        assert tool_json_schema(tool.parameters) == tool_json_schema(BUILTIN_PARAMS[tool.name])


def test_the_written_out_schemas_are_the_models_schemas() -> None:
    assert SCHEMAS_FILE.read_text(encoding="utf-8") == render_schemas(), (
        "hookline/tools/schemas.json is out of date: run `python -m hookline.tools.schemas`"
    )


def test_a_written_out_schema_is_a_fresh_copy_too(tmp_path: Path) -> None:
    read = builtin_tools(str(tmp_path))[0]
    tool_json_schema(read.parameters)["properties"].clear()
    assert list(tool_json_schema(read.parameters)["properties"]) == ["path", "offset", "limit"]


def test_no_titles_and_no_null_but_a_property_called_title_stays() -> None:
    class Inner(BaseModel):
        title: str = Field(description="a field named title")

    class Note(BaseModel):
        title: str
        tags: list[str] | None = None
        inner: Inner | None = None
        level: Literal["low", "high"] = "low"

    schema = tool_json_schema(Note)
    text = json.dumps(schema)

    assert '"title": "' not in text  # no schema carries a title keyword
    assert '"null"' not in text and "anyOf" not in text
    assert list(schema["properties"]) == ["title", "tags", "inner", "level"]
    assert schema["properties"]["title"] == {"type": "string"}
    assert schema["properties"]["tags"] == {"type": "array", "items": {"type": "string"}}
    assert schema["properties"]["inner"] == {"$ref": "#/$defs/Inner"}
    assert schema["$defs"]["Inner"]["properties"] == {
        "title": {"type": "string", "description": "a field named title"}
    }
    assert schema["properties"]["level"] == {
        "type": "string",
        "enum": ["low", "high"],
        "default": "low",
    }
    assert schema["required"] == ["title"]
    assert "description" not in schema  # a docstring is not the tool's description


def test_a_schema_dict_is_sent_as_it_is_and_a_model_schema_is_a_fresh_copy() -> None:
    given = {"type": "object", "properties": {"x": {"type": "string", "title": "X"}}}
    assert tool_json_schema(given) is given

    first = tool_json_schema(ReadParams)
    first["properties"].clear()  # a payload hook editing what it was handed
    assert list(tool_json_schema(ReadParams)["properties"]) == ["path", "offset", "limit"]


def test_importing_the_tools_builds_no_model() -> None:
    """Defining the models costs no build: a fresh interpreter that creates the built-in
    tools has built none; a schema or a validation builds exactly the model used."""
    code = (
        "from hookline.tools import builtin_tools, BUILTIN_PARAMS as P\n"
        "from hookline.core.tool_params import tool_json_schema, parse_arguments\n"
        "builtin_tools('.')\n"
        "built = lambda: sorted(n for n, m in P.items() if m.__pydantic_complete__)\n"
        "print(built())\n"
        "tool_json_schema(P['grep'])\n"
        "parse_arguments('read', P['read'], {'path': 'x'})\n"
        "print(built())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines() == ["[]", "['grep', 'read']"]


# --- validation -------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "params", "message"),
    [
        (ReadParams, {}, "read: missing required parameter 'path' (a string)"),
        (ReadParams, {"path": None}, "read: missing required parameter 'path' (a string)"),
        (ReadParams, {"path": 3}, "read: parameter 'path' must be a string, got int 3"),
        (ReadParams, {"path": ""}, "read: parameter 'path' must not be empty"),
        (
            ReadParams,
            {"path": "a", "limit": "10"},
            "read: parameter 'limit' must be an integer >= 1, got str '10'",
        ),
        (
            ReadParams,
            {"path": "a", "limit": True},
            "read: parameter 'limit' must be an integer >= 1, got bool True",
        ),
        (
            ReadParams,
            {"path": "a", "offset": 2.5},
            "read: parameter 'offset' must be an integer >= 1, got float 2.5",
        ),
        (
            GrepParams,
            {"pattern": "x", "ignoreCase": "yes"},
            "grep: parameter 'ignoreCase' must be true or false, got str 'yes'",
        ),
        (
            GrepParams,
            {"pattern": "x", "context": -1},
            "grep: parameter 'context' must be an integer >= 0, got int -1",
        ),
        (
            BashParams,
            {"command": "true", "timeout": 0},
            "bash: parameter 'timeout' must be a number > 0, got int 0",
        ),
        (
            BashParams,
            {"command": "true", "timeout": False},
            "bash: parameter 'timeout' must be a number > 0, got bool False",
        ),
        (
            EditParams,
            {"path": "f", "oldText": 1, "newText": ["x"]},
            "edit: parameter 'oldText' must be a string, got int 1; "
            "parameter 'newText' must be a string, got list ['x']",
        ),
        (ReadParams, ["path"], "read: the arguments must be a JSON object, got list ['path']"),
        (ReadParams, "a.txt", "read: the arguments must be a JSON object, got str 'a.txt'"),
    ],
)
def test_a_bad_argument_is_a_tool_error_naming_tool_field_and_fix(
    model: type[BaseModel], params: Any, message: str
) -> None:
    with pytest.raises(ToolError) as info:
        parse_arguments(model.__name__.removesuffix("Params").lower(), model, params)
    assert str(info.value) == message


def test_loose_json_the_hand_written_checks_took_is_still_taken() -> None:
    args = parse_arguments("read", ReadParams, {"path": "a", "offset": 3.0, "limit": None})
    assert (args.offset, args.limit) == (3, None)
    assert isinstance(args.offset, int)
    grep = parse_arguments("grep", GrepParams, {"pattern": "x", "ignoreCase": None})
    assert grep.ignore_case is None and grep.literal is None
    timeout = parse_arguments("bash", BashParams, {"command": "x", "timeout": 5})
    assert timeout.timeout == 5.0


def test_unknown_parameters_are_ignored_as_before() -> None:
    """The hand-written checks read only the keys they knew; the models keep that."""
    args = parse_arguments("read", ReadParams, {"path": "a", "file_path": "b", "x": 1})
    assert args.path == "a"
    assert "file_path" not in args.model_dump() and args.model_extra is None


def test_camel_case_wire_names_only() -> None:
    args = parse_arguments("edit", EditParams, {"path": "f", "oldText": "a", "newText": "b"})
    assert (args.old_text, args.new_text) == ("a", "b")
    grep = parse_arguments("grep", GrepParams, {"pattern": "p", "ignoreCase": True})
    assert grep.ignore_case is True
    # the Python names are not wire names: the model must send what the schema says
    with pytest.raises(ToolError) as info:
        parse_arguments("edit", EditParams, {"path": "f", "old_text": "a", "new_text": "b"})
    assert str(info.value) == (
        "edit: missing required parameter 'oldText' (a string); "
        "missing required parameter 'newText' (a string)"
    )
    ignored = parse_arguments("grep", GrepParams, {"pattern": "p", "ignore_case": True})
    assert ignored.ignore_case is None


class Forecast(BaseModel):
    """A hook author's model: closed to extras, nested, bounded."""

    model_config = ConfigDict(extra="forbid")

    class Place(BaseModel):
        city: str
        country: str = "NO"

    places: list[Place] = Field(min_length=1)
    days: int = Field(1, ge=1, le=7)
    units: Literal["metric", "imperial"] = "metric"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"places": [{"city": "Oslo"}], "days": 9},
            "forecast: parameter 'days' must be an integer from 1 to 7, got int 9",
        ),
        (
            {"places": [{"city": "Oslo"}], "units": "kelvin"},
            "forecast: parameter 'units' must be one of \"metric\", \"imperial\", got str 'kelvin'",
        ),
        (
            {"places": [{"city": "Oslo"}], "town": "Oslo"},
            "forecast: unknown parameter 'town'; the parameters are 'places', 'days', 'units'",
        ),
        (
            {"places": [{"city": "Oslo"}], "unit": "metric"},
            "forecast: unknown parameter 'unit' (did you mean 'units'?); the parameters are "
            "'places', 'days', 'units'",
        ),
        (
            {"places": [{"city": "Oslo"}, {"country": "SE"}]},
            "forecast: missing required parameter 'places[1].city'",
        ),
        (
            {"places": [{"city": 5}]},
            "forecast: parameter 'places[0].city': expected a string, got int 5",
        ),
        (
            {"places": []},
            "forecast: parameter 'places': expected at least 1 item, got list []",
        ),
    ],
)
def test_a_hook_model_gets_the_same_kind_of_message(params: dict[str, Any], message: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_arguments("forecast", Forecast, params)
    assert str(info.value) == message


def test_many_errors_are_capped() -> None:
    class Wide(BaseModel):
        a: int
        b: int
        c: int
        d: int
        e: int
        f: int
        g: int

    with pytest.raises(ToolError) as info:
        parse_arguments("wide", Wide, {})
    assert str(info.value).count("missing required parameter") == 5
    assert str(info.value).endswith("; and 2 more")


# --- the pipeline checks a model tool's arguments before it runs ------------------


class Shout(BaseModel):
    text: str = Field(min_length=1)
    times: int = Field(1, ge=1, le=3)


def shout_tool(calls: list[dict[str, Any]]) -> Tool:
    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: object = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        calls.append(params)
        args = parse_arguments("shout", Shout, params)
        return ToolResult([{"type": "text", "text": args.text.upper() * args.times}])

    return Tool("shout", "Shout a text.", Shout, execute)


async def test_arguments_a_hook_rewrote_are_checked_and_execute_never_sees_bad_ones(
    make_runner: Callable[..., HookRunner],
) -> None:
    from hookline.core.api import HookAPI
    from hookline.core.context import HookContext
    from hookline.core.events import ToolCallEvent
    from hookline.core.results import ToolCallResult

    def setup(api: HookAPI) -> None:
        def rewrite(event: ToolCallEvent, ctx: HookContext) -> ToolCallResult | None:
            if event.input.get("text") == "rewrite me":
                return ToolCallResult(input={"text": "x", "times": 99})
            return None

        api.on("tool_call", rewrite)

    calls: list[dict[str, Any]] = []
    tool = wrap_tool(shout_tool(calls), make_runner(setup))

    good = await tool.execute("c1", {"text": "hi", "times": 2}, None, None)
    assert good.content == [{"type": "text", "text": "HIHI"}]
    with pytest.raises(ToolError) as info:
        await tool.execute("c2", {"text": "rewrite me"}, None, None)
    assert str(info.value) == "shout: parameter 'times' must be an integer from 1 to 3, got int 99"
    with pytest.raises(ToolError, match=r"^shout: missing required parameter 'text'"):
        await tool.execute("c3", {}, None, None)
    assert calls == [{"text": "hi", "times": 2}]


# --- walking around the checks ----------------------------------------------


def test_a_made_up_parameter_name_is_quoted_short() -> None:
    class Closed(BaseModel):
        model_config = ConfigDict(extra="forbid")
        x: int = 0

    with pytest.raises(ToolError) as info:
        parse_arguments("closed", Closed, {"k" * 100_000: 1})
    message = str(info.value)
    assert len(message) < 200
    assert message.startswith("closed: unknown parameter '" + "k" * 57 + "...'")


@pytest.mark.parametrize(
    ("parameters", "needle"),
    [
        ("a schema as text", "parameters must be a JSON Schema dict or a pydantic model class"),
        (int, "parameters must be a JSON Schema dict or a pydantic model class, got type"),
        (None, "got NoneType None"),
    ],
)
def test_register_tool_refuses_what_is_not_parameters(parameters: Any, needle: str) -> None:
    from hookline.core.api import HookAPI, LoadedHook

    api = HookAPI(LoadedHook(path="bad.py"))
    with pytest.raises(TypeError, match=r"^tool 'bad': ") as info:
        api.register_tool(Tool("bad", "A bad tool.", parameters, shout_tool([]).execute))
    assert needle in str(info.value)


def test_register_tool_refuses_a_model_without_a_json_schema() -> None:
    """Refused when registered: sent later, it would break every model call."""
    from hookline.core.api import HookAPI, LoadedHook

    class Opaque(BaseModel):
        callback: Callable[[], int]

    api = HookAPI(LoadedHook(path="bad.py"))
    with pytest.raises(TypeError) as info:
        api.register_tool(Tool("opaque", "Opaque.", Opaque, shout_tool([]).execute))
    assert str(info.value).startswith("tool 'opaque': cannot generate the JSON Schema of ")
    assert "Use JSON-compatible field types" in str(info.value)
    assert "opaque" not in api.hook.tools


def test_register_tool_takes_a_model_and_a_dict() -> None:
    from hookline.core.api import HookAPI, LoadedHook

    api = HookAPI(LoadedHook(path="good.py"))
    api.register_tool(Tool("shout", "Shout.", Shout, shout_tool([]).execute))
    api.register_tool(Tool("raw", "Raw.", {"type": "object"}, shout_tool([]).execute))
    assert api.hook.tools["shout"].parameters is Shout
    assert api.hook.tools["raw"].parameters == {"type": "object"}


def test_a_model_class_that_goes_away_takes_its_cached_schema() -> None:
    """A reloaded hook's old classes are not kept alive by the schema cache."""
    import gc
    import weakref

    def make() -> type[BaseModel]:
        class Passing(BaseModel):
            x: int

        return Passing

    model = make()
    assert tool_json_schema(model)["properties"] == {"x": {"type": "integer"}}
    gone = weakref.ref(model)
    del model
    gc.collect()
    assert gone() is None


def test_a_model_without_a_json_schema_still_gets_a_tool_error() -> None:
    """An author may parse with any model; the message is then worded from the error alone."""

    class Opaque(BaseModel):
        callback: Callable[[], int]
        n: int

    with pytest.raises(ToolError) as info:
        parse_arguments("opaque", Opaque, {"callback": 5, "n": "x"})
    message = str(info.value)
    assert message.startswith("opaque: parameter 'callback': expected a function, got int 5")
    assert "; parameter 'n': expected an integer, got str 'x'" in message


def test_creating_the_built_in_tools_imports_neither_their_models_nor_pydantic(
    tmp_path: Path,
) -> None:
    """Every start-up creates the built-ins, and the first request sends their schemas
    (written out beforehand); their models load when a tool first runs."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from hookline.tools import builtin_tools\n"
        f"tools = builtin_tools({str(tmp_path)!r})\n"
        "loaded = lambda: sorted(m for m in sys.modules if m in ('pydantic', %r))\n"
        "print(loaded())\n"
        "from hookline.core.tool_params import tool_json_schema, parse_arguments\n"
        "[tool_json_schema(tool.parameters) for tool in tools]\n"
        "print(loaded())\n"
        "parse_arguments('read', tools[0].parameters.resolve(), {'path': 'x'})\n"
        "print(loaded())\n"
    ) % "hookline.tools.params"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["[]", "[]", "['hookline.tools.params', 'pydantic']"]
