"""Hypothesis strategies that draw small games for the comparison tests.

Symbols are drawn as arbitrary non-space characters in arbitrary order, so
the tests also check that everything follows the order of the symbols
string rather than the characters' own order.
"""

from __future__ import annotations

from hypothesis import strategies as st

from bactree.game import Game, word_game

# Printable, non-space characters, including quotes and backslashes.
SYMBOL_CHARS = st.characters(min_codepoint=33, max_codepoint=126)


@st.composite
def small_games(draw: st.DrawFn, max_codes: int = 400) -> Game:
    """A game of length 1-4 over 1-6 symbols, repeats on or off, with at most `max_codes` codes.

    The cap keeps the quadratic plain-Python references fast; larger games
    are covered by the spot checks of the two presets.
    """
    repeats = draw(st.booleans())
    length = draw(st.integers(1, 4))
    low = 1 if repeats else length
    sizes = [k for k in range(low, 7) if _num_codes(length, k, repeats) <= max_codes]
    k = draw(st.sampled_from(sizes))
    symbols = draw(st.lists(SYMBOL_CHARS, min_size=k, max_size=k, unique=True))
    return Game(length, "".join(symbols), repeats)


def _num_codes(length: int, k: int, repeats: bool) -> int:
    if repeats:
        return k**length
    count = 1
    for i in range(length):
        count *= k - i
    return count


@st.composite
def word_games(
    draw: st.DrawFn, max_letters: int = 7, max_secrets: int = 14, max_others: int = 6, rules: tuple[str, ...] = (),
    max_length: int = 4,
) -> Game:
    """A random small word game: 3 to `max_secrets` secrets of 2 to `max_length` letters, isograms or not, maybe with
    other guesses; under one of `rules` when given (else bulls and cows)."""
    length = draw(st.integers(2, max_length))
    letters = "abcdefg"[: draw(st.integers(length, max_letters))]
    isograms = draw(st.booleans())
    word = (
        st.permutations(letters).map(lambda p: "".join(p[:length]))
        if isograms
        else st.lists(st.sampled_from(letters), min_size=length, max_size=length).map("".join)
    )
    secrets = draw(st.sets(word, min_size=3, max_size=max_secrets))
    others = draw(st.sets(word, max_size=max_others)) if draw(st.booleans()) else set()
    guesses = secrets | others if others else None
    return word_game(secrets, guesses, draw(st.sampled_from(rules))) if rules else word_game(secrets, guesses)
