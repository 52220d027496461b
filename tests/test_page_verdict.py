"""Find mine's verdicts in headless Chromium, against the brute force (tests/naive_search.py), the shipped trees and bactree.analyse.

The page's engine (bactree/page/verdict.js) is called through its test hook
`window.bactreeVerdict(history, guess, budget)`, many positions per round
trip; one test plays through the page's form to check the verdict is shown.
"""

from __future__ import annotations

import random
from contextlib import ExitStack
from pathlib import Path
from typing import Iterator

import pytest

from bactree import treefile
from bactree.coach.book import Book, canonical_pairs, position_key
from bactree.game import Game, make_game, word_game
from bactree.page import tree_page
from bactree.walker import load_shipped_tree, shipped_tree_path
from chromium import HOW_TO_GET_A_BROWSER, NoBrowser, chromium, no_browser
from naive_search import least_total, min_cost_tree, parts, tree_to_nodes
from walker_trees import build_root, first_pick, write_tree

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    webdriver = None
if webdriver is None:  # as tests/test_page_browser.py: skip without a browser, fail under CI
    no_browser(f"selenium is not installed; {HOW_TO_GET_A_BROWSER}", module_level=True)

UNLIMITED = 1e12  # work enough for any position of these small games: every verdict exact
VERDICTS = "return arguments[0].map(([history, guess, budget]) => window.bactreeVerdict(history, guess, budget));"


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    """One headless Chromium for the module; without one the tests skip, or under CI=true fail (`no_browser`)."""
    with ExitStack() as stack:
        try:
            driver = stack.enter_context(chromium(1024, 900))
        except NoBrowser as err:
            reason = str(err)
        else:
            driver.set_script_timeout(300)
            yield driver
            return
    no_browser(reason)


def optimal_expected_tree(path: Path, game: Game) -> Path:
    """The brute force's least-total tree of `game`, written as an optimal expected tree file."""
    _, tree = min_cost_tree(game, None, True)
    doc = treefile.document(game, treefile.Objective("expected"), True, tree_to_nodes(tree))
    treefile.write_atomic(path, treefile.dumps(doc))
    return path


def open_page(browser, tree_file: Path, folder: Path) -> None:
    page, _ = tree_page(tree_file)
    out = folder / (tree_file.stem + ".html")
    out.write_text(page, encoding="utf-8")
    browser.get(out.as_uri())
    assert browser.execute_script("return document.body.dataset.ready") == "true"


def position(game: Game, history: list[tuple[str, str]]) -> frozenset[str]:
    return frozenset(c for c in game.secret_codes if all(str(game.score(g, c)) == a for g, a in history))


