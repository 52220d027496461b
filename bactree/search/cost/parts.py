"""How the exact search searches a guess's parts, once their bounds are raised: the slack spread over them, or
largest first.

A guess on a set costs its own cost plus its parts' values; the search
wants that total if below a limit, else a proven bound at least the limit.
`total` arrives as the guess's cost plus a lower bound of each part
(`known`, per answer slot), and each part is searched below some bound:
`CostSearch.solve` returns its value when below, else a bound at least as
high, so `total` stays a proven bound and becomes the value once every
part is valued. Which bounds to search the parts below is the choice here:
`spread_over_parts` (the exact search's) or `largest_first` (the
budgeted builds', whose trees depend on the sets their budget reaches).
Parts of at most two secrets are exact in their floor and never searched.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .state import SearchState


def spread_weight(size: int) -> float:
    """A part's weight in sharing a guess's slack (`spread_over_parts`): `size * log2(size)`, as a part's
    least total grows a little faster than its size (each secret needs about log(size) guesses).

    Measured on `en-4`, the exact search of four first guesses below 7,523 (ranks 20, 300, 700 and 1200 of
    `scripts/probe_list_bounds.py refute`, one process, CPU seconds, 2026-12-04): shares by size 93.0 s, by size *
    log2(size) 84.7, by size**1.5 85.8, equal 133; half the slack shared (by size * log2(size)) 128.5, 1.5 times it 189.7;
    without the spread, 63 to 150 s each (`docs/notes/word-games.md`).
    """
    return size * math.log2(size)


def spread_over_parts(
    search: SearchState, depth: int, after: tuple[int, ...], limit: int, total: int, ordered: np.ndarray,
    starts: np.ndarray, slots: np.ndarray, known: np.ndarray,
) -> int:
    """The guess's value if below `limit`, else a bound at least `limit`: the slack `limit - total` spread over the
    parts (`ordered[starts[a]:starts[a + 1]]` for each answer slot `a` of `slots`, within `depth` guesses, after the
    guesses `after`) in rounds.

    Each round searches every part not yet valued below its bound plus its
    share of the slack, shares by `spread_weight` of the part's size: a part
    then comes out valued (below), which closes it, or raised by its share
    at least, and the next round shares what slack is left. Most guesses are
    ruled out, and ruling a part out a little above its bound costs far
    less than valuing it, which searching the largest part first below all
    the slack does whenever that part is not the one that rules the guess
    out. On a guess that is the best every part is valued in the end,
    searched once per round.
    """
    open_answers = [answer for answer in slots.tolist() if starts[answer + 1] - starts[answer] > 2]
    while open_answers and total < limit:
        slack = limit - total
        weights = [spread_weight(int(starts[answer + 1] - starts[answer])) for answer in open_answers]
        weight = sum(weights)
        still_open = []
        for answer, part_weight in zip(open_answers, weights):
            if total >= limit:
                break
            part, part_known = ordered[starts[answer] : starts[answer + 1]], int(known[answer])
            share = max(1, int(slack * part_weight / weight))
            bound = min(part_known + share, limit - total + part_known)
            value = search.solve(part, depth, bound, after)
            total += value - part_known
            known[answer] = value
            if value >= bound:
                still_open.append(answer)  # a bound: raised again next round, while the guess is not ruled out
        open_answers = still_open
    return total


def largest_first(
    search: SearchState, depth: int, after: tuple[int, ...], limit: int, total: int, ordered: np.ndarray,
    starts: np.ndarray, slots: np.ndarray, known: np.ndarray,
) -> int:
    """As `spread_over_parts`, the parts searched once each, largest first (the order of `slots`), each below its
    bound plus all the slack left."""
    for answer in slots.tolist():
        if total >= limit:
            break
        if starts[answer + 1] - starts[answer] > 2:
            part, part_known = ordered[starts[answer] : starts[answer + 1]], int(known[answer])
            total += search.solve(part, depth, limit - total + part_known, after) - part_known
    return total
