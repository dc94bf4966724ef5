"""The two builds of one source: mypyc-compiled hot modules, or the same files as pure
Python, chosen at install time and switched off at run time by CHECKERS_PURE_PYTHON=1."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checkers_engine import build

ENGINE = Path(__file__).resolve().parents[2]

PROBE = """
import json
from checkers_engine import build
info = build.build_info()
import importlib
files = {m: importlib.import_module(m).__file__ for m in build.COMPILED_MODULES}
print(json.dumps({"build": info, "files": files}))
"""


def _probe(pure: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop(build.PURE_SWITCH, None)
    if pure:
        env[build.PURE_SWITCH] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ENGINE,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return dict(json.loads(done.stdout))


def test_this_run_uses_the_build_asked_for() -> None:
    if build.pure_requested():
        expected = build.PURE
    elif os.environ.get("CI") == "true" or build.compiled_available():
        # CI installs the compiled build (make install on a machine with a compiler).
        expected = build.COMPILED
    else:
        expected = build.PURE
    assert build.build_info() == expected


def test_the_switch_loads_every_hot_module_from_its_source() -> None:
    pure = _probe(pure=True)
    assert pure["build"] == build.PURE
    files = pure["files"]
    assert isinstance(files, dict)
    assert set(files) == set(build.COMPILED_MODULES)
    assert all(str(f).endswith(".py") for f in files.values())


def test_without_the_switch_the_compiled_modules_load() -> None:
    if not build.compiled_available():
        pytest.skip("no compiled build here (installed without a C compiler, or stale)")
    compiled = _probe(pure=False)
    assert compiled["build"] == build.COMPILED
    files = compiled["files"]
    assert isinstance(files, dict)
    assert not any(str(f).endswith(".py") for f in files.values())


def test_an_edited_source_makes_its_compiled_module_stale(tmp_path: Path) -> None:
    package = tmp_path / "checkers_engine"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for module in build.COMPILED_MODULES:
        source = build.source_path(module, package)
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {module}\n")
    assert build.stale_modules(package) == []  # nothing compiled: nothing stale
    for module in build.COMPILED_MODULES:
        build.source_path(module, package).with_suffix(suffix).write_bytes(b"")
    assert build.stale_modules(package) == list(build.COMPILED_MODULES)  # no manifest
    (package / build.SOURCES_MANIFEST).write_text(build.manifest_text(package))
    assert build.stale_modules(package) == []
    build.source_path("checkers_engine.ai.search", package).write_text("# edited\n")
    assert build.stale_modules(package) == ["checkers_engine.ai.search"]
