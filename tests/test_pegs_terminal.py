"""Mastermind codes as coloured pegs at the terminal: colour on a pty, plain text on a pipe or with NO_COLOR."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pexpect
import pytest

from bactree.game import Game, preset
from bactree.pegs import COLOURS, PALETTE, code_painter, paint_code, peg_colours, wants_colour
from bactree.play import pick_secret
from bactree.walker import load_shipped_tree

MASTERMIND = preset("mastermind")
ESC = "\x1b["


def environment(no_color: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if no_color is not None:
        env["NO_COLOR"] = no_color
    return env


def on_pty(args: list[str], no_color: str | None = None, lines: tuple[str, ...] = ()) -> str:
    """Everything `bactree ARGS` writes to a pseudo-terminal, typing `lines` (then end of input)."""
    child = pexpect.spawn(
        sys.executable, ["-m", "bactree.cli.main", *args], env=environment(no_color), encoding="utf-8", timeout=30
    )
    for line in lines:
        child.sendline(line)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return child.before


def on_pipe(args: list[str], no_color: str | None = None, stdin: str = "") -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bactree.cli.main", *args], input=stdin, capture_output=True, text=True,
        env=environment(no_color), timeout=60, check=True,
    )
    return done.stdout


def test_paint_code_keeps_each_symbol_on_its_own_colour() -> None:
    painted = paint_code(MASTERMIND, "1162")
    assert painted.endswith("\x1b[0m")
    cells = painted[: -len("\x1b[0m")].split(ESC)[1:]
    assert [cell.split("m", 1)[1] for cell in cells] == ["1", "1", "6", "2"]  # the text is still the code
    backgrounds = [int(cell.split("m", 1)[0].rsplit(";", 1)[1]) for cell in cells]
    assert backgrounds == [PALETTE[0][2], PALETTE[0][2], PALETTE[5][2], PALETTE[1][2]]
    assert len({entry[2] for entry in PALETTE}) == len(PALETTE)  # eight colours, all distinct


def test_a_letter_that_names_a_colour_is_painted_in_it() -> None:
    """R red (vermillion), G green, B blue, Y yellow, O orange, P purple, W white, K black; other symbols take the
    palette's unused colours in order, and digits keep the palette's order."""
    names = lambda symbols: [COLOURS[c][0] for c in peg_colours(Game(len(symbols), symbols, True))]
    assert names("RGBYOP") == ["vermillion", "bluish green", "blue", "yellow", "orange", "reddish purple"]
    assert names("WKrg") == ["white", "black", "vermillion", "bluish green"]
    assert names("XRZ") == ["orange", "vermillion", "sky blue"]
    assert names("123456") == [entry[0] for entry in PALETTE[:6]]
    assert peg_colours(Game(4, "0123456789", False)) == ()  # Bulls and Cows: no pegs
    painted = paint_code(Game(4, "RGBYOW", True), "RGBW")
    assert painted == "\x1b[1;30;48;5;166mR\x1b[1;30;48;5;36mG\x1b[1;97;48;5;25mB\x1b[1;30;48;5;231mW\x1b[0m"


class FakeStream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("tty", "no_color", "expected"),
    [(True, None, True), (True, "", True), (True, "1", False), (True, "0", False), (False, None, False)],
)
def test_wants_colour_on_a_terminal_unless_no_color(monkeypatch, tty, no_color, expected) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)  # set and not empty disables colour; empty is as if unset
    assert wants_colour(FakeStream(tty)) is expected


def test_only_mastermind_gets_pegs(monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    terminal = FakeStream(True)
    assert code_painter(MASTERMIND, terminal)("1234") == paint_code(MASTERMIND, "1234")
    assert code_painter(preset("bulls-cows"), terminal)("1234") == "1234"
    assert code_painter(Game(4, "0123456789", True), terminal)("1234") == "1234"  # more symbols than colours


WALK = ["walk", "--game", "mastermind", "--secret", "6543"]


def test_walk_transcript_coloured_on_a_pty_plain_on_a_pipe_and_with_no_color() -> None:
    plain = on_pipe(WALK)
    assert ESC not in plain and "Found 6543 in" in plain
    coloured = on_pty(WALK)
    assert paint_code(MASTERMIND, "6543") in coloured
    assert f"Found {paint_code(MASTERMIND, '6543')} in" in coloured
    assert ESC not in on_pty(WALK, no_color="1")
    assert ESC not in on_pipe(["walk", "--secret", "0298"])
    assert ESC not in on_pty(["walk", "--secret", "0298"])  # Bulls and Cows keeps digits


def test_walk_session_prompts_in_colour_on_a_pty() -> None:
    first = load_shipped_tree(MASTERMIND).root["guess"]
    text = on_pty(["walk", "--game", "mastermind"])
    assert f"Guess 1: {paint_code(MASTERMIND, first)}  Your answer: " in text
    text = on_pty(["walk", "--game", "mastermind"], no_color="yes")
    assert f"Guess 1: {first}  Your answer: " in text and ESC not in text


def test_solo_echoes_the_guess_in_colour_only_on_a_pty() -> None:
    secret = pick_secret(MASTERMIND, 5)
    args = ["play", "--game", "mastermind", "--seed", "5"]
    answer = MASTERMIND.answer_text(MASTERMIND.score("1234", secret))
    text = on_pty(args, lines=("1234",))
    assert f"  {paint_code(MASTERMIND, '1234')}  {answer}" in text
    assert f"The secret was {paint_code(MASTERMIND, secret)}." in text
    text = on_pipe(args, stdin="1234\n")
    assert f"  {answer}\n" in text and ESC not in text
    assert ESC not in on_pty(args, no_color="1", lines=("1234",))
