"""The errors bactree raises for bad input: one small hierarchy under `ValueError`, each message quoting the input.

Apart from the game model so that the modules beside it (the word lists)
raise them without importing the model, which imports them.
"""

from __future__ import annotations


class BactreeError(ValueError):
    """Base of every error bactree raises for bad input."""


class InvalidGameError(BactreeError):
    """A game description that cannot be played (bad length or alphabet)."""


class InvalidCodeError(BactreeError):
    """A code that is not a valid code of the game."""


class InvalidAnswerError(BactreeError):
    """An answer that no guess of the game can get (or that cannot be read)."""


class GameTooLargeError(InvalidGameError):
    """A game too large for what was asked of it (listing its codes, building a tree)."""
