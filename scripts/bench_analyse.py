"""Time `bactree.coach.analysis` and `review` against the issue's targets; prints wall and CPU seconds per case.

    python scripts/bench_analyse.py [--samples N] [--seed S]
    python scripts/bench_analyse.py --worst-case [--samples N] [--seed S] [--seconds T]
    python scripts/bench_analyse.py --commands [--repeat N]

--commands times whole `bactree analyse` processes with /usr/bin/time -v
(medians of N runs, 3 by default: wall and CPU seconds, peak memory)
against issue 60's targets: the docs' 4 of 10 position, once with an empty
numba cache (its compile must not eat the time limit: the values come out
exact) and once warm; 5 of 10 at the start and after one guess (`--seconds
1`: within 2 s and 1 GB); and Mastermind 5x8 after one guess (`--seconds
2`: within 5 s and 2 GB; `--seconds 4`: within 7 s). Pause other work on
the machine first: its figures are walls.

4 of 10 (expected): every position after the first guess 0123, positions
after two guesses (the second at random), a review of a game of 7 moves;
Mastermind 4x6: positions after 0 to 2 random guesses. Each row says how
many analyses came out exact (the rest gave proven bounds at the time limit).
One process: the numba kernels load once, before the clock starts.

--worst-case compares the worst-case objective with and without the shipped
worst-case trees (their subtree heights bound the least height from above,
exact at the root) at positions along the tree's own guesses: the root,
after one and after two of its guesses, for 4 of 10 (free and hard) and
Mastermind 4x6. Each analysis has a fresh engine (no memo carried over).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bactree.coach import analyse
from bactree.coach import read_history
from bactree.coach.analysis import analyse_position, engine
from bactree.coach.engine import WORST_CASE, Engine
from bactree.coach.review import review
from bactree.coach.tree_values import TreeValues
from bactree.game import preset


def timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def row(name: str, runs: list[tuple[bool, float, float]], target: float) -> None:
    exact = sum(r[0] for r in runs)
    walls = [r[1] for r in runs]
    cpus = [r[2] for r in runs]
    print(f"{name:<44} {len(runs):>3} {exact:>5}  wall median {statistics.median(walls):6.2f} max {max(walls):6.2f}  "
          f"CPU median {statistics.median(cpus):6.2f} max {max(cpus):6.2f}  target {target} s")


def random_history(game, rng: random.Random, guesses: int) -> list[str]:
    secret = rng.choice(game.codes)
    history = []
    for _ in range(guesses):
        guess = rng.choice(game.codes)
        if guess == secret:
            continue
        history.append(f"{guess}={game.score(guess, secret)}")
    return history


def seven_moves(game, rng: random.Random) -> list[str]:
    """A game of at least 7 moves: each guess a random code of the still-possible ones, or any code early on."""
    while True:
        secret, left, moves = rng.choice(game.codes), list(game.codes), []
        while True:
            guess = rng.choice(left) if len(moves) >= 2 else rng.choice(game.codes)
            answer = game.score(guess, secret)
            moves.append(f"{guess}={answer}")
            if answer == game.solved:
                break
            left = [c for c in left if game.score(guess, c) == answer]
        if len(moves) >= 7:
            return moves


def along_tree(tree: TreeValues, rng: random.Random, guesses: int) -> list[str]:
    """The first `guesses` moves the tree makes for a random secret (fewer if it finds the secret sooner)."""
    game, node = tree.game, tree.tree.root
    secret, history = rng.choice(game.codes), []
    for _ in range(guesses):
        answer = game.score(node["guess"], secret)
        if answer == game.solved:
            break
        history.append(f"{node['guess']}={answer}")
        node = node["next"][str(answer)]
    return history


def worst_case(samples: int, rng: random.Random, seconds: float) -> None:
    """Worst case with the shipped tree's bounds and without, on the same positions."""
    print(f"{'case':<44} {'n':>3} {'exact':>5}")
    for game, hard in ((preset("bulls-cows"), False), (preset("bulls-cows"), True), (preset("mastermind"), False)):
        tree = TreeValues.shipped(game, hard, WORST_CASE)
        assert tree is not None
        Engine(game, WORST_CASE, hard)  # kernels compiled or loaded before timing
        for count in (0, 1, 2):
            histories = [along_tree(tree, rng, count) for _ in range(1 if count == 0 else samples)]
            for source in (tree, None):
                runs = []
                for history in histories:
                    found = Engine(game, WORST_CASE, hard, source)
                    position = read_history(game, history)
                    result, wall, cpu = timed(lambda: analyse_position(position, 1, None, WORST_CASE, hard, seconds, found))
                    runs.append((result.complete, wall, cpu))
                name = f"{game.length}x{game.num_symbols}{' hard' if hard else ''}, {count} on tree, {'tree' if source else 'search'}"
                row(name, runs, seconds)


