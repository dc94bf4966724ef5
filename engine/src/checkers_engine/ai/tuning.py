"""Fit the evaluation's weights by logistic regression on game positions (Texel-style).

The data set is generated on each run, not stored: quiet positions (the side to move has
no capture, as at the search's leaves) from the engine's own games, fast fixed-depth
searches from seeded random openings, labelled with each game's result; for the short-king
family also every quiet position of the recorded English games in
``data/tinsley.pdn``,
labelled with Tinsley's results; and with ``--records FILE`` every quiet position of a
match recorded by ``bench/ai_gain.py --record`` (two Executives at its time a move), in
the family of its rule set. One row of weights is fitted per family
(``checkers_engine.ai.weights.FAMILIES``): short kings (English and Italian games), Russian, and the
other flying kings (Brazilian, Spanish and Thai).

The model: P(side to move wins) = sigmoid(K * evaluation / 100), a draw counting as one
half (cross-entropy with soft labels). K is fitted first on today's weights and then held,
so a man stays worth 100; the weights (``checkers_engine.ai.weights.PARAMETERS``) are then fitted by
Newton's method with an L2 pull towards today's values (``--prior``), which keeps a small
sample from inventing large terms. A recorded match's result says as much about which
Executive played a side as about the position, so its positions add one more term, +1 for
the new Executive to move and -1 for the earlier one, fitted with the weights and then
dropped: without it, whatever the stronger side's positions have in common (its style)
is paid for as if it won games. Every fifth game is held out; the loss is printed before
and after on both parts, computed with ``evaluate`` itself and the rounded weights.
``--write`` writes the new rows into ``checkers_engine/ai/tuned.py``.

    python tools/tune.py                      # about 3 minutes on 2 busy cores
    python tools/tune.py --games 200 --depth 6 --write   # a bigger, slower sample

The searches are bounded by depth and nodes, never by the clock, so a run is repeatable.
``tools/tune.py`` in the engine's folder is the command line over ``main``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import textwrap
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from checkers_engine import KING_PLIES_DRAW, RULE_SETS, Board, Side
from checkers_engine.ai import tuned
from checkers_engine.ai.evaluation import evaluate, features
from checkers_engine.ai.players import game_history, to_move
from checkers_engine.ai.search import Searcher
from checkers_engine.ai.weights import FAMILIES, PARAMETERS, Weights, from_vector, to_vector
from checkers_engine.movegen import has_capture
from checkers_engine.pdn import read_games, replay

# The recorded games, from the engine's folder (a checkout, or an editable install): the
# wheel ships no data/, so a fit runs from the engine's folder.
DATA = Path(__file__).resolve().parents[3] / "data"
TINSLEY = DATA / "tinsley.pdn"
MAX_PLIES = 200
FIRST_PLY = 6  # positions this close to the start say nothing about the weights
HOLD_OUT = 5  # every fifth game is held out of the fit

State = tuple[int, int, int, int]


@dataclass(frozen=True)
class Sample:
    state: State
    target: float  # the game's result for the side to move: 1, 0.5 or 0
    held_out: bool
    source: str
    engine: int = 0
    """In a recorded match: 1 when the side to move is the new Executive, -1 when it is
    the earlier one. Their difference in strength decides many results whatever the
    position holds, so the fit gives it a term of its own (``rows``) and not the weights."""


def quiet(board: Board) -> bool:
    state = board.raw_state()
    return (
        board.king_plies <= KING_PLIES_DRAW // 2
        and not board.is_game_over()
        and not has_capture(*state, board.rule_set)
    )


def labelled(
    states: Iterable[State],
    drums_score: float,
    held_out: bool,
    source: str,
    new_drums: bool | None = None,
) -> list[Sample]:
    """Positions labelled with the result for their side to move; ``new_drums`` says which
    side the new Executive played in a recorded match (``Sample.engine``)."""
    out = []
    for s in states:
        engine = 0 if new_drums is None else 1 if (s[3] == 0) == new_drums else -1
        target = drums_score if s[3] == 0 else 1 - drums_score
        out.append(Sample(s, target, held_out, source, engine))
    return out


def self_play(job: tuple[str, int, int, int]) -> list[Sample]:
    """One game of fixed-depth searches choosing by softmax (so games differ and end in
    wins as well as draws), from four random plies."""
    rule_set, seed, depth, nodes = job
    rng = random.Random(seed)
    board = Board(rule_set)
    searcher = Searcher(board.rule_set)
    positions: list[State] = []
    while not board.is_game_over() and board.ply < MAX_PLIES:
        legal = board.legal_moves
        if board.ply < 4 or len(legal) == 1:
            board.push(rng.choice(legal))
            continue
        if board.ply >= FIRST_PLY and quiet(board):
            positions.append(board.raw_state())
        result = searcher.run(
            board.raw_state(),
            max_depth=depth,
            node_limit=nodes,
            margin=60,
            king_plies=board.king_plies,
            history=game_history(board),
        )
        ranked = sorted(result.scores.items(), key=lambda kv: -kv[1])
        top = ranked[0][1]
        weights = [math.exp(max(s - top, -600) / 20) for _, s in ranked]
        raw = rng.choices([m for m, _ in ranked], weights=weights)[0]
        board.push(to_move(board, raw))
    outcome = board.outcome()
    score = (
        0.5 if outcome is None or outcome.winner is None else float(outcome.winner is Side.DRUMS)
    )
    return labelled(positions, score, seed % HOLD_OUT == 0, rule_set)


def tinsley_samples(path: Path = TINSLEY) -> list[Sample]:
    """Every quiet position of the recorded games with a result (up to a bad move)."""
    if not path.is_file():
        sys.exit(f"{path} is missing (data/README.md says where it comes from)")
    out: list[Sample] = []
    for number, game in enumerate(read_games(path.read_text(encoding="ascii")), 1):
        report = replay(game)
        if report.result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[report.result]
        board = Board(report.rule_set)
        positions = []
        for move in report.moves:
            board.push(move)
            if board.ply >= FIRST_PLY and quiet(board):
                positions.append(board.raw_state())
        out += labelled(positions, score, number % HOLD_OUT == 0, "tinsley")
    return out


def record_samples(path: Path) -> list[Sample]:
    """Every quiet position of a match recorded by ``bench/ai_gain.py --record``, labelled
    with its game's result; every fifth game held out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rule_set = json.loads(lines[0])["match"]["rule_set"]
    out: list[Sample] = []
    for line in lines[1:]:
        game = json.loads(line)
        drums_score = game["score"] if game["new_drums"] else 1 - game["score"]
        board = Board(rule_set)
        positions = []
        for text in game["moves"]:
            board.push_text(text)
            if board.ply >= FIRST_PLY and quiet(board):
                positions.append(board.raw_state())
        held_out = game["game"] % HOLD_OUT == 0
        out += labelled(
            positions, drums_score, held_out, f"{rule_set} record", new_drums=game["new_drums"]
        )
    return out


