"""The kernels' memo tables, made by a cached kernel.

The small-set kernels (`_least_cost` and its callers) remember values and
proven bounds in numba typed dicts keyed by `_set_key` (two 64-bit hashes of
a set and its depth). `numba.typed.Dict.empty` called from Python compiles
its constructor afresh in every process, about 0.1 s of CPU (more than the
whole search of Mastermind 4x6 spends in its kernels), and again in every
worker; made inside a cached kernel, the same dict is a load from numba's
on-disk cache.
"""

from __future__ import annotations

from numba import njit, types
from numba.typed import Dict

_KEY = types.UniTuple(types.uint64, 2)


@njit(cache=True)
def _new_memo():
    """An empty typed dict from `_set_key` keys to int64 values."""
    return Dict.empty(_KEY, types.int64)


@njit(cache=True)
def _memo_size(memo):
    """The entries of a kernels' memo table: `len` of a typed dict called from Python compiles afresh in every process
    (about 0.1 s of CPU); this is a load from numba's cache."""
    return len(memo)
