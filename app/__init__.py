"""Correspondence checkers service."""

from checkers_engine.build import choose_build, package_version

# Before any hot module is imported: the compiled build, or the pure sources if asked for
# (CHECKERS_PURE_PYTHON=1) or if the compiled modules are out of date (app/build.py).
choose_build()

# The one version is pyproject.toml's, as installed.
__version__ = package_version()
