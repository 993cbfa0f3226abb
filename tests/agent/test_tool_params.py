"""A hook tool declared with a pydantic model, end to end through a real agent and the
scripted model: the model is offered the generated schema, good arguments reach
``execute``, bad ones come back to the model as the tool's error and never run it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookline.agent.providers.anthropic_provider import to_anthropic_tools
from hookline.core.events import ToolResultEvent
from hookline.core.messages import content_text

from .conftest import MakeAgent

FORECAST_HOOK = '''
import asyncio
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from hookline import HookAPI, Tool, ToolResult, parse_arguments


class Forecast(BaseModel):
    """The forecast tool's parameters."""

    model_config = ConfigDict(extra="forbid")

    city: str = Field(min_length=1, description="City name")
    days: int = Field(1, ge=1, le=7, description="Days ahead")
    units: Literal["metric", "imperial"] = "metric"


CALLS = []


async def forecast(tool_call_id, params, signal, on_update):
    args = parse_arguments("forecast", Forecast, params)
    CALLS.append(args)
    return ToolResult([{"type": "text", "text": f"{args.city}: {args.days} days, {args.units}"}])


def register(pi: HookAPI) -> None:
    pi.register_tool(Tool("forecast", "Weather forecast for a city.", Forecast, forecast))
'''

FORECAST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1, "description": "City name"},
        "days": {
            "type": "integer",
            "minimum": 1,
            "maximum": 7,
            "default": 1,
            "description": "Days ahead",
        },
        "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def call(arguments: dict[str, Any]) -> dict[str, Any]:
    return {"tool_calls": [{"name": "forecast", "arguments": arguments}]}


async def test_a_model_declared_hook_tool_end_to_end(make_agent: MakeAgent) -> None:
    h = await make_agent(
        [
            call({"city": "Oslo", "days": 3}),
            call({"city": "Oslo", "days": 9, "town": "Bergen"}),
            call({"days": 2.0, "city": "Rome", "units": "imperial"}),
            "done",
        ],
        hooks={"forecast": FORECAST_HOOK},
    )
    await h.agent.prompt("weather?")

    results = [m for m in h.seen_by_model(3) if m["role"] == "tool"]
    assert [(content_text(r["content"]), r["is_error"]) for r in results] == [
        ("Oslo: 3 days, metric", False),
        (
            "forecast: parameter 'days' must be an integer from 1 to 7, got int 9; "
            "unknown parameter 'town'; the parameters are 'city', 'days', 'units'",
            True,
        ),
        ("Rome: 2 days, imperial", False),
    ]
    assert [(a.city, a.days) for a in h.hook("forecast").CALLS] == [("Oslo", 3), ("Rome", 2)]
    # hooks saw the failed call as a failed tool result
    assert [e.is_error for e in h.events(ToolResultEvent)] == [False, True, False]

    # what the model is offered: the model class, sent as its generated schema
    spec = next(t for t in h.provider.requests[0].tools if t.name == "forecast")
    assert spec.parameters is h.hook("forecast").Forecast
    assert spec.json_schema() == FORECAST_SCHEMA
    assert to_anthropic_tools([spec])[0]["input_schema"] == FORECAST_SCHEMA
    # and what get_all_tools tells hooks: the schema, as for any tool
    info = next(t for t in h.agent.get_all_tools() if t.name == "forecast")
    assert info.parameters == FORECAST_SCHEMA


async def test_a_built_in_tool_call_with_bad_arguments_is_the_models_to_fix(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [
            {"tool_calls": [{"name": "read", "arguments": {"path": "a.txt", "limit": "2"}}]},
            {"tool_calls": [{"name": "read", "arguments": {"path": "a.txt", "limit": 2}}]},
            "done",
        ]
    )
    (h.project / "a.txt").write_text("one\ntwo\nthree\n")
    await h.agent.prompt("read it")

    results = [m for m in h.seen_by_model(2) if m["role"] == "tool"]
    assert [(content_text(r["content"]), r["is_error"]) for r in results] == [
        ("read: parameter 'limit' must be an integer >= 1, got str '2'", True),
        ("one\ntwo\n\n[1 more lines in file. Use offset=3 to continue.]", False),
    ]


async def test_the_dynamic_tools_example_declares_echo_with_a_model(make_agent: MakeAgent) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "pi" / "dynamic_tools.py"
    h = await make_agent(
        [
            {"tool_calls": [{"name": "shout", "arguments": {"message": 5}}]},
            {"tool_calls": [{"name": "shout", "arguments": {"message": "hi"}}]},
            "done",
        ],
        hook_paths=[str(example)],
    )
    await h.runner.run_command("add-echo-tool", "shout")
    await h.agent.prompt("shout")

    results = [m for m in h.seen_by_model(2) if m["role"] == "tool"]
    assert [(content_text(r["content"]), r["is_error"]) for r in results] == [
        ("shout: parameter 'message' must be a string, got int 5", True),
        ("[shout] hi", False),
    ]
    spec = next(t for t in h.provider.requests[0].tools if t.name == "shout")
    assert spec.json_schema() == {
        "type": "object",
        "properties": {"message": {"type": "string", "description": "Message to echo"}},
        "required": ["message"],
    }
