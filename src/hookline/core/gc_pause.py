"""Start-up without the cyclic GC: imports and set-up allocate many objects and free few.

Class bodies, dataclasses and module dicts are allocated by the thousand while
a command starts, and each allocation burst triggers a collection that walks
every object made so far, finding next to nothing (about a tenth of a scripted
``-p`` turn). ``gc.freeze`` afterwards moves what start-up made, which lives
as long as the process, out of the generations later collections walk.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The collector off inside; on a normal exit what was made is frozen. It is switched
    back on only if it was on: an embedder's own choice stands."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        gc.freeze()
    finally:
        if was_enabled:
            gc.enable()
