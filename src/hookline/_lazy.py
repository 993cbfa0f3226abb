"""Lazy re-exports for package ``__init__`` modules (PEP 562 module ``__getattr__``).

A package lists its public names in a static table; the module that defines
a name is imported the first time the name is read, so ``import hookline``
and ``hookline --version`` pay only for what they touch.

Type checkers and IDEs cannot run that lookup. The subpackages keep
``if TYPE_CHECKING:`` imports of the same names; the top-level package, whose
table is the public API, writes each name once, in ``{module: names}`` form
(``public_names``), and its ``__init__.pyi`` is generated from that table
(``python -m hookline._stub``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for the ``exports`` table.

    A resolved name is stored on the package, so later reads are plain
    attribute lookups that never reach ``__getattr__`` again.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        # The import statement's path (not importlib.import_module), so that
        # `python -X importtime` shows these imports too.
        __import__(module)
        value = getattr(sys.modules[module], name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__


def public_names(table: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """A ``{module: names}`` table as ``{name: module}``, the lookup ``lazy_exports`` takes."""
    return {name: module for module, names in table.items() for name in names}
