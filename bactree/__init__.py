"""bactree: optimal decision trees for Bulls and Cows, Mastermind and their family.

Importing the package is cheap: the solver (numpy, numba) loads only when
`build` or `analyse` is first used, so programs that only walk a shipped
tree stay light.

The package's floors, from top to bottom; a module imports only from its
own floor or those below it, and no files import each other in a circle
(type-only imports included; tests/test_layout.py keeps both rules):

    command line    cli
    build pipeline  pipeline
    features        coach, play, page, strategies, evaluate, export, crack, pegs
    searches        search
    foundations     treefile, walker, shipped, game, compile_clock, certify
"""

from __future__ import annotations

__version__ = "0.1.0"  # the one source of the version: pyproject.toml reads it (setuptools' dynamic attr)

from .game import (
    RULES, Answer, BactreeError, Game, InvalidAnswerError, InvalidCodeError, InvalidGameError, Reply, make_game, preset,
    word_game,
)

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
    "Reply",
    "RULES",
    "word_game",
    "__version__",
]


def __getattr__(name: str):
    """`bactree.analyse` (see `bactree.coach.analysis`), imported on first use: it brings in the search."""
    if name == "analyse":
        from .coach import analyse

        return analyse
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