COMMANDS = [  # (name, analyse's arguments, cold cache?, target wall s, target peak MB)
    ("4x10 docs' position, empty numba cache", ["0123=0B2C", "4567=1B0C", "--guess", "1456"], True, None, None),
    ("4x10 docs' position", ["0123=0B2C", "4567=1B0C", "--guess", "1456"], False, 4.0 + 1, None),
    ("5x10 at the start, --top 2 --seconds 1", ["-n", "5", "--top", "2", "--seconds", "1"], False, 2.0, 1024),
    ("5x10 after 01234=0B2C, --seconds 1", ["-n", "5", "--seconds", "1", "01234=0B2C"], False, 1.0 + 1, 1024),
    ("5x10 after 01234=0B2C, --top 2 --seconds 1", ["-n", "5", "--top", "2", "--seconds", "1", "01234=0B2C"], False,
     2.0, 1024),
    ("Mastermind 5x8 after 11223=1B1C, --seconds 2",
     ["--game", "mastermind", "-n", "5", "--symbols", "12345678", "--seconds", "2", "11223=1B1C"], False, 2.0 + 3, 2048),
    ("Mastermind 5x8 after 11223=1B1C", ["--game", "mastermind", "-n", "5", "--symbols", "12345678", "11223=1B1C"],
     False, 4.0 + 3, 2048),
]


def timed_process(arguments: list[str], env: dict[str, str]) -> tuple[float, float, float, str, int]:
    """(wall s, CPU s, peak MB, the Values line, exit code) of one `bactree analyse` process under /usr/bin/time -v."""
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "bactree", "analyse", *arguments],
                          env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start

    def field(name: str) -> float:
        return float(re.search(rf"{re.escape(name)}: ([\d.]+)", done.stderr).group(1))

    cpu = field("User time (seconds)") + field("System time (seconds)")
    peak = field("Maximum resident set size (kbytes)") / 1024
    values = next((line for line in done.stdout.splitlines() if line.startswith("Values:")), "no values line")
    return wall, cpu, peak, values, done.returncode


def commands(repeat: int) -> None:
    """Whole `bactree analyse` processes of this checkout: medians of `repeat` runs of wall, CPU and peak memory, and
    how exact the values came out (the cold-cache case runs once)."""
    root = Path(__file__).resolve().parent.parent
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="bactree-cold-cache-") as cold:
        for name, arguments, empty_cache, wall_target, memory_target in COMMANDS:
            env = dict(os.environ, PYTHONPATH=str(root))
            if empty_cache:
                env["NUMBA_CACHE_DIR"] = cold
            runs = [timed_process(arguments, env) for _ in range(1 if empty_cache else repeat)]
            wall, cpu, peak = (statistics.median(r[i] for r in runs) for i in range(3))
            targets = " ".join(t for t in (wall_target and f"{wall_target:.0f} s", memory_target and f"{memory_target} MB")
                               if t)
            print(f"{name:<46} n {len(runs)}  wall {wall:5.2f} s  CPU {cpu:5.2f} s  peak {peak:5.0f} MB  "
                  f"target {targets or 'exact'}  exit {max(r[4] for r in runs)}")
            print(f"{'':<46} {runs[-1][3]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worst-case", action="store_true", help="the worst case with the shipped trees and without")
    parser.add_argument("--seconds", type=float, default=4.0, help="time limit an analysis (--worst-case)")
    parser.add_argument("--commands", action="store_true", help="whole analyse processes against issue 60's targets")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (--commands): medians")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.commands:
        commands(args.repeat)
        return
    if args.worst_case:
        worst_case(args.samples, rng, args.seconds)
        return
    bulls, mastermind = preset("bulls-cows"), preset("mastermind")
    for game in (bulls, mastermind):
        engine(game)  # tables, kernels and tree loaded before timing
        analyse(game, [f"{game.codes[1]}={game.score(game.codes[1], game.codes[-1])}"], seconds=1.0)
    print(f"{'case':<44} {'n':>3} {'exact':>5}")
    answers = sorted({bulls.score("0123", s) for s in bulls.codes} - {bulls.solved})
    runs = []
    for answer in answers:
        result, wall, cpu = timed(lambda: analyse(bulls, [f"0123={answer}"]))
        runs.append((result.complete, wall, cpu))
    row("4x10 expected, after one guess (every answer)", runs, 5)
    runs = []
    for _ in range(args.samples):
        history = random_history(bulls, rng, 2)
        result, wall, cpu = timed(lambda: analyse(bulls, history, seconds=0.5))
        runs.append((result.complete, wall, cpu))
    row("4x10 expected, after two random guesses", runs, 0.5)
    runs = []
    for _ in range(max(1, args.samples // 5)):
        moves = seven_moves(bulls, rng)
        result, wall, cpu = timed(lambda: review(bulls, moves))
        runs.append((result.complete, wall, cpu))
    row("4x10 expected, review of 7+ moves", runs, 20)
    for count in (0, 1, 2):
        runs = []
        for _ in range(args.samples):
            history = random_history(mastermind, rng, count)
            result, wall, cpu = timed(lambda: analyse(mastermind, history, seconds=2.0))
            runs.append((result.complete, wall, cpu))
        row(f"Mastermind 4x6 expected, after {count} random guesses", runs, 2)


if __name__ == "__main__":
    main()
