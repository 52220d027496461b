"""Time the least-height certificates: writing each shipped one, checking it, and the checker's tables alone.

Usage:
  python scripts/bench_certify.py [--runs 3] [FILE ...]       # certificates/*-height.json by default
  python scripts/bench_certify.py --board -n 5 --symbols 01234567 [--depth 5]

For each certificate: its bytes, nodes and entries, the median CPU seconds
of writing it again (`scripts/write_certificate.py`, the search's tables
and class bounds included) and of checking it (`bactree.certify.check`,
the checker's table and bounds included), each in a fresh process, and
the most memory such a process held (its peak resident set, the largest
of the runs). With
`--board`, for one game: the checker's answer table alone, its `Board`
(the table again and the joint counts) and the class bounds up to
`--depth`, timed apart: what checking a certificate of a
larger game costs before its first node.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WRITE = """
import resource, sys, time
sys.path.insert(0, {scripts!r})
from write_certificate import Writer
from bactree.game import make_game
began = time.process_time()
Writer(make_game({name!r}, length={length}, symbols={symbols!r})).certificate({depth})
print(time.process_time() - began, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

CHECK = """
import resource, time
from pathlib import Path
from bactree import certify
began = time.process_time()
certify.check(certify.load(Path({path!r})))
print(time.process_time() - began, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

BOARD = """
import time
from bactree import certify
game = certify.Game({length}, {symbols!r}, {repeats})
began = time.process_time()
codes = certify.Board.code_rows(game)
certify.answer_table(game, codes)
table = time.process_time()
board = certify.Board(game)
built = time.process_time()
board.cap({depth})
print(table - began, built - table, time.process_time() - built)
"""


def child_seconds(code: str) -> list[float]:
    """The figures a child process prints on its last line."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return [float(x) for x in done.stdout.split()[-3:]]


def peak_mb(runs: list[list[float]]) -> int:
    """The largest peak resident set of the runs (`ru_maxrss`, kilobytes on Linux), in megabytes."""
    return round(max(run[1] for run in runs) / 1024)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--board", action="store_true")
    parser.add_argument("-n", "--length", type=int, default=4)
    parser.add_argument("--symbols", default="0123456789")
    parser.add_argument("--repeats", action="store_true")
    parser.add_argument("--depth", type=int, default=5)
    args = parser.parse_args(argv)
    if args.board:
        code = BOARD.format(length=args.length, symbols=args.symbols, repeats=args.repeats, depth=args.depth)
        runs = [child_seconds(code) for _ in range(args.runs)]
        table, joint, caps = (statistics.median(run[i] for run in runs) for i in range(3))
        print(f"{args.length} of {args.symbols}: table {table:.2f}s, board (table and joint counts) {joint:.2f}s, "
              f"bounds to {args.depth} {caps:.2f}s CPU (medians of {args.runs})")
        return 0
    for path in args.files or sorted((ROOT / "certificates").glob("*-height.json")):
        raw = json.loads(path.read_bytes())
        game = raw["game"]
        name = "mastermind" if game["repeats"] else "bulls-cows"
        write = WRITE.format(scripts=str(ROOT / "scripts"), name=name, length=game["length"], symbols=game["symbols"],
                             depth=raw["guesses"])
        writes = [child_seconds(write)[-2:] for _ in range(args.runs)]
        checks = [child_seconds(CHECK.format(path=str(path)))[-2:] for _ in range(args.runs)]
        entries = sum(len(node.get("refuted", [])) for node in raw["nodes"])
        wrote, checked = (f"{statistics.median(run[0] for run in runs):.2f}s ({peak_mb(runs):,} MB peak)"
                          for runs in (writes, checks))
        print(f"{path.name}: no tree within {raw['guesses']}; {path.stat().st_size:,} bytes, {len(raw['nodes'])} nodes, "
              f"{entries} entries; write {wrote}, check {checked} CPU (medians of {args.runs})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
