"""Run the README's test line on fresh clones, several times in a row, and count passes, failures and hangs.

Usage: python scripts/fresh_clone_suite.py [--runs 10] [--timeout 3600] [--commit HEAD] [--ci]

Each run does what a newcomer does: a new clone of this repository at
COMMIT in a temporary folder, a new virtual environment there, and the
second line of the README's first ```sh block (install the test extra, run
pytest) run by bash, exactly as written, with a cold numba cache. Without
`--ci` the environment has no CI variable, so hypothesis explores at random
as on a user's machine; `--ci` sets CI=true as `.ci/run` does. A run that
outlives TIMEOUT seconds counts as a hang (its process group is killed).
Prints one line per run (outcome, pytest's summary line, wall seconds) and
a summary. Run it at low priority on a shared machine: `nice -n 10`.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# pytest's last line, e.g. "1258 passed, 6 skipped in 430.12s (0:07:10)", bare under -q, else between ='s.
_SUMMARY = re.compile(r"^=* ?(\d+ (?:passed|failed|error).* in [\d.]+s(?: \([\d:]+\))?) ?=*$")


def readme_test_line() -> str:
    """The second line of the README's first ```sh block: the newcomer's test command."""
    lines: list[str] = []
    inside = False
    for line in (ROOT / "README.md").read_text().splitlines():
        if not inside and line.strip() == "```sh":
            inside = True
        elif inside and line.startswith("```"):
            break
        elif inside and line.strip():
            lines.append(line)
    if len(lines) < 2:
        sys.exit("Error: README.md's first ```sh block has no test line")
    return lines[1]


def one_run(commit: str, command: str, timeout: float, ci: bool) -> tuple[str, str, float]:
    """Clone, make a venv, run COMMAND; (outcome, pytest's summary line, wall seconds)."""
    with tempfile.TemporaryDirectory(prefix="bactree-fresh-") as folder:
        clone = Path(folder) / "bactree"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", commit], check=True)
        subprocess.run([sys.executable, "-m", "venv", str(Path(folder) / "venv")], check=True)
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV", "CI")}
        env["PATH"] = f"{Path(folder) / 'venv' / 'bin'}:{env['PATH']}"
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        if ci:
            env["CI"] = "true"
        began = time.perf_counter()
        process = subprocess.Popen(["bash", "-euo", "pipefail", "-c", command], cwd=clone, env=env, text=True,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            return "hang", "", time.perf_counter() - began
        seconds = time.perf_counter() - began
        summaries = [match.group(1) for line in output.splitlines() if (match := _SUMMARY.match(line.strip()))]
        summary = summaries[-1] if summaries else "(no pytest summary)"
        if process.returncode != 0:
            failed = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR"))]
            return f"failed ({process.returncode})", summary + "".join(f"\n    {line}" for line in failed), seconds
        return "passed", summary, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds before a run counts as hung")
    parser.add_argument("--commit", default="HEAD", help="the commit to clone (default: HEAD of this repository)")
    parser.add_argument("--ci", action="store_true", help="set CI=true (hypothesis replays fixed examples)")
    args = parser.parse_args()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", args.commit], check=True, capture_output=True,
                            text=True).stdout.strip()
    command = readme_test_line()
    print(f"{args.runs} fresh-clone runs of `{command}` at {commit[:10]}, CI {'set' if args.ci else 'unset'}",
          flush=True)
    outcomes: dict[str, int] = {}
    walls: list[float] = []
    for run in range(1, args.runs + 1):
        outcome, summary, seconds = one_run(commit, command, args.timeout, args.ci)
        walls.append(seconds)
        kind = outcome.split(" ")[0]
        outcomes[kind] = outcomes.get(kind, 0) + 1
        print(f"run {run}/{args.runs}: {outcome}, {summary}, {seconds:.0f} s wall", flush=True)
    print(f"{args.runs} runs: {outcomes.get('passed', 0)} passed, {outcomes.get('failed', 0)} failed, "
          f"{outcomes.get('hang', 0)} hangs; wall median {statistics.median(walls):.0f} s, "
          f"min {min(walls):.0f} s, max {max(walls):.0f} s")


if __name__ == "__main__":
    main()
