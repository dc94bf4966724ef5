"""A clone is self-contained: every file a test, a benchmark or a builder reads is in the
repository, and nothing in it points at a path outside the clone or on one machine.

CI runs with other folders beside the clone, so a reference outside it would pass there
and fail for a new contributor; this scan is what catches it."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A relative path that climbs out of the folder it is written in (`../x`, not `.../x`,
# the README's shorthand for a route's tail), a folder of the machine a clone was made
# on, a data folder taken from outside.
OUTSIDE = re.compile(
    r"(?<![\w.])\.\./|(?<![\w.])~/(?!\.cache/checkers)|/work/|/root/|/home/\w|ROOT\.parent\b"
    r"|CHECKERS_DATA_DIR"
)
SKIPPED_SUFFIXES = {".png", ".jpg", ".ico", ".mo", ".so", ".woff2", ".gz", ".egdb"}


def tracked_files() -> list[Path]:
    done = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    )
    names = [n for n in done.stdout.decode().split("\0") if n]
    return [ROOT / n for n in names if (ROOT / n).is_file()]


def texts() -> list[tuple[Path, str]]:
    found = []
    for path in tracked_files():
        if path.suffix in SKIPPED_SUFFIXES or path == Path(__file__).resolve():
            continue
        try:
            found.append((path, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue
    return found


def test_nothing_refers_to_a_path_outside_the_clone() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
        for path, text in texts()
        for m in OUTSIDE.finditer(text)
    ]
    assert hits == [], "references outside the repository:\n" + "\n".join(hits)


def _climb(node: ast.expr) -> int | None:
    """How many folders above a file `Path(__file__)...parent(s)` reaches, or None."""
    steps = 0
    while True:
        if isinstance(node, ast.Attribute) and node.attr == "parent":
            steps += 1
            node = node.value
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "parents"
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, int)
        ):
            steps += node.slice.value + 1
            node = node.value.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value  # .resolve(), .absolute()
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            is_file = (
                node.func.id == "Path"
                and len(node.args) == 1
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id == "__file__"
            )
            return steps if is_file else None
        else:
            return None


def test_no_module_climbs_above_the_repository() -> None:
    escapes = []
    for path, text in texts():
        if path.suffix != ".py":
            continue
        depth = len(path.relative_to(ROOT).parts) - 1  # folders between the root and it
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Attribute | ast.Subscript):
                climb = _climb(node)
                if climb is not None and climb - 1 > depth:
                    escapes.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert escapes == [], "paths built above the repository's root: " + ", ".join(escapes)


def test_the_scans_find_what_they_look_for() -> None:
    """The patterns themselves: each kind of outside reference is caught."""
    # Put together here, so that this file holds no such reference itself.
    up, shared = "..", "shared"
    for sample in (
        f"DATA = ROOT.parent / {shared!r}",
        f"see {up}/{shared}/rules.md",
        "/".join(("", "work", "x")),
    ):
        assert OUTSIDE.search(sample), sample
    assert not OUTSIDE.search("`GET /api/imported-games/{id}` / `.../{id}.pdn`")
    tree = ast.parse("Path(__file__).resolve().parents[3] / 'data'")
    outer = next(n for n in ast.walk(tree) if isinstance(n, ast.Subscript))
    assert _climb(outer) == 4


def test_the_recorded_data_is_in_the_repository() -> None:
    """The files the tests and builders read, with the README that names their sources."""
    data = ROOT / "engine" / "data"  # the engine's: its tests and builders read them
    readme = (data / "README.md").read_text()
    for name in ("tinsley.pdn", "english-3move-ballots.txt"):
        assert (data / name).is_file(), name
        assert f"`{name}`" in readme, name
