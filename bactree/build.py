"""`build`: compile an optimal tree for a game, with proof, as a tree-file document."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .codes import decode_answer
from .cost import INFINITE, NODES, TOTAL_GUESSES, Cost, CostSearch
from .game import BactreeError, Game
from .search import Solver
from .treefile import Node, Objective, document, node

OBJECTIVES = ("worst-case", "expected")
TIE_BREAKS = {"nodes": NODES, "total": TOTAL_GUESSES}

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


def build(
    game: Game,
    objective: str = "worst-case",
    tie_break: str = "nodes",
    max_guesses: int | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Compile a provably optimal tree.

    `worst-case`: the least height (every smaller height refuted by
    exhaustive search), then among trees of that height the least `tie_break`
    cost (`nodes` or `total` guesses). `expected`: the least total number of
    guesses over all secrets, within `max_guesses` guesses if given. Remaining
    ties go to the lowest code at each node, so the same inputs give the same
    tree.
    """
    if objective not in OBJECTIVES:
        raise BactreeError(f"unknown objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    if tie_break not in TIE_BREAKS:
        raise BactreeError(f"unknown tie-break {tie_break!r}: choose one of {', '.join(TIE_BREAKS)}")
    if max_guesses is not None and max_guesses < 1:
        raise BactreeError(f"--max-guesses must be at least 1, got {max_guesses}")
    say = progress or (lambda message: None)
    start = time.perf_counter()
    solver = Solver(game, progress=say)
    everything = solver.all_guesses
    if objective == "worst-case":
        height = solver.min_height()
        say(f"height {height} proven in {time.perf_counter() - start:.1f}s; minimising {tie_break}")
        if max_guesses is not None and max_guesses < height:
            raise BactreeError(f"no tree solves every secret within {max_guesses} guesses: the least is {height}")
        cost_kind: Cost = TIE_BREAKS[tie_break]
        depth = height
        recorded = Objective("worst-case", (tie_break,), False, max_guesses)
    else:
        cost_kind = TOTAL_GUESSES
        depth = solver.num_codes  # no tree needs more guesses than there are codes
        if max_guesses is not None:
            height = solver.min_height()
            if max_guesses < height:
                raise BactreeError(f"no tree solves every secret within {max_guesses} guesses: the least is {height}")
            depth = min(max_guesses, depth)
        recorded = Objective("expected", (), False, max_guesses)
    search = CostSearch(solver, cost_kind, say)
    cost = search.solve(everything, depth)
    if cost >= INFINITE:
        raise BactreeError("no tree of that height exists")  # unreachable: the height was proven
    say(f"least {cost_kind.name}: {cost} ({search.nodes_searched} sets searched)")
    root = _tree(search, everything, depth, ())
    doc = document(game, recorded, True, root)
    return BuildResult(doc, doc["stats"]["max_guesses"], cost, time.perf_counter() - start, search.nodes_searched)


def _tree(search: CostSearch, subset: np.ndarray, depth: int, history: tuple[int, ...]) -> Node:
    """The tree of least cost for `subset`, read back from the search (lowest code on ties)."""
    game = search.solver.game
    if len(subset) == 1:
        return node(game.codes[int(subset[0])])
    _, guess = search.best_guess(subset, depth, history)
    children = {}
    table_row = search.solver.table[guess]
    for part in search.solver.split(subset, guess):
        answer = decode_answer(game, table_row[part[0]])
        children[answer] = _tree(search, part, depth - 1, history + (guess,))
    return node(game.codes[guess], children)
