"""Word games end to end: lists in German, Russian and Turkish through every command, tree format version 2, the walker.

Each test writes its lists to a temporary folder and runs the commands
in-process, checking their exact output; the search itself is compared with
the brute force in `test_word_search.py`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import orjson
import pytest
from typer.testing import CliRunner

from bactree import treefile
from bactree.cli.main import app
from bactree.game import InvalidCodeError, word_game
from bactree.pipeline.build import build
from bactree.shipped import schema_path
from bactree.walker import InconsistentAnswerError, load_tree

runner = CliRunner()

GERMAN = ["Käse", "hase", "rose", "reis", "maus", "haus", "laus", "laub", "kuss"]
RUSSIAN = ["кот", "ток", "рот", "сок", "нос", "сон", "дом", "мир", "рис"]
TURKISH = ["İki", "kedi", "ev", "su"]  # lengths differ: refused


def invoke(*args: str, input: str | None = None):  # noqa: A002 - CliRunner's own name
    return runner.invoke(app, list(args), input=input)


def write_list(folder: Path, name: str, words: list[str]) -> Path:
    path = folder / name
    path.write_text("".join(word + "\n" for word in words), encoding="utf-8")
    return path


@pytest.fixture
def german(tmp_path: Path) -> Path:
    return write_list(tmp_path, "de.txt", GERMAN)


def test_a_build_of_a_german_list_writes_version_2_and_verifies(german: Path, tmp_path: Path) -> None:
    out = tmp_path / "de.json"
    result = invoke("build", "--words", str(german), "-O", "expected", "-q", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert re.fullmatch(rf"{re.escape(str(out))}: height 3, 9 nodes, total 19, mean 2\.1111, optimal, \d+\.\ds\n", result.output)
    doc = orjson.loads(out.read_bytes())
    assert doc["version"] == 2
    assert list(doc["game"]) == ["length", "symbols", "repeats", "rule", "secrets"]
    assert doc["game"]["secrets"] == sorted(word.lower() for word in GERMAN)
    assert doc["game"]["symbols"] == "abehiklmorsuä" and doc["game"]["rule"] == "bulls-cows"
    jsonschema.validate(doc, json.loads(schema_path().read_text()))
    verified = invoke("verify", str(out))
    assert verified.exit_code == 0
    assert verified.output == f"ok   {out}: 9 secrets, max 3, total 19, mean 2.1111, 9 nodes, optimal\n"


def test_walk_and_play_take_words_in_any_case(german: Path, tmp_path: Path) -> None:
    out = tmp_path / "de.json"
    invoke("build", "--words", str(german), "-O", "expected", "-q", "-o", str(out))
    walked = invoke("walk", str(out), "--secret", "LAUS")
    assert walked.exit_code == 0, walked.output
    assert walked.output.splitlines() == [
        "Secret laus, 9 words of 4 letters, tree de.json",
        "Guess 1: haus  3B0C  2 secrets remain: laus maus",
        "Guess 2: laus  4B0C",
        "Found laus in 2 guesses.",
    ]
    played = invoke("play", "--words", str(german), "--seed", "3", input="katz\nKÄSE\n")
    assert played.exit_code == 0, played.output
    assert played.output.splitlines() == [
        "I have picked a secret word, one of 9 words of 4 letters. Find it! Type a guess, u to take one back, or q to give up.",
        "Guess 1: katz",
        "  invalid guess 'katz': not a word of the game's list",
        "Guess 1: KÄSE",
        "  4B0C",
        "Solved in 1 guess.",
    ]


def test_a_russian_list_plays_through_the_walker(tmp_path: Path) -> None:
    game = word_game(RUSSIAN)
    doc = build(game, "worst-case").document
    path = tmp_path / "ru.json"
    path.write_bytes(treefile.dumps(doc))
    tree = load_tree(path)
    assert tree.game == game and tree.game.secret_codes == tuple(sorted(RUSSIAN))
    walk = tree.start()
    secret = "сон"
    while not walk.solved:
        answer = game.score(walk.guess, secret)
        if walk.guess == "ток":
            walk.answer(str(answer))  # as the rule writes it
        else:
            walk.answer(answer.bulls, answer.cows)
    assert walk.guess == secret
    with pytest.raises(InvalidCodeError, match="not a word of the game's list"):
        game.parse_code("кит")


def test_an_impossible_answer_to_a_word_names_the_clash(tmp_path: Path) -> None:
    game = word_game(GERMAN[1:])
    path = tmp_path / "de.json"
    path.write_bytes(treefile.dumps(build(game, "expected").document))
    walk = load_tree(path).start()
    first = walk.guess
    with pytest.raises(InconsistentAnswerError):
        walk.answer("0B4C")
    assert walk.guess == first and walk.history == []


def test_allowed_guesses_beyond_the_secrets_are_written_and_read(tmp_path: Path) -> None:
    secrets = write_list(tmp_path, "secrets.txt", ["ab", "ba", "cd"])
    guesses = write_list(tmp_path, "guesses.txt", ["ac", "ab"])
    out = tmp_path / "t.json"
    result = invoke("build", "--words", str(secrets), "--guesses", str(guesses), "-O", "expected", "-q", "-o", str(out))
    assert result.exit_code == 0, result.output
    game = orjson.loads(out.read_bytes())["game"]
    assert game["secrets"] == ["ab", "ba", "cd"] and game["guesses"] == ["ab", "ac", "ba", "cd"]
    assert invoke("verify", str(out)).exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--words", "{turkish}"], "Error: {turkish}:2: 'kedi' has 4 letters, the list's first word 'İki' has 3\n"),
        (["--words", "{german}", "-n", "4"], "Error: --length does not go with --words: a word game takes its length and letters from its list\n"),
        (["--guesses", "{german}"], "Error: --guesses needs --words: the allowed guesses of a word game, whose secrets --words gives\n"),
        (["--words", "en-9"], "Error: no such file or shipped word list 'en-9' (shipped: en-4, en-4-guesses, en-5, en-5-guesses, en-5-jotto)\n"),
        (["--words", ""], "Error: an empty name is no word list: give a file or a shipped list's name (en-4, en-4-guesses, en-5, en-5-guesses, en-5-jotto)\n"),
        (["--game", "mastermind", "--words", "{german}"], "Error: --game mastermind does not go with --words: a word game's codes are its list's (--rule says how they answer)\n"),
    ],
)
def test_bad_word_options_get_one_line(tmp_path: Path, german: Path, args: list[str], message: str) -> None:
    turkish = write_list(tmp_path, "tr.txt", TURKISH)
    args = [arg.format(turkish=turkish, german=german) for arg in args]
    out = tmp_path / "never.json"
    result = runner.invoke(app, ["build", *args, "-q", "-o", str(out)])
    assert result.exit_code == 2
    assert result.stderr == message.format(turkish=turkish, german=german)
    assert not out.exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda game: game.update(rule="mastermind"), "game.rule 'mastermind' is not a rule this reader knows (it knows bulls-cows, bulls, jotto, wordle)"),
        (lambda game: game.update(secrets=game["secrets"][::-1]), "the secrets are not sorted without duplicates"),
        (lambda game: game.update(secrets=game["secrets"] + ["zzzz"]), "the symbols must be the lists' own"),
        (lambda game: game.update(secrets=["ab"] + game["secrets"]), "secret 'ab' has 2 symbols, not 4"),
        (lambda game: game.update(guesses=game["secrets"][1:]), "secret 'hase' is not among the guesses"),
        (lambda game: game.update(rule=None), "game.rule None is not a rule this reader knows"),
    ],
)
def test_a_reader_refuses_a_broken_version_2_game(change, message: str) -> None:
    doc = build(word_game(GERMAN[1:]), "expected").document
    doc = orjson.loads(treefile.dumps(doc))
    change(doc["game"])
    with pytest.raises(treefile.TreeFormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        treefile.check_document(doc)


def test_version_1_refuses_lists_and_a_node_must_guess_an_allowed_word() -> None:
    doc = orjson.loads(treefile.dumps(build(word_game(GERMAN[1:]), "expected").document))
    broken = {**doc, "version": 1}
    with pytest.raises(treefile.TreeFormatError, match="game.rule needs version 2"):
        treefile.check_document(broken)
    doc["root"]["guess"] = "hose"
    with pytest.raises(treefile.TreeFormatError, match="invalid guess 'hose': not a word of the game's list"):
        treefile.check_document(doc)


def test_shipped_list_games_are_named_for_their_lists() -> None:
    from bactree.cli.options import resolve_game
    from bactree.game import game_slug

    assert game_slug(resolve_game("words", None, None, None)) == "words-en-4"
    assert game_slug(resolve_game("bulls-cows", None, None, None, "en-5", "en-5-guesses")) == "words-en-5-en-5-guesses"
    own = word_game(GERMAN)
    assert game_slug(own) == f"words-{own.list_digest}" and len(own.list_digest) == 12


def test_review_takes_a_word_games_transcript_with_its_list(german: Path) -> None:
    walked = invoke("walk", "--words", str(german), "--secret", "laub")
    assert walked.exit_code == 0, walked.output
    reviewed = invoke("review", "--words", str(german), input=walked.stdout)
    assert reviewed.exit_code == 0, reviewed.output
    assert reviewed.stdout.splitlines()[0] == "Review of a game of 9 words of 4 letters (expected; loss in expected guesses a game):"
    unnamed = invoke("review", input=walked.stdout)
    assert unnamed.exit_code == 2
    assert unnamed.stderr == "Error: the transcript plays a word game (9 words of 4 letters): name its list with --words\n"


def test_a_transcript_of_a_list_of_thousands_reviews_with_its_list() -> None:
    from bactree.cli.options import resolve_game
    from bactree.coach.review import reviewed_game

    walked = invoke("walk", "--words", "en-4", "--secret", "tale")
    assert walked.exit_code == 0, walked.output
    assert walked.stdout.startswith("Secret tale, 1,529 words of 4 letters, tree words-en-4-")
    game = resolve_game("bulls-cows", None, None, None, "en-4")
    assert reviewed_game(walked.stdout, game) is game  # the header's thousands comma is not a field's end
    other = resolve_game("bulls-cows", None, None, None, "en-5")
    with pytest.raises(Exception, match="the transcript plays 1,529 words of 4 letters, but the options ask for 2,345 words"):
        reviewed_game(walked.stdout, other)


def test_a_list_of_one_word_is_counted_in_the_singular(tmp_path: Path) -> None:
    one = write_list(tmp_path, "one.txt", ["tale"])
    walked = invoke("walk", "--words", str(one), "--secret", "tale")
    assert walked.exit_code == 0, walked.output
    assert walked.stdout.splitlines()[0].startswith("Secret tale, 1 word of 4 letters, tree ")
    assert walked.stdout.splitlines()[-1] == "Found tale in 1 guess."
    reviewed = invoke("review", "--words", str(one), input=walked.stdout)
    assert reviewed.exit_code == 0, reviewed.output


def test_walk_refuses_a_word_that_is_no_secret_before_it_looks_for_a_tree(tmp_path: Path, german: Path) -> None:
    guesses = write_list(tmp_path, "guesses.txt", [*GERMAN, "haut"])
    for args, message in [
        (["--words", str(german), "--secret", "zzzz"], "Error: invalid secret 'zzzz': not a word of the game's list\n"),
        (["--words", str(german), "--secret", "käsekuchen"], "Error: invalid secret 'käsekuchen': expected 4 letters, got 10\n"),
        (["--words", str(german), "--guesses", str(guesses), "--secret", "haut"],
         "Error: invalid secret 'haut': an allowed guess, not one of the game's secrets\n"),
        (["--words", "en-4-guesses", "--secret", "zzzz"], "Error: invalid secret 'zzzz': not a word of the game's list\n"),
    ]:
        result = invoke("walk", *args)
        assert (result.exit_code, result.stderr) == (2, message)  # en-4-guesses: refused before it says no tree is shipped


def test_the_build_command_offered_for_a_word_game_names_its_lists() -> None:
    for args, build in [
        (["--words", "en-4-guesses"], "bactree build --words en-4-guesses --tie-break none -o words-en-4-guesses.json"),
        (["--words", "en-4", "--guesses", "en-4-guesses"],
         "bactree build --words en-4 --guesses en-4-guesses --tie-break none -o words-en-4-en-4-guesses.json"),
    ]:
        walked = invoke("walk", *args, "--secret", "tale")
        assert walked.exit_code == 2
        assert f": {build}, then bactree walk " in walked.stderr, walked.stderr
        versus = invoke("play", "--mode", "versus", *args, input="q\n")
        assert f": {build}, then bactree play --mode versus --tree " in versus.stderr, versus.stderr


def test_the_referee_of_a_word_game_asks_for_secret_words(german: Path) -> None:
    result = invoke("play", "--mode", "referee", "--words", str(german), input="q\n")
    assert result.stdout.splitlines()[0] == "Referee, 9 words of 4 letters: Player 1 and Player 2 each think of a secret word."


def test_a_few_secrets_among_many_allowed_guesses_are_built_on_the_spot(tmp_path: Path) -> None:
    few = write_list(tmp_path, "few.txt", ["tale", "tile", "male", "mile", "pale"])
    walked = invoke("walk", "--words", str(few), "--guesses", "en-4-guesses", "--secret", "mile")
    assert walked.exit_code == 0, walked.output
    assert ": building one of least height now, in seconds (bactree build --words " in walked.stderr
    assert walked.stdout.splitlines()[-1].startswith("Found mile in ")
