"""The `anneal` cracker's kernels against plain Python: the question lists, the violation it reports,
and the symbol counts its swaps must keep."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bactree.crack._anneal_kernels import anneal, thread_question, violations


def naive_violation(code: list[int], guesses: list[list[int]], answers: list[int]) -> int:
    """sum over questions of |positions where code and guess agree - answer|."""
    return sum(abs(sum(a == b for a, b in zip(code, guess)) - answer) for guess, answer in zip(guesses, answers))


@st.composite
def systems(draw):
    """A random code, random questions, and answers that a random secret (or noise) gives."""
    length = draw(st.integers(1, 12))
    num_symbols = draw(st.integers(1, 5))
    count = draw(st.integers(0, 10))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    secret = rng.integers(0, num_symbols, length)
    guesses = rng.integers(0, num_symbols, (count, length))
    answers = (guesses == secret).sum(axis=1)
    if draw(st.booleans()):
        answers = rng.integers(0, length + 1, count)  # answers no code may fit
    code = rng.permutation(secret) if draw(st.booleans()) else rng.integers(0, num_symbols, length)
    return length, num_symbols, code, guesses, answers


def threaded(length: int, num_symbols: int, guesses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    head = np.full((length, num_symbols), -1, dtype=np.int64)
    nxt = np.full((max(len(guesses), 1), length), -1, dtype=np.int64)
    for i, guess in enumerate(guesses):
        thread_question(i, guess, head, nxt)
    return head, nxt


@settings(max_examples=200, deadline=None)
@given(systems())
def test_lists_hold_exactly_the_questions_with_that_symbol_there(system) -> None:
    length, num_symbols, _, guesses, _ = system
    head, nxt = threaded(length, num_symbols, guesses)
    for p in range(length):
        for s in range(num_symbols):
            walked, i = [], head[p, s]
            while i >= 0:
                walked.append(int(i))
                i = nxt[i, p]
            assert walked == [i for i in reversed(range(len(guesses))) if guesses[i, p] == s]


@settings(max_examples=300, deadline=None)
@given(systems(), st.integers(0, 300), st.floats(0.1, 3.0), st.integers(0, 1000))
def test_anneal_reports_the_true_violation_and_keeps_the_counts(system, moves, temperature, seed) -> None:
    length, num_symbols, code, guesses, answers = system
    head, nxt = threaded(length, num_symbols, guesses)
    before = code.copy()
    errors = np.zeros(max(len(guesses), 1), dtype=np.int64)
    start = violations(code, guesses.reshape(len(guesses), length), answers, len(guesses), errors)
    assert start == naive_violation(before.tolist(), guesses.tolist(), answers.tolist())
    found = anneal(code, guesses.reshape(len(guesses), length), answers, len(guesses), head, nxt, num_symbols, moves, temperature, seed)
    assert found == naive_violation(code.tolist(), guesses.tolist(), answers.tolist())
    assert found <= start  # the best code seen is kept, the first one included
    assert sorted(code.tolist()) == sorted(before.tolist())  # swaps only


def test_anneal_finds_a_fitting_code_of_a_small_system() -> None:
    """The secret fits these 40 answers, so a code of violation 0 exists: the annealer must find one."""
    rng = np.random.default_rng(7)
    secret = rng.integers(0, 4, 10)
    guesses = rng.integers(0, 4, (40, 10))
    answers = (guesses == secret).sum(axis=1)
    head, nxt = threaded(10, 4, guesses)
    code = rng.permutation(secret)
    assert anneal(code, guesses, answers, 40, head, nxt, 4, 200_000, 1.0, 1) == 0
    assert naive_violation(code.tolist(), guesses.tolist(), answers.tolist()) == 0
