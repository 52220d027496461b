"""`review`: a played game valued move by move, the way a chess engine annotates one.

Each move gets the secrets left before it, the best guess there and its
value, the played guess's value, the loss of skill (in expected guesses a
game, or guesses at worst), and luck: the secrets its answer left against
the average that guess leaves.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any, Iterable

from ..game import BUILD_LIMIT, PEGS_ANSWER, AnyAnswer, BactreeError, Game, InvalidGameError, preset
from .analysis import Analysis, GuessValue, analyse_position, check_seconds, engine
from .engine import EXPECTED, OBJECTIVES, Engine
from .position import InvalidHistoryError, Position, entry_text, read_history

DEFAULT_MOVE_SECONDS = 2.0  # search time a move may take beyond what a shipped tree holds


@dataclass(frozen=True)
class MoveReview:
    """One move: the analysis before it (best guess, played guess's value) and the answer it got."""

    number: int
    answer: AnyAnswer
    analysis: Analysis
    left: int  # secrets still possible after the answer (0 once solved)
    average_left: float  # what the guess leaves on average, over the secrets before it
    solved: bool = False  # the answer ended the game

    @property
    def guess(self) -> str:
        return self.played.guess

    @property
    def played(self) -> GuessValue:
        assert self.analysis.guess is not None
        return self.analysis.guess

    @property
    def best(self) -> GuessValue:
        """The first best guess, with the bounds on the best value (exact once proven)."""
        return self.analysis.optimum

    @property
    def before(self) -> int:
        return len(self.analysis.secrets)

    def loss(self) -> tuple[float, float | None]:
        """Proven (least, most) loss: expected guesses a game, or guesses at worst; most None if unbounded."""
        low, high = self.analysis.loss or (0, None)
        scale = self.before if self.analysis.objective == EXPECTED else 1
        return low / scale, None if high is None else high / scale

    def to_json(self) -> dict[str, Any]:
        low, high = self.loss()
        return {"move": self.number, "guess": self.guess, "answer": str(self.answer), "secrets_before": self.before,
                "best": self.best.to_json(), "played": self.played.to_json(), "loss": {"lower": low, "upper": high},
                "left": self.left, "average_left": self.average_left}


@dataclass(frozen=True)
class Review:
    """A whole game reviewed: its moves, the value of best play from the start, and the total loss."""

    game: Game
    objective: str
    moves: tuple[MoveReview, ...]
    solved: bool
    hard: bool = False  # hard mode: every guess (the best ones and the played one) was still possible

    @property
    def start(self) -> GuessValue:
        """Best play's value from the start (expected: total over every secret)."""
        return self.moves[0].best

    def loss(self) -> tuple[float, float | None]:
        """The moves' losses added up: proven (least, most), most None if some move's is unbounded."""
        lows, highs = zip(*(m.loss() for m in self.moves))
        return sum(lows), None if None in highs else sum(highs)  # type: ignore[arg-type]

    @property
    def complete(self) -> bool:
        """Every value the review shows (best and played, each move) is proven exact."""
        return all(m.best.exact and m.played.exact for m in self.moves)

    def to_json(self) -> dict[str, Any]:
        low, high = self.loss()
        return {"game": {"length": self.game.length, "symbols": self.game.symbols, "repeats": self.game.repeats},
                "objective": self.objective, "hard_mode": self.hard, "solved": self.solved, "moves": [m.to_json() for m in self.moves],
                "loss": {"lower": low, "upper": high}, "best_from_start": self.start.to_json(),
                "complete": self.complete}


def average_left(position: Position, guess: str) -> float:
    """Secrets the guess leaves on average over the secrets still possible (none once it finds the secret)."""
    sizes: dict[AnyAnswer, int] = {}
    for secret in position.secrets:
        answer = position.game.score(guess, secret)
        if answer != position.game.solved:
            sizes[answer] = sizes.get(answer, 0) + 1
    return sum(n * n for n in sizes.values()) / len(position.secrets)


def review(
    game: Game,
    history: Iterable[str | tuple[str, AnyAnswer | str]],
    objective: str = EXPECTED,
    seconds: float = DEFAULT_MOVE_SECONDS,
    use_shipped: bool = True,
    hard: bool = False,
) -> Review:
    """Review a played game (`GUESS=ANSWER` entries or pairs, the last may find the secret), move by move.

    With `hard`, the game is valued in hard mode (every guess still possible,
    the best ones too); a played guess that was not still possible is refused
    (`InvalidHistoryError` naming it) before anything is searched.
    """
    if objective not in OBJECTIVES:
        raise BactreeError(f"unknown objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    check_seconds(seconds)
    game.check_size(BUILD_LIMIT)
    whole = read_history(game, history, finished=True)
    if not whole.pairs:
        raise BactreeError("no moves to review")
    if hard:
        check_hard_mode(whole)
    found = engine(game, objective, hard, use_shipped)
    position = start(game)
    moves = []
    for guess, answer in whole.pairs:
        move, position = review_move(position, guess, answer, found, seconds)
        moves.append(move)
    return Review(game, objective, tuple(moves), whole.solved, hard)


def check_hard_mode(game_played: Position) -> None:
    """Refuse a game that broke hard mode, naming the first guess that was not still possible when it was made."""
    position = start(game_played.game)
    for number, (guess, answer) in enumerate(game_played.pairs, 1):
        if guess not in set(position.secrets):
            raise InvalidHistoryError(
                f"guess {number} ({entry_text(guess, answer)}): hard mode: {guess} was not still possible, "
                "so the game was not played in hard mode (review it without --hard)"
            )
        position = position.after(guess, answer)


def start(game: Game) -> Position:
    """The position before any guess."""
    return Position(game, (), game.secret_codes)


def review_move(
    position: Position, guess: str, answer: AnyAnswer, found: Engine, seconds: float = DEFAULT_MOVE_SECONDS
) -> tuple[MoveReview, Position]:
    """One move reviewed (`guess` got `answer` at `position`), and the position after it."""
    analysis = analyse_position(position, 1, guess, found.objective, found.hard, seconds, found)
    after = position.after(guess, answer)
    solved = answer == position.game.solved
    left = 0 if solved else len(after.secrets)
    return MoveReview(len(position.pairs) + 1, answer, analysis, left, average_left(position, guess), solved), after


_ANSWER_TEXT = rf"\d+\s*[bB]\s*\d+\s*[cC]|{PEGS_ANSWER}"  # 1B2C, or 1 black, 2 white as Mastermind sessions print it
_MOVE = re.compile(rf"(?:Guess\s+(\d+):\s*)?(\S+?)(?:\s*=\s*|\s+)({_ANSWER_TEXT})(?:\s.*)?")
_WALK_PROMPT = re.compile(r"Guess\s+(\d+):\s*(\S+)\s+Your answer:\s*(.*)")
_PROMPT = re.compile(r"Guess\s+(\d+):\s*(\S+)")
_ANSWER = re.compile(rf"({_ANSWER_TEXT})(?:\s.*)?")
# A session names its game in its first lines as `str(game)` does: `4 of '123456', repeats`.
_GAME = re.compile(r"(\d+) of ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"), (repeats|no repeats)\b")


def _answer_key(text: str) -> str:
    """An answer as read (`1 B 2 C`, `1 black, 2 white`) in the entries' form, `1B2C`; checked later with the history."""
    bulls, cows = re.findall(r"\d+", text)
    return f"{int(bulls)}B{int(cows)}C"


def transcript_game(text: str) -> Game | None:
    """The game a session's transcript names (`Secret 3456, 4 of '123456', repeats, tree ...`), or None.

    walk and play print the game in their first line; a game typed by hand
    names none. An alphabet cut short in the header (over 40 symbols) cannot
    be read back, so it names none either.
    """
    found = _GAME.search(text)
    if found is None:
        return None
    return Game(int(found.group(1)), ast.literal_eval(found.group(2)), found.group(3) == "repeats")


def reviewed_game(text: str, asked: Game | None) -> Game:
    """The game to review `text` as: the options' game (`asked`) or else the transcript's, Bulls and Cows by default.

    Options that contradict the transcript's header are refused rather than
    left to fail on its first guess.
    """
    words = _WORD_GAME.search(text)
    if words is not None:  # a word game's header names its size, not its list
        if asked is None:
            raise InvalidGameError(f"the transcript plays a word game ({words.group(1)}): name its list with --words")
        if not asked.has_lists or asked.list_size != words.group(1):
            raise InvalidGameError(f"the transcript plays {words.group(1)}, but the options ask for {asked}")
        return asked
    named = transcript_game(text)
    if asked is not None and named is not None and asked != named:
        raise InvalidGameError(f"the transcript plays {named}, but the options ask for {asked}")
    return asked or named or preset("bulls-cows")


# A word game's first line in a transcript: `Secret card, 1,529 words of 4 letters, tree ...`.
_WORD_GAME = re.compile(r"^(?:Secret \S+, |I have picked a secret word, one of )([\d,]+ words? of \d+ letters)", re.M)
_WORDS = re.compile(r"\S+\s+[a-z]{3,}\b.*")  # `1260 secrets remain`: a count, then words


def read_game(text: str, game: Game, secret: str | None = None) -> list[str]:
    """The moves of a game as `GUESS=ANSWER` entries, from text as `walk` and `play` print it or typed by hand.

    Read a line at a time: `GUESS ANSWER` or `GUESS=ANSWER` (what follows is
    ignored); `Guess N: GUESS ANSWER ...` (walk --secret); `Guess N: GUESS
    Your answer: ANSWER` (a walk at the terminal); `Guess N: GUESS` with the
    answer on the next line (play at the terminal). A numbered guess
    replaces guess N and those after it, as a session does after a refused
    answer or a take-back. With `secret`, a guess alone on its line is scored
    against it and answers already there are checked. Blank lines, `#`
    comments and lines of words (a session's other messages) are skipped;
    anything else is an error naming its line.
    """
    if secret is not None:
        secret = game.parse_secret(secret)
    entries: list[str] = []
    pending: tuple[int | None, str] | None = None  # a guess whose answer comes on a later line

    def place(number: int | None, guess: str, answer: str, line: int) -> None:
        """Record a move: as guess `number` (dropping those from it on), or next if unnumbered."""
        if number is not None:
            if number > len(entries) + 1:
                raise BactreeError(f"line {line}: guess {number} comes after guess {len(entries)}")
            del entries[number - 1 :]
        entries.append(f"{guess}={answer}")

    for line_number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        walk, move, prompt = _WALK_PROMPT.fullmatch(line), _MOVE.fullmatch(line), _PROMPT.fullmatch(line)
        answer = _ANSWER.fullmatch(line)
        if walk:
            try:  # what the player typed: a refused typo, u or q leave no move
                typed = str(game.parse_answer(walk.group(3)))
            except BactreeError:
                continue
            place(int(walk.group(1)), walk.group(2), typed, line_number)
        elif move:
            number = move.group(1)
            place(int(number) if number else None, move.group(2), _answer_key(move.group(3)), line_number)
            pending = None
        elif prompt:
            pending = (int(prompt.group(1)), prompt.group(2))
        elif answer and pending is not None:
            place(*pending, _answer_key(answer.group(1)), line_number)
            pending = None
        elif answer and secret is not None:
            pass  # the answer to a guess already scored against the secret
        elif secret is not None and line in game.code_index:
            entries.append(f"{line}={game.score(line, secret)}")
        elif not (line[0].isalpha() and line.split()[0] not in game.code_index) and not _WORDS.fullmatch(line):
            raise BactreeError(f"line {line_number}: cannot read {line!r}: expected GUESS ANSWER, e.g. 0123 1B2C")
        # else: a session's words (greetings, refusals, verdicts, the coach's notes), skipped
        if secret is not None and pending is not None and pending[1] in game.code_index:
            place(*pending, str(game.score(pending[1], secret)), line_number)
            pending = None
    if secret is not None:
        for number, entry in enumerate(entries, 1):
            guess, given = entry.split("=")
            if game.rule.read_key(given, game.length) != game.score(guess, secret):
                raise BactreeError(f"guess {number} ({entry}): the secret {secret} answers {game.score(guess, secret)}")
    if not entries:
        raise BactreeError("no moves found: expected lines of GUESS ANSWER, e.g. 0123 1B2C")
    return entries
