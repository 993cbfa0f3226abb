"""Script files are checked by pydantic models, which turn them into the turns played; the
models load only for what needs checking."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from hookline.agent.providers._script_models import _Error, _ToolCall, _Turn, _Usage
from hookline.agent.providers.script_file import (
    SCRIPT_KEYS,
    ScriptedToolCall,
    ScriptedTurn,
    ScriptError,
    load_script,
    parse_turns,
)

COMPLEX = """\
turns:
  - plain text turn
  - thinking: Look first.
    text: Looking.
    tool_calls:
      - {name: read, arguments: {path: a.txt, limit: 3}}
      - {name: bash, arguments: null, id: my_id}
      - {name: ls}
    usage: {input_tokens: 100, cache_read_tokens: 7}
    stop_reason: tool_use
    expect_user_contains: list the files
    expect_tool_result_contains: [one, two]
  - error: overloaded
  - error: {message: rate limited, status: 429}
  - error: {message: bad key, status: 401}
  - error: {message: forced, transient: false, status: 503}
  - text: null
    thinking: null
    tool_calls: null
    usage: null
    error: null
    stop_reason: null
    expect_system_contains: null
  - delay_ms: 250
    expect_system_contains: [sub-agent]
    text: slow
  - {delay_ms: 0.5, usage: {}}
"""


def _plain(turn: ScriptedTurn) -> dict[str, Any]:
    """A turn with its error as comparable values (exceptions compare by identity)."""
    fields = {name: getattr(turn, name) for name in ScriptedTurn.__dataclass_fields__}
    error = fields.pop("error")
    fields["error"] = None if error is None else (str(error), error.transient, error.status)
    return fields


def test_a_complex_script_gives_the_same_turns_as_before(tmp_path: Path) -> None:
    path = tmp_path / "complex.yaml"
    path.write_text(COMPLEX, encoding="utf-8")

    turns = [_plain(turn) for turn in load_script(path)]

    def turn(**given: Any) -> dict[str, Any]:
        return _plain(ScriptedTurn(**given))

    assert turns == [
        turn(text="plain text turn"),
        turn(
            thinking="Look first.",
            text="Looking.",
            tool_calls=[
                ScriptedToolCall("read", {"path": "a.txt", "limit": 3}),
                ScriptedToolCall("bash", {}, "my_id"),
                ScriptedToolCall("ls", {}),
            ],
            usage={"input_tokens": 100, "cache_read_tokens": 7},  # only the counts given
            stop_reason="tool_use",
            expect_user_contains=["list the files"],
            expect_tool_result_contains=["one", "two"],
        ),
        {**turn(), "error": ("overloaded", False, None)},
        {**turn(), "error": ("rate limited", True, 429)},  # transient from the status
        {**turn(), "error": ("bad key", False, 401)},
        {**turn(), "error": ("forced", False, 503)},  # an explicit transient wins
        turn(),  # null is "not given" for every key that has a default
        turn(text="slow", delay_ms=250.0, expect_system_contains=["sub-agent"]),
        turn(delay_ms=0.5, usage={}),
    ]
    assert all(isinstance(t.delay_ms, float) for t in load_script(path))


def test_the_models_declare_the_documented_keys() -> None:
    """``SCRIPT_KEYS`` (what the unknown-key message lists) is what the model accepts."""
    assert tuple(_Turn.model_fields) == SCRIPT_KEYS
    assert tuple(_ToolCall.model_fields) == ("name", "arguments", "id")
    assert tuple(_Error.model_fields) == ("message", "transient", "status")
    assert tuple(_Usage.model_fields) == (
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
    )


def test_strings_are_not_coerced(tmp_path: Path) -> None:
    """Strict: a quoted number is not a count, a count is not a flag (the models enforce it)."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps([{"usage": {"input_tokens": "10"}}]), encoding="utf-8")
    with pytest.raises(ScriptError, match=r"turns\[0\]\.usage: input_tokens must be an integer"):
        load_script(path)
    path.write_text(json.dumps([{"error": {"message": "x", "transient": 1}}]), encoding="utf-8")
    with pytest.raises(ScriptError, match=r"turns\[0\]\.error: 'transient' must be true or false"):
        load_script(path)


#: Prints whether pydantic and the models module were imported after running ``sys.argv[1]``.
_PROBE = """
import sys
exec(sys.argv[1])
print(json.dumps(["pydantic" in sys.modules, "{models}" in sys.modules]))
""".replace("{models}", "hookline.agent.providers._script_models")


def _loads_pydantic(code: str) -> list[bool]:
    done = subprocess.run(
        [sys.executable, "-c", "import json\n" + _PROBE, code],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result: list[bool] = json.loads(done.stdout)
    return result


def test_typed_in_memory_turns_import_no_pydantic() -> None:
    code = (
        "from hookline.agent.providers.scripted import ScriptedProvider, ScriptedTurn\n"
        "p = ScriptedProvider.from_turns(['hello', ScriptedTurn(text='typed')])\n"
        "assert p.remaining == 2\n"
    )
    assert _loads_pydantic(code) == [False, False]


@pytest.mark.parametrize(
    "code",
    [
        "ScriptedProvider.from_turns(['hello', {'text': 'a mapping'}])",
        "import pathlib; pathlib.Path('x.json').write_text('[{\"text\": \"hi\"}]'); "
        "ScriptedProvider('x.json')",
        "import pathlib; pathlib.Path('x.json').write_text('{\"turns\": [], \"x\": 1}'); "
        "exec('try: ScriptedProvider(\"x.json\")\\nexcept ValueError: pass')",
    ],
)
def test_a_mapping_or_a_file_is_checked_by_the_models(code: str, tmp_path: Path) -> None:
    """Not vacuous: the probe sees pydantic when something is validated (a file of text
    turns only has nothing to check; any other shape goes through the models)."""
    code = (
        f"import os; os.chdir({str(tmp_path)!r})\n"
        "from hookline.agent.providers.scripted import ScriptedProvider\n" + code
    )
    assert _loads_pydantic(code) == [True, True]


def test_in_memory_turns_may_use_any_mapping() -> None:
    """``from_turns`` takes ``Mapping``s (as it always did), at every level."""
    call = MappingProxyType({"name": "read", "arguments": MappingProxyType({"path": "a"})})
    turn = MappingProxyType({"text": "a", "tool_calls": [call], "usage": {"input_tokens": 1}})

    (played,) = parse_turns([turn], "<inline>")

    assert played.text == "a"
    assert played.tool_calls == [ScriptedToolCall("read", {"path": "a"})]
    assert played.usage == {"input_tokens": 1}
    with pytest.raises(ScriptError, match=r"turns\[0\]\.tool_calls\[0\]: missing 'name'"):
        parse_turns([MappingProxyType({"tool_calls": [MappingProxyType({})]})], "<inline>")
