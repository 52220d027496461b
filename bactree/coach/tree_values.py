"""Exact values read from a shipped tree that is optimal for expected length, at positions on its paths.

Every subtree of such a tree is optimal for the secrets that reach it (a
better subtree would make a better tree), so its total guesses are the
exact least total of that set, and its guess is a best guess. A position
is on the tree when a symmetry of the game carries its guesses onto the
tree's guesses along the same answers: the position then has the values
of the tree's, guess for guess under that symmetry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import shipped
from ..game import Game
from ..walker import Tree, load_tree
from .position import Pair
from .symmetry import Symmetry, carrying


@dataclass(frozen=True)
class OnTree:
    """Where a position lies on a tree: the symmetry carrying it there, the tree's pairs, and the node."""

    symmetry: Symmetry
    pairs: tuple[Pair, ...]
    node: dict[str, Any]


class TreeValues:
    """A tree proven optimal for total guesses (no cap), and where positions lie on it."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.game = tree.game
        self.name = tree.name

    @classmethod
    def shipped(cls, game: Game, hard: bool) -> TreeValues | None:
        """The shipped tree of `game` proven optimal for expected length without a cap, hard mode as asked; None if none."""
        for entry in shipped.shipped_trees():
            objective = entry.objective
            if (
                entry.game == game and entry.optimal and objective.get("name") == "expected"
                and objective.get("max_guesses") is None and bool(objective.get("hard_mode")) == hard
            ):
                return cls(load_tree(entry.path))
        return None

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
