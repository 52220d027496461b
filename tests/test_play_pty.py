"""The `walk`, `play` and `review` commands in a real pseudo-terminal: typos, wrong answers, undo, end of input, Ctrl-C."""

from __future__ import annotations

import shutil
import sys

import pexpect
import pytest

from bactree.game import Game
from bactree.play import pick_secret
from walker_trees import write_tree

BC3 = Game(3, "0123", False)
GAME_OPTIONS = ["-n", "3", "--symbols", "0123"]


@pytest.fixture(scope="module")
def bc3_tree(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(write_tree(tmp_path_factory.mktemp("trees") / "bc3.json", BC3))


def spawn(*args: str, program: str | None = None) -> pexpect.spawn:
    command, argv = (program, list(args)) if program else (sys.executable, ["-m", "bactree.cli.main", *args])
    child = pexpect.spawn(command, argv, encoding="utf-8", timeout=30, dimensions=(40, 200))
    child.logfile_read = log = _Log()
    child.log = log  # type: ignore[attr-defined]
    return child


class _Log:
    """Collects everything the program wrote, to check for tracebacks at the end."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, data: str) -> None:
        self.text += data

    def flush(self) -> None:
        pass


def finish(child: pexpect.spawn, status: int) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status, child.log.text
    assert "Traceback" not in child.log.text


def test_walk_typos_undo_and_end_of_input(bc3_tree: str) -> None:
    # The tree asks 012, then 023 after 2B0C; the secret in mind is 312.
    child = spawn("walk", bc3_tree)
    child.expect_exact("Guess 1: 012  Your answer: ")
    child.sendline("zz")
    child.expect_exact("invalid answer 'zz': type bulls and cows as 1B2C, '1 2' or 12")
    child.sendline("2 1")
    child.expect_exact("impossible answer 2B1C: 2 bulls leave one symbol, which cannot be a cow")
    child.sendline("2B0C")
    child.expect_exact("3 secrets remain: 013 032 312")
    child.expect_exact("Guess 2: 023  Your answer: ")
    child.sendline("1 1")
    child.expect_exact("Refused: no secret fits 1B1C to 023 together with the answers to guess 1 (012: 2B0C).")
    child.sendline("u")
    child.expect_exact("Taken back: your answer 2B0C to guess 1 (012).")
    child.expect_exact("Guess 1: 012  Your answer: ")
    child.sendline("20")
    child.expect_exact("Guess 2: 023  Your answer: ")
    child.sendeof()
    child.expect_exact("Bye.")
    finish(child, 0)


def test_walk_to_the_end(bc3_tree: str) -> None:
    child = spawn("walk", bc3_tree)
    for answer in ("2 0", "0b2c", "3B0C"):
        child.expect_exact("Your answer: ")
        child.sendline(answer)
    child.expect_exact("Solved: your secret is 312, found in 3 guesses.")
    finish(child, 0)


def test_walk_ctrl_c(bc3_tree: str) -> None:
    child = spawn("walk", bc3_tree)
    child.expect_exact("Guess 1: 012  Your answer: ")
    child.sendintr()
    child.expect_exact("Bye.")
    finish(child, 130)


def test_walk_missing_shipped_tree_is_one_line() -> None:
    child = spawn("walk", "-n", "5", "--symbols", "01234567")
    child.expect_exact("Error: no shipped tree for bulls-cows-5x8")
    finish(child, 2)
    assert child.log.text.strip().count("\n") == 0


@pytest.mark.skipif(shutil.which("bactree") is None, reason="the console script is not installed")
def test_console_script_walks(bc3_tree: str) -> None:
    child = spawn("walk", bc3_tree, "--secret", "120", program=shutil.which("bactree"))
    child.expect_exact("Guess 1: 012  0B3C  2 secrets remain: 120 201")
    child.expect_exact("Found 120 in 2 guesses.")
    finish(child, 0)


def test_solo(bc3_tree: str) -> None:
    secret = pick_secret(BC3, 11)
    child = spawn("play", *GAME_OPTIONS, "--seed", "11", "--hints")
    child.expect_exact("Guess 1: ")
    child.sendline("0012")
    child.expect_exact("invalid code '0012': expected 3 symbols, got 4")
    child.expect_exact("Guess 1: ")
    child.sendline("012")
    child.expect(r"\dB\dC")
    assert child.before.count("012") == 1  # the terminal shows the typed line; the session does not echo it again
    child.expect_exact("Guess 2: ")
    child.sendline("q")
    child.expect_exact(f"The secret was {secret}.")
    finish(child, 0)


def test_solo_ctrl_c() -> None:
    child = spawn("play", "--seed", "1")
    child.expect_exact("Guess 1: ")
    child.sendintr()
    child.expect_exact(f"The secret was {pick_secret(Game(4, '0123456789', False), 1)}.")
    finish(child, 130)


def test_versus(bc3_tree: str) -> None:
    secret = pick_secret(BC3, 2)
    child = spawn("play", "--mode", "versus", "--tree", bc3_tree, *GAME_OPTIONS, "--seed", "2")
    child.expect_exact("Your guess 1: ")
    child.sendline("01")
    child.expect_exact("invalid code '01': expected 3 symbols, got 2")
    child.sendline("u")
    child.expect_exact("Nothing to take back yet.")
    child.sendline("123")
    child.expect_exact("My guess 1: 012  Your answer: ")
    child.sendline("2 0")
    child.expect_exact("Your guess 2: ")
    child.sendline(secret)
    child.expect_exact("My guess 2: 023  Your answer: ")
    child.sendline("1 1")
    child.expect_exact("Refused: no secret fits 1B1C to 023")
    child.sendeof()
    child.expect_exact(f"My secret was {secret}.")
    finish(child, 0)


def test_referee() -> None:
    child = spawn("play", "-m", "referee", *GAME_OPTIONS)
    child.expect_exact("Player 1, your guess at Player 2's secret: ")
    child.sendline("012")
    child.expect_exact("Player 2, your answer to 012: ")
    child.sendline("1 1")
    child.expect_exact("Player 2, your guess at Player 1's secret: ")
    child.sendline("0123")
    child.expect_exact("invalid code '0123'")
    child.sendline("021")
    child.expect_exact("Player 1, your answer to 021: ")
    child.sendline("3 1")
    child.expect_exact("bulls plus cows cannot exceed 3")
    child.sendline("u")
    child.expect_exact("Taken back: Player 2's guess 021.")
    child.sendintr()
    child.expect_exact("Game abandoned.")
    finish(child, 130)


def test_review_at_a_terminal_says_what_it_waits_for() -> None:
    """With no file, review reads the terminal: it says so on standard error instead of waiting in silence."""
    child = spawn("review", *GAME_OPTIONS)
    child.expect_exact("Reading the game from the terminal: type or paste its lines (GUESS ANSWER), then Ctrl-D "
                       "(or pass a file).\r\n")
    child.sendline("012 1B1C")
    child.sendeof()
    child.expect_exact("Review of a game of 3 of '0123', no repeats")
    child.expect_exact("Total loss 0.0000; not found after 1 guess;")
    finish(child, 0)
