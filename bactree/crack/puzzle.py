"""One long-key game: `length` positions over `symbols`, repeats or not.

Unlike `bactree.game.Game`, which enumerates every code, a puzzle only
validates and converts keys, so it works for keys of hundreds of symbols
(and, as the paper's alphabet needs, it allows the space as a symbol).
Crackers work on codes as arrays of symbol indices; keys are strings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..game import InvalidCodeError, InvalidGameError, check_game_shape


# The longest key a puzzle takes: the crackers keep a few hundred bytes a position (about 50 MB here), and a key this
# long already takes far more questions and time than anyone waits for.
MAX_LENGTH = 100_000


@dataclass(frozen=True)
class Puzzle:
    """Secrets of `length` symbols from `symbols`; `repeats=False` makes them distinct.

    Guesses may repeat symbols in either game: cows are Mastermind's white
    pegs, the sum over symbols of min(count in guess, count in secret),
    minus bulls, which is the usual cows when symbols are distinct.
    """

    length: int
    symbols: str
    repeats: bool

    def __post_init__(self) -> None:
        check_game_shape(self.length, self.symbols, self.repeats)
        if self.length > MAX_LENGTH:
            raise InvalidGameError(f"invalid game: keys of at most {MAX_LENGTH:,} positions, got {self.length:,}")
        if any(s in "\n\r" for s in self.symbols):
            raise InvalidGameError("invalid game: a line break cannot be a symbol")

    @property
    def num_symbols(self) -> int:
        return len(self.symbols)

    def parse(self, key: str) -> np.ndarray:
        """The key as symbol indices; rejects keys that are not secrets of this game."""
        if len(key) != self.length:
            raise InvalidCodeError(f"invalid key {_short(key)}: {len(key)} symbols, the game has {self.length} positions")
        index = {s: i for i, s in enumerate(self.symbols)}
        for symbol in key:
            if symbol not in index:
                raise InvalidCodeError(f"invalid key {_short(key)}: symbol {symbol!r} is not in the alphabet")
        if not self.repeats:
            for symbol in key:
                if key.count(symbol) > 1:
                    raise InvalidCodeError(f"invalid key {_short(key)}: symbol {symbol!r} repeats")
        return np.array([index[s] for s in key], dtype=np.int64)

    def format(self, code: np.ndarray) -> str:
        """The key string of a code; the inverse of `parse`."""
        return "".join(self.symbols[int(i)] for i in code)

    def random_code(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random secret."""
        if self.repeats:
            return rng.integers(0, self.num_symbols, self.length).astype(np.int64)
        return rng.permutation(self.num_symbols)[: self.length].astype(np.int64)

    def log_secrets(self) -> float:
        """The natural log of the number of secrets."""
        n, k = self.length, self.num_symbols
        if self.repeats:
            return n * math.log(k)
        return math.lgamma(k + 1) - math.lgamma(k - n + 1)

    def lower_bound(self) -> int:
        """ceil(log(secrets) / log(answers)): no cracker needs fewer questions in the worst case.

        Answers (bulls, cows) with bulls + cows <= n number (n+1)(n+2)/2.
        """
        answers = (self.length + 1) * (self.length + 2) // 2
        return max(1, math.ceil(self.log_secrets() / math.log(answers) - 1e-9))


def score(guess: np.ndarray, secret: np.ndarray, num_symbols: int) -> tuple[int, int]:
    """(bulls, cows) of one guess against a secret, cows as white pegs."""
    bulls = int(np.count_nonzero(guess == secret))
    common = np.minimum(np.bincount(guess, minlength=num_symbols), np.bincount(secret, minlength=num_symbols))
    return bulls, int(common.sum()) - bulls


def score_many(guesses: np.ndarray, secret: np.ndarray, num_symbols: int) -> tuple[np.ndarray, np.ndarray]:
    """(bulls, cows) arrays of a batch of guesses (one per row) against one secret."""
    rows = guesses.shape[0]
    bulls = np.count_nonzero(guesses == secret[None, :], axis=1)
    flat = (guesses + num_symbols * np.arange(rows)[:, None]).ravel()
    counts = np.bincount(flat, minlength=rows * num_symbols).reshape(rows, num_symbols)
    common = np.minimum(counts, np.bincount(secret, minlength=num_symbols)[None, :]).sum(axis=1)
    return bulls, common - bulls


def _short(key: str) -> str:
    """A key quoted for an error message, cut when long."""
    return repr(key) if len(key) <= 40 else repr(key[:37] + "...")
