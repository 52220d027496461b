"""`scripts/profile_build.py` runs on the game it is given and accounts for the profiled time by part of the engine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "profile_build.py"


def test_a_small_expected_build_is_profiled_by_part_of_the_engine() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "-n", "4", "--symbols", "0123456", "--objective", "expected", "--top", "3"],
        capture_output=True, text=True, timeout=300, check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("bulls-cows expected: kernel load")
    shares = [float(m[1]) for m in (re.fullmatch(r"  .+ +[\d.]+s +([\d.]+)%", line) for line in lines[1:6]) if m]
    assert len(shares) >= 3 and abs(sum(shares) - 100) < 0.5
    # 4 of 7 (840 codes, no repeats): its subproblems ran here, so the search's kernels are in the profile.
    assert "numba kernels" in result.stdout and "_kernels.py" in result.stdout
