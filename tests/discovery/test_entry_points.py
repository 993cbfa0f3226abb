"""Installed packages: entry points of group ``hookline.hooks`` from a real dist-info."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

from hookline.discovery import ENTRY_POINT_GROUP, discover_hooks, load_hooks

from .conftest import MakeDist, WriteHook

MODULE_HOOK = """
def register(pi):
    pi.register_command("from-module", lambda args, ctx: None)
"""

FACTORY_HOOK = """
def make_hook(pi):
    pi.register_command("from-factory", lambda args, ctx: None)


class _Factory:
    def __call__(self, pi):
        pi.register_command("from-instance", lambda args, ctx: None)


instance = _Factory()
"""


def test_real_dist_info_is_seen_by_importlib_metadata(make_dist: MakeDist) -> None:
    make_dist("ep-seen", {"seen": "ep_seen_mod"}, {"ep_seen_mod.py": MODULE_HOOK})

    names = [ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)]

    assert "seen" in names


def test_module_factory_and_callable_instance_entry_points_load(make_dist: MakeDist) -> None:
    make_dist(
        "ep-kinds",
        {
            "c_module": "ep_kinds_mod",
            "b_factory": "ep_kinds_fac:make_hook",
            "a_instance": "ep_kinds_fac:instance",
        },
        {"ep_kinds_mod.py": MODULE_HOOK, "ep_kinds_fac.py": FACTORY_HOOK},
    )

    result = load_hooks(discover_hooks(user=False))

    assert [s.origin for s in result.sources] == [
        "entry_point:a_instance",
        "entry_point:b_factory",
        "entry_point:c_module",
    ]
    assert [h.path for h in result.hooks] == [
        "ep_kinds_fac:instance",
        "ep_kinds_fac:make_hook",
        "ep_kinds_mod",
    ]
    assert [sorted(h.commands) for h in result.hooks] == [
        ["from-instance"],
        ["from-factory"],
        ["from-module"],
    ]
    assert result.errors == []


@pytest.mark.parametrize(
    ("value", "files", "expected"),
    [
        ("ep_bad_missing_pkg_xyz", {}, "import error: No module named 'ep_bad_missing_pkg_xyz'"),
        ("ep_bad_noreg", {"ep_bad_noreg.py": "X = 1\n"}, "no module-level `register`"),
        ("ep_bad_attr:VALUE", {"ep_bad_attr.py": "VALUE = 3\n"}, "entry point object is not"),
        ("ep_bad_syntax", {"ep_bad_syntax.py": "def (:\n"}, "syntax error in "),
        (
            "ep_bad_raise:reg",
            {"ep_bad_raise.py": "def reg(pi):\n    raise KeyError('k')\n"},
            "register() raised KeyError: 'k'",
        ),
    ],
)
def test_broken_entry_points_are_errors_and_others_still_load(
    make_dist: MakeDist, value: str, files: dict[str, str], expected: str
) -> None:
    make_dist("ep-bad", {"bad": value}, files)
    make_dist("ep-good", {"good": "ep_good_mod"}, {"ep_good_mod.py": MODULE_HOOK})

    result = load_hooks(discover_hooks(user=False))

    assert [h.path for h in result.hooks] == ["ep_good_mod"]
    [error] = result.errors
    assert (error.path, error.origin) == (value, "entry_point:bad")
    assert expected in error.reason, error.reason


def test_same_entry_point_name_from_two_packages_is_shadowed(make_dist: MakeDist) -> None:
    # syspath_prepend puts the later site first, so "ep-second" is found first.
    make_dist("ep-first", {"same": "ep_first_mod"}, {"ep_first_mod.py": MODULE_HOOK})
    make_dist("ep-second", {"same": "ep_second_mod"}, {"ep_second_mod.py": MODULE_HOOK})

    found = discover_hooks(user=False)

    assert [s.path for s in found.sources] == ["ep_second_mod"]
    [shadow] = found.shadowed
    assert (shadow.source.path, shadow.by.path) == ("ep_first_mod", "ep_second_mod")


def test_entry_points_come_after_file_sources(
    tmp_path: Path, user_hooks: Path, write_hook: WriteHook, make_dist: MakeDist
) -> None:
    make_dist("ep-last", {"last": "ep_last_mod"}, {"ep_last_mod.py": MODULE_HOOK})
    write_hook(user_hooks / "u.py")

    found = discover_hooks(cli_paths=[write_hook(tmp_path / "c.py")])

    assert [s.origin for s in found.sources] == ["cli", "user", "entry_point:last"]


def test_entry_points_are_asked_for_by_group(
    monkeypatch: pytest.MonkeyPatch, make_dist: MakeDist
) -> None:
    """The ``group=`` form only: the dict form is slower and raises on Python 3.12+."""
    # a real distribution declaring the group, so the cheap check hands over to the lookup
    make_dist("ep-asked", {"asked": "ep_asked_mod"}, {})
    calls: list[dict[str, str]] = []

    def fake_entry_points(**kwargs: str) -> metadata.EntryPoints:
        calls.append(kwargs)
        ep = metadata.EntryPoint("fake", "fake_mod", ENTRY_POINT_GROUP)
        return metadata.EntryPoints([ep])

    monkeypatch.setattr(metadata, "entry_points", fake_entry_points)

    found = discover_hooks(user=False)

    assert calls == [{"group": ENTRY_POINT_GROUP}]
    assert [s.origin for s in found.sources] == ["entry_point:fake"]
