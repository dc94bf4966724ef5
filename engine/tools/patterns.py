"""Fit a rule set's pattern table (``checkers_engine.ai.patterns``) by logistic regression on
game positions.

The table is fitted on top of the rule set's row of weights, which stays as it is: the
model is P(side to move wins) = sigmoid(K * (evaluation + patterns) / 100), K fitted on
the row first and then held, a draw counting as one half. The positions are those
``tools/tune.py`` uses (its loaders): every quiet position of the recorded matches given
with ``--records`` and, for English, of Tinsley's games, with as many self-play games as
``--games`` asks; and, where most of the data come from, the games ``tools/selfplay.py``
wrote (``--selfplay``), each position's target a blend of its game's result (``--blend``,
a half) and the probability its search score gives, by a K fitted for the scores alone (a
result is one game's luck, a search's score is steadier). A recorded match's positions
carry the engine term (as in the tuner): which Executive is to move, fitted beside the
table and then dropped. There are more entries (45,927) than even half a million positions
tell apart, so an L2 pull towards zero (``--l2``) keeps every entry the data do not speak
for at nothing; the fit is full-batch Adam on the mean cross-entropy. Every fifth game is
held out, and the loss is printed before and after on both parts, and on the held-out
recorded games alone, with ``evaluate`` itself and the rounded table. ``--write`` writes
``checkers_engine/ai/pattern_tables/RULESET.json``.

    python tools/selfplay.py --games 6000 --out DATA.jsonl                 # an hour
    python tools/patterns.py --selfplay DATA.jsonl --records ... --write   # the table

The fit itself is ``checkers_engine.ai.fitting`` (numpy: the engine's ``fit`` extra); the
service reads the written table and needs neither.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from checkers_engine import RULE_SETS
from checkers_engine.ai.fitting import design, fit_table, score_k, selfplay_samples
from checkers_engine.ai.patterns import encode, to_json
from checkers_engine.ai.search import weights_for
from checkers_engine.ai.tuning import (
    Sample,
    fit_k,
    loss_of,
    record_samples,
    self_play,
    tinsley_samples,
)

ROOT = Path(__file__).resolve().parent.parent  # the engine's folder
TABLES = ROOT / "src" / "checkers_engine" / "ai" / "pattern_tables"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule-set", default="english", choices=list(RULE_SETS))
    parser.add_argument(
        "--records", type=Path, action="append", default=[], help="a recorded match's file"
    )
    parser.add_argument(
        "--selfplay", type=Path, action="append", default=[], help="a tools/selfplay.py file"
    )
    parser.add_argument(
        "--blend",
        type=float,
        default=0.5,
        help="the self-play target's share of the result (the rest: the search's score)",
    )
    parser.add_argument("--games", type=int, default=0, help="self-play games")
    parser.add_argument("--depth", type=int, default=4, help="self-play search depth")
    parser.add_argument("--nodes", type=int, default=4000, help="self-play nodes per move")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--no-tinsley", action="store_true")
    parser.add_argument("--l2", type=float, default=2e-8, help="pull of every entry to zero")
    parser.add_argument("--steps", type=int, default=800, help="Adam steps")
    parser.add_argument("--write", action="store_true", help="write the rule set's table")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    rule_set = args.rule_set
    samples: list[Sample] = []
    if rule_set == "english" and not args.no_tinsley:
        samples += tinsley_samples()
    for path in args.records:
        samples += [s for s in record_samples(path) if s.source.split()[0] == rule_set]
    jobs = [(rule_set, args.seed * 100_000 + n, args.depth, args.nodes) for n in range(args.games)]
    if jobs:
        with ProcessPoolExecutor(args.processes) as pool:
            for played in pool.map(self_play, jobs):
                samples += played
    played: list[Sample] = []
    scores: list[int] = []
    for path in args.selfplay:
        more, more_scores = selfplay_samples(path)
        played += more
        scores += more_scores
    if played:
        ks = score_k(played, scores)
        print(f"{len(played)} self-play positions; their search score's K = {ks:.3f}")
        blend = args.blend
        played = [
            replace(x, target=blend * x.target + (1 - blend) / (1 + math.exp(-ks / 100 * sc)))
            for x, sc in zip(played, scores, strict=True)
        ]
        samples += played
    if not samples:
        parser.error("no positions: give --records, self-play --games, or Tinsley's games")
    train = [s for s in samples if not s.held_out]
    test = [s for s in samples if s.held_out]
    print(f"{rule_set}: {len(train)} positions to fit, {len(test)} held out")
    row = replace(weights_for(RULE_SETS[rule_set]), patterns=b"")
    k = fit_k(train, row)
    print(f"K = {k:.3f} (logit per man), on the row alone")
    table, edge = fit_table(design(train, row), k, args.l2, args.steps)
    print(f"the new Executive's edge in the recorded matches: {edge:.0f} (a man is 100)")
    values = [max(-127, min(127, round(v))) for v in table]
    fitted = replace(row, patterns=encode(values))
    before = (loss_of(train, row, k), loss_of(test, row, k))
    after = (loss_of(train, fitted, k), loss_of(test, fitted, k))
    print(f"loss before: fit {before[0]:.5f}  held out {before[1]:.5f}")
    print(f"loss after:  fit {after[0]:.5f}  held out {after[1]:.5f}")
    games = [x for x in test if x.source != "selfplay"]
    if played and games:
        # Held-out positions labelled by results alone (recorded games), the plainer test.
        print(
            f"held out, recorded games only: {loss_of(games, row, k):.5f} before,"
            f" {loss_of(games, fitted, k):.5f} after"
        )
    print(f"entries not zero: {sum(1 for v in values if v)}; largest {max(map(abs, values))}")
    print(f"{time.perf_counter() - started:.0f} s in all")
    if args.write:
        run = (
            f"--l2 {args.l2} --steps {args.steps} --games {args.games} --depth {args.depth}"
            f" --nodes {args.nodes} --seed {args.seed}"
            + (" --no-tinsley" if args.no_tinsley else "")
            + "".join(f" --records {path.name}" for path in args.records)
            + "".join(f" --selfplay {path.name}" for path in args.selfplay)
            + (f" --blend {args.blend}" if args.selfplay else "")
        )
        info = {
            "fitted": f"python tools/patterns.py --rule-set {rule_set} {run}",
            "positions": len(train),
            "held_out": len(test),
            "k": round(k, 4),
            "loss_before": [round(x, 5) for x in before],
            "loss_after": [round(x, 5) for x in after],
        }
        TABLES.mkdir(exist_ok=True)
        path = TABLES / f"{rule_set}.json"
        path.write_text(to_json(rule_set, values, info), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
