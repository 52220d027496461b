"""The game model: validation, parsing, code order, presets, and answers against brute force."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive
from bactree.game import (
    PRESETS,
    Answer,
    BactreeError,
    Game,
    InvalidAnswerError,
    InvalidCodeError,
    InvalidGameError,
    game_slug,
    make_game,
    preset,
)
from game_strategies import small_games

BULLS_COWS = Game(4, "0123456789", False)
MASTERMIND = Game(4, "123456", True)


# --- validation -------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "symbols", "repeats", "message"),
    [
        (0, "0123", False, "invalid game: length must be at least 1, got 0"),
        (-2, "0123", True, "invalid game: length must be at least 1, got -2"),
        (1, "", True, "invalid game: the alphabet is empty"),
        (5, "0123", False, "invalid game: 5 positions need at least 5 symbols without repeats, got 4"),
        (2, "0120", False, "invalid game: symbol '0' appears twice in '0120'"),
        (2, "ab a", True, "invalid game: symbol 'a' appears twice in 'ab a'"),
        (2, "a b", True, "invalid game: whitespace is not a symbol ('a b')"),
    ],
)
def test_invalid_games_say_what_is_wrong(length: int, symbols: str, repeats: bool, message: str) -> None:
    with pytest.raises(InvalidGameError) as info:
        Game(length, symbols, repeats)
    assert str(info.value) == message


def test_more_positions_than_symbols_is_fine_with_repeats() -> None:
    assert len(Game(5, "01", True).codes) == 32


def test_errors_are_value_errors() -> None:
    """Callers can catch every bad-input error as `BactreeError` or plain `ValueError`."""
    for cls in (InvalidGameError, InvalidCodeError, InvalidAnswerError):
        assert issubclass(cls, BactreeError)
    assert issubclass(BactreeError, ValueError)


# --- codes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1123", "invalid code '1123': symbol '1' repeats"),
        ("123", "invalid code '123': expected 4 symbols, got 3"),
        ("12345", "invalid code '12345': expected 4 symbols, got 5"),
        ("12a4", "invalid code '12a4': symbol 'a' is not one of '0123456789'"),
        ("", "invalid code '': expected 4 symbols, got 0"),
    ],
)
def test_parse_code_errors_quote_the_input(text: str, message: str) -> None:
    with pytest.raises(InvalidCodeError) as info:
        BULLS_COWS.parse_code(text)
    assert str(info.value) == message


def test_parse_code_accepts_valid_codes() -> None:
    assert BULLS_COWS.parse_code("0123") == "0123"
    assert BULLS_COWS.parse_code(" 9876\n") == "9876"  # typed input: surrounding space is dropped
    assert MASTERMIND.parse_code("1111") == "1111"
    assert BULLS_COWS.format_code(BULLS_COWS.parse_code("5047")) == "5047"


def test_mastermind_rejects_symbols_outside_the_alphabet() -> None:
    with pytest.raises(InvalidCodeError, match=r"symbol '0' is not one of '123456'"):
        MASTERMIND.parse_code("1230")


def test_codes_small_example_in_symbol_order() -> None:
    """Order is that of the symbols string, not of the characters."""
    assert Game(2, "ba", True).codes == ("bb", "ba", "ab", "aa")
    assert Game(2, "cab", False).codes == ("ca", "cb", "ac", "ab", "bc", "ba")


@settings(max_examples=100, deadline=None)
@given(small_games())
def test_codes_are_every_valid_code_in_lexicographic_symbol_order(game: Game) -> None:
    codes = game.codes
    rank = {s: i for i, s in enumerate(game.symbols)}
    assert list(codes) == sorted(codes, key=lambda c: [rank[s] for s in c])
    assert len(set(codes)) == len(codes)
    k, n = game.num_symbols, game.length
    assert len(codes) == (k**n if game.repeats else math.perm(k, n))
    for code in codes:
        assert game.parse_code(code) == code
    assert all(game.code_index[c] == i for i, c in enumerate(codes))


# --- answers ----------------------------------------------------------------


def test_answer_prints_and_reads_back() -> None:
    assert str(Answer(1, 2)) == "1B2C"
    assert Answer.from_str("1B2C") == Answer(1, 2)
    assert Answer.from_str(" 0b4c ") == Answer(0, 4)
    with pytest.raises(InvalidAnswerError, match=r"invalid answer '1B2': expected the form 1B2C"):
        Answer.from_str("1B2")


def test_answers_sort_by_bulls_then_cows() -> None:
    assert sorted([Answer(1, 0), Answer(0, 3), Answer(0, 1)]) == [Answer(0, 1), Answer(0, 3), Answer(1, 0)]


@pytest.mark.parametrize("text", ["1B2C", "1b2c", "1 2", "12", " 1B 2C ", "1,2", "1/2"])
def test_parse_answer_forms(text: str) -> None:
    assert BULLS_COWS.parse_answer(text) == Answer(1, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3B1C", "impossible answer 3B1C: 3 bulls leave one symbol, which cannot be a cow"),
        ("31", "impossible answer 3B1C: 3 bulls leave one symbol, which cannot be a cow"),
        ("3 2", "impossible answer 3B2C: bulls plus cows cannot exceed 4"),
        ("5B0C", "impossible answer 5B0C: bulls plus cows cannot exceed 4"),
    ],
)
def test_parse_answer_rejects_impossible_answers(text: str, message: str) -> None:
    with pytest.raises(InvalidAnswerError) as info:
        BULLS_COWS.parse_answer(text)
    assert str(info.value) == message


def test_impossible_by_alphabet_size() -> None:
    """4 distinct of 5 symbols always share at least 3, so 1B1C cannot happen."""
    game = Game(4, "01234", False)
    with pytest.raises(InvalidAnswerError, match=r"impossible answer 1B1C: no guess and secret"):
        game.parse_answer("1B1C")
    assert game.parse_answer("1B2C") == Answer(1, 2)


@pytest.mark.parametrize("text", ["", "B", "xyz", "1B", "123", "1-2"])
def test_parse_answer_rejects_unreadable_input(text: str) -> None:
    with pytest.raises(InvalidAnswerError, match=r"invalid answer .*: type bulls and cows as 1B2C"):
        BULLS_COWS.parse_answer(text)


def test_parse_answer_reads_two_digits_only_when_unambiguous() -> None:
    """With 10+ positions `12` could be 12 bulls; only the spelled-out forms are read."""
    wide = Game(10, "0123456789", True)
    assert wide.parse_answer("1 2") == Answer(1, 2)
    with pytest.raises(InvalidAnswerError, match="invalid answer '12'"):
        wide.parse_answer("12")


def test_preset_answers_known_lists() -> None:
    """Both presets: every (b, c) with b + c <= 4 except 3B1C, i.e. 14 answers."""
    expected = tuple(Answer(b, c) for b in range(5) for c in range(5 - b) if (b, c) != (3, 1))
    assert BULLS_COWS.answers == expected
    assert MASTERMIND.answers == expected
    assert BULLS_COWS.solved == Answer(4, 0)


@settings(max_examples=100, deadline=None)
@given(small_games())
def test_answers_equal_brute_force(game: Game) -> None:
    assert [(a.bulls, a.cows) for a in game.answers] == naive.possible_answers(game)


@pytest.mark.parametrize(
    ("length", "k"), [(n, k) for n in range(1, 10) for k in range(1, n + 1) if k**n <= 512]
)
def test_answers_with_repeats_and_few_symbols_equal_brute_force(length: int, k: int) -> None:
    """The irregular case (no more symbols than positions), every small game of it."""
    game = Game(length, "abcdefghi"[:k], True)
    assert [(a.bulls, a.cows) for a in game.answers] == naive.possible_answers(game)


def test_answers_of_a_large_game_with_repeats_are_quick() -> None:
    """10 of 10 with repeats has 10**10 codes; its answers must not enumerate them."""
    game = Game(10, "0123456789", True)
    expected = [Answer(b, c) for b in range(11) for c in range(11 - b) if (b, c) != (9, 1)]
    assert list(game.answers) == expected


@settings(max_examples=60, deadline=None)
@given(small_games(), st.randoms(use_true_random=False))
def test_score_equals_reference(game: Game, rnd: random.Random) -> None:
    codes = game.codes
    for _ in range(200):
        guess, secret = rnd.choice(codes), rnd.choice(codes)
        answer = game.score(guess, secret)
        assert (answer.bulls, answer.cows) == naive.score(guess, secret, game.repeats)


def test_reference_score_known_cases() -> None:
    """The reference itself, on answers worked out by hand."""
    assert naive.score("1234", "1234", False) == (4, 0)
    assert naive.score("1234", "4321", False) == (0, 4)
    assert naive.score("1234", "1243", False) == (2, 2)
    assert naive.score("1234", "5678", False) == (0, 0)
    assert naive.score("1122", "1212", True) == (2, 2)
    assert naive.score("1111", "1222", True) == (1, 0)
    assert naive.score("1123", "3311", True) == (0, 3)
    assert naive.score("6611", "1166", True) == (0, 4)


@settings(max_examples=60, deadline=None)
@given(small_games())
def test_check_answer_agrees_with_answers(game: Game) -> None:
    """Every listed answer passes `check_answer`; every other (b, c) with b + c <= n + 1 fails."""
    n = game.length
    for b, c in itertools.product(range(n + 2), repeat=2):
        answer = Answer(b, c)
        if answer in game.answers:
            game.check_answer(answer)
        else:
            with pytest.raises(InvalidAnswerError, match=f"impossible answer {game.answer_text(answer)}"):
                game.check_answer(answer)


# --- presets ----------------------------------------------------------------


def test_presets() -> None:
    assert preset("bulls-cows") == BULLS_COWS
    assert preset("mastermind") == MASTERMIND
    assert len(BULLS_COWS.codes) == 5040
    assert len(MASTERMIND.codes) == 1296
    assert set(PRESETS) == {"bulls-cows", "mastermind"}


def test_unknown_preset_lists_the_names() -> None:
    with pytest.raises(InvalidGameError) as info:
        preset("chess")
    assert str(info.value) == "unknown game 'chess': choose one of bulls-cows, mastermind"


def test_make_game_overrides_fields() -> None:
    assert make_game() == BULLS_COWS
    assert make_game("mastermind", length=5) == Game(5, "123456", True)
    assert make_game("bulls-cows", symbols="123456789") == Game(4, "123456789", False)
    assert make_game("bulls-cows", repeats=True) == Game(4, "0123456789", True)
    with pytest.raises(InvalidGameError, match="positions need at least"):
        make_game("bulls-cows", length=11)


def test_game_slug() -> None:
    assert game_slug(BULLS_COWS) == "bulls-cows-4x10"
    assert game_slug(MASTERMIND) == "mastermind-4x6"
    assert game_slug(Game(3, "0123456789", False)) == "bulls-cows-3x10"
    assert game_slug(Game(3, "ABCDEF", True)) == "mastermind-3x6"
    assert game_slug(Game(3, "ABCD", False)) == "bulls-cows-3x4"
