"""The engine stands alone: no file of its folder (the package, its tests, benchmarks and
builders) imports the service's package ``app``, so it installs, runs and is tested
without the service."""

from __future__ import annotations

import ast
from pathlib import Path

import checkers_engine

ENGINE = Path(__file__).resolve().parents[1]
PACKAGE = Path(checkers_engine.__file__).resolve().parent


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names


def test_the_package_is_the_engines_folder() -> None:
    assert PACKAGE == ENGINE / "src" / "checkers_engine"


def test_nothing_in_the_engines_folder_imports_the_service() -> None:
    files = sorted(ENGINE.glob("**/*.py"))
    assert len(files) > 50
    found = [
        (str(path.relative_to(ENGINE)), name)
        for path in files
        if not {"build", "dist"} & set(path.relative_to(ENGINE).parts)
        for name in _imports(path)
        if name.split(".")[0] == "app"
    ]
    assert found == []
