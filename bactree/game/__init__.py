"""The game model: codes, answers, scoring and the named presets.

Pure Python on purpose: the walker and the tree-file reader import this
module, and they must load without numpy or numba.
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import math
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import cached_property

from .errors import BactreeError, GameTooLargeError, InvalidAnswerError, InvalidCodeError, InvalidGameError
from .rules import ECHO_AT_MOST, PEGS_ANSWER, RULES, BULLS_COWS, Answer, AnyAnswer, Reply, Rule, echo as _echo, rule_named
from .words import normalise_word, shipped_list_named


@dataclass(frozen=True)
class SizeLimit:
    """The largest game one kind of work accepts, checked by `Game.check_size` before any code is made."""

    purpose: str
    codes: int
    length: int
    symbols: int


# A declared game (a tree file's header, command options) is data from anywhere: these
# keep every reader and command bounded in time and memory, and refuse at once what is larger.
READ_LIMIT = SizeLimit(
    "reading or playing",  # walk, play, verify, export, any tree file read: codes listed as strings
    codes=2_000_000,  # about 300 MB and a few seconds to list the codes and index them at the cap
    length=64,  # answers are (n+1)**2 pairs; longer codes are no game anyone plays
    symbols=2_000_000,
)
BUILD_LIMIT = SizeLimit(
    "a build or an evaluation",  # build, evaluate, compile: the answer table and the search
    codes=50_000,  # a guess x secret table of one byte per answer: 2.5 GB at the cap
    length=9,  # the symmetry search lists every permutation of positions: 9! rows
    symbols=256,  # symbols are stored as one byte each
)


QUIT = ("q", "quit")  # what a person types to leave any terminal session (walk, play, crack --interactive)
UNDO = ("u", "undo")  # what a person types to take back their last answer there


def check_game_shape(length: int, symbols: str, repeats: bool) -> None:
    """Refuse a game that cannot exist: no positions, no alphabet, a symbol twice, too few symbols without repeats.

    Linear in the alphabet (no `str.count` per symbol), so a long one is
    checked at once; shared by `Game` and the long-key `crack.Puzzle`.
    """
    if not isinstance(length, int) or length < 1:
        raise InvalidGameError(f"invalid game: length must be at least 1, got {length!r}")
    if len(symbols) < 1:
        raise InvalidGameError("invalid game: the alphabet is empty")
    if len(set(symbols)) < len(symbols):
        twice = next(s for s, n in collections.Counter(symbols).items() if n > 1)
        raise InvalidGameError(f"invalid game: symbol {twice!r} appears twice in {_short(symbols)}")
    if not repeats and length > len(symbols):
        raise InvalidGameError(
            f"invalid game: {length} positions need at least {length} symbols without repeats, got {len(symbols)}"
        )


@dataclass(frozen=True)
class Game:
    """A game of the family: codes of `length` symbols from `symbols`.

    `repeats=False` is Bulls and Cows (distinct symbols); `repeats=True` is
    Mastermind (any string, cows counted as white pegs). A game of lists
    (Bulls and Cows with words, `word_game`) has `secrets`, the possible
    secrets, and may have `guesses`, the allowed guesses (holding every
    secret; None: the secrets): both sorted by code point, `symbols` every
    symbol they use, sorted, and `repeats` whether any of them repeats one.
    `rule` says how a secret answers a guess (`rules.RULES`, given by name or
    as the rule): bulls and cows by default (cows counted as white pegs).
    """

    length: int
    symbols: str
    repeats: bool
    secrets: tuple[str, ...] | None = None
    guesses: tuple[str, ...] | None = None
    rule: Rule = BULLS_COWS

    def __post_init__(self) -> None:
        if not isinstance(self.rule, Rule):
            object.__setattr__(self, "rule", rule_named(self.rule))
        check_game_shape(self.length, self.symbols, self.repeats)
        for symbol in self.symbols:
            if symbol.isspace():
                raise InvalidGameError(f"invalid game: whitespace is not a symbol ({_short(self.symbols)})")
        if self.secrets is None:
            if self.guesses is not None:
                raise InvalidGameError("invalid game: a list of guesses needs a list of secrets")
            return
        _check_lists(self)

    def __hash__(self) -> int:
        return hash((self.length, self.symbols, self.repeats, self.list_digest, self.rule.name))

    def __str__(self) -> str:
        scored = "" if self.rule is BULLS_COWS else f", scored by {self.rule.name}"
        if self.secrets is not None:
            guesses = "" if self.guesses is None else f", {len(self.guesses):,} allowed guesses"
            return f"{self.list_size}{guesses}{scored}"
        kind = "repeats" if self.repeats else "no repeats"
        return f"{self.length} of {_short(self.symbols)}, {kind}{scored}"

    @property
    def pegs(self) -> bool:
        """Whether players tell answers in Mastermind's key pegs (black and white): a game of every code with repeats,
        answered in bulls and cows. A word game keeps bulls and cows, whether or not its words repeat a letter."""
        return self.repeats and self.secrets is None and self.rule.cows

    @property
    def has_lists(self) -> bool:
        """Whether the secrets are a list (a word game) rather than every code over the symbols."""
        return self.secrets is not None

    @cached_property
    def list_digest(self) -> str:
        """The first 12 hex digits of a SHA-256 of the secrets, joined by newlines (and of the guesses after a blank
        line, when there are other guesses); '' for a game without lists. Names the game in files."""
        if self.secrets is None:
            return ""
        text = "\n".join(self.secrets)  # a list's own digest (`words.WordList.digest`) when there are no other guesses
        if self.guesses is not None:
            text += "\n\n" + "\n".join(self.guesses)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @property
    def symmetric(self) -> bool:
        """Whether relabelling the positions and symbols of every code alike maps the game onto itself and keeps its
        answers: a game of every code over the symbols under a rule that allows it (not a word list, not Wordle)."""
        return self.secrets is None and self.rule.relabellings

    @property
    def num_secrets(self) -> int:
        """How many possible secrets there are: the list's length, or `num_codes`."""
        return self.num_codes if self.secrets is None else len(self.secrets)

    @property
    def secret_codes(self) -> tuple[str, ...]:
        """The possible secrets: the list of secrets, or every code (`codes`)."""
        return self.codes if self.secrets is None else self.secrets

    @property
    def num_symbols(self) -> int:
        return len(self.symbols)

    @property
    def num_codes(self) -> int:
        """How many codes there are, by arithmetic: k**n with repeats, k!/(k-n)! without.

        Exact and cheap for any game `check_size` lets through; check a declared game first.
        """
        if self.secrets is not None:
            return len(self.codes)
        k, n = self.num_symbols, self.length
        return k**n if self.repeats else math.perm(k, n)

    def check_size(self, limit: SizeLimit = READ_LIMIT) -> None:
        """Raise `GameTooLargeError` if the game exceeds `limit` in codes, positions or symbols.

        Arithmetic only (k**n codes with repeats, k!/(k-n)! without), and the
        length is checked first, so a header declaring 10**9 positions costs nothing.
        """
        too_large = f"game too large for {limit.purpose}"
        if self.length > limit.length:
            raise GameTooLargeError(f"{too_large}: {self.length} positions (at most {limit.length})")
        if self.num_symbols > limit.symbols:
            raise GameTooLargeError(f"{too_large}: {self.num_symbols} symbols (at most {limit.symbols})")
        count = self.num_codes
        if count > limit.codes:
            written = f"{count:,}" if count < 10**15 else f"about {float(count):.1e}"
            raise GameTooLargeError(f"{too_large}: {self} has {written} codes (at most {limit.codes:,})")

    @cached_property
    def codes(self) -> tuple[str, ...]:
        """Every code that may be guessed: in lexicographic order of the symbols string, or a game's list of guesses
        (its secrets when it has no other); `GameTooLargeError` past `READ_LIMIT`."""
        if self.secrets is not None:
            return self.secrets if self.guesses is None else self.guesses
        self.check_size()
        pick = itertools.product if self.repeats else itertools.permutations
        if self.repeats:
            tuples = pick(self.symbols, repeat=self.length)
        else:
            tuples = pick(self.symbols, self.length)
        return tuple("".join(t) for t in tuples)

    @cached_property
    def code_index(self) -> dict[str, int]:
        """Position of each code in `codes`."""
        return {code: i for i, code in enumerate(self.codes)}

    @cached_property
    def answers(self) -> tuple[AnyAnswer, ...]:
        """Every answer some guess can get from some secret of every code over the symbols, in the rule's order
        (ascending slots: (bulls, cows) for bulls and cows); a game of lists gets no others, though it may miss some."""
        return self.rule.answers(self.length, self.num_symbols, self.repeats)

    @property
    def solved(self) -> AnyAnswer:
        """The answer that ends the game: a guess gets it from itself and from no other secret (all bulls, all
        green; under Jotto the win, told apart from the anagrams' `n`)."""
        return self.rule.solved(self.length)

    def parse_code(self, text: str) -> str:
        """Check a code and return it; `invalid code ...` names what is wrong.

        A game of lists reads a word as its lists hold it (NFC, lower case)
        and takes only its allowed guesses.
        """
        code = text.strip()
        if self.secrets is not None:
            return self._parse_word(text, "guess", self.code_index)
        if len(code) != self.length:
            raise InvalidCodeError(
                f"invalid code {_echo(text)}: expected {counted(self.length, 'symbol')}, got {len(code)}"
            )
        for symbol in code:
            if symbol not in self.symbols:
                raise InvalidCodeError(
                    f"invalid code {_echo(text)}: symbol {symbol!r} is not one of {_short(self.symbols)}"
                )
        if not self.repeats:
            for symbol in code:
                if code.count(symbol) > 1:
                    raise InvalidCodeError(f"invalid code {_echo(text)}: symbol {symbol!r} repeats")
        return code

    def parse_secret(self, text: str) -> str:
        """Check a secret and return it: a code of the game, or in a game of lists one of its secrets (an allowed guess
        that no secret is, is refused); `invalid secret ...` names what is wrong in a game of lists."""
        if self.secrets is None:
            return self.parse_code(text)
        return self._parse_word(text, "secret", self.secrets)

    def _parse_word(self, text: str, kind: str, words: Collection[str]) -> str:
        """`text` as the lists hold it (NFC, lower case) if it is one of `words`, else `invalid KIND ...` (guess, secret)."""
        word = normalise_word(text.strip())
        if word not in words:
            shown = text if len(text) <= 40 else text[:40] + "..."
            if len(word) != self.length:
                raise InvalidCodeError(f"invalid {kind} {shown!r}: expected {counted(self.length, 'letter')}, got {len(word)}")
            if kind == "secret" and word in self.code_index:
                raise InvalidCodeError(f"invalid secret {shown!r}: an allowed guess, not one of the game's secrets")
            raise InvalidCodeError(f"invalid {kind} {shown!r}: not a word of the game's list")
        return word

    @property
    def list_size(self) -> str:
        """A game of lists' size as its transcripts' headers name it: `1,529 words of 4 letters`."""
        assert self.secrets is not None
        count = len(self.secrets)
        return f"{count:,} word{'' if count == 1 else 's'} of {self.length} letters"

    def format_code(self, code: str) -> str:
        """The printable form of a code (codes are kept as their strings)."""
        return code

    def parse_answer(self, text: str) -> AnyAnswer:
        """Read an answer as the rule types it (`1B2C`, `1b2c`, `1 2` or `12` for bulls and cows, or as `answer_text`
        writes it), and check it is possible."""
        answer = self.rule.parse(text, self.length, self.pegs)
        self.check_answer(answer)
        return answer

    def answer_text(self, answer: AnyAnswer) -> str:
        """An answer as a player says it: `1B2C` in Bulls and Cows, `1 black, 2 white` (key pegs) in Mastermind, the
        key under another rule.

        Only what sessions print; tree files and `GUESS=ANSWER` entries keep the key (`1B2C`).
        """
        return self.rule.say(answer, self.pegs)

    def check_answer(self, answer: AnyAnswer) -> None:
        """Raise `InvalidAnswerError` unless some guess and secret give `answer`."""
        if answer not in self.answers:
            why = self.rule.impossible(answer, self.length, self.pegs)
            raise InvalidAnswerError(f"impossible answer {self.answer_text(answer)}: {why}")

    def score(self, guess: str, secret: str) -> AnyAnswer:
        """The answer `secret` gives to `guess` under the game's rule (cows are white pegs with repeats)."""
        return self.rule.scorer(guess)(secret)

    def scorer(self, guess: str) -> Callable[[str], AnyAnswer]:
        """`score` with `guess` fixed: what depends on the guess alone is worked out once, for the many secrets
        scored against one guess (a tree's replay, the secrets left after an answer): about twice as fast a secret."""
        return self.rule.scorer(guess)


