"""scripts/bench_peers.py parses what bactree and each peer print (stub peers; the speed is not checked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_peers.py"


def test_bench_peers_self_test_reads_the_smallest_game_and_stub_peers() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--self-test"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "self-test passed"
    assert "| 3 of 10 (expected) | " in done.stdout and "mmstrat CPU / bactree CPU" in done.stdout


def test_bench_peers_refuses_an_unknown_game() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--games", "5x5"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "unknown game '5x5'" in done.stderr
