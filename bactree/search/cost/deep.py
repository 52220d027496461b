"""Lower bounds two guesses deep: a guess's cost plus one guess of lookahead below each part, and below that one more.

A guess on a set costs at least its own cost plus a lower bound of each of
its parts. `others_bound` gives the least such bound over a list of
guesses, each part bounded by one guess of lookahead
(`CostSearch.lookahead_bound`) and, on large sets where that is not enough
to reach the bound sought, its large parts by `deeper_bound`: the least
over every guess on the part of the same one-guess-of-lookahead bound.
The budgeted search bounds the guesses it does not keep so
(`bactree.search.cost.refine`); the exact search rules out a guess on a large
set so before it searches below it (`guess_bound`), which is far cheaper
than the search where the guess is not the best. Every bound found is
remembered in the search's memo, which the later searches read.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from . import _cost_kernels
from ._cost_kernels import INFINITE

if TYPE_CHECKING:
    from .state import SearchState

# From this size up, the other guesses' large parts are bounded one guess deeper when one guess of lookahead is not
# enough to rule a guess out (`deeper_bound`), by default one level (a deepened part's own parts keep one guess).
DEEPER_MIN_SET = 200
DEEPER_LEVELS = 1
# By default at most this many parts are bounded deeper per set (`bactree build --deeper-calls`): past them the other
# guesses keep one guess of lookahead, so the work stays bounded (it counts parts, not time: a build stays reproducible).
DEEPER_CALLS = 100


def guess_bound(
    search: SearchState, subset: np.ndarray, depth: int, history: tuple[int, ...], guess: int, base: int, limit: int
) -> int:
    """A proven lower bound of `guess` on `subset` within `depth` guesses, two guesses deep: `limit` once it is that high.

    `base` is the guess's cost plus its parts' floors (`CostSearch.candidates`).
    Every large part of the guess is bounded as `others_bound` bounds them,
    as far as `limit` needs, so `subset` must be at least `DEEPER_MIN_SET`
    secrets for the second guess to be looked into.
    """
    return others_bound(search, subset, depth, history, np.array([guess]), np.array([base]), -1, limit,
                        deeper_calls=INFINITE)


def others_bound(
    search: SearchState, subset: np.ndarray, depth: int, history: tuple[int, ...], guesses: np.ndarray,
    bases: np.ndarray, kept: int, lower: int, deeper: int = DEEPER_LEVELS, deeper_calls: int = DEEPER_CALLS,
) -> int:
    """The least of `lower` and, over `guesses` but `kept`, a bound one guess of lookahead below each.

    A guess's bound: its cost plus a lookahead bound of each part. The
    kernel screens the guesses in order of `bases` and raises their small
    parts (all but the largest), which rules most of them out; each guess
    it stops at gets its other parts raised here, cheapest first. On a set
    of `DEEPER_MIN_SET` secrets or more (and `deeper` levels left), a guess still below
    a finite `lower` then has its large parts bounded one guess deeper
    (`deeper_bound`, at most `deeper_calls` parts per set), each only as
    far as the guess needs: with no bound to
    reach (the other first guesses of a game) every part of every guess
    would be searched two guesses deep, too much on the large games.
    """
    index = calls = 0
    while True:
        search.between_steps()  # the coach's searches stop on time inside these bounds too, and the memo stays capped
        index, _, ordered, starts, slots, known, raised = _cost_kernels._screen_guesses_in(
            search.context, subset, guesses, bases, index, depth - 1, lower, -1, INFINITE,
        )
        if index >= len(guesses):
            return lower
        guess, bound = int(guesses[index]), int(bases[index]) + int(raised)
        index += 1
        if guess == kept:
            continue
        after = history + (guess,)
        largest = int(slots[0])
        for answer in reversed(slots.tolist()):  # smallest first: the cheapest to raise
            size = starts[answer + 1] - starts[answer]
            if size > search.kernel_max_set or answer == largest:
                part = ordered[starts[answer] : starts[answer + 1]]
                ahead = search.lookahead_bound(part, depth - 1, after)
                if ahead > known[answer]:
                    bound += ahead - int(known[answer])
                    known[answer] = ahead
                if bound >= lower:
                    break
        if bound < lower < INFINITE and deeper > 0 and len(subset) >= DEEPER_MIN_SET:
            for answer in reversed(slots.tolist()):
                if calls >= deeper_calls:
                    break
                if starts[answer + 1] - starts[answer] > search.kernel_max_set:
                    calls += 1
                    part = ordered[starts[answer] : starts[answer + 1]]
                    have = int(known[answer])
                    deep = deeper_bound(search, part, depth - 1, after, lower - bound + have, deeper - 1, deeper_calls)
                    bound += max(0, deep - have)  # `have` may be a bound the memo held, higher still
                    if bound >= lower:
                        break
        lower = min(lower, bound)


def deeper_bound(
    search: SearchState, subset: np.ndarray, depth: int, history: tuple[int, ...], need: int, deeper: int = 0,
    deeper_calls: int = DEEPER_CALLS,
) -> int:
    """A proven lower bound of `subset` two guesses deep, or `need` once it is that high: remembered.

    The least, over every guess, of its cost plus one guess of lookahead
    below each of its parts (`others_bound` with no guess kept, `deeper`
    more levels below that), stopping at `need`: past it the caller's guess
    is ruled out anyway. A bound the memo holds that reaches `need` is
    returned with no search.
    """
    held = search.memo_bound(subset, depth)
    if held >= need:
        return held
    started = time.process_time()
    guesses, bases, left_out = search.candidates(subset, depth, history, need)
    bound = others_bound(search, subset, depth, history, guesses, bases, -1, min(need, left_out), deeper, deeper_calls)
    search.remember_lower(subset, depth, bound)
    if search.keeper is not None:  # the bound took a while: worth keeping on disk (`memo_store`)
        search.keeper.searched((subset.tobytes(), depth), started)
    return bound

