"""The long-key crackers: exact on every secret of tiny games, on random keys up to n = 60, and
the oracle protocol (a fake program that garbles or lies gets a clear error naming the question)."""

from __future__ import annotations

import io
import re
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bactree.crack import (
    FIXED_ALPHABET,
    PAPER_SYMBOLS,
    ContradictionError,
    OracleError,
    ProgramOracle,
    Puzzle,
    Quit,
    SecretOracle,
    TerminalOracle,
    make_cracker,
    score,
)
from bactree.crack.run import crack as run_crack
from bactree.game import BactreeError
from naive import score as naive_score
from naive_crack import all_secrets, crack_first_consistent

EXACT = ["best", "anneal", "windows", "blocks", "count-split"]
TINY_GAMES = [(3, 4, True), (3, 5, False), (2, 2, True), (4, 3, True), (3, 3, False), (1, 4, True)]


def crack(name: str, puzzle: Puzzle, secret: np.ndarray, effort: float = 1.0) -> tuple[np.ndarray, int, SecretOracle]:
    oracle = SecretOracle(puzzle, secret)
    result = make_cracker(name, effort=effort)(oracle, None)
    assert result.queries == oracle.queries
    return result.found, result.queries, oracle


@pytest.mark.parametrize("name", EXACT)
@pytest.mark.parametrize("length,num_symbols,repeats", TINY_GAMES)
def test_exact_on_every_secret_of_tiny_games(name: str, length: int, num_symbols: int, repeats: bool) -> None:
    puzzle = Puzzle(length, PAPER_SYMBOLS[:num_symbols], repeats)
    for secret in all_secrets(length, num_symbols, repeats):
        reference, _ = crack_first_consistent(SecretOracle(puzzle, np.array(secret)))
        found, queries, oracle = crack(name, puzzle, np.array(secret))
        assert tuple(found) == tuple(reference) == secret
        assert oracle.solved and oracle.last_bulls == length  # the last question was the secret


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_exact_on_random_keys_up_to_60(data: st.DataObject) -> None:
    repeats = data.draw(st.booleans())
    length = data.draw(st.integers(1, 60))
    num_symbols = data.draw(st.integers(1 if repeats else length, max(length, 40) if not repeats else 40))
    puzzle = Puzzle(length, FIXED_ALPHABET[:num_symbols], repeats)
    seed = data.draw(st.integers(0, 2**32 - 1))
    secret = puzzle.random_code(np.random.default_rng(seed))
    if repeats and data.draw(st.booleans()):
        secret = np.sort(secret)  # runs of equal symbols, and often few distinct ones
    import bactree.crack.anneal as anneal_module
    import bactree.crack.blocks as blocks_module
    import bactree.crack.windows as windows_module

    with pytest.MonkeyPatch.context() as patch:  # fewer moves: faster, and the fallback gets exercised too
        patch.setattr(anneal_module, "FIT_MOVES", 30_000)
        patch.setattr(windows_module, "MOVES", 30_000)
        patch.setattr(blocks_module, "MOVES", 10_000)
        for name in EXACT:
            found, _, oracle = crack(name, puzzle, secret)
            assert np.array_equal(found, secret) and oracle.solved


def test_score_matches_the_rules() -> None:
    rng = np.random.default_rng(5)
    for _ in range(300):
        k = int(rng.integers(1, 6))
        guess, secret = rng.integers(0, k, 5), rng.integers(0, k, 5)
        text = lambda code: "".join(PAPER_SYMBOLS[i] for i in code)  # noqa: E731
        assert score(guess, secret, k) == naive_score(text(guess), text(secret), True)


def test_ga_woc_counts_every_fitness_evaluation_and_reports_wrong_positions() -> None:
    from bactree.crack.ga_woc import crack_ga_woc

    puzzle = Puzzle(6, PAPER_SYMBOLS[:4], True)
    for seed in range(4):
        secret = puzzle.random_code(np.random.default_rng(seed))
        oracle = SecretOracle(puzzle, secret)
        result = crack_ga_woc(oracle, seed=seed, population=10, generations=6, runs=3)
        assert result.queries == oracle.queries
        assert result.wrong == int(np.count_nonzero(result.found != secret))
        assert result.solved == (result.wrong == 0)
        if not result.solved:  # 3 runs of 6 generations of 10, then the majority
            assert result.queries == 3 * 6 * 10 + 1


