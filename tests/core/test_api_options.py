"""pi's options objects (``register_command(name, {...})``): they work, or fail at load saying
the Python form."""

from __future__ import annotations

from typing import Any

import pytest

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.context import CommandContext
from hookline.core.options import OptionsError, snake_key
from hookline.core.tool import Tool, ToolResult

from .helpers import MakeRunner


def _api() -> HookAPI:
    return HookAPI(LoadedHook("hook.py"))


async def _execute(*args: Any) -> ToolResult:
    return ToolResult(content=[{"type": "text", "text": "ok"}])


def test_snake_key_reads_pi_camel_case() -> None:
    assert snake_key("getArgumentCompletions") == "get_argument_completions"
    assert snake_key("promptSnippet") == "prompt_snippet"
    assert snake_key("description") == "description"
    assert snake_key("get_argument_completions") == "get_argument_completions"


# -- register_command ---------------------------------------------------------------------


async def test_the_dict_form_of_a_command_runs_and_lists_its_description(
    make_runner: MakeRunner,
) -> None:
    ran: list[str] = []

    async def deploy(args: str, ctx: CommandContext) -> None:
        ran.append(args)

    def offer(prefix: str) -> list[str]:
        return ["main", "staging"]

    built = make_runner(
        lambda pi: pi.register_command(
            "deploy",
            {"description": "Deploy a branch", "handler": deploy, "getArgumentCompletions": offer},
        )
    )
    assert await built.runner.run_command("deploy", "main") is True
    assert ran == ["main"]
    assert built.errors == []
    [info] = built.runner.slash_commands()
    assert (info.name, info.description) == ("deploy", "Deploy a branch")
    command = built.runner.get_registered_commands()[0]
    assert command.get_argument_completions is offer


def test_snake_case_keys_work_in_the_dict_form_too() -> None:
    api = _api()
    api.register_command(
        "x", {"description": "d", "handler": lambda a, c: None, "get_argument_completions": None}
    )
    assert api.hook.commands["x"].description == "d"


@pytest.mark.parametrize(
    ("options", "wording"),
    [
        (
            {"descripton": "d", "handler": lambda a, c: None},
            "register_command('deploy', {...}): unknown key 'descripton' "
            "(did you mean 'description'?); keys: description, get_argument_completions, "
            "handler (the Python form: register_command('deploy', description=\"…\", "
            "handler=fn))",
        ),
        (
            {"description": "d", "handler": "deploy.sh"},
            "register_command('deploy'): the handler is not callable: 'deploy.sh' "
            "(the Python form: register_command('deploy', description=\"…\", handler=fn))",
        ),
        (
            {"description": "d"},
            "register_command('deploy', {...}): no 'handler' "
            "(the Python form: register_command('deploy', description=\"…\", handler=fn))",
        ),
        (
            {"handler": lambda a, c: None, "getArgumentCompletions": ["main"]},
            "register_command('deploy'): get_argument_completions is not callable: ['main'] "
            "(the Python form: register_command('deploy', description=\"…\", handler=fn))",
        ),
    ],
    ids=["unknown_key", "handler_not_callable", "no_handler", "completions_not_callable"],
)
def test_a_bad_command_dict_fails_saying_the_python_form(
    options: dict[str, Any], wording: str
) -> None:
    with pytest.raises(OptionsError) as caught:
        _api().register_command("deploy", options)
    assert str(caught.value) == wording


def test_a_non_callable_handler_fails_at_registration_not_when_typed() -> None:
    with pytest.raises(OptionsError, match=r"the handler is not callable: 42"):
        _api().register_command("deploy", 42)  # type: ignore[call-overload]


def test_a_key_given_both_in_the_dict_and_as_a_keyword_is_refused() -> None:
    with pytest.raises(OptionsError) as caught:
        _api().register_command(  # type: ignore[call-overload]
            "deploy", {"handler": lambda a, c: None}, description="d"
        )
    assert str(caught.value) == (
        "register_command('deploy', {...}): give description in the mapping or as keywords, "
        "not both"
    )


def test_a_camel_and_a_snake_spelling_of_one_key_are_refused() -> None:
    with pytest.raises(OptionsError, match=r"'Default' is given twice \(as 'default' too\)"):
        _api().register_flag("plan", {"default": True, "Default": False})  # both: default


# -- register_shortcut ----------------------------------------------------------------------


async def test_the_dict_form_of_a_shortcut_binds_its_handler(make_runner: MakeRunner) -> None:
    pressed: list[object] = []
    built = make_runner(
        lambda pi: pi.register_shortcut(
            "ctrl+k", {"description": "Clear", "handler": pressed.append}
        )
    )
    shortcut = built.runner.get_registered_shortcuts()["ctrl+k"]
    assert shortcut.description == "Clear"
    await built.runner.run_shortcut("ctrl+k")
    assert len(pressed) == 1


