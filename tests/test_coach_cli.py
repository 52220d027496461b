"""`bactree analyse`, `bactree review` and `play --coach`: exact output, errors, and reviews against brute force."""

from __future__ import annotations

from pathlib import Path

import pytest
from naive_search import guess_total, least_total
from typer.testing import CliRunner

from bactree.cli.main import app
from bactree.coach.analysis import Analysis, GuessValue
from bactree.coach.engine import EXPECTED
from bactree.coach.review import read_game, review
from bactree.coach.text import analysis_lines
from bactree.game import Game, preset
from bactree.play import SoloSession, walk_secret
from bactree.walker import load_shipped_tree

runner = CliRunner()
TINY = ["--length", "3", "--symbols", "01234"]


def test_review_of_a_short_game_prints_exactly_this():
    result = runner.invoke(app, ["review", *TINY, "--secret", "034", "-"], input="012\n340\n034\n")
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Review of a game of 3 of '01234', no repeats (expected; loss in expected guesses a game):\n"
        " 1. 012 1B0C  60 secrets before; best 012 3.2667, played 3.2667, loss 0.0000; luck: 6 left, 11.6 on average\n"
        " 2. 340 0B3C  6 secrets before; best 034 2.1667, played 2.1667, loss 0.0000; luck: 1 left, 1.3 on average\n"
        " 3. 034 3B0C  1 secret before; best 034 1.0000, played 1.0000, loss 0.0000; luck: found it, 0.0 on average\n"
        "Total loss 0.0000; found in 3 guesses; best play averages 3.2667 from the start.\n"
    )


def test_a_mastermind_walk_reviews_in_the_game_its_first_line_names():
    """`bactree walk --game mastermind --secret 3456 | bactree review`: no options needed, answers in key pegs."""
    lines: list[str] = []
    walk_secret(load_shipped_tree(preset("mastermind")), "3456", lines.append)
    transcript = "".join(line + "\n" for line in lines)
    assert lines[1] == "Guess 1: 1123  0 black, 1 white  276 secrets remain"
    result = runner.invoke(app, ["review"], input=transcript)
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Review of a game of 4 of '123456', repeats (expected; loss in expected guesses a game):\n"
        " 1. 1123 0 black, 1 white  1296 secrets before; best 1123 4.3403, played 4.3403, loss 0.0000; luck: 276 left, 185.3 on average\n"
        " 2. 2445 1 black, 1 white  276 secrets before; best 2445 3.5326, played 3.5326, loss 0.0000; luck: 51 left, 33.2 on average\n"
        " 3. 2566 1 black, 1 white  51 secrets before; best 2566 2.7255, played 2.7255, loss 0.0000; luck: 8 left, 5.7 on average\n"
        " 4. 3456 4 black, 0 white  8 secrets before; best 3456 1.8750, played 1.8750, loss 0.0000; luck: found it, 0.9 on average\n"
        "Total loss 0.0000; found in 4 guesses; best play averages 4.3403 from the start.\n"
    )
    result = runner.invoke(app, ["review", "--length", "3"], input=transcript)
    assert result.exit_code == 2
    assert result.stderr == ("Error: the transcript plays 4 of '123456', repeats, but the options ask for "
                             "3 of '0123456789', no repeats\n")


def test_a_game_not_finished_after_one_guess_says_guess():
    result = runner.invoke(app, ["review", *TINY], input="012 1B0C\n")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "Total loss 0.0000; not found after 1 guess; best play averages 3.2667 from the start.")


def test_analyse_at_the_start_says_every_first_guess_is_equivalent_to_one_listed():
    result = runner.invoke(app, ["analyse", *TINY])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:5] == [
        "3 of '01234', no repeats, after the start: 60 secrets still possible.",
        "Guesses to find the secret from here, this one included (total over the secrets, and mean):",
        "  guess         total        mean",
        "  012            196      3.2667  could win now",
        "Every first guess is 012 with its symbols renamed (or its positions reordered): all are equivalent.",
    ]
    result = runner.invoke(app, ["analyse", "-n", "3", "--symbols", "0123", "--repeats"])
    assert result.output.splitlines()[3:7] == [
        "  001            206      3.2188  could win now",
        "  012            208      3.2500  could win now",
        "  000            233      3.6406  could win now",
        "Every first guess is one of these with its symbols renamed or its positions reordered, and equivalent to it.",
    ]
    result = runner.invoke(app, ["analyse", "-n", "3", "--symbols", "0123", "--repeats", "--top", "2"])
    assert "Every first guess" not in result.output  # a guess of the third kind is not listed


