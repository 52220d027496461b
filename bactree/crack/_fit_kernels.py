"""Numba kernels of the `anneal` cracker: codes of any composition that fit every (bulls, cows) answer.

Question i (code q_i, answer b_i bulls and w_i cows) gives two equations on
a candidate code x:

    bulls:  sum over positions p of [x_p == q_i,p]         = b_i
    total:  sum over symbols c of min(G[i, c], N_c(x))     = b_i + w_i

where G[i, c] counts symbol c in q_i and N_c(x) counts it in x (cows are
white pegs). The annealer minimises the total violation
sum_i |bulls error| + |total error| with two moves: change one position's
symbol (composition changes: every total equation can move by one) and swap
two positions (composition kept: only the bulls equations of the four
touched (position, symbol) lists move).

Each question is threaded into per-(position, symbol) linked lists
(`head[p, s]` the newest question with symbol s at position p, `nxt[i, p]`
the next older one), so a move's effect on the bulls equations is found by
walking short lists instead of every question.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._anneal_kernels import _add_change, thread_question
from ._random import _below, _seeded, _uniform


@njit(cache=True)
def thread_answer(question: int, guess: np.ndarray, head: np.ndarray, nxt: np.ndarray, composition: np.ndarray) -> None:
    """Link question `question` (code `guess`) into the per-(position, symbol) lists; count its symbols."""
    thread_question(question, guess, head, nxt)
    for p in range(guess.shape[0]):
        composition[question, guess[p]] += 1


@njit(cache=True)
def fit_errors(
    x: np.ndarray,
    guesses: np.ndarray,
    bulls: np.ndarray,
    totals: np.ndarray,
    composition: np.ndarray,
    count: int,
    bull_errors: np.ndarray,
    total_errors: np.ndarray,
) -> int:
    """Fill each question's bulls and total error for code x (first `count` questions); the summed |errors|."""
    num_symbols = composition.shape[1]
    held = np.zeros(num_symbols, dtype=np.int64)
    for p in range(x.shape[0]):
        held[x[p]] += 1
    violation = 0
    for i in range(count):
        hits = 0
        for p in range(x.shape[0]):
            if guesses[i, p] == x[p]:
                hits += 1
        common = 0
        for c in range(num_symbols):
            common += min(composition[i, c], held[c])
        bull_errors[i] = hits - bulls[i]
        total_errors[i] = common - totals[i]
        violation += abs(bull_errors[i]) + abs(total_errors[i])
    return violation


