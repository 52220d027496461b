"""The coach's book (bactree/coach/book.py): positions found up to symmetry, entries equal to the search's, the shipped one sound.

A book ranks each position in its canonical frame, so a ranking must not depend on the frame: here too, that the
engine lists the same values for a position and for its images under symmetries of the game.
"""

from __future__ import annotations

import functools
import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_search import guess_total, least_total, parts

from bactree.coach import analyse
from bactree.coach.alike import GuessClasses
from bactree.coach.analysis import EXPECTED, analyse_position
from bactree.coach.book import (
    BOOK_TOP, Book, book_positions, canonical_pairs, key_pairs, make_book, position_key, write_book,
)
from bactree.coach.engine import WORST_CASE, Engine
from bactree.coach.position import read_history
from bactree.coach.symmetry import Symmetry
from bactree.coach.tree_values import TreeValues
from bactree.game import Game, preset
from bactree.search import Solver

TINY = [Game(3, "012345", False), Game(3, "1234", True)]
PLENTY = 600.0


@functools.cache
def tiny_book(game: Game) -> Book:
    return Book(make_book(Engine(game, EXPECTED)), "tiny")


def secrets_of(game: Game, pairs) -> frozenset[str]:
    return frozenset(s for s in game.codes if all(game.score(g, s) == a for g, a in pairs))


def random_pairs(game: Game, rng: random.Random, count: int) -> tuple:
    """`count` random guesses with the answers of a random secret they do not find."""
    while True:
        secret = rng.choice(game.codes)
        guesses = [rng.choice(game.codes) for _ in range(count)]
        if secret not in guesses:
            return tuple((g, game.score(g, secret)) for g in guesses)


@settings(max_examples=80, deadline=None)
@given(game=st.sampled_from(TINY), seed=st.integers(0, 10**9), count=st.integers(1, 2))
def test_a_history_is_carried_onto_a_book_entry_with_its_secrets(game, seed, count):
    """Any history of one or two guesses has an entry, and its symmetry carries the secrets onto the entry's."""
    pairs = random_pairs(game, random.Random(seed), count)
    found = tiny_book(game).locate(pairs)
    assert found is not None
    assert {found.symmetry(s) for s in secrets_of(game, pairs)} == secrets_of(game, found.pairs)
    assert canonical_pairs(game, found.pairs)[1] == found.pairs  # canonical histories are their own canonical form


@pytest.mark.parametrize("game", TINY, ids=str)
def test_every_entry_lists_exact_best_totals_of_distinct_guesses(game):
    """Each entry: the first total is the least total (brute force), every listed guess has its listed total."""
    book = tiny_book(game)
    assert len(book.positions) == len(book_positions(game, Solver(game)))
    for key, entry in book.positions.items():
        pairs = key_pairs(game, key)
        secrets = secrets_of(game, pairs)
        assert entry[0][1] == least_total(game, secrets)
        assert [total for _, total in entry] == sorted(total for _, total in entry)
        assert len({guess for guess, _ in entry}) == len(entry) <= BOOK_TOP
        for guess, total in entry:
            assert guess_total(game, secrets, guess) == total


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(TINY), seed=st.integers(0, 10**9), count=st.integers(1, 2), top=st.integers(1, BOOK_TOP))
def test_analyse_with_the_book_equals_the_search(game, seed, count, top):
    """Values, and the guesses' totals by brute force, agree with a search-only analysis; a named guess too."""
    rng = random.Random(seed)
    pairs = random_pairs(game, rng, count)
    position = read_history(game, [f"{g}={a}" for g, a in pairs])
    named = rng.choice(game.codes)
    booked = analyse_position(position, top, named, EXPECTED, False, PLENTY, Engine(game, EXPECTED, book=tiny_book(game)))
    searched = analyse_position(position, top, named, EXPECTED, False, PLENTY, Engine(game, EXPECTED))
    assert booked.source == "book tiny" and searched.source == "search"
    assert [v.value for v in booked.best] == [v.value for v in searched.best]
    assert booked.guess.value == searched.guess.value == guess_total(game, frozenset(position.secrets), named)
    for value in booked.best:
        assert guess_total(game, frozenset(position.secrets), value.guess) == value.value


