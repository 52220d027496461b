"""Answer rules: how a secret answers a guess, one small object per rule, found by name in `RULES`.

The tree format's version 2 names four (`bulls-cows`, `bulls`, `jotto`,
`wordle`). A rule scores a guess against a secret, formats an answer as its
key (`1B2C`, `1B`, `2`, `BYGBB`), reads a typed one, lists the answers a game
can get and says which ends the game; for the search it numbers each answer
with a slot (a small integer, in the order the format sorts the keys) and
declares what the engine's pruning may assume of it. The engine asks these
properties and never a rule's name.

Pure Python, like the game model that holds a rule.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

from .errors import InvalidAnswerError, InvalidGameError

PEGS_ANSWER = r"\d+\s*black\s*,?\s*\d+\s*white"  # a Mastermind answer as `Game.answer_text` writes it
ECHO_AT_MOST = 40  # characters of a refused input quoted back in its error


def echo(text: str) -> str:
    """Refused input quoted for its error, cut short if it is long: a pasted page is not echoed whole."""
    if len(text) <= ECHO_AT_MOST:
        return repr(text)
    return f"{text[:ECHO_AT_MOST]!r}... ({len(text):,} characters)"


@dataclass(frozen=True, order=True)
class Answer:
    """The reply to a guess under `bulls-cows`: bulls (right place) and cows (right symbol, wrong place)."""

    bulls: int
    cows: int

    def __str__(self) -> str:
        return f"{self.bulls}B{self.cows}C"

    @classmethod
    def from_str(cls, text: str) -> Answer:
        """Read `1B2C` (any case); the inverse of `str(answer)`."""
        match = re.fullmatch(r"\s*(\d+)\s*[bB]\s*(\d+)\s*[cC]\s*", text)
        if not match:
            raise InvalidAnswerError(f"invalid answer {echo(text)}: expected the form 1B2C")
        return cls(int(match.group(1)), int(match.group(2)))


@dataclass(frozen=True, order=True)
class Reply:
    """The reply to a guess under a rule other than `bulls-cows`: its slot, which orders replies as the format sorts
    their keys, and its key (`1B`, `2`, `BYGBB`), which is how it prints."""

    slot: int
    key: str = field(compare=False)

    def __str__(self) -> str:
        return self.key


AnyAnswer = Answer | Reply


class Rule:
    """How a secret answers a guess. Subclasses fill in the scoring, the slots and the forms of an answer.

    Declared for the search (`bactree.search`), each True only where proven
    for the rule:

    - `mutual`: a secret gives a guess the answer the guess would give the
      secret, so the answer table may be read by rows or by columns;
    - `relabellings`: relabelling the positions and symbols of both codes
      alike keeps the answer, so the symmetry pruning of a game of every
      code holds;
    - `bulls_and_shared`: the answer is a function of the bulls and the
      number of symbols the two codes share (the sum over symbols of the
      lesser count), and whether the guess is the secret; so rearrangements
      of one multiset that get as many bulls answer alike (crowds), and
      secrets sharing v symbols with a guess outside the set give it at most
      v + 1 answers;
    - `tells_shared`: the answer says how many symbols are shared, so parts
      of secrets sharing different numbers never mix.
    """

    name: str = ""
    summary: str = ""
    told_as: str = ""  # what an answer gives, for a prompt: "Answer each guess with bulls and cows"
    forms: str = ""  # how an answer may be typed, for a prompt
    numbers: int = 0  # how many numbers an answer is (`Walk.answer(1, 2)`): 2, 1, or 0 for a rule of marks
    cows: bool = False  # the answer is bulls and cows, its slot `bulls * (length + 1) + cows`
    mutual: bool = True
    relabellings: bool = True
    bulls_and_shared: bool = True
    tells_shared: bool = True

    def __repr__(self) -> str:
        return f"<rule {self.name}>"

    def __reduce__(self) -> tuple[Callable[[str], Rule], tuple[str]]:
        """Unpickled as the registry's own rule, so a game sent to a worker process equals the game it came from."""
        return rule_named, (self.name,)

    def num_slots(self, length: int) -> int:
        """How many slots answers are numbered in (some may go unused)."""
        raise NotImplementedError

    def slot(self, answer: AnyAnswer, length: int) -> int:
        """The answer's slot: ascending slots are the format's order of keys."""
        raise NotImplementedError

    def from_slot(self, slot: int, length: int) -> AnyAnswer:
        """The answer a slot numbers; the inverse of `slot`."""
        raise NotImplementedError

    def solved(self, length: int) -> AnyAnswer:
        """The answer a secret gives a guess that is itself, and only then: the game is won."""
        raise NotImplementedError

    def scorer(self, guess: str) -> Callable[[str], AnyAnswer]:
        """A function of the secret giving its answer to `guess`; what depends on the guess alone worked out once."""
        raise NotImplementedError

    def score(self, guess: str, secret: str) -> AnyAnswer:
        """The answer `secret` gives `guess`."""
        return self.scorer(guess)(secret)

    def slot_of_bulls_cows(self, bulls: int, cows: int, length: int) -> int | None:
        """The slot of the answer a pair of codes gets when they give each other `bulls` and `cows` (the `bulls-cows`
        rule), so the answer table is mapped from that rule's; None for a rule whose answer depends on more."""
        return None

    def parse(self, text: str, length: int, pegs: bool = False) -> AnyAnswer:
        """Read an answer as a person types it; `InvalidAnswerError` quoting the text if it is no answer. `pegs`: the
        game tells answers in Mastermind's key pegs (`Game.pegs`)."""
        raise NotImplementedError

    def say(self, answer: AnyAnswer, pegs: bool = False) -> str:
        """The answer as a player says it (`Game.answer_text`): its key, unless told in key pegs."""
        return str(answer)

    def read_key(self, key: str, length: int) -> AnyAnswer:
        """Read a tree file's answer key (`InvalidAnswerError` if it is none); its writing is checked by the caller,
        against `str` of the answer."""
        return self.parse(key, length)

    def answers(self, length: int, num_symbols: int, repeats: bool) -> tuple[AnyAnswer, ...]:
        """The answers some guess gets from some secret of the game of every code over the symbols, ascending (a
        game of lists gets no others, though it may miss some)."""
        raise NotImplementedError

    def impossible(self, answer: AnyAnswer, length: int, pegs: bool = False) -> str:
        """Why no guess and secret give `answer` (for a message)."""
        return "no guess and secret of this game give it"


