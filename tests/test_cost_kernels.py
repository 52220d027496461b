"""The kernels of the expected-length search against plain-Python references.

The fast scans read the answer table by secret, which is right only because
the table is symmetric; the bounds must never exceed the brute-force optimum,
and the values the kernels return as exact must equal it.
"""

from __future__ import annotations

import itertools

import naive
import naive_search
import numpy as np
import pytest
from game_strategies import small_games
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from naive_search import least_total

from bactree.game.codes import UNGROUPED, answer_table, encode_answer, grouped_answers, regroup_answers
from bactree.game import Game
from bactree.search import Solver, _partition_kernels
from bactree.search.cost import _base_kernels, _context, _cost_kernels
from bactree.search.cost.cost_model import NODES
from bactree.search import INFINITE, TOTAL_GUESSES, CostSearch, greedy_total, greedy_tree


TINY_GAMES = [Game(3, "0123", False), Game(2, "12345", False), Game(2, "123", True), Game(2, "1234", True)]


def search_for(game: Game, hard: bool = False) -> CostSearch:
    return CostSearch(Solver(game, hard=hard), TOTAL_GUESSES)


@settings(max_examples=40, deadline=None)
@given(small_games(max_codes=250))
def test_answer_table_is_symmetric(game: Game) -> None:
    """An answer does not depend on which code is the guess: the kernels read the table either way."""
    table = answer_table(game)
    assert np.array_equal(table, table.T)


@pytest.mark.parametrize("game", [Game(4, "0123456789", False), Game(4, "123456", True)], ids=["bulls-cows", "mastermind"])
def test_preset_answer_tables_are_symmetric(game: Game) -> None:
    table = answer_table(game)
    assert np.array_equal(table, table.T)


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_guess_bases_equal_reference(game: Game, data: st.DataObject) -> None:
    search = search_for(game)
    solver = search.solver
    size = len(game.codes)
    index = st.integers(0, size - 1)
    guesses = data.draw(st.lists(index, min_size=1, max_size=10))
    subset = sorted(data.draw(st.lists(index, min_size=1, max_size=size, unique=True)))
    sums, largest, hits = _partition_kernels._guess_bases(
        solver.by_secret, np.array(subset, np.int64), np.array(guesses, np.int64), solver.solved, solver.num_slots,
        search.part_floor_at(3), search.orbit_of,
    )
    counts = naive.partition_counts(game, guesses, subset)
    for j, guess in enumerate(guesses):
        row = counts[j].copy()
        solved_here = row[solver.solved] > 0
        row[solver.solved] = 0
        assert sums[j] == sum(part_floor(search, guess, a, c) for a, c in enumerate(row) if c > 0)
        assert largest[j] == row.max()
        assert hits[j] == solved_here


def part_floor(search: CostSearch, guess: int, answer: int, size: int) -> int:
    """The floor of a part of `size` secrets with `answer` to `guess`: `ClassCaps.floors` (tested against the brute force
    in test_class_caps) for its answer class, never below the level fill."""
    caps = search.solver.class_caps
    by_class = int(caps.floors(size)[caps.orbit_of[guess], answer, size])
    return max(by_class, naive_search.fill_floor(search.solver.game, size))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_popcount_counts_bits(value: int) -> None:
    assert _partition_kernels._popcount(np.uint64(value)) == bin(value).count("1")


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.lists(st.integers(0, 10**6), max_size=80), st.integers(0, 10**9))
def test_split_groups_by_answer_in_set_order(num_slots: int, picks: list[int], seed: int) -> None:
    """`_split` and `_split_into` (into arrays holding an earlier split) group a set by answer, keeping its order."""
    row = np.random.default_rng(seed).integers(0, num_slots, 300).astype(np.uint8)
    subset = np.array(sorted({p % 300 for p in picks}), np.int64)
    answers = row[subset]
    counts = np.bincount(answers, minlength=num_slots)
    expected = [x for a in range(num_slots) for x in subset[answers == a].tolist()]
    starts = np.concatenate([[0], np.cumsum(counts)])
    ordered, got_starts, got_counts = _partition_kernels._split(row, subset, num_slots)
    assert (ordered.tolist(), got_starts.tolist(), got_counts.tolist()) == (expected, starts.tolist(), counts.tolist())
    held = (np.full(len(subset), 7), np.full(num_slots + 1, 7), np.full(num_slots, 7))
    _partition_kernels._split_into(row, subset, *held)
    assert [a.tolist() for a in held] == [expected, starts.tolist(), counts.tolist()]


def most_answers_reference(game: Game, solver: Solver, subset: list[int], guesses: list[int]) -> int:
    """Over `guesses`: the most answers besides all-bulls a guess gets from `subset`, + 2 if it gets all-bulls."""
    counts = naive.partition_counts(game, guesses, subset)
    return max(
        int(np.count_nonzero(np.delete(row, solver.solved))) + 2 * int(row[solver.solved] > 0) for row in counts
    )


