"""Play a strategy against every secret: its figures (`evaluate`) or its whole tree (`strategy_tree`).

A deterministic strategy makes the same guess for every secret that has
given the same answers so far, so it is walked once as a decision tree:
one `choose` per node, with the secrets split by their answers, instead of
one game per secret. A deterministic strategy that ignores answers
(`enumerate`) makes one sequence of guesses for all secrets. Randomised
strategies are played game by game, `runs` times per secret.
"""

from __future__ import annotations

import io
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .game.codes import answer_table, decode_answer, solved_slot
from .game import BactreeError, Game
from .strategies import STRATEGIES, BlindStrategy, Strategy, make_strategy
from .treefile import Node, Objective, TreeFormatError, check_header, document, read_document, write_atomic

#: Guesses after which a game of an endless strategy (`random`, `cows-score`) counts as a failure.
DEFAULT_MAX_GUESSES = 100
#: Nodes a compiled tree may have unless the caller allows more.
DEFAULT_MAX_NODES = 1_000_000
#: Deepest tree a file can hold: orjson nests at most 255 objects, and a final
#: node at depth d sits 2d levels down (document, root, next, node, ...).
MAX_TREE_DEPTH = 127


@dataclass(frozen=True)
class Evaluation:
    """Figures of a strategy over every secret (times `runs` for randomised ones).

    Totals, maximum and mean are over the solved games; `failures` counts
    games of an endless strategy not solved within the cap.
    """

    name: str
    plays: int
    histogram: dict[int, int]
    failures: int
    seconds: float
    optimal: bool = False  # a tree file proven optimal for its objective

    @property
    def total_guesses(self) -> int:
        return sum(k * count for k, count in self.histogram.items())

    @property
    def max_guesses(self) -> int | None:
        return max(self.histogram, default=None)

    @property
    def mean_guesses(self) -> float | None:
        solved = self.plays - self.failures
        return self.total_guesses / solved if solved else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "plays": self.plays,
            "total_guesses": self.total_guesses,
            "max_guesses": self.max_guesses,
            "mean_guesses": self.mean_guesses,
            "histogram": {str(k): self.histogram[k] for k in sorted(self.histogram)},
            "failures": self.failures,
            "seconds": self.seconds,
            "optimal": self.optimal,
        }


def _check_limits(runs: int, max_guesses: int) -> None:
    if runs < 1:
        raise BactreeError(f"invalid runs {runs}: must be at least 1")
    if max_guesses < 1:
        raise BactreeError(f"invalid max guesses {max_guesses}: must be at least 1")


def evaluate(strategy: Strategy, runs: int = 1, max_guesses: int = DEFAULT_MAX_GUESSES) -> Evaluation:
    """Play every secret (`runs` times if the strategy is randomised) and count the guesses.

    Games of an endless strategy stop after `max_guesses` guesses and count as failures.
    """
    _check_limits(runs, max_guesses)
    started = time.perf_counter()
    secrets = len(strategy.game.codes)
    cap = max_guesses if strategy.endless else None
    if strategy.randomized:
        histogram, failures = _play_each(strategy, runs, cap)
        plays = secrets * runs
    elif isinstance(strategy, BlindStrategy):
        histogram, failures = _follow_sequence(strategy, cap)
        plays = secrets
    else:
        walk = _walk(strategy, cap, build=False, max_nodes=0)
        histogram, failures, plays = walk.histogram, walk.failures, secrets
    seconds = time.perf_counter() - started
    return Evaluation(strategy.name, plays, dict(sorted(histogram.items())), failures, seconds, strategy.optimal)


def _play_each(strategy: Strategy, runs: int, cap: int | None) -> tuple[Counter[int], int]:
    """Play game by game, with fresh random draws in every game; `cap` None means no cap."""
    table = answer_table(strategy.game)
    histogram: Counter[int] = Counter()
    failures = 0
    for _ in range(runs):
        for secret in range(len(strategy.game.codes)):
            state = strategy.start()
            depth = 1
            while (guess := strategy.choose(state)) != secret:
                if depth == cap:
                    failures += 1
                    break
                state = strategy.advance(state, guess, int(table[guess, secret]))
                depth += 1
            else:
                histogram[depth] += 1
    return histogram, failures