def sampled_positions(game: Game, count: int, seed: int, least_guesses: int) -> list[tuple[list[tuple[str, str]], str]]:
    """(history, next guess) pairs: random allowed guesses at a random secret, of 0..3 guesses (at least `least_guesses`)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        secret = rng.choice(game.secret_codes)
        history = []
        for _ in range(rng.randint(least_guesses, 3)):
            guess = rng.choice(game.codes)
            if guess == secret:
                break
            history.append((guess, str(game.score(guess, secret))))
        else:
            found.append((history, rng.choice(game.codes)))
    return found


def brute_force(game: Game, history: list[tuple[str, str]], guess: str) -> tuple[int, int, int]:
    """(secrets left, total guesses to find them all starting with `guess`, the least total of any first guess)."""
    secrets = position(game, history)
    best = least_total(game, secrets)
    split = parts(game, secrets, guess)
    useful = guess in secrets or len(split) > 1
    value = len(secrets) + (sum(least_total(game, p) for p in split.values()) if useful else best)
    return len(secrets), value, best


# (game, tree: "exact" for the brute force's optimal expected tree, "greedy" otherwise; positions; fewest guesses before).
# Whole games are among the positions: there the guess with the best one-deep bound is not always best, so a
# solver that stopped at it, or pruned a little too eagerly, fails here (3 of '1234' repeats: 207 against 206).
# A word game's allowed guesses may be more than its secrets, and repeat letters: every one is tried on a position.
# Here the best first guess is no secret (крм, дсм: 35 guesses in all, against 40 with the secrets alone).
WORDS = word_game(["кот", "рот", "сот", "мот", "лот", "дот", "пот", "дом", "сом", "ком", "лом", "ром"], ["крм", "дсм", "ккк"])
SMALL = [
    (WORDS, "exact", 40, 0),
    (WORDS, "greedy", 40, 0),
    (Game(3, "0123", False), "exact", 40, 0),
    (Game(3, "123", True), "exact", 40, 0),
    (Game(3, "01234", False), "greedy", 40, 0),
    (Game(3, "1234", True), "greedy", 30, 0),
]


@pytest.mark.parametrize(("game", "kind", "count", "least_guesses"), SMALL,
                         ids=[f"{'words-' + kind if g.has_lists else ''}{g.length}x{g.num_symbols}{'r' if g.repeats else ''}" for g, kind, *_ in SMALL])
def test_verdicts_equal_the_brute_force(browser, tmp_path: Path, game: Game, kind: str, count: int, least_guesses: int) -> None:
    tree_file = tmp_path / "tree.json"
    (optimal_expected_tree if kind == "exact" else write_tree)(tree_file, game)
    cases = sampled_positions(game, count, seed=len(game.codes), least_guesses=least_guesses)
    # With little work the search stops part way, leaving what it proved (exact values, lower bounds) to later
    # verdicts: every budget on a fresh page, the positions in turn, then all the work wanted.
    runs = {}
    for budget in (0, 300, 2_000, 20_000, UNLIMITED):
        open_page(browser, tree_file, tmp_path)
        runs[budget] = browser.execute_script(VERDICTS, [[h, g, budget] for h, g in cases])
    for i, (history, guess) in enumerate(cases):
        n, value, best = brute_force(game, history, guess)
        full = runs[UNLIMITED][i]
        assert full["exact"] and full["secrets"] == n, (history, guess)
        assert (full["value"]["lo"], full["value"]["hi"], full["best"]["lo"], full["best"]["hi"]) == (value, value, best, best)
        if full["bestGuess"] is not None:
            assert brute_force(game, history, full["bestGuess"])[1] == best
        for budget in (0, 300, 2_000, 20_000):
            quick = runs[budget][i]
            assert quick["value"]["lo"] <= value <= quick["value"]["hi"], (history, guess, budget, quick)  # proven bounds
            assert quick["best"]["lo"] <= best <= quick["best"]["hi"], (history, guess, budget, quick)
            if quick["exact"]:
                assert (quick["value"]["lo"], quick["best"]["lo"]) == (value, best)
            if quick["bestGuess"] is not None:
                assert brute_force(game, history, quick["bestGuess"])[1] == best
    if len(game.codes) > 30:  # (the smallest games' bounds are often tight already)
        assert any(not v["exact"] for v in runs[0]) and any(v["exact"] for v in runs[20_000])  # both kinds were tested


def subtree_totals(game: Game, node: dict, secrets: list[str], into: dict[int, int]) -> int:
    """Total guesses of `node`'s subtree over the secrets reaching it, for every node (by id), from the rules."""
    total = len(secrets)
    groups: dict[str, list[str]] = {}
    for secret in secrets:
        groups.setdefault(str(game.score(node["guess"], secret)), []).append(secret)
    for key, child in (node.get("next") or {}).items():
        total += subtree_totals(game, child, groups[key], into)
    into[id(node)] = total
    return total


