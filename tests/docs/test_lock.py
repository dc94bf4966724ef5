"""The lock files match pyproject.toml: every dependency it declares (the service's, the
dev/test/bench extras', the build systems' of the service and of the engine) is pinned to
one version that its specifier allows, every pin carries hashes, and the runtime pins are
the same in both locks. The engine (engine/, checkers-engine) is this repository's own:
the locks leave it out and `make install` installs it from its folder. `make lock`
refreshes them; `make lock-check` recompiles them and compares."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
ENGINE_PYPROJECT = tomllib.loads((ROOT / "engine" / "pyproject.toml").read_text())
# Distributions built from this repository, never taken from the index nor locked.
LOCAL = {canonicalize_name(ENGINE_PYPROJECT["project"]["name"])}
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ \\;]+)")


def _lock(name: str) -> dict[str, tuple[str, int]]:
    """Each pinned package of a lock file: its version and its number of hashes."""
    pins: dict[str, tuple[str, int]] = {}
    current = None
    for line in (ROOT / name).read_text().splitlines():
        found = PIN.match(line)
        if found:
            current = canonicalize_name(found.group(1))
            pins[current] = (found.group(2), line.count("--hash=sha256:"))
        elif current and "--hash=sha256:" in line:
            version, hashes = pins[current]
            pins[current] = (version, hashes + line.count("--hash=sha256:"))
        elif not line.startswith((" ", "#")) and line.strip():
            pytest.fail(f"{name}: not a pinned requirement: {line!r}")
    return pins


def _check(requirements: list[str], pins: dict[str, tuple[str, int]], lock: str) -> None:
    for text in requirements:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        if name in LOCAL:
            continue
        assert name in pins, f"{requirement.name} is not pinned in {lock}: run `make lock`"
        version = pins[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{lock} pins {requirement.name}=={version}, outside {requirement.specifier}: "
            "run `make lock`"
        )


def test_every_pin_has_hashes_and_says_how_it_was_made() -> None:
    for lock in ("requirements.txt", "requirements-dev.txt", "requirements-build.txt"):
        pins = _lock(lock)
        assert pins, lock
        assert [name for name, (_v, hashes) in pins.items() if hashes == 0] == [], lock
        assert "#    make lock\n" in (ROOT / lock).read_text(), lock


def test_runtime_lock_pins_every_dependency() -> None:
    _check(PYPROJECT["project"]["dependencies"], _lock("requirements.txt"), "requirements.txt")


def test_dev_lock_pins_every_extra_and_the_same_runtime() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    dev = _lock("requirements-dev.txt")
    _check(extras["dev"] + extras["test"] + extras["bench"], dev, "requirements-dev.txt")
    runtime = _lock("requirements.txt")
    _check(PYPROJECT["project"]["dependencies"], dev, "requirements-dev.txt")
    assert {n: v for n, (v, _h) in runtime.items()} == {
        n: dev[n][0] for n in runtime if n in dev
    }, "requirements-dev.txt must pin the runtime packages as requirements.txt does"
    assert set(runtime) <= set(dev)


def test_build_lock_pins_the_build_system() -> None:
    _check(
        PYPROJECT["build-system"]["requires"] + ENGINE_PYPROJECT["build-system"]["requires"],
        _lock("requirements-build.txt"),
        "requirements-build.txt",
    )


def test_the_installed_versions_are_the_locked_ones() -> None:
    """`make install` installs what the locks pin, not the newest versions the ranges
    allow: every locked package is installed at its pinned version."""
    from importlib.metadata import PackageNotFoundError, version

    locked = {**_lock("requirements-build.txt"), **_lock("requirements-dev.txt")}
    wrong = {}
    for name, (pinned, _hashes) in sorted(locked.items()):
        try:
            installed = version(name)
        except PackageNotFoundError:
            installed = "missing"
        if installed != pinned:
            wrong[name] = f"{installed} installed, {pinned} locked"
    assert wrong == {}, f"not as locked (run `make install`): {wrong}"


def test_make_audit_fails_and_says_so_without_an_advisory_database(tmp_path: Path) -> None:
    """With no advisory database reachable, `make audit` fails with its own sentence
    instead of reporting no vulnerability."""
    import os
    import subprocess

    closed = {"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}
    done = subprocess.run(
        # An empty cache (an answer cached earlier would stand in for the database); the
        # install is taken as done.
        ["make", "--no-print-directory", "-o", ".venv/.installed", "audit",
         f"AUDIT_FLAGS=--cache-dir {tmp_path}"],
        cwd=ROOT,
        env={**os.environ, **closed},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout
    assert "no advisory database could be reached" in done.stdout + done.stderr
