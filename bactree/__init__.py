"""bactree: optimal decision trees for Bulls and Cows, Mastermind and their family.

Importing the package is cheap: the solver (numpy, numba) loads only when
`build` or `analyse` is first used, so programs that only walk a shipped
tree stay light.
"""

from __future__ import annotations

__version__ = "0.1.0"  # the one source of the version: pyproject.toml reads it (setuptools' dynamic attr)

from .game import Answer, BactreeError, Game, InvalidAnswerError, InvalidCodeError, InvalidGameError, make_game, preset

__all__ = [
    "Answer",
    "analyse",
    "BactreeError",
    "Game",
    "InvalidAnswerError",
    "InvalidCodeError",
    "InvalidGameError",
    "make_game",
    "preset",
    "__version__",
]


def __getattr__(name: str):
    """`bactree.analyse` (see `bactree.coach.analyse`), imported on first use: it brings in the search."""
    if name == "analyse":
        from .coach import analyse

        return analyse
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
