"""Measure how often a least-height search meets the same sets again: exactly, up to symmetry, or as supersets of a refuted set.

Usage:
  python scripts/probe_recurrence.py [-n 5] [--symbols 0123456789] --path PATH --left D [--start I] [--count N]

It replays `probe_height.py decide` on the set PATH leaves (same PATH
syntax, same guess order): each of the guesses from I decided exactly, its
parts largest first, each part searched with D - 1 guesses left by the
kernels, until one part has no tree. Every set the kernels are asked about
with three guesses left is recorded, and the script prints:

- how many of them recur byte for byte (a history-free memo would answer
  them at once);
- how many share a symmetry invariant with an earlier one (the sorted
  multiset, over the set's secrets, of the sorted answers each gives the
  others: equal for sets that are images of one another under the game's
  relabellings of symbols and positions, so an upper bound on recurrence
  up to symmetry);
- with `--cores`, how many contain a *failing core* of an earlier refuted set: a subset
  that has no tree within three guesses either, built while refuting it
  (for every guess, one part that two guesses cannot solve, chosen to add
  the fewest secrets). A set that contains a refuted core is refuted too
  (a superset is never easier when any code may be guessed), so a store of
  cores answers these sets without a search.

Images are confirmed by an explicit map (`_set_maps`). With `--cores`
it also builds the cores (twice the time) and checks every core hit
against the kernel's own verdict (an assertion), so the counts are of
sound refutations. `--set-symmetry` takes the guesses as `probe_height.py
--set-symmetry` does.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import numpy as np
from numba import njit

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from probe_height import ordered_guesses, probed_set  # noqa: E402

from bactree.game import make_game  # noqa: E402
from bactree.search import Solver  # noqa: E402
from bactree.search.height._finder_kernels import _three_left_guess  # noqa: E402
from bactree.search.height._separator_kernels import _separating_guess  # noqa: E402
from bactree.search._symmetry import _set_maps  # noqa: E402
from bactree.search.height.screens import NO_CLASSES  # noqa: E402


@njit(cache=True)
def _three_left_core(table, subset, solved, num_slots, limit):
    """(a guess after which two guesses solve every part of `subset`, or -1; a failing core when -1).

    Every code is tried as a guess. For each, a part that two guesses cannot
    solve is chosen (a part of more than `limit` secrets, of which `limit`
    + 1 suffice, or one no guess separates), preferring the part that adds
    the fewest secrets to the core; the core is the union of the chosen
    parts, so each guess leaves it a part two guesses cannot solve.
    """
    s = subset.shape[0]
    num_codes = table.shape[1]
    in_core = np.zeros(num_codes, np.bool_)
    core = np.empty(s, np.int64)
    size = 0
    counts = np.zeros(num_slots, np.int64)
    old = np.zeros(num_slots, np.int64)
    starts = np.zeros(num_slots + 1, np.int64)
    fill = np.zeros(num_slots, np.int64)
    ordered = np.empty(s, np.int64)
    cost = np.zeros(num_slots, np.int64)
    for g in range(num_codes):
        row = table[g]
        counts[:] = 0
        old[:] = 0
        for x in subset:
            counts[row[x]] += 1
            if in_core[x]:
                old[row[x]] += 1
        for a in range(num_slots):
            starts[a + 1] = starts[a] + counts[a]
            fill[a] = starts[a]
        for x in subset:
            a = row[x]
            ordered[fill[a]] = x
            fill[a] += 1
        # The secrets each part would add: an oversized part needs only limit + 1, old ones first.
        for a in range(num_slots):
            if a == solved or counts[a] < 3:
                cost[a] = 1 << 40
            elif counts[a] > limit:
                cost[a] = max(0, limit + 1 - old[a])
            else:
                cost[a] = counts[a] - old[a]
        chosen = -1
        for a in np.argsort(cost, kind="mergesort"):
            if cost[a] >= 1 << 40:
                break
            part = ordered[starts[a]:starts[a + 1]]
            if counts[a] > limit or _separating_guess(table, part, False) < 0:
                chosen = a
                break
        if chosen < 0:
            return g, core[:0]
        part = ordered[starts[chosen]:starts[chosen + 1]]
        need = cost[chosen]
        for x in part:
            if need == 0:
                break
            if not in_core[x]:
                in_core[x] = True
                core[size] = x
                size += 1
                need -= 1
    return -1, np.sort(core[:size])


@njit(cache=True)
def _contains_core(member, cores, starts, upto):
    """Index of the first of the first `upto` cores (concatenated in `cores`, bounded by `starts`) inside the set `member` marks, or -1."""
    for c in range(upto):
        inside = True
        for i in range(starts[c], starts[c + 1]):
            if not member[cores[i]]:
                inside = False
                break
        if inside:
            return c
    return -1


def invariant(table: np.ndarray, subset: np.ndarray) -> bytes:
    """A symmetry invariant of a set: the sorted rows of its sorted pairwise answers."""
    block = np.sort(table[np.ix_(subset, subset)], axis=1)
    return np.ascontiguousarray(block[np.lexsort(block.T[::-1])]).tobytes()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int, default=5)
    parser.add_argument("--symbols", default=None)
    parser.add_argument("--path", required=True)
    parser.add_argument("--left", type=int, required=True)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--set-symmetry", action="store_true", help="one guess of each orbit under the set's symmetries")
    parser.add_argument("--cores", action="store_true", help="also build failing cores and count supersets of them")
    args = parser.parse_args(argv)
    if args.left != 4:
        sys.exit("Error: --left 4 only (the parts are then searched with three guesses left)")
    game = make_game(args.game, args.length, args.symbols)
    solver = Solver(game)
    subset, history = probed_set(solver, args.path)
    ranked = ordered_guesses(solver, subset, history, args.left, False, args.set_symmetry)
    table, solved, slots, limit = solver.table, solver.solved, solver.num_slots, int(solver.caps[2])
    limits = solver.count_caps(2)
    print(f"{len(subset)} secrets after {' '.join(game.codes[g] for g in history)}; "
          f"guesses {args.start} to {args.start + args.count - 1} of {len(ranked)}", flush=True)
    exact: Counter[bytes] = Counter()
    shapes: dict[bytes, list[np.ndarray]] = {}
    alike = isomorphic = asked = refuted = 0
    kernel_s = repeat_s = core_s = 0.0
    core_list: list[np.ndarray] = []
    core_hits = 0
    member = np.zeros(solver.num_codes, np.bool_)
    for index in range(args.start, min(len(ranked), args.start + args.count)):
        guess = ranked[index]
        for part in sorted(solver.split(subset, guess), key=len, reverse=True):
            if len(part) < 3:
                break
            asked += 1
            exact[part.tobytes()] += 1
            member[:] = False
            member[part] = True
            began = time.process_time()
            works, _ = _three_left_guess(table, part, solved, slots, *limits, solver.arrangements, False, -1, solver.cores.arrays(), NO_CLASSES)
            spent = time.process_time() - began
            kernel_s += spent
            earlier = shapes.setdefault(invariant(table, part), [])
            alike += bool(earlier)
            if any(
                len(_set_maps(solver.codes, other, part, member, solver.perms, game.num_symbols, solver.index_of(),
                              1 << 16, 1)[0])
                for other in earlier
            ):
                isomorphic += 1
                repeat_s += spent
            earlier.append(part)
            if args.cores:
                flat = np.concatenate(core_list) if core_list else np.zeros(0, np.int64)
                bounds = np.cumsum([0] + [len(c) for c in core_list])
                if _contains_core(member, flat, bounds, len(core_list)) >= 0:
                    assert works < 0, "a set holding a refuted core was solved: the store would be unsound"
                    core_hits += 1
                began = time.process_time()
                found, core = _three_left_core(table, part, solved, slots, limit)
                core_s += time.process_time() - began
                assert (found < 0) == (works < 0), (index, found, works)
                if found < 0:
                    core_list.append(core)
            if works < 0:
                refuted += 1
                break
    repeats = sum(n - 1 for n in exact.values())
    print(f"sets asked with 3 left: {asked}; refuted {refuted}")
    print(f"byte-for-byte repeats: {repeats}; same symmetry invariant as an earlier set: {alike}; "
          f"an image of an earlier set: {isomorphic}")
    print(f"CPU: kernel {kernel_s:.1f}s, of it on images of earlier sets {repeat_s:.1f}s")
    if args.cores:
        sizes = [len(c) for c in core_list]
        print(f"inside an earlier refuted core: {core_hits} of {refuted} refuted sets; core sizes: median "
              f"{int(np.median(sizes)) if sizes else 0}, max {max(sizes, default=0)}; core kernel {core_s:.1f}s CPU")


if __name__ == "__main__":
    main()
