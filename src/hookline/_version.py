"""The version, in one place: the package metadata, ``--version`` and ``__version__``."""

__version__ = "0.1.0"
