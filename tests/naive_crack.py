"""A slow, obviously-correct cracker: ask the first secret that fits every answer so far.

It enumerates every secret of a tiny game and scores with `naive.score`
(Mastermind pegs), sharing no code with `bactree.crack`; the tests compare
the real crackers' results against it on every secret.
"""

from __future__ import annotations

import itertools

import numpy as np

from bactree.crack import Oracle
from naive import score


def all_secrets(length: int, num_symbols: int, repeats: bool) -> list[tuple[int, ...]]:
    """Every secret as a tuple of symbol indices, in lexicographic order."""
    symbols = range(num_symbols)
    if repeats:
        return list(itertools.product(symbols, repeat=length))
    return list(itertools.permutations(symbols, length))


def crack_first_consistent(oracle: Oracle) -> tuple[tuple[int, ...], int]:
    """(secret found, questions asked): always exact, since a consistent code is never asked twice."""
    puzzle = oracle.puzzle
    alphabet = puzzle.symbols
    candidates = all_secrets(puzzle.length, puzzle.num_symbols, puzzle.repeats)
    while True:
        guess = candidates[0]
        answer = oracle.ask(np.array(guess))
        if answer[0] == puzzle.length:
            return guess, oracle.queries
        text = "".join(alphabet[i] for i in guess)
        candidates = [c for c in candidates if score(text, "".join(alphabet[i] for i in c), True) == answer]
