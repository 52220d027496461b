"""A tiny code-maker program for `bactree crack --oracle-cmd`: it holds KEY and answers guesses.

Reads one guess per line (n characters, UTF-8) and prints `BULLS COWS`,
cows as Mastermind's white pegs.

Usage: python scripts/codemaker.py KEY
"""

from __future__ import annotations

import sys
from collections import Counter


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__.strip().splitlines()[-1].strip())  # the usage line, exit status 1
    key = sys.argv[1]
    key_counts = Counter(key)
    for line in sys.stdin:
        guess = line.rstrip("\n")
        bulls = sum(g == k for g, k in zip(guess, key))
        common = sum(min(count, key_counts[symbol]) for symbol, count in Counter(guess).items())
        print(f"{bulls} {common - bulls}", flush=True)


if __name__ == "__main__":
    main()
