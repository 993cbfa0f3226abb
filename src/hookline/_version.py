"""The version, in one place: packaging metadata, ``hookline --version`` and ``__version__`` read it."""

__version__ = "0.1.0"
