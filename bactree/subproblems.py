"""Expected-length builds split by the first answer: parallel, resumable, budgeted.

When symmetry leaves one first guess (every code alike, as in Bulls and
Cows), the least total is that guess's cost plus the least total of each
part it makes, and the parts are independent. Each part is a subproblem:
it gets a greedy tree first (an upper bound), then the exact branch and
bound under that bound. Subproblems run in worker processes, and finished
ones are saved to a resume file as they come. With a work budget a part is
refined instead (`CostSearch.refine`): exact where the budget suffices,
best-bound guesses above that, and a proven lower bound either way.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import orjson

from .cost import TOTAL_GUESSES, CostSearch
from .game import BactreeError, Game
from .search import Solver
from .treefile import Node, node, write_atomic

Progress = Callable[[str], None]


@dataclass
class PartResult:
    """One subproblem's outcome: its tree, its cost, and what is proven of it."""

    answer: str
    size: int
    cost: int
    lower_bound: int
    optimal: bool
    tree: Node
    seconds: float
    sets: int

    def to_json(self) -> dict[str, Any]:
        return self.__dict__.copy()


def forced_first_guess(solver: Solver) -> int | None:
    """The first guess when symmetry leaves only one class of them, else None."""
    first = solver.canonical_guesses(())
    return int(first[0]) if len(first) == 1 else None


_worker_solver: Solver | None = None


def _solve_part(task: tuple[Game, int, np.ndarray, int, int | None, str, bool]) -> PartResult:
    """Worker: greedy tree, then exact search under its cost; with a budget, `CostSearch.refine`."""
    global _worker_solver
    game, first, part, depth, budget, answer, verbose = task
    if _worker_solver is None or _worker_solver.game != game:
        _worker_solver = Solver(game)
    solver = _worker_solver
    start = time.perf_counter()
    tag = f"{game.codes[first]} {answer}"
    report = (lambda message: print(f"  [{tag}] {message}", file=sys.stderr, flush=True)) if verbose else None
    search = CostSearch(solver, TOTAL_GUESSES, progress=report)
    history = (first,)
    if budget is not None:
        cost, lower, tree = search.refine(part, depth, history, budget)
        return PartResult(answer, len(part), cost, lower, cost == lower, tree,
                          time.perf_counter() - start, search.nodes_searched)
    greedy_cost, _ = search.greedy(part, depth, history)
    if report:
        report(f"greedy tree: total {greedy_cost} ({time.perf_counter() - start:.1f}s); now the exact search")
    cost = search.solve(part, depth, greedy_cost + 1, history, kernel=False)
    tree = search.tree(part, depth, history)
    return PartResult(answer, len(part), cost, cost, True, tree, time.perf_counter() - start, search.nodes_searched)

def solve_by_first_answer(
    solver: Solver,
    first: int,
    depth: int,
    budget: int | None = None,
    workers: int | None = None,
    resume: Path | None = None,
    progress: Progress | None = None,
    fresh: bool = True,
) -> tuple[Node, int, int, int]:
    """(tree, total, proven lower bound, sets searched) for the whole game, first guess fixed.

    Finished subproblems are saved to the file `resume` as they come, so an
    interrupted build loses at most the ones under way; unless `fresh`,
    results already there (same game, cap and budget) are reused.
    """
    say = progress or (lambda message: None)
    game = solver.game
    parts = solver.split(solver.all_guesses, first)
    answers = [str(solver.answer_to(first, part)) for part in parts]
    header = {"game": [game.length, game.symbols, game.repeats], "first": game.codes[first], "depth": depth, "budget": budget}
    done: dict[str, PartResult] = {}
    if resume is not None and resume.exists() and not fresh:
        saved = orjson.loads(resume.read_bytes())
        if saved.get("header") != header:
            raise BactreeError(f"{resume} was made by a different build (game, cap or budget); remove it to start afresh")
        done = {r["answer"]: PartResult(**r) for r in saved["parts"]}
        say(f"resuming: {len(done)} of {len(parts)} subproblems already done")

    def save() -> None:
        if resume is not None:
            ordered = [done[a].to_json() for a in answers if a in done]
            write_atomic(resume, orjson.dumps({"header": header, "parts": ordered}))

    tasks = [
        (game, first, part, depth - 1, budget, answer, progress is not None)
        for part, answer in sorted(zip(parts, answers), key=lambda pa: -len(pa[0]))
        if answer not in done
    ]
    began = time.perf_counter()
    processes = min(workers or os.cpu_count() or 1, max(len(tasks), 1))
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        for result in pool.imap_unordered(_solve_part, tasks):
            done[result.answer] = result
            save()
            proven = "optimal" if result.optimal else f"greedy, lower bound {result.lower_bound}"
            covered = sum(r.size for r in done.values())
            say(
                f"{len(done)}/{len(parts)} {game.codes[first]} {result.answer}: {result.size} secrets, "
                f"total {result.cost} ({proven}), {result.sets} sets, {result.seconds:.1f}s; "
                f"{covered}/{len(solver.all_guesses) - 1} secrets done, their total between "
                f"{sum(r.lower_bound for r in done.values())} and {sum(r.cost for r in done.values())} "
                f"[{time.perf_counter() - began:.0f}s elapsed]"
            )
    results = [done[a] for a in answers]
    size = len(solver.all_guesses)
    total = size + sum(r.cost for r in results)
    lower = size + sum(r.lower_bound for r in results)
    children = {solver.answer_to(first, part): r.tree for part, r in zip(parts, results)}
    return node(game.codes[first], children), total, lower, sum(r.sets for r in results)
