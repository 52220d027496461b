"""Symmetries of a game as plain maps of codes: carry a position onto a tree's path, and find a guess's class.

A symmetry permutes the positions of a code and relabels its symbols; it
keeps every answer (score(σg, σs) = score(g, s)), so it carries a position
(guesses and answers) onto another with the same values, its secrets onto
the other's secrets. Pure Python: at most n! position orders are tried.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

from ..game import Game


@dataclass(frozen=True)
class Symmetry:
    """The map sending code c to c' with c'[order[i]] = relabel[c[i]]."""

    order: tuple[int, ...]
    relabel: dict[str, str]

    def __call__(self, code: str) -> str:
        image = [""] * len(code)
        for i, symbol in enumerate(code):
            image[self.order[i]] = self.relabel[symbol]
        return "".join(image)

    def inverse(self) -> Symmetry:
        """The map undoing this one."""
        order = [0] * len(self.order)
        for i, j in enumerate(self.order):
            order[j] = i
        return Symmetry(tuple(order), {b: a for a, b in self.relabel.items()})


def identity(game: Game) -> Symmetry:
    """The map that changes nothing."""
    return Symmetry(tuple(range(game.length)), {c: c for c in game.symbols})


def _partial_maps(sources: Sequence[str], targets: Sequence[str], length: int):
    """(position order, symbol map on the symbols `sources` use) for each order sending every source onto its target."""
    for order in itertools.permutations(range(length)):
        forward: dict[str, str] = {}
        backward: dict[str, str] = {}
        ok = True
        for source, target in zip(sources, targets):
            for i, a in enumerate(source):
                b = target[order[i]]
                if forward.setdefault(a, b) != b or backward.setdefault(b, a) != a:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            yield order, forward


def carrying(game: Game, sources: Sequence[str], targets: Sequence[str]) -> Symmetry | None:
    """A symmetry sending each of `sources` onto the target at the same place, or None if there is none.

    Symbols the sources do not use go to the targets' unused symbols in order. A word game has no symmetry but
    the identity (relabellings do not map its list onto itself), nor has a game under Wordle's marks.
    """
    if not game.symmetric:
        return identity(game) if list(sources) == list(targets) else None
    for order, forward in _partial_maps(sources, targets, game.length):
        free = iter(c for c in game.symbols if c not in forward.values())
        relabel = {a: forward[a] if a in forward else next(free) for a in game.symbols}
        return Symmetry(order, relabel)
    return None


def least_image(game: Game, code: str, fixed: Sequence[str]) -> str:
    """The least code that a symmetry fixing every code of `fixed` sends `code` to: one name for its class.

    Guesses of one class have the same value wherever the history is
    `fixed`. Symbols `fixed` does not use may be relabelled freely among
    themselves: in order of first appearance, to the least of them.
    """
    if not game.symmetric:  # no symmetry but the identity: each guess is a class of its own
        return code
    rank = {c: i for i, c in enumerate(game.symbols)}
    unused = [c for c in game.symbols if not any(c in f for f in fixed)]
    best = code
    for order, forward in _partial_maps(fixed, fixed, game.length):
        image: list[str | None] = [None] * game.length
        for i, symbol in enumerate(code):
            image[order[i]] = forward.get(symbol)
        free, relabel = iter(unused), {}
        for i, symbol in enumerate(image):
            if symbol is None:
                original = code[order.index(i)]
                if original not in relabel:
                    relabel[original] = next(free)
                image[i] = relabel[original]
        candidate = "".join(image)  # type: ignore[arg-type]
        if [rank[c] for c in candidate] < [rank[c] for c in best]:
            best = candidate
    return best