def classes_by_brute_force(game: Game, secrets: frozenset[str]) -> dict[str, frozenset]:
    """Every code's class on `secrets`: the splits (parts, and the secret solved) of its images under every map of
    positions and symbols that sends `secrets` onto itself."""
    maps = []
    for order in itertools.permutations(range(game.length)):
        for symbols in itertools.permutations(game.symbols):
            symmetry = Symmetry(order, dict(zip(game.symbols, symbols)))
            if {symmetry(s) for s in secrets} == secrets:
                maps.append(symmetry)

    def split(guess: str) -> tuple:
        return frozenset(parts(game, secrets, guess).values()), guess if guess in secrets else None

    return {code: frozenset(split(symmetry(code)) for symmetry in maps) for code in game.codes}


def test_a_position_typed_and_its_canonical_image_list_the_same_classes():
    """3 of '1234' with repeats after 444=1B0C 422=0B2C (the book's 111=1B0C 122=0B2C): secrets 214 234 241 243.

    The guesses of total 9 split them four ways, which the set's symmetries pair into two classes: 212 splits them
    as 112 does, and a symmetry sends 212 to 223. Skipping a guess only when it split the set as a listed one did or
    lay in its orbit, the search listed 112 and 223 both (9, 9, 9) where the book, visiting in another order, did not.
    """
    game = TINY[1]
    position = read_history(game, ["444=1B0C", "422=0B2C"])
    _, canonical = canonical_pairs(game, position.pairs)
    engine = Engine(game, EXPECTED)
    classes = classes_by_brute_force(game, frozenset(position.secrets))
    typed = engine.rank(position.pairs, BOOK_TOP, None, PLENTY).best
    image = engine.rank(canonical, BOOK_TOP, None, PLENTY).best
    assert [value.lower for _, value in typed] == [value.lower for _, value in image] == [7, 8, 9, 9, 10]
    assert len({classes[guess] for guess, _ in typed}) == len(typed)  # the listed guesses lie in distinct classes
    with_book = Engine(game, EXPECTED, book=tiny_book(game))
    booked = analyse_position(position, BOOK_TOP, None, EXPECTED, False, PLENTY, with_book)
    assert booked.source == "book tiny" and [v.value for v in booked.best] == [7, 8, 9, 9, 10]


@pytest.mark.parametrize("history", [["444=1B0C", "422=0B2C"], ["123=1B2C"], ["111=1B0C"], ["112=0B1C", "341=1B1C"]])
def test_guesses_share_a_class_key_exactly_when_they_split_the_secrets_alike_up_to_symmetry(history):
    """`GuessClasses.key` against the brute force's classes, every pair of codes of 3 of '1234' with repeats."""
    game = TINY[1]
    position = read_history(game, history)
    solver = Solver(game)
    classes = GuessClasses(solver, np.array([game.code_index[s] for s in position.secrets], np.int64))
    expected = classes_by_brute_force(game, frozenset(position.secrets))
    keys = {code: classes.key(game.code_index[code]) for code in game.codes}
    for a, b in itertools.combinations(game.codes, 2):
        assert (keys[a] == keys[b]) == (expected[a] == expected[b]), (a, b)


FRAMES = [((2, 1, 0), -1), ((1, 2, 0), 1), ((0, 1, 2), 2)]  # (position order, symbols reversed or shifted by so many)


@pytest.mark.parametrize("objective", [EXPECTED, WORST_CASE])
@pytest.mark.parametrize("game", TINY, ids=str)
def test_a_ranking_lists_the_same_values_in_every_frame(game, objective):
    """Every canonical position of one or two guesses, and its images under three symmetries of the game: one list of
    values (each value listed once per class of alike guesses, whichever guess of a class is visited first)."""
    symbols = game.symbols
    symmetries = [Symmetry(order, dict(zip(symbols, symbols[::-1] if shift < 0 else symbols[shift:] + symbols[:shift])))
                  for order, shift in FRAMES]
    engine = Engine(game, objective)
    for pairs in book_positions(game, Solver(game)):
        values = [value.lower for _, value in engine.rank(pairs, BOOK_TOP, None, PLENTY).best]
        for symmetry in symmetries:
            image = tuple((symmetry(guess), answer) for guess, answer in pairs)
            image_values = [value.lower for _, value in engine.rank(image, BOOK_TOP, None, PLENTY).best]
            assert image_values == values, (pairs, symmetry)


def test_more_guesses_than_the_book_lists_are_searched():
    game = TINY[0]
    engine = Engine(game, EXPECTED, book=tiny_book(game))
    position = read_history(game, ["012=0B1C"])
    assert analyse_position(position, BOOK_TOP + 1, None, EXPECTED, False, PLENTY, engine).source == "search"
    assert analyse_position(position, BOOK_TOP, None, EXPECTED, False, PLENTY, engine).source == "book tiny"


