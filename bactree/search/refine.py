"""Budgeted search: a good tree with a proven lower bound where the exact search would take too long.

`refine` gives a set the exact search within a budget of searched sets;
past it, it keeps the greedy rule's guess (`CostSearch.greedy_order`) and
refines each of its parts in turn, so only the top of a hard set stays
greedy. Its lower bound is the least, over every guess, of the guess's cost
plus a bound of each of its parts: the kept guess's parts' refined bounds,
and for every other guess one guess of lookahead (`others_bound`), two on
large sets where one is not enough (`deeper_bound`).
"""

from __future__ import annotations

import numpy as np

from ..treefile import Node, node
from . import _cost_kernels, cost
from .cost import INFINITE, BudgetExceeded, CostSearch

# `refine` reports the sets past its budget from this size up.
REPORT_MIN_SET = 200
# From this size up, the other guesses' large parts are bounded one guess deeper when one guess of lookahead is not
# enough to rule a guess out (`deeper_bound`), by default one level (a deepened part's own parts keep one guess).
DEEPER_MIN_SET = 200
DEEPER_LEVELS = 1
# By default at most this many parts are bounded deeper per set (`bactree build --deeper-calls`): past them the other
# guesses keep one guess of lookahead, so the work stays bounded (it counts parts, not time: a build stays reproducible).
DEEPER_CALLS = 100


def refine(
    search: CostSearch, subset: np.ndarray, depth: int, history: tuple[int, ...], budget: int,
    deeper_calls: int = DEEPER_CALLS,
) -> tuple[int, int, Node]:
    """(cost, proven lower bound, tree): exact if `budget` searched sets suffice, else best effort.

    Past the budget the greedy rule's guess is kept here and each of its
    parts is refined in turn, so only the top of a hard set stays greedy;
    sets of up to `KERNEL_MAX_SET` secrets are always exact. The bound is
    the least, over every first guess, of its cost plus a bound of each
    part (the kept guess: its parts' refined bounds; the others: one more
    guess of lookahead, and up to `deeper_calls` of their large parts per
    set one more: more calls, a higher bound for more work).

    Every set searched counts against the budget, and trying one guess per
    orbit of a set's own symmetries at every size searches fewest: `search`
    does so from here on (`CostSearch.set_symmetry_min_set` 0), as the
    budgeted trees shipped were built.
    """
    search.set_symmetry_min_set = 0
    return _refined(search, subset, depth, history, budget, deeper_calls)


def _refined(
    search: CostSearch, subset: np.ndarray, depth: int, history: tuple[int, ...], budget: int, deeper_calls: int
) -> tuple[int, int, Node]:
    """`refine`'s recursion: the set and each part of its kept guess, in turn."""
    s = len(subset)
    if s == 1:
        alone = int(search.floor_at(depth)[1])
        return alone, alone, node(search.solver.game.codes[int(subset[0])])
    if s <= cost.KERNEL_MAX_SET or budget > 0:  # with no budget, a large set's search stops at once
        greedy_cost, _ = search.greedy(subset, depth, history)
        search.budget = search.nodes_searched + budget
        try:
            value = search.solve(subset, depth, greedy_cost + 1, history, kernel=False)
            return value, value, search.tree(subset, depth, history)
        except BudgetExceeded:
            pass
        finally:
            search.budget = None
    guesses, bases, _ = search.candidates(subset, depth, history)
    guess = search.greedy_order(subset, depth, history, guesses)[0]
    total = lower = search.cost.guess_cost(s, depth)
    children = {}
    for part in search.solver.split(subset, guess):  # parts of the kept guess
        part_cost, part_lower, children[search.solver.answer_to(guess, part)] = _refined(
            search, part, depth - 1, history + (guess,), budget, deeper_calls
        )
        total += part_cost
        lower += part_lower
    lower = others_bound(search, subset, depth, history, guesses, bases, guess, lower, deeper_calls=deeper_calls)
    if search.progress and s >= REPORT_MIN_SET:
        search.progress(f"{len(subset)} secrets past the budget: total {total}, lower bound {lower}")
    return total, lower, node(search.solver.game.codes[guess], children)


def others_bound(
    search: CostSearch, subset: np.ndarray, depth: int, history: tuple[int, ...], guesses: np.ndarray,
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
    solver = search.solver
    index = calls = 0
    while True:
        index, _, ordered, starts, slots, known, raised = _cost_kernels._screen_guesses(
            solver.table, subset, guesses, bases, index, depth - 1, lower, -1, INFINITE, solver.solved,
            solver.num_slots, solver.caps, search.floor, search.class_floor, search.orbit_of, search.lookahead,
            search.level_fill, search.weights, search.hard, search.kernel_exact, search.kernel_lower,
            cost.KERNEL_MAX_SET,
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
            if size > cost.KERNEL_MAX_SET or answer == largest:
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
                if starts[answer + 1] - starts[answer] > cost.KERNEL_MAX_SET:
                    calls += 1
                    part = ordered[starts[answer] : starts[answer + 1]]
                    have = int(known[answer])
                    deep = deeper_bound(search, part, depth - 1, after, lower - bound + have, deeper - 1, deeper_calls)
                    bound += max(0, deep - have)  # `have` may be a bound the memo held, higher still
                    if bound >= lower:
                        break
        lower = min(lower, bound)


def deeper_bound(
    search: CostSearch, subset: np.ndarray, depth: int, history: tuple[int, ...], need: int, deeper: int = 0,
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
    guesses, bases, left_out = search.candidates(subset, depth, history, need)
    bound = others_bound(search, subset, depth, history, guesses, bases, -1, min(need, left_out), deeper, deeper_calls)
    search.remember_lower(subset, depth, bound)
    return bound

