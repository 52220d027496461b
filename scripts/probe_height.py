"""Probe a set where a least-height search is stuck: its guesses ranked with one guess of lookahead, or each decided exactly.

Usage:
  python scripts/probe_height.py [-n 5] [--symbols 0123456789] [--game bulls-cows] --path PATH [--by-lookahead] rank --left D [--top K]
  python scripts/probe_height.py ... --path PATH [--by-lookahead] [--store FILE [--store-min-depth K]] decide --left D
                                  [--start I] [--count N]
  python scripts/probe_height.py ... --path PATH sample --left D [--count N] [--seed S] [--run K]

The set probed is what the guesses of PATH leave: PATH is comma-separated
guesses, each CODE/ANSWER (the part of that answer) or CODE alone (its
largest part, the lowest answer on ties), e.g. `01234/0B2C,15367,50642`;
an empty PATH (`--path ''`) probes the whole game, its first guesses.
Guesses are the set's canonical ones (one per symmetry class of the
history) whose parts fit the guesses left, best first as `TreeFinder`
ranks them (largest part, then sum of squared part sizes, then
still-possible, then lowest code).

`rank` prints, for the best K guesses, their part sizes and one guess of
lookahead: over the guess's parts, the largest of the least largest part a
next guess can leave (so what the guess after next must still solve).
With `--by-lookahead` both commands take the guesses by that figure first
(the finder's order on ties): a ranking with one guess of lookahead. With
`--set-symmetry` only one guess of each orbit under the set's own
symmetries is kept (`Solver.set_canonical_guesses`; the order stays), as
the exhaustive search does: every other guess splits the set as one of
them does, up to a relabelling, so `decide` is exact on them alone.

`decide` decides each guess in that order, exactly (a part over its answer
class's bound, `Solver.over_class_cap`, or else `Solver.find_guess`, every
guess tried below it): whether it starts a tree solving the set
within D guesses, or which part (largest first) has no tree within D - 1.
Lines are deterministic; `--start` and `--count` split a long run, and when
the last guess is decided and none works, the set is refuted within D (and
added to the store, if one is named, for a build to find: `bactree build
--refutations FILE`).
Timings go to stderr (for `decide`, each guess's CPU seconds, to
estimate what a whole refutation costs). `--store PATH` loads the sets
refuted so far from PATH if it exists (repeat it to merge the stores of
several runs) and `decide` saves the refutations it holds to the first
PATH every 5 minutes and when it ends, even by Ctrl-C or SIGTERM
(`bactree.search.height.refutations.kept_in`): a run stopped, or split with
`--start`/`--count` over processes or sessions, refutes no set twice.
`--store-min-depth K` saves only refutations within K or more guesses
(4: none of the kernel's, which come by thousands a minute).

`sample` measures what refuting D for the set would cost two guesses
further down, where the work is: a refutation must show, for every
canonical guess of the set (with `--set-symmetry`, of the set's own
symmetries) and every canonical next guess on its largest part, that some
part of that next guess has no tree within D - 2. It counts those pairs
of guesses, draws N of them at random (`--seed`), decides each (its parts
largest first, as `decide` does, until one fails) and prints each one's
CPU seconds, then their mean and median and the mean times the count: a
projection of the whole refutation's CPU from a measured sample. One
solver decides them all, so what it learns (its cores, its memo) carries
from one to the next, as it would in a whole run. Pairs drawn at random
rarely share a second guess, while a whole run decides a second guess's
next guesses one after another, best first, and neighbours in that order
split the part much alike: with `--run K` the sample is N/K runs of K
pairs in a row from a random start, each run in a fresh solver, so the
projection counts what neighbours spare each other (and, a fresh solver
per run, still less than a whole run would).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import time
from pathlib import Path

import numpy as np

from bactree.game import _answer_kernels as code_kernels
from bactree.game import BactreeError, Game, make_game
from bactree.search import Solver, TreeFinder
from bactree.search.height.refutations import kept_in


def probed_set(solver: Solver, path: str) -> tuple[np.ndarray, tuple[int, ...]]:
    """(the secrets the guesses of `path` leave, the guesses), as the module's docstring says."""
    game = solver.game
    subset, history = solver.all_guesses, ()
    for step in path.split(",") if path else ():
        code, _, answer = step.strip().partition("/")
        guess = game.code_index[game.parse_code(code)]
        parts = solver.split(subset, guess)
        if answer:
            wanted = game.parse_answer(answer)
            parts = [part for part in parts if solver.answer_to(guess, part) == wanted]
            if not parts:
                raise BactreeError(f"no secret left gives {answer} to {code}")
        if not parts:
            raise BactreeError(f"{code} solves the set: nothing left to probe")
        subset = max(parts, key=len)  # the first of the largest: lowest answer slot on ties
        history = history + (guess,)
    return subset, history