# -- the fit ------------------------------------------------------------------------------

Row = tuple[list[tuple[int, float]], float, float, float]
"""A position as the fit sees it: sparse (index, value) features, offset, scale, target."""


def rows(samples: Sequence[Sample], w: Weights) -> list[Row]:
    """The fit's rows: the weights' features, then the recorded matches' engine term
    (index ``len(PARAMETERS)``, fitted beside the weights and then dropped)."""
    out = []
    engine_index = len(PARAMETERS)
    for s in samples:
        values, offset, scale = features(*s.state, w)
        sparse = [(i, x) for i, x in enumerate(values) if x]
        if s.engine:
            sparse.append((engine_index, float(s.engine)))
        out.append((sparse, offset, scale, s.target))
    return out


def cross_entropy(p: float, y: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return -(y * math.log(p) + (1 - y) * math.log(1 - p))


def sigmoid(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def loss_of(samples: Sequence[Sample], w: Weights, k: float) -> float:
    """Mean cross-entropy of the evaluation itself (integer, as the search sees it)."""
    if not samples:
        return float("nan")
    total = 0.0
    for s in samples:
        total += cross_entropy(sigmoid(k * evaluate(*s.state, w) / 100), s.target)
    return total / len(samples)


def fit_k(samples: Sequence[Sample], w: Weights) -> float:
    """The scale K that best fits today's weights (golden-section search)."""
    scores = [(evaluate(*s.state, w) / 100, s.target) for s in samples]

    def loss(k: float) -> float:
        return sum(cross_entropy(sigmoid(k * e), y) for e, y in scores) / len(scores)

    lo, hi = 0.01, 5.0
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(a), loss(b)
    for _ in range(40):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(b)
    return (lo + hi) / 2


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Hessian is small and positive
    definite thanks to the prior)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            if f:
                for j in range(c, n + 1):
                    a[r][j] -= f * a[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][j] * x[j] for j in range(r + 1, n))) / a[r][r]
    return x