def _follow_sequence(strategy: BlindStrategy, cap: int | None) -> tuple[Counter[int], int]:
    """A deterministic strategy blind to answers solves each secret when its sequence reaches it."""
    solved_at = np.zeros(len(strategy.game.codes), np.int64)
    remaining = len(solved_at)
    turn = 0
    while remaining and turn != cap:
        guess = strategy.guess_at(turn)
        turn += 1
        if solved_at[guess] == 0:
            solved_at[guess] = turn
            remaining -= 1
    histogram = Counter(int(d) for d in solved_at[solved_at > 0])
    return histogram, remaining


@dataclass
class _Walk:
    histogram: Counter[int] = field(default_factory=Counter)
    failures: int = 0
    nodes: int = 0
    root: Node = field(default_factory=dict)


def _walk(strategy: Strategy, cap: int | None, build: bool, max_nodes: int) -> _Walk:
    """Walk the strategy's decision tree over all secrets; with `build`, keep the nodes.

    Secrets still unsolved after `cap` guesses (None: no cap) count as failures.
    Children's `next` keys are inserted in ascending (bulls, cows) order, as
    the tree format asks. Building stops with a `BactreeError` once the tree
    has more than `max_nodes` nodes or is too deep to write.
    """
    game = strategy.game
    table = answer_table(game)
    solved = solved_slot(game)
    walk = _Walk()
    stack: list[tuple[Any, np.ndarray, int, Node]] = [
        (strategy.start(), np.arange(len(game.codes), dtype=np.int64), 1, walk.root)
    ]
    while stack:
        state, secrets, depth, node = stack.pop()
        if cap is not None and depth > cap:
            walk.failures += len(secrets)
            continue
        guess = strategy.choose(state)
        walk.nodes += 1
        if build:
            if walk.nodes > max_nodes:
                raise BactreeError(
                    f"the tree of {strategy.name!r} has more than {max_nodes} nodes; allow more with --max-nodes"
                )
            if depth > MAX_TREE_DEPTH:
                raise BactreeError(
                    f"the tree of {strategy.name!r} is deeper than {MAX_TREE_DEPTH} guesses, "
                    "more than a tree file can nest"
                )
            node["guess"] = game.codes[guess]
        answers = table[guess, secrets]
        open_ = answers != solved
        if not open_.all():
            walk.histogram[depth] += 1
        secrets, answers = secrets[open_], answers[open_]
        if len(secrets) == 0:
            continue
        order = np.argsort(answers, kind="stable")
        secrets, answers = secrets[order], answers[order]
        slots, starts = np.unique(answers, return_index=True)
        ends = [*starts[1:], len(answers)]
        children: dict[str, Node] = {}
        for slot, lo, hi in zip(slots.tolist(), starts.tolist(), ends):
            child: Node = {}
            children[str(decode_answer(game, slot))] = child
            stack.append((strategy.advance(state, guess, slot), secrets[lo:hi], depth + 1, child))
        if build:
            node["next"] = children
    return walk


def strategy_tree(strategy: Strategy, max_nodes: int = DEFAULT_MAX_NODES) -> dict[str, Any]:
    """A deterministic strategy as a tree-file document (`optimal: false`, objective = its name)."""
    if strategy.randomized:
        raise BactreeError(f"strategy {strategy.name!r} is randomised: only deterministic strategies compile to a tree")
    walk = _walk(strategy, None, build=True, max_nodes=max_nodes)
    objective = Objective(strategy.name, strategy.tie_breaks, strategy.hard_mode, None)
    return document(strategy.game, objective, False, walk.root)


