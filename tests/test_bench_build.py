"""`scripts/bench_build.py` runs for both objectives (it once passed the worst case's tie-break to expected builds,
which refused it, and no one noticed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bactree.pipeline.build import build
from bactree.game import Game

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_build.py"


@pytest.mark.parametrize(("objective", "tie_break"), [("expected", None), ("worst-case", "nodes")])
def test_a_small_game_is_built_and_its_figures_printed(objective: str, tie_break: str | None) -> None:
    stats = build(Game(3, "01234", False), objective, tie_break).document["stats"]
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "-n", "3", "--symbols", "01234", "--objective", objective, "--runs", "1"],
        capture_output=True, text=True, timeout=300, check=True,
    )
    run, summary = result.stdout.strip().splitlines()
    assert run.startswith("run 1: wall ")
    assert run.endswith(f"height {stats['max_guesses']}, {stats['nodes']} nodes, total {stats['total_guesses']}")
    assert summary.startswith(f"bulls-cows {objective}: median wall ")
