"""Numba kernel of the `blocks` cracker: one block's symbols fitted to the questions about it.

A block question holds a code q on the block B, the known symbols on the
positions already found, and one filler symbol f (whose count c_f in the key
is known) on every other position. Its bulls are then

    (positions found) + sum over p in B of [x_p == q_p]
                      + (c_f - f's found positions - sum over p in B of [x_p == f])

so, with t = bulls - (positions found) - (c_f - f's found positions), the
block's symbols x satisfy

    sum over p in B of ([x_p == q_p] - [x_p == f]) = t,

an equation on the block alone. Where the question holds the filler inside
the block the two terms cancel. When no position after the block is left,
there is no filler and the minus term goes.

`anneal_block` minimises the summed |error| of these equations, keeping
each symbol's count within `caps` (what the key can still hold in the
block), by changing one position or swapping two. Its random numbers come
from `_random`'s inline xorshift generator: numba's random calls took about
40% of each move's time.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ._anneal_kernels import _pending_delta, _set_error
from ._random import _below, _seeded, _uniform


@njit(cache=True)
def block_values(x: np.ndarray, plus: np.ndarray, minus: np.ndarray, count: int, values: np.ndarray) -> None:
    """values[j] = sum over p of [x_p == plus[j, p]] - [x_p == minus[j]] where plus[j, p] >= 0."""
    for j in range(count):
        value = 0
        for p in range(x.shape[0]):
            if plus[j, p] >= 0:
                if x[p] == plus[j, p]:
                    value += 1
                if x[p] == minus[j]:
                    value -= 1
        values[j] = value


@njit(cache=True)
def _terms(plus: np.ndarray, minus: np.ndarray, count: int, num_symbols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The equations' terms grouped by (position, symbol): start offsets, question and weight of each term."""
    width = plus.shape[1]
    sizes = np.zeros(width * num_symbols + 1, dtype=np.int64)
    for j in range(count):
        for p in range(width):
            if plus[j, p] >= 0:
                sizes[p * num_symbols + plus[j, p] + 1] += 1
                if minus[j] >= 0:
                    sizes[p * num_symbols + minus[j] + 1] += 1
    start = np.cumsum(sizes)
    question = np.empty(start[-1], dtype=np.int64)
    weight = np.empty(start[-1], dtype=np.int64)
    fill = start[:-1].copy()
    for j in range(count):
        for p in range(width):
            if plus[j, p] >= 0:
                at = p * num_symbols + plus[j, p]
                question[fill[at]] = j
                weight[fill[at]] = 1
                fill[at] += 1
                if minus[j] >= 0:
                    at = p * num_symbols + minus[j]
                    question[fill[at]] = j
                    weight[fill[at]] = -1
                    fill[at] += 1
    return start, question, weight


@njit(cache=True)
def _add_terms(
    p: int, symbol: int, step: int, num_symbols: int, start: np.ndarray, question: np.ndarray, weight: np.ndarray,
    change: np.ndarray, touched: np.ndarray, size: int,
) -> int:
    """Add step * weight to change[j] for each term of (p, symbol); the new touched count."""
    at = p * num_symbols + symbol
    for e in range(start[at], start[at + 1]):
        j = question[e]
        change[j] += step * weight[e]
        touched[size] = j
        size += 1
    return size


@njit(cache=True)
def _hold(p: int, symbol: int, holders: np.ndarray, held: np.ndarray, slot_of: np.ndarray) -> None:
    """Record that position p holds `symbol`."""
    holders[symbol, held[symbol]] = p
    slot_of[p] = held[symbol]
    held[symbol] += 1


@njit(cache=True)
def _release(p: int, symbol: int, holders: np.ndarray, held: np.ndarray, slot_of: np.ndarray) -> None:
    """Record that position p no longer holds `symbol` (the last holder takes its slot)."""
    held[symbol] -= 1
    last = holders[symbol, held[symbol]]
    holders[symbol, slot_of[p]] = last
    slot_of[last] = slot_of[p]