def check_most_answers(solver: Solver, subset: list[int], hard: bool, by_group: bool) -> None:
    """`_most_answers` against the reference over every code (in `hard` mode the set's own), the codes counted in
    the table's order or by groups of one multiset of symbols (`regroup_answers`, whatever the game's group sizes)."""
    game = solver.game
    expected = most_answers_reference(game, solver, subset, subset if hard else list(range(len(game.codes))))
    grouped = regroup_answers(game, solver.table) if by_group else UNGROUPED
    branching = len(game.answers) - 1
    assert _partition_kernels._most_answers(
        solver.table, solver.by_secret, np.array(subset, np.int64), solver.solved, solver.num_slots, hard, branching,
        grouped,
    ) == expected


@pytest.mark.parametrize("size", [30, 1000], ids=["column", "row"])
def test_answers_of_reads_a_guess_s_answers_by_column_or_row(size: int) -> None:
    """`_answers_of` at the set's codes is the guess's row of the table, whether it reads the column (a set whose rows
    fit `COLUMN_MAX_BYTES`) or the row (4 of 10: 1000 secrets take 5 MB)."""
    solver = Solver(Game(4, "0123456789", False))
    assert (size * solver.num_codes <= _partition_kernels.COLUMN_MAX_BYTES) == (size == 30)
    rng = np.random.default_rng(size)
    subset = np.sort(rng.choice(solver.num_codes, size, replace=False))
    for guess in rng.choice(solver.num_codes, 20, replace=False):
        answers = _partition_kernels._answers_of(solver.table, solver.by_secret, guess, subset)
        assert (answers[subset] == solver.table[guess, subset]).all()


def distinct_partitions_reference(game: Game, solver: Solver, candidates: list[int], subset: list[int]) -> list[bool]:
    """Per candidate: whether no candidate before it splits `subset` into the same parts solving the same secret."""
    seen, keep = set(), []
    for guess in candidates:
        parts: dict[int, set[int]] = {}
        for x in subset:
            parts.setdefault(int(solver.table[guess, x]), set()).add(x)
        solved = frozenset(parts.get(solver.solved, ()))
        signature = (solved, frozenset(frozenset(part) for answer, part in parts.items() if answer != solver.solved))
        keep.append(signature not in seen)
        seen.add(signature)
    return keep


@settings(max_examples=100, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_same_partition_equals_the_reference(game: Game, data: st.DataObject) -> None:
    """`_same_partition`, the exact test behind `_distinct_partitions`' hashes (which only meet on equal partitions but
    for a collision, so that the test below never reaches a pair it must tell apart): pairs of guesses on sets of
    at most 8 secrets, where many split alike."""
    solver = Solver(game)
    size = len(game.codes)
    subset = sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=min(size, 8), unique=True)))
    first, second = data.draw(st.integers(0, size - 1)), data.draw(st.integers(0, size - 1))
    scratch = np.empty(solver.num_slots, np.int64), np.empty(solver.num_slots, np.int64)
    alike = distinct_partitions_reference(game, solver, [first, second], subset) == [True, False]
    rows = solver.table[first], solver.table[second]
    assert _partition_kernels._same_partition(*rows, np.array(subset, np.int64), solver.solved, *scratch) == alike


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data(), st.booleans())
def test_distinct_partitions_keep_the_first_guess_of_each(game: Game, data: st.DataObject, answers_kept: bool) -> None:
    """`_distinct_partitions` against the reference, with the answers of its first pass kept for the comparisons, or
    (no room for them) read again from the table, as for large sets. Small sets, where many guesses split alike."""
    solver = Solver(game)
    size = len(game.codes)
    subset = sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=min(size, 12), unique=True)))
    candidates = data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=size, unique=True))
    args = (solver.table, solver.by_secret, np.array(candidates, np.int64), np.array(subset, np.int64), solver.solved, solver.num_slots)
    expected = distinct_partitions_reference(game, solver, candidates, subset)
    room = _base_kernels.DEDUPE_ANSWERS_MAX if answers_kept else 0
    assert _partition_kernels._distinct_partitions(*args, room).tolist() == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 2, 5, 8, 1 << 40, (1 << 40) + 1, (1 << 63) + 2, (1 << 64) - 1]), max_size=40))
def test_equal_hashes_chain_each_index_to_the_next_with_its_hash(hashes: list[int]) -> None:
    """`_equal_hashes` against a scan: the next index with the same hash, or -1. Hashes sharing their low bits (the
    table's slots) but not their high ones must not be chained."""
    expected = [next((k for k in range(j + 1, len(hashes)) if hashes[k] == hashes[j]), -1) for j in range(len(hashes))]
    assert _partition_kernels._equal_hashes(np.array(hashes, np.uint64)).tolist() == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20)), max_size=60), st.booleans())