def test_analyse_prints_the_table_and_the_named_guess():
    result = runner.invoke(app, ["analyse", *TINY, "012=1B0C", "--guess", "013", "--top", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:6] == [
        "3 of '01234', no repeats, after 012=1B0C: 6 secrets still possible: 034 043 314 342 413 432.",
        "Guesses to find the secret from here, this one included (total over the secrets, and mean):",
        "  guess         total        mean",
        "  034             13      2.1667  could win now",
        "  023             13      2.1667",
        "Your guess 013: total 15, mean 2.5000; loss 2 guesses in all, 0.3333 a game.",
    ]
    assert lines[6].startswith("Values: exact, from the search (")
    assert len(lines) == 7



def test_wide_bounds_get_wider_columns_so_figures_never_run_together():
    """`77561..82880` and `5.1297..5.4815` (5 of 9 at the start, out of time) overflow 12 characters."""
    game = Game(5, "012345678", False)
    value = GuessValue("01234", True, 77561, 82880, 15120)
    analysis = Analysis(game, (), EXPECTED, False, ("x",) * 15120, (value,), None, value, "search", False, 4.0)
    row = analysis_lines(analysis)[3]
    assert row.split() == ["01234", "77561..82880", "5.1297..5.4815", "could", "win", "now"]

def test_a_hard_mode_review_prints_exactly_this_and_refuses_a_game_that_broke_it():
    result = runner.invoke(app, ["review", *TINY, "--secret", "123", "--hard"], input="012\n103\n")
    assert result.exit_code == 0, result.output
    assert result.output == (  # 103 leaves one secret more to find than the best, 123: 46 guesses against 45 (brute force)
        "Review of a game of 3 of '01234', no repeats (expected, hard mode; loss in expected guesses a game):\n"
        " 1. 012 0B2C  60 secrets before; best 012 3.2833, played 3.2833, loss 0.0000; luck: 18 left, 11.6 on average\n"
        " 2. 103 2B0C  18 secrets before; best 123 2.5000, played 2.5556, loss 0.0556; luck: 3 left, 2.9 on average\n"
        "Total loss 0.0556; not found after 2 guesses; best play averages 3.2833 from the start.\n"
    )
    assert result.output in (Path(__file__).resolve().parent.parent / "docs" / "coach.md").read_text()  # shown there
    result = runner.invoke(app, ["review", *TINY, "--hard"], input="012 0B2C\n013 0B1C\n")
    assert result.exit_code == 2
    assert result.stderr == ("Error: guess 2 (013=0B1C): hard mode: 013 was not still possible, so the game was not "
                             "played in hard mode (review it without --hard)\n")


MALFORMED = [  # (arguments, the one line on stderr)
    (["0123=0B2C", "4567"], "Error: guess 2 (4567): expected GUESS=ANSWER, e.g. 0123=0B0C"),
    (["012=0B2C"], "Error: guess 1 (012=0B2C): invalid code '012': expected 4 symbols, got 3"),
    (["0123=0B2C", "4557=1B0C"], "Error: guess 2 (4557=1B0C): invalid code '4557': symbol '5' repeats"),
    (["0123=1B"], "Error: guess 1 (0123=1B): invalid answer '1B': type bulls and cows as 1B2C, '1 2' or 12"),
    (["0123=5B0C"], "Error: guess 1 (0123=5B0C): impossible answer 5B0C: bulls plus cows cannot exceed 4"),
    (["0123=3B1C"], "Error: guess 1 (0123=3B1C): impossible answer 3B1C: 3 bulls leave one symbol, which cannot be a cow"),
    (["0123=0B2C", "0123=1B0C"],
     "Error: guess 2 (0123=1B0C): no secret fits 1B0C to 0123 together with the answers to guess 1 (0123: 0B2C)"),
    (["0123=4B0C"], "Error: guess 1 (0123=4B0C) found the secret: nothing is left to analyse"),
    (["0123=4B0C", "4567=0B0C"], "Error: guess 2 (4567=0B0C): the game ended at guess 1, which found the secret"),
    (["0123=0B2C", "--guess", "45"], "Error: invalid code '45': expected 4 symbols, got 2"),
    (["0123=0B2C", "-O", "best"], "Error: unknown objective 'best': choose one of expected, worst-case"),
    (["0123=0B2C", "--top", "0"], "Error: --top must be at least 1, got 0"),
    (["0123=0B2C", "--seconds", "-1"], "Error: --seconds must be at least 0, got -1.0"),
    (["0123=0B2C", "--hard", "--guess", "0123"], "Error: hard mode: 0123 is not still possible, so it may not be guessed"),
]


@pytest.mark.parametrize(("args", "message"), MALFORMED)
def test_malformed_histories_get_one_line_naming_the_entry(args, message):
    result = runner.invoke(app, ["analyse", *args])
    assert result.exit_code == 2
    assert result.stderr == message + "\n"


@pytest.mark.parametrize(("text", "message"), [
    ("0123 0B2C\n4567 9Z\n", "Error: line 2: cannot read '4567 9Z': expected GUESS ANSWER, e.g. 0123 1B2C"),
    ("\n# nothing\n", "Error: no moves found: expected lines of GUESS ANSWER, e.g. 0123 1B2C"),
    ("0123 0B2C\n0123 1B0C\n",
     "Error: guess 2 (0123=1B0C): no secret fits 1B0C to 0123 together with the answers to guess 1 (0123: 0B2C)"),
])
def test_review_refuses_unreadable_games_in_one_line(text, message):
    result = runner.invoke(app, ["review"], input=text)
    assert result.exit_code == 2
    assert result.stderr == message + "\n"


def test_review_names_a_missing_file(tmp_path):
    result = runner.invoke(app, ["review", str(tmp_path / "none.txt")])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: cannot read ")


def test_a_game_along_the_shipped_expected_tree_loses_nothing():
    tree = load_shipped_tree(preset("bulls-cows"), "expected")
    lines: list[str] = []
    walk_secret(tree, "7214", lines.append)
    result = review(tree.game, read_game("\n".join(lines), tree.game), seconds=60.0)
    assert result.solved and result.complete
    assert [m.loss() for m in result.moves] == [(0.0, 0.0)] * len(result.moves)
    assert result.start.value == 26274


def test_a_bad_guess_loses_what_brute_force_says():
    game = Game(3, "01234", False)
    played = ["012", "013", "340"]  # 013 after 012=1B0C is not the best
    secret = "340"
    result = review(game, [f"{g}={game.score(g, secret)}" for g in played], seconds=60.0)
    secrets = frozenset(c for c in game.codes if game.score("012", c) == game.score("012", secret))
    expected = (guess_total(game, secrets, "013") - least_total(game, secrets)) / len(secrets)
    assert expected > 0
    assert result.moves[1].loss() == (expected, expected)


def test_play_coach_speaks_after_each_guess_and_its_transcript_reviews():
    game = Game(3, "01234", False)
    typed = iter(["012", "340", "034"])
    shown: list[str] = []

    def read(prompt: str) -> str:
        line = next(typed)
        shown.append(prompt + line)  # as a terminal shows it: the prompt, then what was typed
        return line

    SoloSession(game, "034", read, shown.append, coach=True).run()
    coach = [line for line in shown if line.startswith("  Coach:")]
    assert coach[0] == ("  Coach: 60 secrets were possible; best 012 3.2667, yours 3.2667, loss 0.0000; "
                        "luck: 6 left, 11.6 on average.")
    assert len(coach) == 3
    assert shown[-1] == "Total loss 0.0000; found in 3 guesses; best play averages 3.2667 from the start."
    assert read_game("\n".join(shown), game) == ["012=1B0C", "340=0B3C", "034=3B0C"]


def test_play_refuses_coach_outside_solo():
    result = runner.invoke(app, ["play", "--mode", "versus", "--coach"])
    assert result.exit_code == 2
    assert result.stderr == "Error: --coach is only used with --mode solo\n"


def test_json_output_holds_values_bounds_and_the_secrets():
    import orjson

    result = runner.invoke(app, ["analyse", *TINY, "012=1B0C", "--guess", "013", "--top", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = orjson.loads(result.output)
    assert data["best"] == [{"guess": "034", "possible": True, "exact": True, "lower": 13, "upper": 13}]
    assert data["guess"]["lower"] == 15 and data["loss"] == {"lower": 2, "upper": 2}
    assert data["still_possible"] == ["034", "043", "314", "342", "413", "432"]
    result = runner.invoke(app, ["review", *TINY, "--secret", "034", "--json"], input="012\n034\n")
    moves = orjson.loads(result.output)["moves"]
    assert [(m["guess"], m["answer"], m["left"]) for m in moves] == [("012", "1B0C", 6), ("034", "3B0C", 0)]


def test_the_python_example_of_the_coach_docs_runs():
    import doctest

    path = Path(__file__).resolve().parent.parent / "docs" / "coach.md"
    failures, tried = doctest.testfile(str(path), module_relative=False)
    assert tried >= 5 and failures == 0


def test_a_walk_at_the_terminal_reads_with_its_refusals_and_take_backs():
    game = preset("bulls-cows")
    transcript = """Think of a secret code: 4 of '0123456789', no repeats. I will find it in at most 7 guesses.
Guess 1: 0123  Your answer: 02
  1260 secrets remain
Guess 2: 1245  Your answer: 22
  Refused: no secret fits 2B2C to 1245 together with the answers to guess 1 (0123: 0B2C).
Guess 2: 1245  Your answer: u
  Taken back: your answer 0B2C to guess 1 (0123).
Guess 1: 0123  Your answer: 0 1
  1440 secrets remain
Guess 2: 1456  Your answer: 1x
  invalid answer '1x': type bulls and cows as 1B2C, '1 2' or 12
Guess 2: 1456  Your answer: 12
  65 secrets remain
"""
    assert read_game(transcript, game) == ["0123=0B1C", "1456=1B2C"]
    with pytest.raises(ValueError, match="line 1: cannot read '0123 OB2C'"):
        read_game("0123 OB2C\n", game)
    with pytest.raises(ValueError, match="line 2: guess 3 comes after guess 1"):
        read_game("Guess 1: 0123  0B2C\nGuess 3: 4567  1B0C\n", game)


def test_a_guess_taken_back_in_coached_play_leaves_the_review():
    """u takes back the last guess (issue 34): the coach forgets it, so the closing line is the game without it."""
    game = Game(3, "01234", False)

    def closing(typed_lines: list[str]) -> list[str]:
        typed = iter(typed_lines)
        shown: list[str] = []
        SoloSession(game, "034", lambda prompt: next(typed), shown.append, coach=True).run()
        return shown

    straight = closing(["012", "340", "034"])
    with_undo = closing(["012", "431", "u", "340", "034"])
    assert "  Taken back: guess 2 (431: 1B1C)." in with_undo
    assert with_undo[-1] == straight[-1] == "Total loss 0.0000; found in 3 guesses; best play averages 3.2667 from the start."


PIPED_SESSION = """\
I have picked a secret code: 3 of '01234', no repeats. Find it! Type a guess, u to take one back, or q to give up.
Guess 1: 012
  1B0C
  Coach: 60 secrets were possible; best 012 3.2667, yours 3.2667, loss 0.0000; luck: 6 left, 11.6 on average.
Guess 2: 13
  invalid code '13': expected 3 symbols, got 2
Guess 2: 431
  1B1C
  Coach: 6 secrets were possible; best 034 2.1667, yours 2.1667, loss 0.0000; luck: 1 left, 1.3 on average.
Guess 3: u
  Taken back: guess 2 (431: 1B1C).
Guess 2: 340
  0B3C
  Coach: 6 secrets were possible; best 034 2.1667, yours 2.1667, loss 0.0000; luck: 1 left, 1.3 on average.
Guess 3: 034
  3B0C
  Coach: 1 secret was possible; best 034 1.0000, yours 1.0000, loss 0.0000.
Solved in 3 guesses.
Total loss 0.0000; found in 3 guesses; best play averages 3.2667 from the start.
"""


def test_a_piped_coached_session_keeps_its_guesses_and_reviews_like_a_terminal_one():
    """From a pipe nothing shows what was typed; the session echoes each line read after its prompt (it lost them before)."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "bactree.cli.main"]
    played = subprocess.run([*command, "play", *TINY, "--seed", "1", "--coach"], input="012\n13\n431\nu\n340\n034\n",
                            capture_output=True, text=True, timeout=120, check=True)
    assert played.stdout == PIPED_SESSION
    reviewed = subprocess.run([*command, "review", *TINY], input=played.stdout, capture_output=True, text=True,
                              timeout=120, check=True)
    assert reviewed.stdout == runner.invoke(app, ["review", *TINY, "--secret", "034", "-"], input="012\n340\n034\n").output


def test_a_piped_walk_keeps_the_answers_typed():
    result = runner.invoke(app, ["walk"], input="0 2\nq\n")  # CliRunner's input is not a terminal either
    assert result.exit_code == 0
    assert result.output.splitlines()[2:] == [
        "Guess 1: 0123  Your answer: 0 2", "  1260 secrets remain", "Guess 2: 1245  Your answer: q", "Bye."]
    assert read_game(result.output, preset("bulls-cows")) == ["0123=0B2C"]