@pytest.mark.parametrize(
    ("options", "wording"),
    [
        (
            {"description": "d", "handler": lambda c: None, "key": "ctrl+k"},
            "register_shortcut('ctrl+k', {...}): unknown key 'key'; keys: description, handler "
            "(the Python form: register_shortcut('ctrl+k', handler, description=\"…\"))",
        ),
        (
            {"description": "d"},
            "register_shortcut('ctrl+k', {...}): the handler is not callable: None "
            "(the Python form: register_shortcut('ctrl+k', handler, description=\"…\"))",
        ),
    ],
    ids=["unknown_key", "no_handler"],
)
def test_a_bad_shortcut_dict_fails_saying_the_python_form(
    options: dict[str, Any], wording: str
) -> None:
    with pytest.raises(OptionsError) as caught:
        _api().register_shortcut("ctrl+k", options)
    assert str(caught.value) == wording


# -- register_flag ------------------------------------------------------------------------


def test_the_dict_form_of_a_flag_registers_it() -> None:
    api = _api()
    api.register_flag("target", {"type": "string", "default": "prod", "description": "Where"})
    flag = api.hook.flags["target"]
    assert (flag.type, flag.default, flag.description) == ("string", "prod", "Where")
    assert api.get_flag("target") == "prod"


def test_a_bad_flag_dict_fails_saying_the_python_form() -> None:
    with pytest.raises(OptionsError) as caught:
        _api().register_flag("plan", {"typ": "boolean"})
    assert str(caught.value) == (
        "register_flag('plan', {...}): unknown key 'typ' (did you mean 'type'?); keys: "
        "default, description, type (the Python form: register_flag('plan', type=\"boolean\", "
        'default=False, description="…"))'
    )


# -- register_tool ------------------------------------------------------------------------


def test_pi_s_tool_definition_registers_a_tool() -> None:
    api = _api()

    def render_call(args: dict[str, Any], theme: object) -> str:
        return "call"

    api.register_tool(
        {
            "name": "forecast",
            "label": "Forecast",
            "description": "Weather forecast for a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            "execute": _execute,
            "promptSnippet": "forecast: the weather",
            "promptGuidelines": ["Ask for a city first"],
            "renderCall": render_call,
        }
    )
    tool = api.hook.tools["forecast"]
    assert isinstance(tool, Tool)
    assert (tool.label, tool.prompt_snippet, tool.prompt_guidelines) == (
        "Forecast",
        "forecast: the weather",
        ["Ask for a city first"],
    )
    assert tool.meta["render_call"] is render_call


@pytest.mark.parametrize(
    ("options", "wording"),
    [
        (
            {
                "name": "forecast",
                "description": "d",
                "parameters": {"type": "object"},
                "execute": _execute,
                "promptSnipet": "x",
            },
            "register_tool({'name': 'forecast', ...}): unknown key 'promptSnipet' "
            "(did you mean 'prompt_snippet'?); keys: description, execute, label, meta, name, "
            "parameters, prompt_guidelines, prompt_snippet, render_call, render_result "
            "(the Python form: register_tool(Tool('forecast', description, parameters, "
            "execute)))",
        ),
        (
            {"name": "forecast", "description": "d", "parameters": {"type": "object"}},
            "register_tool({'name': 'forecast', ...}): no 'execute' (the Python form: "
            "register_tool(Tool('forecast', description, parameters, execute)))",
        ),
        (
            {
                "name": "forecast",
                "description": "d",
                "parameters": {"type": "object"},
                "execute": "run",
            },
            "register_tool({'name': 'forecast', ...}): execute is not callable: 'run' "
            "(the Python form: register_tool(Tool('forecast', description, parameters, "
            "execute)))",
        ),
    ],
    ids=["unknown_key", "no_execute", "execute_not_callable"],
)
def test_a_bad_tool_definition_fails_saying_the_python_form(
    options: dict[str, Any], wording: str
) -> None:
    with pytest.raises(OptionsError) as caught:
        _api().register_tool(options)
    assert str(caught.value) == wording


def test_something_else_than_a_tool_says_the_python_form() -> None:
    with pytest.raises(TypeError) as caught:
        _api().register_tool("forecast")  # type: ignore[arg-type]
    assert str(caught.value) == (
        "register_tool takes a Tool, got str (the Python form: "
        "register_tool(Tool(name, description, parameters, execute)))"
    )


def test_a_flag_s_options_that_are_not_a_mapping_say_the_python_form() -> None:
    with pytest.raises(OptionsError) as caught:
        _api().register_flag("plan", "boolean")  # type: ignore[arg-type]
    assert str(caught.value) == (
        "register_flag('plan', {...}): options must be a mapping (the Python form: "
        'register_flag(\'plan\', type="boolean", default=False, description="…"))'
    )
