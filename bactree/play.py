"""Interactive sessions: the computer finds your secret, you find its, or it referees two people.

A session reads lines through `read(prompt)` (which raises `EOFError` when
input ends) and writes lines through `write(text)`; the CLI passes
`line_reader` (`input`, echoing what it read when that comes from a pipe
or file) and `typer.echo`, tests pass scripted lines. Typos and impossible answers
are refused with the reason and change nothing, `u` takes back an answer,
and `q`, end of input or Ctrl-C end the session with a last word instead
of a traceback.
"""

from __future__ import annotations

import os
import random
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Callable

from .game import QUIT, UNDO, AnyAnswer, Game, InvalidAnswerError, InvalidCodeError, InvalidGameError, counted, preset
from .pegs import Painter
from .walker import (
    InconsistentAnswerError,
    Pair,
    Tree,
    Walk,
    inconsistent_answer,
    load_shipped_tree,
    load_tree,
)

Reader = Callable[[str], str]
Writer = Callable[[str], None]

LIST_AT_MOST = 10  # secrets left are listed when there are this many or fewer


class _Quit(Exception):
    """The player typed q."""


def line_reader(echo: bool) -> Reader:
    """`input`, and with `echo` each line read written back after its prompt.

    At a terminal the terminal shows what is typed; from a pipe or a file
    nothing would, and the transcript (which `bactree review` reads) would
    hold the prompts without the guesses or answers typed after them.
    """

    def read(prompt: str) -> str:
        line = input(prompt)
        if echo:
            print(line, flush=True)
        return line

    return read


def open_tree(path: str | os.PathLike[str] | None, game: Game | None) -> Tree:
    """The tree file at `path`, or else the best shipped tree of `game` (Bulls and Cows by default).

    With both, `game` must be the tree's game: options never silently lose to a file.
    """
    if path is None:
        return load_shipped_tree(game or preset("bulls-cows"))
    tree = load_tree(path)
    if game is not None and game != tree.game:
        raise InvalidGameError(f"{path} plays {tree.game}, but the options ask for {game}")
    return tree


def pick_secret(game: Game, seed: int | None = None) -> str:
    """A random code of `game`; the same seed picks the same code."""
    return random.Random(seed).choice(game.secret_codes)


def fitting(game: Game, history: list[Pair]) -> list[str]:
    """The secrets that give every answer of `history`, in code order."""
    codes = list(game.secret_codes)
    for guess, answer in history:
        score = game.scorer(guess)
        codes = [code for code in codes if score(code) == answer]
    return codes


def remaining(codes: list[str], whose: str = "", show: Painter = str) -> str:
    """`1260 secrets remain`, with the secrets listed (each through `show`) when there are few; `whose` follows "secrets"."""
    if len(codes) == 1:
        return f"1 secret{whose} remains: {show(codes[0])}"
    if len(codes) <= LIST_AT_MOST:
        return f"{len(codes)} secrets{whose} remain: {' '.join(map(show, codes))}"
    return f"{len(codes)} secrets{whose} remain"


def hint(game: Game, history: list[Pair]) -> str:
    """`  (252 secrets still fit)` after a scored guess, unless it solved the game."""
    if history[-1][1] == game.solved:
        return ""
    count = len(fitting(game, history))
    return f"  ({count} secret{'s' if count != 1 else ''} still fit{'' if count != 1 else 's'})"


def answer_words(game: Game) -> str:
    """How a session asks for answers: what the rule gives (bulls and cows, or Mastermind's black and white key
    pegs), and the forms typed."""
    forms = game.rule.forms
    if game.pegs:
        return f"black and white pegs (1 black, 2 white typed as {forms})"
    return f"{game.rule.told_as} ({forms})"


def secret_kind(game: Game) -> str:
    """`a secret code: 4 of '0123456789', no repeats`, or for a word game `a secret word, one of 1,529 words of 4 letters`."""
    return f"a secret word, one of {game}" if game.has_lists else f"a secret code: {game}"


def guesses(count: int) -> str:
    """`1 guess`, `5 guesses`."""
    return counted(count, "guess", "guesses")


def walk_secret(tree: Tree, secret: str, write: Writer, show: Painter = str) -> int:
    """Play a known secret through the tree and write the transcript, codes through `show`; returns the number of guesses."""
    secret = tree.game.parse_secret(secret)
    write(f"Secret {show(secret)}, {tree.game}, tree {Path(tree.name).name}")
    walk = tree.start()
    while not walk.solved:
        guess = walk.guess
        answer = tree.game.score(guess, secret)
        walk.answer(str(answer))
        after = "" if walk.solved else f"  {remaining(walk.candidates, show=show)}"
        write(f"Guess {len(walk.history)}: {show(guess)}  {tree.game.answer_text(answer)}{after}")
    write(f"Found {show(secret)} in {guesses(len(walk.history))}.")
    return len(walk.history)