def word_game(secrets: Iterable[str], guesses: Iterable[str] | None = None, rule: Rule | str = BULLS_COWS) -> Game:
    """The game of a word list: its secrets, its allowed guesses (default: the secrets) and its answer rule (default:
    bulls and cows).

    Words are taken as given (normalise them first: `words.normalise_word`,
    or read a list with `words.read_word_list`); duplicates are dropped and the lists
    sorted by code point; a secret missing from the guesses is added to them.
    """
    secret_list = tuple(sorted(set(secrets)))
    if not secret_list:
        raise InvalidGameError("invalid game: the list of secrets is empty")
    guess_list = None
    if guesses is not None:
        guess_list = tuple(sorted(set(guesses) | set(secret_list)))
        if guess_list == secret_list:
            guess_list = None
    words = guess_list or secret_list
    symbols = "".join(sorted(set().union(*words)))
    repeats = any(len(set(word)) < len(word) for word in words)
    return Game(len(secret_list[0]), symbols, repeats, secret_list, guess_list, rule)


def _check_lists(game: Game) -> None:
    """Refuse lists that break the format: unsorted or repeated, a word of another length or with another symbol,
    guesses that lack a secret, symbols or repeats that are not the lists' own."""
    for name, words in (("secrets", game.secrets), ("guesses", game.guesses)):
        if words is None:
            continue
        if not words:
            raise InvalidGameError(f"invalid game: the list of {name} is empty")
        for before, word in zip(words, words[1:]):
            if before >= word:
                raise InvalidGameError(f"invalid game: the {name} are not sorted without duplicates ({before!r}, {word!r})")
        for word in words:
            if len(word) != game.length:
                raise InvalidGameError(f"invalid game: {name[:-1]} {word!r} has {len(word)} symbols, not {game.length}")
    words = game.codes
    if game.guesses is not None:
        allowed = set(game.guesses)
        missing = next((word for word in game.secrets or () if word not in allowed), None)
        if missing is not None:
            raise InvalidGameError(f"invalid game: secret {missing!r} is not among the guesses")
    used = "".join(sorted(set().union(*words)))
    if used != game.symbols:
        raise InvalidGameError(f"invalid game: the symbols must be the lists' own, sorted ({_short(used)}), got {_short(game.symbols)}")
    if game.repeats != any(len(set(word)) < len(word) for word in words):
        raise InvalidGameError(f"invalid game: repeats must be {not game.repeats} for these lists")


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`1 node`, `5040 nodes`, `1 guess`, `7 guesses`: a count and its noun, plural (`plural`, else an s added) but for one."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def _short(symbols: str) -> str:
    """An alphabet quoted for a message, cut short if it is long."""
    return repr(symbols) if len(symbols) <= 40 else f"{symbols[:20]!r}... ({len(symbols)} symbols)"


