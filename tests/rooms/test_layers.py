"""Who may import whom (issue 59, points 2 and 4), read from the sources' import lines.

- The rooms import nothing of the AI, the computer, the notifications or the pages: a
  computer seat's level is the rooms' own `Level`, and the notifications hear of a room's
  change through the one hook the rooms call (`app.rooms.hooks`).
- No router imports another router: what several routers declare lives in a module of
  route building blocks (`app.rooms.routes`, `app.notify.routes`).
- No route wakes the computer or the notifications: the service calls the hooks itself
  (`ctx.hooks`, `app.rooms.hooks`), so a new route cannot forget them.
- No package imports another package's private names (`_name`).
- Each file of the rooms holds about 500 lines at most: one family of actions or one
  concern a file.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import app

APP = Path(app.__file__).parent
ROOMS = APP / "rooms"


def _imports(path: Path) -> Iterator[tuple[str, list[str]]]:
    """Every module `path` imports (absolute, with the names taken from it)."""
    package = ".".join(path.relative_to(APP.parent).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            yield module, [alias.name for alias in node.names]


def _sources() -> list[Path]:
    return sorted(p for p in APP.rglob("*.py") if "static" not in p.parts)


def test_the_rooms_import_nothing_of_the_ai_the_computer_or_the_notifications() -> None:
    for path in sorted(ROOMS.glob("*.py")):
        for module, _ in _imports(path):
            assert not module.startswith(
                ("checkers_engine.ai", "app.computer", "app.notify", "app.web", "app.imports")
            ), (path.name, module)


def test_no_router_imports_another() -> None:
    for path in _sources():
        if path.name != "router.py":
            continue
        for module, names in _imports(path):
            imported = [f"{module}.{name}" for name in names] or [module]
            for name in imported:
                assert not name.endswith(".router") and ".router." not in f"{name}.", (
                    str(path.relative_to(APP)),
                    name,
                )


def test_no_route_wakes_the_computer_or_the_notifications() -> None:
    """(The computer's own routes start its reviews, which are no room's action.)"""
    calls = ("acted", "admit", "room_changed", "record", "changed")
    for path in _sources():
        if path.name not in ("router.py", "routes.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr not in calls, (str(path.relative_to(APP)), node.func.attr)


def test_no_package_imports_another_packages_private_names() -> None:
    for path in _sources():
        package = path.relative_to(APP).parts[0]
        for module, names in _imports(path):
            parts = module.split(".")
            if parts[0] != "app" or len(parts) < 2 or parts[1] == package:
                continue
            private = [n for n in names if n.startswith("_") and n != "__version__"]
            assert not private, (str(path.relative_to(APP)), module, private)


def test_each_file_of_the_rooms_is_one_concern_of_a_readable_size() -> None:
    for path in sorted(ROOMS.glob("*.py")):
        assert len(path.read_text().splitlines()) <= 520, path.name
