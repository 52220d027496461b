"""Expected-length builds split by the first answer: parallel, resumable, budgeted.

When symmetry leaves one first guess (every code alike, as in Bulls and
Cows), the least total is that guess's cost plus the least total of each
part it makes, and the parts are independent. Each part is a subproblem:
it gets a greedy tree first (an upper bound), then the exact branch and
bound under that bound. Subproblems run in worker processes, and finished
ones are saved to a resume file as they come. With a work budget a part is
refined instead (`CostSearch.refine`): exact where the budget suffices,
best-bound guesses above that, and a proven lower bound either way.

Without a budget and with more than one worker, a large part is searched
one second guess per task, so that the workers share the largest part
rather than one of them taking it whole: the parent keeps the part's best
total so far and hands each task the bound it gives (a guess with a lower
code than the best one may tie, so its bound is one more). Every second
guess is either valued exactly or refuted by a proven bound, and ties go to
the lowest code, so the tree is the same whatever order tasks end in.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import sys
import time
from collections import deque
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


# Parts at least this large are searched one second guess per task when there are several workers.
BRANCH_MIN_SECRETS = 1000

_worker_solver: Solver | None = None
_worker_search: CostSearch | None = None


def _solver_for(game: Game, hard: bool) -> Solver:
    """This worker process's solver for `game` (in hard mode or not), made once."""
    global _worker_solver
    if _worker_solver is None or _worker_solver.game != game or _worker_solver.hard != hard:
        _worker_solver = Solver(game, hard=hard)
    return _worker_solver


def _solve_part(task: tuple[Game, bool, int, np.ndarray, int, int | None, str, bool]) -> PartResult:
    """Worker: greedy tree, then exact search under its cost; with a budget, `CostSearch.refine`."""
    game, hard, first, part, depth, budget, answer, verbose = task
    solver = _solver_for(game, hard)
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


@dataclass
class BranchResult:
    """One second guess of a large part: its exact total below `bound`, else a proven bound >= `bound`."""

    answer: str
    guess: int
    bound: int
    value: int
    tree: Node | None  # the part's tree with this second guess, when valued exactly
    seconds: float
    sets: int


def _solve_branch(task: tuple[Game, bool, int, np.ndarray, int, int, int, str]) -> BranchResult:
    """Worker: a large part's value with a fixed second guess; one search per process keeps its memo across tasks."""
    global _worker_search
    game, hard, first, part, depth, guess, bound, answer = task
    if _worker_search is None or _worker_search.solver is not _solver_for(game, hard):
        _worker_search = CostSearch(_solver_for(game, hard), TOTAL_GUESSES)
    search = _worker_search
    start, before = time.perf_counter(), search.nodes_searched
    value = search.guess_value(part, depth, guess, bound, (first,))
    tree = search.tree_after(part, depth, guess, (first,)) if value < bound else None
    return BranchResult(answer, guess, bound, value, tree, time.perf_counter() - start, search.nodes_searched - before)


