"""Interactive sessions (bactree.play) and the `walk` and `play` commands, in-process."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import pytest
from typer.testing import CliRunner

from bactree import shipped
from bactree.cli.main import app
from bactree.game import Game, InvalidGameError
from bactree.play import (
    RefereeSession,
    SoloSession,
    VersusSession,
    WalkSession,
    fitting,
    open_tree,
    pick_secret,
    walk_secret,
)
from bactree.walker import MissingTreeError, Tree, load_tree
from walker_trees import write_tree

BC3 = Game(3, "0123", False)
GAME_OPTIONS = ["-n", "3", "--symbols", "0123"]


class Console:
    """A scripted player: `read` hands out the lines (then EOF), and the transcript looks like a terminal's."""

    def __init__(self, lines: Iterable[str], interrupt: bool = False) -> None:
        self.lines = iter(lines)
        self.interrupt = interrupt
        self.text = ""

    def read(self, prompt: str) -> str:
        self.text += prompt
        for line in self.lines:
            self.text += line + "\n"
            return line
        raise KeyboardInterrupt if self.interrupt else EOFError

    def write(self, line: str) -> None:
        self.text += line + "\n"


@pytest.fixture(scope="module")
def bc3_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tree(tmp_path_factory.mktemp("trees") / "bc3.json", BC3)


@pytest.fixture
def tree(bc3_tree: Path) -> Tree:
    return load_tree(bc3_tree)


def answers_for(tree: Tree, secret: str) -> list[str]:
    """The answers, typed as `b c`, that walk the tree to `secret`."""
    walk, typed = tree.start(), []
    while not walk.solved:
        answer = tree.game.score(walk.guess, secret)
        typed.append(f"{answer.bulls} {answer.cows}")
        walk.answer(answer.bulls, answer.cows)
    return typed


# --- walk ------------------------------------------------------------------


def test_walk_secret_transcript(tree: Tree) -> None:
    for secret in BC3.codes:
        lines: list[str] = []
        count = walk_secret(tree, secret, lines.append)
        assert lines[-1] == f"Found {secret} in {count} guess{'es' if count > 1 else ''}."
        assert lines[-2].startswith(f"Guess {count}: {secret}  3B0C")
    lines = []
    walk_secret(tree, "312", lines.append)
    assert lines == [
        "Secret 312, 3 of '0123', no repeats, tree bc3.json",
        "Guess 1: 012  2B0C  3 secrets remain: 013 032 312",
        "Guess 2: 023  0B2C  1 secret remains: 312",
        "Guess 3: 312  3B0C",
        "Found 312 in 3 guesses.",
    ]


def test_walk_session_survives_typos_and_wrong_answers(tree: Tree) -> None:
    right = answers_for(tree, "312")  # 2 0, 0 2, 3 0
    console = Console(["2B0C", "", "xyz", "2 1", "4 0", "1B1C", "0 0", "u", "u", "0b2c", "u", "20", "0 2", "3 0"])
    assert WalkSession(tree, console.read, console.write).run() == 0
    out = console.text
    assert right == ["2 0", "0 2", "3 0"]
    assert "Guess 2: 023  Your answer: \n  invalid answer '': type bulls and cows as 1B2C, '1 2' or 12" in out
    assert "xyz\n  invalid answer 'xyz'" in out
    assert "2 1\n  impossible answer 2B1C: 2 bulls leave one symbol, which cannot be a cow" in out
    assert "4 0\n  impossible answer 4B0C: bulls plus cows cannot exceed 3" in out
    # 1B1C to 023 after 2B0C to 012 leaves nothing; the refusal names the culprit and offers a way back
    assert (
        "1B1C\n  Refused: no secret fits 1B1C to 023 together with the answers to guess 1 (012: 2B0C).\n"
        "  Type u to take back your last answer (again to go further back), or answer again.\n"
    ) in out
    assert "u\n  Taken back: your answer 2B0C to guess 1 (012).\nGuess 1: 012  Your answer: u\n  Nothing to take back yet." in out
    assert "0 0\n  impossible answer 0B0C: no guess and secret of this game give it" in out
    assert "0b2c\n  9 secrets remain: 103 123 130 203 230 231 301 320 321\n" in out
    assert "u\n  Taken back: your answer 0B2C to guess 1 (012).\n" in out
    assert "20\n  3 secrets remain: 013 032 312\nGuess 2: 023  Your answer: 0 2\n  1 secret remains: 312\n" in out
    assert out.endswith("Solved: your secret is 312, found in 3 guesses.\n")