class Session(ABC):
    """What every session shares: the game, line input and output, and a clean ending."""

    computer_guess = "guess"  # how undo names the computer's guesses
    show: Painter = str  # how codes are written; the CLI paints Mastermind pegs on a colour terminal (bactree.pegs)

    def __init__(self, game: Game, read: Reader, write: Writer) -> None:
        self.game = game
        self.read = read
        self.write = write

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit status (130 after Ctrl-C)."""
        try:
            self.play()
        except _Quit:
            self.write(self.farewell())
        except EOFError:
            self.write("")  # end the prompt's line
            self.write(self.farewell())
        except KeyboardInterrupt:
            self.write("")
            self.write(self.farewell())
            return 130
        return 0

    @abstractmethod
    def play(self) -> None:
        """The session itself, from greeting to verdict."""

    def farewell(self) -> str:
        """The last word when the player leaves before the end."""
        return "Bye."

    def echo(self, code: str) -> str:
        """A typed code shown back in colour before its answer (`""` when codes are shown as typed)."""
        return "" if self.show is str else f"{self.show(code)}  "

    def ask(self, prompt: str) -> str:
        """One line of input, stripped; `q` quits."""
        line = self.read(prompt).strip()
        if line.lower() in QUIT:
            raise _Quit
        return line

    def answer_turn(self, walk: Walk, prompt: str) -> None:
        """Ask the answer to the walk's guess once: record it, take one back on `u`, or say why not."""
        line = self.ask(prompt)
        if line.lower() in UNDO:
            self.take_back(walk)
            return
        try:
            answer = self.game.parse_answer(line)
            walk.answer(str(answer))
        except InconsistentAnswerError as err:
            self.write(f"  Refused: {err}.")
            if err.conflicts:
                self.write("  Type u to take back your last answer (again to go further back), or answer again.")
            return
        except InvalidAnswerError as err:
            self.write(f"  {err}")
            return
        if not walk.solved:
            self.write(f"  {remaining(walk.candidates, show=self.show)}")

    def take_back(self, walk: Walk) -> None:
        """Undo the walk's last answer, saying which."""
        if not walk.history:
            self.write("  Nothing to take back yet.")
            return
        guess, answer = walk.undo()
        self.write(
            f"  Taken back: your answer {self.game.answer_text(answer)} to {self.computer_guess} {len(walk.history) + 1} ({self.show(guess)})."
        )


class WalkSession(Session):
    """The computer finds the secret you hold in mind by walking a tree."""

    def __init__(self, tree: Tree, read: Reader, write: Writer) -> None:
        super().__init__(tree.game, read, write)
        self.tree = tree

    def play(self) -> None:
        self.write(
            f"Think of {secret_kind(self.game)}. I will find it in at most "
            f"{guesses(self.tree.stats['max_guesses'])}."
        )
        self.write(f"Answer each guess with {answer_words(self.game)}; u takes back your last answer, q quits.")
        walk = self.tree.start()
        while not walk.solved:
            self.answer_turn(walk, f"Guess {len(walk.history) + 1}: {self.show(walk.guess)}  Your answer: ")
        self.write(f"Solved: your secret is {self.show(walk.guess)}, found in {guesses(len(walk.history))}.")


class SoloSession(Session):
    """You find a secret the computer picked; every guess is scored."""

    def __init__(
        self, game: Game, secret: str, read: Reader, write: Writer, hints: bool = False, coach: bool = False
    ) -> None:
        super().__init__(game, read, write)
        self.secret = game.parse_secret(secret)
        self.hints = hints
        self.coach = coach

    def play(self) -> None:
        self.write(f"I have picked {secret_kind(self.game)}. Find it! Type a guess, u to take one back, or q to give up.")
        history: list[Pair] = []
        notes = Coach(self.game) if self.coach else None
        while not history or history[-1][1] != self.game.solved:
            line = self.ask(f"Guess {len(history) + 1}: ")
            if line.lower() in UNDO:
                if history:
                    guess, answer = history.pop()
                    if notes is not None:
                        notes.take_back()
                    self.write(f"  Taken back: guess {len(history) + 1} ({guess}: {self.game.answer_text(answer)}).")
                else:
                    self.write("  Nothing to take back yet.")
                continue
            try:
                guess = self.game.parse_code(line)
            except InvalidCodeError as err:
                self.write(f"  {err}")
                continue
            earlier = next((i for i, (g, _) in enumerate(history) if g == guess), None)
            if earlier is not None:
                self.write(f"  You asked {guess} already: guess {earlier + 1}, {self.game.answer_text(history[earlier][1])}. Not counted.")
                continue
            history.append((guess, self.game.score(guess, self.secret)))
            self.write(f"  {self.echo(guess)}{self.game.answer_text(history[-1][1])}{hint(self.game, history) if self.hints else ''}")
            if notes is not None:
                self.write(f"  {notes.say(*history[-1])}")
        self.write(f"Solved in {guesses(len(history))}.")
        if notes is not None:
            self.write(notes.summary())

    def farewell(self) -> str:
        return f"The secret was {self.show(self.secret)}."