class _BranchedPart:
    """A large part searched one second guess per task: its best total so far and the guesses left."""

    def __init__(self, answer: str, part: np.ndarray, guesses: list[int], bases: list[int], upper: int) -> None:
        self.answer, self.part = answer, part
        self.best, self.best_guess, self.tree = upper + 1, -1, None
        self.left = deque(zip(guesses, bases))  # by bound, as the sequential search takes them
        self.running, self.seconds, self.sets = 0, 0.0, 0

    def next_task(self) -> tuple[int, int] | None:
        """(second guess, bound) of the next guess its bound does not refute, or None when none is left to start."""
        self._drop_refuted()
        if not self.left:
            return None
        guess, _ = self.left.popleft()
        self.running += 1
        return guess, self._limit(guess)

    def _limit(self, guess: int) -> int:
        """What `guess` must come below: the best so far, or one more for a lower code (ties go to it)."""
        return self.best + 1 if (self.best_guess >= 0 and guess < self.best_guess) else self.best

    def _drop_refuted(self) -> None:
        """Drop the guesses at the head whose bounds already refute them (the best only falls)."""
        while self.left:
            guess, base = self.left[0]
            if base > self.best or (base == self.best and self.best_guess < 0):
                self.left.clear()  # sorted by bound: the rest are refuted too
            elif base >= self._limit(guess):
                self.left.popleft()
            else:
                return

    def record(self, result: BranchResult) -> None:
        self.running -= 1
        self.seconds += result.seconds
        self.sets += result.sets
        better = result.value < self.best or (result.value == self.best and result.guess < self.best_guess)
        if result.value < result.bound and better:
            self.best, self.best_guess, self.tree = result.value, result.guess, result.tree

    def result(self) -> PartResult | None:
        """The part's result once every second guess is valued or refuted, else None."""
        self._drop_refuted()
        if self.left or self.running:
            return None
        if self.tree is None:
            raise RuntimeError(f"no second guess of part {self.answer} reached its greedy bound")
        return PartResult(self.answer, len(self.part), self.best, self.best, True, self.tree, self.seconds, self.sets)


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
    header = {"game": [game.length, game.symbols, game.repeats], "first": game.codes[first], "depth": depth, "budget": budget,
              "hard": solver.hard}
    done: dict[str, PartResult] = {}
    if resume is not None and resume.exists() and not fresh:
        saved = orjson.loads(resume.read_bytes())
        if saved.get("header") != header:
            raise BactreeError(f"{resume} was made by a different build (game, cap, budget or hard mode); remove it to start afresh")
        done = {r["answer"]: PartResult(**r) for r in saved["parts"]}
        say(f"resuming: {len(done)} of {len(parts)} subproblems already done")

    def save() -> None:
        if resume is not None:
            ordered = [done[a].to_json() for a in answers if a in done]
            write_atomic(resume, orjson.dumps({"header": header, "parts": ordered}))

    todo = sorted(((part, answer) for part, answer in zip(parts, answers) if answer not in done), key=lambda pa: -len(pa[0]))
    processes = min(workers or os.cpu_count() or 1, max(len(todo), 1))
    branched: list[_BranchedPart] = []
    if budget is None and processes > 1:
        search = CostSearch(solver, TOTAL_GUESSES)
        for part, answer in todo:
            if len(part) >= BRANCH_MIN_SECRETS:
                upper, _ = search.greedy(part, depth - 1, (first,))
                guesses, bases, _ = search.candidates(part, depth - 1, (first,))
                branched.append(_BranchedPart(answer, part, guesses.tolist(), bases.tolist(), upper))
                say(f"{game.codes[first]} {answer}: {len(part)} secrets, greedy total {upper}; "
                    f"{len(guesses)} second guesses searched one per task")
    whole = deque(
        (game, solver.hard, first, part, depth - 1, budget, answer, progress is not None)
        for part, answer in todo
        if answer not in {b.answer for b in branched}
    )
    began = time.perf_counter()

    def finished(result: PartResult) -> None:
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

    arrived: queue.Queue = queue.Queue()
    with multiprocessing.get_context("fork").Pool(processes) as pool:

        def start_next() -> bool:
            """Start a task, second guesses of large parts first; False when nothing can start now."""
            for state in branched:
                task = state.next_task()
                if task is not None:
                    guess, bound = task
                    pool.apply_async(_solve_branch, ((game, solver.hard, first, state.part, depth - 1, guess, bound, state.answer),),
                                     callback=arrived.put, error_callback=arrived.put)
                    return True
            if whole:
                pool.apply_async(_solve_part, (whole.popleft(),), callback=arrived.put, error_callback=arrived.put)
                return True
            return False

        running = 0
        while True:
            while running < processes and start_next():
                running += 1
            if running == 0:
                break
            result = arrived.get()
            running -= 1
            if isinstance(result, BaseException):
                raise result
            if isinstance(result, PartResult):
                finished(result)
                continue
            state = next(b for b in branched if b.answer == result.answer)
            state.record(result)
            outcome = f"total {result.value}" if result.value < result.bound else f"at least {result.value}, refuted"
            say(f"  {game.codes[first]} {result.answer} then {game.codes[result.guess]}: {outcome} "
                f"({result.seconds:.1f}s, best so far {state.best})")
            part_result = state.result()
            if part_result is not None:
                finished(part_result)
    results = [done[a] for a in answers]
    size = len(solver.all_guesses)
    total = size + sum(r.cost for r in results)
    lower = size + sum(r.lower_bound for r in results)
    children = {solver.answer_to(first, part): r.tree for part, r in zip(parts, results)}
    return node(game.codes[first], children), total, lower, sum(r.sets for r in results)