def test_candidates_go_by_bound_then_largest_part_then_code(rows: list[tuple[int, int]], past_a_word: bool) -> None:
    """`_by_bound` against `np.lexsort`, packed in a word or (sums too large for it) by two stable sorts."""
    sums = np.array([total + (1 << 31 if past_a_word else 0) for total, _ in rows], np.int64)
    largest = np.array([big for _, big in rows], np.int64)
    kept = np.arange(0, len(rows), 2, dtype=np.int64)  # increasing, some indices left out
    expected = np.lexsort((kept, largest[kept], sums[kept])).tolist()
    assert _base_kernels._by_bound(sums, largest, kept).tolist() == expected


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data(), st.booleans(), st.booleans())
def test_most_answers_equals_reference(game: Game, data: st.DataObject, hard: bool, by_group: bool) -> None:
    """Over every code as a guess, or in hard mode over the codes of the set only; the codes counted in the table's
    order or by groups of one multiset of symbols."""
    solver = Solver(game)
    size = len(game.codes)
    subset = sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=size, unique=True)))
    check_most_answers(solver, subset, hard, by_group)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from([Game(3, "12345", False), Game(3, "1234", True), Game(2, "1234", False), Game(4, "012345", False)]),
    st.data(),
    st.booleans(),
)
def test_most_answers_when_a_code_outside_gets_every_answer(game: Game, data: st.DataObject, by_group: bool) -> None:
    """Sets holding one secret of each answer a code gets (besides all-bulls), so that a code outside the set may
    score the most any can: the case where skipping the scan over every code would go wrong first, and where a
    group's bound must hold. 4 of 6 has 360 codes: the scan's blocks of `ANSWER_BLOCK` end early or run to a short
    last block."""
    solver = Solver(game)
    row = solver.table[data.draw(st.integers(0, len(game.codes) - 1))]
    subset = sorted(
        data.draw(st.sampled_from(np.flatnonzero(row == answer).tolist()))
        for answer in np.unique(row) if answer != solver.solved
    )
    check_most_answers(solver, subset, False, by_group)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([Game(4, "0123456", False), Game(4, "12345", True), Game(3, "123456", True), Game(5, "012345", False)]),
    st.data(),
    st.booleans(),
)
def test_most_answers_on_small_sets_of_larger_games(game: Game, data: st.DataObject, by_group: bool) -> None:
    """Sets of 3 to 16 secrets, as the least-cost search bounds them, in games of 216 to 840 codes, where a code
    outside the set often scores the most."""
    solver = Solver(game)
    subset = sorted(data.draw(st.lists(st.integers(0, len(game.codes) - 1), min_size=3, max_size=16, unique=True)))
    check_most_answers(solver, subset, False, by_group)


@settings(max_examples=80, deadline=None)
@given(small_games(max_codes=250), st.data(), st.booleans())
def test_own_split_bound_counts_the_codes_outside_at_their_most(game: Game, data: st.DataObject, hard: bool) -> None:
    """`_own_split_bound`: the split bound with the set's own codes counted (the reference) and every other code at
    the most answers it could get, min(|set|, answers besides all-bulls); never above `_split_bound`, which counts
    them all."""
    assume(len(game.codes) >= 3)  # the kernels bound sets of 3 or more
    search = search_for(game, hard)
    solver = search.solver
    picked = sorted(data.draw(st.lists(st.integers(0, len(game.codes) - 1), min_size=3, max_size=40, unique=True)))
    s, depth, subset = len(picked), solver.num_codes, np.array(picked, np.int64)
    most = most_answers_reference(game, solver, picked, picked)
    if not hard:
        most = max(most, min(s, len(game.answers) - 1))
    least = int(search.floor_at(depth)[s])
    expected = max(least, least + int(search.weights[1]) * (3 * s - most - int(search.level_fill[s])))
    shared = (depth, solver.solved, solver.num_slots, solver.caps, search.floor, search.level_fill, search.weights, hard)
    weak = _cost_kernels._own_split_bound(solver.table, subset, *shared)
    assert weak == expected
    assert weak <= _cost_kernels._split_bound(solver.table, solver.by_secret, solver.grouped, subset, *shared)


def test_grouped_answers_are_kept_where_groups_hold_many_codes() -> None:
    """5 of 6 has 120 codes per multiset: regrouped; Mastermind 4x5 has 9: the scan in the table's order is kept (no
    second table), the groups' other arrays too."""
    table = Solver(Game(5, "012345", False)).table
    by_group, shared, starts, most_bulls, members = grouped_answers(Game(5, "012345", False), table)
    assert by_group.shape == (720, 720) and shared.shape == (720, 6) and starts.tolist() == [0, 120, 240, 360, 480, 600, 720]
    assert most_bulls.tolist() == [1, 2, 3, 4, 5, 4]
    assert sorted(members.tolist()) == list(range(720)) and (by_group == table[:, members]).all()
    by_group, shared, starts, most_bulls, members = grouped_answers(Game(4, "12345", True), Solver(Game(4, "12345", True)).table)
    assert by_group.shape == (0, 0) and shared.shape == (625, 70) and len(starts) == 71 and len(members) == 625