class Coach:
    """`play --coach`: each guess valued as `bactree review` values it, said as the game goes."""

    def __init__(self, game: Game) -> None:
        from .coach.analysis import engine  # the exact search loads only when coaching
        from .coach.review import start

        self.game = game
        self.engine = engine(game)
        self.position = start(game)
        self.moves: list = []  # the `MoveReview` of each guess
        self.before: list = []  # the position before each guess, for `take_back`

    def say(self, guess: str, answer: AnyAnswer) -> str:
        """The coach's line on the guess just scored."""
        from .coach.review import review_move
        from .coach.text import coach_line

        self.before.append(self.position)
        move, self.position = review_move(self.position, guess, answer, self.engine)
        self.moves.append(move)
        return coach_line(move, expected=True)

    def take_back(self) -> None:
        """Forget the last guess, as the player took it back."""
        self.moves.pop()
        self.position = self.before.pop()

    def summary(self) -> str:
        """The closing line of the game's review."""
        from .coach.review import Review
        from .coach.text import closing_line

        return closing_line(Review(self.game, "expected", tuple(self.moves), True))


class VersusSession(Session):
    """You and the computer each find the other's secret, in turns; fewer guesses wins.

    You guess first; a round always ends with the computer's guess, so solving
    in as many guesses as the other is a draw.
    """

    computer_guess = "my guess"

    def __init__(self, tree: Tree, secret: str, read: Reader, write: Writer, hints: bool = False) -> None:
        super().__init__(tree.game, read, write)
        self.tree = tree
        self.secret = tree.game.parse_secret(secret)
        self.hints = hints

    def play(self) -> None:
        self.write(f"Versus, {self.game}: I have picked a secret for you to find; think of one for me to find.")
        self.write("We guess in turns, you first; fewer guesses wins, as many is a draw.")
        self.write(f"Answer my guesses with {answer_words(self.game)}; u takes back your last answer, q quits.")
        yours: list[Pair] = []
        walk = self.tree.start()
        while not (yours and yours[-1][1] == self.game.solved) and not walk.solved:
            self.write(f"Round {len(yours) + 1}")
            yours.append(self.your_guess(walk, len(yours) + 1))
            self.write(f"  {self.echo(yours[-1][0])}{self.game.answer_text(yours[-1][1])}{hint(self.game, yours) if self.hints else ''}")
            while not walk.solved and len(walk.history) < len(yours):
                self.answer_turn(walk, f"My guess {len(walk.history) + 1}: {self.show(walk.guess)}  Your answer: ")
        self.write(self.verdict(len(yours), yours[-1][1] == self.game.solved, walk))

    def your_guess(self, walk: Walk, number: int) -> Pair:
        """Read your next guess and score it; `u` here takes back your last answer to me."""
        while True:
            line = self.ask(f"Your guess {number}: ")
            if line.lower() in UNDO:
                self.take_back(walk)
                continue
            try:
                guess = self.game.parse_code(line)
            except InvalidCodeError as err:
                self.write(f"  {err}")
                continue
            return guess, self.game.score(guess, self.secret)

    def verdict(self, yours: int, found: bool, walk: Walk) -> str:
        """Who won, and in how many guesses."""
        mine, theirs, found_yours = len(walk.history), self.show(self.secret), self.show(walk.guess)
        if found and walk.solved:
            both = f"You found my secret {theirs} in {guesses(yours)} and I found yours, {found_yours}, in {mine}"
            if yours == mine:
                return f"{both}: a draw."
            return f"{both}: {'you win' if yours < mine else 'I win'}."
        if found:
            return f"You found my secret {theirs} in {guesses(yours)}: you win."
        return f"I found your secret {found_yours} in {guesses(mine)}: I win. Mine was {theirs}."

    def farewell(self) -> str:
        return f"My secret was {self.show(self.secret)}."


