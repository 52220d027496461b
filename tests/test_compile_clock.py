"""`bactree.compile_clock`: the first compile's notice (once, exact text) and time limits that leave compiling out."""

from __future__ import annotations

import io

import numpy as np
import pytest
from numba import njit

from bactree import compile_clock
from bactree.coach.analysis import analyse_position
from bactree.coach.engine import Engine
from bactree.coach.position import read_history
from bactree.compile_clock import NOTICE, Deadline, announce, compile_seconds
from bactree.game import preset


@pytest.fixture
def no_notice_left():
    """A notice asked for and never printed must not print in a later test."""
    yield
    compile_clock._Clock.notice = None


def fresh_kernel():
    """A kernel defined afresh (and never cached), so its first call compiles."""

    @njit(cache=False)
    def doubled(values):
        return values * 2

    return doubled


def test_the_first_compile_says_so_once(no_notice_left):
    stream = io.StringIO()
    announce(stream)
    assert stream.getvalue() == ""  # asking prints nothing until a compile
    fresh_kernel()(np.arange(3))
    fresh_kernel()(np.arange(3.0))
    assert stream.getvalue() == (
        "bactree: compiling the kernels this command needs, on their first use; numba caches each one, "
        "so no later command compiles it again (seconds to a few minutes on 2 cores)\n")
    assert stream.getvalue() == NOTICE + "\n"


def test_no_notice_when_nothing_compiles(no_notice_left):
    kernel = fresh_kernel()
    kernel(np.arange(3))
    stream = io.StringIO()
    announce(stream)
    kernel(np.arange(4))  # a signature compiled before: nothing compiles
    assert stream.getvalue() == ""


def test_a_compile_runs_the_clock():
    before = compile_seconds()
    fresh_kernel()(np.arange(3))
    assert compile_seconds() > before


class FakeClock:
    """`time.perf_counter` under the test's control."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_deadline_leaves_out_the_compiling_since_it_was_set(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(compile_clock.time, "perf_counter", clock)
    monkeypatch.setattr(compile_clock._Clock, "seconds", 7.0)  # compiled before the deadline: not counted either way
    deadline = Deadline(1.0)
    clock.now += 5.0
    monkeypatch.setattr(compile_clock._Clock, "seconds", 7.0 + 4.5)  # of the 5 s, 4.5 compiling
    assert not deadline.passed()
    assert deadline.elapsed() == pytest.approx(0.5)
    clock.now += 0.6  # 1.1 s of tables, ordering and search
    assert deadline.passed()


def test_an_analysis_whose_time_went_to_compiling_answers_exactly(monkeypatch):
    """A zero limit gives bounds (tests/test_coach.py), but not when all the time since the start was compiling."""
    game = preset("mastermind")
    position = read_history(game, ["1122=0B1C"])
    hurried = analyse_position(position, 3, "3456", "expected", False, Deadline(0.0), Engine(game))
    assert not hurried.complete
    deadline = Deadline(0.0)
    monkeypatch.setattr(compile_clock._Clock, "seconds", compile_clock._Clock.seconds + 3600.0)  # an hour compiling
    patient = analyse_position(position, 3, "3456", "expected", False, deadline, Engine(game))
    assert patient.complete
