"""Which build runs: the engine's and the computer players' hot modules compiled by mypyc,
or the same modules as pure Python.

The ``.py`` files are the only source. The engine's ``setup.py`` compiles the modules listed
in ``COMPILED_MODULES`` with mypyc when the package is installed on a machine with a C
compiler, and writes the SHA-256 of each source beside them (``SOURCES_MANIFEST``). At
import time the package's ``__init__`` calls ``choose_build()``, which makes Python load the pure
sources instead of the compiled extensions when

- ``CHECKERS_PURE_PYTHON`` is set to ``1`` (or ``true``/``yes``) in the environment, or
- a compiled module is out of date: its source changed since it was compiled (an
  editable install after an edit); a warning says to rebuild (``make install``).

This module imports only the standard library: ``setup.py`` loads it by path, before the
package is installed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

DISTRIBUTION = "checkers-engine"
"""The distribution this package is installed from (its version is the engine's)."""
PURE_SWITCH = "CHECKERS_PURE_PYTHON"
"""Environment variable: ``1`` selects the pure build (at install time and at run time)."""

COMPILED = "compiled (mypyc)"
PURE = "pure Python"

COMPILED_MODULES: tuple[str, ...] = (
    "checkers_engine.squares",
    "checkers_engine.rulesets",
    "checkers_engine.movegen",
    "checkers_engine.perft",
    "checkers_engine.ai.geometry",
    "checkers_engine.ai.weights",
    "checkers_engine.ai.patterns",
    "checkers_engine.ai.evaluation",
    "checkers_engine.ai.search",
    "checkers_engine.ai.egdb",
)
"""The hot modules: move generation, perft, evaluation, search and the endgame tables'
solver and probe."""

SOURCES_MANIFEST = "_compiled_sources.txt"
"""Written into the package by the compiled build: ``sha256  module`` per line."""

_PACKAGE_DIR = Path(__file__).resolve().parent
_why_pure: str | None = None


def pure_requested() -> bool:
    """Whether the environment asks for the pure build."""
    return os.environ.get(PURE_SWITCH, "").strip().lower() in ("1", "true", "yes", "on")


def source_path(module: str, package_dir: Path = _PACKAGE_DIR) -> Path:
    """The ``.py`` file of a module of this package (``checkers_engine.ai.search`` ->
    ``ai/search.py``)."""
    return package_dir.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_text(package_dir: Path = _PACKAGE_DIR) -> str:
    """The manifest of the sources as they are now (``setup.py`` writes it at build time)."""
    return "".join(f"{source_digest(source_path(m, package_dir))}  {m}\n" for m in COMPILED_MODULES)


def has_extension(module: str, package_dir: Path = _PACKAGE_DIR) -> bool:
    """Whether a compiled extension of the module lies beside its source."""
    base = source_path(module, package_dir).with_suffix("")
    return any(
        base.with_name(base.name + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def stale_modules(package_dir: Path = _PACKAGE_DIR) -> list[str]:
    """Compiled modules whose source differs from the one they were compiled from."""
    compiled = [m for m in COMPILED_MODULES if has_extension(m, package_dir)]
    if not compiled:
        return []
    try:
        lines = (package_dir / SOURCES_MANIFEST).read_text().splitlines()
    except OSError:
        return compiled
    built = {m: digest for digest, _, m in (line.partition("  ") for line in lines)}
    return [m for m in compiled if built.get(m) != source_digest(source_path(m, package_dir))]


def compiled_available(package_dir: Path = _PACKAGE_DIR) -> bool:
    """Whether an up-to-date compiled build is installed (whatever this process runs)."""
    return all(has_extension(m, package_dir) for m in COMPILED_MODULES) and not stale_modules(
        package_dir
    )


class _PureSources(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' ``.py`` sources ahead of their extension modules."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def choose_build() -> None:
    """Load the pure sources when asked to or when the compiled build is stale. Must run
    before any compiled module is imported (the package's ``__init__`` calls it)."""
    global _why_pure
    if any(isinstance(f, _PureSources) for f in sys.meta_path):
        return
    if pure_requested():
        _why_pure = f"{PURE_SWITCH} is set"
    else:
        stale = stale_modules()
        if not stale:
            return
        _why_pure = "the compiled modules are older than their sources"
        warnings.warn(
            f"{', '.join(stale)}: compiled from an older source; running the pure Python "
            "build (rebuild with `make install`)",
            RuntimeWarning,
            stacklevel=2,
        )
    sys.meta_path.insert(0, _PureSources())


def is_compiled(module: ModuleType) -> bool:
    """Whether a loaded module is an extension module (compiled) rather than source."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


@functools.cache
def build_info() -> str:
    """``"compiled (mypyc)"`` when every hot module runs compiled, ``"pure Python"`` when
    none does (``"partly compiled (mypyc)"`` otherwise)."""
    modules = [importlib.import_module(m) for m in COMPILED_MODULES]
    compiled = sum(is_compiled(m) for m in modules)
    if compiled == len(modules):
        return COMPILED
    if not compiled:
        return PURE
    return "partly compiled (mypyc)"


def why_pure() -> str | None:
    """Why the pure sources were chosen over compiled ones at import, if they were."""
    return _why_pure


def package_version(distribution: str = DISTRIBUTION) -> str:
    """An installed distribution's version (package metadata), or ``unknown``: the engine's
    by default, or that of a program built on it."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def describe(distribution: str = DISTRIBUTION) -> str:
    """One line for a ``--version``: the distribution's version and the engine's build (a
    program built on the engine names its own distribution)."""
    line = f"{distribution} {package_version(distribution)}, {build_info()}"
    reason = why_pure()
    return f"{line} ({reason})" if reason else line


if __name__ == "__main__":  # the Makefile's list of the compiled sources
    print(" ".join(str(source_path(m).relative_to(Path.cwd())) for m in COMPILED_MODULES))