def test_ga_woc_finds_a_tiny_key() -> None:
    puzzle = Puzzle(4, PAPER_SYMBOLS[:3], True)
    oracle = SecretOracle(puzzle, puzzle.parse("abca"))
    result = make_cracker("ga-woc")(oracle, None)
    assert result.solved and puzzle.format(result.found) == "abca"


def test_the_fixed_alphabet_starts_with_the_papers_37() -> None:
    assert FIXED_ALPHABET.startswith("abcdefghijklmnopqrstuvwxyz0123456789 ")
    assert len(set(FIXED_ALPHABET)) == len(FIXED_ALPHABET) >= 500
    assert all(s.isprintable() for s in FIXED_ALPHABET)


@pytest.mark.parametrize(
    "length,symbols,repeats,key,message",
    [
        (3, "abc", True, "abd", "not in the alphabet"),
        (3, "abc", True, "ab", "2 symbols"),
        (3, "abc", False, "aba", "repeats"),
    ],
)
def test_bad_keys(length: int, symbols: str, repeats: bool, key: str, message: str) -> None:
    with pytest.raises(BactreeError, match=message):
        Puzzle(length, symbols, repeats).parse(key)


def test_bad_games() -> None:
    with pytest.raises(BactreeError, match="twice"):
        Puzzle(3, "aab", True)
    with pytest.raises(BactreeError, match="at least 4 symbols"):
        Puzzle(4, "abc", False)


# A code-maker program for the protocol tests: answers for SECRET, misbehaving at question BAD.
FAKE = textwrap.dedent(
    """
    import sys
    secret, mode, bad = sys.argv[1], sys.argv[2], int(sys.argv[3])
    asked = 0
    for line in sys.stdin:
        guess = line.rstrip("\\n")
        asked += 1
        bulls = sum(g == s for g, s in zip(guess, secret))
        common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
        answer = f"{bulls} {common - bulls}"
        if asked == bad:
            lies = {"garble": "two bulls", "range": "9 9", "lie": f"{bulls + 1} {common - bulls}", "quit": None, "zero": "0 0",
                    "impossible": f"{len(secret) - 1} 1"}
            answer = lies[mode]
            if answer is None:
                break
        if mode == "zero":
            answer = "0 0"
        print(answer, flush=True)
    """
)


@pytest.fixture
def fake_program(tmp_path):
    path = tmp_path / "fake_oracle.py"
    path.write_text(FAKE)
    return lambda secret, mode, bad: f"{sys.executable} {path} '{secret}' {mode} {bad}"


def test_program_oracle_answers_like_the_secret(fake_program) -> None:
    puzzle = Puzzle(8, PAPER_SYMBOLS, True)
    oracle = ProgramOracle(puzzle, fake_program("ab cab z", "honest", 0))
    result = make_cracker("best")(oracle, None)
    oracle.close()
    assert puzzle.format(result.found) == "ab cab z" and oracle.process.returncode == 0


@pytest.mark.parametrize(
    "mode,error,text",
    [
        ("garble", OracleError, "question 3: cannot read the answer 'two bulls'"),
        ("range", OracleError, "question 3: 9 bulls and 9 cows is out of range"),
        ("impossible", OracleError, "question 3: 7 bulls and 1 cow cannot happen"),
        ("quit", OracleError, "question 3: the oracle program ended without answering"),
        ("zero", ContradictionError, "contradicts earlier answers"),
    ],
)
def test_program_oracle_errors_name_the_question(fake_program, mode: str, error: type, text: str) -> None:
    puzzle = Puzzle(8, PAPER_SYMBOLS, True)
    oracle = ProgramOracle(puzzle, fake_program("ab cab z", mode, 3))
    with pytest.raises(error, match=text):
        make_cracker("count-split")(oracle, None)
    oracle.close()


def test_terminal_oracle_asks_again_on_an_impossible_answer_and_quits() -> None:
    """The terminal refuses what `Oracle` would (same rules), stays on the question, and quits with `Quit`."""
    import io

    puzzle = Puzzle(3, "ab", True)
    shown = io.StringIO()
    oracle = TerminalOracle(puzzle, io.StringIO("2 1\n4 0\n2 0\nq\n"), shown)
    assert oracle.ask(puzzle.parse("aaa")) == (2, 0) and oracle.queries == 1
    assert "2 bulls and 1 cow cannot happen; try again" in shown.getvalue()
    assert "4 bulls and 0 cows is out of range for 3 positions; try again" in shown.getvalue()
    with pytest.raises(Quit):
        oracle.ask(puzzle.parse("baa"))
    assert not issubclass(Quit, BactreeError)  # a goodbye, not an error


