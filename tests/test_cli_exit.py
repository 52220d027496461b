"""The console entry point ends the process itself (no interpreter teardown): output and exit status stay whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TREE = Path(__file__).resolve().parents[1] / "trees" / "mastermind-4x6-worst-case.json"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bactree.cli", *args], capture_output=True, text=True, timeout=300)


def test_output_is_flushed_and_statuses_kept(tmp_path: Path) -> None:
    done = cli("verify", str(TREE))
    assert done.returncode == 0 and done.stdout.startswith(f"ok   {TREE}: 1296 secrets"), done
    assert cli("verify", str(tmp_path / "none.json")).returncode == 1
    refused = cli("build", "--game", "nope")
    assert refused.returncode == 2 and refused.stderr.strip().splitlines() == ["Error: unknown game 'nope': choose one of bulls-cows, mastermind"]
    built = cli("build", "-n", "2", "--symbols", "0123", "-o", str(tmp_path / "t.json"))
    assert built.returncode == 0 and built.stdout.startswith(f"{tmp_path / 't.json'}: height "), built
    assert (tmp_path / "t.json").read_bytes().endswith(b"}\n")


def test_the_command_builds_without_numba_s_blas_probe(tmp_path: Path) -> None:
    """`main` keeps numba from importing scipy.linalg; every kernel a build loads works without it, and the command
    leaves no scipy.linalg behind (a stand-in for sys.modules at exit, printed by an atexit handler `main` runs)."""
    script = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('scipy.linalg:', sys.modules.get('scipy.linalg', 'absent')))\n"
        "from bactree.cli import main\n"
        f"sys.argv = ['bactree', 'build', '-O', 'expected', '-n', '3', '--symbols', '012345', '-o', {str(tmp_path / 't.json')!r}]\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done
    assert "optimal" in done.stdout and done.stdout.rstrip().endswith("scipy.linalg: None"), done.stdout
