"""Correspondence checkers service."""

from importlib.metadata import PackageNotFoundError, version

try:
    # The one version is pyproject.toml's, as installed.
    __version__ = version("checkers-service")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
