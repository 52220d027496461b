"""The block annealer of `blocks` against plain Python: a block question's bulls really are the
block equation, and the annealer reports the true violation and keeps within the caps."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bactree.crack._block_kernels import anneal_block, block_values
from naive import score as naive_score

SYMBOLS = "abcdefghijklmnop"


def naive_value(block: list[int], plus: list[int], minus: int) -> int:
    """sum over the block's positions the question tests of [x_p == q_p] - [x_p == filler]."""
    return sum((x == q) - (x == minus) for x, q in zip(block, plus) if q >= 0)


def naive_violation(block: list[int], plus: np.ndarray, minus: np.ndarray, targets: np.ndarray, caps: np.ndarray) -> int:
    equations = sum(abs(naive_value(block, plus[j].tolist(), int(minus[j])) - int(targets[j])) for j in range(len(targets)))
    held = np.bincount(np.array(block, dtype=np.int64), minlength=len(caps))
    return equations + int(np.maximum(held - caps, 0).sum())


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_block_questions_bulls_are_the_block_equation(data) -> None:
    """Known symbols before the block, the candidate on it, a filler it lacks after it: bulls less the
    found positions and the filler's count past them is the block equation of the true block."""
    num_symbols = data.draw(st.integers(2, 8))
    length = data.draw(st.integers(1, 14))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    key = rng.integers(0, num_symbols, length)
    start = data.draw(st.integers(0, length - 1))
    end = data.draw(st.integers(start + 1, length))
    filler = int(rng.integers(num_symbols))
    candidate = rng.choice([s for s in range(num_symbols) if s != filler], end - start)
    probe = rng.random(end - start) < 0.3  # positions holding the filler inside the block
    question = key.copy()
    question[end:] = filler
    question[start:end] = np.where(probe, filler, candidate)
    bulls, _ = naive_score("".join(SYMBOLS[i] for i in question), "".join(SYMBOLS[i] for i in key), True)
    if end == length:  # no filler past the block: only the found positions are subtracted
        target, minus = bulls - start, -1
        plus = question[start:end]
    else:
        target = bulls - start - (int(np.count_nonzero(key == filler)) - int(np.count_nonzero(key[:start] == filler)))
        minus = filler
        plus = np.where(probe, -1, candidate)
    assert target == naive_value(key[start:end].tolist(), plus.tolist(), minus)


@st.composite
def systems(draw):
    """A block, random block questions, the targets a random block (or noise) gives, and caps."""
    width = draw(st.integers(1, 10))
    num_symbols = draw(st.integers(2, 9))
    count = draw(st.integers(0, 12))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    caps = rng.integers(0, width + 1, num_symbols)
    while caps.sum() < width:
        caps[rng.integers(num_symbols)] += 1
    pool = np.repeat(np.arange(num_symbols), caps)
    secret, block = rng.permutation(pool)[:width], rng.permutation(pool)[:width]
    minus = np.where(rng.random(count) < 0.7, rng.integers(0, num_symbols, count), -1)
    plus = rng.integers(0, num_symbols, (count, width))
    plus[(rng.random((count, width)) < 0.2) | (plus == minus[:, None])] = -1
    targets = np.array([naive_value(secret.tolist(), plus[j].tolist(), int(minus[j])) for j in range(count)], dtype=np.int64)
    if draw(st.booleans()):  # targets no block may fit
        targets = rng.integers(-width, width + 1, count)
    return block.astype(np.int64), plus.reshape(count, width).astype(np.int64), minus.astype(np.int64), targets.astype(np.int64), caps.astype(np.int64)


@settings(max_examples=300, deadline=None)
@given(systems())
def test_block_values_match_plain_python(system) -> None:
    block, plus, minus, _, _ = system
    values = np.zeros(max(len(minus), 1), dtype=np.int64)
    block_values(block, plus, minus, len(minus), values)
    assert values[: len(minus)].tolist() == [naive_value(block.tolist(), plus[j].tolist(), int(minus[j])) for j in range(len(minus))]


@settings(max_examples=300, deadline=None)
@given(systems(), st.integers(0, 500), st.floats(0.1, 3.0), st.integers(0, 1000))
def test_anneal_block_reports_the_true_violation_and_keeps_the_caps(system, moves, temperature, seed) -> None:
    block, plus, minus, targets, caps = system
    start = naive_violation(block.tolist(), plus, minus, targets, caps)
    found = anneal_block(block, plus, minus, targets, len(targets), caps, moves, temperature, seed)
    assert found == naive_violation(block.tolist(), plus, minus, targets, caps)
    assert found <= start  # the best block seen is kept, the first one included
    assert np.all(np.bincount(block, minlength=len(caps)) <= caps)


def test_anneal_block_finds_a_fitting_block_of_a_small_system() -> None:
    """The secret block fits these 20 equations, so a block of violation 0 exists: the annealer must find one."""
    rng = np.random.default_rng(3)
    width, num_symbols = 12, 8
    secret = rng.integers(0, num_symbols, width)
    minus = rng.integers(0, num_symbols, 20)
    plus = rng.integers(0, num_symbols, (20, width))
    plus[plus == minus[:, None]] = -1
    targets = np.array([naive_value(secret.tolist(), plus[j].tolist(), int(minus[j])) for j in range(20)], dtype=np.int64)
    caps = np.full(num_symbols, width, dtype=np.int64)
    block = rng.integers(0, num_symbols, width)
    assert anneal_block(block, plus, minus, targets, 20, caps, 500_000, 1.0, 1) == 0
    assert naive_violation(block.tolist(), plus, minus, targets, caps) == 0
