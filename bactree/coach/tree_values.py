"""Values read from a shipped tree at positions on its paths: exact for expected length, bounds for the worst case.

Expected: every subtree of a tree optimal for total guesses is optimal for
the secrets that reach it (a better subtree would make a better tree), so
its total guesses are the exact least total of that set, and its guess is a
best guess. A tree not proven optimal (the budgeted builds of the largest
games) gives its guess's subtree total as an upper bound, and at the root
the lower bound its file records (`total_lower`).

Worst case: a tree proven optimal for the worst case proves only its own
height (the least height of the whole game); its subtrees were chosen for
the tie-break keys within the guesses left, not for their own least height,
so a subtree's height is a proven *upper* bound on the least height of the
secrets reaching it, reached by the tree's guess there, and exact only at
the root. (A lower bound could pass from a node to a child when that child
alone reaches the height left; in the shipped trees no first-level child
does, so it is not attempted.) A tree built for the height alone but not
proven optimal gives its recorded `stats.lower_bound` at the root.

A position is on the tree when a symmetry of the game carries its guesses
onto the tree's guesses along the same answers: the position then has the
values of the tree's, guess for guess under that symmetry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import shipped
from ..game import Game
from ..walker import Tree, load_tree
from .position import Pair
from .symmetry import Symmetry, carrying

EXPECTED, WORST_CASE = "expected", "worst-case"


@dataclass(frozen=True)
class OnTree:
    """Where a position lies on a tree: the symmetry carrying it there, the tree's pairs, and the node."""

    symmetry: Symmetry
    pairs: tuple[Pair, ...]
    node: dict[str, Any]


class TreeValues:
    """A shipped tree for one objective (no cap), where positions lie on it, and the heights of its subtrees."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.game = tree.game
        self.name = tree.name
        self.objective = tree.objective.get("name")
        self._heights: dict[int, int] = {}  # subtree heights, by node id

    @classmethod
    def shipped(cls, game: Game, hard: bool, objective: str = EXPECTED) -> TreeValues | None:
        """The shipped tree of `game` for `objective` without a cap, hard mode as asked; None if none.

        One proven optimal if there is one (expected: its values are exact;
        worst case: its root is), else any (its totals or heights are upper
        bounds); among several, the least height, total and secrets at the
        height (a shallower subtree is a tighter bound).
        """
        found = [
            entry for entry in shipped.shipped_trees()
            if entry.game == game and entry.objective.get("name") == objective
            and entry.objective.get("max_guesses") is None and entry.hard_mode == hard
        ]
        best = min(found, key=lambda entry: (not entry.optimal, entry.rank()), default=None)
        return None if best is None else cls(load_tree(best.path))

    def locate(self, pairs: tuple[Pair, ...]) -> OnTree | None:
        """The tree's node for this position, up to symmetry; None when the position is off the tree."""
        node = self.tree.root
        tree_pairs = []
        for _, answer in pairs:
            child = (node.get("next") or {}).get(str(answer))
            if child is None:
                return None
            tree_pairs.append((node["guess"], answer))
            node = child
        symmetry = carrying(self.game, [g for g, _ in pairs], [g for g, _ in tree_pairs])
        if symmetry is None:
            return None
        return OnTree(symmetry, tuple(tree_pairs), node)

    def total_lower(self, on: OnTree) -> int:
        """A proven lower bound of the least total of the secrets at `on` from the file: at the root of a tree not
        proven optimal, the lower bound it records; else 0 (an optimal tree's totals are exact anyway)."""
        recorded = self.tree.stats.get("lower_bound")
        return recorded if not on.pairs and not self.tree.optimal and isinstance(recorded, int) else 0

    def height(self, node: dict[str, Any]) -> int:
        """Guesses the subtree at `node` takes at worst, its own guess included."""
        found = self._heights.get(id(node))
        if found is None:
            found = 1 + max((self.height(child) for child in (node.get("next") or {}).values()), default=0)
            self._heights[id(node)] = found
        return found

    def height_bounds(self, on: OnTree) -> tuple[int, int]:
        """(lower, upper): proven bounds on the least height of the secrets at `on` (lower 0 where none is known).

        Upper: the subtree's height. Lower: at the root, the tree's height if
        it is proven optimal; else the lower bound its file records, if the
        tree was built for the height alone (no tie-breaks): a budgeted build
        with tie-breaks records a bound on its first tie-break key instead.
        """
        upper = self.height(on.node)
        lower = 0
        if not on.pairs:
            recorded = self.tree.stats.get("lower_bound")
            if self.tree.optimal:
                lower = upper
            elif not self.tree.objective.get("tie_breaks") and isinstance(recorded, int):
                lower = min(recorded, upper)
        return lower, upper
