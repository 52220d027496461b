"""The exact searches under Wordle's marks, whose answer table is not symmetric and whose answers pass 64 slots.

Crane to trace is YGGBG, trace to crane BGGYG: `table[g, s]` (guess, secret)
and its transpose `Solver.by_secret[s, g]` differ, and every kernel that
scans the guesses a secret's row at a time must read the second. Five
letters give 243 answers (3 ** 5) and put the solved slot GGGGG at 121, past
one 64-bit mask: the `_wide` kernels take over there; two to four letters
(9 to 81 answers) keep the one-word masks or not. Each kernel is compared
with a plain reference that scores every pair through the rule (itself
checked against the format's vectors in test_rules), and both searches,
free and hard, every objective and tie-break, with the brute force of
`naive_search` on many random lists, through the kernels and through the
Python levels.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from game_strategies import word_games
from build_checks import check_capped, check_least_height, check_least_total
from naive_search import min_height
from test_class_caps import class_caps_reference

from bactree.game import Game, word_game
from bactree.game.codes import answer_table, encode_answer, num_slots
from bactree.game.words import read_word_list
from bactree.search import INFINITE, TOTAL_GUESSES, CostSearch, Solver, _partition_kernels
from bactree.search.cost import _base_kernels, _cost_kernels
from bactree.game import _answer_kernels


def wordle_games(max_secrets: int = 10, max_others: int = 5, max_length: int = 5) -> st.SearchStrategy[Game]:
    """Random small Wordle lists: 2 to 5 letters (9 to 243 answers), repeated letters or not, maybe other guesses."""
    return word_games(max_letters=7, max_secrets=max_secrets, max_others=max_others, rules=("wordle",),
                      max_length=max_length)


KERNEL_SETTINGS = settings(max_examples=60, deadline=None)
SEARCH_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def reference_counts(game: Game, guesses: list[int], subset: list[int]) -> np.ndarray:
    """counts[j, a]: how many secrets of `subset` give answer slot a to `guesses[j]`, each pair scored by the rule."""
    codes = game.codes
    out = np.zeros((len(guesses), num_slots(game)), np.int64)
    for j, g in enumerate(guesses):
        for s in subset:
            out[j, encode_answer(game, game.score(codes[g], codes[s]))] += 1
    return out


def draw_set(data: st.DataObject, game: Game, least: int = 1, secrets: bool = False) -> list[int]:
    """Codes of `game` (or of its secrets only, as every set a search splits is), ascending: `least` or more of them."""
    among = [i for i, code in enumerate(game.codes) if code in set(game.secret_codes)] if secrets else range(game.num_codes)
    return sorted(data.draw(st.lists(st.sampled_from(among), min_size=least, max_size=len(among), unique=True)))


def test_the_solver_holds_the_table_each_way_round() -> None:
    """Wordle's table is not symmetric: `by_secret` is its transpose, contiguous and read-only; a mutual rule's is the
    table itself (no second table)."""
    game = word_game(["crane", "trace", "nacre"], rule="wordle")
    solver = Solver(game)
    crane, trace = game.codes.index("crane"), game.codes.index("trace")
    assert str(game.score("crane", "trace")) == "YGGBG" and str(game.score("trace", "crane")) == "BGGYG"
    assert solver.table[crane, trace] == encode_answer(game, game.score("crane", "trace"))
    assert solver.by_secret[trace, crane] == solver.table[crane, trace] != solver.table[trace, crane]
    assert np.array_equal(solver.by_secret, solver.table.T) and solver.by_secret.flags.c_contiguous
    assert not solver.by_secret.flags.writeable and solver.mask_kernels is False
    with pytest.raises(ValueError, match="the mask kernels need at most 64 answers and a mutual rule"):
        Solver(game, mask_kernels=True)
    jotto = Solver(word_game(["crane", "trace", "nacre"], rule="jotto"), mask_kernels=True)
    assert jotto.by_secret is jotto.table and jotto.mask_kernels is True
    assert Solver(jotto.game).mask_kernels is True  # a word list has no symmetry: them, however few its words


@KERNEL_SETTINGS
@given(wordle_games(max_secrets=10, max_others=8))
def test_the_table_scores_the_secrets_columns_and_by_secret_their_rows(game: Game) -> None:
    """Only a possible secret is ever read as one: its column of the table (every guess scored by the rule) and its row
    of `by_secret`; the other codes' are 0, never scored (a sixth of the work on the original Wordle lists)."""
    solver = Solver(game)
    secrets = solver.secrets.tolist()
    every = list(range(game.num_codes))
    assert solver.table[:, secrets].T.tolist() == reference_counts_by_pair(game, every, secrets)
    assert np.array_equal(solver.by_secret[secrets], solver.table[:, secrets].T)
    others = sorted(set(every) - set(secrets))
    assert not solver.table[:, others].any() and not solver.by_secret[others].any()


