"""Benchmark of the long-key crackers on the paper's grid; prints a Markdown table, draws a plot.

Grid of Eisert, Mikula and Waigel: lengths 10 to 300, repeats with k = 37,
no repeats with k = max(37, n) (the fixed alphabet). Each cell cracks the
same random keys (fixed seeds) with every cracker; ga-woc, at about a
million questions a key, runs on a few cells with fewer keys, in the same
run. Seconds are CPU seconds of this process per key (one core).

Usage: python scripts/bench_crack.py [--keys 20] [--ga-keys 3] [--plot docs/crack-questions.png]
(the plot needs matplotlib: pip install -e '.[plot]'). One cell at more
effort, as in the effort table of docs/notes/crack.md:
python scripts/bench_crack.py --lengths 300 --games repeats --crackers best --effort 30
"""

from __future__ import annotations

import argparse
import math
import resource
import time

import numpy as np

from bactree.crack import FIXED_ALPHABET, Puzzle, SecretOracle, make_cracker

LENGTHS = (10, 25, 50, 100, 150, 200, 250, 300)
BENCHED = ("best", "count-split", "ga-woc")  # the crackers of the table (the others are parts of best)
GA_CELLS = {(10, True), (50, True), (100, True), (300, True), (10, False), (50, False), (300, False)}


def el_ouali_bound(n: int) -> int:
    """El Ouali, Glazik, Sauerland and Srivastav (2018): (n-3)ceil(log2 n) + 5n/2 - 1 questions for k = n."""
    return (n - 3) * math.ceil(math.log2(n)) + math.ceil(5 * n / 2) - 1


def run_cell(puzzle: Puzzle, name: str, keys: int, cell_seed: int, effort: float = 1.0) -> dict:
    """Crack `keys` random keys of `puzzle` with cracker `name` at `effort`; the cell's figures."""
    cracker = make_cracker(name, effort=effort)
    queries, wrong, seconds = [], [], []
    for key in range(keys):
        secret = puzzle.random_code(np.random.default_rng([cell_seed, key]))
        oracle = SecretOracle(puzzle, secret)
        start = time.process_time()
        result = cracker(oracle, None)
        seconds.append(time.process_time() - start)
        queries.append(oracle.queries)
        wrong.append(int(np.count_nonzero(result.found != secret)))
    return {
        "mean": float(np.mean(queries)),
        "max": int(np.max(queries)),
        "exact": sum(w == 0 for w in wrong) / keys,
        "wrong": float(np.mean(wrong)) / puzzle.length,
        "seconds": float(np.mean(seconds)),
        "keys": keys,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--ga-keys", type=int, default=3)
    parser.add_argument("--lengths", type=int, nargs="*", default=list(LENGTHS))
    parser.add_argument("--plot", default=None)
    parser.add_argument("--games", choices=("both", "repeats", "no-repeats"), default="both")
    parser.add_argument("--crackers", nargs="*", choices=BENCHED, default=list(BENCHED))
    parser.add_argument("--effort", type=float, default=1.0, help="the effort of best (count-split and ga-woc have none)")
    args = parser.parse_args()
    games = {"both": (True, False), "repeats": (True,), "no-repeats": (False,)}[args.games]
    make_cracker("best")(SecretOracle(Puzzle(5, "abc", True), np.zeros(5, dtype=np.int64)), None)  # compile
    rows = []
    print("| game | n | k | cracker | keys | mean questions | max | exact | positions wrong | s/key | lower bound |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for repeats in games:
        for n in args.lengths:
            k = 37 if repeats else max(37, n)
            puzzle = Puzzle(n, FIXED_ALPHABET[:k], repeats)
            cell_seed = n * 2 + repeats
            for name in (name for name in BENCHED if name in args.crackers and (name != "ga-woc" or (n, repeats) in GA_CELLS)):
                keys = args.ga_keys if name == "ga-woc" else args.keys
                figures = run_cell(puzzle, name, keys, cell_seed, args.effort if name == "best" else 1.0)
                rows.append((repeats, n, k, name, figures, puzzle.lower_bound()))
                game = "repeats" if repeats else "no repeats"
                bound = f"{puzzle.lower_bound()}" + (f" (El Ouali: {el_ouali_bound(n)})" if not repeats and k == n else "")
                print(
                    f"| {game} | {n} | {k} | {name} | {keys} | {figures['mean']:.1f} | {figures['max']} | "
                    f"{figures['exact']:.0%} | {figures['wrong']:.1%} | {figures['seconds']:.3f} | {bound} |",
                    flush=True,
                )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory {peak:.0f} MB")
    if args.plot:
        plot(rows, args.plot)


def plot(rows: list, path: str) -> None:
    """Questions against length, log scale: one line per cracker and game, and the lower bounds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for repeats, style in ((True, "-"), (False, "--")):
        game = "repeats, k=37" if repeats else "no repeats, k=max(37,n)"
        for name, color in (("best", "C0"), ("count-split", "C1"), ("ga-woc", "C2")):
            points = [(n, f["mean"]) for r, n, _, c, f, _ in rows if r == repeats and c == name]
            if points:
                ax.plot(*zip(*points), style, marker="o", color=color, label=f"{name} ({game})")
        bound = [(n, lb) for r, n, _, c, _, lb in rows if r == repeats and c == "best"]
        ax.plot(*zip(*bound), style, color="grey", label=f"counting lower bound ({game})")
    ax.set_yscale("log")
    ax.set_xlabel("key length n")
    ax.set_ylabel("questions per key (mean)")
    ax.set_title("Cracking long keys: questions per key")
    ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.12))  # below: no line hidden
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
