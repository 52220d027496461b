"""Tree files at the command line (issue 60): shipped trees by name, `bactree trees`, a tree for a game with none, a build that keeps a different file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bactree import shipped, treefile
from bactree.cli.main import app
from bactree.game import Game, make_game
from walker_trees import build_root, first_pick, write_tree

runner = CliRunner()
REPO = Path(__file__).resolve().parent.parent
MM = make_game("mastermind")
BC24 = ["-n", "2", "--symbols", "0123"]  # 12 codes: builds in a blink, and no tree of it ships
NAMES = "bactree trees lists the shipped trees"


def write_doc(path: Path, game: Game, objective: treefile.Objective, optimal: bool, lower_bound: int | None = None) -> Path:
    doc = treefile.document(game, objective, optimal, build_root(game, first_pick), lower_bound)
    path.write_bytes(treefile.dumps(doc))
    return path


# --- bactree trees -------------------------------------------------------------------------------


def test_trees_lists_each_tree_with_its_figures(tmp_path: Path) -> None:
    write_doc(tmp_path / "bulls-cows-2x4-worst-case.json", Game(2, "0123", False), treefile.Objective("worst-case", ("nodes",)), True)
    write_doc(tmp_path / "mastermind-2x3-expected-max9.json", Game(2, "123", True), treefile.Objective("expected", (), True, 9), False, 17)
    write_doc(tmp_path / "mastermind-2x3-expected-first.json", Game(2, "123", True), treefile.Objective("expected", first_guess="11"), True)
    write_doc(tmp_path / "mastermind-2x3-expected.new.json", Game(2, "123", True), treefile.Objective("expected"), True)  # not offered
    (tmp_path / "notes.json").write_text("{}")  # not a tree: left out
    result = runner.invoke(app, ["trees", "--folder", str(tmp_path)])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "name                           game                     objective              height  total  optimal\n"
        "bulls-cows-2x4-worst-case      2 of '0123', no repeats  worst-case (nodes)          3     30  yes\n"
        "mastermind-2x3-expected-first  2 of '123', repeats      expected, first 11          4     24  yes\n"
        "mastermind-2x3-expected-max9   2 of '123', repeats      expected, max 9, hard       4     24  no (>= 17)\n"
    )


def test_trees_lists_every_shipped_tree_by_name() -> None:
    result = runner.invoke(app, ["trees"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[1:]] == [p.stem for p in sorted((REPO / "trees").glob("*.json"))]
    assert "bulls-cows-4x10-expected         4 of '0123456789', no repeats              expected                       7   26274  yes" in lines
    assert "bulls-cows-5x10-expected         5 of '0123456789', no repeats              expected                       8  171590  no (>= 169928)" in lines
    assert "mastermind-4x6-expected-max5     4 of '123456', repeats                     expected, max 5                5    5626  yes" in lines
    assert "words-en-5-jotto-jotto-expected  1,874 words of 5 letters, scored by jotto  expected                      10   11895  no (>= 10281)" in lines  # a tree of another rule is listed too


def test_trees_refuses_a_missing_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["trees", "--folder", str(tmp_path / "none")])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"Error: --folder {str(tmp_path / 'none')!r} is not a folder\n")


# --- names wherever a tree file is taken --------------------------------------------------------


@pytest.mark.parametrize("name", ["mastermind-4x6-worst-case", "mastermind-4x6-worst-case.json"])
def test_every_command_takes_a_shipped_tree_by_name(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no file of that name here: the shipped tree is meant
    shipped_path = REPO / "trees" / "mastermind-4x6-worst-case.json"
    runs = {
        ("html", name, "-o", "mm.html"): "wrote mm.html: mastermind-4x6-worst-case.json, 1301 nodes, 96 KiB\n",
        ("verify", name): f"ok   {shipped_path}: 1296 secrets, max 5, total 5759, mean 4.4437, 1301 nodes, optimal\n",
        ("export", name, "-o", "mm.dot"): "wrote mm.dot: 1301 nodes, 1300 edges\n",
        ("walk", name, "--secret", "1234"): (
            "Secret 1234, 4 of '123456', repeats, tree mastermind-4x6-worst-case.json\n"
            "Guess 1: 1123  1 black, 2 white  84 secrets remain\nGuess 2: 1234  4 black, 0 white\nFound 1234 in 2 guesses.\n"
        ),
    }
    for args, out in runs.items():
        result = runner.invoke(app, list(args))
        assert (result.exit_code, result.stdout, result.stderr) == (0, out, ""), args
    result = runner.invoke(app, ["play", "--mode", "versus", "--tree", name, "--seed", "1"], input="q\n")
    assert result.exit_code == 0 and result.stdout.startswith("Versus, 4 of '123456', repeats:"), result.output
    for spec in (f"tree:{name}", "mastermind-4x6-worst-case.json"):
        result = runner.invoke(app, ["evaluate", "-s", spec, "--game", "mastermind"])
        assert result.exit_code == 0 and result.stdout.startswith("tree:mastermind-4x6-worst-case on 4 of '123456', repeats: 1296 games\n")


def test_a_file_of_that_name_wins_over_the_shipped_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_tree(tmp_path / "mastermind-4x6-worst-case.json", Game(3, "0123", False))
    result = runner.invoke(app, ["walk", "mastermind-4x6-worst-case.json", "--secret", "012"])
    assert result.exit_code == 0 and result.stdout.startswith("Secret 012, 3 of '0123', no repeats, tree mastermind-4x6-worst-case.json\n")
    assert shipped.find_tree("mastermind-4x6-worst-case.json") == Path("mastermind-4x6-worst-case.json")
    assert shipped.find_tree("mastermind-4x6-worst-case") == REPO / "trees" / "mastermind-4x6-worst-case.json"  # no file of this name


@pytest.mark.parametrize(
    "args",
    [
        ["html", "mastermind-4x6", "-o", "x.html"],
        ["walk", "mastermind-4x6"],
        ["verify", "trees/mastermind-4x6-worst-case.json", "mastermind-4x6"],
        ["export", "mastermind-4x6", "-o", "x.dot"],
        ["play", "--mode", "versus", "--tree", "mastermind-4x6"],
        ["evaluate", "--game", "mastermind", "-s", "tree:mastermind-4x6"],
    ],
)
def test_an_unknown_name_is_one_line_saying_how_to_list_the_names(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the path in verify's first argument exists here
    result = runner.invoke(app, args, input="q\n")
    line = f"Error: no tree file or shipped tree named 'mastermind-4x6': {NAMES}\n"
    assert (result.exit_code, result.stderr) == (2, line)
    if args[0] == "verify":  # the files before it are checked
        assert result.stdout.startswith("ok   trees/mastermind-4x6-worst-case.json: 1296 secrets") and result.stdout.count("\n") == 1
    else:
        assert result.stdout == ""


def test_a_path_with_a_folder_is_only_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`trees/x.json` outside a checkout is a missing file, said as before; a `.new.json` is never a shipped tree."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["walk", "trees/mastermind-4x6-worst-case.json"])
    assert (result.exit_code, result.stderr) == (2, "Error: trees/mastermind-4x6-worst-case.json: cannot read: No such file or directory\n")
    monkeypatch.setattr(shipped, "trees_dir", lambda: tmp_path / "trees")
    (tmp_path / "trees").mkdir()
    write_tree(tmp_path / "trees" / "bc.new.json", Game(3, "0123", False))
    with pytest.raises(shipped.UnknownTreeError, match="named 'bc.new'"):
        shipped.find_tree("bc.new")
    assert shipped.shipped_trees() == []


# --- a game with no shipped tree ----------------------------------------------------------------


def test_walk_builds_a_tree_for_a_small_game_with_none_and_says_so() -> None:
    result = runner.invoke(app, ["walk", *BC24, "--secret", "32"])
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        "no shipped tree for bulls-cows-2x4 (2 of '0123', no repeats): building one of least height now, in seconds "
        "(bactree build -n 2 --symbols 0123 --tie-break none -o bulls-cows-2x4.json keeps one)\n"
    )
    assert result.stdout.splitlines()[0] == "Secret 32, 2 of '0123', no repeats, tree bulls-cows-2x4-worst-case (built now)"
    assert result.stdout.endswith(" guesses.\n")
    result = runner.invoke(app, ["play", "--mode", "versus", "--game", "mastermind", "-n", "2", "--symbols", "abc", "--seed", "3"], input="q\n")
    assert result.exit_code == 0 and result.stdout.startswith("Versus, 2 of 'abc', repeats:"), result.output
    assert result.stderr.startswith("no shipped tree for mastermind-2x3 (2 of 'abc', repeats): building one of least height now, in seconds "
                                    "(bactree build --game mastermind -n 2 --symbols abc --tie-break none -o mastermind-2x3.json keeps one)\n")


def test_walk_and_play_take_a_tree_a_build_wrote_in_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["build", *BC24, "-q"]).exit_code == 0  # trees/bulls-cows-2x4-worst-case.json
    line = ("no shipped tree for bulls-cows-2x4 (2 of '0123', no repeats): playing trees/bulls-cows-2x4-worst-case.json, "
            "which a build wrote there\n")
    walked = runner.invoke(app, ["walk", *BC24, "--secret", "32"])
    assert (walked.exit_code, walked.stderr) == (0, line)
    assert walked.stdout.splitlines()[0] == "Secret 32, 2 of '0123', no repeats, tree bulls-cows-2x4-worst-case.json"
    versus = runner.invoke(app, ["play", "--mode", "versus", *BC24, "--seed", "1"], input="q\n")
    assert versus.exit_code == 0 and versus.stderr == line


@pytest.mark.parametrize(
    ("command", "then"),
    [(["walk"], "bactree walk bulls-cows-5x8.json"), (["play", "--mode", "versus"], "bactree play --mode versus --tree bulls-cows-5x8.json")],
)
def test_a_game_too_slow_to_build_now_names_the_commands_that_build_and_play_one(command: list[str], then: str) -> None:
    result = runner.invoke(app, [*command, "-n", "5", "--symbols", "01234567"], input="q\n")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "Error: no shipped tree for bulls-cows-5x8 (5 of '01234567', no repeats); building one takes more than seconds "
        f"(6,720 codes): bactree build -n 5 --symbols 01234567 --tie-break none -o bulls-cows-5x8.json, then {then}\n"
    )


def test_a_game_too_large_to_build_says_so() -> None:
    result = runner.invoke(app, ["walk", "-n", "6"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "Error: no shipped tree for bulls-cows-6x10 (6 of '0123456789', no repeats), and none can be built (game too large "
        "for a build or an evaluation: 6 of '0123456789', no repeats has 151,200 codes (at most 50,000))\n"
    )


# --- a build never replaces a different tree unless asked ----------------------------------------


def build(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["build", *BC24, "-q", *args])
    return result.exit_code, re.sub(r", \d+\.\ds$", ", Ns", result.stdout.rstrip("\n")), result.stderr


def test_a_rebuild_of_the_same_bytes_is_silent_and_a_different_tree_goes_beside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    target, new = Path("trees/bulls-cows-2x4-worst-case.json"), Path("trees/bulls-cows-2x4-worst-case.new.json")
    proven = "trees/bulls-cows-2x4-worst-case.json: height 3, 12 nodes, total 30, mean 2.5000, optimal, Ns"
    assert build() == (0, proven, "")
    first = target.read_bytes()
    assert build() == (0, proven, "")  # the same bytes: nothing said, nothing beside
    assert sorted(p.name for p in Path("trees").iterdir()) == [target.name]
    code, out, err = build("--tie-break", "total", "-o", str(target))  # another objective: other bytes
    assert (code, out) == (0, f"{new}: height 3, 12 nodes, total 30, mean 2.5000, optimal, Ns")
    assert err == (
        f"kept {target} (height 3, total 30, optimal), which differs: the new tree is {new}; "
        f"to replace it, mv {new} {target} (or build with --force)\n"
    )
    assert target.read_bytes() == first and new.read_bytes() != first
    assert build("--tie-break", "total", "--force") == (0, proven, "")
    assert target.read_bytes() == new.read_bytes()


def test_a_budgeted_build_over_a_proven_tree_says_so_before_it_searches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    target = Path("trees/bulls-cows-2x4-expected.json")
    assert build("-O", "expected")[0] == 0
    proven = target.read_bytes()
    warning = f"{target} is proven optimal; with --budget this build may not prove its tree: "
    result = runner.invoke(app, ["build", *BC24, "-O", "expected", "--budget", "0"])  # progress on: the warning comes first
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == warning + "a different tree goes to trees/bulls-cows-2x4-expected.new.json"
    assert target.read_bytes() == proven
    code, _, err = build("-O", "expected", "--budget", "0", "--force")
    assert (code, err.splitlines()[0]) == (0, warning + "--force replaces it with whatever this build finds")
    assert treefile.read_document(target)["optimal"] is (target.read_bytes() == proven)
