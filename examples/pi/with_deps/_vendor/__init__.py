"""The hook's own dependencies, kept beside it (as pip keeps ``pip._vendor``)."""