class _Person(io.StringIO):
    """Someone at the terminal who answers every question from `secret`, and types u once, at question `undo_at`."""

    def __init__(self, puzzle: Puzzle, secret: str, undo_at: int | None) -> None:
        super().__init__()
        self.puzzle, self.secret, self.undo_at, self.shown = puzzle, puzzle.parse(secret), undo_at, io.StringIO()

    def readline(self, size: int = -1) -> str:
        number, asked = re.findall(r"question (\d+): \[(.*)\]\n", self.shown.getvalue())[-1]
        if int(number) == self.undo_at:
            self.undo_at = None
            return "u\n"
        bulls, cows = score(self.puzzle.parse(asked), self.secret, self.puzzle.num_symbols)
        return f"{bulls} {cows}\n"


@pytest.mark.parametrize("strategy", ["best", "count-split", "blocks", "windows"])
def test_a_take_back_replays_the_earlier_answers_and_asks_the_same_questions(strategy: str) -> None:
    """Each cracker is seeded: run again on the answers kept, it asks what it asked, so u costs no question."""
    puzzle = Puzzle(8, "abcdef", True)
    straight = _Person(puzzle, "abcdefab", None)
    expected = run_crack(puzzle, TerminalOracle(puzzle, straight, straight.shown), strategy)
    person = _Person(puzzle, "abcdefab", 5)
    result = run_crack(puzzle, TerminalOracle(puzzle, person, person.shown), strategy)
    assert result["solved"] and result["queries"] == expected["queries"]
    assert person.shown.getvalue().count("  taken back: your answer ") == 1
    assert person.shown.getvalue().count("question 4: [") == 2  # asked again after the take-back, once


def test_a_lie_is_caught(fake_program) -> None:
    """A wrong answer (one bull too many at the first question) makes the counts or the final check fail."""
    puzzle = Puzzle(8, PAPER_SYMBOLS, True)
    oracle = ProgramOracle(puzzle, fake_program("aaaabbbb", "lie", 1))
    with pytest.raises(ContradictionError, match=r"question \d+: the answer contradicts earlier answers"):
        make_cracker("best")(oracle, None)
    oracle.close()


def test_anneal_falls_back_to_count_split_at_its_question_limit(monkeypatch) -> None:
    """With no questions left to anneal, count-split's locating phase still finds the key exactly."""
    import bactree.crack.anneal as anneal_module

    puzzle = Puzzle(30, PAPER_SYMBOLS, True)
    secret = puzzle.random_code(np.random.default_rng(5))
    monkeypatch.setattr(anneal_module, "question_limit", lambda length, num_symbols: num_symbols + 3)
    found, queries, oracle = crack("anneal", puzzle, secret)
    assert np.array_equal(found, secret) and oracle.solved and queries > puzzle.num_symbols + 3


@pytest.mark.parametrize("length,num_symbols", [(100, 37), (90, 3)])
def test_windows_exact_on_long_keys(monkeypatch, length: int, num_symbols: int) -> None:
    """Windows of a 100-key with 37 symbols; with 3 symbols every window holds them all (whole-key questions)."""
    import bactree.crack.windows as windows_module

    monkeypatch.setattr(windows_module, "MOVES", 50_000)
    puzzle = Puzzle(length, FIXED_ALPHABET[:num_symbols], True)
    for seed in range(2):
        secret = puzzle.random_code(np.random.default_rng(seed))
        found, queries, oracle = crack("windows", puzzle, secret)
        assert np.array_equal(found, secret) and oracle.solved and queries <= windows_module.question_limit(length, num_symbols) + 4 * length


def test_windows_fall_back_to_count_split_at_the_question_limit(monkeypatch) -> None:
    import bactree.crack.windows as windows_module

    puzzle = Puzzle(80, PAPER_SYMBOLS, True)
    secret = puzzle.random_code(np.random.default_rng(3))
    monkeypatch.setattr(windows_module, "question_limit", lambda length, num_symbols: 40)
    monkeypatch.setattr(windows_module, "MOVES", 20_000)
    found, queries, oracle = crack("windows", puzzle, secret)
    assert np.array_equal(found, secret) and oracle.solved and queries > 40


