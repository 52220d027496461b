"""Oracles: the code-maker behind a cracker, answering (bulls, cows) and counting questions.

A cracker only ever sees answers. The oracle checks every answer it relays
(`answer_problem`: a pair of integers that some code could get) and raises
`OracleError` naming the question number when one is not, except the
terminal, which says why and asks again; crackers raise `ContradictionError`
(through `Oracle.contradiction`) when answers cannot all be true of one
secret. The person at the terminal may quit (`Quit`) or take back an
answer (`TakeBack`: the run starts again and replays the answers kept).
"""

from __future__ import annotations

import itertools
import math
import re
import shlex
import subprocess
import sys
from typing import TextIO

import numpy as np

from ..game import QUIT, UNDO, BactreeError
from .puzzle import Puzzle, score, score_many


class OracleError(BactreeError):
    """An answer that cannot be read or cannot be right, or a code-maker that stopped answering."""


class ContradictionError(OracleError):
    """Answers that no secret of the game gets."""


class Quit(Exception):
    """The person at the terminal quit (q, quit or end of input): not an error, so the CLI says goodbye."""


class TakeBack(Exception):
    """The person at the terminal took back their last answer (u): `oracle` replays the ones before it.

    A cracker keeps no undo of its own; it is seeded, so run again on the
    same answers it asks the same questions, and the replay checks that.
    """

    def __init__(self, oracle: TerminalOracle) -> None:
        super().__init__("answer taken back")
        self.oracle = oracle


def answer_problem(bulls: int, cows: int, length: int) -> str | None:
    """Why no code of `length` positions can get (bulls, cows) from a guess, or None when one can.

    The one place of the range rules: `Oracle` refuses such answers and the terminal asks again.
    n bulls with cows are out of range already; n - 1 bulls leave one position, which a cow cannot fill.
    """
    if bulls < 0 or cows < 0 or bulls + cows > length:
        return f"{bulls} bulls and {cows} cows is out of range for {length} positions"
    if bulls == length - 1 and cows == 1:
        return f"{length - 1} bulls and 1 cow cannot happen"
    return None


class Oracle:
    """Answers questions about one hidden secret of `puzzle`; `queries` counts them."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.queries = 0
        self.solved = False
        self.last_bulls = 0

    def ask(self, guess: np.ndarray) -> tuple[int, int]:
        """(bulls, cows) of one guess (symbol indices); counts the question."""
        if self.solved:
            raise RuntimeError("the secret was already guessed: no more questions")
        self.queries += 1
        bulls, cows = self._answer(guess)
        self._check(bulls, cows)
        self.last_bulls = bulls
        self.solved = bulls == self.puzzle.length
        return bulls, cows

    def ask_many(self, guesses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(bulls, cows) arrays of a batch of guesses, one question each, stopping at n bulls.

        Rows after the one that gets n bulls are not asked and get bulls -1.
        """
        bulls = np.full(len(guesses), -1, dtype=np.int64)
        cows = np.full(len(guesses), -1, dtype=np.int64)
        for row, guess in enumerate(guesses):
            bulls[row], cows[row] = self.ask(guess)
            if self.solved:
                break
        return bulls, cows

    def contradiction(self) -> ContradictionError:
        """The error a cracker raises when the answers so far fit no secret."""
        return ContradictionError(f"question {self.queries}: the answer contradicts earlier answers")

    def close(self) -> None:
        """Release what the oracle holds (a program's pipes)."""

    def _answer(self, guess: np.ndarray) -> tuple[int, int]:
        raise NotImplementedError

    def _check(self, bulls: int, cows: int) -> None:
        """Refuse an answer no code can get, naming the question."""
        problem = answer_problem(bulls, cows, self.puzzle.length)
        if problem:
            raise OracleError(f"question {self.queries}: {problem}")


