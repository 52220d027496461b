"""The kernels' xorshift generator: draws stay in range and cover it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bactree.crack._random import _below, _seeded, _uniform


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**40), st.integers(1, 5000))
def test_the_generator_stays_in_range_and_reaches_every_value(seed: int, n: int) -> None:
    """`_below(n)` draws from 0..n-1 and, for small n, every value comes up; `_uniform` draws from [0, 1)."""
    state = _seeded(seed)
    draws = [_below(state, n) for _ in range(400)]
    assert all(0 <= d < n for d in draws)
    if n <= 20:
        assert set(draws) == set(range(n))
    uniforms = [_uniform(state) for _ in range(100)]
    assert all(0.0 <= u < 1.0 for u in uniforms) and len(set(uniforms)) == 100