def test_grouped_answers_without_the_regrouped_table_bound_the_same() -> None:
    """`regroup_table=False` (the coach on the largest games): no second table, the other arrays as before, and
    `_most_answers` finds the same most on every set."""
    game = Game(5, "012345", False)
    solver = Solver(game)
    regrouped = grouped_answers(game, solver.table)
    alone = grouped_answers(game, solver.table, regroup_table=False)
    assert alone[0].shape == (0, 0)
    assert all((a == b).all() for a, b in zip(alone[1:], regrouped[1:]))
    rng = np.random.default_rng(5)
    branching = len(game.answers) - 1
    for size in (2, 5, 30, 200):
        subset = np.sort(rng.choice(720, size, replace=False)).astype(np.int64)
        assert (_partition_kernels._most_answers(solver.table, solver.table, subset, solver.solved, solver.num_slots, False,
                                                  branching, alone)
                == _partition_kernels._most_answers(solver.table, solver.table, subset, solver.solved, solver.num_slots,
                                                    False, branching, regrouped))


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_fitting_guesses_equal_reference(game: Game, data: st.DataObject) -> None:
    """The streaming screen of the height search: a code fits when no part but all-bulls exceeds the limit."""
    solver = Solver(game)
    size = len(game.codes)
    subset = sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=size, unique=True)))
    limit = data.draw(st.integers(0, len(subset)))
    counts = naive.partition_counts(game, list(range(size)), subset)
    counts[:, solver.solved] = 0
    fits = _partition_kernels._fitting_guesses(
        solver.by_secret, np.array(subset, np.int64), solver.solved, solver.num_slots, limit
    )
    assert fits.tolist() == (counts.max(axis=1) <= limit).tolist()


@settings(max_examples=60, deadline=None)
@given(small_games(max_codes=250), st.data())
def test_candidate_guesses_equal_reference(game: Game, data: st.DataObject) -> None:
    """Kept guesses, their order and bounds, and the least bound left out, from naive partition counts."""
    search = search_for(game)
    solver = search.solver
    size = len(game.codes)
    subset = sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=size, unique=True)))
    pool = sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=size, unique=True)))
    cap = data.draw(st.integers(1, len(subset)))
    bound = data.draw(st.integers(0, 4 * len(subset)))
    dedupe = data.draw(st.booleans())
    counts = naive.partition_counts(game, pool, subset)
    rows = []  # (bound, largest part, code, partition) of each guess that fits and tells something
    for code, row in zip(pool, counts):
        solves = row[solver.solved] > 0
        parts = np.delete(row, solver.solved)
        if parts.max() <= cap and (parts.max() < len(subset) or solves):
            base = len(subset) + sum(part_floor(search, code, a, c) for a, c in enumerate(row) if a != solver.solved)
            answers = [int(solver.table[code, x]) for x in subset]
            partition = frozenset(frozenset(x for x, a in zip(subset, answers) if a == b) for b in set(answers) - {solver.solved})
            rows.append((base, int(parts.max()), code, (partition, solves and subset[answers.index(solver.solved)])))
    kept = [r for r in rows if r[0] < bound]
    if dedupe:
        seen: set = set()
        kept = [r for r in kept if not (r[3] in seen or seen.add(r[3]))]
    kept.sort(key=lambda r: r[:3])
    left_out = min((r[0] for r in rows if r[0] >= bound), default=INFINITE)
    guesses, bases, least = _base_kernels._candidate_guesses(
        solver.table, solver.by_secret, np.array(subset, np.int64), np.array(pool, np.int64), solver.solved, solver.num_slots,
        search.part_floor_at(3), search.orbit_of, cap, len(subset), bound, dedupe,
    )
    assert guesses.tolist() == [r[2] for r in kept]
    assert bases.tolist() == [r[0] for r in kept]
    assert least == left_out
    args = (np.array(subset, np.int64), np.array(pool, np.int64), solver.solved, solver.num_slots, search.part_floor_at(3),
            search.orbit_of, cap, search.floor_at(3))
    least = min((r[0] - len(subset) for r in rows), default=INFINITE)
    assert _base_kernels._least_base(solver.table, solver.by_secret, UNGROUPED, *args) == least
    assert _base_kernels._least_base_by_group(solver.table, solver.by_secret, regroup_answers(game, solver.table), *args) == least


