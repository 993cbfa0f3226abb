"""Shortcut keys: normalized, malformed ones refused, reserved ones refused at registration."""

from __future__ import annotations

import pytest

from hookline import HookAPI, KeySpecError, LoadedHook
from hookline.core.keys import (
    RESERVED_KEYS,
    check_shortcut_key,
    normalize_key,
    prompt_toolkit_keys,
)
from hookline.core.runner import HookRunner


@pytest.mark.parametrize(
    ("spec", "normal", "keys"),
    [
        ("ctrl+k", "ctrl+k", ("c-k",)),
        ("Ctrl+K", "ctrl+k", ("c-k",)),
        (" alt + x ", "alt+x", ("escape", "x")),
        ("f5", "f5", ("f5",)),
        ("ctrl+f5", "ctrl+f5", ("c-f5",)),
        ("alt++", "alt++", ("escape", "+")),
        ("ctrl+up", "ctrl+up", ("c-up",)),
        ("shift+up", "shift+up", ("s-up",)),
        ("alt+esc", "alt+escape", ("escape", "escape")),
    ],
)
def test_keys_are_normalized(spec: str, normal: str, keys: tuple[str, ...]) -> None:
    assert check_shortcut_key(spec) == normal
    assert prompt_toolkit_keys(normal) == keys


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("", "non-empty"),
        ("k", "plain character"),
        ("hyper+k", "modifiers"),
        ("ctrl+ctrl+k", "distinct"),
        ("ctrl+alt+k", "not both"),
        ("ctrl+1", "letters a-z"),
        ("shift+k", "shift apart"),
        ("ctrl+nosuchkey", "unknown key"),
    ],
)
def test_malformed_keys_are_refused_with_the_reason(spec: str, why: str) -> None:
    with pytest.raises(KeySpecError, match=why):
        normalize_key(spec)


@pytest.mark.parametrize(
    "spec", ["ctrl+c", "CTRL+D", "enter", "return", "escape", "esc", "tab", "alt+enter", "up"]
)
def test_reserved_keys_are_refused(spec: str) -> None:
    with pytest.raises(KeySpecError, match="reserved by hookline"):
        check_shortcut_key(spec)


def test_every_reserved_key_is_a_normal_form() -> None:
    for key in RESERVED_KEYS - {"ctrl+[", "ctrl+i", "ctrl+m", "ctrl+h", "ctrl+j"}:
        assert normalize_key(key) == key


def _api() -> tuple[HookAPI, LoadedHook]:
    hook = LoadedHook(path="h.py")
    return HookAPI(hook), hook


def test_register_shortcut_refuses_reserved_keys_at_registration() -> None:
    api, hook = _api()
    with pytest.raises(KeySpecError, match="'ctrl\\+c' is reserved"):
        api.register_shortcut("ctrl+c", lambda ctx: None)
    with pytest.raises(TypeError, match="not callable"):
        api.register_shortcut("ctrl+k", "nope")  # type: ignore[arg-type]
    assert hook.shortcuts == {}


async def test_registered_shortcut_runs_through_the_runner_with_a_context() -> None:
    api, hook = _api()
    seen: list[object] = []

    async def handler(ctx: object) -> None:
        seen.append(ctx)

    api.register_shortcut("Ctrl+K", handler, description="do it")
    runner = HookRunner([hook])
    assert list(runner.get_registered_shortcuts()) == ["ctrl+k"]
    assert runner.get_registered_shortcuts()["ctrl+k"].description == "do it"
    assert await runner.run_shortcut("ctrl+k") is True
    assert await runner.run_shortcut("ctrl+j") is False
    assert len(seen) == 1 and hasattr(seen[0], "wait_for_idle")  # a command context


async def test_a_failing_shortcut_is_reported_not_raised() -> None:
    api, hook = _api()

    def boom(ctx: object) -> None:
        raise RuntimeError("bad shortcut")

    api.register_shortcut("alt+b", boom)
    runner = HookRunner([hook])
    errors = []
    runner.on_error(errors.append)
    assert await runner.run_shortcut("alt+b") is True
    assert [(e.event, e.error) for e in errors] == [
        ("shortcut:alt+b", "RuntimeError: bad shortcut")
    ]


def test_first_loaded_hook_wins_a_shortcut_key() -> None:
    first, h1 = _api()
    second, h2 = _api()
    h2.path = "second.py"
    first.register_shortcut("ctrl+k", lambda ctx: "first")
    second.register_shortcut("ctrl+k", lambda ctx: "second")
    assert HookRunner([h1, h2]).get_registered_shortcuts()["ctrl+k"].hook_path == "h.py"


def test_commands_keep_their_argument_completions() -> None:
    api, hook = _api()

    @api.register_command(
        "deploy", description="ship", get_argument_completions=lambda p: ["staging"]
    )
    def deploy(args: str, ctx: object) -> None:
        return None

    command = HookRunner([hook]).get_command("deploy")
    assert command is not None and command.get_argument_completions is not None
    assert list(command.get_argument_completions("st")) == ["staging"]
