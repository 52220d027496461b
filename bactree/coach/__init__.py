"""The exact engine as a coach: analyse any position, review a played game move by move.

    analysis     `analyse`: the best next guesses and a named guess, valued exactly (or proven bounds)
    review       `review`: a played game move by move (skill and luck); `read_game` reads transcripts
    text         the findings as the terminal shows them (analyse, review, play --coach)
    engine       `Engine`: values from an optimal shipped tree or the exact search, within a time limit
    tree_values  `TreeValues`: a shipped tree's values (expected: exact; worst case: bounds), positions found on it
    symmetry     game symmetries as maps of codes: onto a tree's path, and a guess's class
    position     `read_history`: a history read and checked entry by entry

Data flows down: the CLI and the play sessions call this package, which
calls the search; nothing in the search imports it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# Where each name of the package lives. Imported on first use (PEP 562), so that reading a book (`bactree.coach.book`,
# pure Python: the page does) does not load the search, which `analysis` and `engine` import (numpy, numba).
_HOMES = {
    "Analysis": "analysis", "GuessValue": "analysis", "analyse": "analysis",
    "EXPECTED": "engine", "OBJECTIVES": "engine", "WORST_CASE": "engine",
    "InvalidHistoryError": "position", "Position": "position", "read_history": "position",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """The package's name `name`, imported from its module the first time it is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
