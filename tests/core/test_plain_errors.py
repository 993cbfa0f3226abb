"""Pydantic's errors in plain words: what was expected, what was given, never its sentence."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hookline.core.plain_errors import plain_errors
from hookline.core.results import InvalidResultError, coerce_result


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: int = 0
    ratio: float = 1.0
    flag: bool = False
    name: str = Field(default="x", min_length=1)
    items: list[str] = Field(default_factory=list, min_length=1)
    mode: Literal["a", "b"] = "a"
    positive: int = Field(default=1, gt=0)
    needed: str


@pytest.mark.parametrize(
    ("data", "line"),
    [
        ({"count": "ten"}, "count: expected an integer, got str 'ten'"),
        ({"ratio": "x"}, "ratio: expected a number, got str 'x'"),
        ({"flag": "maybe"}, "flag: expected true or false, got str 'maybe'"),
        ({"name": ""}, "name: expected at least 1 character, got str ''"),
        ({"items": []}, "items: expected at least 1 item, got list []"),
        ({"items": [5]}, "items[0]: expected a string, got int 5"),
        ({"mode": "c"}, "mode: expected 'a' or 'b', got str 'c'"),
        ({"positive": 0}, "positive: expected a number greater than 0, got int 0"),
        ({"cont": 1}, "cont: unknown key 'cont' (did you mean 'count'?)"),
    ],
)
def test_each_error_says_what_was_expected_and_given(data: dict[str, object], line: str) -> None:
    with pytest.raises(ValidationError) as info:
        _Model.model_validate({"needed": "y", **data})
    assert plain_errors(info.value.errors(), known=_Model.model_fields) == [line]


def test_a_missing_field_and_the_count_beyond_the_limit() -> None:
    with pytest.raises(ValidationError) as info:
        _Model.model_validate({"count": "a", "ratio": "b", "flag": "c"})
    lines = plain_errors(info.value.errors(), limit=2)
    assert lines[-1] == "... and 2 more errors"
    assert "needed: required, but missing" in plain_errors(info.value.errors())


@pytest.mark.parametrize(
    ("event", "value", "message"),
    [
        (
            "tool_result",
            {"content": [{"type": "txt", "text": "x"}]},
            "invalid tool_result result: content[0].type: expected 'text' or 'image', "
            "got str 'txt'",
        ),
        (
            "tool_result",
            {"content": [{"type": "text", "txt": "x"}]},
            "invalid tool_result result: content[0].text: required, but missing; "
            "content[0].txt: unknown key 'txt' (did you mean 'text'?)",
        ),
        (
            "session_before_compact",
            {"compaction": {"sumary": "x"}},
            "invalid session_before_compact result: compaction.summary: required, but missing; "
            "compaction.sumary: unknown key 'sumary' (did you mean 'summary'?)",
        ),
        (
            "tool_call",
            {"blok": True, "reason": 5},
            "unknown result key 'blok' for tool_call — did you mean 'block'? (accepted keys: "
            "block, reason, input, permission); invalid tool_call result: reason: expected a "
            "string, got int 5",
        ),
    ],
)
def test_a_nested_result_error_names_the_member_meant_and_the_key(
    event: str, value: dict[str, object], message: str
) -> None:
    """Union members (TextContent, ImageContent) are pydantic's names: never shown."""
    with pytest.raises(InvalidResultError) as info:
        coerce_result(event, value)
    assert str(info.value) == message


def test_a_capitalised_key_of_the_users_is_not_taken_for_a_union_member() -> None:
    errors = [{"type": "missing", "loc": ("PreToolUse", 0, "hooks", 0, "command"), "input": {}}]
    assert plain_errors(errors) == ["PreToolUse[0].hooks[0].command: required, but missing"]
