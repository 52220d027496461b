"""The exact engine as a coach: analyse any position, review a played game move by move.

    analyse      `analyse`: the best next guesses and a named guess, valued exactly (or proven bounds)
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

from .analyse import Analysis, GuessValue, analyse
from .engine import EXPECTED, OBJECTIVES, WORST_CASE
from .position import InvalidHistoryError, Position, read_history

__all__ = ["EXPECTED", "OBJECTIVES", "WORST_CASE", "Analysis", "GuessValue", "InvalidHistoryError", "Position",
           "analyse", "read_history"]
