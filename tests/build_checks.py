"""Builds checked against the brute force (tests/naive_search.py): the checks the search tests of each family share.

`search_paths` (tests/conftest.py) runs each twice: as shipped and through the Python levels.
"""

from __future__ import annotations

from naive_search import min_chain_tree, min_height, tree_to_nodes

from bactree.game import Game
from bactree.pipeline.build import build
from bactree.treefile import check_document


def check_least_total(game: Game, hard: bool) -> None:
    """`build -O expected` writes the brute force's least-total tree, proven."""
    figures, tree = min_chain_tree(game, None, ("total",), hard)
    result = build(game, "expected", hard=hard)
    assert result.stats["total_guesses"] == figures[0]
    assert result.document["root"] == tree_to_nodes(tree)
    assert result.document["optimal"] is True
    check_document(result.document)


def check_least_height(game: Game, hard: bool, chain: tuple[str, ...]) -> None:
    """`build --tie-break CHAIN` writes the brute force's least-height tree, ties broken by `chain`, proven."""
    height = min_height(game, hard)
    figures, tree = min_chain_tree(game, height, chain, hard)
    result = build(game, "worst-case", ",".join(chain), hard=hard)
    assert result.document["stats"]["max_guesses"] == height
    assert result.document["root"] == tree_to_nodes(tree)
    assert result.document["optimal"] is True
    check_document(result.document)


def check_capped(game: Game, hard: bool, cap: int) -> None:
    """`build -O expected --max-guesses CAP` writes the brute force's least-total tree within `cap` guesses."""
    figures, tree = min_chain_tree(game, cap, ("total",), hard)
    result = build(game, "expected", max_guesses=cap, hard=hard)
    assert result.stats["total_guesses"] == figures[0]
    assert result.document["root"] == tree_to_nodes(tree)