def reference_counts_by_pair(game: Game, guesses: list[int], secrets: list[int]) -> list[list[int]]:
    """rows[s][g]: the slot of the answer secret s gives guess g, scored by the rule."""
    codes = game.codes
    return [[encode_answer(game, game.score(codes[g], codes[s])) for g in guesses] for s in secrets]


@KERNEL_SETTINGS
@given(wordle_games(max_secrets=14, max_others=8), st.data())
def test_partition_counts_read_a_secrets_row(game: Game, data: st.DataObject) -> None:
    solver = Solver(game)
    guesses, subset = draw_set(data, game), draw_set(data, game, secrets=True)
    expected = reference_counts(game, guesses, subset)
    got = _answer_kernels._partition_counts(solver.by_secret, np.array(guesses), np.array(subset), solver.num_slots)
    assert got.tolist() == expected.tolist()


@KERNEL_SETTINGS
@given(wordle_games(max_secrets=14, max_others=8), st.data())
def test_guess_bases_and_fitting_guesses_equal_reference(game: Game, data: st.DataObject) -> None:
    search = CostSearch(Solver(game), TOTAL_GUESSES)
    solver = search.solver
    guesses, subset = draw_set(data, game), draw_set(data, game, secrets=True)
    floor = search.part_floor_at(3)
    sums, largest, hits = _partition_kernels._guess_bases(
        solver.by_secret, np.array(subset), np.array(guesses), solver.solved, solver.num_slots, floor, search.orbit_of,
    )
    counts = reference_counts(game, guesses, subset)
    for j in range(len(guesses)):
        row = counts[j].copy()
        assert hits[j] == (row[solver.solved] > 0)
        row[solver.solved] = 0
        assert sums[j] == sum(int(floor[0, a, c]) for a, c in enumerate(row) if c > 0)
        assert largest[j] == row.max()
    limit = data.draw(st.integers(0, len(subset)))
    every = reference_counts(game, list(range(game.num_codes)), subset)
    every[:, solver.solved] = 0
    fits = _partition_kernels._fitting_guesses(solver.by_secret, np.array(subset), solver.solved, solver.num_slots, limit)
    assert fits.tolist() == (every.max(axis=1) <= limit).tolist()


def test_answers_of_reads_a_guess_s_answers_by_column_or_row() -> None:
    """`_answers_of` is the guess's answers by secret both ways in: `by_secret`'s column for small sets, `table`'s
    row past `COLUMN_MAX_BYTES` (3,000 Wordle words of the shipped lists)."""
    game = word_game(read_word_list("en-5-guesses").words[:3000], rule="wordle")
    solver = Solver(game)
    rng = np.random.default_rng(63)
    for size in (30, 2000):
        assert (size * solver.num_codes <= _partition_kernels.COLUMN_MAX_BYTES) == (size == 30)
        subset = np.sort(rng.choice(solver.num_codes, size, replace=False))
        for guess in rng.choice(solver.num_codes, 10, replace=False):
            answers = _partition_kernels._answers_of(solver.table, solver.by_secret, guess, subset)
            assert (answers[subset] == solver.table[guess, subset]).all()
            word = game.codes[guess]
            assert [int(a) for a in answers[subset[:5]]] == [
                encode_answer(game, game.score(word, game.codes[x])) for x in subset[:5]
            ]


def most_answers_reference(game: Game, solver: Solver, subset: list[int], guesses: list[int]) -> int:
    counts = reference_counts(game, guesses, subset)
    return max(int(np.count_nonzero(np.delete(row, solver.solved))) + 2 * int(row[solver.solved] > 0) for row in counts)


