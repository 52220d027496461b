"""Benchmark the walker on a tree file (default: the shipped Bulls and Cows 4x10 worst-case tree).

Measures, as medians of several runs:
  - a fresh `python` process that imports bactree.walker, loads the tree and starts a walk (target < 150 ms wall),
    next to a bare `python -c pass` for the interpreter's own share;
  - playing every secret of the game through `Walk`, from a fresh `load_tree` (target < 1 s).

Usage: python scripts/bench_walker.py [TREE_FILE] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bactree.game import make_game
from bactree.walker import load_tree, shipped_tree_path

FRESH_LOAD = """
import time
began = time.perf_counter()
from bactree.walker import load_tree
walk = load_tree({path!r}).start()
assert walk.guess
print(time.perf_counter() - began)
"""


def process_seconds(argv: list[str]) -> tuple[float, str]:
    """Wall time of one process, and what it printed."""
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return time.perf_counter() - began, done.stdout


def replay_seconds(path: Path) -> float:
    """Load the tree afresh and play every secret through a Walk, checking each is found."""
    began = time.perf_counter()
    tree = load_tree(path)
    game = tree.game
    for secret in game.codes:
        walk = tree.start()
        while not walk.solved:
            answer = game.score(walk.guess, secret)
            walk.answer(answer.bulls, answer.cows)
        if walk.guess != secret:
            raise SystemExit(f"{path}: the walk for {secret} ended at {walk.guess}")
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree", nargs="?", type=Path, default=shipped_tree_path(make_game(), "worst-case"))
    parser.add_argument("--runs", type=int, default=7, help="runs per measurement (default 7)")
    args = parser.parse_args()
    if not args.tree.exists():
        print(f"missing tree file: {args.tree} (build it with `bactree build`, or pass a path)", file=sys.stderr)
        return 1
    path = args.tree.resolve()

    bare = [process_seconds([sys.executable, "-c", "pass"])[0] for _ in range(args.runs)]
    fresh, inside = [], []
    for _ in range(args.runs):
        wall, printed = process_seconds([sys.executable, "-c", FRESH_LOAD.format(path=str(path))])
        fresh.append(wall)
        inside.append(float(printed))
    replays = [replay_seconds(path) for _ in range(args.runs)]

    tree = load_tree(path)
    print(f"{path}: {tree.game}, {tree.stats['secrets']} secrets, {tree.stats['nodes']} nodes")
    print(f"medians of {args.runs} runs, Python {sys.version.split()[0]}")
    print(f"  python -c pass (interpreter alone)          {statistics.median(bare) * 1000:7.1f} ms wall")
    print(f"  fresh process: import, load_tree, start()   {statistics.median(fresh) * 1000:7.1f} ms wall (target < 150)")
    print(f"    of which import + load + start in-process {statistics.median(inside) * 1000:7.1f} ms")
    print(f"  load_tree + every secret through Walk       {statistics.median(replays) * 1000:7.1f} ms (target < 1000)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
