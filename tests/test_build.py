"""`bactree build` and the shipped trees: files that verify, proofs recorded, clear errors."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from bactree.cli.main import app
from bactree.treefile import check_document, read_document

TREES = sorted((Path(__file__).parent.parent / "trees").glob("*.json"))
runner = CliRunner()


@pytest.mark.parametrize("path", TREES, ids=lambda p: p.name)
def test_shipped_tree_verifies(path):
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok ")


@pytest.mark.parametrize(
    "name, height, optimal",
    [("bulls-cows-4x10-worst-case.json", 7, True), ("mastermind-4x6-worst-case.json", 5, True)],
)
def test_shipped_worst_case_trees(name, height, optimal):
    doc = read_document(Path(__file__).parent.parent / "trees" / name)
    check_document(doc, name)
    assert doc["stats"]["max_guesses"] == height
    assert doc["optimal"] is optimal
    assert doc["objective"]["name"] == "worst-case"


def test_build_writes_a_verified_file(tmp_path):
    out = tmp_path / "sub" / "tree.json"
    out.parent.mkdir()  # a folder named with -o must exist (docs/output-files.md)
    args = ["build", "--length", "3", "--symbols", "01234", "--no-repeats", "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "height 4" in result.stdout and "optimal" in result.stdout
    doc = orjson.loads(out.read_bytes())
    check_document(doc)
    assert doc["optimal"] is True
    assert doc["objective"] == {"name": "worst-case", "tie_breaks": ["nodes"], "hard_mode": False, "max_guesses": None}
    assert [p.name for p in out.parent.iterdir()] == ["tree.json"]  # no temporary file left
    again = tmp_path / "again.json"
    assert runner.invoke(app, [*args[:-1], str(again), "--quiet"]).exit_code == 0
    assert again.read_bytes() == out.read_bytes()


def test_build_expected_with_cap_records_it(tmp_path):
    out = tmp_path / "e.json"
    args = ["build", "-O", "expected", "-g", "mastermind", "-n", "2", "--symbols", "123", "--max-guesses", "3", "-o", str(out), "-q"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = orjson.loads(out.read_bytes())
    assert doc["objective"]["max_guesses"] == 3 and doc["objective"]["name"] == "expected"
    assert doc["stats"]["max_guesses"] <= 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["--length", "0"], "length must be at least 1"),
        (["--length", "11"], "11 positions need at least 11 symbols"),
        (["--symbols", "0012"], "appears twice"),
        (["--game", "chess"], "unknown game 'chess'"),
        (["--objective", "fastest"], "unknown objective 'fastest'"),
        (["--tie-break", "luck"], "unknown tie-break 'luck'"),
        (["-O", "expected", "-n", "2", "--symbols", "0123", "--max-guesses", "1"], "least is"),
        (["-O", "expected", "-n", "2", "--tie-break", "crush"], "--tie-break is for -O worst-case"),
    ],
)
def test_build_bad_input_is_one_line_exit_2(args, message, tmp_path):
    result = runner.invoke(app, ["build", *args, "-o", str(tmp_path / "x.json"), "-q"])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("where", ["folder", "under a file"])
def test_build_refuses_an_unwritable_output_before_searching(where, tmp_path):
    """A typo in -o costs a second, not the search: the one-line error comes before any progress."""
    (tmp_path / "plain").write_text("not a folder")
    out = tmp_path if where == "folder" else tmp_path / "plain" / "tree.json"
    result = runner.invoke(app, ["build", "--length", "2", "--symbols", "0123", "-o", str(out)])
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: cannot write {str(out)!r}: ")
    assert len(result.output.strip().splitlines()) == 1  # no progress line: the search never started
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]


def test_a_budgeted_worst_case_build_bounds_the_height_not_its_tie_break():
    """The tree format's lower bound is of the main figure: a worst-case tree whose fewest nodes are not proven
    says the proven height (4 of 6 within a budget of 0: 363 nodes, at least 361, height 5 proven)."""
    from bactree.pipeline.build import build
    from bactree.game import Game
    from bactree.search import Solver

    game = Game(4, "012345", False)
    doc = build(game, "worst-case", budget=0, workers=1).document
    assert doc["optimal"] is False
    assert doc["stats"]["lower_bound"] == doc["stats"]["max_guesses"] == Solver(game).min_height()
    check_document(doc)
