"""Answer rules (`bactree.game.rules`): scoring against the format's vectors and a slow reference, the typed and
written forms, and the exact search under each rule against the brute force of `naive_search`.

The search runs on every rule, on games of every code (where relabellings
prune, for the rules that keep them) and on random word lists, in free and
hard mode, for both objectives; the pruning each rule turns on or off is
what is on trial. Wordle, whose table is not symmetric and whose answers
pass 64 slots, has its own module (test_wordle_search).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from game_strategies import word_games as shared_word_games
from naive_search import min_chain_tree, min_height, tree_to_nodes

from bactree.game import RULES, Answer, BactreeError, Game, InvalidAnswerError, InvalidGameError, word_game
from bactree.game.codes import UNGROUPED, answer_table, decode_answer, grouped_answers, num_slots, solved_slot
from bactree.pipeline.build import build
from bactree.search.height import solver as search_height
from bactree.treefile import check_document, check_header, dumps
from bactree.walker import load_tree

# The format's Wordle examples (guess, secret, key).
WORDLE_VECTORS = [
    ("ninny", "annex", "YBGBB"), ("annex", "ninny", "BYGBB"), ("hello", "world", "BBBGY"), ("epees", "geese", "YBGYY"),
    ("wheee", "peeve", "BBGYG"), ("exxxe", "abcde", "BBBBG"), ("crane", "trace", "YGGBG"), ("speed", "abide", "BBYBY"),
]
SEARCHED = ["bulls-cows", "bulls", "jotto"]  # the mutual rules, searched here (Wordle: test_wordle_search)


def slow_marks(guess: str, secret: str) -> str:
    """Wordle's marks as the format words them, one position at a time."""
    marks = ["G" if g == s else None for g, s in zip(guess, secret)]
    for i, g in enumerate(guess):
        if marks[i] is None:
            copies = sum(1 for j, s in enumerate(secret) if s == g and marks[j] != "G")
            used = sum(1 for j in range(i) if guess[j] == g and marks[j] == "Y")
            marks[i] = "Y" if used < copies else "B"
    return "".join(marks)  # type: ignore[arg-type]


def slow_score(rule: str, guess: str, secret: str) -> str:
    """The key of `secret`'s answer to `guess`, straight from the format's table."""
    bulls = sum(g == s for g, s in zip(guess, secret))
    shared = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    if rule == "bulls-cows":
        return f"{bulls}B{shared - bulls}C"
    if rule == "bulls":
        return f"{bulls}B"
    if rule == "jotto":
        return "won" if guess == secret else str(shared)
    return slow_marks(guess, secret)


@pytest.mark.parametrize("guess, secret, key", WORDLE_VECTORS)
def test_wordle_gives_the_formats_examples(guess: str, secret: str, key: str) -> None:
    game = word_game([guess, secret], rule="wordle")
    assert str(game.score(guess, secret)) == key
    table = answer_table(game)
    assert str(decode_answer(game, table[game.code_index[guess], game.code_index[secret]])) == key


@settings(max_examples=200, deadline=None)
@given(rule=st.sampled_from(list(RULES)), pair=st.lists(st.text("abcde", min_size=4, max_size=4), min_size=2, max_size=2))
def test_every_rule_scores_as_the_format_says(rule: str, pair: list[str]) -> None:
    guess, secret = pair
    game = word_game(pair, rule=rule)
    assert str(game.score(guess, secret)) == slow_score(rule, guess, secret)
    answer = game.score(guess, secret)
    assert answer in game.answers
    assert (answer == game.solved) == (guess == secret)


@pytest.mark.parametrize("rule", list(RULES))
def test_the_table_holds_every_pairs_slot_and_slots_sort_as_keys(rule: str) -> None:
    game = Game(3, "abcd", True, rule=rule)
    table = answer_table(game)
    for (i, g), (j, s) in itertools.product(enumerate(game.codes), repeat=2):
        assert decode_answer(game, table[i, j]) == game.score(g, s)
    found = {game.score(g, s) for g in game.codes for s in game.codes}
    assert set(game.answers) == found  # exact on a game of every code
    keys = [str(a) for a in game.answers]
    assert keys == sorted(keys, key=lambda k: game.rule.slot(game.rule.read_key(k, 3), 3))
    assert solved_slot(game) < num_slots(game) <= 256
    if rule == "wordle":
        assert keys == sorted(keys)  # code point order, as the format sorts them


