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


def test_bad_second_guesses_are_refused_in_one_line() -> None:
    for value, message in [("xx", "wants ANSWER,GUESS"), ("5B0C,01567", "no secret answers 5B0C"), ("0B9C,01567", "impossible")]:
        result = run("--second-guess", value)
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
