"""Import discovered hook modules and call their ``register(pi)`` factories.

Each module registers into a fresh ``LoadedHook`` that is only kept when the
whole load succeeded, so a module that fails half-way contributes nothing.
One module failing never stops the others; every failure becomes a
``LoadError`` with the path and a reason a hook author can act on.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib.machinery import SourceFileLoader
from types import ModuleType
from typing import Any

from hookline.core.api import HookAPI, LoadedHook, UnknownEventError
from hookline.core.bus import EventBus
from hookline.core.driver import is_cancellation
from hookline.core.host import AgentHost
from hookline.core.runner import DEFAULT_HOOK_TIMEOUT, HookRunner
from hookline.discovery.sources import (
    Discovery,
    HookSource,
    ShadowedSource,
    SkippedSource,
    discover_hooks,
)

#: Prefix of the ``sys.modules`` names hook modules are imported under.
MODULE_PREFIX = "_hookline_hook_"


@dataclass(frozen=True, slots=True)
class LoadError:
    """A hook module that could not be loaded, and why."""

    path: str
    reason: str
    origin: str = ""
    exception: BaseException | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass(slots=True)
class LoadResult:
    """Loaded hooks in load order with their APIs, plus everything that did not load.

    ``hooks[i]``, ``apis[i]`` and ``sources[i]`` belong together.
    """

    hooks: list[LoadedHook] = field(default_factory=list)
    apis: list[HookAPI] = field(default_factory=list)
    sources: list[HookSource] = field(default_factory=list)
    errors: list[LoadError] = field(default_factory=list)
    skipped: list[SkippedSource] = field(default_factory=list)
    shadowed: list[ShadowedSource] = field(default_factory=list)
    #: ``pi.events``: one bus for the hooks loaded together.
    events: EventBus = field(default_factory=EventBus)
    #: Hook flag values from the command line (``--name``), shared by the hooks' ``get_flag``.
    flag_values: dict[str, bool | str] = field(default_factory=dict)

    def pairs(self) -> Iterator[tuple[LoadedHook, HookAPI]]:
        """``(hook, api)`` in load order, ready for ``HookRunner.add_hook``."""
        return zip(self.hooks, self.apis, strict=True)


class _LoadFailure(Exception):
    """Internal: carries a finished reason out of the nested load steps."""

    def __init__(self, reason: str, exception: BaseException | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.exception = exception


def load_hooks(discovery: Discovery, *, cwd: str = ".") -> LoadResult:
    """Load every source of ``discovery`` in order; failures go to ``errors``.

    An ``async def register(pi)`` is a load error here: use ``load_hooks_async``.
    """
    result = LoadResult(skipped=list(discovery.skipped), shadowed=list(discovery.shadowed))
    for source in discovery.sources:
        _keep(result, source, load_source(source, cwd=cwd, shared=result))
    return result


async def load_hooks_async(discovery: Discovery, *, cwd: str = ".") -> LoadResult:
    """``load_hooks`` where ``register(pi)`` may be ``async def`` (awaited in load order)."""
    result = LoadResult(skipped=list(discovery.skipped), shadowed=list(discovery.shadowed))
    for source in discovery.sources:
        _keep(result, source, await load_source_async(source, cwd=cwd, shared=result))
    return result


def discover_and_load_hooks(
    configured_paths: Sequence[str | os.PathLike[str]] = (), cwd: str = "."
) -> LoadResult:
    """pi's one call for both steps: ``discover_hooks`` with ``configured_paths`` (relative
    to ``cwd``) and the user's and packages' hooks, then ``load_hooks``.

    The project's hook folder is not read: it needs trust, which ``discover_hooks``
    takes as ``project_dir`` and ``project_trusted``.
    """
    return load_hooks(discover_hooks(cli_paths=configured_paths, cwd=cwd), cwd=cwd)


def _keep(
    result: LoadResult, source: HookSource, loaded: tuple[LoadedHook, HookAPI] | LoadError
) -> None:
    if isinstance(loaded, LoadError):
        result.errors.append(loaded)
    else:
        hook, api = loaded
        result.hooks.append(hook)
        result.apis.append(api)
        result.sources.append(source)


def load_source(
    source: HookSource, *, cwd: str = ".", shared: LoadResult | None = None
) -> tuple[LoadedHook, HookAPI] | LoadError:
    """Load one source: a file by path or an entry point.

    A hook file that fails is also dropped from ``sys.modules``: nothing of
    it stays behind. ``shared`` gives the bus and flag values of the hooks
    loaded with it.
    """
    loaded = _start_source(source, cwd, shared)
    if isinstance(loaded, LoadError):
        return loaded
    hook, api, returned = loaded
    if inspect.isawaitable(returned):
        _close(returned)
        return _failed_source(
            source,
            _LoadFailure(
                "register() is async: load it with load_hooks_async (the agent does) "
                "or make it a plain function"
            ),
            shared,
        )
    return hook, api


async def load_source_async(
    source: HookSource, *, cwd: str = ".", shared: LoadResult | None = None
) -> tuple[LoadedHook, HookAPI] | LoadError:
    """``load_source`` that awaits an ``async def register(pi)``."""
    loaded = _start_source(source, cwd, shared)
    if isinstance(loaded, LoadError):
        return loaded
    hook, api, returned = loaded
    if inspect.isawaitable(returned):
        try:
            await returned
        except UnknownEventError as exc:
            return _failed_source(source, _LoadFailure(str(exc), exc), shared)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt) or is_cancellation(exc):
                raise
            return _failed_source(
                source, _LoadFailure(f"register() raised {_describe(exc)}", exc), shared
            )
    return hook, api


def _start_source(
    source: HookSource, cwd: str, shared: LoadResult | None
) -> tuple[LoadedHook, HookAPI, Any] | LoadError:
    try:
        if source.entry_point is not None:
            return _run_factory(_entry_point_factory(source), source.path, cwd, shared)
        try:
            return _run_factory(
                _module_factory(_import_file(source.path)), source.path, cwd, shared
            )
        except _LoadFailure:
            _forget(module_name_for(source.path))
            raise
    except _LoadFailure as failure:
        return _failed_source(source, failure, shared)


def _failed_source(
    source: HookSource, failure: _LoadFailure, shared: LoadResult | None = None
) -> LoadError:
    if shared is not None:
        shared.events.forget(source.path)
    if source.entry_point is None:
        _forget(module_name_for(source.path))
    return LoadError(source.path, failure.reason, source.origin, failure.exception)


def load_hook_file(path: str, *, cwd: str = ".") -> tuple[LoadedHook, HookAPI] | LoadError:
    """Load one hook file outside discovery (tests, ``hookline hooks test``)."""
    abspath = os.path.abspath(os.path.expanduser(path))
    return load_source(HookSource(abspath, "cli", os.path.realpath(abspath)), cwd=cwd)


def load_into_runner(result: LoadResult, runner: HookRunner) -> HookRunner:
    """Add the loaded hooks to ``runner`` in load order and bind their APIs."""
    for hook, api in result.pairs():
        runner.add_hook(hook, api)
    return runner


def build_runner(
    result: LoadResult,
    *,
    cwd: str = ".",
    timeout: float | None = DEFAULT_HOOK_TIMEOUT,
    host: AgentHost | None = None,
) -> HookRunner:
    """A new ``HookRunner`` holding the loaded hooks, their APIs bound."""
    return load_into_runner(result, HookRunner(cwd=cwd, timeout=timeout, host=host))


# -- importing ---------------------------------------------------------------


def module_name_for(path: str) -> str:
    """A ``sys.modules`` name unique per real path, so equal file names never collide.

    It has no dots: pickle imports a dotted name's parent package, which
    does not exist for hook files.
    """
    real = os.path.realpath(path)
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(real))[0])
    digest = hashlib.sha1(real.encode(), usedforsecurity=False).hexdigest()[:12]
    return f"{MODULE_PREFIX}{stem}_{digest}"


def _import_file(path: str) -> ModuleType:
    """Execute the file as a fresh module registered in ``sys.modules``.

    A package's ``__init__.py`` is imported as a package, so its relative imports
    (``from ._vendor import dep``: the hook's own modules and dependencies, kept
    beside it) find the folder's modules under the hook's own name.
    """
    if not os.path.isfile(path):
        raise _LoadFailure("file not found" if not os.path.exists(path) else "not a file")
    name = module_name_for(path)
    loader = SourceFileLoader(name, path)  # any suffix: an explicit path is a module
    inside = [os.path.dirname(path)] if os.path.basename(path) == "__init__.py" else None
    spec = importlib.util.spec_from_file_location(
        name, path, loader=loader, submodule_search_locations=inside
    )
    if spec is None:  # pragma: no cover - spec_from_file_location with a loader
        raise _LoadFailure("cannot create an import spec")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickle look the module up here
    try:
        loader.exec_module(module)
    except BaseException as exc:
        _forget(name)
        if isinstance(exc, KeyboardInterrupt):  # Ctrl+C while loading stops the agent
            raise
        raise _import_failure(exc, path) from exc
    return module


def _forget(name: str) -> None:
    """Drop a module and, for a package, the modules imported from it."""
    for loaded in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
        sys.modules.pop(loaded, None)


def _import_failure(exc: BaseException, path: str) -> _LoadFailure:
    """Turn an exception raised while importing into a reason a hook author can act on."""
    if isinstance(exc, SyntaxError):
        where = f"line {exc.lineno}"
        if exc.filename and os.path.realpath(exc.filename) != os.path.realpath(path):
            where = f"{exc.filename} line {exc.lineno}"
        return _LoadFailure(f"syntax error at {where}: {exc.msg}", exc)
    if isinstance(exc, ImportError):
        return _LoadFailure(f"import error: {exc}", exc)
    return _LoadFailure(f"error while importing: {_describe(exc)}", exc)


def _module_factory(module: ModuleType) -> Callable[..., Any]:
    if not hasattr(module, "register"):
        raise _LoadFailure("no module-level `register` function (define `def register(pi)`)")
    return _check_factory(module.register, "`register`")


def _entry_point_factory(source: HookSource) -> Callable[..., Any]:
    """An entry point names a module (use its ``register``) or a factory callable."""
    assert source.entry_point is not None
    try:
        obj = source.entry_point.load()
    except SyntaxError as exc:
        raise _LoadFailure(
            f"syntax error in {exc.filename} line {exc.lineno}: {exc.msg}", exc
        ) from exc
    except ImportError as exc:
        raise _LoadFailure(f"import error: {exc}", exc) from exc
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # GeneratorExit, CancelledError, odd subclasses: its failure
        raise _LoadFailure(f"error while importing: {_describe(exc)}", exc) from exc
    if isinstance(obj, ModuleType):
        return _module_factory(obj)
    return _check_factory(obj, "entry point object")


def _check_factory(obj: Any, what: str) -> Callable[..., Any]:
    if not callable(obj):
        raise _LoadFailure(f"{what} is not callable (it is {type(obj).__name__})")
    if inspect.isclass(obj):
        raise _LoadFailure(f"{what} must be a function, not a class")
    if inspect.isasyncgenfunction(obj):
        raise _LoadFailure(f"{what} must be a function or an async function, not a generator")
    factory: Callable[..., Any] = obj
    return factory


def _run_factory(
    factory: Callable[..., Any], path: str, cwd: str, shared: LoadResult | None
) -> tuple[LoadedHook, HookAPI, Any]:
    """Call the factory with a fresh API; anything it registered is dropped on failure.

    The third item is what it returned: an awaitable for an ``async def register``.
    """
    hook = LoadedHook(path)
    api = HookAPI(
        hook,
        cwd=cwd,
        events=shared.events if shared is not None else None,
        flag_values=shared.flag_values if shared is not None else None,
    )
    try:
        returned = factory(api)
    except UnknownEventError as exc:
        raise _LoadFailure(str(exc), exc) from exc
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # a sync call: any other type is the hook's own failure
        raise _LoadFailure(f"register() raised {_describe(exc)}", exc) from exc
    return hook, api, returned


def _close(awaitable: Any) -> None:
    """Close a never-awaited coroutine so Python does not warn about it."""
    close = getattr(awaitable, "close", None)
    if callable(close):
        close()


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def unload_modules(paths: Iterable[str]) -> None:
    """Forget imported hook modules (for reloads and tests)."""
    for path in paths:
        _forget(module_name_for(path))