PRESETS: dict[str, Game] = {
    "bulls-cows": Game(4, "0123456789", False),
    "mastermind": Game(4, "123456", True),
}


def preset(name: str) -> Game:
    """The named game; `unknown game ...` lists the names on a miss."""
    try:
        return PRESETS[name]
    except KeyError:
        names = ", ".join(sorted(PRESETS))
        raise InvalidGameError(f"unknown game {name!r}: choose one of {names}") from None


def make_game(
    name: str = "bulls-cows",
    length: int | None = None,
    symbols: str | None = None,
    repeats: bool | None = None,
    rule: Rule | str = BULLS_COWS,
) -> Game:
    """A preset with any of its three fields overridden, answered by `rule` (a name of `rules.RULES`)."""
    base = preset(name)
    return Game(
        base.length if length is None else length,
        base.symbols if symbols is None else symbols,
        base.repeats if repeats is None else repeats,
        rule=rule,
    )


def game_slug(game: Game) -> str:
    """A short file-name stem: `bulls-cows-4x10`, `mastermind-4x6`, or a generic form.

    A word game is named for its lists: `words-en-4` (secrets and guesses both the shipped list en-4),
    `words-en-4-en-4-guesses`, or `words-` and the lists' digest for lists of the user's, so two lists never
    share a name. A rule other than bulls and cows ends the name: `words-en-5-wordle`, `mastermind-4x6-bulls`.
    """
    stem = _slug_stem(game)
    return stem if game.rule is BULLS_COWS else f"{stem}-{game.rule.name}"


def _slug_stem(game: Game) -> str:
    """`game_slug` before the rule."""
    if game.secrets is not None:
        names = [shipped_list_named(game.secrets), None if game.guesses is None else shipped_list_named(game.guesses)]
        if names[0] is not None and (game.guesses is None or names[1] is not None):
            return "-".join(["words"] + [name for name in names if name])
        return f"words-{game.list_digest}"
    for name, known in PRESETS.items():
        if known.symbols == game.symbols and known.repeats == game.repeats:
            return f"{name}-{game.length}x{game.num_symbols}"
    kind = "mastermind" if game.repeats else "bulls-cows"
    return f"{kind}-{game.length}x{game.num_symbols}"