def test_walk_session_ends_cleanly(tree: Tree) -> None:
    for lines, interrupt, status in ((["2 0"], False, 0), (["2 0", "q"], False, 0), (["2 0"], True, 130)):
        console = Console(lines, interrupt)
        assert WalkSession(tree, console.read, console.write).run() == status
        assert console.text.endswith("Guess 2: 023  Your answer: \nBye.\n" if lines[-1] != "q" else "q\nBye.\n")


def test_open_tree(bc3_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert open_tree(bc3_tree, None).game == BC3
    assert open_tree(bc3_tree, BC3).game == BC3
    with pytest.raises(InvalidGameError, match=r"plays 3 of '0123', no repeats, but the options ask for 3 of '01234'"):
        open_tree(bc3_tree, Game(3, "01234", False))
    monkeypatch.setattr(shipped, "trees_dir", lambda: tmp_path)
    with pytest.raises(MissingTreeError, match="no shipped tree for bulls-cows-4x10 .* in "):
        open_tree(None, None)
    write_tree(tmp_path / "bulls-cows-3x4-worst-case.json", BC3)
    assert open_tree(None, BC3).name == str(tmp_path / "bulls-cows-3x4-worst-case.json")


# --- solo ------------------------------------------------------------------


def test_pick_secret_is_reproducible() -> None:
    picks = {pick_secret(Game(4, "0123456789", False), seed) for seed in range(20)}
    assert len(picks) > 10
    assert pick_secret(BC3, 7) == pick_secret(BC3, 7)


def test_solo_scores_guesses_and_hints() -> None:
    console = Console(["0123", "011", "abc", "012", "301", "230", "213"])
    assert SoloSession(BC3, "213", console.read, console.write, hints=True).run() == 0
    out = console.text
    assert "0123\n  invalid code '0123': expected 3 symbols, got 4\n" in out
    assert "011\n  invalid code '011': symbol '1' repeats\n" in out
    assert "abc\n  invalid code 'abc': symbol 'a' is not one of '0123'\n" in out
    history = []
    for guess in ("012", "301", "230"):
        history.append((guess, BC3.score(guess, "213")))
        count = len(fitting(BC3, history))
        assert f"{guess}\n  {history[-1][1]}  ({count} secret{'s' if count > 1 else ''} still fit" in out
    assert out.endswith("Guess 4: 213\n  3B0C\nSolved in 4 guesses.\n")


def test_solo_without_hints_and_giving_up() -> None:
    console = Console(["012", "q"])
    assert SoloSession(BC3, "213", console.read, console.write).run() == 0
    assert console.text.endswith("012\n  1B1C\nGuess 2: q\nThe secret was 213.\n")


# --- versus ----------------------------------------------------------------


def test_versus_you_win(tree: Tree) -> None:
    mine = answers_for(tree, "103")
    console = Console(["012", mine[0], "103", mine[1]])
    assert VersusSession(tree, "103", console.read, console.write).run() == 0
    assert console.text.endswith("You found my secret 103 in 2 guesses: you win.\n")


def test_versus_draw_and_undo_from_your_turn(tree: Tree) -> None:
    mine = answers_for(tree, "312")  # the computer needs 3 guesses
    script = ["012", mine[0], "u", "013", mine[0], mine[1], "021", mine[2]]
    console = Console(script)
    assert VersusSession(tree, "021", console.read, console.write).run() == 0
    out = console.text
    assert "Your guess 2: u\n  Taken back: your answer 2B0C to my guess 1 (012).\nYour guess 2: 013" in out
    assert out.count("My guess 1: 012  Your answer: ") == 2
    assert out.endswith(
        "You found my secret 021 in 3 guesses and I found yours, 312, in 3: a draw.\n"
    )


def test_versus_computer_wins_and_refuses_contradictions(tree: Tree) -> None:
    mine = answers_for(tree, "312")
    console = Console(["123", mine[0], "132", "1 1", "9", mine[1], "130", mine[2]])
    assert VersusSession(tree, "310", console.read, console.write, hints=True).run() == 0
    out = console.text
    assert "Refused: no secret fits 1B1C to 023 together with the answers to guess 1 (012: 2B0C)." in out
    assert "  invalid answer '9'" in out
    assert "still fit" in out
    assert out.endswith("I found your secret 312 in 3 guesses: I win. Mine was 310.\n")


def test_versus_ends_cleanly(tree: Tree) -> None:
    for interrupt, status in ((False, 0), (True, 130)):
        console = Console(["012"], interrupt)
        assert VersusSession(tree, "310", console.read, console.write).run() == status
        assert console.text.endswith("My guess 1: 012  Your answer: \nMy secret was 310.\n")


# --- referee ---------------------------------------------------------------


def test_referee_checks_each_players_answers() -> None:
    # Player 2's secret is 213, Player 1's is 031.
    script = [
        "012", "1 1",  # P1 guesses, P2 answers truthfully
        "013", "1B2C",  # P2 guesses, P1 answers truthfully
        "021", "1 1",  # P2 slips: 1B1C to 021 contradicts 1B1C to 012
        "0 2",  # the truth
        "130", "0 3",  # P1 slips: 0B3C to 130 contradicts 1B2C to 013
        "u",  # P2 takes back the guess instead
        "031", "3B0C",  # and guesses right
    ]
    console = Console(script)
    assert RefereeSession(BC3, console.read, console.write, hints=True).run() == 0
    out = console.text
    assert "1 1\n  6 secrets of Player 2 remain: 023 031 132 213 302 310\n" in out
    assert "1B2C\n  3 secrets of Player 1 remain: 031 103 310\n" in out
    assert "Refused, Player 2: no secret fits 1B1C to 021 together with the answers to guess 1 (012: 1B1C)." in out
    assert "0 2\n  4 secrets of Player 2 remain: 132 213 302 310\n" in out
    assert "Refused, Player 1: no secret fits 0B3C to 130 together with the answers to guess 1 (013: 1B2C)." in out
    assert "u\n  Taken back: Player 2's guess 130.\nPlayer 2, your guess at Player 1's secret: 031\n" in out
    assert "3B0C\n  Player 2 found Player 1's secret in 2 guesses.\n" in out
    assert out.endswith("Player 2 found Player 1's secret in 2 guesses and wins.\n")


def test_referee_draw_and_quit() -> None:
    console = Console(["012", "3 0", "013", "3 0"])
    assert RefereeSession(BC3, console.read, console.write).run() == 0
    assert console.text.endswith("Both found the other's secret in 1 guess: a draw.\n")
    console = Console(["012", "3 0", "u", "u", "u", "q"])
    assert RefereeSession(BC3, console.read, console.write).run() == 0
    assert "  Taken back: Player 1's guess 012.\n" in console.text
    assert "  Nothing to take back yet.\n" in console.text
    assert console.text.endswith("q\nGame abandoned.\n")


# --- the commands ----------------------------------------------------------

runner = CliRunner()


def invoke(*args: str, input: str | None = None):  # noqa: A002 - CliRunner's own name
    return runner.invoke(app, list(args), input=input)


def test_cli_walk_interactive(bc3_tree: Path) -> None:
    result = invoke("walk", str(bc3_tree), input="2 0\n1 1\nu\n2 0\n02\n30\n")
    assert result.exit_code == 0, result.output
    assert "Refused: no secret fits 1B1C to 023" in result.output
    assert result.output.endswith("Solved: your secret is 312, found in 3 guesses.\n")


def test_cli_walk_secret_and_game_options(bc3_tree: Path) -> None:
    result = invoke("walk", str(bc3_tree), "--secret", "120", *GAME_OPTIONS)
    assert result.exit_code == 0 and result.output.endswith("Guess 2: 120  3B0C\nFound 120 in 2 guesses.\n")
    result = invoke("walk", str(bc3_tree), "--secret", "113")
    assert (result.exit_code, result.output) == (2, "Error: invalid code '113': symbol '1' repeats\n")
    result = invoke("walk", str(bc3_tree), "-g", "mastermind")
    assert result.exit_code == 2
    assert result.output == f"Error: {bc3_tree} plays 3 of '0123', no repeats, but the options ask for 4 of '123456', repeats\n"


def test_cli_walk_default_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shipped, "trees_dir", lambda: tmp_path)
    result = invoke("walk", "--game", "mastermind", "-n", "5")  # too large to build on the spot (tests/test_cli_trees.py)
    assert result.exit_code == 2
    assert result.output == (
        "Error: no shipped tree for mastermind-5x6 (5 of '123456', repeats); building one takes more than seconds "
        "(7,776 codes): bactree build --game mastermind -n 5 --tie-break none -o mastermind-5x6.json, then bactree walk mastermind-5x6.json\n"
    )
    write_tree(tmp_path / "bulls-cows-3x4-worst-case.json", BC3)
    result = invoke("walk", *GAME_OPTIONS, "--secret", "312")
    assert result.exit_code == 0 and "Found 312 in 3 guesses." in result.output


