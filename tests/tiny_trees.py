"""A simple tree builder for tests: always guess the first still-possible secret.

It uses only `Game.codes` and the reference `naive.score`, so the trees and
the figures it reports are independent of the replay being tested.
"""

from __future__ import annotations

from typing import Any

import naive
from bactree.game import Answer, Game
from bactree.treefile import Node, Objective, document, node

OBJECTIVE = Objective("first-consistent", tie_breaks=(), hard_mode=True, max_guesses=None)


def build_consistent(game: Game) -> tuple[Node, dict[str, int]]:
    """A hard-mode tree and, for every secret, the number of guesses it takes."""
    depths: dict[str, int] = {}

    def grow(secrets: list[str], depth: int) -> Node:
        guess = secrets[0]
        depths[guess] = depth
        parts: dict[Answer, list[str]] = {}
        for secret in secrets[1:]:
            parts.setdefault(Answer(*naive.score(guess, secret, game.repeats)), []).append(secret)
        return node(guess, {answer: grow(rest, depth + 1) for answer, rest in parts.items()})

    root = grow(list(game.codes), 1)
    return root, depths


def consistent_document(game: Game) -> dict[str, Any]:
    """A whole tree-file document for `game`, built by `build_consistent`."""
    root, _ = build_consistent(game)
    return document(game, OBJECTIVE, False, root)


def count_nodes(tree: Node) -> int:
    return 1 + sum(count_nodes(child) for child in tree.get("next", {}).values())