@pytest.mark.parametrize("game", [make_game(), make_game("mastermind")], ids=["4x10", "mastermind"])
def test_verdicts_along_the_shipped_expected_tree(browser, tmp_path: Path, game: Game) -> None:
    tree = load_shipped_tree(game, "expected")
    assert tree.optimal and tree.objective["max_guesses"] is None
    totals: dict[int, int] = {}
    subtree_totals(game, tree.root, list(game.codes), totals)
    open_page(browser, Path(tree.name), tmp_path)
    rng = random.Random(31)
    for secret in rng.sample(game.codes, 5):
        walk, history, expected = tree.start(), [], []
        node = tree.root
        while not walk.solved:
            expected.append(totals[id(node)])
            answer = game.score(walk.guess, secret)
            history.append((walk.guess, str(answer)))
            walk.answer(answer.bulls, answer.cows)
            node = node["next"][str(answer)] if not walk.solved else node
        found = browser.execute_script(VERDICTS, [[history[:i], g, 0] for i, (g, _) in enumerate(history)])
        for verdict, total, (guess, _) in zip(found, expected, history, strict=True):
            assert verdict["exact"] and verdict["work"] == 0  # read from the tree, no search
            assert verdict["value"] == verdict["best"] == {"lo": total, "hi": total}
            assert verdict["bestGuess"] == guess


def test_find_mine_shows_each_verdict(browser, tmp_path: Path) -> None:
    game = Game(3, "0123", False)
    tree_file = optimal_expected_tree(tmp_path / "bc3.json", game)
    open_page(browser, tree_file, tmp_path)
    browser.find_element(By.ID, "tab-find").click()
    field = browser.find_element(By.ID, "find-input")
    secret = None
    for guess in ("012", "013", "120", "123", "132", "201", "230", "301", "310", "321", "021", "023", "031", "032",
                  "102", "103", "130", "203", "210", "213", "231", "302", "312", "320"):
        field.clear()
        field.send_keys(guess, Keys.ENTER)
        if browser.find_elements(By.CSS_SELECTOR, "#find-history li")[-1].get_attribute("data-answer") == "3B0C":
            secret = guess
            break
    assert secret is not None
    items = browser.find_elements(By.CSS_SELECTOR, "#find-history li")
    history: list[tuple[str, str]] = []
    for item in items:
        guess = item.find_element(By.CSS_SELECTOR, "code").get_attribute("textContent")
        answer = item.get_attribute("data-answer")
        n, value, best = brute_force(game, history, guess)
        shown = item.find_element(By.CSS_SELECTOR, ".verdict")
        assert shown.get_attribute("class") == "verdict exact"
        if value == best:
            assert shown.text == f"Exact: a best guess; {value / n:.3f} guesses to go on average, this one included."
        else:
            assert shown.text.startswith(f"Exact: {value / n:.3f} guesses to go on average, this one included; best {best / n:.3f}")
            assert shown.text.endswith(f": loss {(value - best) / n:.3f}.")
        history.append((guess, answer))


def test_a_tree_not_proven_optimal_gives_bounds_with_its_lower_bound(browser, tmp_path: Path) -> None:
    tree = load_shipped_tree(make_game(length=5), "expected")  # 5 of 10: a total with a proven lower bound
    assert not tree.optimal and tree.objective["name"] == "expected"
    open_page(browser, Path(tree.name), tmp_path)
    (verdict,) = browser.execute_script(VERDICTS, [[[], tree.root["guess"]]])  # the default work budget
    assert not verdict["exact"] and verdict["secrets"] == len(tree.game.codes)
    assert verdict["best"] == {"lo": tree.stats["lower_bound"], "hi": tree.stats["total_guesses"]}
    assert verdict["value"] == verdict["best"]  # the tree's own first guess: the same bounds


def test_a_word_games_lower_bound_is_of_its_secrets(browser, tmp_path: Path) -> None:
    """A word game's stats.lower_bound bounds the whole set of its secrets, which are fewer than its allowed guesses."""
    floor = least_total(WORDS, frozenset(WORDS.secret_codes)) - 1  # a true bound, above the page's own (31)
    doc = treefile.document(WORDS, treefile.Objective("expected"), False, build_root(WORDS), lower_bound=floor)
    tree_file = tmp_path / "words.json"
    treefile.write_atomic(tree_file, treefile.dumps(doc))
    open_page(browser, tree_file, tmp_path)
    (verdict,) = browser.execute_script(VERDICTS, [[[], doc["root"]["guess"], 0]])  # no work: bounds alone
    assert not verdict["exact"] and verdict["secrets"] == len(WORDS.secret_codes) < len(WORDS.codes)
    assert verdict["best"] == {"lo": floor, "hi": doc["stats"]["total_guesses"]}