@KERNEL_SETTINGS
@given(wordle_games(max_secrets=14, max_others=8), st.data(), st.booleans())
def test_most_answers_and_the_split_bounds_equal_reference(game: Game, data: st.DataObject, hard: bool) -> None:
    """`_most_answers` (one-word masks up to 64 answers, multi-word past them), `_own_split_bound` and `_split_bound`
    against the reference over every code (in `hard` mode the set's own)."""
    search = CostSearch(Solver(game, hard=hard), TOTAL_GUESSES)
    solver = search.solver
    subset = draw_set(data, game, 3, secrets=True)  # the floors are sized by the secrets
    every = list(range(game.num_codes))
    branching = len(game.answers) - 1
    expected = most_answers_reference(game, solver, subset, subset if hard else every)
    got = _partition_kernels._most_answers(
        solver.table, solver.by_secret, np.array(subset), solver.solved, solver.num_slots, hard, branching, solver.grouped
    )
    assert got == expected
    s, depth = len(subset), len(every)
    own = most_answers_reference(game, solver, subset, subset)
    if not hard:
        own = max(own, min(s, branching))
    least = int(search.floor_at(depth)[s])
    shared = (depth, solver.solved, solver.num_slots, solver.caps, search.floor, search.level_fill, search.weights, hard)
    weak = _cost_kernels._own_split_bound(solver.table, np.array(subset), *shared)
    assert weak == max(least, least + int(search.weights[1]) * (3 * s - own - int(search.level_fill[s])))
    strong = _cost_kernels._split_bound(solver.table, solver.by_secret, solver.grouped, np.array(subset), *shared)
    assert strong == max(least, least + int(search.weights[1]) * (3 * s - expected - int(search.level_fill[s])))


def even_split_floor(n: int, parts: int, floor_row: np.ndarray) -> int:
    size, larger = divmod(n, parts)
    return larger * int(floor_row[size + 1]) + (parts - larger) * int(floor_row[size])


@KERNEL_SETTINGS
@given(wordle_games(max_secrets=14, max_others=8), st.data())
def test_cheap_bases_and_bases_below_equal_reference(game: Game, data: st.DataObject) -> None:
    """`_cheap_bases` from each guess's count of parts (the reference), and `_bases_below` keeping the guesses whose
    counted bounds (`_guess_bases`, tested above) are below the bound."""
    search = CostSearch(Solver(game), TOTAL_GUESSES)
    solver = search.solver
    subset, pool = np.array(draw_set(data, game, secrets=True)), np.array(draw_set(data, game))
    depth = data.draw(st.integers(2, 5))
    part_floor, floor_row = search.part_floor_at(depth - 1), search.floor_at(depth - 1)
    cap = data.draw(st.integers(1, len(subset)))
    here = len(subset)
    cheap = _base_kernels._cheap_bases(solver.by_secret, subset, pool, solver.solved, solver.num_slots, here, floor_row, cap)
    counts = reference_counts(game, pool.tolist(), subset.tolist())
    for j, row in enumerate(counts):
        hit = row[solver.solved] > 0
        n, parts = len(subset) - hit, int(np.count_nonzero(np.delete(row, solver.solved)))
        if parts == 0:
            expected = here
        elif n > parts * cap or (parts == 1 and n == len(subset)):
            expected = INFINITE
        else:
            expected = here + even_split_floor(n, parts, floor_row)
        assert cheap[j] == expected
    sums, largest, hits = _partition_kernels._guess_bases(
        solver.by_secret, subset, pool, solver.solved, solver.num_slots, part_floor, search.orbit_of,
    )
    fits = (largest <= cap) & ((largest < len(subset)) | hits)
    bases = here + sums
    bound = data.draw(st.integers(0, 4 * len(subset) + 4))
    index, kept_bases, _, left_out = _base_kernels._bases_below(
        solver.table, solver.by_secret, subset, pool, solver.solved, solver.num_slots, part_floor, search.orbit_of,
        cap, here, bound, floor_row, _base_kernels.LEFT_OUT_LEVELS,
    )
    kept = np.flatnonzero(fits & (bases < bound))
    assert index.tolist() == kept.tolist() and kept_bases.tolist() == bases[kept].tolist()
    assert left_out == min(bases[fits & (bases >= bound)].tolist(), default=INFINITE)


