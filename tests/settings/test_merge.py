"""The merge helpers on their own: deep merge, list union, scalar override, no aliasing."""

from __future__ import annotations

from typing import Any

from hookline.settings import deep_merge, merge_all, union_lists


def test_union_keeps_first_occurrence_order() -> None:
    assert union_lists([3, 1, 3], [2, 1, 4]) == [3, 1, 2, 4]


def test_union_of_unhashable_and_look_alike_values() -> None:
    assert union_lists([{"a": 1}, [1]], [{"a": 1}, [1], {"a": 2}]) == [{"a": 1}, [1], {"a": 2}]
    assert union_lists([1, 1.0], [True, "1"]) == [1, 1.0, True, "1"]
    assert union_lists([{"a": 1, "b": 2}], [{"b": 2, "a": 1}]) == [{"a": 1, "b": 2}]


def test_deep_merge_rules() -> None:
    base: dict[str, Any] = {"o": {"a": 1, "n": {"x": 1}}, "l": [1, 2], "s": "old", "keep": 0}
    over: dict[str, Any] = {"o": {"b": 2, "n": {"y": 2}}, "l": [2, 3], "s": "new"}
    assert deep_merge(base, over) == {
        "o": {"a": 1, "b": 2, "n": {"x": 1, "y": 2}},
        "l": [1, 2, 3],
        "s": "new",
        "keep": 0,
    }


def test_type_change_takes_the_later_value() -> None:
    assert deep_merge({"a": {"x": 1}, "b": [1]}, {"a": 1, "b": {"y": 1}}) == {
        "a": 1,
        "b": {"y": 1},
    }


def test_inputs_are_not_modified_or_aliased() -> None:
    base: dict[str, Any] = {"o": {"l": [1]}}
    over: dict[str, Any] = {"o": {"m": {"k": [2]}}}
    merged = deep_merge(base, over)
    merged["o"]["l"].append(9)
    merged["o"]["m"]["k"].append(9)
    assert base == {"o": {"l": [1]}}
    assert over == {"o": {"m": {"k": [2]}}}


def test_merge_all_in_order() -> None:
    assert merge_all([{"a": 1, "l": [1]}, {"a": 2, "l": [2]}, {"a": 3}]) == {"a": 3, "l": [1, 2]}
    assert merge_all([]) == {}