def test_cli_walk_bad_tree_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "bactree-tree", "version": 1}')
    result = invoke("walk", str(bad))
    assert (result.exit_code, result.output) == (2, f"Error: {bad}: missing field 'game'\n")


def test_cli_play_solo() -> None:
    secret = pick_secret(BC3, 5)
    assert secret != "012"
    result = invoke("play", *GAME_OPTIONS, "--seed", "5", "--hints", input=f"0000\n012\n{secret}\n")
    assert result.exit_code == 0, result.output
    assert "invalid code '0000': expected 3 symbols, got 4" in result.output
    assert f"  {BC3.score('012', secret)}  ({len(fitting(BC3, [('012', BC3.score('012', secret))]))} secrets still fit)" in result.output
    assert result.output.endswith("Solved in 2 guesses.\n")
    result = invoke("play", *GAME_OPTIONS, "--seed", "5", input="012\n")
    assert result.exit_code == 0 and result.output.endswith(f"\nThe secret was {secret}.\n")


def test_cli_play_versus(bc3_tree: Path) -> None:
    secret = pick_secret(BC3, 3)
    tree = load_tree(bc3_tree)
    typed = answers_for(tree, "312")
    result = invoke("play", "-m", "versus", "--tree", str(bc3_tree), "--seed", "3", input=f"{secret}\n{typed[0]}\n")
    assert result.exit_code == 0, result.output
    assert result.output.endswith(f"You found my secret {secret} in 1 guess: you win.\n")
    result = invoke("play", "-m", "solo", "--tree", str(bc3_tree))
    assert (result.exit_code, result.output) == (2, "Error: --tree is only used with --mode versus\n")
    result = invoke("play", "-m", "referee", "--seed", "3")
    assert (result.exit_code, result.output) == (2, "Error: --seed picks the computer's secret: with --mode referee a person holds it\n")