Event = str | AnyAnswer  # a guess or an answer in a refereed game


class RefereeSession(Session):
    """Two people find each other's secret in turns; every answer is checked against that player's earlier ones.

    The game is a list of entries, guess and answer in turn: Player 1's guess at
    Player 2's secret and Player 2's answer, then Player 2's guess and Player 1's
    answer. Everything else follows from the list, so `u` simply drops its last entry.
    """

    def __init__(self, game: Game, read: Reader, write: Writer, hints: bool = False) -> None:
        super().__init__(game, read, write)
        self.hints = hints
        self.entries: list[Event] = []
        self.announced = 0  # the round whose heading was written last (0: none since a take-back)

    def play(self) -> None:
        kind = "word" if self.game.has_lists else "code"
        self.write(f"Referee, {self.game}: Player 1 and Player 2 each think of a secret {kind}.")
        self.write("In turns, one guesses the other's secret and the other answers; I check every answer.")
        self.write(f"Answers: {answer_words(self.game)}. u takes back the last entry, q quits.")
        while not self.over():
            step = len(self.entries)
            guesser = 1 if step % 4 < 2 else 2
            holder = 3 - guesser
            if step % 4 == 0 and self.announced != step // 4 + 1:
                self.announced = step // 4 + 1
                self.write(f"Round {self.announced}")
            if step % 2 == 0:
                self.guess_step(guesser, holder)
            else:
                self.answer_step(guesser, holder)
        found = {player for player in (1, 2) if self.pairs(3 - player)[-1][1] == self.game.solved}
        rounds = len(self.entries) // 4
        if len(found) == 2:
            self.write(f"Both found the other's secret in {guesses(rounds)}: a draw.")
        else:
            winner = found.pop()
            self.write(f"Player {winner} found Player {3 - winner}'s secret in {guesses(rounds)} and wins.")

    def pairs(self, holder: int) -> list[Pair]:
        """The (guess, answer) pairs about `holder`'s secret so far."""
        start = 0 if holder == 2 else 2
        return [
            (str(self.entries[i]), self.entries[i + 1])  # type: ignore[misc]
            for i in range(start, len(self.entries) - 1, 4)
        ]

    def over(self) -> bool:
        """A round is complete and someone found the other's secret in it."""
        step = len(self.entries)
        return step > 0 and step % 4 == 0 and any(
            self.pairs(holder)[-1][1] == self.game.solved for holder in (1, 2)
        )

    def guess_step(self, guesser: int, holder: int) -> None:
        line = self.ask(f"Player {guesser}, your guess at Player {holder}'s secret: ")
        if line.lower() in UNDO:
            self.take_back()
            return
        try:
            self.entries.append(self.game.parse_code(line))
        except InvalidCodeError as err:
            self.write(f"  {err}")

    def answer_step(self, guesser: int, holder: int) -> None:
        guess = str(self.entries[-1])
        line = self.ask(f"Player {holder}, your answer to {self.show(guess)}: ")
        if line.lower() in UNDO:
            self.take_back()
            return
        try:
            answer = self.game.parse_answer(line)
        except InvalidAnswerError as err:
            self.write(f"  {err}")
            return
        history = self.pairs(holder)
        left = fitting(self.game, [*history, (guess, answer)])
        if not left:
            err = inconsistent_answer(self.game, history, guess, answer)
            self.write(f"  Refused, Player {holder}: {err}.")
            if err.conflicts:
                self.write("  Type u to take back the last entry (again to go further back), or answer again.")
            return
        self.entries.append(answer)
        if answer == self.game.solved:
            self.write(f"  Player {guesser} found Player {holder}'s secret in {guesses(len(history) + 1)}.")
        elif self.hints:
            self.write(f"  {remaining(left, f' of Player {holder}', self.show)}")

    def take_back(self) -> None:
        if not self.entries:
            self.write("  Nothing to take back yet.")
            return
        step = len(self.entries) - 1
        guesser = 1 if step % 4 < 2 else 2
        entry = self.entries.pop()
        self.announced = 0
        if step % 2 == 0:
            self.write(f"  Taken back: Player {guesser}'s guess {self.show(str(entry))}.")
        else:
            self.write(f"  Taken back: Player {3 - guesser}'s answer {self.game.answer_text(entry)} to {self.show(str(self.entries[-1]))}.")

    def farewell(self) -> str:
        return "Game abandoned."
