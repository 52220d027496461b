"""The kernels' memo table (`bactree.search.cost._memo`) against two Python dicts, of values and of bounds: puts,
overwrites, look-ups, growth and the bounds forgotten."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bactree.search.cost import _memo

# Keys whose second hash shares its low bits with others' (the home row), so that look-ups probe past full rows.
KEYS = [(np.uint64(first), np.uint64(home + (spread << 20))) for first in (0, 7) for home in (0, 1, 4095)
        for spread in (0, 1, 2)]


class Reference:
    """What the search reads from its memo: a set's value if one is known, else its bound (two dicts, as before
    2026-11-29: a value wins, and forgetting drops the bounds alone)."""

    def __init__(self) -> None:
        self.values: dict[tuple[np.uint64, np.uint64], int] = {}
        self.bounds: dict[tuple[np.uint64, np.uint64], int] = {}

    def put(self, key: tuple[np.uint64, np.uint64], value: int, is_value: bool) -> None:
        (self.values if is_value else self.bounds)[key] = value

    def get(self, key: tuple[np.uint64, np.uint64]) -> tuple[int, bool]:
        if key in self.values:
            return self.values[key], True
        return self.bounds.get(key, -1), False

    def forget_bounds(self) -> None:
        self.bounds.clear()


def _check_against(memo, reference: Reference) -> None:
    for key in KEYS:
        assert _memo._memo_get(memo, key) == reference.get(key)
    held = set(reference.values) | set(reference.bounds)
    assert _memo._memo_size(memo) == len(held)
    assert _memo._memo_bounds(memo) == len(held - set(reference.values))


@settings(max_examples=80, deadline=None)
@example([(0, 5, "b"), (0, 3, "v"), (0, 9, "b"), (1, 4, "b"), (2, 6, "v"), (0, 0, "f")])  # a value over a bound, and under
@given(st.lists(st.tuples(st.integers(0, len(KEYS) - 1), st.integers(0, 1 << 61), st.sampled_from("vbf")), max_size=40))
def test_memo_reads_as_values_over_bounds(steps):
    memo = _memo._new_memo()
    reference = Reference()
    for index, value, what in steps:
        if what == "v":
            _memo._memo_put_value(memo, KEYS[index], value)
            reference.put(KEYS[index], value, True)
        elif what == "b":
            _memo._memo_put_bound(memo, KEYS[index], value)
            reference.put(KEYS[index], value, False)
        else:
            _memo._memo_forget_bounds(memo)
            reference.forget_bounds()
        _check_against(memo, reference)


def test_memo_keeps_every_entry_when_it_grows_and_its_values_when_it_forgets_bounds():
    memo = _memo._new_memo()
    rng = np.random.default_rng(5)
    firsts = rng.integers(0, 1 << 63, 3 * _memo.FIRST_ROWS, dtype=np.uint64)
    seconds = rng.integers(0, 1 << 63, 3 * _memo.FIRST_ROWS, dtype=np.uint64)
    seconds[::7] &= np.uint64(0xFF)  # crowd some home rows
    keys = [(np.uint64(first), np.uint64(second)) for first, second in dict.fromkeys(zip(firsts.tolist(), seconds.tolist()))]
    for number, key in enumerate(keys):
        (_memo._memo_put_value if number % 3 == 0 else _memo._memo_put_bound)(memo, key, number)
    assert _memo._memo_size(memo) == len(keys) > 2 * _memo.FIRST_ROWS  # doubled at least twice
    for number, key in enumerate(keys):
        assert _memo._memo_get(memo, key) == (number, number % 3 == 0)
        assert _memo._memo_get(memo, (key[0] ^ np.uint64(1), key[1])) == (-1, False)
    _memo._memo_forget_bounds(memo)
    assert _memo._memo_size(memo) == len(keys[::3])
    for number, key in enumerate(keys):
        assert _memo._memo_get(memo, key) == ((number, True) if number % 3 == 0 else (-1, False))