@pytest.mark.parametrize("game", [*TINY_GAMES, Game(3, "012345", False), Game(3, "1234", True)], ids=str)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_kernel_pool_is_the_set_then_the_least_code_of_each_relabelling_class(game: Game, data: st.DataObject) -> None:
    """`_kernel_pool`: the set's codes, then the other codes no relabelling of the set's unused symbols makes smaller."""
    solver = Solver(game)
    picked = random_subsets(game, data, 12)
    subset = np.array(picked, np.int64)
    member = np.zeros(solver.num_codes, np.bool_)
    member[subset] = True
    used = {symbol for i in picked for symbol in game.codes[i]}
    unused = [c for c in game.symbols if c not in used]
    relabellings = [dict(zip(unused, order)) for order in itertools.permutations(unused)]

    def least(code: str) -> bool:
        return all("".join(r.get(c, c) for c in code) >= code for r in relabellings)

    others = [i for i, code in enumerate(game.codes) if i not in set(picked) and least(code)]
    assert _cost_kernels._kernel_pool(solver.codes, subset, member).tolist() == picked + others


def random_subsets(game: Game, data: st.DataObject, most: int) -> list[int]:
    size = len(game.codes)
    return sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=min(most, size), unique=True)))


def check_still_possible_value(game: Game, search: CostSearch, picked: list[int], hard: bool, optimum: int) -> int:
    """`_still_possible_value` settles exactly when the rule of `naive_search.still_possible_value` says, at the optimum.

    It must settle when a still-possible guess with parts of at most 2 is
    valued no higher than every other guess's bound (and, unless in hard
    mode, than any guess outside the set); otherwise it must return -1. A
    settled value must be the brute-force optimum. Returns what it gave.
    """
    solver = search.solver
    depth = solver.num_codes
    s = len(picked)
    outside = None if hard else naive_search.fill_floor(game, s + 1) - 1  # every secret found at guess 2 or later
    settled = _cost_kernels._still_possible_value(
        solver.table, np.array(picked, np.int64), solver.solved, solver.num_slots, search.part_floor_at(depth),
        search.orbit_of, s, _cost_kernels.INFINITE if outside is None else outside, solver.caps[depth - 1],
    )

    def floor_of(code: str, answer, size: int) -> int:
        return part_floor(search, game.code_index[code], encode_answer(game, answer), size)

    expected = naive_search.still_possible_value(game, frozenset(game.codes[i] for i in picked), outside, floor_of)
    if expected is None:
        assert settled == -1
    else:
        assert settled == expected == optimum
    return settled


@pytest.mark.parametrize(
    ("codes", "hard", "settles"),
    [
        (["012"], False, 1),  # one secret: guessed at once
        (["012", "013", "021"], False, 5),  # 012 tells 013 and 021 apart: 3 + 1 + 1, the least any tree takes
        (["012", "103", "230", "321"], False, -1),  # every code of the set leaves the other three together
        (["012", "021", "102", "120", "201"], False, -1),  # its best, two pairs (11), loses to what a code outside may do (10)
        (["012", "021", "102", "120", "201"], True, 11),  # the same in hard mode, where no code outside may be guessed
    ],
)
def test_still_possible_value_cases(codes: list[str], hard: bool, settles: int) -> None:
    """Sets of 3 of 0-3 that must settle, and must not, each for its reason."""
    game = TINY_GAMES[0]
    picked = sorted(game.code_index[code] for code in codes)
    optimum = least_total(game, frozenset(codes), hard)
    assert check_still_possible_value(game, search_for(game, hard), picked, hard, optimum) == settles


@pytest.mark.parametrize("hard", [False, True], ids=["free", "hard"])
@pytest.mark.parametrize(("game", "most"), [(TINY_GAMES[0], 4), (TINY_GAMES[1], 4), (TINY_GAMES[2], 9)], ids=str)
def test_still_possible_value_on_every_small_set(game: Game, most: int, hard: bool) -> None:
    """Every set of up to `most` codes of a tiny game: each settles or not as it must, and both happen."""
    search = search_for(game, hard)
    outcomes = set()
    for size in range(1, most + 1):
        for picked in itertools.combinations(range(len(game.codes)), size):
            optimum = least_total(game, frozenset(game.codes[i] for i in picked), hard)
            outcomes.add(check_still_possible_value(game, search, list(picked), hard, optimum) >= 0)
    assert outcomes == {True, False}