@lru_cache(maxsize=None)
def _answer_of(length: int) -> list[list[Answer]]:
    """`_answer_of(n)[bulls][cows]`: one `Answer` per reply, made once rather than one per secret scored."""
    return [[Answer(bulls, cows) for cows in range(length + 1 - bulls)] for bulls in range(length + 1)]


def _bulls(guess: str, secret: str) -> int:
    return sum(map(operator.eq, guess, secret))


def _shared_counter(guess: str) -> Callable[[str], int]:
    """The number of symbols `guess` shares with a secret: the sum over symbols of the lesser count."""
    symbols = set(guess)
    if len(symbols) == len(guess):  # distinct symbols: each one in the secret counts once
        return lambda secret: len(symbols.intersection(secret))
    counts = [(c, guess.count(c)) for c in symbols]
    return lambda secret: sum(min(n, secret.count(c)) for c, n in counts)


class BullsCows(Rule):
    """Bulls, and cows: the symbols shared minus the bulls (Mastermind's white pegs when codes repeat symbols)."""

    name = "bulls-cows"
    summary = "1B2C: bulls and cows"
    told_as = "bulls and cows"
    forms = "1B2C, 1b2c, '1 2' or 12"
    numbers = 2
    cows = True

    def num_slots(self, length: int) -> int:
        return (length + 1) ** 2

    def slot(self, answer: AnyAnswer, length: int) -> int:
        return answer.bulls * (length + 1) + answer.cows  # type: ignore[union-attr]

    def from_slot(self, slot: int, length: int) -> Answer:
        return Answer(*divmod(int(slot), length + 1))

    def solved(self, length: int) -> Answer:
        return Answer(length, 0)

    def slot_of_bulls_cows(self, bulls: int, cows: int, length: int) -> int:
        return bulls * (length + 1) + cows

    def scorer(self, guess: str) -> Callable[[str], Answer]:
        answer_of = _answer_of(len(guess))
        shared = _shared_counter(guess)

        def score(secret: str) -> Answer:
            bulls = sum(map(operator.eq, guess, secret))
            return answer_of[bulls][shared(secret) - bulls]

        return score

    def parse(self, text: str, length: int, pegs: bool = False) -> Answer:
        """`1B2C`, `1b2c`, `1 2` or `12` (two digits while codes are shorter than 10), or `1 black, 2 white`."""
        raw = text.strip()
        match = re.fullmatch(r"(\d+)\s*[bB]\s*(\d+)\s*[cC]", raw) or re.fullmatch(
            r"(\d+)[\s,/]+(\d+)", raw
        ) or re.fullmatch(PEGS_ANSWER.replace(r"\d+", r"(\d+)"), raw)
        if match:
            return Answer(int(match.group(1)), int(match.group(2)))
        if re.fullmatch(r"\d\d", raw) and length < 10:
            return Answer(int(raw[0]), int(raw[1]))
        told = "black and white pegs" if pegs else "bulls and cows"
        raise InvalidAnswerError(f"invalid answer {echo(text)}: type {told} as 1B2C, '1 2' or 12")

    def say(self, answer: AnyAnswer, pegs: bool = False) -> str:
        assert isinstance(answer, Answer)
        return f"{answer.bulls} black, {answer.cows} white" if pegs else str(answer)

    def read_key(self, key: str, length: int) -> Answer:
        return Answer.from_str(key)

    def answers(self, length: int, num_symbols: int, repeats: bool) -> tuple[Answer, ...]:
        n, k = length, num_symbols
        if repeats and k <= n:
            # Small alphabets with repeats rule out answers irregularly (2 of 2 symbols
            # never gives 0B1C). Enumerating codes would take k**n steps; count instead.
            return _answers_with_repeats(n, k)
        found = []
        for bulls in range(n + 1):
            for cows in range(n + 1 - bulls):
                if cows == 1 and bulls + cows == n:
                    continue  # the one misplaced symbol would have to sit in its own place
                if not repeats and bulls + cows < 2 * n - k:
                    continue  # n distinct symbols each out of k share at least 2n-k
                found.append(Answer(bulls, cows))
        return tuple(found)

    def impossible(self, answer: AnyAnswer, length: int, pegs: bool = False) -> str:
        assert isinstance(answer, Answer)
        if answer.bulls + answer.cows > length:
            return f"black and white pegs cannot exceed {length} together" if pegs else f"bulls plus cows cannot exceed {length}"
        if answer.bulls == length - 1 and answer.cows == 1:
            one = answer.bulls == 1
            if pegs:
                return f"{'1 black peg leaves' if one else f'{answer.bulls} black pegs leave'} one peg, which cannot be white"
            return f"{'1 bull leaves' if one else f'{answer.bulls} bulls leave'} one symbol, which cannot be a cow"
        return super().impossible(answer, length)