SCORES = """
const [codes, length, symbols, repeats, answers, pairs] = arguments;
const judge = bactreeVerdicts.makeJudge({ codes, length, symbols, repeats, answers, total: () => 0, exactTree: false, wholeFloor: null });
return pairs.map(([g, s]) => judge.score(g, s));
"""


@pytest.mark.parametrize(
    "game",
    [Game(4, "123456", True), Game(3, "0123456789", False), Game(2, "abcdefghijklmnopq", True),
     Game(2, "abcdefghijklmnopqrstuvwxyzABCDEFG", False), Game(3, "ab", True),
     Game(3, "a\U0001F600b\U0001F601", True), Game(3, "\U0001F600\U0001F601\U0001F602\U0001F642", False),
     word_game(["мама", "папа", "вода", "нога", "лиса", "сова", "небо", "поле", "звук", "слон", "хлеб", "ёлка", "яйцо", "жена"],
               ["ааба", "шить", "щука", "эхом", "юлой", "цель", "фырч"])],
    ids=["mastermind", "3x10", "17r", "33", "3x2r", "astral-r", "astral", "words-32r"],
)
def test_the_verdicts_scoring_is_the_games(browser, tmp_path: Path, game: Game) -> None:
    """Each way the engine counts common symbols (bit sets, symbol counts, pairing positions) scores as game.score,
    symbols past U+FFFF (two UTF-16 units each) and a word game's allowed guesses included."""
    open_page(browser, write_tree(tmp_path / "tree.json", game, first_pick), tmp_path)
    rng = random.Random(3)
    n = len(game.codes)
    pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(20_000)]
    doubles = [i for i, c in enumerate(game.codes) if len(set(c)) < len(c)]
    pairs += [(rng.choice(doubles), rng.choice(doubles)) for _ in range(2_000)] if doubles else []
    answers = [str(a) for a in game.answers]
    found = browser.execute_script(SCORES, list(game.codes), game.length, game.symbols, game.repeats, answers, pairs)
    width = game.length + 1
    for (g, s), index in zip(pairs, found, strict=True):
        answer = game.score(game.codes[g], game.codes[s])
        assert index == answer.bulls * width + answer.cows, (game.codes[g], game.codes[s])


@pytest.mark.parametrize("game", [make_game(), make_game("mastermind")], ids=["4x10", "mastermind"])
def test_verdicts_agree_with_the_library(browser, tmp_path: Path, game: Game) -> None:
    """At positions after two guesses the library's exact values (bactree.analyse) lie within the page's verdicts."""
    from bactree.coach.analysis import analyse  # the exact search: numba

    open_page(browser, shipped_tree_path(game), tmp_path)
    cases = [(h, g) for h, g in sampled_positions(game, 40, seed=5, least_guesses=2) if len(h) == 2][:8]
    kinds = set()
    for (history, guess), verdict in zip(cases, browser.execute_script(VERDICTS, cases)):  # the page's default work
        found = analyse(game, [(g, a) for g, a in history], top=1, guess=guess, seconds=60)
        assert found.complete and found.guess.exact and found.optimum.exact
        assert verdict["secrets"] == len(found.secrets)
        assert verdict["value"]["lo"] <= found.guess.lower <= verdict["value"]["hi"], (history, guess, verdict)
        assert verdict["best"]["lo"] <= found.optimum.lower <= verdict["best"]["hi"], (history, guess, verdict)
        kinds.add(verdict["exact"])
    assert len(cases) == 8
    if game.repeats:
        assert True in kinds  # the page solves most Mastermind positions here exactly: equal to the library's


CANONICAL = """
const [symbols, length, histories] = arguments;
const book = bactreeBook.makeBook({ positions: {}, guesses: 2, symbols, length });
return histories.map((history) => { const found = book.canonical(history); return found && found.key; });
"""


