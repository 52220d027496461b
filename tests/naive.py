"""Slow, obviously-correct references for the game rules and the numba kernels.

Each function here is the plain-Python twin of a fast one, named like the
public function it checks (no underscore, no `naive_` prefix):

- `score(guess, secret, repeats)`   twin of `Game.score` and `_kernels._answer`
- `answer_table(game)`              twin of `codes.answer_table` (`_kernels._answer_table`)
- `partition_counts(game, guesses, subset)`
                                    twin of `codes.partition_counts` (`_kernels._partition_counts`)
- `possible_answers(game)`          twin of `Game.answers`

They follow the rules as the tree-format contract states them and share no
code with bactree beyond `Game.codes` (whose order is itself tested against
a sort in test_game.py), so a bug in the fast code cannot hide in both.
"""

from __future__ import annotations

import numpy as np

from bactree.game import Game


def score(guess: str, secret: str, repeats: bool) -> tuple[int, int]:
    """(bulls, cows) of `secret` against `guess`, straight from the rules.

    Bulls: same symbol in the same position. Without repeats, cows are the
    guess's symbols found in the secret at another position. With repeats
    (Mastermind), pegs are matched the way a player does it on the board:
    first every exact match, then each remaining guess peg takes one
    unmatched secret peg of its colour; those are the white pegs.
    """
    assert len(guess) == len(secret)
    positions = range(len(guess))
    bulls = sum(1 for i in positions if guess[i] == secret[i])
    if not repeats:
        cows = sum(1 for i in positions if guess[i] != secret[i] and guess[i] in secret)
        return bulls, cows
    used = [guess[i] == secret[i] for i in positions]  # secret pegs already matched
    cows = 0
    for i in positions:
        if guess[i] == secret[i]:
            continue
        for j in positions:
            if not used[j] and secret[j] == guess[i]:
                used[j] = True
                cows += 1
                break
    return bulls, cows


def encode(length: int, bulls: int, cows: int) -> int:
    """The kernels' answer encoding, `bulls * (length + 1) + cows`, written out again."""
    return bulls * (length + 1) + cows


def answer_table(game: Game) -> np.ndarray:
    """Encoded answer for every guess (row) and secret (column), in `game.codes` order."""
    codes = game.codes
    table = np.empty((len(codes), len(codes)), dtype=np.int64)
    for gi, guess in enumerate(codes):
        for si, secret in enumerate(codes):
            table[gi, si] = encode(game.length, *score(guess, secret, game.repeats))
    return table


def partition_counts(game: Game, guesses: list[int], subset: list[int]) -> np.ndarray:
    """For each guess index, how many secrets of `subset` (code indices) give each encoded answer."""
    codes = game.codes
    slots = (game.length + 1) ** 2
    out = np.zeros((len(guesses), slots), dtype=np.int64)
    for row, gi in enumerate(guesses):
        for si in subset:
            out[row, encode(game.length, *score(codes[gi], codes[si], game.repeats))] += 1
    return out


def possible_answers(game: Game) -> list[tuple[int, int]]:
    """Every (bulls, cows) that some guess and secret of the game give, ascending."""
    codes = game.codes
    return sorted({score(g, s, game.repeats) for g in codes for s in codes})