class Bulls(Rule):
    """Bulls alone: symbols in their place (Mastermind's black pegs without the white)."""

    name = "bulls"
    summary = "1B: bulls alone"
    told_as = "bulls"
    forms = "1B, 1b or 1"
    numbers = 1
    tells_shared = False  # 1B may share one symbol or all of them

    def num_slots(self, length: int) -> int:
        return length + 1

    def slot(self, answer: AnyAnswer, length: int) -> int:
        return answer.slot  # type: ignore[union-attr]

    def from_slot(self, slot: int, length: int) -> Reply:
        return Reply(int(slot), f"{int(slot)}B")

    def solved(self, length: int) -> Reply:
        return self.from_slot(length, length)

    def slot_of_bulls_cows(self, bulls: int, cows: int, length: int) -> int:
        return bulls

    def scorer(self, guess: str) -> Callable[[str], Reply]:
        replies = [self.from_slot(b, len(guess)) for b in range(len(guess) + 1)]
        return lambda secret: replies[_bulls(guess, secret)]

    def parse(self, text: str, length: int, pegs: bool = False) -> Reply:
        """`1B`, `1b` or `1`."""
        match = re.fullmatch(r"\s*(\d+)\s*[bB]?\s*", text)
        if not match:
            raise InvalidAnswerError(f"invalid answer {echo(text)}: type the bulls as 1B or 1")
        return self.from_slot(int(match.group(1)), length)

    def answers(self, length: int, num_symbols: int, repeats: bool) -> tuple[Reply, ...]:
        found = {answer.bulls for answer in BULLS_COWS.answers(length, num_symbols, repeats)}
        return tuple(self.from_slot(b, length) for b in sorted(found))

    def impossible(self, answer: AnyAnswer, length: int, pegs: bool = False) -> str:
        if answer.slot > length:  # type: ignore[union-attr]
            return f"bulls cannot exceed {length}"
        return super().impossible(answer, length)


