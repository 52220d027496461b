"""First guesses of budgeted expected builds when symmetry does not force one (Mastermind).

The least total of such a game is the least, over the first guesses' symmetry
classes, of the least total of the trees that start with each. A budgeted
build without `--first` refines the greedy rule's pick and bounds every other
class by one guess of lookahead (`chosen_first_guess`), and with
`--others-deeper-to` their large parts two guesses deep, toward a
bound (`OtherFirstGuesses.deepened`). With `--first CODE`
(budgeted or exact, `given_first_guess`) the trees are those that start with
CODE only, and so is the lower bound. With `--first all` it refines every class
whose lookahead bound is below the best tree found so far, the lowest bound
first, and keeps the best tree (`solve_every_first_guess`): the whole game's
lower bound is then the least of the classes' own, each the refined bound or,
for a class not refined, its lookahead bound. Each refined class saves its
finished parts to its own resume file (`class_checkpoint`), so a build of
hours resumes class by class.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..game import BactreeError
from ..search import DEEPER_CALLS, INFINITE, TOTAL_GUESSES, CostSearch, Solver, greedy_order, others_bound
from .subproblems import solve_by_first_answer
from ..treefile import Node

Progress = Callable[[str], None]

# The `--first` value that refines every first-guess class instead of one.
EVERY_FIRST_GUESS = "all"


@dataclass
class OtherFirstGuesses:
    """The first guesses a budgeted build does not take (all but `kept`), with the search that bounds them.

    `bound` is their proven lower bound by one guess of lookahead below
    each of their parts; `deepened` raises it.
    """

    search: CostSearch
    depth: int
    guesses: np.ndarray
    bases: np.ndarray
    kept: int
    bound: int

    def deepened(self, target: int) -> int:
        """A proven lower bound of the trees that start with another first guess than `kept`, at most `target`.

        Each other first guess still below `target` after one guess of
        lookahead gets its large parts bounded two guesses deep
        (`bactree.search.others_bound`), each only as far as `target` needs
        (at most the chosen guess's own lower bound, past which the game's
        bound cannot rise; a lower one costs less); as
        everywhere, only games of `DEEPER_MIN_SET` secrets or more are
        bounded deeper (`bactree.search.cost.deep`).
        """
        if self.bound >= target:
            return target
        everything = self.search.solver.secrets
        return others_bound(
            self.search, everything, self.depth, (), self.guesses, self.bases, self.kept, target, deeper_calls=INFINITE
        )


def chosen_first_guess(solver: Solver, depth: int, greedy: str) -> tuple[int, OtherFirstGuesses]:
    """(first guess, the others with a proven lower bound of every tree that starts with one) for a budgeted build.

    The first guess is the greedy rule's pick among the first guesses (one
    per symmetry class). Any other first guess costs at least its own cost
    plus one guess of lookahead below each of its parts
    (`bactree.search.others_bound`), so the least of that bound and the
    chosen guess's proven one bounds the whole game.
    """
    search = CostSearch(solver, TOTAL_GUESSES, greedy_rule=greedy)
    everything = solver.secrets
    guesses, bases, _ = search.candidates(everything, depth, ())
    first = greedy_order(search, everything, depth, (), guesses)[0]
    bound = others_bound(search, everything, depth, (), guesses, bases, first, INFINITE)
    return first, OtherFirstGuesses(search, depth, guesses, bases, first, bound)


def given_first_guess(solver: Solver, depth: int, code: str) -> int:
    """The index of the first guess `code` the user fixed, once it can start a tree within `depth` guesses.

    In hard mode it must be a possible secret; its largest part must fit
    in `depth - 1` more guesses (`Solver.caps`), so that a tree exists.
    """
    game = solver.game
    first = game.code_index[game.parse_code(code)]
    shown = game.codes[first]
    if solver.hard and first not in set(solver.secrets.tolist()):
        raise BactreeError(f"first guess {shown} is not a possible secret: hard mode allows none other")
    if max(len(part) for part in solver.split(solver.secrets, first)) > solver.caps[depth - 1]:
        raise BactreeError(f"first guess {shown} leaves more secrets than {depth - 1} more guesses can solve")
    return first


def first_guess_bounds(solver: Solver, depth: int) -> list[tuple[int, int]]:
    """(first guess, lower bound of the trees that start with it), one per symmetry class, lowest bound first.

    A class's bound is its guess's cost plus one guess of lookahead below
    each of its parts (`CostSearch.lookahead_bound`); ties go to the lower
    code. A class whose parts cannot all be solved within `depth` has no
    tree: it is left out.
    """
    search = CostSearch(solver, TOTAL_GUESSES)
    everything = solver.secrets
    rows = []
    for first in solver.canonical_guesses(()).tolist():
        parts = solver.split(everything, first)
        if max(len(part) for part in parts) > solver.caps[depth - 1]:
            continue
        bound = search.cost.guess_cost(len(everything), depth)
        bound += sum(search.lookahead_bound(part, depth - 1, (first,)) for part in parts)
        rows.append((bound, first))
    return [(first, bound) for bound, first in sorted(rows)]


def class_checkpoint(checkpoint: Path, code: str) -> Path:
    """The resume file of one first guess's class in a `--first all` build: OUTPUT.CODE.resume beside OUTPUT.resume."""
    return checkpoint.with_name(f"{checkpoint.name.removesuffix('.resume')}.{code}.resume")