def test_a_book_is_written_atomically_and_reads_back(tmp_path):
    game = TINY[1]
    data = make_book(Engine(game, EXPECTED))
    path = tmp_path / "book.json"
    write_book(data, path)
    assert Book.read(path).positions == data["positions"]
    assert [p.name for p in tmp_path.iterdir()] == ["book.json"]
    write_book(make_book(Engine(game, EXPECTED)), tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()  # the same inputs give the same bytes


def test_the_shipped_book_holds_every_position_and_agrees_with_the_search_on_small_ones():
    """4 of 10: every canonical position of one or two guesses has an entry; sampled small entries equal the search."""
    game = preset("bulls-cows")
    book = Book.shipped(game, EXPECTED, False)
    assert book is not None and book.top == BOOK_TOP
    solver = Solver(game)
    positions = book_positions(game, solver)
    assert sorted(book.positions) == sorted(position_key(pairs) for pairs in positions)
    engine = Engine(game, EXPECTED)
    small = [pairs for pairs in positions if len(engine.subset(pairs)) <= 40]
    for pairs in small[::25]:
        got = [[g, v.lower] for g, v in engine.rank(pairs, BOOK_TOP, None, PLENTY).best]
        assert got == book.positions[position_key(pairs)]


def test_analyse_after_two_guesses_of_4_of_10_reads_the_book():
    """A large position off the tree: the book's best guesses have the totals the search proves for them."""
    game = preset("bulls-cows")
    history = ["3748=0B1C", "9537=0B1C"]
    result = analyse(game, history)
    assert result.source.startswith("book") and result.complete and len(result.secrets) == 432
    engine = Engine(game, EXPECTED)
    subset = np.array([game.code_index[s] for s in result.secrets], np.int64)
    depth = engine._depth(2, len(subset))
    played = tuple(game.code_index[entry[:4]] for entry in history)
    best, _ = engine.search.best_guess(subset, depth, played)
    assert result.optimum.value == best
    for value in result.best[:2]:
        assert engine.search.guess_value(subset, depth, game.code_index[value.guess], value.value + 1, played) == value.value


def test_a_resumed_book_equals_one_made_at_once():
    """Checkpoints hold the entries so far; a run given them ranks only the rest and ends with the same book."""
    game = TINY[1]
    whole = make_book(Engine(game, EXPECTED))
    saved = []
    make_book(Engine(game, EXPECTED), checkpoint=lambda so_far: saved.append(dict(so_far["positions"])), every=10)
    assert saved and all(len(entries) == 10 * (i + 1) for i, entries in enumerate(saved))
    ranked = []
    resumed = make_book(Engine(game, EXPECTED), progress=ranked.append, done=saved[0])
    assert resumed == whole
    assert len(ranked) == len(whole["positions"]) - len(saved[0])


def test_the_shipped_mastermind_book_holds_every_position_after_one_guess_and_agrees_with_the_search():
    """Mastermind 4x6, one guess deep: every canonical position of one guess, sampled entries equal the search; a
    position after two guesses is not in it (the search values it)."""
    game = preset("mastermind")
    book = Book.shipped(game, EXPECTED, False)
    assert book is not None and book.guesses == 1
    positions = book_positions(game, Solver(game), guesses=1)
    assert sorted(book.positions) == sorted(position_key(pairs) for pairs in positions)
    engine = Engine(game, EXPECTED)
    for pairs in positions[::7]:
        got = [[g, v.lower] for g, v in engine.rank(pairs, BOOK_TOP, None, PLENTY).best]
        assert got == book.positions[position_key(pairs)]
    two = positions[0] + ((positions[0][0][0], positions[0][0][1]),)
    assert book.locate(positions[0]) is not None and book.locate(two) is None


def test_the_shipped_book_agrees_with_the_shipped_tree_on_its_path():
    """Wherever a position of the book lies on the proven expected tree, the book's best total is the subtree's."""
    game = preset("bulls-cows")
    book = Book.shipped(game, EXPECTED, False)
    engine = Engine(game, EXPECTED, tree=TreeValues.shipped(game, False))
    checked = 0
    for key, entry in book.positions.items():
        pairs = key_pairs(game, key)
        on = engine.tree.locate(pairs)
        if on is not None:
            assert engine._tree_total(on.node, engine.subset(on.pairs)) == entry[0][1], key
            checked += 1
    assert checked >= 13  # every answer to the first guess, at least
