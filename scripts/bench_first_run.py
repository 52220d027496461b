"""Time a new user's first run: a fresh venv, `pip install -e .`, then builds against an empty numba cache.

    python scripts/bench_first_run.py [--keep DIR]

Makes a venv (with the system's site packages, so numpy and numba need no
download: the install is `pip install -e . --no-deps`), then runs, each
with a numba cache of its own that starts empty (NUMBA_CACHE_DIR), the
README's first build, `bactree build --objective worst-case`, and
`bactree build -n 3`, each once cold and once more warm. The trees are
written to the scratch folder, never over the checkout's. Prints wall
seconds, CPU seconds and peak memory (from /usr/bin/time -v) against the
targets (cold: 30 s and 15 s on a 2-core machine) and the load average,
since the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [  # (name, arguments, cold target in seconds)
    ("build --objective worst-case", ["build", "--objective", "worst-case", "-q"], 30.0),
    ("build -n 3", ["build", "-n", "3", "-q"], 15.0),
]


def make_venv(where: Path) -> Path:
    """A venv at `where` with bactree installed editable from this checkout; its `bactree` script."""
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(where)], check=True)
    python = where / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "-e", str(ROOT)],
                               capture_output=True, text=True)
    if installed.returncode != 0:
        sys.exit(f"Error: pip install -e . failed:\n{installed.stderr}")
    found = subprocess.run([str(python), "-c", "import bactree; print(bactree.__file__)"], check=True,
                           capture_output=True, text=True).stdout.strip()
    if not found.startswith(str(ROOT)):
        sys.exit(f"Error: the venv imports bactree from {found}, not from {ROOT}")
    return where / "bin" / "bactree"


def timed_run(command: list[str], cache: Path, cwd: Path) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak MB, standard error) of `command` run with `cache` as numba's cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("PYTHONPATH", None)
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", *command], cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"Error: {' '.join(command)} failed:\n{done.stderr}")
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", done.stderr).group(1))
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", done.stderr).group(1))
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)) / 1024
    own = done.stderr.split("\tCommand being timed")[0].strip()
    return wall, user + system, peak, own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="make the venv and caches here and keep them (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bactree-first-run-") as scratch:
        base = args.keep or Path(scratch)
        base.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        script = make_venv(base / "venv")
        print(f"venv and pip install -e . --no-deps: {time.perf_counter() - started:.1f} s")
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for at, (name, arguments, target) in enumerate(CASES):
            cache = base / f"numba-cache-{at}"
            command = [str(script), *arguments, "-o", str(base / f"tree-{at}.json")]
            for state in ("cold", "warm"):
                wall, cpu, peak, said = timed_run(command, cache, base)
                goal = f"  target {target:.0f} s" if state == "cold" else ""
                print(f"{name:<30} {state}: wall {wall:6.1f} s  CPU {cpu:6.1f} s  peak {peak:5.0f} MB{goal}")
                notice = [line for line in said.splitlines() if line.startswith("bactree: compiling")]
                print(f"{'':<30} notice: {'yes' if notice else 'no'}")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
