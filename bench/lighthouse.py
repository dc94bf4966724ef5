"""Lighthouse's four scores for the home page and a room page in each state, on a phone
(Lighthouse's mobile defaults, throttling included) and on a desktop (`--preset=desktop`).

    python bench/lighthouse.py [--runs N] [--only NAME] [--device mobile|desktop] [--reports DIR]

Starts the service on a free loopback port with a database of its own, makes the rooms
through the API (a waiting room, a game in progress seen by its player to move and by a
spectator, a finished game), runs Lighthouse from npm (installed once into
.cache/lighthouse) with Debian's Chromium, and prints a Markdown table: each cell is the
lowest score of the runs, the page's largest cumulative layout shift, and each run's
performance score. A benchmark run on demand, not a test: scores depend on the machine
and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
VERSION = "12.8.2"
TOOL_DIR = Path(os.environ.get("LIGHTHOUSE_DIR", ROOT / ".cache" / "lighthouse"))
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-background-networking --disable-component-update "
    "--disable-sync --no-first-run"
)
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def lighthouse() -> Path:
    """The Lighthouse command, installed from npm at the pinned version when missing."""
    command = TOOL_DIR / "node_modules" / ".bin" / "lighthouse"
    if not command.exists():
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("npm is needed to install Lighthouse")
        TOOL_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(TOOL_DIR),
             f"lighthouse@{VERSION}"],
            check=True,
        )  # fmt: skip
    return command


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder}/lighthouse.sqlite3",
        "PUBLIC_URL": base,
        "SCHEDULER_ENABLED": "false",
        "MIGRATE_ON_START": "true",
        "RATE_LIMIT_ENABLED": "false",
        "LOG_LEVEL": "WARNING",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env=env,
        cwd=ROOT,
    )  # fmt: skip
    for _ in range(300):
        try:
            if httpx.get(base + "/health", timeout=1).status_code < 500:
                return process, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.terminate()
    sys.exit("the service did not start")


def _play(base: str, room: str, token: str, move: str, ply: int) -> None:
    answer = httpx.post(
        f"{base}/api/rooms/{room}/moves",
        json={"move": move, "expected_ply": ply},
        headers={"Authorization": f"Bearer {token}"},
    )
    answer.raise_for_status()


def pages(base: str) -> list[tuple[str, str, str | None]]:
    """(name, address, seat token or None) of each page measured."""
    waiting = httpx.post(f"{base}/api/rooms", json={"rule_set": "english"}).json()
    made = httpx.post(f"{base}/api/rooms", json={"rule_set": "english", "name": "Ana"}).json()
    room, drums = made["room_id"], made["token"]
    tires = httpx.post(f"{base}/api/rooms/{room}/join", json={"name": "Ben"}).json()["token"]
    _play(base, room, drums, "11-15", 0)
    _play(base, room, tires, "23-19", 1)
    over = httpx.post(f"{base}/api/rooms", json={"rule_set": "english"}).json()
    httpx.post(f"{base}/api/rooms/{over['room_id']}/join")
    httpx.post(
        f"{base}/api/rooms/{over['room_id']}/resign",
        headers={"Authorization": f"Bearer {over['token']}"},
    ).raise_for_status()
    return [
        ("home", f"{base}/", None),
        ("room, waiting (its creator)", f"{base}/r/{waiting['room_id']}", waiting["token"]),
        ("room, seated player to move", f"{base}/r/{room}", drums),
        ("room, spectator", f"{base}/r/{room}", None),
        ("room, finished (a player)", f"{base}/r/{over['room_id']}", over["token"]),
    ]


def measure(
    command: Path, url: str, token: str | None, desktop: bool, out: Path
) -> dict[str, float]:
    args = [
        str(command), url, "--quiet", "--output=json", f"--output-path={out}",
        f"--chrome-flags={CHROME_FLAGS}",
        f"--only-categories={','.join(CATEGORIES)}",
    ]  # fmt: skip
    if desktop:
        args.append("--preset=desktop")
    if token:
        args.append("--extra-headers=" + json.dumps({"Cookie": f"seat={token}"}))
    subprocess.run(args, check=True, env={**os.environ, "CHROME_PATH": CHROME})
    report = json.loads(out.read_text())
    scores = {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}
    scores["cls"] = report["audits"]["cumulative-layout-shift"]["numericValue"]
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page and device")
    parser.add_argument("--only", default="", help="measure only the pages whose name has this")
    parser.add_argument("--device", choices=("mobile", "desktop"), help="one device only")
    parser.add_argument("--reports", type=Path, help="keep each JSON report in this folder")
    options = parser.parse_args()
    runs = options.runs
    devices = (options.device,) if options.device else ("mobile", "desktop")
    command = lighthouse()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        process, base = start_server(folder)
        try:
            rows = []
            for name, url, token in pages(base):
                if options.only not in name:
                    continue
                for device in devices:
                    found = []
                    for run in range(runs):
                        out = folder / "report.json"
                        if options.reports:
                            options.reports.mkdir(parents=True, exist_ok=True)
                            slug = "".join(c if c.isalnum() else "-" for c in name)
                            out = options.reports / f"{slug}-{device}-{run + 1}.json"
                        found.append(measure(command, url, token, device == "desktop", out))
                    rows.append((name, device, found))
                    print(name, device, [run["performance"] for run in found], file=sys.stderr)
        finally:
            process.terminate()
            process.wait(10)
    print(table(rows))


def table(rows: list[tuple[str, str, list[dict[str, float]]]]) -> str:
    """Each category's lowest score over the runs; the performance scores of every run
    beside it (the machine's load moves them); the largest layout shift seen."""
    lines = [
        "| Page | Device | Performance | Accessibility | Best practices | SEO | CLS | "
        "Performance, each run |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, device, found in rows:
        cells = " | ".join(str(min(run[key] for run in found)) for key in CATEGORIES)
        cls = max(run["cls"] for run in found)
        each = ", ".join(str(run["performance"]) for run in found)
        lines.append(f"| {name} | {device} | {cells} | {cls:.3f} | {each} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
