"""Build hook: compile the hot modules (``checkers_engine.build.COMPILED_MODULES``) with mypyc
when possible.

The distribution's metadata lives in ``pyproject.toml``; this file only adds the compiled
extensions. It builds them when a C compiler is found and ``CHECKERS_PURE_PYTHON`` is not
set to ``1``; without a compiler, or if compiling fails, the package installs as pure
Python from the same sources.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = Path("src") / "checkers_engine"


def _load_build_module() -> Any:
    """``checkers_engine/build.py`` loaded by path, without importing the package (whose
    ``__init__`` imports the modules this build compiles)."""
    spec = importlib.util.spec_from_file_location("_checkers_build", HERE / PACKAGE / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


build = _load_build_module()


def _say(message: str) -> None:
    print(f"{build.DISTRIBUTION}: {message}", file=sys.stderr)


def _compiler_found() -> bool:
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return bool(words) and shutil.which(words[0]) is not None


def _extensions() -> list[Any]:
    if build.pure_requested():
        _say(f"{build.PURE_SWITCH} is set: installing the pure Python build")
        return []
    if not _compiler_found():
        _say("no C compiler found: installing the pure Python build")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc (part of mypy) is not available: installing the pure Python build")
        return []
    paths = [str(build.source_path(m, PACKAGE)) for m in build.COMPILED_MODULES]
    extensions = mypycify(paths, opt_level="3", group_name="checkers_engine.compiled")
    for extension in extensions:
        # A failed compile falls back to the pure sources instead of failing the install.
        extension.optional = True
    return list(extensions)


class BuildExt(build_ext):
    """Builds the extensions, then records which sources they were compiled from."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        target = HERE / PACKAGE if self.inplace else Path(self.build_lib) / "checkers_engine"
        target.mkdir(parents=True, exist_ok=True)
        (target / build.SOURCES_MANIFEST).write_text(build.manifest_text(HERE / PACKAGE))


os.chdir(HERE)
setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
