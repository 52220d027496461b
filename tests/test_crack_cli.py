"""`bactree crack`: bad input is one line and exit 2; --json has the promised fields."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from bactree.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    "args,message",
    [
        (["-n", "3", "--secret", "abz!"], "4 symbols"),
        (["-n", "3", "--secret", "ab!"], "not in the alphabet"),
        (["-n", "3", "--secret", "aab", "--no-repeats"], "repeats"),
        (["-n", "3", "--symbols", "aab", "--random"], "twice"),
        (["-n", "40", "--no-repeats", "--random"], "at least 40 symbols"),
        (["-n", "3"], "exactly one of"),
        (["-n", "3", "--random", "--secret", "abc"], "exactly one of"),
        (["-n", "3", "--random", "-s", "nope"], "unknown strategy"),
        (["-n", "3", "--random", "-k", "5000"], "--alphabet-size"),
        (["-n", "3", "--oracle-cmd", "/no/such/program"], "cannot run"),
        (["-n", "3", "--random", "--effort", "0"], "--effort must be above 0"),
        (["-n", "3", "--random", "--effort", "nan"], "--effort must be above 0"),
        (["-n", "3", "--random", "--effort", "2", "-s", "count-split"], "--effort applies to"),
        (["-n", "3", "--random", "--effort", "2", "-s", "windows"], "--effort applies to"),
        (["-n", "3", "--oracle-cmd", "false"], "question 1: the oracle program ended without answering"),
        (["-n", "5", "--random", "--seed", "-1"], "--seed must be from 0 to 9223372036854775807, got -1"),
        (["-n", "5", "--random", "--seed", "99999999999999999999"], "--seed must be from 0 to 9223372036854775807, got 9"),
        (["-n", "100001", "--random"], "invalid game: keys of at most 100,000 positions, got 100,001"),
        (["-n", "99999999999999999999", "--random"], "keys of at most 100,000 positions"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["crack", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_json_fields() -> None:
    result = runner.invoke(app, ["crack", "-n", "30", "--secret", "the quick brown fox jumps over", "--json"])
    assert result.exit_code == 0, result.output
    summary = orjson.loads(result.stdout)
    assert summary["found"] == "the quick brown fox jumps over" and summary["solved"] is True
    assert summary["strategy"] == "best" and summary["length"] == 30 and summary["repeats"] is True
    assert summary["effort"] == 1.0
    assert summary["symbols"] == "abcdefghijklmnopqrstuvwxyz0123456789 "
    assert isinstance(summary["queries"], int) and summary["queries"] > 0 and summary["seconds"] >= 0


def test_summary_line_and_progress_on_stderr() -> None:
    result = runner.invoke(app, ["crack", "-n", "50", "-k", "60", "--no-repeats", "--random", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1 and "solved in" in result.stdout
    assert "positions right so far" in result.stderr


def test_oracle_cmd_garbled_answer_is_one_line(tmp_path) -> None:
    program = tmp_path / "garble.py"
    program.write_text("import sys\nfor i, line in enumerate(sys.stdin):\n    print('1 0' if i < 2 else 'x', flush=True)\n")
    result = runner.invoke(app, ["crack", "-n", "5", "--oracle-cmd", f"{sys.executable} {program}"])
    assert result.exit_code == 2
    *progress, error = result.stderr.strip().splitlines()  # progress lines, then the error alone
    assert error == "Error: question 3: cannot read the answer 'x' (expected 'BULLS COWS')"
    assert all(line.endswith("positions right so far") for line in progress)


def test_interactive_typo_is_asked_again() -> None:
    # Secret "ab" over "ab": count-split asks "aa" (1 0), then the key "ab" (2 0); "one" is a typo.
    answers = "one\n1 0\n2 0\n"
    command = ["crack", "-n", "2", "--symbols", "ab", "--strategy", "count-split", "--interactive", "-q"]
    result = runner.invoke(app, command, input=answers)
    assert result.exit_code == 0, result.output
    assert "cannot read 'one'" in result.stderr and result.stdout.startswith("[ab] solved")


INTERACTIVE = ["crack", "-n", "3", "--symbols", "ab", "--strategy", "count-split", "--interactive", "-q"]


def test_interactive_impossible_answer_is_asked_again() -> None:
    # Secret "aba": count-split asks "aaa" (2 0), "baa" (1 2), then "aba" (3 0); "2 1" cannot happen.
    result = runner.invoke(app, INTERACTIVE, input="2 1\n2 0\n1 2\n3 0\n")
    assert result.exit_code == 0, result.output
    assert "  2 bulls and 1 cow cannot happen; try again\n" in result.stderr
    assert result.stderr.count("question 1: [aaa]") == 1  # asked again, not a new question
    assert result.stdout.startswith("[aba] solved in 3 questions (count-split, ")


def test_interactive_answer_contradicting_earlier_ones_is_asked_again_at_once() -> None:
    # Secret "aba": after 2 0 to "aaa" the key is aab, aba or baa, and each gets 1 2 or 3 0 from "baa", never 0 0.
    result = runner.invoke(app, INTERACTIVE, input="2 0\n0 0\n1 2\n3 0\n")
    assert result.exit_code == 0, result.output
    assert "  no key gets 0 0 to [baa] with the earlier answers; try again\n" in result.stderr
    assert result.stdout.startswith("[aba] solved in 3 questions (count-split, ")


def test_interactive_takes_back_with_u_and_reads_two_digits_as_walk_does() -> None:
    # Secret "aba": 20 to "aaa", taken back (twice: the second finds nothing), 12 to "baa", taken back, then 30.
    result = runner.invoke(app, INTERACTIVE, input="20\nu\nu\n20\n12\nu\n12\n30\n")
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        "question 1: [aaa]\n"
        "bulls cows> question 2: [baa]\n"
        "bulls cows>   taken back: your answer 2 0 to question 1 ([aaa])\n"
        "question 1: [aaa]\n"
        "bulls cows>   nothing to take back yet\n"
        "bulls cows> question 2: [baa]\n"
        "bulls cows> question 3: [aba]\n"
        "bulls cows>   taken back: your answer 1 2 to question 2 ([baa])\n"
        "question 2: [baa]\n"
        "bulls cows> question 3: [aba]\n"
        "bulls cows> "
    )
    assert result.stdout.startswith("[aba] solved in 3 questions (count-split, ")


def test_a_key_of_the_wrong_length_says_positions() -> None:
    result = runner.invoke(app, ["crack", "-n", "10", "--secret", "abc", "-q"])
    assert result.exit_code == 2
    assert result.stderr == "Error: invalid key 'abc': 3 symbols, the game has 10 positions\n"


@pytest.mark.parametrize("answers", ["q\n", "2 0\nquit\n", "2 0\n Q \n", "", "2 0\n"], ids=["q", "quit", "Q", "eof", "eof-later"])
def test_interactive_quit_says_bye_and_exits_0(answers: str) -> None:
    result = runner.invoke(app, INTERACTIVE, input=answers)
    assert result.exit_code == 0, result.output
    last = result.stderr.splitlines()[-1]  # the runner does not echo input: q follows the prompt unseen
    assert last.removeprefix("bulls cows> ") == "Bye." and "Error" not in result.stderr
    assert result.stdout == ""  # no summary


def test_one_question_is_singular() -> None:
    result = runner.invoke(app, ["crack", "-n", "1", "--symbols", "ab", "--secret", "b", "-q"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("[b] solved in 1 question (best, ")


REPO = Path(__file__).resolve().parent.parent


def crack_section() -> str:
    """The page docs/crack.md."""
    return (REPO / "docs" / "crack.md").read_text()


def crack_notes() -> str:
    """The page docs/notes/crack.md, which holds the effort table."""
    return (REPO / "docs" / "notes" / "crack.md").read_text()


def test_crack_page_commands_run(monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    commands = re.findall(r"^bactree (crack .*?)(?:\s+#.*)?$", crack_section(), flags=re.MULTILINE)
    assert len(commands) >= 4
    for command in commands:
        result = runner.invoke(app, [*shlex.split(command), "-q"])
        assert result.exit_code == 0, (command, result.output)
        assert "solved" in result.stdout


@pytest.mark.parametrize("n,repeats", [(10, True), (25, True), (100, False)])
def test_crack_page_table_rows_are_real(n: int, repeats: bool) -> None:
    """The exact crackers' figures in the table of docs/crack.md (best, then count-split), recomputed with the benchmark's seeds."""
    import numpy as np

    from bactree.crack import FIXED_ALPHABET, Puzzle, SecretOracle, make_cracker

    k = 37 if repeats else max(37, n)
    puzzle = Puzzle(n, FIXED_ALPHABET[:k], repeats)
    figures = []
    for name in ("best", "count-split"):
        queries = []
        for key in range(20):
            oracle = SecretOracle(puzzle, puzzle.random_code(np.random.default_rng([n * 2 + repeats, key])))
            make_cracker(name)(oracle, None)
            queries.append(oracle.queries)
        figures.append((np.mean(queries), max(queries)))
    (best, best_max), (split, split_max) = figures
    game = "repeats" if repeats else "no repeats"
    shown = f"{best:.1f}" if best == split else f"**{best:.1f}**"
    row = f"| {game} | {n} | {k} | {shown} ({best_max}) | {split:.1f} ({split_max}) | 100% |"
    assert row in crack_section()


def test_crack_notes_effort_row_is_real() -> None:
    """The effort table's questions at n = 50 (efforts 1 and 3, keys 0-3), recomputed with the benchmark's seeds."""
    import numpy as np

    from bactree.crack import FIXED_ALPHABET, Puzzle, SecretOracle, make_cracker

    puzzle = Puzzle(50, FIXED_ALPHABET[:37], True)
    line = next(line for line in crack_notes().splitlines() if line.startswith("| repeats | 50 | 37 | 0-3 |"))
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    for effort, cell in ((1.0, cells[4]), (3.0, cells[5])):
        queries = []
        for key in range(4):
            oracle = SecretOracle(puzzle, puzzle.random_code(np.random.default_rng([101, key])))
            make_cracker("best", effort=effort)(oracle, None)
            queries.append(oracle.queries)
        assert cell.startswith(f"{np.mean(queries):.1f} ("), (effort, cell, queries)