def tree_files(game: Game, folder: str | Path) -> list[Path]:
    """The tree files in `folder` (not recursive) whose game is `game`, sorted by name."""
    found = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            if check_header(read_document(path), str(path)) == game:
                found.append(path)
        except TreeFormatError:
            continue  # not a tree file; `bactree verify` is the place to report it
    return found


def badness(evaluation: Evaluation) -> tuple[bool, int, float, float]:
    """Ranking key, lower is better: proven-optimal trees first, then failures, mean, maximum guesses.

    An optimal tree is best at its own objective (a worst-case tree may have
    a higher mean than a heuristic with the same maximum), so such trees rank
    as the reference rows rather than by mean.
    """
    mean, worst = evaluation.mean_guesses, evaluation.max_guesses
    return (
        not evaluation.optimal,
        evaluation.failures,
        math.inf if mean is None else mean,
        math.inf if worst is None else worst,
    )


def evaluate_all(
    game: Game,
    runs: int = 1,
    seed: int | None = 0,
    max_guesses: int = DEFAULT_MAX_GUESSES,
    trees: str | Path | None = "trees",
) -> list[Evaluation]:
    """Every registered strategy and every tree file of `game` in `trees`, best last."""
    _check_limits(runs, max_guesses)
    specs = list(STRATEGIES)
    if trees is not None:
        specs += [f"tree:{path}" for path in tree_files(game, trees)]
    results = [evaluate(make_strategy(spec, game, seed), runs, max_guesses) for spec in specs]
    return sorted(results, key=badness, reverse=True)


def comparison_table(evaluations: list[Evaluation]) -> str:
    """A plain-text table, one row per evaluation, in the given order."""
    width = max([len("strategy"), *(len(e.name) for e in evaluations)])
    lines = [f"{'strategy':<{width}} {'plays':>7} {'mean':>9} {'max':>5} {'total':>9} {'failures':>8} {'seconds':>8}"]
    for e in evaluations:
        mean = "-" if e.mean_guesses is None else f"{e.mean_guesses:.4f}"
        worst = "-" if e.max_guesses is None else str(e.max_guesses)
        lines.append(
            f"{e.name:<{width}} {e.plays:>7} {mean:>9} {worst:>5} {e.total_guesses:>9} {e.failures:>8} {e.seconds:>8.2f}"
        )
    return "\n".join(lines)


def plot_histograms(evaluations: list[Evaluation], path: str | Path, title: str = "") -> None:
    """A PNG with one histogram of guesses per evaluation (needs the `plot` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise BactreeError("plotting needs matplotlib: pip install 'bactree[plot]'") from None
    columns = min(4, len(evaluations))
    rows = -(-len(evaluations) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(3.2 * columns, 2.4 * rows), squeeze=False)
    # Short games share one axis range so their histograms compare at a glance.
    short = max((e.max_guesses or 0 for e in evaluations if (e.max_guesses or 0) <= 20), default=0)
    for ax, e in zip(axes.flat, evaluations):
        ks = sorted(e.histogram)
        ax.bar(ks, [e.histogram[k] / e.plays for k in ks], width=1.0 if len(ks) > 30 else 0.8, color="tab:blue")
        if 0 < (e.max_guesses or 0) <= 20:
            ax.set_xlim(0.5, short + 0.5)
            ax.set_xticks(range(1, short + 1))
        mean = "-" if e.mean_guesses is None else f"{e.mean_guesses:.3f}"
        failed = f", {e.failures / e.plays:.0%} failed" if e.failures else ""
        ax.set_title(f"{e.name}\nmean {mean}, max {e.max_guesses}{failed}", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(evaluations) :]:
        ax.axis("off")
    if title:
        figure.suptitle(title, fontsize=10)
    figure.supxlabel("guesses", fontsize=8)
    figure.supylabel("share of games", fontsize=8)
    figure.tight_layout()
    image = io.BytesIO()
    try:
        figure.savefig(image, format="png", dpi=100)
    finally:
        plt.close(figure)
    write_atomic(path, image.getvalue())  # as every file bactree writes: whole or not at all, into a folder that exists