@pytest.mark.parametrize("length,num_symbols,repeats", [(150, 37, True), (80, 3, True), (120, 6, True), (100, 100, False)])
def test_blocks_exact_on_long_keys(length: int, num_symbols: int, repeats: bool) -> None:
    """Blocks of 43 positions over 37 symbols; of 2 over 3; of 6 over 6, where a candidate often holds
    every symbol, the filler too, and a block is found only after a second filler; and a permutation."""
    puzzle = Puzzle(length, FIXED_ALPHABET[:num_symbols], repeats)
    secret = puzzle.random_code(np.random.default_rng(length))
    found, queries, oracle = crack("blocks", puzzle, secret)
    assert np.array_equal(found, secret) and oracle.solved


@pytest.mark.parametrize(
    "name,length,num_symbols,repeats,effort",
    [
        ("blocks", 150, 37, True, 0.05),
        ("blocks", 150, 37, True, 3.0),
        ("blocks", 120, 6, True, 3.0),
        ("anneal", 20, 6, True, 0.05),
        ("anneal", 20, 6, True, 3.0),
    ],
)
def test_crackers_exact_at_other_efforts(name: str, length: int, num_symbols: int, repeats: bool, effort: float) -> None:
    """Less effort (few moves: the crackers may reach their question limit and count-split) and
    more (blocks of 60 over 37 symbols, of 8 over 6) both still find the key."""
    puzzle = Puzzle(length, FIXED_ALPHABET[:num_symbols], repeats)
    secret = puzzle.random_code(np.random.default_rng(length + 1))
    found, queries, oracle = crack(name, puzzle, secret, effort)
    assert np.array_equal(found, secret) and oracle.solved


def test_block_width_grows_with_effort_and_stays_within_the_alphabet() -> None:
    from bactree.crack.blocks import WIDE_EFFORT, block_width

    assert block_width(37, 1.0) == 43 and block_width(37, WIDE_EFFORT) == 60 and block_width(37, 30.0) == 60
    assert block_width(4, 1.0) == 3 and block_width(4, WIDE_EFFORT) == 5
    assert all(1 <= block_width(k, e) <= 60 for k in range(2, 400) for e in (0.1, 1.0, 3.0))


@pytest.mark.parametrize("effort", [10.0, 3.0, 0.5])
def test_block_fits_take_effort_times_the_moves_only_late_in_a_block(monkeypatch, effort: float) -> None:
    """Fits before LATE_FITS * width questions into a block take the default moves (fewer below effort 1)."""
    import bactree.crack.blocks as blocks_module

    moves_by_stage: dict[bool, set[int]] = {False: set(), True: set()}
    anneal_block = blocks_module.anneal_block

    def noting(x, plus, minus, targets, count, caps, moves, *args):
        moves_by_stage[count >= blocks_module.LATE_FITS * len(x)].add(moves)
        return anneal_block(x, plus, minus, targets, count, caps, moves, *args)

    monkeypatch.setattr(blocks_module, "anneal_block", noting)
    monkeypatch.setattr(blocks_module, "MOVES", 2000)
    puzzle = Puzzle(150, FIXED_ALPHABET[:37], True)
    secret = puzzle.random_code(np.random.default_rng(5))
    found, queries, oracle = crack("blocks", puzzle, secret, effort)
    assert np.array_equal(found, secret) and oracle.solved
    assert moves_by_stage == {False: {round(2000 * min(effort, 1.0))}, True: {round(2000 * effort)}}


@pytest.mark.parametrize("length,effort,expected", [(250, 1.0, "blocks"), (300, 1.0, "count-split"), (300, 3.0, "blocks"), (301, 3.0, "count-split")])
def test_best_gives_keys_without_repeats_to_blocks_up_to_250_or_300_from_effort_3(monkeypatch, length: int, effort: float, expected: str) -> None:
    import bactree.crack.blocks as blocks_module
    import bactree.crack.count_split as count_split_module

    called = []
    monkeypatch.setattr(blocks_module, "crack_blocks", lambda oracle, progress, seed, effort: called.append("blocks"))
    monkeypatch.setattr(count_split_module, "crack_count_split", lambda oracle, progress: called.append("count-split"))
    puzzle = Puzzle(length, FIXED_ALPHABET[:length], False)
    make_cracker("best", effort=effort)(SecretOracle(puzzle, puzzle.random_code(np.random.default_rng(0))), None)
    assert called == [expected]