class Jotto(Rule):
    """Symbols in common, place ignored. An anagram of the guess answers `n` as the guess itself would: the win is
    an answer of its own (`won`), told apart from the number, as the format says."""

    name = "jotto"
    summary = "2: symbols in common"
    told_as = "the letters in common"
    forms = "a number, or won when the guess is the secret"
    numbers = 1
    WON = "won"

    def num_slots(self, length: int) -> int:
        return length + 2  # 0 to n in common, then the win

    def slot(self, answer: AnyAnswer, length: int) -> int:
        return answer.slot  # type: ignore[union-attr]

    def from_slot(self, slot: int, length: int) -> Reply:
        slot = int(slot)
        return Reply(slot, self.WON if slot == length + 1 else str(slot))

    def solved(self, length: int) -> Reply:
        return self.from_slot(length + 1, length)

    def slot_of_bulls_cows(self, bulls: int, cows: int, length: int) -> int:
        return length + 1 if bulls == length else bulls + cows  # all bulls: the guess is the secret

    def scorer(self, guess: str) -> Callable[[str], Reply]:
        n = len(guess)
        replies = [self.from_slot(c, n) for c in range(n + 2)]
        shared = _shared_counter(guess)
        return lambda secret: replies[n + 1] if secret == guess else replies[shared(secret)]

    def parse(self, text: str, length: int, pegs: bool = False) -> Reply:
        """A number (`2`), or `won` (any case) when the guess is the secret."""
        raw = text.strip()
        if raw.lower() == self.WON:
            return self.solved(length)
        if not re.fullmatch(r"\d+", raw):
            raise InvalidAnswerError(f"invalid answer {echo(text)}: type the symbols in common as a number, or won")
        if int(raw) > length:  # slot n + 1 is the win, not a number
            raise InvalidAnswerError(f"impossible answer {int(raw)}: no more than {length} symbols can be in common")
        return self.from_slot(int(raw), length)

    def answers(self, length: int, num_symbols: int, repeats: bool) -> tuple[Reply, ...]:
        found = {
            answer.bulls + answer.cows
            for answer in BULLS_COWS.answers(length, num_symbols, repeats)
            if answer.bulls < length  # n in common from a code other than the guess: an anagram
        }
        return tuple(self.from_slot(c, length) for c in sorted(found | {length + 1}))