@njit(cache=True)
def anneal_block(
    x: np.ndarray,
    plus: np.ndarray,
    minus: np.ndarray,
    targets: np.ndarray,
    count: int,
    caps: np.ndarray,
    moves: int,
    temperature: float,
    seed: int,
) -> int:
    """Anneal the block x in place towards fitting the first `count` equations; its violation.

    x must hold no symbol s more than caps[s] times, and keeps so. Each move
    picks a violated equation and a position it tests, and a change that
    would shrink its error (a one-position change, or, when the cap forbids
    it or at random, a swap with a position holding the new symbol, drawn
    from per-symbol lists so that no move is spent looking for one; the
    caps are tight once a part's composition is known), accepted by the
    Metropolis rule at `temperature`. Stops at violation 0 or after `moves`
    moves, leaving the best block seen in x.
    """
    state = _seeded(seed)
    width = x.shape[0]
    num_symbols = caps.shape[0]
    rows = max(count, 1)
    start, question, weight = _terms(plus, minus, count, num_symbols)
    errors = np.zeros(rows, dtype=np.int64)
    block_values(x, plus, minus, count, errors)
    violation = 0
    violated = np.empty(rows, dtype=np.int64)
    slot = np.full(rows, -1, dtype=np.int64)
    size = 0
    for j in range(count):
        errors[j] -= targets[j]
        violation += abs(errors[j])
        if errors[j] != 0:
            violated[size] = j
            slot[j] = size
            size += 1
    held = np.zeros(num_symbols, dtype=np.int64)  # how often each symbol is in x
    holders = np.empty((num_symbols, width), dtype=np.int64)  # holders[s, :held[s]]: the positions holding s
    slot_of = np.empty(width, dtype=np.int64)  # p's index among the holders of x[p]
    for p in range(width):
        _hold(p, x[p], holders, held, slot_of)
    best = x.copy()
    best_violation = violation
    change = np.zeros(rows, dtype=np.int64)
    touched = np.empty(8 * rows, dtype=np.int64)
    pending = np.empty((8 * rows, 2), dtype=np.int64)
    for _ in range(moves):
        if violation == 0:
            break
        j = violated[_below(state, size)]
        p = _below(state, width)
        if plus[j, p] < 0:
            continue
        old = x[p]
        if errors[j] < 0:  # too low: bring q_p in
            new = plus[j, p]
        elif old == plus[j, p] or _uniform(state) < 0.5:  # too high: take q_p out
            new = _below(state, num_symbols)
        else:  # too high: bring the filler in
            new = minus[j]
        if new < 0 or new == old:
            continue
        partner = -1
        if held[new] >= caps[new] or _uniform(state) < 0.5:  # swap with a position holding new
            if held[new] == 0:
                continue
            partner = holders[new, _below(state, held[new])]
        size_t = _add_terms(p, new, 1, num_symbols, start, question, weight, change, touched, 0)
        size_t = _add_terms(p, old, -1, num_symbols, start, question, weight, change, touched, size_t)
        if partner >= 0:
            size_t = _add_terms(partner, old, 1, num_symbols, start, question, weight, change, touched, size_t)
            size_t = _add_terms(partner, new, -1, num_symbols, start, question, weight, change, touched, size_t)
        delta, changed = _pending_delta(touched, size_t, change, errors, pending)
        if delta > 0 and _uniform(state) >= np.exp(-delta / temperature):
            continue
        for t in range(changed):
            size = _set_error(pending[t, 0], errors[pending[t, 0]] + pending[t, 1], errors, violated, slot, size)
        _release(p, old, holders, held, slot_of)
        _hold(p, new, holders, held, slot_of)
        if partner >= 0:
            _release(partner, new, holders, held, slot_of)
            _hold(partner, old, holders, held, slot_of)
            x[partner] = old
        x[p] = new
        violation += delta
        if violation < best_violation:
            best_violation = violation
            best[:] = x
    x[:] = best
    return best_violation
