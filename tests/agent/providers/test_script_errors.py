"""Bad script files fail at load with one line naming the file, the turn and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.agent.providers import ScriptedProvider, ScriptError


def load(tmp_path: Path, text: str, name: str = "s.yaml") -> ScriptError:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ScriptError) as err:
        ScriptedProvider(path)
    message = str(err.value)
    assert "\n" not in message, "the CLI prints it on one line"
    assert str(path) in message
    assert err.value.file == str(path)
    return err.value


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="file not found") as err:
        ScriptedProvider(tmp_path / "nope.yaml")
    assert "nope.yaml" in str(err.value)


def test_invalid_yaml_names_line(tmp_path: Path) -> None:
    err = load(tmp_path, "turns:\n  - text: [unclosed\n")
    assert "invalid YAML" in str(err) and "line" in str(err)


def test_invalid_json_names_line(tmp_path: Path) -> None:
    err = load(tmp_path, '{"turns": [\n  {"text": "a",}\n]}', name="s.json")
    assert "invalid JSON at line 2" in str(err)


@pytest.mark.parametrize(
    ("text", "turn", "needle"),
    [
        ("turns:\n  - text: ok\n  - 42\n", 1, "a turn must be a mapping, got a number"),
        ("turns:\n  - tool_calls:\n      - {arguments: {}}\n", 0, "tool_calls[0]: missing 'name'"),
        ("turns:\n  - tool_calls: {name: x}\n", 0, ".tool_calls: must be a list"),
        (
            "turns:\n  - tool_calls: [{name: x, arguments: [1]}]\n",
            0,
            "'arguments' must be a mapping",
        ),
        ("turns:\n  - tool_calls: [{name: x, args: {}}]\n", 0, "unknown key 'args'"),
        ("turns:\n  - {}\n  - {}\n  - tool_call: []\n", 2, "unknown key 'tool_call'"),
        ("turns:\n  - text: 3\n", 0, ".text: must be a string"),
        ("turns:\n  - error: {transient: true}\n", 0, ".error: missing 'message'"),
        (
            "turns:\n  - error: {message: x, transient: maybe}\n",
            0,
            "'transient' must be true or false",
        ),
        ("turns:\n  - usage: {input_tokens: -1}\n", 0, "input_tokens must be an integer >= 0"),
        ("turns:\n  - usage: {tokens: 1}\n", 0, "unknown key 'tokens'"),
        ("turns:\n  - delay_ms: soon\n", 0, ".delay_ms: must be a number >= 0"),
        ("turns:\n  - stop_reason: done\n", 0, ".stop_reason: must be one of"),
        ("turns:\n  - expect_user_contains: {a: 1}\n", 0, "must be a string or a list of strings"),
        # every key, each way it can be wrong
        ("turns:\n  - thinking: [a]\n", 0, ".thinking: must be a string, got a list"),
        ("turns:\n  - hi\n  - text: true\n", 1, ".text: must be a string, got a boolean"),
        ("turns:\n  - tool_calls: [3]\n", 0, ".tool_calls[0]: must be a mapping, got a number"),
        ("turns:\n  - tool_calls: [{name: 3}]\n", 0, "tool_calls[0]: missing 'name'"),
        ("turns:\n  - tool_calls: [{name: ''}]\n", 0, "tool_calls[0]: missing 'name'"),
        (
            "turns:\n  - tool_calls: [{name: a}, {name: b, id: 7}]\n",
            0,
            ".tool_calls[1]: 'id' must be a string",
        ),
        (
            "turns:\n  - tool_calls: [{name: x, arguments: text}]\n",
            0,
            ".tool_calls[0]: 'arguments' must be a mapping, got a string",
        ),
        (
            "turns:\n  - tool_calls: [{name: x, args: {}}]\n",
            0,
            "unknown key 'args' (did you mean 'arguments'? expected name, arguments, id)",
        ),
        ("turns:\n  - usage: 5\n", 0, ".usage: must be a mapping, got a number"),
        ("turns:\n  - usage: {output_tokens: true}\n", 0, "output_tokens must be an integer >= 0"),
        ("turns:\n  - usage: {output_tokens: 1.5}\n", 0, "output_tokens must be an integer >= 0"),
        ("turns:\n  - usage: {cache_read_tokens: '3'}\n", 0, "cache_read_tokens must be an int"),
        (
            "turns:\n  - usage: {tokens: 1}\n",
            0,
            ".usage: unknown key 'tokens' (did you mean 'input_tokens'? expected input_tokens,"
            " output_tokens, cache_read_tokens, cache_write_tokens)",
        ),
        ("turns:\n  - error: [boom]\n", 0, ".error: must be a mapping, got a list"),
        ("turns:\n  - error: ''\n", 0, ".error: missing 'message'"),
        ("turns:\n  - error: {message: x, status: '500'}\n", 0, "'status' must be an integer"),
        ("turns:\n  - error: {message: x, status: true}\n", 0, "'status' must be an integer"),
        ("turns:\n  - error: {message: x, transient: null}\n", 0, "'transient' must be true"),
        (
            "turns:\n  - error: {message: x, code: 1}\n",
            0,
            ".error: unknown key 'code' (expected message, transient, status)",
        ),
        ("turns:\n  - delay_ms: -1\n", 0, ".delay_ms: must be a number >= 0, got -1"),
        ("turns:\n  - delay_ms: true\n", 0, ".delay_ms: must be a number >= 0, got True"),
        ("turns:\n  - delay_ms: null\n", 0, ".delay_ms: must be a number >= 0, got None"),
        (
            "turns:\n  - stop_reason: 3\n",
            0,
            ".stop_reason: must be one of stop, tool_use, length, error, aborted",
        ),
        ("turns:\n  - expect_system_contains: [a, 1]\n", 0, ".expect_system_contains: must be"),
        ("turns:\n  - expect_tool_result_contains: 1\n", 0, "must be a string or a list of"),
        (
            "turns:\n  - tool_call: []\n",
            0,
            "unknown key 'tool_call' (did you mean 'tool_calls'? expected one of text, thinking,"
            " tool_calls, usage, error,"
            " delay_ms, stop_reason, expect_user_contains, expect_tool_result_contains,"
            " expect_system_contains)",
        ),
    ],
)
def test_bad_turns_name_turn_and_problem(tmp_path: Path, text: str, turn: int, needle: str) -> None:
    err = load(tmp_path, text)
    assert err.turn == turn
    assert f"turns[{turn}]" in str(err)
    assert needle in str(err)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "'turns' must be a list, got nothing"),
        ("turns: {text: hi}\n", "'turns' must be a list, got a mapping"),
        ("steps: []\n", "unknown top-level key 'steps'"),
        ("{}\n", "missing 'turns'"),
        ("just words\n", "'turns' must be a list, got a string"),
        ("7\n", "'turns' must be a list, got a number (7)"),
        ("turns: null\n", "'turns' must be a list, got nothing (null)"),
        # a misspelt top-level key is told before anything inside the turns
        ("turns: [{text: 3}]\nsteps: []\n", "unknown top-level key 'steps' (expected 'turns')"),
    ],
)
def test_bad_top_level_shape(tmp_path: Path, text: str, needle: str) -> None:
    err = load(tmp_path, text)
    assert err.turn is None
    assert needle in str(err)


def test_from_turns_is_validated_too() -> None:
    with pytest.raises(ScriptError, match=r"script <inline>: turns\[0\]\.tool_calls\[0\]"):
        ScriptedProvider.from_turns([{"tool_calls": [{"name": ""}]}])


@pytest.mark.parametrize(
    ("text", "where", "needle"),
    [
        # an unknown key explains what is wrong around it, so it is told first
        ("turns:\n  - {text: 3, txet: a}\n", "turns[0]: ", "unknown key 'txet'"),
        ("turns:\n  - tool_calls: [{nme: x}]\n", "turns[0].tool_calls[0]: ", "unknown key 'nme'"),
        ("turns:\n  - error: {msg: x}\n", "turns[0].error: ", "unknown key 'msg'"),
        # the first bad turn is the one told
        ("turns:\n  - text: 1\n  - bad: 2\n", "turns[0].text: ", "must be a string"),
        ("turns:\n  - ok\n  - {text: 1, bad: 2}\n", "turns[1]: ", "unknown key 'bad'"),
    ],
)
def test_which_problem_is_told_first(tmp_path: Path, text: str, where: str, needle: str) -> None:
    err = load(tmp_path, text)
    assert f"{where}{needle}" in str(err)


def test_json_files_are_checked_the_same(tmp_path: Path) -> None:
    err = load(tmp_path, '[{"text": "a"}, {"usage": {"input_tokens": -3}}]', name="s.json")
    assert err.turn == 1
    assert "turns[1].usage: input_tokens must be an integer >= 0" in str(err)


@pytest.mark.parametrize(
    ("turns", "needle"),
    [
        (["ok", 42], r"turns\[1\]: a turn must be a mapping, got a number \(42\)"),
        ([{"delay_ms": -5}], r"turns\[0\]\.delay_ms: must be a number >= 0, got -5"),
        ([{"stop_reason": "done"}], r"turns\[0\]\.stop_reason: must be one of stop"),
    ],
)
def test_from_turns_mappings_get_the_same_messages(turns: list[object], needle: str) -> None:
    with pytest.raises(ScriptError, match=rf"^script <inline>: {needle}"):
        ScriptedProvider.from_turns(turns)  # type: ignore[arg-type]
