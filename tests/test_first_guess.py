"""`build -O expected --first CODE`: the trees that start with CODE only, exact or budgeted, and the file says so.

An exact build with the first guess fixed must give the brute force's least
total among the trees that start with it (`naive_search.guess_total`), under a
mutual rule (bulls and cows, a game of every code and word lists) and under
Wordle's, whose table is not symmetric; its file records the guess as
`objective.first_guess` (../shared/tree-format.md), and a build without
`--first` writes no such field.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from game_strategies import word_games
from naive_search import guess_total, useful_parts
from bactree.cli.main import app
from bactree.game import BactreeError, Game, word_game
from bactree.pipeline.build import build
from bactree.treefile import check_document

SETTINGS = settings(max_examples=25, deadline=None)


def check_first_guess_build(game: Game, first: str, hard: bool) -> None:
    """An exact `--first` build of `game` against the brute force, and its file's fields."""
    secrets = frozenset(game.secret_codes)
    least = guess_total(game, secrets, first, hard)
    doc = build(game, "expected", first_guess=first, hard=hard, workers=1).document
    check_document(doc)
    assert doc["root"]["guess"] == first
    assert doc["objective"]["first_guess"] == first
    assert doc["optimal"] is True and "lower_bound" not in doc["stats"]
    assert doc["stats"]["total_guesses"] == least
    # Budgeted, the bound is of the same trees: at most their least, which the tree cannot beat.
    budgeted = build(game, "expected", first_guess=first, hard=hard, workers=1, budget=0).document
    assert budgeted["root"]["guess"] == first and budgeted["objective"]["first_guess"] == first
    assert budgeted["stats"].get("lower_bound", least) <= least <= budgeted["stats"]["total_guesses"]


def useful_first_guesses(game: Game, hard: bool) -> list[str]:
    secrets = frozenset(game.secret_codes)
    pool = sorted(secrets) if hard else game.codes
    return [code for code in pool if useful_parts(game, secrets, code) is not None]


@SETTINGS
@given(word_games(max_secrets=9, max_others=4, rules=("wordle",), max_length=5), st.booleans(), st.data())
def test_a_fixed_first_guess_gives_the_least_total_of_its_trees_under_wordle(game: Game, hard: bool, data) -> None:
    check_first_guess_build(game, data.draw(st.sampled_from(useful_first_guesses(game, hard))), hard)


@SETTINGS
@given(word_games(max_secrets=9, max_others=4), st.booleans(), st.data())
def test_a_fixed_first_guess_gives_the_least_total_of_its_trees_under_bulls_and_cows(game: Game, hard: bool, data) -> None:
    check_first_guess_build(game, data.draw(st.sampled_from(useful_first_guesses(game, hard))), hard)


@pytest.mark.parametrize("first", ["112", "123", "111"])
def test_a_fixed_first_guess_of_a_game_of_every_code(first: str) -> None:
    """Mastermind 3x3 (27 secrets, first guesses of three classes): each class's least, not the game's."""
    check_first_guess_build(Game(3, "123", True), first, hard=False)


def test_a_fixed_first_guess_may_cost_more_than_the_game_s_optimum() -> None:
    """The file's `optimal` is among the trees that start with the guess: a poor first guess is optimal so too."""
    game = word_game(["crane", "trace", "nacre", "caner", "react", "crate"], rule="wordle")
    best = build(game, "expected", workers=1).document
    assert "first_guess" not in best["objective"]
    costs = {code: build(game, "expected", first_guess=code, workers=1).document for code in game.codes}
    assert min(doc["stats"]["total_guesses"] for doc in costs.values()) == best["stats"]["total_guesses"]
    worse = [doc for doc in costs.values() if doc["stats"]["total_guesses"] > best["stats"]["total_guesses"]]
    assert worse and all(doc["optimal"] for doc in worse)


def test_first_guess_refusals() -> None:
    game = word_game(["crane", "trace", "nacre"], ["crane", "trace", "nacre", "zzzzz"], rule="wordle")
    with pytest.raises(BactreeError, match="--first is for expected builds"):
        build(game, "worst-case", first_guess="crane")
    with pytest.raises(BactreeError, match="--first all is for budgeted expected builds"):
        build(game, "expected", first_guess="all")
    with pytest.raises(BactreeError, match="not a word of the game's list"):
        build(game, "expected", first_guess="slate")
    with pytest.raises(BactreeError, match="zzzzz is not a possible secret"):
        build(game, "expected", first_guess="zzzzz", hard=True)
    with pytest.raises(BactreeError, match="more secrets than 1 more guesses can solve"):
        build(game, "expected", first_guess="zzzzz", max_guesses=2)


def test_cli_records_the_first_word_in_any_case(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("crane\ntrace\nnacre\ncaner\n")
    out = tmp_path / "t.json"
    result = CliRunner().invoke(app, ["build", "--rule", "wordle", "--words", str(words), "-O", "expected",
                                      "--first", "TRACE", "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    check_document(doc)
    assert doc["objective"]["first_guess"] == "trace" and doc["root"]["guess"] == "trace"
    refused = CliRunner().invoke(app, ["build", "--rule", "wordle", "--words", str(words), "--first", "trace",
                                       "-o", str(tmp_path / "u.json")])
    assert refused.exit_code != 0 and "--first is for expected builds" in refused.output


def test_a_file_with_a_fixed_first_guess_meets_the_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="the schema tests need jsonschema: pip install -e '.[test]'")
    from bactree import shipped

    validator = jsonschema.Draft202012Validator(json.loads(shipped.schema_path().read_text()))
    doc = build(Game(3, "123", True), "expected", first_guess="112", workers=1).document
    validator.validate(json.loads(json.dumps(doc)))
    doc["objective"]["first_guess"] = ""
    assert not validator.is_valid(json.loads(json.dumps(doc)))
