"""`scripts/bench_expected.py` runs (it once called the worker function with stale arguments and no one noticed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_expected.py"


def test_the_smallest_subproblems_of_4_of_10_are_solved_and_proven() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--smallest", "3"], capture_output=True, text=True, timeout=300, check=True
    )
    lines = result.stdout.strip().splitlines()
    rows = [line.split() for line in lines[1:-1]]
    assert [row[0] for row in rows] == ["2B2C", "1B3C", "0B4C"]  # the three smallest answers to 0123
    assert all(row[2] == row[3] and row[4] == "True" for row in rows)  # total equals its proven lower bound
    total = sum(int(row[2]) for row in rows)
    assert lines[-1].startswith(f"these subproblems: total {total}, lower bound {total};")
