"""Slow, obviously-correct references for the strategies in `bactree.strategies`.

Plain Python over code strings and `Game.score`; no numpy, no kernels, no
shared helpers with the fast code. Each `pick_*` returns the guess a
strategy makes when `possible` (in `game.codes` order) are the codes still
possible.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from bactree.game import Answer, Game


def consistent(game: Game, history: list[tuple[str, Answer]]) -> list[str]:
    """Codes that give every answer of `history`, in `game.codes` order."""
    return [c for c in game.codes if all(game.score(g, c) == a for g, a in history)]


def parts(game: Game, guess: str, possible: list[str]) -> list[int]:
    """Sizes of the parts `guess` splits `possible` into (the all-bulls part included)."""
    return list(Counter(game.score(guess, s) for s in possible).values())


def _value(rule: str, sizes: list[int]) -> float:
    """The rule's figure for a partition; higher is better."""
    total = sum(sizes)
    if rule == "knuth":
        return -max(sizes)
    if rule == "most-parts":
        return len(sizes)
    if rule == "expected-size":
        return -sum(c * c for c in sizes) / total
    assert rule == "entropy"
    return -sum(c / total * math.log2(c / total) for c in sizes)


def pick_greedy(game: Game, rule: str, possible: list[str], hard: bool = False) -> str:
    """The best code (in hard mode: still-possible code) under `rule`; ties: a still-possible code, then the first in order."""
    candidates = possible if hard else game.codes
    values = {g: _value(rule, parts(game, g, possible)) for g in candidates}
    best = max(values.values())
    tied = [g for g in candidates if values[g] >= best - 1e-9 * max(1.0, abs(best))]
    still = [g for g in tied if g in possible]
    return (still or tied)[0]


def pick_least_frequent(game: Game, possible: list[str]) -> str:
    """Position by position, the rarest symbol (ties: first in the alphabet) that keeps a code possible."""
    frequency = {x: sum(1 for c in possible if x in c) for x in game.symbols}
    prefix = ""
    for position in range(game.length):
        options = {c[position] for c in possible if c.startswith(prefix)}
        prefix += min(options, key=lambda x: (frequency[x], game.symbols.index(x)))
    return prefix


def pick_separator(game: Game, possible: list[str], hard: bool = False) -> str:
    """A code giving each possible secret its own answer (possible ones first; only those in hard mode), else least-frequent."""
    separators = [g for g in (possible if hard else game.codes) if len(parts(game, g, possible)) == len(possible)]
    still = [g for g in separators if g in possible]
    if separators:
        return (still or separators)[0]
    return pick_least_frequent(game, possible)


def pick(game: Game, name: str, possible: list[str], hard: bool = False) -> str:
    """The reference pick of the deterministic strategy `name` (in hard mode among still-possible codes)."""
    if name == "first-consistent":
        return possible[0]
    if name == "least-frequent":
        return pick_least_frequent(game, possible)
    if name == "separator":
        return pick_separator(game, possible, hard)
    return pick_greedy(game, name, possible, hard)


def play(game: Game, name: str, secret: str) -> int:
    """Guesses the deterministic strategy `name` needs for `secret`, game replayed from scratch."""
    history: list[tuple[str, Answer]] = []
    while True:
        guess = pick(game, name, consistent(game, history))
        if guess == secret:
            return len(history) + 1
        history.append((guess, game.score(guess, secret)))


def random_consistent_mean(game: Game) -> float:
    """Exact expected guesses of `random-consistent`, averaged over the secrets."""

    @lru_cache(maxsize=None)
    def total(possible: tuple[str, ...]) -> float:
        # Expected sum, over the secrets in `possible`, of the guesses still to make.
        result = 0.0
        for guess in possible:
            split: dict[Answer, list[str]] = {}
            for s in possible:
                if s != guess:
                    split.setdefault(game.score(guess, s), []).append(s)
            result += len(possible) + sum(total(tuple(part)) for part in split.values())
        return result / len(possible)

    return total(game.codes) / len(game.codes)