def least_largest(solver: Solver, part: np.ndarray) -> int:
    """The least, over every guess, of the largest part a guess leaves of `part`.

    Every guess, not the canonical ones: the least is the same (the
    stabiliser of the part's history maps the part onto itself), and
    finding the canonical guesses of each new history costs more than this.
    """
    counts = code_kernels._partition_counts(solver.by_secret, solver.all_guesses, part, solver.num_slots)
    counts[:, solver.solved] = 0
    return int(counts.max(axis=1).min())


def lookahead(solver: Solver, subset: np.ndarray, guess: int) -> int:
    """Over the parts of more than two secrets that `guess` leaves, the largest of their `least_largest`."""
    return max((least_largest(solver, part) for part in solver.split(subset, guess) if len(part) > 2), default=0)


def ordered_guesses(
    solver: Solver, subset: np.ndarray, history: tuple[int, ...], left: int, by_lookahead: bool,
    set_symmetry: bool = False,
) -> list[int]:
    """The guesses probed, in `TreeFinder`'s order, or with `by_lookahead` by `lookahead` first (stable).

    With `set_symmetry`, only those least in their orbit under the set's own symmetries.
    """
    ranked = TreeFinder(solver).ranked_guesses(subset, left, history).tolist()
    if set_symmetry:
        kept = set(solver.set_canonical_guesses(subset, history).tolist())
        ranked = [guess for guess in ranked if guess in kept]
    if by_lookahead:
        ranked.sort(key=lambda guess: lookahead(solver, subset, guess))
    return ranked


def rank(
    solver: Solver, subset: np.ndarray, history: tuple[int, ...], left: int, top: int, by_lookahead: bool,
    set_symmetry: bool = False,
) -> None:
    codes = solver.game.codes
    for index, guess in enumerate(ordered_guesses(solver, subset, history, left, by_lookahead, set_symmetry)[:top]):
        sizes = sorted((len(part) for part in solver.split(subset, guess)), reverse=True)
        ahead = lookahead(solver, subset, guess)
        print(f"{index} {codes[guess]}: parts {' '.join(map(str, sizes))}; after the next guess at least {ahead}", flush=True)


def decide(
    solver: Solver, subset: np.ndarray, history: tuple[int, ...], left: int, start: int, count: int | None,
    by_lookahead: bool = False, set_symmetry: bool = False,
) -> bool:
    """Print each guess's outcome from `start`; True when a guess works."""
    codes = solver.game.codes
    ranked = ordered_guesses(solver, subset, history, left, by_lookahead, set_symmetry)
    stop = len(ranked) if count is None else min(len(ranked), start + count)
    with solver.screening(subset, left):  # as the search screens the parts of a set it decides
        for index in range(start, stop):
            began = time.process_time()
            guess = ranked[index]
            after = history + (guess,)
            parts = sorted(solver.split(subset, guess), key=len, reverse=True)
            failed = next((
                part for part in parts
                if solver.over_class_cap(guess, part, left - 1) or solver.find_guess(part, left - 1, after) < 0
            ), None)
            if failed is None:
                print(f"{index} {codes[guess]}: works", flush=True)
                return True
            print(f"{index} {codes[guess]}: largest {len(parts[0])}; {solver.answer_to(guess, failed)} "
                  f"({len(failed)} secrets) has no tree within {left - 1}", flush=True)
            print(f"{index}: {time.process_time() - began:.2f}s CPU", file=sys.stderr, flush=True)
    if stop == len(ranked):
        print(f"refuted: none of the {len(ranked)} guesses starts a tree within {left}")
        if not solver.refutations.refuted(subset, left):  # saved with the store: a build loading it finds the set refuted
            solver.refutations.add(subset, left)
    return False