def fit(
    data: Sequence[Row], start: list[float], k: float, prior: float, free: int = 0
) -> list[float]:
    """Newton's method on mean cross-entropy + prior * |theta - start|^2 (per position).
    The last ``free`` parameters have no today's value to be pulled to: their pull is a
    millionth of the others', enough to keep the system solvable when no row has them."""
    n = len(data)
    theta = list(start)
    m = len(theta)
    pull = [prior] * (m - free) + [prior * 1e-6] * free
    for _ in range(12):
        grad = [2 * pull[j] * (theta[j] - start[j]) for j in range(m)]
        hess = [[2 * pull[i] if i == j else 0.0 for j in range(m)] for i in range(m)]
        for sparse, offset, scale, y in data:
            c = k / 100 * scale
            z = c * (offset + sum(theta[i] * x for i, x in sparse))
            p = sigmoid(z)
            g = (p - y) * c / n
            h = p * (1 - p) * c * c / n
            for i, x in sparse:
                grad[i] += g * x
                hx = h * x
                row = hess[i]
                for j, x2 in sparse:
                    row[j] += hx * x2
        step = solve(hess, grad)
        theta = [t - s for t, s in zip(theta, step, strict=True)]
        if max(abs(s) for s in step) < 0.05:
            break
    return theta


def fit_weights(
    samples: Sequence[Sample], old: Weights, k: float, prior: float
) -> tuple[Weights, float]:
    """The fitted row (rounded) and the recorded matches' engine term, which the row
    leaves out (``Sample.engine``)."""
    theta = fit(rows(samples, old), [*map(float, to_vector(old)), 0.0], k, prior, free=1)
    *weights, engine = theta
    return from_vector(old.flying, [round(t) for t in weights]), engine


# -- a check in play --------------------------------------------------------------------


def match_game(job: tuple[str, int, bool, int, int, Weights, Weights]) -> float:
    """One game of the fitted weights against today's from a random four-ply opening;
    the fitted side's score. Both sides search alike (depth and nodes), no randomness."""
    rule_set, seed, new_drums, depth, nodes, new, old = job
    rng = random.Random(seed)
    board = Board(rule_set)
    for _ in range(4):
        if not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
    new_side = Side.DRUMS if new_drums else Side.TIRES
    searchers = {
        new_side: Searcher(board.rule_set, weights=new),
        new_side.opponent: Searcher(board.rule_set, weights=old),
    }
    while not board.is_game_over() and board.ply < MAX_PLIES:
        result = searchers[board.turn].run(
            board.raw_state(),
            max_depth=depth,
            node_limit=nodes,
            king_plies=board.king_plies,
            history=game_history(board),
        )
        assert result.best is not None
        board.push(to_move(board, result.best))
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner is new_side else 0.0


def match(family: str, new: Weights, old: Weights, args: argparse.Namespace) -> None:
    """Each opening twice with colours reversed, spread over the family's rule sets."""
    members = FAMILIES[family]
    jobs = [
        (
            members[n % len(members)],
            args.seed * 1000 + n,
            drums,
            args.match_depth,
            args.match_nodes,
            new,
            old,
        )
        for n in range(args.match // 2)
        for drums in (True, False)
    ]
    with ProcessPoolExecutor(args.processes) as pool:
        scores = list(pool.map(match_game, jobs))
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / max(n - 1, 1) / n)
    wins, draws = scores.count(1.0), scores.count(0.5)
    print(
        f"match, fitted v today's weights, {n} games at depth {args.match_depth} / "
        f"{args.match_nodes} nodes: +{wins} ={draws} -{n - wins - draws}, score "
        f"{mean:.3f} (95% interval {mean - 1.96 * sd:.3f}-{mean + 1.96 * sd:.3f})"
    )


# -- the report ---------------------------------------------------------------------------


