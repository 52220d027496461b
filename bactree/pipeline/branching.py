"""The build's bookkeeping of a large part searched one second guess per task (`bactree.pipeline.subproblems`).

`BranchedPart` holds a part's best total so far and the second guesses
left, and hands each task the bound it must come below. `GuessPieces`
splits one second guess further, one of the parts it leaves per task: the
guess the others wait for (the first, valued alone below the greedy
tree's total) then takes every worker instead of one. Both only schedule:
the workers' tasks are in `bactree.pipeline.part_tasks`.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from .part_tasks import BranchResult, PiecesResult
from .resume import PartResult
from ..search import CostSearch
from ..treefile import Node, node

# Parts a split second guess leaves of at most this many secrets go to the workers together, one task for all.
SMALL_PIECE = 30


class BranchedPart:
    """A large part searched one second guess per task: its best total so far and the guesses left."""

    def __init__(self, answer: str, part: Any, size: int, guesses: list[int], bases: list[int], upper: int) -> None:
        self.answer, self.part, self.size = answer, part, size  # `part`: the executor's handle of its secrets
        self.best, self.best_guess, self.tree = upper + 1, -1, None
        self.left = deque(zip(guesses, bases))  # by bound, as the sequential search takes them
        self.running, self.seconds, self.sets = 0, 0.0, 0

    def next_task(self) -> tuple[int, int] | None:
        """(second guess, bound) of the next guess its bound does not refute, or None when none is left to start.

        Until one guess has a value below the greedy tree's, one runs at a
        time: the guess of best bound is most often the best, and the others
        started with its value as their bound mostly fall at once (4 of 10),
        where started beside it they would be valued in full.
        """
        self._drop_refuted()
        if not self.left or (self.running and self.best_guess < 0):
            return None
        guess, _ = self.left.popleft()
        self.running += 1
        return guess, self._limit(guess)

    def guesses_left(self) -> int:
        """How many second guesses are still to start (those their bounds refute dropped)."""
        self._drop_refuted()
        return len(self.left)

    def replay(self, result: BranchResult) -> None:
        """A second guess's result saved by an interrupted build, taken as if its task had just run here."""
        self.left = deque(item for item in self.left if item[0] != result.guess)
        self.running += 1
        self.record(result)

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
        return PartResult(self.answer, self.size, self.best, self.best, True, self.tree, self.seconds, self.sets)


class GuessPieces:
    """One second guess of a large part valued one of the parts it leaves (a piece) per task, below `bound`.

    The guess costs `cost` and each piece at least its floor (`pieces`: the
    piece's answer slot in the table, its answer, size and floor), so a
    piece must come below `bound` less the guess's cost and the other
    pieces' floors. The guess's value is its cost plus the pieces' values,
    and its tree theirs under it: what one task searching the guess would
    find, since each piece's tree is its least (lowest code on ties)
    whatever the bound it was searched below. A piece that reaches its
    bound refutes the guess: its proven bound and the others' values or
    floors sum to at least `bound`.
    """

    def __init__(
        self, answer: str, guess: int, code: str, bound: int, cost: int, pieces: list[tuple[int, Any, int, int]]
    ) -> None:
        self.answer, self.guess, self.code, self.bound, self.cost = answer, guess, code, bound, cost
        self.base = cost + sum(floor for _, _, _, floor in pieces)
        self.pieces = {slot: (answer, size, floor) for slot, answer, size, floor in pieces}
        self.values: dict[int, tuple[int, Node | None]] = {}
        self.seconds, self.sets = 0.0, 0

    @classmethod
    def split(cls, search: CostSearch, answer: str, part: np.ndarray, depth: int, guess: int, bound: int) -> GuessPieces:
        """`guess` on the large part `answer` (its secrets `part`, `depth` guesses left) cut into its pieces."""
        solver = search.solver
        floor = search.part_floor_at(depth - 1)[search.orbit_of[guess]]
        pieces = []
        for piece in solver.split(part, guess):
            slot = int(solver.table[guess, piece[0]])
            pieces.append((slot, solver.answer_to(guess, piece), len(piece), int(floor[slot, len(piece)])))
        cost = search.cost.guess_cost(len(part), depth)
        return cls(answer, guess, solver.game.codes[guess], bound, cost, pieces)

    def groups(self) -> list[list[tuple[int, int]]]:
        """The tasks, as lists of (piece's slot, bound): each large piece alone, largest first; the small ones together."""
        sizes = {slot: size for slot, (_, size, _) in self.pieces.items()}
        large = sorted((slot for slot in sizes if sizes[slot] > SMALL_PIECE), key=lambda slot: -sizes[slot])
        small = [slot for slot in sizes if sizes[slot] <= SMALL_PIECE]
        return [[(slot, self._piece_bound(slot))] for slot in large] + (
            [[(slot, self._piece_bound(slot)) for slot in small]] if small else []
        )

    def _piece_bound(self, slot: int) -> int:
        return self.bound - self.base + self.pieces[slot][2]

    def record(self, result: PiecesResult) -> BranchResult | None:
        """Take one task's pieces; once every piece is in, the guess's result as one task valuing it would give."""
        self.seconds += result.seconds
        self.sets += result.sets
        for slot, value, tree in result.values:
            self.values[slot] = (value, tree)
        if len(self.values) < len(self.pieces):
            return None
        value = self.cost + sum(v for v, _ in self.values.values())
        tree = None
        if value < self.bound:  # then no piece reached its bound, and each has its tree
            tree = node(self.code, {self.pieces[slot][0]: t for slot, (_, t) in self.values.items()})
        return BranchResult(self.answer, self.guess, self.bound, value, tree, self.seconds, self.sets)