class SecretOracle(Oracle):
    """A known secret: the simulation crackers are measured with."""

    def __init__(self, puzzle: Puzzle, secret: np.ndarray) -> None:
        super().__init__(puzzle)
        self.secret = np.asarray(secret, dtype=np.int64)

    def _answer(self, guess: np.ndarray) -> tuple[int, int]:
        return score(np.asarray(guess, dtype=np.int64), self.secret, self.puzzle.num_symbols)

    def ask_many(self, guesses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised: one numpy pass scores the whole batch (each row still counts as a question)."""
        if self.solved:
            raise RuntimeError("the secret was already guessed: no more questions")
        bulls, cows = score_many(np.asarray(guesses, dtype=np.int64), self.secret, self.puzzle.num_symbols)
        hits = np.flatnonzero(bulls == self.puzzle.length)
        asked = len(guesses) if len(hits) == 0 else int(hits[0]) + 1
        bulls, cows = bulls.astype(np.int64), cows.astype(np.int64)
        bulls[asked:] = -1
        cows[asked:] = -1
        self.queries += asked
        self.last_bulls = int(bulls[asked - 1])
        self.solved = len(hits) > 0
        return bulls, cows


_ANSWER = re.compile(r"\s*(\d+)\s*[ ,/bB]\s*(\d+)\s*[cC]?\s*")


def parse_answer(text: str, length: int | None = None) -> tuple[int, int] | None:
    """`BULLS COWS` (also `1B2C`) as two integers, or None when the text is neither.

    With `length` under 10, two digits alone (`20`) are bulls then cows too,
    as `walk` and `play` read them.
    """
    match = _ANSWER.fullmatch(text)
    if match:
        return int(match.group(1)), int(match.group(2))
    if length is not None and length < 10 and re.fullmatch(r"\s*\d\d\s*", text):
        return int(text.strip()[0]), int(text.strip()[1])
    return None


# A terminal session checks each answer against every key when keys times symbols stay below this
# (the 50,653 keys of 3 of 37 symbols, say): an array of the keys still fitting, filtered answer by answer.
CHECKED_KEYS_SIZE = 1 << 23


class TerminalOracle(Oracle):
    """A person at the terminal: shows each guess and reads `BULLS COWS`.

    A typo or an impossible answer is refused with the reason and asked
    again, so the session survives it; q, quit or end of input raise `Quit`,
    and u raises `TakeBack` with the oracle that replays the earlier answers.
    In a game small enough (`CHECKED_KEYS_SIZE`) an answer that no key gets
    together with the earlier ones is refused at once too; in a larger one
    the cracker finds such a contradiction later, and the run ends with it.
    """

    def __init__(
        self,
        puzzle: Puzzle,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        replay: tuple[tuple[str, tuple[int, int]], ...] = (),
    ) -> None:
        super().__init__(puzzle)
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stderr
        self.fitting = all_keys(puzzle) if math.exp(puzzle.log_secrets()) * puzzle.num_symbols <= CHECKED_KEYS_SIZE else None
        self.replay = list(replay)  # answers given before a take-back, each with its question
        self.given: list[tuple[str, tuple[int, int]]] = []  # every answer so far, each with its question

    def _answer(self, guess: np.ndarray) -> tuple[int, int]:
        asked = self.puzzle.format(guess)
        if self.replay:
            earlier, answer = self.replay.pop(0)
            if earlier != asked:
                raise OracleError(f"question {self.queries}: cannot take back: asked [{asked}] where it asked [{earlier}]")
            self._contradiction(guess, answer)  # keeps the keys that fit, as when it was typed
            self.given.append((asked, answer))
            return answer
        self.stdout.write(f"question {self.queries}: [{asked}]\n")
        while True:
            line = self._read_line()
            if line.lower() in UNDO:
                self._take_back()
                continue
            answer = parse_answer(line, self.puzzle.length)
            if answer is None:
                self.stdout.write(
                    f"  cannot read {line[:40]!r}: type two numbers, bulls then cows, e.g. '2 1', u to take back, or q to quit\n"
                )
                continue
            problem = answer_problem(*answer, self.puzzle.length) or self._contradiction(guess, answer)
            if problem is None:
                self.given.append((asked, answer))
                return answer
            self.stdout.write(f"  {problem}; try again\n")

    def _take_back(self) -> None:
        """Raise `TakeBack` to ask the last answered question again, or say there is none yet."""
        if not self.given:
            self.stdout.write("  nothing to take back yet\n")
            return
        asked, (bulls, cows) = self.given[-1]
        self.stdout.write(f"  taken back: your answer {bulls} {cows} to question {len(self.given)} ([{asked}])\n")
        raise TakeBack(TerminalOracle(self.puzzle, self.stdin, self.stdout, tuple(self.given[:-1])))

    def _contradiction(self, guess: np.ndarray, answer: tuple[int, int]) -> str | None:
        """Why no key gets `answer` to `guess` with the earlier answers, or None (and the keys that do are kept)."""
        if self.fitting is None:
            return None
        bulls, cows = score_many(self.fitting, np.asarray(guess, dtype=np.int64), self.puzzle.num_symbols)  # symmetric
        left = self.fitting[(bulls == answer[0]) & (cows == answer[1])]
        if not len(left):
            return f"no key gets {answer[0]} {answer[1]} to [{self.puzzle.format(guess)}] with the earlier answers"
        self.fitting = left
        return None

    def _read_line(self) -> str:
        """One line after the prompt, stripped; q, quit or end of input raise `Quit`."""
        self.stdout.write("bulls cows> ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")  # end the prompt's line
            raise Quit
        line = line.strip()
        if line.lower() in QUIT:
            raise Quit
        return line


def all_keys(puzzle: Puzzle) -> np.ndarray:
    """Every secret of a small `puzzle`, one per row (symbol indices), in code order."""
    symbols = range(puzzle.num_symbols)
    rows = itertools.product(symbols, repeat=puzzle.length) if puzzle.repeats else itertools.permutations(symbols, puzzle.length)
    return np.array(list(rows), dtype=np.int64).reshape(-1, puzzle.length)


class ProgramOracle(Oracle):
    """An external program: one guess line (n characters, UTF-8) in, one `BULLS COWS` line out.

    The command is split like a shell command but run without a shell. The
    program's input is closed after it answers n bulls (or when the run ends).
    """

    def __init__(self, puzzle: Puzzle, command: str) -> None:
        super().__init__(puzzle)
        try:
            argv = shlex.split(command)
        except ValueError as err:
            raise OracleError(f"cannot split the oracle command {command!r}: {err}") from None
        if not argv:
            raise OracleError("the oracle command is empty")
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, encoding="utf-8", bufsize=1
            )
        except OSError as err:
            raise OracleError(f"cannot run {argv[0]!r}: {err.strerror or err}") from None

    def _answer(self, guess: np.ndarray) -> tuple[int, int]:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(self.puzzle.format(guess) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except BrokenPipeError:
            raise OracleError(f"question {self.queries}: the oracle program ended without answering") from None
        except (OSError, UnicodeDecodeError) as err:
            raise OracleError(f"question {self.queries}: the oracle program failed: {err}") from None
        if not line:
            raise OracleError(f"question {self.queries}: the oracle program ended without answering")
        answer = parse_answer(line)
        if answer is None or not re.fullmatch(r"\d+ \d+", line.strip()):
            raise OracleError(f"question {self.queries}: cannot read the answer {line.strip()[:40]!r} (expected 'BULLS COWS')")
        return answer

    def ask(self, guess: np.ndarray) -> tuple[int, int]:
        answer = super().ask(guess)
        if self.solved:
            self.close()
        return answer

    def close(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
