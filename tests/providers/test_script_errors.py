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
    ],
)
def test_bad_top_level_shape(tmp_path: Path, text: str, needle: str) -> None:
    err = load(tmp_path, text)
    assert err.turn is None
    assert needle in str(err)


def test_from_turns_is_validated_too() -> None:
    with pytest.raises(ScriptError, match=r"script <inline>: turns\[0\]\.tool_calls\[0\]"):
        ScriptedProvider.from_turns([{"tool_calls": [{"name": ""}]}])