def test_jottos_win_is_told_apart_from_an_anagram() -> None:
    game = word_game(["stare", "tears", "aster", "cloud"], rule="jotto")
    assert str(game.score("stare", "tears")) == "5" and game.score("stare", "stare") == game.solved
    assert str(game.solved) == "won" and game.parse_answer("WON") == game.solved
    assert [str(a) for a in game.answers] == ["0", "1", "2", "3", "4", "5", "won"]


@pytest.mark.parametrize(
    "rule, typed, key",
    [
        ("bulls-cows", "1b2c", "1B2C"), ("bulls-cows", "1 2", "1B2C"), ("bulls", "1b", "1B"), ("bulls", " 2 ", "2B"),
        ("jotto", "3", "3"), ("wordle", "gy..g", "GYBBG"), ("wordle", "GYxxG", "GYBBG"), ("wordle", "gy--g", "GYBBG"),
        ("wordle", "BYbBG", "BYBBG"),
    ],
)
def test_answers_are_typed_in_the_rules_forms(rule: str, typed: str, key: str) -> None:
    game = word_game(["abbey", "cloud", "crane", "stare", "tears"], rule=rule)
    assert str(game.parse_answer(typed)) == key


@pytest.mark.parametrize(
    "rule, typed, message",
    [
        ("bulls", "1B2C", "invalid answer '1B2C': type the bulls as 1B or 1"),
        ("bulls", "6B", "impossible answer 6B: bulls cannot exceed 5"),
        ("bulls", "5", None),
        ("jotto", "six", "invalid answer 'six': type the symbols in common as a number, or won"),
        ("jotto", "6", "impossible answer 6: no more than 5 symbols can be in common"),
        ("wordle", "GYQBG", "invalid answer 'GYQBG': type a mark a position, G green, Y yellow, B (or . - x) grey"),
        ("wordle", "GYB", "invalid answer 'GYB': expected 5 marks, got 3"),
        ("wordle", "GGGGY", "impossible answer GGGGY: a lone yellow beside greens would have to sit in its own place"),
    ],
)
def test_answers_no_game_gives_are_refused_in_a_line(rule: str, typed: str, message: str | None) -> None:
    game = word_game(["abbey", "cloud", "crane", "stare", "tears"], rule=rule)
    if message is None:
        assert game.parse_answer(typed) == game.solved
        return
    with pytest.raises(InvalidAnswerError) as err:
        game.parse_answer(typed)
    assert str(err.value) == message


def test_an_unknown_rule_is_named() -> None:
    with pytest.raises(InvalidGameError, match=r"^unknown rule 'mastermind': choose one of bulls-cows, bulls, jotto, wordle$"):
        Game(4, "0123456789", False, rule="mastermind")


def test_bulls_and_cows_stay_as_they_were() -> None:
    """The default rule: the same answers, the same objects, version 1 files."""
    game = Game(4, "0123456789", False)
    assert game.rule is RULES["bulls-cows"] and game == Game(4, "0123456789", False, rule="bulls-cows")
    assert game.score("0123", "1032") == Answer(0, 4) and game.solved == Answer(4, 0)
    assert isinstance(game.parse_answer("12"), Answer)
    assert Game(4, "0123456789", False, rule="bulls") != game
    assert hash(Game(4, "0123456789", False, rule="bulls")) != hash(game)


def test_six_letter_wordle_is_refused_in_one_line() -> None:
    game = word_game(["abcdef", "fedcba"], rule="wordle")
    with pytest.raises(BactreeError, match=r"^game too large for a build or an evaluation: wordle on 6 positions has 729 answers, more than the table's 256$"):
        answer_table(game)


def test_the_exact_searches_take_wordle() -> None:
    """Wordle's table is not symmetric (`Rule.mutual` False): both searches read it the right way round
    (`Solver.by_secret`; the brute-force comparisons are in test_wordle_search)."""
    game = word_game(["crane", "trace", "nacre", "react", "caret"], rule="wordle")
    for objective in ("expected", "worst-case"):
        result = build(game, objective)
        assert result.document["optimal"] is True and result.document["game"]["rule"] == "wordle"
        check_document(result.document)