@pytest.mark.parametrize("hard", [False, True], ids=["free", "hard"])
@pytest.mark.parametrize("game", TINY_GAMES, ids=str)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_expected_kernels_against_brute_force(game: Game, hard: bool, data: st.DataObject) -> None:
    """On a random set: the lookahead bounds the optimum, and the exact values equal it (hard mode too)."""
    search = search_for(game, hard)
    solver = search.solver
    picked = random_subsets(game, data, 9)
    subset = np.array(picked, np.int64)
    optimum = least_total(game, frozenset(game.codes[i] for i in picked), hard)
    depth = solver.num_codes
    floor = search.floor_at(depth)
    bound = _cost_kernels._lookahead(
        solver.table, solver.by_secret, solver.grouped, subset, depth, solver.solved, solver.num_slots, solver.caps, search.floor, search.level_fill, search.weights,
        hard, search.kernel_memo,
    )
    assert floor[len(picked)] <= bound <= optimum
    check_still_possible_value(game, search, picked, hard, optimum)
    assert search.solve(subset, depth) == optimum  # the kernel, its memo now holding the lookahead
    assert search.solve(subset, depth, kernel=False) == optimum  # the Python levels
    assert search.lookahead_bound(subset, depth, ()) == optimum  # exact values are remembered


@pytest.mark.parametrize("game", TINY_GAMES, ids=str)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_failed_search_returns_a_proven_bound(game: Game, data: st.DataObject) -> None:
    """Below the optimum the search fails soft: it returns a bound at least its budget and at most the optimum."""
    hard = data.draw(st.booleans())
    search = search_for(game, hard)
    picked = random_subsets(game, data, 9)
    optimum = least_total(game, frozenset(game.codes[i] for i in picked), hard)
    budget = data.draw(st.integers(1, optimum))
    subset = np.array(picked, np.int64)
    for kernel in (True, False):
        fresh = search_for(game, hard)
        value = fresh.solve(subset, search.solver.num_codes, budget, kernel=kernel)
        assert budget <= value <= optimum


@pytest.mark.parametrize("game", [Game(3, "012345", False), Game(3, "1234", True), TINY_GAMES[0]], ids=str)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_kernel_values_a_set_after_a_history_by_its_canonical_guesses(game: Game, data: st.DataObject) -> None:
    """Given the history that left a set, the kernel tries only the guesses canonical under the history's stabiliser
    (when fewer than its own pool): the value and a failed search's bound stay those of the brute force."""
    hard = data.draw(st.booleans())
    search = search_for(game, hard)
    solver = search.solver
    index = st.integers(0, len(game.codes) - 1)
    history = tuple(data.draw(st.lists(index, min_size=1, max_size=2, unique=True)))
    secret = data.draw(index)
    subset = np.flatnonzero(np.all(solver.table[list(history)] == solver.table[list(history), secret][:, None], axis=0))
    assume(3 <= len(subset) <= 10)
    optimum = least_total(game, frozenset(game.codes[i] for i in subset), hard)
    depth = solver.num_codes
    assert search.solve(subset, depth, INFINITE, history) == optimum
    budget = data.draw(st.integers(1, optimum))
    assert budget <= search_for(game, hard).solve(subset, depth, budget, history) <= optimum


def test_a_set_of_its_own_gets_no_pool_from_the_histories_below_it() -> None:
    """Searched from a set no history left (a caller's own), the parts' histories start at its guesses and do not
    describe them: their stabilisers' pools would leave out guesses. Found by hypothesis (test_deep_screen): 24 for 23."""
    game = Game(2, "123456", True)
    subset = np.array([0, 18, 19, 20, 21, 22, 28, 29, 34], np.int64)
    search = search_for(game)
    assert search.solve(subset, search.solver.num_codes, kernel=False) == least_total(
        game, frozenset(game.codes[i] for i in subset)
    ) == 23


def test_a_set_of_its_own_is_searched_over_every_guess_not_the_empty_historys_canonical_ones() -> None:
    """A caller's set of `SYMMETRY_MIN_SET` (24) secrets or more, searched with no history, is not the whole game:
    the canonical guesses of the empty history (least under every relabelling) would leave out guesses. Found by
    hypothesis (test_deep_screen, 2026-11-28): Mastermind 2x7's first 24 codes valued 82 for 81."""
    game = Game(2, "1234567", True)
    subset = np.arange(24, dtype=np.int64)
    search = search_for(game)
    assert search.solve(subset, search.solver.num_codes, kernel=False) == least_total(
        game, frozenset(game.codes[i] for i in subset)
    ) == 81
    assert search.solver.history_determines(search.solver.all_guesses, ())
    assert not search.solver.history_determines(subset, ())


def lowest_best_guess(game: Game, picked: list[int], hard: bool) -> tuple[int, int]:
    """(least total, lowest code reaching it) on the set, by brute force: every guess valued through `least_total`."""
    secrets = frozenset(game.codes[i] for i in picked)
    valued = []
    for guess in naive_search.guesses(game, secrets, hard):
        split = naive_search.useful_parts(game, secrets, guess)
        if split is not None:
            valued.append((len(secrets) + sum(least_total(game, part, hard) for part in split.values()), guess))
    total, guess = min(valued)  # ties: the lowest code
    return total, game.code_index[guess]


