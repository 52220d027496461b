"""Worst case with no tie-break (`--tie-break none`): the least height proven by the capped greedy search."""

from __future__ import annotations

import pytest
from naive_search import min_height

from bactree.pipeline.build import build
from bactree.game import Game
from bactree.search import Solver
from bactree.search.cost import search as cost
from bactree.treefile import check_document

TINY_GAMES = [Game(2, "0123", False), Game(3, "0123", False), Game(2, "123", True),
              Game(2, "1234", True), Game(3, "123", True)]
# Too big for the brute force: checked against `Solver.min_height` (itself checked against it on the tiny games).
SMALL_GAMES = [Game(3, "01234", False), Game(3, "012345", False), Game(4, "012345", False), Game(3, "1234", True)]


@pytest.mark.parametrize("game", TINY_GAMES + SMALL_GAMES, ids=str)
@pytest.mark.parametrize("paths", ["shipped", "python"])
def test_least_height_only_matches_brute_force(game, paths, monkeypatch):
    if paths == "python":  # symmetry and candidate screening at every level but the last two
        monkeypatch.setattr(cost, "SYMMETRY_MIN_SET", 3)
        monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)
    messages: list[str] = []
    result = build(game, "worst-case", "none", progress=messages.append)
    height = min_height(game) if game in TINY_GAMES else Solver(game).min_height()
    assert result.height == result.stats["max_guesses"] == height
    refuted = [m for m in messages if m.endswith(": refuted")]
    # heights below `start` are refuted by counting (per answer class, which never counts more than per level)
    start = next(d for d in range(1, 99) if result.stats["secrets"] <= Solver(game).most_solved(d))
    assert start >= next(d for d in range(1, 99) if result.stats["secrets"] <= _cap(game, d))
    assert len(refuted) == height - start
    assert result.document["optimal"] is True
    assert result.document["objective"]["tie_breaks"] == []
    check_document(result.document)


def _cap(game: Game, depth: int) -> int:
    branching = len(game.answers) - 1
    return sum(branching**k for k in range(depth))
