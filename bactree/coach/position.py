"""A position: the guesses made so far with their answers, read and checked entry by entry.

Pure Python (like the walker): a history that cannot be read, or that no
secret fits, is refused with one line naming the entry at fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..game import Answer, AnyAnswer, BactreeError, Reply, Game, InvalidAnswerError, InvalidCodeError
from ..walker import inconsistent_answer

Pair = tuple[str, AnyAnswer]


class InvalidHistoryError(BactreeError):
    """A history entry that cannot be read, is impossible, or contradicts the entries before it."""


@dataclass(frozen=True)
class Position:
    """The guesses so far with their answers (`pairs`), and the secrets that still fit them, in code order."""

    game: Game
    pairs: tuple[Pair, ...]
    secrets: tuple[str, ...]

    @property
    def solved(self) -> bool:
        return bool(self.pairs) and self.pairs[-1][1] == self.game.solved

    def after(self, guess: str, answer: AnyAnswer) -> Position:
        """The position once `guess` got `answer` (assumed possible here)."""
        score = self.game.scorer(guess)
        left = tuple(s for s in self.secrets if score(s) == answer)
        return Position(self.game, (*self.pairs, (guess, answer)), left)


def entry_text(guess: str, answer: AnyAnswer | str) -> str:
    """`0123=0B2C`, the form a history entry is typed in."""
    return f"{guess}={answer}"


def read_entry(game: Game, entry: str | tuple[str, AnyAnswer | str]) -> Pair:
    """One entry, `GUESS=ANSWER` (or `GUESS ANSWER`) or a (guess, answer) pair; the error says what is wrong."""
    if isinstance(entry, str):
        parts = [p for p in re.split(r"[=\s]+", entry.strip()) if p]
        if len(parts) != 2:
            raise InvalidHistoryError(f"expected GUESS=ANSWER, e.g. {example_entry(game)}")
        guess_text, answer_text = parts
    else:
        guess_text, answer_text = entry[0], entry[1]
    guess = game.parse_code(guess_text)
    if isinstance(answer_text, (Answer, Reply)):
        game.check_answer(answer_text)
        return guess, answer_text
    return guess, game.parse_answer(str(answer_text))


def example_entry(game: Game) -> str:
    """An entry of `game` as it is typed, for an error to show: its first and last secrets' answer, `0123=0B0C`."""
    first, last = game.secret_codes[0], game.secret_codes[-1]
    return entry_text(first, game.scorer(first)(last))


def read_history(game: Game, entries: Iterable[str | tuple[str, AnyAnswer | str]], finished: bool = False) -> Position:
    """The position the entries reach; `InvalidHistoryError` names the first entry at fault (`guess 2 (4567=1B0C): ...`).

    An all-bulls answer ends the game: it may only come last, and only if `finished` (a played game under review).
    """
    secrets = list(game.secret_codes)
    pairs: list[Pair] = []
    for number, entry in enumerate(entries, 1):
        shown = entry.strip() if isinstance(entry, str) else entry_text(str(entry[0]), str(entry[1]))
        where = f"guess {number} ({shown})"
        if pairs and pairs[-1][1] == game.solved:
            raise InvalidHistoryError(f"{where}: the game ended at guess {number - 1}, which found the secret")
        try:
            guess, answer = read_entry(game, entry)
        except (InvalidHistoryError, InvalidCodeError, InvalidAnswerError) as err:
            raise InvalidHistoryError(f"{where}: {err}") from None
        score = game.scorer(guess)
        left = [s for s in secrets if score(s) == answer]
        if not left:
            err = inconsistent_answer(game, pairs, guess, answer)
            raise InvalidHistoryError(f"{where}: {err}")
        pairs.append((guess, answer))
        secrets = left
    if pairs and pairs[-1][1] == game.solved and not finished:
        raise InvalidHistoryError(f"guess {len(pairs)} ({entry_text(*pairs[-1])}) found the secret: nothing is left to analyse")
    return Position(game, tuple(pairs), tuple(secrets))


def history_text(pairs: Sequence[Pair]) -> str:
    """`0123=0B2C 4567=1B0C`, or `the start` for no guesses."""
    return " ".join(entry_text(g, a) for g, a in pairs) if pairs else "the start"