@KERNEL_SETTINGS
@given(wordle_games(max_secrets=14, max_others=8), st.data())
def test_distinct_partitions_keep_the_first_guess_of_each(game: Game, data: st.DataObject) -> None:
    solver = Solver(game)
    candidates, subset = draw_set(data, game), draw_set(data, game, secrets=True)
    seen: set = set()
    expected = []
    for g in candidates:
        answers = [game.score(game.codes[g], game.codes[x]) for x in subset]
        solved = next((x for x, a in zip(subset, answers) if a == game.solved), None)
        parts = frozenset(frozenset(x for x, a in zip(subset, answers) if a == b) for b in set(answers) - {game.solved})
        expected.append((parts, solved) not in seen)
        seen.add((parts, solved))
    for room in (0, _base_kernels.DEDUPE_ANSWERS_MAX):  # the answers of the first pass kept, or read again
        kept = _partition_kernels._distinct_partitions(
            solver.table, solver.by_secret, np.array(candidates), np.array(subset), solver.solved, solver.num_slots,
            room,
        )
        assert kept.tolist() == expected


@settings(max_examples=20, deadline=None)
@given(wordle_games(max_secrets=8, max_others=3, max_length=4))
def test_class_caps_equal_the_recursion(game: Game) -> None:
    """`_class_caps_of_each_code` reads h's answers from a class's secrets by secret (`by_secret`): the recursion,
    which scores by guess, agrees."""
    solver = Solver(game)
    for depth in range(4):
        assert solver.class_caps.at(depth).tolist() == class_caps_reference(solver, depth).tolist(), depth


def test_class_caps_too_large_to_count_are_the_class_sizes() -> None:
    """Past `EACH_CODE_MAX_BYTES` (Wordle's 243 answers squared per code) a class's bound is its size past one guess:
    sound, and no pass is made."""
    from bactree.search.height import class_caps

    words = read_word_list("en-5").words[:1200]
    solver = Solver(word_game(words, rule="wordle"))
    assert 243 * 243 * len(words) * 4 > class_caps.EACH_CODE_MAX_BYTES
    caps = solver.class_caps
    assert caps.at(5).tolist() == caps.sizes.tolist() and (caps.at(1) == np.minimum(caps.sizes, 1)).all()



@SEARCH_SETTINGS
@given(game=wordle_games(), hard=st.booleans())
def test_least_total_matches_brute_force(game: Game, hard: bool, search_paths: str) -> None:
    check_least_total(game, hard)


@SEARCH_SETTINGS
@given(game=wordle_games(), hard=st.booleans(), chain=st.sampled_from([("nodes",), ("total",), ("crush", "total")]))
def test_least_height_and_tie_breaks_match_brute_force(game: Game, hard: bool, chain: tuple[str, ...], search_paths: str) -> None:
    check_least_height(game, hard, chain)


@SEARCH_SETTINGS
@given(game=wordle_games(), hard=st.booleans(), slack=st.integers(0, 1))
def test_a_cap_on_guesses_matches_brute_force(game: Game, hard: bool, slack: int) -> None:
    check_capped(game, hard, min_height(game, hard) + slack)


def test_the_table_read_the_wrong_way_round_is_caught() -> None:
    """The tests above can fail: scanning the guesses by `table`'s rows (the transpose's mistake) miscounts a Wordle
    set's parts, which the reference sees."""
    game = word_game(["crane", "trace", "nacre", "caret", "react"], rule="wordle")
    solver = Solver(game)
    every = np.arange(game.num_codes)
    wrong = _answer_kernels._partition_counts(solver.table, every, every, solver.num_slots)
    assert wrong.tolist() != reference_counts(game, every.tolist(), every.tolist()).tolist()
    assert not np.array_equal(answer_table(game), answer_table(game).T)


def test_the_word_games_page_s_wordle_build_is_real(tmp_path, monkeypatch) -> None:
    """docs/word-games.md's Wordle session, run on the files it names (lines 21 to 60 of en-5, those and 31 words of
    en-5-guesses): the same output, timings aside."""
    from typer.testing import CliRunner
    from test_readme_sessions import REPO, blocks, mask_times, sessions

    from bactree.cli.main import app

    lists = REPO / "bactree" / "game" / "wordlists"
    secrets = (lists / "en-5.txt").read_text().splitlines()[20:60]
    others = (lists / "en-5-guesses.txt").read_text().splitlines()[199:230]
    (tmp_path / "secrets.txt").write_text("\n".join(secrets) + "\n")
    (tmp_path / "guesses.txt").write_text("\n".join(secrets + others) + "\n")
    monkeypatch.setattr("bactree.search.cost.search.REPORT_SECONDS", float("inf"))
    monkeypatch.chdir(tmp_path)
    [block] = [b for b in blocks(REPO / "docs" / "word-games.md") if "--rule wordle --words secrets.txt" in b.body]
    for args, transcript in sessions(block.body):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0 and mask_times(result.output) == mask_times(transcript), args
