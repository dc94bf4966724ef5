"""The engine is a distribution of its own: its wheel and its sdist build from the engine's
folder and pass ``twine check``, and installed alone into a fresh virtualenv (no service,
no network: ``pip install --no-index --find-links``) the package imports and plays.

Both builds here are the pure ones (``CHECKERS_PURE_PYTHON=1``): what is checked is the
packaging, not the compiler, and the pure build needs no C compiler on the machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1]
# What a distribution is built from: never this checkout's own build products.
LEFT_OUT = shutil.ignore_patterns(
    "*.so", "*.pyd", "_compiled_sources.txt", "__pycache__", "*.egg-info", "build", "dist",
    ".pytest_cache", "tests", "bench", "tools", "data", "docs",
)  # fmt: skip

PROBE = """
import importlib.util, json
import checkers_engine
from checkers_engine import Board, build
from checkers_engine.ai import choose_move
board = Board("english")
move = choose_move(board, "tamer", seed=1)
print(json.dumps({
    "file": checkers_engine.__file__,
    "build": build.build_info(),
    "move": str(move),
    "service": importlib.util.find_spec("app") is not None,
}))
"""


def _pure() -> dict[str, str]:
    return {**os.environ, "CHECKERS_PURE_PYTHON": "1", "PIP_NO_INDEX": "1"}


def _source(tmp_path: Path) -> Path:
    """A copy of the engine's folder, so that building writes nothing into the checkout."""
    source = tmp_path / "engine"
    shutil.copytree(ENGINE, source, ignore=LEFT_OUT)
    return source


@pytest.mark.slow
@pytest.mark.one_build
def test_the_wheel_and_the_sdist_build_and_pass_twine_check(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    # Without --sdist or --wheel, build makes the sdist and then the wheel from it: the
    # sdist must hold all the wheel is made of.
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), "."],
        cwd=_source(tmp_path),
        env=_pure(),
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert [p.name for p in wheels] == ["checkers_engine-0.1.0-py3-none-any.whl"]
    assert [p.name for p in sdists] == ["checkers_engine-0.1.0.tar.gz"]
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    for shipped in (
        "checkers_engine/py.typed",
        "checkers_engine/board.py",
        "checkers_engine/ai/search.py",
        "checkers_engine/ai/books/english.json",
        "checkers_engine/ai/pattern_tables/english.json",
    ):
        assert shipped in names
    assert not any(name.startswith("app/") for name in names)
    with tarfile.open(sdists[0]) as sdist:
        members = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"setup.py", "pyproject.toml", "README.md", "src/checkers_engine/build.py"} <= members
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, wheels + sdists)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


@pytest.mark.slow
@pytest.mark.one_build
def test_the_engine_installs_alone_into_a_fresh_virtualenv(tmp_path: Path) -> None:
    # The wheel is built by this environment's pip and setuptools (no isolation, so nothing
    # is fetched); the fresh virtualenv installs it from that folder alone, with no index.
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(wheels), "./engine"],
        cwd=_source(tmp_path).parent,
        env=_pure(),
        check=True,
        capture_output=True,
        timeout=600,
    )  # fmt: skip
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-index", "--find-links",
         str(wheels), "checkers-engine"],
        env=_pure(),
        check=True,
        capture_output=True,
        timeout=600,
    )  # fmt: skip
    done = subprocess.run(
        [str(python), "-c", PROBE],
        cwd=tmp_path,
        env={k: v for k, v in _pure().items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found["file"]).is_relative_to(venv)
    assert found["build"] == "pure Python"
    assert found["move"]
    assert found["service"] is False