class Wordle(Rule):
    """One mark a position: `G` where the secret holds the guess's symbol there; then, left to right over the other
    positions, `Y` while the symbol has copies left among the secret's positions not marked `G`, else `B`."""

    name = "wordle"
    summary = "GYBBG: a mark a position"
    told_as = "a mark a position"
    forms = "G green, Y yellow, B grey, any case; grey also . - or x: GYBBG, gy..g"
    MARKS = "BGY"  # a slot is the marks as digits in base 3, first position first: code point order of the keys
    GREY = "B.-X"  # typed for grey: Selby's B, Norvig's ., and - or x
    mutual = False  # crane to trace is YGGBG, trace to crane BGGYG
    relabellings = False  # which copy of a repeated letter is yellow depends on the order of positions
    bulls_and_shared = False  # the greens' places and the yellows' tell rearrangements apart

    def num_slots(self, length: int) -> int:
        return 3**length

    def slot(self, answer: AnyAnswer, length: int) -> int:
        return answer.slot  # type: ignore[union-attr]

    def from_slot(self, slot: int, length: int) -> Reply:
        rest, marks = int(slot), []
        for _ in range(length):
            rest, mark = divmod(rest, 3)
            marks.append(self.MARKS[mark])
        return Reply(int(slot), "".join(reversed(marks)))

    def _slot_of(self, key: str) -> int:
        value = 0
        for mark in key:
            value = 3 * value + self.MARKS.index(mark)
        return value

    def solved(self, length: int) -> Reply:
        return Reply(self._slot_of("G" * length), "G" * length)

    def scorer(self, guess: str) -> Callable[[str], Reply]:
        replies: dict[str, Reply] = {}

        def score(secret: str) -> Reply:
            marks = ["G" if g == s else "" for g, s in zip(guess, secret)]
            left: dict[str, int] = {}
            for mark, s in zip(marks, secret):
                if not mark:
                    left[s] = left.get(s, 0) + 1
            for i, g in enumerate(guess):
                if not marks[i]:
                    if left.get(g, 0) > 0:
                        left[g] -= 1
                        marks[i] = "Y"
                    else:
                        marks[i] = "B"
            key = "".join(marks)
            reply = replies.get(key)
            if reply is None:
                reply = replies[key] = Reply(self._slot_of(key), key)
            return reply

        return score

    def parse(self, text: str, length: int, pegs: bool = False) -> Reply:
        """The marks in any case, grey as `B`, `.`, `-` or `x`: `GYBBG`, `gy..g`, `GYxxG`."""
        raw = text.strip().upper()
        key = "".join("B" if mark in self.GREY else mark for mark in raw)
        if not key or any(mark not in self.MARKS for mark in key):
            raise InvalidAnswerError(
                f"invalid answer {echo(text)}: type a mark a position, G green, Y yellow, B (or . - x) grey"
            )
        if len(key) != length:
            raise InvalidAnswerError(f"invalid answer {echo(text)}: expected {length} marks, got {len(key)}")
        return Reply(self._slot_of(key), key)

    def answers(self, length: int, num_symbols: int, repeats: bool) -> tuple[Reply, ...]:
        """The marks whose greens and yellows, counted as bulls and cows, are a possible `bulls-cows` answer (yellows
        are the white pegs): this leaves out the one yellow beside n - 1 greens."""
        counts = {(a.bulls, a.cows) for a in BULLS_COWS.answers(length, num_symbols, repeats)}
        keys = ("".join(marks) for marks in product("BGY", repeat=length))
        return tuple(
            Reply(self._slot_of(key), key) for key in keys if (key.count("G"), key.count("Y")) in counts
        )

    def impossible(self, answer: AnyAnswer, length: int, pegs: bool = False) -> str:
        key = str(answer)
        if len(key) != length:
            return f"expected {length} marks"
        if key.count("G") == length - 1 and key.count("Y") == 1:
            return "a lone yellow beside greens would have to sit in its own place"
        return super().impossible(answer, length)


def _answers_with_repeats(n: int, k: int) -> tuple[Answer, ...]:
    """Every `bulls-cows` answer of a game with repeats, in polynomial time.

    With `bulls` fixed, let r = n - bulls and p_x, q_x count symbol x over the
    other r positions of guess and secret. Cows are the sum of min(p_x, q_x),
    and the r positions can be filled with no match iff p_x + q_x <= r for
    every x (a perfect matching between guess and secret symbols that avoids
    equal pairs). So it suffices to find which cow totals such counts reach,
    adding symbols one at a time; at most 2r symbols can matter.
    """
    found: set[Answer] = set()
    for bulls in range(n + 1):
        r = n - bulls
        states = {(0, 0, 0)}  # (sum of p, sum of q, cows) over the symbols so far
        for _ in range(min(k, 2 * r)):
            states = {
                (p_sum + p, q_sum + q, cows + min(p, q))
                for p_sum, q_sum, cows in states
                for p in range(r - p_sum + 1)
                for q in range(min(r - q_sum, r - p) + 1)
            }
        found.update(Answer(bulls, cows) for p_sum, q_sum, cows in states if p_sum == q_sum == r)
    return tuple(sorted(found))


BULLS_COWS = BullsCows()
RULES: dict[str, Rule] = {rule.name: rule for rule in (BULLS_COWS, Bulls(), Jotto(), Wordle())}


def rule_named(name: str) -> Rule:
    """The rule of that name; `unknown rule ...` lists the names on a miss."""
    try:
        return RULES[name]
    except (KeyError, TypeError):
        raise InvalidGameError(f"unknown rule {name!r}: choose one of {', '.join(RULES)}") from None
