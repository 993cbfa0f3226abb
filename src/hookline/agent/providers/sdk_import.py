"""A provider's client library imported in a background thread, off the path to the first
request.

Importing the ``openai`` SDK costs about a second, ``httpx2`` (which the Anthropic
provider speaks the Messages API over) about a tenth of that; in the terminal
app a provider starts it when it is built, as soon as the model is known, and
waits for it at its first request, so the app keeps taking keys meanwhile.
CPython takes a lock per module while importing it, so the main thread importing
the same modules meanwhile waits for them rather than seeing them half done.
``HOOKLINE_SDK_PREFETCH=0`` imports in the caller there too (the benchmark's "before").
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import os
import threading
from types import ModuleType

from hookline.agent.provider import ProviderError

#: Set to ``0`` to import the SDK where the provider is built, as before the prefetch.
PREFETCH_ENV = "HOOKLINE_SDK_PREFETCH"


def _missing(module: str) -> ProviderError:
    """The SDKs are optional (``hookline[openai]``, ``hookline[all]``) so the scripted
    default stays small: say which extra to install."""
    from hookline._extras import install_hint

    return ProviderError(
        f"the {module} provider needs the {module} SDK, which is not installed: "
        + install_hint(module),
        transient=False,
    )


def import_sdk(module: str) -> ModuleType:
    """The provider SDK ``module`` now, or a ``ProviderError`` naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise _missing(module) from exc


class SdkImport:
    """The SDK ``module`` being imported; ``await loaded()`` for it.

    ``in_thread``: import in a background thread (a run with time to fill: the terminal
    app, which takes keys meanwhile); else now, in the caller (a ``-p`` run goes straight
    to its request, and a CPU-bound import in a thread only slows the main thread's own
    work under the GIL). A missing SDK raises at once (a cheap ``find_spec``) either way,
    so a run without it still fails before any hook runs.
    """

    def __init__(self, module: str, *, in_thread: bool) -> None:
        self.name = module
        self._module: ModuleType | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        # Always through ``import_module``, even when ``sys.modules`` has it: another
        # provider's thread may still be running its body, and only the import waits for that.
        if importlib.util.find_spec(module) is None:
            raise _missing(module)
        if not in_thread or os.environ.get(PREFETCH_ENV) == "0":
            self._module = import_sdk(module)
            return
        self._thread = threading.Thread(target=self._run, name=f"import {module}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._module = importlib.import_module(self.name)
        except BaseException as exc:  # re-raised in the thread that asks for the module
            self._error = exc

    async def loaded(self) -> ModuleType:
        """The module, once imported; the event loop keeps running while it waits."""
        thread = self._thread
        if thread is not None and thread.is_alive():
            await asyncio.to_thread(thread.join)
        if self._error is not None:
            if isinstance(self._error, ImportError):
                raise _missing(self.name) from self._error
            raise self._error
        assert self._module is not None
        return self._module