@pytest.mark.parametrize("game", [Game(3, "012345", False), Game(3, "1234", True), *TINY_GAMES[:2]], ids=str)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_small_sets_best_guess_named_by_the_kernel_is_the_lowest_optimal_one(game: Game, data: st.DataObject) -> None:
    """`best_guess` on a set the kernel valued (after a history, or none) names the lowest code of least total, as the
    brute force does and as the search of Python levels does without the shortcuts."""
    hard = data.draw(st.booleans())
    search = search_for(game, hard)
    solver = search.solver
    index = st.integers(0, len(game.codes) - 1)
    history = tuple(data.draw(st.lists(index, max_size=2, unique=True)))
    if history:
        secret = data.draw(index)
        subset = np.flatnonzero(np.all(solver.table[list(history)] == solver.table[list(history), secret][:, None], axis=0))
    else:
        subset = np.array(random_subsets(game, data, 10), np.int64)
    assume(2 <= len(subset) <= 10)
    expected = lowest_best_guess(game, subset.tolist(), hard)
    assert search.best_guess(subset, solver.num_codes, history) == expected
    slow = search_for(game, hard)
    slow.small_set_shortcuts = False
    assert slow.best_guess(subset, solver.num_codes, history) == expected


def test_a_read_only_set_gets_the_tree_of_a_writable_one() -> None:
    """Ray hands parts over read-only; `_least_cost` loaded from numba's cache crashed on them (a segfault), and so did
    the kernel that names a small set's best guess (run this twice: the crash comes once the signature is cached)."""
    solver = Solver(Game(3, "012345", False))
    for part in solver.split(solver.all_guesses, 0):
        frozen = part.copy()
        frozen.flags.writeable = False
        depth = solver.num_codes - 1
        assert greedy_tree(search_for(solver.game), frozen, depth, (0,)) == greedy_tree(search_for(solver.game), part, depth, (0,))
        fresh, writable = search_for(solver.game), search_for(solver.game)
        assert greedy_total(fresh, frozen, depth, (0,)) == greedy_total(writable, part, depth, (0,))
        assert search_for(solver.game).tree(frozen, depth, (0,)) == search_for(solver.game).tree(part, depth, (0,))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([Game(3, "012345", False), Game(3, "1234", True), Game(4, "012345", False)]), st.data())
