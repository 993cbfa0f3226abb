"""The merge rule of all settings sources: objects deep-merge, lists union, scalars override.

Lists union (rather than replace) so that e.g. a project's ``permissions.allow``
adds to the user's instead of silently dropping it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any


def union_lists(first: Iterable[Any], second: Iterable[Any]) -> list[Any]:
    """Items of both lists in order, each kept once (at its first occurrence).

    Items may be unhashable (JSON objects) and ``1 == True`` in Python, so
    items are compared by their canonical JSON text.
    """
    out: list[Any] = []
    seen: set[str] = set()
    for item in (*first, *second):
        key = json.dumps(item, sort_keys=True, default=repr)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` merged onto ``base``; neither input is modified.

    Two objects merge key by key, two lists union, anything else (scalars, or
    values of different JSON types) takes the value from ``override``.
    """
    merged: dict[str, Any] = {key: _copy(value) for key, value in base.items()}
    for key, value in override.items():
        current = merged.get(key)
        if isinstance(current, dict) and isinstance(value, dict):
            merged[key] = deep_merge(current, value)
        elif isinstance(current, list) and isinstance(value, list):
            merged[key] = union_lists(current, _copy(value))
        else:
            merged[key] = _copy(value)
    return merged


def merge_all(layers: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """All layers merged in order (later wins for scalars)."""
    merged: dict[str, Any] = {}
    for layer in layers:
        merged = deep_merge(merged, layer)
    return merged


def _copy(value: Any) -> Any:
    """A structural copy of a JSON value, so merged results never alias a source."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