def test_cli_play_referee() -> None:
    result = invoke("play", "--mode", "referee", *GAME_OPTIONS, input="012\n1 2\n013\n2 0\n021\n2 0\n")
    assert result.exit_code == 0
    assert "Refused, Player 2: no secret fits 2B0C to 021" in result.output
    assert result.output.endswith("\nGame abandoned.\n")


def test_cli_play_bad_mode() -> None:
    result = invoke("play", "--mode", "chess")
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize("command", ["walk", "play"])
def test_help_ends_with_an_example(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0 and "Example: bactree " in result.output


def test_solo_takes_back_with_u_and_names_a_repeated_guess() -> None:
    """As in every other session, u takes back (here: the last guess); a guess asked before is said so and not counted."""
    console = Console(["u", "012", "012", "U", "301", "012", "213"])
    assert SoloSession(BC3, "213", console.read, console.write).run() == 0
    assert console.text.splitlines()[1:] == [
        "Guess 1: u",
        "  Nothing to take back yet.",
        "Guess 1: 012",
        "  1B1C",
        "Guess 2: 012",
        "  You asked 012 already: guess 1, 1B1C. Not counted.",
        "Guess 2: U",
        "  Taken back: guess 1 (012: 1B1C).",
        "Guess 1: 301",
        "  0B2C",
        "Guess 2: 012",
        "  1B1C",
        "Guess 3: 213",
        "  3B0C",
        "Solved in 3 guesses.",
    ]


# --- Mastermind: answers said in key pegs ----------------------------------------


def test_a_mastermind_walk_says_answers_in_black_and_white_pegs(tmp_path: Path) -> None:
    """Typed answers are read as before (1B0C, '1 0', and the pegs as printed); what is said is in pegs."""
    tree = load_tree(write_tree(tmp_path / "mm.json", Game(3, "123", True)))
    console = Console(["zz", "2 2", "1 0", "0 3", "u", "1B0C", "1 black, 1 white", "3 0"])
    assert WalkSession(tree, console.read, console.write).run() == 0
    assert console.text == (
        "Think of a secret code: 3 of '123', repeats. I will find it in at most 4 guesses.\n"
        "Answer each guess with black and white pegs (1 black, 2 white typed as 1B2C, 1b2c, '1 2' or 12); "
        "u takes back your last answer, q quits.\n"
        "Guess 1: 112  Your answer: zz\n"
        "  invalid answer 'zz': type black and white pegs as 1B2C, '1 2' or 12\n"
        "Guess 1: 112  Your answer: 2 2\n"
        "  impossible answer 2 black, 2 white: black and white pegs cannot exceed 3 together\n"
        "Guess 1: 112  Your answer: 1 0\n"
        "  6 secrets remain: 133 222 232 313 322 332\n"
        "Guess 2: 133  Your answer: 0 3\n"
        "  Refused: no secret gives 0 black, 3 white to 133.\n"
        "Guess 2: 133  Your answer: u\n"
        "  Taken back: your answer 1 black, 0 white to guess 1 (112).\n"
        "Guess 1: 112  Your answer: 1B0C\n"
        "  6 secrets remain: 133 222 232 313 322 332\n"
        "Guess 2: 133  Your answer: 1 black, 1 white\n"
        "  1 secret remains: 332\n"
        "Guess 3: 332  Your answer: 3 0\n"
        "Solved: your secret is 332, found in 3 guesses.\n"
    )
    lines: list[str] = []
    walk_secret(tree, "231", lines.append)
    assert lines == [
        "Secret 231, 3 of '123', repeats, tree mm.json",
        "Guess 1: 112  0 black, 2 white  3 secrets remain: 221 231 321",
        "Guess 2: 231  3 black, 0 white",
        "Found 231 in 2 guesses.",
    ]


def test_a_mastermind_solo_game_in_pegs_and_a_pasted_page_echoed_short() -> None:
    console = Console(["1" * 4095, "123", "123", "u", "231"])
    assert SoloSession(Game(3, "123", True), "231", console.read, console.write).run() == 0
    assert console.text.split("\n", 2)[2] == (
        "  invalid code '1111111111111111111111111111111111111111'... (4,095 characters): expected 3 symbols, got 4095\n"
        "Guess 1: 123\n"
        "  0 black, 3 white\n"
        "Guess 2: 123\n"
        "  You asked 123 already: guess 1, 0 black, 3 white. Not counted.\n"
        "Guess 2: u\n"
        "  Taken back: guess 1 (123: 0 black, 3 white).\n"
        "Guess 1: 231\n"
        "  3 black, 0 white\n"
        "Solved in 1 guess.\n"
    )