@njit(cache=True)
def anneal_fit(
    x: np.ndarray,
    guesses: np.ndarray,
    bulls: np.ndarray,
    totals: np.ndarray,
    composition: np.ndarray,
    count: int,
    head: np.ndarray,
    nxt: np.ndarray,
    movable: np.ndarray,
    distinct: bool,
    moves: int,
    temperature: float,
    seed: int,
) -> int:
    """Anneal x in place towards a code that fits the first `count` answers; its violation.

    Each move picks a violated question and a change that would reduce one
    of its errors, accepted by the Metropolis rule at `temperature`; only
    the positions listed in `movable` change. With `distinct`, x keeps its
    symbols distinct (a symbol already held is brought in by a swap). Stops
    at violation 0 or after `moves` moves, leaving the best code seen in x.
    """
    state = _seeded(seed)
    n = x.shape[0]
    num_symbols = composition.shape[1]
    rows = max(count, 1)
    bull_errors = np.zeros(rows, dtype=np.int64)
    total_errors = np.zeros(rows, dtype=np.int64)
    violation = fit_errors(x, guesses, bulls, totals, composition, count, bull_errors, total_errors)
    best_violation = violation
    best = x.copy()
    # where each symbol sits in x (places[s, :held[s]]), to find a swap partner at once
    places = np.empty((num_symbols, n), dtype=np.int64)
    held = np.zeros(num_symbols, dtype=np.int64)
    slot_of = np.empty(n, dtype=np.int64)
    for p in range(n):
        s = x[p]
        places[s, held[s]] = p
        slot_of[p] = held[s]
        held[s] += 1
    # the violated questions, as a set with O(1) insert and delete
    violated = np.empty(rows, dtype=np.int64)
    slot = np.full(rows, -1, dtype=np.int64)
    size = 0
    for i in range(count):
        if bull_errors[i] != 0 or total_errors[i] != 0:
            violated[size] = i
            slot[i] = size
            size += 1
    bull_change = np.zeros(rows, dtype=np.int64)
    total_change = np.zeros(rows, dtype=np.int64)
    touched = np.empty(4 * rows, dtype=np.int64)
    frozen = np.ones(n, dtype=np.bool_)
    frozen[movable] = False
    free = movable.shape[0]
    for _ in range(moves):
        if violation == 0 or free == 0:
            break
        i = violated[_below(state, size)]
        p = movable[_below(state, free)]
        new = -1
        partner = -1  # a position to swap with, or -1 for a one-position change
        if bull_errors[i] < 0:  # too few matches: bring q_i's symbol to p
            new = guesses[i, p]
            if x[p] == new:
                continue
            if held[new] > 0 and (distinct or _uniform(state) < 0.5):
                partner = places[new, _below(state, held[new])]
        elif bull_errors[i] > 0:  # too many matches: move q_i's symbol away from p
            if x[p] != guesses[i, p]:
                continue
            partner = movable[_below(state, free)]
            new = x[partner]
            if not distinct and _uniform(state) < 0.5:
                partner = -1
                new = _below(state, num_symbols)
        elif total_errors[i] < 0:  # too little in common: add a symbol q_i has more of
            new = guesses[i, p]
            p = movable[_below(state, free)]
            if held[new] >= composition[i, new] or (distinct and held[new] > 0):
                continue
        else:  # too much in common: drop a symbol x has no more of than q_i
            if held[x[p]] > composition[i, x[p]]:
                continue
            new = _below(state, num_symbols)
            if distinct and held[new] > 0:
                continue
        old = x[p]
        if new == old:
            continue
        if partner >= 0 and (x[partner] != new or frozen[partner]):
            continue
        # the move's effect on every equation it touches
        touched_size = _add_change(p, new, 1, nxt, head, bull_change, touched, 0)
        touched_size = _add_change(p, old, -1, nxt, head, bull_change, touched, touched_size)
        if partner >= 0:
            touched_size = _add_change(partner, old, 1, nxt, head, bull_change, touched, touched_size)
            touched_size = _add_change(partner, new, -1, nxt, head, bull_change, touched, touched_size)
        delta = 0
        for t in range(touched_size):
            j = touched[t]
            if bull_change[j] != 0 and total_change[j] == 0:  # first visit of j (total_change as a mark)
                delta += abs(bull_errors[j] + bull_change[j]) - abs(bull_errors[j])
                total_change[j] = 1
        for t in range(touched_size):
            total_change[touched[t]] = 0
        if partner < 0:
            for j in range(count):
                shift = 0
                if held[new] < composition[j, new]:
                    shift += 1
                if held[old] <= composition[j, old]:
                    shift -= 1
                total_change[j] = shift
                delta += abs(total_errors[j] + shift) - abs(total_errors[j])
        if delta > 0 and _uniform(state) >= np.exp(-delta / temperature):
            for t in range(touched_size):
                bull_change[touched[t]] = 0
            if partner < 0:
                total_change[:count] = 0
            continue
        # accept: apply the changes, keep the violated set current
        for t in range(touched_size):
            j = touched[t]
            bull_errors[j] += bull_change[j]
            bull_change[j] = 0
        if partner < 0:
            for j in range(count):
                total_errors[j] += total_change[j]
                total_change[j] = 0
            scan = count
        else:
            scan = touched_size
        for t in range(scan):
            j = t if partner < 0 else touched[t]
            bad = bull_errors[j] != 0 or total_errors[j] != 0
            if bad and slot[j] < 0:
                violated[size] = j
                slot[j] = size
                size += 1
            elif not bad and slot[j] >= 0:
                last = violated[size - 1]
                violated[slot[j]] = last
                slot[last] = slot[j]
                slot[j] = -1
                size -= 1
        # move the symbols, keeping their places current
        if partner >= 0:
            places[old, slot_of[p]] = partner
            places[new, slot_of[partner]] = p
            slot_of[p], slot_of[partner] = slot_of[partner], slot_of[p]
            x[p], x[partner] = new, old
        else:
            last = places[old, held[old] - 1]
            places[old, slot_of[p]] = last
            slot_of[last] = slot_of[p]
            held[old] -= 1
            places[new, held[new]] = p
            slot_of[p] = held[new]
            held[new] += 1
            x[p] = new
        violation += delta
        if violation < best_violation:
            best_violation = violation
            best[:] = x
    x[:] = best
    return best_violation
