"""`scripts/bench_task.py` runs a fixed slice of a task and refuses bad input in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_task.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_a_slice_of_4_of_10_searches_the_sets_asked_for_each_repeat() -> None:
    result = run("-n", "4", "--second-guess", "1B1C,1456", "--sets", "20", "--repeats", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert [line.split(",")[1].strip() for line in lines[:2]] == ["21 sets", "21 sets"]  # the budget's set, then it stops
    assert lines[-1].startswith("4 of '0123456789', no repeats: 0123 1B1C then 1456, 20 sets: median ")


def test_a_bounded_slice_values_the_guess_below_the_bound_as_a_worker_does() -> None:
    """With `--bound` the guess is valued on the whole part: the sets asked for under a loose bound, none under one
    below the guess's own floor (4 of 10's 1B1C part then 1456 costs far more than 10 guesses)."""
    loose = run("-n", "4", "--second-guess", "1B1C,1456", "--sets", "20", "--repeats", "1", "--bound", "100000")
    tight = run("-n", "4", "--second-guess", "1B1C,1456", "--sets", "20", "--repeats", "1", "--bound", "10")
    assert loose.returncode == 0 and tight.returncode == 0, loose.stderr + tight.stderr
    assert loose.stdout.splitlines()[0].endswith("21 sets") and tight.stdout.splitlines()[0].endswith(" 0 sets")
    assert "then 1456 below 100000, 20 sets: median " in loose.stdout


def test_bad_second_guesses_are_refused_in_one_line() -> None:
    for value, message in [("xx", "wants ANSWER,GUESS"), ("5B0C,01567", "no secret answers 5B0C"), ("0B9C,01567", "impossible")]:
        result = run("--second-guess", value)
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
