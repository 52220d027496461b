"""The kernels' memo table: proven values and lower bounds of sets, keyed by `_set_key`, in open addressing.

The small-set kernels (`_least_cost` and its callers) and the screen of
guesses remember what they proved of a set within a depth under its
`_set_key` (two 64-bit hashes of the set and the depth): its value, or a
lower bound. A `Memo` is one array of rows `(key[0], key[1], 2 * (value +
1) + is_value)` (0 in the last column: an empty row), probed linearly from
the second hash's low bits, and doubled when two thirds of its rows are
full. A set's value, once known, stays: a later bound of it is not
written, and past the search's cap the bounds alone are dropped
(`_memo_forget_bounds`). So one look-up answers what two tables, of
values and of bounds, answered with two (on a 5 of 10 exact task, whose
table holds millions of sets, 2 to 5% less CPU).

numba's typed dicts held these until 2026-11-29: their look-ups (hashing
and key comparison through function pointers, outside the kernel's code,
and two arrays to reach) were a tenth of Mastermind 4x7's CPU and over a
quarter of a 5 of 10 exact worker's. A look-up here reads one row in most
cases: Mastermind 4x7 about 3% less CPU, a 5 of 10 task 7 to 14% less.
Values are never negative (costs and their bounds).

A `Memo` is a numba structref made by a cached kernel (`_new_memo`): made
from Python, its constructor would compile afresh in every process.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.experimental import structref

FIRST_ROWS = 1 << 12  # a new table's rows (a power of 2): 96 KiB


@structref.register
class MemoType(types.StructRef):
    """numba's type of a `Memo`."""


class Memo(structref.StructRefProxy):
    """A kernels' memo table, opaque to Python (made by `_new_memo`, sized by `_memo_size` and `_memo_bounds`)."""


structref.define_boxing(MemoType, Memo)

MEMO_TYPE = MemoType([("rows", types.Array(types.uint64, 2, "C")), ("count", types.int64), ("bounds", types.int64)])


@njit(cache=True)
def _new_memo():
    """An empty memo table."""
    memo = structref.new(MEMO_TYPE)
    memo.rows = np.zeros((FIRST_ROWS, 3), np.uint64)
    memo.count = 0
    memo.bounds = 0
    return memo


@njit(cache=True)
def _memo_size(memo):
    """The sets a memo table holds (values and bounds)."""
    return memo.count


@njit(cache=True)
def _memo_bounds(memo):
    """The sets a memo table holds a bound of, not a value."""
    return memo.bounds


@njit(cache=True)
def _memo_get(memo, key):
    """(what is remembered under `key`, a `_set_key`, or -1; whether it is the set's value rather than a bound)."""
    rows = memo.rows
    mask = np.uint64(rows.shape[0] - 1)
    row = key[1] & mask
    while rows[row, 2] != 0:
        if rows[row, 0] == key[0] and rows[row, 1] == key[1]:
            return np.int64(rows[row, 2] >> np.uint64(1)) - 1, _holds_value(rows[row, 2])
        row = (row + np.uint64(1)) & mask
    return np.int64(-1), False


@njit(cache=True)
def _holds_value(packed):
    """Whether a full row's last column holds a set's value (else a bound)."""
    return (packed & np.uint64(1)) != 0


@njit(cache=True)
def _memo_put_value(memo, key, value):
    """Remember `value` (not negative) as the value of the set under `key`, in place of what was remembered."""
    _memo_put(memo, key, value, True)


@njit(cache=True)
def _memo_put_bound(memo, key, value):
    """Remember `value` (not negative) as a lower bound of the set under `key`, in place of a bound remembered (a value
    remembered stays: it says more)."""
    _memo_put(memo, key, value, False)


@njit(cache=True)
def _memo_put(memo, key, value, is_value):
    """`_memo_put_value` or `_memo_put_bound`: a row's last column holds 2 * (value + 1), + 1 for a value."""
    rows = memo.rows
    mask = np.uint64(rows.shape[0] - 1)
    row = key[1] & mask
    packed = (np.uint64(value + 1) << np.uint64(1)) | np.uint64(is_value)
    while rows[row, 2] != 0:
        if rows[row, 0] == key[0] and rows[row, 1] == key[1]:
            held_value = _holds_value(rows[row, 2])
            if is_value or not held_value:
                rows[row, 2] = packed
                if is_value and not held_value:
                    memo.bounds -= 1
            return
        row = (row + np.uint64(1)) & mask
    rows[row, 0] = key[0]
    rows[row, 1] = key[1]
    rows[row, 2] = packed
    memo.count += 1
    if not is_value:
        memo.bounds += 1
    if 3 * memo.count > 2 * rows.shape[0]:
        memo.rows = _moved(rows, 2 * rows.shape[0], True)


@njit(cache=True)
def _memo_forget_bounds(memo):
    """Drop every bound, keeping the values (in a table sized for them)."""
    rows = memo.rows
    values = memo.count - memo.bounds
    size = FIRST_ROWS
    while 3 * values > size:  # at most a third full after the move
        size *= 2
    memo.rows = _moved(rows, min(size, rows.shape[0]), False)
    memo.count = values
    memo.bounds = 0


@njit(cache=True)
def _moved(rows, size, with_bounds):
    """The rows of `rows` (all, or only the values) in a new table of `size` rows, each probed afresh from its home."""
    grown = np.zeros((size, 3), np.uint64)
    mask = np.uint64(size - 1)
    for old in range(rows.shape[0]):
        packed = rows[old, 2]
        if packed == 0 or not (with_bounds or _holds_value(packed)):
            continue
        row = rows[old, 1] & mask
        while grown[row, 2] != 0:
            row = (row + np.uint64(1)) & mask
        grown[row, 0] = rows[old, 0]
        grown[row, 1] = rows[old, 1]
        grown[row, 2] = packed
    return grown
