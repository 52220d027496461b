"""The cost model: what a tree's guesses cost (`Cost`), and the least cost any tree of a set can have, by counting.

A tree's cost adds up over its nodes (see `bactree.search.cost.search`). The
floors here hold for every tree of a given height, whatever its guesses:
they are where the search's bounds start, raised later by the answer
classes of a guess (`class_cost_floors`), the memo and lookahead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._cost_kernels import INFINITE


@dataclass(frozen=True)
class Cost:
    """An additive tree cost: weights of (nodes, total guesses, crush) in one sum.

    A guess on a set of `size` secrets with `depth` guesses left costs
    `nodes + total * size`, plus `crush` when it is the last guess allowed
    (depth 1): over a tree these add up to the weighted node count, total
    guesses, and secrets solved at the cap.
    """

    name: str
    weights: tuple[int, int, int]

    KEYS = ("nodes", "total", "crush")

    def guess_cost(self, size: int, depth: int) -> int:
        nodes, total, crush = self.weights
        return nodes + total * size + (crush if depth == 1 else 0)

    @property
    def nodes_only(self) -> bool:
        """One node per secret is then reached by any tree of still-possible guesses."""
        return self.weights == (1, 0, 0)

    @classmethod
    def chain(cls, keys: tuple[str, ...], height: int, num_secrets: int) -> Cost:
        """The keys compared in order (lexicographically) as one weighted sum, for trees of at most `height` guesses.

        Over such a tree on `num_secrets` secrets, nodes <= total <= height *
        num_secrets and crush <= num_secrets. Each key's weight exceeds the
        most all later keys can add up to (weight of key i = product over
        later keys j of (bound_j + 1), telescoping to one more than the sum
        of bound_j * weight_j), so a smaller sum means a smaller first
        differing key: the least sum is the lexicographic least.
        """
        if keys == ("nodes",):
            return NODES
        if keys == ("total",):
            return TOTAL_GUESSES
        weights = dict.fromkeys(cls.KEYS, 0)
        weight = 1
        for key in reversed(keys):
            weights[key] = weight
            weight *= (num_secrets if key == "crush" else height * num_secrets) + 1
        if weight >= INFINITE // (4 * height * num_secrets):
            raise ValueError(f"tie-break chain {','.join(keys)} is too long for 64-bit costs")
        return cls(",".join(keys), (weights["nodes"], weights["total"], weights["crush"]))


NODES = Cost("nodes", (1, 0, 0))
TOTAL_GUESSES = Cost("total", (0, 1, 0))


def level_fills(count: int, branching: int) -> np.ndarray:
    """`level_fill` of every size from 0 to `count - 1`, in one pass: the least total guesses for that many secrets.

    One secret is solved at depth 1, b**(k-1) at depth k (b = `branching`,
    the answers besides all bulls), so the total for s secrets is the sum of
    the depths of the first s places in that order.
    """
    depths = np.empty(max(count - 1, 0), np.int64)
    placed, depth, room = 0, 1, 1
    while placed < len(depths):
        take = min(room, len(depths) - placed)
        depths[placed : placed + take] = depth
        placed += take
        depth += 1
        room *= max(branching, 1)  # a game with one answer: sizes past its one code are never read
    return np.concatenate((np.zeros(1, np.int64), np.cumsum(depths)))[:count]


def level_fill(size: int, branching: int) -> int:
    """Least total guesses for `size` secrets: one solved at depth 1, b**(k-1) at depth k."""
    return int(level_fills(size + 1, branching)[size])


def cost_floors(cost: Cost, caps: np.ndarray, level_fills: np.ndarray) -> np.ndarray:
    """`floor[d, s]`: a proven lower bound of `cost` for s secrets within d guesses (rows past the last alike).

    Each key is bounded on its own, and weights are positive, so their
    weighted sum bounds the cost: nodes >= s (every secret is some node's
    guess); total >= `level_fill(s)`; crush >= s - caps[d - 1], since at most
    caps[d - 1] secrets (one per answer and level) are solved before the
    last guess. The crush bound is 0 from the first depth whose caps[d - 1]
    holds every code: the last row, repeated for deeper sets. `level_fills`
    holds `level_fill` by size, from 0 to one more than the number of codes
    (the bound a guess outside a set of every code is read at).
    """
    sizes = np.arange(len(level_fills), dtype=np.int64)
    num_codes = len(sizes) - 2
    nodes, total, crush = cost.weights
    row = nodes * sizes + total * level_fills
    if not crush:
        return row[None, :].copy()
    rows = [row + crush * sizes]  # depth 0: nothing is solvable; any bound holds
    depth = 1
    while True:
        rows.append(row + crush * np.maximum(sizes - caps[depth - 1], 0))
        if caps[depth - 1] >= num_codes:
            return np.array(rows, np.int64)
        depth += 1


def class_cost_floors(cost: Cost, floor: np.ndarray, level_fills: np.ndarray, class_totals: np.ndarray) -> np.ndarray:
    """`class_floor[d, o, a, s]`: `floor[d, s]` for s secrets of the answer class a of a guess of orbit o.

    A part of a guess is the set's share of one answer class of it, and
    `class_totals[o, a, s]` (`ClassCaps.floors`: the least total guesses on
    s secrets of that class, never below `level_fills[s]`) bounds its total
    guesses more tightly than the level fill does; the cost's total key is
    raised by the difference. The all-bulls slot (a class of one code) keeps
    the plain floor. For costs that do not count total guesses pass one
    orbit: every slot is the plain floor.
    """
    rows, orbits, slots = floor.shape[0], class_totals.shape[0], class_totals.shape[1]
    class_floor = np.broadcast_to(floor[:, None, None, :], (rows, orbits, slots, floor.shape[1])).copy()
    total = cost.weights[1]
    if total:
        class_floor += total * (np.maximum(class_totals, level_fills) - level_fills)[None]
    return class_floor