def class_checkpoints(checkpoint: Path) -> list[Path]:
    """The class resume files a `--first all` build writing `checkpoint` left, by name (OUTPUT.CODE.resume)."""
    stem = checkpoint.name.removesuffix(".resume") + "."
    if not checkpoint.parent.is_dir():
        return []
    return sorted(
        path for path in checkpoint.parent.iterdir()
        if path.name.startswith(stem) and path.name.endswith(".resume") and _is_code(path.name[len(stem) : -len(".resume")])
    )


def saved_checkpoints(checkpoint: Path, first_guess: str | None) -> list[Path]:
    """The resume files an interrupted build with `--first first_guess` left: one per class for `all`, else the one."""
    if first_guess == EVERY_FIRST_GUESS:
        return class_checkpoints(checkpoint)
    return [checkpoint] if checkpoint.exists() else []


def _is_code(text: str) -> bool:
    """Whether `text` could be the CODE of a class resume file's name (not empty, no dot: no other build's file)."""
    return bool(text) and "." not in text


def solve_every_first_guess(
    solver: Solver,
    depth: int,
    budget: int,
    workers: int | None = None,
    checkpoint: Path | None = None,
    progress: Progress | None = None,
    fresh: bool = True,
    executor: str = "local",
    address: str | None = None,
    greedy: str = "bound",
    deeper_calls: int = DEEPER_CALLS,
) -> tuple[Node, int, int, int]:
    """(best tree, its total, proven lower bound of the game, sets searched), every class worth it refined.

    Classes go lowest lookahead bound first (`first_guess_bounds`); one
    whose bound is not below the best total found so far cannot give a
    better tree and keeps its lookahead bound. The others are built as
    `solve_by_first_answer` builds them, each resumable from its own file
    (`class_checkpoint`); among equal totals the class built first is kept.
    """
    say = progress or (lambda message: None)
    classes = first_guess_bounds(solver, depth)
    best: tuple[Node, int] | None = None
    lower, searched = INFINITE, 0
    for rank, (first, bound) in enumerate(classes, 1):
        code = solver.game.codes[first]
        if best is not None and bound >= best[1]:
            say(f"first guess {code} ({rank}/{len(classes)}): at least {bound}, not below the best tree: not refined")
            lower = min(lower, bound)
            continue
        say(f"first guess {code} ({rank}/{len(classes)}; at least {bound} by lookahead): one subproblem per answer")
        resume = None if checkpoint is None else class_checkpoint(checkpoint, code)
        root, total, refined, sets = solve_by_first_answer(
            solver, first, depth, budget, workers, resume, progress, fresh, executor, address, greedy, deeper_calls
        )
        refined = max(refined, bound)  # both bound this class
        say(f"trees that start with {code}: best found {total}, at least {refined}")
        lower, searched = min(lower, refined), searched + sets
        if best is None or total < best[1]:
            best = (root, total)
    if best is None:
        raise BactreeError(f"no first guess leaves parts that {depth - 1} more guesses can solve")
    return best[0], best[1], lower, searched