def test_the_pruning_each_rule_allows() -> None:
    """Crowds only where bulls tell rearrangements apart, the grouped bounds only where answers tell the shared,
    symmetry only where relabellings keep answers."""
    every = {rule: search_height.Solver(Game(3, "abcd", False, rule=rule)) for rule in SEARCHED}
    assert [every[rule].symmetric for rule in SEARCHED] == [True, True, True]
    assert every["bulls"].grouped is UNGROUPED and every["jotto"].grouped is not UNGROUPED
    assert every["jotto"].crowd_limit(3) == every["bulls-cows"].crowd_limit(3) < every["jotto"].num_codes
    assert Game(3, "abcd", False, rule="wordle").symmetric is False
    game = Game(3, "abcd", True, rule="wordle")
    assert grouped_answers(game, answer_table(game)) is UNGROUPED


EVERY_CODE = [Game(2, "0123", False), Game(3, "0123", False), Game(2, "1234", True), Game(3, "123", True)]



def _with_rule(game: Game, rule: str) -> Game:
    return Game(game.length, game.symbols, game.repeats, game.secrets, game.guesses, rule)


def _check_build(game: Game, hard: bool, objective: str) -> None:
    """The build's tree is the brute force's, tree for tree, under either objective; the file reads back."""
    if objective == "expected":
        figures, tree = min_chain_tree(game, None, ("total",), hard)
        result = build(game, "expected", hard=hard)
        assert result.stats["total_guesses"] == figures[0]
    else:
        height = min_height(game, hard)
        figures, tree = min_chain_tree(game, height, ("total",), hard)
        result = build(game, "worst-case", "total", hard=hard)
        assert result.stats["max_guesses"] == height
    assert result.document["root"] == tree_to_nodes(tree)
    assert result.document["optimal"] is True
    check_document(result.document)
    assert check_header(result.document, "tree") == game


@pytest.mark.parametrize("rule", ["bulls", "jotto"])
@pytest.mark.parametrize("game", EVERY_CODE, ids=str)
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("objective", ["expected", "worst-case"])
def test_every_code_games_match_brute_force(rule: str, game: Game, hard: bool, objective: str, search_paths: str) -> None:
    _check_build(_with_rule(game, rule), hard, objective)


def word_games() -> st.SearchStrategy[Game]:
    """A random small word game under a searched rule: 3 to 12 secrets of 2 to 4 letters, maybe with other guesses."""
    return shared_word_games(max_letters=6, max_secrets=12, max_others=5, rules=SEARCHED)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=word_games(), hard=st.booleans(), objective=st.sampled_from(["expected", "worst-case"]))
def test_word_games_under_every_rule_match_brute_force(game: Game, hard: bool, objective: str, search_paths: str) -> None:
    _check_build(game, hard, objective)


@pytest.mark.parametrize("rule", list(RULES))
def test_a_tree_of_each_rule_is_written_in_version_2_and_walked(rule: str, tmp_path) -> None:
    """Version 2 with `game.rule`; keys in the rule's form; the walker takes the rule's answers."""
    from bactree.evaluate import strategy_tree
    from bactree.strategies import make_strategy

    game = word_game(["stare", "tears", "crane", "nacre", "trace", "react"], rule=rule)
    doc = strategy_tree(make_strategy("knuth", game))
    assert doc["version"] == 2 and doc["game"]["rule"] == rule
    path = tmp_path / "tree.json"
    path.write_bytes(dumps(doc))
    tree = load_tree(path)
    assert tree.game == game
    walk = tree.start()
    while not walk.solved:
        walk.answer(str(game.score(walk.guess, "react")))
    assert walk.guess == "react"
    check_document(doc)



@pytest.mark.parametrize("name", sorted(RULES))
def test_a_game_sent_to_another_process_is_the_same_game(name: str) -> None:
    """Workers get their game pickled: its rule comes back as the registry's own, so the two games are equal."""
    import pickle

    game = Game(3, "01234", False, rule=name)
    copy = pickle.loads(pickle.dumps(game))
    assert copy == game and copy.rule is game.rule and hash(copy) == hash(game)
