"""Numba kernels of the `anneal` cracker: count-preserving swaps that make a code fit the answers so far.

A candidate code x has the secret's symbol counts, so only bulls carry
information: question i (code q_i, answer b_i) is the equation
sum over p of [x_p == q_i,p] = b_i. The annealer minimises the total
violation sum_i |bulls(x, q_i) - b_i| by swapping two positions of x.

Each question is threaded into per-(position, symbol) linked lists
(`head[p, s]` the newest question with symbol s at position p, `nxt[i, p]`
the next older one), so a swap's effect on every equation is found by
walking four short lists instead of every question.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._random import _below, _seeded, _uniform


@njit(cache=True)
def thread_question(question: int, guess: np.ndarray, head: np.ndarray, nxt: np.ndarray) -> None:
    """Link question `question` (code `guess`) into the per-(position, symbol) lists."""
    for p in range(guess.shape[0]):
        nxt[question, p] = head[p, guess[p]]
        head[p, guess[p]] = question


@njit(cache=True)
def violations(x: np.ndarray, guesses: np.ndarray, answers: np.ndarray, count: int, errors: np.ndarray) -> int:
    """Fill errors[i] = bulls(x, guess i) - answer i for the first `count` questions; the total |error|."""
    total = 0
    for i in range(count):
        hits = 0
        for p in range(x.shape[0]):
            if guesses[i, p] == x[p]:
                hits += 1
        errors[i] = hits - answers[i]
        total += abs(errors[i])
    return total


@njit(cache=True)
def _add_change(p: int, symbol: int, step: int, nxt: np.ndarray, head: np.ndarray, change: np.ndarray, touched: np.ndarray, size: int) -> int:
    """Add `step` to change[i] for every question i with `symbol` at position p; the new touched count."""
    i = head[p, symbol]
    while i >= 0:
        change[i] += step
        touched[size] = i
        size += 1
        i = nxt[i, p]
    return size


@njit(cache=True)
def _pending_delta(touched: np.ndarray, touched_size: int, change: np.ndarray, errors: np.ndarray, pending: np.ndarray) -> tuple[int, int]:
    """Gather each touched question's whole change into pending (clearing change); (the |error| delta, rows)."""
    delta = 0
    changed = 0
    for t in range(touched_size):
        j = touched[t]
        if change[j] != 0:  # first visit of j: take its whole change
            delta += abs(errors[j] + change[j]) - abs(errors[j])
            pending[changed, 0] = j
            pending[changed, 1] = change[j]
            changed += 1
            change[j] = 0
    return delta, changed


@njit(cache=True)
def _set_error(i: int, error: int, errors: np.ndarray, violated: np.ndarray, slot: np.ndarray, size: int) -> int:
    """errors[i] = error, keeping the set of violated equations current; the set's new size."""
    was = errors[i]
    errors[i] = error
    if was == 0 and error != 0:
        violated[size] = i
        slot[i] = size
        size += 1
    elif was != 0 and error == 0:
        last = violated[size - 1]
        violated[slot[i]] = last
        slot[last] = slot[i]
        slot[i] = -1
        size -= 1
    return size


@njit(cache=True)
def anneal(
    x: np.ndarray,
    guesses: np.ndarray,
    answers: np.ndarray,
    count: int,
    head: np.ndarray,
    nxt: np.ndarray,
    num_symbols: int,
    moves: int,
    temperature: float,
    seed: int,
) -> int:
    """Anneal x in place towards a code that fits the first `count` answers; its total violation.

    Moves pick a violated equation and a swap that would reduce its error,
    accepted by the Metropolis rule at `temperature`. Stops at violation 0
    or after `moves` moves, leaving the best code seen in x.
    """
    state = _seeded(seed)
    n = x.shape[0]
    errors = np.zeros(max(count, 1), dtype=np.int64)
    cost = violations(x, guesses, answers, count, errors)
    best_cost = cost
    best = x.copy()
    violated = np.empty(max(count, 1), dtype=np.int64)
    slot = np.full(max(count, 1), -1, dtype=np.int64)
    size = 0
    for i in range(count):
        if errors[i] != 0:
            violated[size] = i
            slot[i] = size
            size += 1
    # where each symbol sits in x, to find a position holding a wanted symbol at once
    places = np.empty((num_symbols, n), dtype=np.int64)
    held = np.zeros(num_symbols, dtype=np.int64)
    place_of = np.empty(n, dtype=np.int64)
    for p in range(n):
        s = x[p]
        places[s, held[s]] = p
        place_of[p] = held[s]
        held[s] += 1
    change = np.zeros(max(count, 1), dtype=np.int64)
    touched = np.empty(4 * max(count, 1), dtype=np.int64)
    pending = np.empty((4 * max(count, 1), 2), dtype=np.int64)
    for _ in range(moves):
        if cost == 0:
            break
        i = violated[_below(state, size)]
        p = -1
        if errors[i] > 0:  # x matches guess i too often: move a matching symbol away
            for _try in range(4 * n):
                r = _below(state, n)
                if guesses[i, r] == x[r]:
                    p = r
                    break
            if p < 0:
                continue
            p2 = _below(state, n)
        else:  # too few matches: bring guess i's symbol to a position where it is missing
            r = _below(state, n)
            want = guesses[i, r]
            if x[r] == want or held[want] == 0:
                continue
            p = r
            p2 = places[want, _below(state, held[want])]
        a, c = x[p], x[p2]
        if a == c:
            continue
        # x[p]: a -> c, x[p2]: c -> a
        touched_size = _add_change(p, c, 1, nxt, head, change, touched, 0)
        touched_size = _add_change(p, a, -1, nxt, head, change, touched, touched_size)
        touched_size = _add_change(p2, a, 1, nxt, head, change, touched, touched_size)
        touched_size = _add_change(p2, c, -1, nxt, head, change, touched, touched_size)
        delta, changed = _pending_delta(touched, touched_size, change, errors, pending)
        if delta > 0 and _uniform(state) >= np.exp(-delta / temperature):
            continue
        for t in range(changed):
            size = _set_error(pending[t, 0], errors[pending[t, 0]] + pending[t, 1], errors, violated, slot, size)
        # swap, keeping the symbol places current
        places[a, place_of[p]] = p2
        places[c, place_of[p2]] = p
        place_of[p], place_of[p2] = place_of[p2], place_of[p]
        x[p], x[p2] = c, a
        cost += delta
        if cost < best_cost:
            best_cost = cost
            best[:] = x
    x[:] = best
    return best_cost