def test_bases_below_equal_the_counted_bases(game: Game, data: st.DataObject) -> None:
    """`_bases_below` (cheap bounds first, each guess's own bound only where they do not settle it) against every
    guess counted by `_guess_bases` (tested against the brute force above): the guesses kept in pool order, their
    bounds and largest parts, and the least bound of the others, with bounds near where guesses are cut. The cheap
    bounds come from the search's floors or from a weaker one (c per part of c secrets), which spreads the guesses
    left out over two cheap levels."""
    search = search_for(game)
    solver = search.solver
    size = len(game.codes)
    subset = np.array(sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=2, max_size=40, unique=True))))
    pool = np.array(data.draw(st.permutations(range(size)))[: data.draw(st.integers(1, size))], np.int64)
    depth = data.draw(st.integers(2, 5))
    part_floor, floor_row = search.part_floor_at(depth - 1), search.floor_at(depth - 1)
    if data.draw(st.booleans()):
        floor_row = np.arange(len(floor_row), dtype=np.int64)  # a part of c secrets takes c guesses at least
    cap = int(solver.caps[depth - 1])
    here = len(subset)
    sums, largest, hits = _partition_kernels._guess_bases(
        solver.by_secret, subset, pool, solver.solved, solver.num_slots, part_floor, search.orbit_of,
    )
    fits = (largest <= cap) & ((largest < len(subset)) | hits)
    bases = here + sums
    least = int(bases[fits].min()) if fits.any() else 0
    cheap = _base_kernels._cheap_bases(solver.by_secret, subset, pool, solver.solved, solver.num_slots, here, floor_row, cap)
    assert (cheap[fits] <= bases[fits]).all()  # a lower bound, INFINITE only for guesses that do not fit
    levels_seen = sorted(set(cheap[cheap < INFINITE].tolist()))  # a bound at a cheap level is where ties fall
    bound = data.draw(st.integers(least - len(subset), least + 12) | st.sampled_from(levels_seen or [least]))
    levels = data.draw(st.sampled_from([0, 1, _base_kernels.LEFT_OUT_LEVELS, 100]))  # levels, then the rest at once
    index, kept_bases, kept_largest, left_out = _base_kernels._bases_below(
        solver.table, solver.by_secret, subset, pool, solver.solved, solver.num_slots, part_floor, search.orbit_of, cap, here, bound,
        floor_row, levels,
    )
    kept = np.flatnonzero(fits & (bases < bound))
    assert index.tolist() == kept.tolist()
    assert kept_bases.tolist() == bases[kept].tolist() and kept_largest.tolist() == largest[kept].tolist()
    assert left_out == min(bases[fits & (bases >= bound)].tolist(), default=INFINITE)
    args = (subset, pool, solver.solved, solver.num_slots, part_floor, search.orbit_of, cap, floor_row)
    least = min(sums[fits].tolist(), default=INFINITE)
    assert _base_kernels._least_base(solver.table, solver.by_secret, UNGROUPED, *args) == least
    assert _base_kernels._least_base_by_group(solver.table, solver.by_secret, regroup_answers(game, solver.table), *args) == least


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([Game(4, "01234567", False), Game(5, "0123456", False)]), st.data())
def test_least_base_on_large_sets_counts_the_rest_at_once_and_finds_the_least(game: Game, data: st.DataObject) -> None:
    """On sets of `STREAM_MIN_SET` secrets or more `_least_base_below` counts every guess in one pass, no cheap bound
    first: both ways in (`_least_base` on every code, by groups) still give the least of every guess's counted
    bound (`_guess_bases`, tested against the brute force above)."""
    search = search_for(game)
    solver = search.solver
    size = len(game.codes)
    low = _base_kernels.STREAM_MIN_SET
    subset = np.array(sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=low, max_size=low + 80, unique=True))))
    pool = np.array(sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=size, unique=True))), np.int64)
    depth = data.draw(st.integers(3, 6))
    part_floor, floor_row = search.part_floor_at(depth - 1), search.floor_at(depth - 1)
    cap = data.draw(st.sampled_from([int(solver.caps[depth - 1]), len(subset) // 4]))
    sums, largest, hits = _partition_kernels._guess_bases(
        solver.by_secret, subset, pool, solver.solved, solver.num_slots, part_floor, search.orbit_of,
    )
    fits = (largest <= cap) & ((largest < len(subset)) | hits)
    least = min(sums[fits].tolist(), default=INFINITE)
    args = (subset, pool, solver.solved, solver.num_slots, part_floor, search.orbit_of, cap, floor_row)
    assert _base_kernels._least_base(solver.table, solver.by_secret, UNGROUPED, *args) == least
    assert _base_kernels._least_base_by_group(solver.table, solver.by_secret, regroup_answers(game, solver.table), *args) == least


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_shared_counts_against_counting_one_by_one(data: st.DataObject) -> None:
    """`_shared_counts` (lanes of one word per group, or a counter each when the set is too large for a lane) against
    a count secret by secret."""
    levels = data.draw(st.integers(2, 9))
    num_codes = data.draw(st.integers(1, 300))
    num_groups = data.draw(st.integers(1, 40))
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    shared = rng.integers(0, levels, (num_codes, num_groups), dtype=np.uint8)
    shared[:, 0] = levels - 1  # one group that every secret shares the most with: a full lane
    size = data.draw(st.integers(0, 300))
    subset = np.sort(rng.choice(num_codes, size, replace=True)).astype(np.int64)  # repeats: lanes filled past a set
    expected = np.zeros((levels, num_groups), np.int64)
    for x in subset:
        for k in range(num_groups):
            expected[shared[x, k], k] += 1
    assert np.array_equal(_partition_kernels._shared_counts(shared, subset, levels), expected)


@pytest.mark.parametrize("game", [Game(3, "012345", False), Game(3, "1234", True)], ids=str)
def test_without_class_bounds_the_least_totals_are_the_same(game: Game) -> None:
    """`class_bounds=False` (the coach on the largest games) bounds parts by size alone: weaker bounds, same values."""
    with_classes = CostSearch(Solver(game), TOTAL_GUESSES)
    by_size = CostSearch(Solver(game), TOTAL_GUESSES, class_bounds=False)
    assert (by_size.class_floor <= with_classes.class_floor).all() and (by_size.class_floor < with_classes.class_floor).any()
    table = with_classes.solver.table
    for first in (0, 7):
        for answer in np.unique(table[first]).tolist():
            subset = np.flatnonzero(table[first] == answer).astype(np.int64)
            depth = with_classes.solver.num_codes
            assert by_size.best_guess(subset, depth, (first,)) == with_classes.best_guess(subset, depth, (first,))


def test_only_a_search_with_lookahead_hands_its_kernels_the_regrouped_table() -> None:
    """A node count has no lookahead: its context's `grouped` is None, typed so, and numba leaves the lookahead's code
    out of the kernels it compiles for it; the total's context holds the table. Both search the same as the plain
    searches the other tests check (`least_total` above, the tie-breaks' tests)."""
    solver = Solver(Game(3, "012345", False))
    assert CostSearch(solver, NODES).context._numba_type_ == _context.NO_LOOKAHEAD_CONTEXT_TYPE
    assert CostSearch(solver, TOTAL_GUESSES).context._numba_type_ == _context.CONTEXT_TYPE
