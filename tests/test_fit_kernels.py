"""The composition-fitting annealer's kernels against plain Python: the lists and symbol counts of the
questions, the violation it reports, and distinct codes kept distinct."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bactree.crack._fit_kernels import anneal_fit, fit_errors, thread_answer


def naive_answer(code: list[int], secret: list[int]) -> tuple[int, int]:
    """(bulls, bulls + cows): matches in place, and symbols in common counted with multiplicity."""
    bulls = sum(a == b for a, b in zip(code, secret))
    common = sum((Counter(code) & Counter(secret)).values())
    return bulls, common


def naive_violation(code: list[int], guesses: list[list[int]], bulls: list[int], totals: list[int]) -> int:
    """sum over questions of |bulls error| + |total error| of `code` as the secret."""
    violation = 0
    for guess, b, t in zip(guesses, bulls, totals):
        got_bulls, got_total = naive_answer(guess, code)
        violation += abs(got_bulls - b) + abs(got_total - t)
    return violation


@st.composite
def systems(draw):
    """A random code, random questions, and the answers a random secret (or noise) gives."""
    distinct = draw(st.booleans())
    length = draw(st.integers(1, 10))
    num_symbols = draw(st.integers(length if distinct else 1, 12))
    count = draw(st.integers(0, 10))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))

    def code() -> np.ndarray:
        if distinct:
            return rng.permutation(num_symbols)[:length].astype(np.int64)
        return rng.integers(0, num_symbols, length).astype(np.int64)

    secret = code()
    guesses = rng.integers(0, num_symbols, (count, length)).astype(np.int64)
    answers = [naive_answer(g.tolist(), secret.tolist()) for g in guesses]
    bulls = np.array([a[0] for a in answers], dtype=np.int64)
    totals = np.array([a[1] for a in answers], dtype=np.int64)
    if draw(st.booleans()):  # answers no code may fit
        bulls = rng.integers(0, length + 1, count).astype(np.int64)
        totals = bulls + rng.integers(0, length + 1, count).astype(np.int64)
    return distinct, length, num_symbols, code(), guesses, bulls, totals


def threaded(length: int, num_symbols: int, guesses: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    head = np.full((length, num_symbols), -1, dtype=np.int64)
    nxt = np.full((max(len(guesses), 1), length), -1, dtype=np.int64)
    composition = np.zeros((max(len(guesses), 1), num_symbols), dtype=np.int64)
    for i, guess in enumerate(guesses):
        thread_answer(i, guess, head, nxt, composition)
    return head, nxt, composition


@settings(max_examples=200, deadline=None)
@given(systems())
def test_lists_and_compositions_hold_the_questions(system) -> None:
    _, length, num_symbols, _, guesses, _, _ = system
    head, nxt, composition = threaded(length, num_symbols, guesses)
    for p in range(length):
        for s in range(num_symbols):
            walked, i = [], head[p, s]
            while i >= 0:
                walked.append(int(i))
                i = nxt[i, p]
            assert walked == [i for i in reversed(range(len(guesses))) if guesses[i, p] == s]
    for i, guess in enumerate(guesses):
        assert composition[i].tolist() == np.bincount(guess, minlength=num_symbols).tolist()


@settings(max_examples=300, deadline=None)
@given(systems(), st.integers(0, 400), st.floats(0.1, 3.0), st.integers(0, 1000), st.booleans())
def test_anneal_fit_reports_the_true_violation(system, moves, temperature, seed, frozen_some) -> None:
    distinct, length, num_symbols, code, guesses, bulls, totals = system
    head, nxt, composition = threaded(length, num_symbols, guesses)
    count = len(guesses)
    rows = max(count, 1)
    bull_errors, total_errors = np.zeros(rows, dtype=np.int64), np.zeros(rows, dtype=np.int64)
    guesses2d = guesses.reshape(count, length)
    start = fit_errors(code, guesses2d, bulls, totals, composition, count, bull_errors, total_errors)
    assert start == naive_violation(code.tolist(), guesses.tolist(), bulls.tolist(), totals.tolist())
    movable = np.flatnonzero(np.random.default_rng(seed).random(length) < 0.7) if frozen_some else np.arange(length)
    before = code.copy()
    found = anneal_fit(code, guesses2d, bulls, totals, composition, count, head, nxt, movable, distinct, moves, temperature, seed)
    fixed = np.setdiff1d(np.arange(length), movable)
    assert np.array_equal(code[fixed], before[fixed])  # positions not movable keep their symbols
    assert found == naive_violation(code.tolist(), guesses.tolist(), bulls.tolist(), totals.tolist())
    assert found <= start  # the best code seen is kept, the first one included
    assert code.min() >= 0 and code.max() < num_symbols
    if distinct:
        assert len(set(code.tolist())) == length


def test_anneal_fit_finds_a_fitting_code_of_a_small_system() -> None:
    """The secret fits these 25 answers, so a code of violation 0 exists: the annealer must find one."""
    rng = np.random.default_rng(7)
    secret = rng.integers(0, 6, 10)
    guesses = rng.integers(0, 6, (25, 10))
    answers = [naive_answer(g.tolist(), secret.tolist()) for g in guesses]
    bulls = np.array([a[0] for a in answers], dtype=np.int64)
    totals = np.array([a[1] for a in answers], dtype=np.int64)
    head, nxt, composition = threaded(10, 6, guesses)
    code = rng.integers(0, 6, 10)
    assert anneal_fit(code, guesses, bulls, totals, composition, 25, head, nxt, np.arange(10), False, 500_000, 1.0, 1) == 0
    assert naive_violation(code.tolist(), guesses.tolist(), bulls.tolist(), totals.tolist()) == 0
