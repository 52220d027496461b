"""The random numbers of the annealers (block, fitting and swap): xorshift64*, inlined into the kernels.

numba's own `np.random` calls took about 40% of a block-annealing move's
time (`windows` at n = 100: 17.1 s a key with them, 12.9 s without); these
draw from a state array that the kernel holds, seeded once a call.
numba's cache does not see changes to these (or to `_anneal_kernels`'
helpers) from the kernels that inline them in other files: after editing
them, delete `bactree/crack/__pycache__`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import compile_clock

compile_clock.install()  # before any kernel below can compile


@njit(cache=True, inline="always")
def _next(state: np.ndarray) -> np.uint64:
    """Advance the xorshift64* generator held in state[0]; its next 64-bit output."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)


@njit(cache=True, inline="always")
def _below(state: np.ndarray, n: int) -> int:
    """A random integer in 0..n-1 (n > 0; from 31 random bits, so the modulo bias is at most n / 2**31)."""
    return np.int64((_next(state) >> np.uint64(33)) % np.uint64(n))


@njit(cache=True, inline="always")
def _uniform(state: np.ndarray) -> float:
    """A random float in [0, 1)."""
    return (_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _seeded(seed: int) -> np.ndarray:
    """A generator state for `seed` (never 0, which xorshift would keep forever)."""
    return np.array([(np.uint64(seed) * np.uint64(2654435761) + np.uint64(88172645463325252)) | np.uint64(1)], dtype=np.uint64)
