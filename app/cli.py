"""The `checkers` command: the service and its maintenance tasks."""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def _cmd_perft(args: argparse.Namespace) -> int:
    from checkers_engine import Board, EngineError, perft, perft_divide

    try:
        board = Board(args.rule_set, fen=args.fen)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    if args.divide:
        counts = perft_divide(board, args.depth, paths=args.paths)
        for notation, count in counts.items():
            print(f"{notation}: {count}")
        total = sum(counts.values())
    else:
        total = perft(board, args.depth, paths=args.paths)
    elapsed = time.perf_counter() - started
    print(f"perft {args.depth}: {total}")
    print(f"time: {elapsed:.3f} s ({total / max(elapsed, 1e-9):,.0f} leaves/s)", file=sys.stderr)
    return 0


def _cmd_migrate(args: argparse.Namespace) -> int:
    from app.core.migrate import downgrade, upgrade
    from app.core.settings import get_settings

    url = get_settings().database_url
    if args.downgrade:
        downgrade(url, args.downgrade)
    else:
        upgrade(url, args.revision)
    print("migrations applied", file=sys.stderr)
    return 0


def _port_in_use(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on (taken, or not an address here), or None.
    Checked before anything is printed, so a busy port gives one line and no URL."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"unknown address: {exc.strerror}"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # As Uvicorn binds: a port left in TIME_WAIT by the last run is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror
    return None


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.core.db import is_sqlite
    from app.core.logging import configure_logging
    from app.core.migrate import upgrade
    from app.core.serving import raise_file_limit, uvicorn_options
    from app.core.settings import get_settings
    from app.main import create_app

    settings = get_settings()
    host = args.host or settings.host
    port = args.port or settings.port
    if args.workers > 1 and is_sqlite(settings.database_url):
        # Live events reach only the viewers of the process that made them on SQLite,
        # which has no channel between processes.
        print(
            "error: SQLite is served by one process; use PostgreSQL for --workers", file=sys.stderr
        )
        return 2
    configure_logging(settings.log_level)
    busy = _port_in_use(host, port)
    if busy:
        print(
            f"error: cannot listen on {host}:{port} ({busy}); stop what holds it, or pick "
            f"another port: PORT={port + 1} make run (or checkers serve --port {port + 1})",
            file=sys.stderr,
        )
        return 2
    if settings.migrate_on_start:
        upgrade(settings.database_url)
    # Every connection (a live stream too) is a file; leave room for the concurrency limit.
    raise_file_limit(settings.http_limit_concurrency + 256)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Checkers is being served: open http://{shown}:{port}", flush=True)
    # Live streams (SSE) stay open; on shutdown they get a few seconds, then close and
    # their browsers reconnect (to another instance) with Last-Event-ID.
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "access_log": False,
        "log_level": "warning",
        "timeout_graceful_shutdown": 5,
    }
    if args.workers > 1:
        # Worker processes build their own app from the environment; migrations are done.
        os.environ["MIGRATE_ON_START"] = "false"
        options.update(uvicorn_options(settings, by_name=True))
        uvicorn.run("app.main:create_served_app", factory=True, workers=args.workers, **options)
    else:
        served = settings.model_copy(update={"migrate_on_start": False})
        options.update(uvicorn_options(settings))
        uvicorn.run(create_app(served, freeze_gc=True), **options)
    return 0


def _cmd_worker(args: argparse.Namespace) -> int:
    from app.core.clock import SystemClock
    from app.core.db import Database, engine_options
    from app.core.logging import configure_logging
    from app.core.migrate import upgrade
    from app.core.settings import get_settings
    from app.imports.jobs import purge
    from app.notify import outbox
    from app.notify.delivery import deliver_due
    from app.rooms.jobs import sweep
    from app.scheduler import run_worker

    settings = get_settings()
    configure_logging(settings.log_level)
    if settings.migrate_on_start:
        upgrade(settings.database_url)
    database = Database(settings.database_url, **engine_options(settings))
    outbox.install()  # the deadlines the sweep applies notify, as a request's actions do
    if args.once:
        print(f"rooms handled: {sweep(database, SystemClock(), settings)}")
        print(f"imported games deleted: {purge(database, SystemClock(), settings)}")
        print(f"notifications handled: {deliver_due(database, SystemClock(), settings)}")
        return 0
    run_worker(database, SystemClock(), settings)
    return 0


class _ProgressBar:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.started = time.perf_counter()
        self.shown = 0.0

    def __call__(self, done: int, total: int, label: str) -> None:
        now = time.perf_counter()
        if done < total and now - self.shown < 0.1:
            return
        self.shown = now
        share = done / total if total else 1.0
        filled = int(share * 30)
        elapsed = now - self.started
        sys.stderr.write(
            f"\r{self.title} [{'#' * filled}{'.' * (30 - filled)}] {share:6.1%} "
            f"{elapsed:6.0f} s  {label:<24}"
        )
        if done >= total and label.endswith("done"):
            sys.stderr.write("\n")
        sys.stderr.flush()


def _build_locked(
    key: str, args: argparse.Namespace, directory: Path, bar: _ProgressBar | None
) -> dict[int, float]:
    """Build under the tables directory's lock: after a build already running (the
    service's on first use, say), whose files are then reused."""
    from checkers_engine.ai import egdb

    with egdb.build_lock(directory) as held:
        if held:
            return egdb.build(key, args.pieces, directory, progress=bar, rebuild=args.rebuild)[1]
    print(f"{key}: waiting for the build running in {directory}", file=sys.stderr)
    with egdb.build_lock(directory, wait=True):
        return egdb.build(key, args.pieces, directory, progress=bar, rebuild=args.rebuild)[1]