def sample(
    solver: Solver, subset: np.ndarray, history: tuple[int, ...], left: int, count: int, seed: int,
    set_symmetry: bool = False, run: int = 1,
) -> None:
    """Decide `count` random pairs (a guess of the set, a next guess on its largest part) within `left`, or `count`
    // `run` runs of `run` pairs in a row, each run in a fresh solver; project the whole."""
    codes = solver.game.codes
    pairs = []
    for guess in ordered_guesses(solver, subset, history, left, False, set_symmetry):
        largest = max(solver.split(subset, guess), key=len)
        for after in ordered_guesses(solver, largest, history + (guess,), left - 1, False, set_symmetry):
            pairs.append((guess, after))
    print(f"{len(pairs)} pairs of guesses to refute", flush=True)
    rng = np.random.default_rng(seed)
    run = min(run, len(pairs))  # a run longer than the list is the whole list
    if run > 1:
        starts = rng.choice(len(pairs) - run + 1, max(1, count // run), replace=False)
        drawn = [int(start) + step for start in sorted(starts.tolist()) for step in range(run)]
    else:
        drawn = [int(index) for index in rng.choice(len(pairs), min(count, len(pairs)), replace=False)]
    spent = []
    for number, index in enumerate(drawn):
        if run > 1 and number % run == 0:
            solver = Solver(solver.game)
        guess, after = pairs[index]
        began = time.process_time()
        largest = max(solver.split(subset, guess), key=len)
        path = history + (guess, after)
        parts = sorted(solver.split(largest, after), key=len, reverse=True)
        failed = next((
            part for part in parts
            if solver.over_class_cap(after, part, left - 2) or solver.find_guess(part, left - 2, path) < 0
        ), None)
        spent.append(time.process_time() - began)
        outcome = "works" if failed is None else f"{len(failed)} secrets have no tree within {left - 2}"
        print(f"{codes[guess]},{codes[after]}: largest {len(parts[0])}; {outcome}; {spent[-1]:.2f}s CPU", flush=True)
        if run > 1 and number % run == run - 1:
            print(f"run of {run}: {sum(spent[-run:]):.1f}s CPU; {unsolved_line(solver)}", file=sys.stderr, flush=True)
    mean = float(np.mean(spent))
    print(f"{len(spent)} pairs: mean {mean:.2f}s, median {float(np.median(spent)):.2f}s CPU; "
          f"times {len(pairs)} pairs: {mean * len(pairs) / 3600:.1f} CPU hours", flush=True)


def unsolved_line(solver: Solver) -> str:
    """What the solver's store of sets three guesses do not solve spared: for the timings on stderr."""
    return (f"{solver.stats.unsolved_hits} sets refuted at once, holding one three guesses do not solve "
            f"({len(solver.unsolved)} such sets kept)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int, default=5)
    parser.add_argument("--symbols", default=None)
    parser.add_argument("--path", required=True, help="guesses CODE[/ANSWER], comma-separated; '' for the whole game")
    parser.add_argument("--by-lookahead", action="store_true", help="order guesses by the lookahead figure first")
    parser.add_argument("--set-symmetry", action="store_true", help="one guess of each orbit under the set's symmetries")
    parser.add_argument("--store", type=Path, action="append", default=[],
                        help="a refutation store to load (if it exists; repeat to merge several); decide saves to the first")
    parser.add_argument("--store-min-depth", type=int, default=1, metavar="K",
                        help="decide saves only refutations within K or more guesses (default: all)")
    commands = parser.add_subparsers(dest="command", required=True)
    ranking = commands.add_parser("rank")
    ranking.add_argument("--left", type=int, required=True, help="guesses left for the set")
    ranking.add_argument("--top", type=int, default=40)
    deciding = commands.add_parser("decide")
    deciding.add_argument("--left", type=int, required=True)
    deciding.add_argument("--start", type=int, default=0)
    deciding.add_argument("--count", type=int, default=None)
    sampling = commands.add_parser("sample")
    sampling.add_argument("--left", type=int, required=True, help="guesses left for the set")
    sampling.add_argument("--count", type=int, default=10, help="pairs of guesses decided")
    sampling.add_argument("--seed", type=int, default=0)
    sampling.add_argument("--run", type=int, default=1, metavar="K",
                          help="decide runs of K pairs in a row (the whole refutation's order), a fresh solver each")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        game: Game = make_game(args.game, args.length, args.symbols)
        solver = Solver(game)
        subset, history = probed_set(solver, args.path)
        for path in args.store[1:]:
            if path.exists():
                print(loaded_line(solver.refutations.load(path, game), path), file=sys.stderr, flush=True)
        with contextlib.ExitStack() as kept:
            if args.store and args.command == "decide":
                loaded = kept.enter_context(kept_in(solver.refutations, args.store[0], game, min_depth=args.store_min_depth))
                print(loaded_line(loaded, args.store[0]), file=sys.stderr, flush=True)
            elif args.store and args.store[0].exists():
                print(loaded_line(solver.refutations.load(args.store[0], game), args.store[0]), file=sys.stderr, flush=True)
            print(f"{len(subset)} secrets after {' '.join(game.codes[g] for g in history)}", flush=True)
            if args.command == "rank":
                rank(solver, subset, history, args.left, args.top, args.by_lookahead, args.set_symmetry)
            elif args.command == "sample":
                sample(solver, subset, history, args.left, args.count, args.seed, args.set_symmetry, args.run)
            else:
                decide(solver, subset, history, args.left, args.start, args.count, args.by_lookahead, args.set_symmetry)
            if args.command == "decide" or (args.command == "sample" and args.run == 1):
                print(unsolved_line(solver), file=sys.stderr, flush=True)
    except BactreeError as err:
        sys.exit(f"Error: {err}")
    print(f"{time.perf_counter() - began:.1f}s", file=sys.stderr)


def loaded_line(loaded: tuple[int, int], path: Path) -> str:
    """What a store's `load` took from `path`: refutations, and claims of other search code (which only steer)."""
    believed, claimed = loaded
    return f"loaded {believed} refutations from {path}" + (f" ({claimed} claims of other search code, which only steer)" if claimed else "")


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stop by SIGTERM saves the store as Ctrl-C does
    main()