@pytest.mark.parametrize("effort", [0.0, -1.0, float("nan"), 1001.0])
def test_effort_out_of_range_is_refused(effort: float) -> None:
    with pytest.raises(BactreeError, match="--effort must be above 0"):
        make_cracker("best", effort=effort)


def test_a_block_holding_its_filler_is_taken_only_after_a_second_filler(monkeypatch) -> None:
    """A block as wide as the alphabet: the candidate fabcde (the key's block is aabcde) holds every
    symbol, and f, held least, is the filler, so its first position goes untested and the answer is full
    although that position is wrong. A second question with another filler tests it: the block is not
    taken; the right one is."""
    import bactree.crack.blocks as blocks_module

    puzzle = Puzzle(12, "abcdef", True)
    secret = np.array([0, 0, 1, 2, 3, 4, 5, 5, 5, 0, 1, 2])  # aabcde fffabc
    wrong_first = np.array([5, 0, 1, 2, 3, 4])  # f at the first position, where a is
    find_block = blocks_module._BlockCracker._find_block
    taken, fits = [], []

    def find_block_noting(self, start: int, end: int, caps: np.ndarray) -> bool:
        fits.clear()
        found = find_block(self, start, end, caps)
        taken.append((start, self.known[start:end].tolist()))
        return found

    def fit_wrong_twice(self, block: np.ndarray, *args) -> None:
        fits.append(len(fits))
        start = 0 if len(taken) == 0 else 6
        block[:] = wrong_first if start == 0 and len(fits) <= 2 else secret[start : start + 6]

    monkeypatch.setattr(blocks_module._BlockCracker, "_find_block", find_block_noting)
    monkeypatch.setattr(blocks_module._BlockCracker, "_fit", fit_wrong_twice)
    monkeypatch.setattr(blocks_module, "WIDTH", 6)
    found, queries, oracle = crack("blocks", puzzle, secret)
    assert np.array_equal(found, secret) and oracle.solved
    assert taken[0] == (0, secret[:6].tolist())


def test_blocks_fall_back_to_count_split_at_the_question_limit(monkeypatch) -> None:
    import bactree.crack.blocks as blocks_module

    puzzle = Puzzle(120, PAPER_SYMBOLS, True)
    secret = puzzle.random_code(np.random.default_rng(4))
    monkeypatch.setattr(blocks_module, "question_limit", lambda length, num_symbols: 60)
    found, queries, oracle = crack("blocks", puzzle, secret)
    assert np.array_equal(found, secret) and oracle.solved and queries > 60


def test_blocks_give_way_after_too_many_nudges_in_a_row(monkeypatch) -> None:
    """A candidate stuck on an asked code (no refit, no nudge) ends in count-split, not a loop."""
    import bactree.crack.blocks as blocks_module

    puzzle = Puzzle(50, PAPER_SYMBOLS, True)
    secret = puzzle.random_code(np.random.default_rng(6))
    nudges = []

    def stuck(self, block, caps):
        nudges.append(1)
        assert len(nudges) <= 5, "nudged past MAX_NUDGES"

    monkeypatch.setattr(blocks_module._BlockCracker, "_fit", lambda self, *args: None)
    monkeypatch.setattr(blocks_module._BlockCracker, "_nudge", stuck)
    monkeypatch.setattr(blocks_module, "MAX_NUDGES", 5)
    found, queries, oracle = crack("blocks", puzzle, secret)
    assert np.array_equal(found, secret) and oracle.solved
    assert len(nudges) == 5 and queries > puzzle.num_symbols  # counting, one block question, then count-split


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_blocks_count_and_learn_the_first_parts_composition_in_one_chain(data: st.DataObject) -> None:
    """The counts and the first part's counts are the secret's (np.bincount), even for a symbol filling the rest."""
    from bactree.crack.blocks import _BlockCracker
    from bactree.crack.count_split import _Guessed

    length = data.draw(st.integers(2, 80))
    num_symbols = data.draw(st.integers(1, 12))
    puzzle = Puzzle(length, FIXED_ALPHABET[:num_symbols], True)
    secret = puzzle.random_code(np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))))
    if data.draw(st.booleans()):
        secret = np.sort(secret)  # one symbol may hold every position after the part
    end = data.draw(st.integers(1, length - 1))
    cracker = _BlockCracker(SecretOracle(puzzle, secret), None, 0)
    try:
        part = cracker._count_with_chain(end)
    except _Guessed as hit:  # a question was the secret itself
        assert np.array_equal(hit.code, secret) and cracker.oracle.solved
        return
    assert np.array_equal(cracker.counts, np.bincount(secret, minlength=num_symbols))
    assert np.array_equal(part, np.bincount(secret[:end], minlength=num_symbols))
    assert cracker.oracle.queries <= num_symbols + np.count_nonzero(cracker.counts >= length - end)


