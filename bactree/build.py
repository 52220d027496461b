"""`build`: compile an optimal tree for a game, with proof, as a tree-file document."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .executors import make_executor
from .game import BUILD_LIMIT, BactreeError, Game
from .search import GREEDY_RULES, INFINITE, TOTAL_GUESSES, Cost, CostSearch, Solver, refine
from .subproblems import chosen_first_guess, forced_first_guess, solve_by_first_answer
from .treefile import Node, Objective, document

OBJECTIVES = ("worst-case", "expected")
TIE_BREAKS = Cost.KEYS
# Worst case with no tie-break: the least height, proven, and the first tree found of it (`least_height_tree`).
HEIGHT_ONLY = "none"

Progress = Callable[[str], None]


@dataclass
class BuildResult:
    """A built tree file document and how the build went."""

    document: dict[str, Any]
    height: int
    cost: int
    seconds: float
    searched: int

    @property
    def stats(self) -> dict[str, Any]:
        return self.document["stats"]


def parse_tie_breaks(chain: str) -> tuple[str, ...]:
    """`crush,total` -> ("crush", "total"): the worst-case keys in order, each known and given once."""
    keys = tuple(key.strip() for key in chain.split(","))
    for key in keys:
        if key not in TIE_BREAKS:
            raise BactreeError(f"unknown tie-break {key!r} in {chain!r}: choose from {', '.join(TIE_BREAKS)} (or {HEIGHT_ONLY} alone)")
    if len(set(keys)) < len(keys):
        raise BactreeError(f"tie-break {chain!r} names a key twice")
    return keys


def build(
    game: Game,
    objective: str = "worst-case",
    tie_break: str = "nodes",
    max_guesses: int | None = None,
    progress: Progress | None = None,
    budget: int | None = None,
    workers: int | None = None,
    checkpoint: Path | None = None,
    resume: bool = False,
    executor: str = "local",
    address: str | None = None,
    hard: bool = False,
    greedy: str = "bound",
    first_guess: str | None = None,
) -> BuildResult:
    """Compile a provably optimal tree.

    `worst-case`: the least height (every smaller height refuted by
    exhaustive search), then among trees of that height the least
    `tie_break` keys in order (comma-separated: `nodes`, `total` guesses,
    `crush`: secrets solved at the least height). `expected`: the least
    total number of guesses over all secrets, within `max_guesses` guesses
    if given. With `hard`, every guess must be a code still possible given
    the answers so far. Remaining ties go to the lowest code at each node,
    so the same inputs give the same tree.

    When symmetry forces the first guess, an expected build solves the parts
    of its answers as independent subproblems on `workers` processes, saving
    each to `checkpoint` as it finishes (`resume` reuses them); `executor`
    "ray" runs them on Ray instead (`address`: a running cluster). With a
    `budget` of searched sets, a set that needs more keeps its best-bound
    guess and its parts are refined in turn (`bactree.search.refine`); the file
    then says `optimal: false` with a proven `lower_bound`, unless the bounds
    meet. `greedy` names the rule of the greedy trees (`CostSearch.greedy`):
    "bound" (the best-bound guess) or "entropy"; it sets the guess kept past
    the budget, and an exact search's starting bound (not its result).

    A budgeted expected build whose first guess symmetry does not force
    (Mastermind) takes `first_guess`, or else the greedy rule's, and splits
    by its answers the same way; every other first guess is bounded by one
    guess of lookahead below each of its parts, so the lower bound holds for
    the whole game.
    """
    game.check_size(BUILD_LIMIT)
    if objective not in OBJECTIVES:
        raise BactreeError(f"unknown objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    keys = () if tie_break == HEIGHT_ONLY else parse_tie_breaks(tie_break)
    if max_guesses is not None and max_guesses < 1:
        raise BactreeError(f"--max-guesses must be at least 1, got {max_guesses}")
    if workers is not None and workers < 1:
        raise BactreeError(f"--workers must be at least 1, got {workers}")
    if budget is not None and budget < 0:
        raise BactreeError(f"--budget must be at least 0, got {budget}")
    if greedy not in GREEDY_RULES:
        raise BactreeError(f"unknown greedy rule {greedy!r}: choose one of {', '.join(GREEDY_RULES)}")
    if first_guess is not None:
        game.parse_code(first_guess)
        if objective != "expected" or budget is None:
            raise BactreeError("--first is for budgeted expected builds: add -O expected --budget SETS")
    make_executor(executor, workers, address)  # bad executor options fail before any search
    say = progress or (lambda message: None)
    start = time.perf_counter()
    solver = Solver(game, progress=say, hard=hard)
    everything = solver.all_guesses
    if objective == "worst-case" and tie_break == HEIGHT_ONLY:
        height, root = least_height_tree(solver, say)
        say(f"height {height} proven in {time.perf_counter() - start:.1f}s")
        doc = document(game, Objective("worst-case", (), hard, max_guesses), True, root)
        return BuildResult(doc, height, height, time.perf_counter() - start, 0)
    if objective == "worst-case" or max_guesses is not None:
        height = solver.min_height()
        say(f"height {height} proven in {time.perf_counter() - start:.1f}s")
        if max_guesses is not None and max_guesses < height:
            raise BactreeError(f"no tree solves every secret within {max_guesses} guesses: the least is {height}")
    if objective == "worst-case":
        cost_kind = Cost.chain(keys, height, solver.num_codes)
        depth = height
        recorded = Objective("worst-case", keys, hard, max_guesses)
    else:
        cost_kind = TOTAL_GUESSES
        # No tree needs more guesses than there are codes.
        depth = solver.num_codes if max_guesses is None else min(max_guesses, solver.num_codes)
        recorded = Objective("expected", (), hard, max_guesses)
    say(f"minimising {cost_kind.name} within {depth} guesses")
    first = forced_first_guess(solver) if objective == "expected" else None
    others = INFINITE  # a proven lower bound of the trees whose first guess is not `first`
    if first is not None and first_guess is None:
        say(f"first guess {game.codes[first]} forced by symmetry: one subproblem per answer")
    elif objective == "expected" and budget is not None:
        first, others = chosen_first_guess(solver, depth, greedy, first_guess)
        chosen = "given" if first_guess is not None else f"the {greedy} rule's pick"
        say(f"first guess {game.codes[first]} ({chosen}; any other costs at least {others}): one subproblem per answer")
    if first is not None:
        root, cost, lower, searched = solve_by_first_answer(
            solver, first, depth, budget, workers, checkpoint, progress, fresh=not resume,
            executor=executor, address=address, greedy=greedy,
        )
        lower = min(lower, others)
    else:
        search = CostSearch(solver, cost_kind, say, greedy)
        if budget is None:
            cost = lower = search.solve(everything, depth)
            root = search.tree(everything, depth)
        else:
            cost, lower, root = refine(search, everything, depth, (), budget)
        searched = search.nodes_searched
    optimal = cost == lower
    say(f"least {cost_kind.name}: {cost}" if optimal else f"best {cost_kind.name} found: {cost}, proven lower bound {lower}")
    # The file's lower bound is of the first key: the later ones add less than its weight.
    first_weight = max(cost_kind.weights)
    doc = document(game, recorded, optimal, root, None if optimal else lower // first_weight)
    return BuildResult(doc, doc["stats"]["max_guesses"], cost, time.perf_counter() - start, searched)


def least_height_tree(solver: Solver, progress: Progress | None = None) -> tuple[int, Node]:
    """(least height, a tree of that height), for games too big to minimise a tie-break among such trees.

    From the counting bound up, each height gets `CostSearch.greedy` within
    it: the best-bound guess first, and on failure every other class of
    guesses in turn (exact on small sets), so it either returns a tree or
    has refuted the height, like `Solver.min_height` but without its memo.
    Where trees exist it finds one far sooner than the exhaustive search.
    """
    say = progress or (lambda message: None)
    search = CostSearch(solver, TOTAL_GUESSES)
    depth = 1
    while solver.caps[depth] < solver.num_codes:
        depth += 1
    while True:
        say(f"height {depth}: searching for a tree (best-bound guesses first)")
        cost, root = search.greedy(solver.all_guesses, depth)
        if cost < INFINITE:
            return depth, root
        say(f"height {depth}: refuted")
        depth += 1
