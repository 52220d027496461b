"""The console entry point ends the process itself (no interpreter teardown): output and exit status stay whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TREE = Path(__file__).resolve().parents[1] / "trees" / "mastermind-4x6-worst-case.json"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bactree.cli.main", *args], capture_output=True, text=True, timeout=300)


def test_output_is_flushed_and_statuses_kept(tmp_path: Path) -> None:
    done = cli("verify", str(TREE))
    assert done.returncode == 0 and done.stdout.startswith(f"ok   {TREE}: 1296 secrets"), done
    assert cli("verify", str(tmp_path / "none.json")).returncode == 1
    refused = cli("build", "--game", "nope")
    assert refused.returncode == 2 and refused.stderr.strip().splitlines() == ["Error: unknown game 'nope': choose one of bulls-cows, mastermind, words"]
    built = cli("build", "-n", "2", "--symbols", "0123", "-o", str(tmp_path / "t.json"))
    assert built.returncode == 0 and built.stdout.startswith(f"{tmp_path / 't.json'}: height "), built
    assert (tmp_path / "t.json").read_bytes().endswith(b"}\n")


def test_the_command_builds_without_numba_s_blas_probe(tmp_path: Path) -> None:
    """`main` keeps numba from importing scipy.linalg; every kernel a build loads works without it, and the command
    leaves no scipy.linalg behind (a stand-in for sys.modules at exit, printed by an atexit handler `main` runs)."""
    script = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('scipy.linalg:', sys.modules.get('scipy.linalg', 'absent')))\n"
        "from bactree.cli.main import main\n"
        f"sys.argv = ['bactree', 'build', '-O', 'expected', '-n', '3', '--symbols', '012345', '-o', {str(tmp_path / 't.json')!r}]\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done
    assert "optimal" in done.stdout and done.stdout.rstrip().endswith("scipy.linalg: None"), done.stdout


def test_the_command_asks_openblas_for_one_thread_unless_told(tmp_path: Path) -> None:
    """`python -m bactree` (the console script's `bactree.cli.command.main`) sets OPENBLAS_NUM_THREADS=1 before numpy
    loads, keeps a number the user chose, and still runs the command (its atexit handler prints what numpy's process
    had when the command ended)."""
    script = (
        "import atexit, os, sys\n"
        "atexit.register(lambda: print('threads:', os.environ.get('OPENBLAS_NUM_THREADS'), 'numpy' in sys.modules))\n"
        "from bactree.cli.command import main\n"
        f"sys.argv = ['bactree', 'build', '-n', '2', '--symbols', '0123', '-o', {str(tmp_path / 't.json')!r}]\n"
        "main()\n"
    )
    for chosen, expected in ((None, "1"), ("2", "2")):
        environment = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
        if chosen:
            environment["OPENBLAS_NUM_THREADS"] = chosen
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=environment)
        assert done.returncode == 0 and "optimal" in done.stdout, done
        assert done.stdout.rstrip().endswith(f"threads: {expected} True"), done.stdout


def test_importing_the_command_module_loads_no_numpy() -> None:
    """The setting must come before numpy loads: `bactree.cli.command` itself imports neither numpy nor the CLI."""
    script = "import sys; import bactree.cli.command; print(sorted(m for m in ('numpy', 'bactree.cli.main') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done