@pytest.mark.parametrize("game", [make_game(), make_game("mastermind"), Game(3, "abcde", True)], ids=["4x10", "mastermind", "3x5r"])
def test_the_page_carries_a_history_to_the_coachs_canonical_one(browser, tmp_path: Path, game: Game) -> None:
    """bactree/page/book.js's canonical history (a port of bactree/coach/symmetry.py) is the book's, key for key."""
    open_page(browser, write_tree(tmp_path / "tree.json", game, first_pick), tmp_path)
    cases = [history for history, guess in sampled_positions(game, 300, seed=11, least_guesses=1)]
    found = browser.execute_script(CANONICAL, game.symbols, game.length, cases)
    for history, key in zip(cases, found, strict=True):
        pairs = tuple((g, game.parse_answer(a)) for g, a in history)
        canonical = canonical_pairs(game, pairs)
        assert key == (None if canonical is None else position_key(canonical[1])), history


def book_value(game: Game, book: Book, history: list[tuple[str, str]], guess: str) -> int | None:
    """The total of `guess` after `history` from the book's entries of the positions it leads to (None if one is not
    held): each part's least total, plus one guess a secret."""
    secrets = position(game, history)
    parts: dict[str, int] = {}
    for secret in secrets:
        parts[str(game.score(guess, secret))] = parts.get(str(game.score(guess, secret)), 0) + 1
    total = len(secrets)
    for answer in parts:
        if answer == str(game.solved):
            continue
        found = book.locate(tuple((g, game.parse_answer(a)) for g, a in history + [(guess, answer)]))
        if found is None:
            return None
        total += found.best[0][1]
    return total


@pytest.mark.parametrize(
    ("game", "guesses", "seed"), [(make_game("mastermind"), 0, 7), (make_game(), 1, 8)], ids=["mastermind-first", "4x10-second"])
def test_find_mine_is_exact_where_the_book_values_every_part(browser, tmp_path: Path, game: Game, guesses: int, seed: int) -> None:
    """Mastermind's first guess and 4 of 10's second: each part of the guess is a position of the shipped book, so the
    page's verdict (default work) is exact and the book's, whatever the guess, as the terminal's is."""
    book = Book.shipped(game, "expected", False)
    open_page(browser, shipped_tree_path(game), tmp_path)
    rng = random.Random(seed)
    cases = []
    while len(cases) < 12:
        secret = rng.choice(game.codes)
        history = [(g, str(game.score(g, secret))) for g in rng.sample(game.codes, guesses)]
        if all(a != str(game.solved) for _, a in history):
            cases.append((history, rng.choice(game.codes)))
    if not guesses:
        cases += [([], guess) for guess in ("1111", "1112", "1122", "1123", "1234")]
    for (history, guess), verdict in zip(cases, browser.execute_script(VERDICTS, cases), strict=True):
        value = book_value(game, book, history, guess)
        assert verdict["exact"], (history, guess, verdict)
        assert verdict["value"] == {"lo": value, "hi": value}, (history, guess)
        if history:
            best = book.locate(tuple((g, game.parse_answer(a)) for g, a in history)).best[0][1]
            assert verdict["best"] == {"lo": best, "hi": best}


def test_a_renamed_mastermind_page_carries_its_book_renamed(browser, tmp_path: Path) -> None:
    """`bactree html mastermind-4x6-expected --symbols RGBYOP`: the book travels in the page's letters."""
    game = Game(4, "RGBYOP", True)
    page, _ = tree_page(shipped_tree_path(make_game("mastermind")), game, rename=True)
    out = tmp_path / "renamed.html"
    out.write_text(page, encoding="utf-8")
    browser.get(out.as_uri())
    mastermind, book = make_game("mastermind"), Book.shipped(make_game("mastermind"), "expected", False)
    (verdict,) = browser.execute_script(VERDICTS, [[[], "RRGG"]])
    value = book_value(mastermind, book, [], "1122")
    assert verdict["exact"] and verdict["value"] == {"lo": value, "hi": value}
