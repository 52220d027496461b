"""The kernels' memo table (`bactree.search._memo`) against a Python dict: puts, overwrites, look-ups, growth."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bactree.search import _memo

# Keys whose second hash shares its low bits with others' (the home row), so that look-ups probe past full rows.
KEYS = [(np.uint64(first), np.uint64(home + (spread << 20))) for first in (0, 7) for home in (0, 1, 4095)
        for spread in (0, 1, 2)]


def _check_against(memo, reference):
    assert _memo._memo_size(memo) == len(reference)
    for key in KEYS:
        assert _memo._memo_get(memo, key, -1) == reference.get(key, -1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(KEYS) - 1), st.integers(0, 1 << 61)), max_size=40))
def test_memo_puts_and_gets_as_a_dict(puts):
    memo = _memo._new_memo()
    reference: dict[tuple[np.uint64, np.uint64], int] = {}
    for index, value in puts:
        _memo._memo_put(memo, KEYS[index], value)
        reference[KEYS[index]] = value
        _check_against(memo, reference)


def test_memo_keeps_every_entry_when_it_grows():
    memo = _memo._new_memo()
    rng = np.random.default_rng(5)
    firsts = rng.integers(0, 1 << 63, 3 * _memo.FIRST_ROWS, dtype=np.uint64)
    seconds = rng.integers(0, 1 << 63, 3 * _memo.FIRST_ROWS, dtype=np.uint64)
    seconds[::7] &= np.uint64(0xFF)  # crowd some home rows
    keys = list(dict.fromkeys(zip(firsts.tolist(), seconds.tolist())))
    for value, (first, second) in enumerate(keys):
        _memo._memo_put(memo, (np.uint64(first), np.uint64(second)), value)
    assert _memo._memo_size(memo) == len(keys) > 2 * _memo.FIRST_ROWS  # doubled at least twice
    for value, (first, second) in enumerate(keys):
        assert _memo._memo_get(memo, (np.uint64(first), np.uint64(second)), -1) == value
        assert _memo._memo_get(memo, (np.uint64(first ^ 1), np.uint64(second)), -1) == -1