def test_a_lie_in_the_counting_chain_is_caught_by_blocks(fake_program) -> None:
    """One bull too many in the chain (symbol 0 alone, then 36 questions) is caught by the chain's end."""
    puzzle = Puzzle(300, PAPER_SYMBOLS, True)
    key = puzzle.format(puzzle.random_code(np.random.default_rng(9)))
    for lie in (1, 20, 37):
        oracle = ProgramOracle(puzzle, fake_program(key, "lie", lie))
        with pytest.raises(ContradictionError, match=r"question \d+: the answer contradicts earlier answers") as caught:
            make_cracker("blocks")(oracle, None)
        oracle.close()
        assert int(str(caught.value).split(":")[0].removeprefix("question ")) <= 37


@pytest.mark.parametrize("wrong", [1, 5, 17])
def test_settle_finds_the_right_positions_of_a_guess_then_the_rest(wrong: int) -> None:
    """Against a filler the secret lacks, halving finds which positions of a guess are right; count-split does the rest."""
    from bactree.crack.anneal import settle
    from bactree.crack.count_split import count_symbols

    puzzle = Puzzle(40, PAPER_SYMBOLS[:10], True)
    rng = np.random.default_rng(wrong)
    secret = rng.integers(0, 9, 40)  # symbol 9 never occurs: the filler
    guess = secret.copy()
    changed = rng.choice(40, wrong, replace=False)
    guess[changed] = (guess[changed] + 1 + rng.integers(0, 8, wrong)) % 9
    oracle = SecretOracle(puzzle, secret)
    counts = count_symbols(oracle)
    bulls, _ = oracle.ask(guess)
    assert bulls == 40 - wrong
    result = settle(oracle, guess, bulls, 9, counts, None)
    assert np.array_equal(result.found, secret) and oracle.solved


def test_terminal_oracle_refuses_an_answer_no_key_gets_with_the_earlier_ones() -> None:
    """A small game checks each answer against every key at once, not a hundred questions later (issue 34)."""
    import io

    puzzle = Puzzle(2, "abc", True)
    shown = io.StringIO()
    oracle = TerminalOracle(puzzle, io.StringIO("0 0\n0 0\n1 0\n"), shown)
    assert oracle.fitting is not None and len(oracle.fitting) == 9
    assert oracle.ask(puzzle.parse("ab")) == (0, 0)  # the key is cc
    assert oracle.ask(puzzle.parse("ca")) == (1, 0)  # 0 0 refused: cc gets 1 0
    assert "  no key gets 0 0 to [ca] with the earlier answers; try again\n" in shown.getvalue()
    assert oracle.queries == 2 and [puzzle.format(k) for k in oracle.fitting] == ["cc"]


def test_terminal_oracle_keeps_the_keys_of_small_games_only() -> None:
    assert TerminalOracle(Puzzle(3, PAPER_SYMBOLS, True)).fitting.shape == (37**3, 3)
    assert TerminalOracle(Puzzle(3, PAPER_SYMBOLS, False)).fitting.shape == (37 * 36 * 35, 3)
    assert TerminalOracle(Puzzle(5, PAPER_SYMBOLS, True)).fitting is None  # checked by the cracker, later


@pytest.mark.parametrize(("length", "symbols", "repeats"), [(1, 1, True), (2, 3, True), (3, 4, False), (4, 4, False), (3, 5, True)])
def test_all_keys_lists_the_secrets_in_code_order(length: int, symbols: int, repeats: bool) -> None:
    from bactree.crack.oracles import all_keys

    keys = all_keys(Puzzle(length, "abcde"[:symbols], repeats))
    assert [tuple(int(i) for i in key) for key in keys] == all_secrets(length, symbols, repeats)
