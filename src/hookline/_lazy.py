"""Lazy re-exports for package ``__init__`` modules (PEP 562 module ``__getattr__``).

A package lists its public names in a static table, name → defining module;
the module is imported the first time one of its names is read, so
``import hookline`` and ``hookline --version`` pay only for what they touch.
Each package keeps ``if TYPE_CHECKING:`` imports of the same names so type
checkers and IDEs see the real types.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
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