def _cmd_egdb_build(args: argparse.Namespace) -> int:
    from checkers_engine import RULE_SETS
    from checkers_engine.ai import egdb

    keys = list(RULE_SETS) if args.rule_set == "all" else [args.rule_set]
    if any(key not in RULE_SETS for key in keys):
        print(f"error: unknown rule set {args.rule_set!r}; known: all, {', '.join(RULE_SETS)}",
              file=sys.stderr)  # fmt: skip
        return 2
    directory = Path(args.dir) if args.dir else egdb.default_dir()
    for key in keys:
        bar = None if args.quiet else _ProgressBar(key)
        try:
            timings = _build_locked(key, args, directory, bar)
        except (egdb.EgdbError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        for n, seconds in timings.items():
            path = directory / egdb.file_name(RULE_SETS[key], n)
            how = "reused" if not seconds else f"solved in {seconds:.1f} s"
            print(f"{key} {n} pieces: {path.stat().st_size:,} bytes, {how}")
    egdb.forget()
    return 0


def _cmd_egdb_check(args: argparse.Namespace) -> int:
    """Each sampled position's stored value against the values after its moves; exit 1
    on any disagreement (a damaged or foreign file, or a solver fault)."""
    from checkers_engine import RULE_SETS
    from checkers_engine.ai import egdb

    if args.rule_set not in RULE_SETS:
        print(f"error: unknown rule set {args.rule_set!r}; known: {', '.join(RULE_SETS)}",
              file=sys.stderr)  # fmt: skip
        return 2
    directory = Path(args.dir) if args.dir else egdb.default_dir()
    try:
        tables = egdb.load(args.rule_set, args.pieces, directory)
    except (egdb.EgdbError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    wrong = 0
    for own, opp, kings in egdb.sample(tables, args.pieces, args.sample, args.seed):
        found = egdb.disagreement(tables, own, opp, kings)
        if found is not None:
            wrong += 1
            if wrong <= 10:
                print(f"{egdb.position_fen(own, opp, kings)}: {found}")
    print(
        f"{args.rule_set} {args.pieces} pieces: {args.sample:,} random positions checked, "
        f"{wrong:,} disagreeing"
    )
    return 1 if wrong else 0


def _pieces(text: str) -> int:
    from checkers_engine.ai.egdb import MAX_PIECES

    try:
        pieces = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 2 <= pieces <= MAX_PIECES:
        raise argparse.ArgumentTypeError(f"pieces must be 2 to {MAX_PIECES}")
    return pieces


def _workers(text: str) -> int:
    try:
        workers = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if workers < 1:
        raise argparse.ArgumentTypeError("workers must be 1 or more")
    return workers


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if depth < 0:
        raise argparse.ArgumentTypeError("depth must be 0 or more")
    return depth


class _Version(argparse.Action):
    """``--version``: the package version and which build runs, worked out only when asked."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from app import DISTRIBUTION
        from checkers_engine.build import describe

        print(describe(DISTRIBUTION))
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="checkers", description=__doc__)
    parser.add_argument(
        "--version",
        action=_Version,
        help="print the version and the build (compiled or pure Python), then exit",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("perft", help="count leaf nodes of the move tree")
    p.add_argument("rule_set", help="english, brazilian, russian, spanish, italian or thai")
    p.add_argument("depth", type=_depth, help="plies, 0 or more")
    p.add_argument("--fen", default=None, help="start from this PDN FEN")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument(
        "--paths",
        action="store_true",
        help="count every capture path as its own move, as published tables do",
    )
    p.set_defaults(func=_cmd_perft)

    p = sub.add_parser(
        "serve",
        help="apply migrations (unless MIGRATE_ON_START=false), then serve the web app and API",
    )
    p.add_argument("--host", default=None, help="address to bind (default HOST or 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default PORT or 8000)")
    p.add_argument(
        "--workers", type=_workers, default=1, help="worker processes sharing the port (1)"
    )
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("migrate", help="apply the database migrations (DATABASE_URL)")
    p.add_argument("revision", nargs="?", default="head", help="target revision (head)")
    p.add_argument("--downgrade", metavar="REVISION", help="downgrade to REVISION instead")
    p.set_defaults(func=_cmd_migrate)

    p = sub.add_parser(
        "worker",
        help="run only the scheduled jobs: the deadline sweep, the imported games' retention "
        "and notifications",
    )
    p.add_argument("--once", action="store_true", help="run each job once and exit")
    p.set_defaults(func=_cmd_worker)

    p = sub.add_parser("egdb", help="endgame databases for the Executive")
    egdb_sub = p.add_subparsers(dest="egdb_command", required=True)
    b = egdb_sub.add_parser(
        "build", help="solve the endgames of up to N pieces by retrograde analysis"
    )
    b.add_argument("rule_set", help="english, brazilian, russian, spanish, italian, thai or all")
    b.add_argument("--pieces", type=_pieces, default=4, help="pieces on the board, 2 to 5 (4)")
    b.add_argument(
        "--dir", default=None, help="where to keep them (CHECKERS_EGDB_DIR or the user cache)"
    )
    b.add_argument("--rebuild", action="store_true", help="solve again tables already built")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=_cmd_egdb_build)
    c = egdb_sub.add_parser(
        "check", help="check built tables against the moves on random positions"
    )
    c.add_argument("rule_set", help="english, brazilian, russian, spanish, italian or thai")
    c.add_argument("--pieces", type=_pieces, default=4, help="the table's pieces, 2 to 5 (4)")
    c.add_argument("--sample", type=_workers, default=100_000, help="positions (100000)")
    c.add_argument("--seed", type=int, default=0, help="the random positions' seed (0)")
    c.add_argument(
        "--dir", default=None, help="where they are (CHECKERS_EGDB_DIR or the user cache)"
    )
    c.set_defaults(func=_cmd_egdb_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