def write_module(rows_by_family: dict[str, Weights], note: str) -> None:
    path = Path(__file__).with_name("tuned.py")
    lines = [
        '"""Evaluation weights per rule-set family, fitted by ``tools/tune.py --write``.',
        "",
        *(
            part
            for line in note.splitlines()
            for part in textwrap.wrap(line, 88, subsequent_indent="    ")
        ),
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from checkers_engine.ai.weights import Weights",
    ]
    for family, w in rows_by_family.items():
        lines += ["", f"{family.upper()} = Weights("]
        lines.append(f"    flying={w.flying},")
        for field in Weights.__dataclass_fields__:
            if field not in ("flying", "patterns"):  # the pattern tables have files of their own
                field_value = getattr(w, field)
                value = repr(field_value)
                if len(value) > 80:  # a long tuple: one item a line, as the formatter has it
                    value = "(\n" + "".join(f"        {x},\n" for x in field_value) + "    )"
                lines.append(f"    {field}={value},")
        lines.append(")")
    lines += ["", "ROWS = {", *(f'    "{f}": {f.upper()},' for f in rows_by_family), "}"]
    lines.append('"""The row of each family of ``checkers_engine.ai.weights.FAMILIES``."""')
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="self-play games per rule set")
    parser.add_argument("--depth", type=int, default=4, help="self-play search depth")
    parser.add_argument("--nodes", type=int, default=4000, help="self-play nodes per move")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--prior", type=float, default=1e-6, help="L2 pull to today's weights")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--family", action="append", choices=list(FAMILIES))
    parser.add_argument("--no-tinsley", action="store_true")
    parser.add_argument(
        "--records", type=Path, action="append", default=[], help="a recorded match's file"
    )
    parser.add_argument("--write", action="store_true", help="write checkers_engine/ai/tuned.py")
    parser.add_argument("--match", type=int, default=0, help="games, fitted v today's")
    parser.add_argument("--match-depth", type=int, default=6)
    parser.add_argument("--match-nodes", type=int, default=8000)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    families = args.family or list(FAMILIES)
    playing = {r for f in families for r in FAMILIES[f]}
    jobs = [
        (rule_set, args.seed * 100_000 + i * 10 + n, args.depth, args.nodes)
        for i, rule_set in enumerate(RULE_SETS)
        for n in range(args.games)
        if rule_set in playing
    ]
    by_rule_set: dict[str, list[Sample]] = {r: [] for r in RULE_SETS}
    with ProcessPoolExecutor(args.processes) as pool:
        for done, samples in enumerate(pool.map(self_play, jobs), 1):
            if samples:
                by_rule_set[samples[0].source] += samples
            sys.stderr.write(f"\rself-play {done}/{len(jobs)} games ")
    sys.stderr.write("\n")
    print(f"self-play: {len(jobs)} games in {time.perf_counter() - started:.0f} s")
    extra = [] if args.no_tinsley or "short" not in families else tinsley_samples()
    recorded = [s for path in args.records for s in record_samples(path)]

    # A family not fitted keeps its row (and its line of the summary).
    fitted: dict[str, Weights] = {f: tuned.ROWS[f] for f in FAMILIES}
    summary = []  # one paragraph per family, kept from the module for a family not fitted
    for line in (tuned.__doc__ or "").splitlines():
        if line.split(":")[0] in FAMILIES:
            summary.append(line)
        elif line.startswith("    ") and summary:
            summary[-1] += " " + line.strip()
    for family in families:
        members = FAMILIES[family]
        samples = [s for r in members for s in by_rule_set[r]]
        if family == "short":
            samples += extra
        samples += [s for s in recorded if s.source.split()[0] in members]
        old = fitted[family]
        train = [s for s in samples if not s.held_out]
        test = [s for s in samples if s.held_out]
        sources = sorted({s.source for s in samples})
        counts = ", ".join(f"{src} {sum(s.source == src for s in samples)}" for src in sources)
        print(f"\n{family} kings: {len(train)} positions to fit, {len(test)} held out ({counts})")
        k = fit_k(train, old)
        new, engine = fit_weights(train, old, k, args.prior)
        before = (loss_of(train, old, k), loss_of(test, old, k))
        after = (loss_of(train, new, k), loss_of(test, new, k))
        print(f"K = {k:.3f} (logit per man)")
        if any(s.engine for s in train):
            print(f"the new Executive's edge in the recorded matches: {engine:.0f} (a man is 100)")
        print(f"loss before: fit {before[0]:.5f}  held out {before[1]:.5f}")
        print(f"loss after:  fit {after[0]:.5f}  held out {after[1]:.5f}")
        print(f"{'parameter':<24}{'before':>8}{'after':>8}")
        for name, a, b in zip(PARAMETERS, to_vector(old), to_vector(new), strict=True):
            print(f"{name:<24}{a:>8}{b:>8}")
        fitted[family] = new
        if args.match:
            match(family, new, old, args)
        summary = [line for line in summary if not line.startswith(f"{family}:")]
        run = (
            f"--games {args.games} --depth {args.depth} --nodes {args.nodes} --seed {args.seed}"
            f" --prior {args.prior}{' --no-tinsley' if args.no_tinsley else ''}"
            + "".join(f" --records {path.name}" for path in args.records)
        )
        summary.append(
            f"{family}: fitted ({run}) on {len(train)} positions, {len(test)} held out, K {k:.3f};"
            f" loss (fit / held out) {before[0]:.4f} / {before[1]:.4f} before,"
            f" {after[0]:.4f} / {after[1]:.4f} after."
        )
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    if args.write:
        order = list(FAMILIES)
        note = "\n".join(sorted(summary, key=lambda line: order.index(line.split(":")[0])))
        write_module(fitted, note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
