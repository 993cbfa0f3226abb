"""``gc_paused``: the collector is off for start-up, back on after, and what start-up made
is frozen only when it finished."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from hookline.core.gc_pause import gc_paused


@pytest.fixture(autouse=True)
def _restore_gc() -> Iterator[None]:
    was_enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if was_enabled:
        gc.enable()
    else:
        gc.disable()


def test_off_inside_on_after_and_what_was_made_is_frozen() -> None:
    gc.enable()
    gc.unfreeze()
    with gc_paused():
        assert not gc.isenabled()
        made = [[] for _ in range(100)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(made)


def test_an_embedder_that_turned_gc_off_keeps_it_off() -> None:
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()


def test_a_failed_start_up_is_not_frozen_and_gc_comes_back() -> None:
    gc.enable()
    gc.unfreeze()
    with pytest.raises(RuntimeError, match="boom"), gc_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
