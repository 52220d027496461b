"""The `bactree html` page in a real browser: headless Chromium, driven by selenium, every mode by clicking and typing.

One browser serves the whole module. Without one the tests skip, saying how
to get it; under CI (CI=true) they fail instead, so they cannot vanish
quietly. The pages are opened from file:// URLs; Chromium runs with every
background connection off (this page needs none).
With BACTREE_SCREENSHOTS=1 the last test of each mode saves a phone-width screenshot
into docs/ for docs/playing.md; otherwise a test run leaves the tracked files alone.
"""

from __future__ import annotations

import os
import random
import unicodedata
from contextlib import ExitStack
from pathlib import Path
from typing import Iterator

import pytest

from bactree.cli.options import resolve_game
from bactree.game import Game, make_game, word_game
from bactree.page import tree_page
from bactree.pegs import COLOURS, peg_colours
from bactree.play import remaining
from bactree.shipped import shipped_trees
from bactree.walker import Tree, load_shipped_tree, load_tree
from chromium import HOW_TO_GET_A_BROWSER, NoBrowser, chromium, no_browser
from walker_trees import write_tree

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    webdriver = None
if webdriver is None:  # outside the except: under CI the failure is one line, not a chain
    no_browser(f"selenium is not installed; {HOW_TO_GET_A_BROWSER}", module_level=True)

DOCS = Path(__file__).resolve().parent.parent / "docs"
BC3 = Game(3, "0123", False)
PHONE = (390, 844)
# Word games (tree format version 2): German secrets with umlauts and ß, and allowed guesses beyond them that
# repeat letters; Russian secrets, ё sorted after я as code points are.
GERMAN = word_game(["käse", "hase", "rose", "reis", "maus", "haus", "laus", "laub", "kuss", "löwe", "müll", "öfen",
                    "füße", "bühl", "hemd", "wald"], ["saal", "moos", "ebbe", "tees"])
RUSSIAN = word_game(["мама", "рука", "нога", "вода", "река", "лиса", "сова", "окно", "небо", "море", "поле", "луна",
                     "звук", "слон", "волк", "мост", "соль", "роза", "хлеб", "снег", "ёлка", "яйцо", "жена", "кино"])


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    """One headless Chromium for the module; without one the tests skip, or under CI=true fail (`no_browser`)."""
    with ExitStack() as stack:
        try:
            driver = stack.enter_context(chromium(*PHONE))
        except NoBrowser as err:
            reason = str(err)  # reported below, outside the except: under CI the failure is one line, not a chain
        else:
            yield driver
            return
    no_browser(reason)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Tree]]:
    """Pages of a small Bulls and Cows tree, of two word games and of the best shipped trees of 4x10 and Mastermind."""
    folder = tmp_path_factory.mktemp("pages")
    trees = {
        "bc3": load_tree(write_tree(folder / "bc3.json", BC3)),
        "de": load_tree(write_tree(folder / "de.json", GERMAN)),
        "ru": load_tree(write_tree(folder / "ru.json", RUSSIAN)),
        "bc4x10": load_shipped_tree(make_game()),
        "mm4x6": load_shipped_tree(make_game("mastermind")),
    }
    made = {}
    for key, tree in trees.items():
        page, _ = tree_page(tree.name)
        out = folder / f"{key}.html"
        out.write_text(page, encoding="utf-8")
        made[key] = (out, tree)
    return made


def open_page(browser, path: Path, size: tuple[int, int] = PHONE) -> None:
    browser.set_window_size(*size)
    browser.get(path.as_uri())
    assert browser.execute_script("return document.body.dataset.ready") == "true"
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


def by_id(browser, name: str):
    return browser.find_element(By.ID, name)


def text(browser, name: str) -> str:
    return by_id(browser, name).text


def answer_button(browser, key: str):
    return browser.find_element(By.CSS_SELECTOR, f'#play-answers button[data-answer="{key}"]')


def fits_horizontally(browser) -> bool:
    return browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def screenshot(browser, mode: str) -> None:
    if os.environ.get("BACTREE_SCREENSHOTS") != "1":
        return
    DOCS.mkdir(exist_ok=True)
    browser.save_screenshot(str(DOCS / f"page-{mode}.png"))


# --- play ------------------------------------------------------------------------


PLAY_STATE = """
const buttons = {};
for (const b of document.querySelectorAll("#play-answers button")) buttons[b.dataset.answer] = b;
return [document.getElementById("play-guess").textContent, document.getElementById("play-remaining").textContent,
        Object.keys(buttons).filter((key) => buttons[key].classList.contains("possible")), buttons,
        document.getElementById("play-message").textContent, document.getElementById("play-turn").hidden];
"""


def play_by_clicking(browser, tree: Tree, secret: str) -> int:
    """Answer the page's guesses for `secret` by clicking, checking each step against the walker; guesses taken."""
    by_id(browser, "play-restart").click()
    walk = tree.start()
    while not walk.solved:
        guess, left, possible, buttons, _, _ = browser.execute_script(PLAY_STATE)  # one round trip per step
        assert (guess, left) == (walk.guess, remaining(walk.candidates))
        assert set(possible) == {str(tree.game.score(walk.guess, c)) for c in walk.candidates}
        answer = tree.game.score(walk.guess, secret)
        buttons[str(answer)].click()
        walk.answer(answer.bulls, answer.cows)
    guesses = len(walk.history)
    *_, message, turn_hidden = browser.execute_script(PLAY_STATE)
    assert message == f"Solved: your secret is {secret}, found in {guesses} guesses." and turn_hidden
    return guesses


def test_play_every_path_of_a_small_tree(browser, pages) -> None:
    path, tree = pages["bc3"]
    open_page(browser, path)
    depths = {secret: play_by_clicking(browser, tree, secret) for secret in BC3.codes}
    assert sum(depths.values()) == tree.stats["total_guesses"]


def test_play_a_sample_of_4x10_and_mastermind_secrets(browser, pages) -> None:
    for key, count in (("bc4x10", 6), ("mm4x6", 3)):
        path, tree = pages[key]
        open_page(browser, path)
        for secret in random.Random(11).sample(tree.game.codes, count):
            play_by_clicking(browser, tree, secret)
    path, tree = pages["bc4x10"]
    open_page(browser, path)
    walk = tree.start()
    for _ in range(2):  # mid-game on 0298, the secret of the walk examples, for the screenshot
        answer = tree.game.score(walk.guess, "0298")
        answer_button(browser, str(answer)).click()
        walk.answer(answer.bulls, answer.cows)
    assert fits_horizontally(browser)
    screenshot(browser, "play")


def test_play_refuses_contradictions_and_undoes(browser, pages) -> None:
    path, tree = pages["bc3"]
    open_page(browser, path)
    by_id(browser, "play-undo").click()
    assert text(browser, "play-message") == "Nothing to take back yet."
    first = text(browser, "play-guess")
    answer_button(browser, "2B0C").click()
    second = text(browser, "play-guess")
    walk = tree.start()
    walk.answer(2, 0)
    assert second == walk.guess
    impossible = next(
        str(a) for a in BC3.answers if a != BC3.solved and all(BC3.score(second, c) != a for c in walk.candidates)
    )
    conflict = answer_button(browser, impossible)
    assert "impossible" in conflict.get_attribute("class")
    conflict.click()
    assert text(browser, "play-message") == (
        f"Refused: no secret fits {impossible} to {second} together with the answers to guess 1 ({first}: 2B0C). "
        "Undo to take an answer back."
    )
    assert "conflict" in browser.find_element(By.CSS_SELECTOR, "#play-history li").get_attribute("class")
    assert text(browser, "play-history") == f"Guess 1: {first} 2B0C"
    assert text(browser, "play-guess") == second  # nothing changed
    field = by_id(browser, "play-input")
    for typed, message in (("xyz", "invalid answer 'xyz': type bulls and cows as 1B2C, '1 2' or 12"),
                           ("2 1", "impossible answer 2B1C: 2 bulls leave one symbol, which cannot be a cow")):
        field.clear()
        field.send_keys(typed, Keys.ENTER)
        assert text(browser, "play-message") == message
    field.send_keys("u", Keys.ENTER)  # the keyboard's undo, as at the terminal
    assert text(browser, "play-message") == f"Taken back: your answer 2B0C to guess 1 ({first})."
    assert text(browser, "play-guess") == first and text(browser, "play-history") == ""
    field.send_keys("0b3c", Keys.ENTER)  # typed answers take every form the terminal does
    assert text(browser, "play-history").endswith("0B3C")
    assert fits_horizontally(browser)


# --- find mine -------------------------------------------------------------------


def test_find_mine_by_following_the_tree(browser, pages) -> None:
    path, tree = pages["bc4x10"]
    open_page(browser, path)
    by_id(browser, "tab-find").click()
    field = by_id(browser, "find-input")
    assert browser.switch_to.active_element == field  # the mode's field has the keyboard
    field.send_keys("1123", Keys.ENTER)
    assert text(browser, "find-message") == "invalid code '1123': symbol '1' repeats"
    field.clear()
    field.send_keys("01234", Keys.ENTER)
    assert text(browser, "find-message") == "invalid code '01234': expected 4 symbols, got 5"
    walk = tree.start()
    while True:  # the tree finds the hidden secret from the answers the page gives, never peeking
        field.clear()
        field.send_keys(walk.guess, Keys.ENTER)
        key = browser.find_elements(By.CSS_SELECTOR, "#find-history li")[-1].get_attribute("data-answer")
        bulls, cows = int(key[0]), int(key[2])
        walk.answer(bulls, cows)
        if walk.solved:
            break
        n = len(walk.candidates)
        assert text(browser, "find-message") == f"{key}: {n} {'secret still fits' if n == 1 else 'secrets still fit'}."
    assert text(browser, "find-message") == f"Solved in {len(walk.history)} guesses."
    assert fits_horizontally(browser)
    screenshot(browser, "find")
    by_id(browser, "find-new").click()
    field.clear()
    field.send_keys("0123", Keys.ENTER)
    by_id(browser, "find-give-up").click()
    revealed = text(browser, "find-message").removeprefix("The secret was ").rstrip(".")
    assert revealed in tree.game.code_index
    first = browser.find_element(By.CSS_SELECTOR, "#find-history li").get_attribute("data-answer")
    assert first == str(tree.game.score("0123", revealed))


# --- Mastermind as pegs ------------------------------------------------------------

PEG_STATE = """
const pegs = (root) => [...root.querySelectorAll(".peg")].map((p) => [p.textContent, p.className, getComputedStyle(p).backgroundColor]);
const keys = (li) => ["black", "white", "hole"].map((kind) => li.querySelectorAll(".key." + kind).length);
return [pegs(document.getElementById("play-guess")),
        [...document.querySelectorAll("#play-history li, #find-history li")].map((li) => [pegs(li), keys(li), li.dataset.answer])];
"""


def rgb(hex_colour: str) -> str:
    return "rgb({}, {}, {})".format(*(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)))


def test_mastermind_codes_are_pegs_and_answers_key_pegs(browser, pages) -> None:
    path, tree = pages["mm4x6"]
    game = tree.game
    open_page(browser, path)
    colour = {symbol: rgb(COLOURS[c][1]) for symbol, c in zip(game.symbols, peg_colours(game))}  # the terminal's too

    def looks_right(pegs, code: str) -> None:
        assert [p[0] for p in pegs] == list(code)  # the symbol stays on each peg
        assert [p[1] for p in pegs] == [f"peg p{game.symbols.index(s)}" for s in code]  # digits: the palette's order
        assert [p[2] for p in pegs] == [colour[s] for s in code]

    walk = tree.start()
    for _ in range(2):
        answer = game.score(walk.guess, "6543")
        answer_button(browser, str(answer)).click()
        walk.answer(answer.bulls, answer.cows)
    guess, history = browser.execute_script(PEG_STATE)
    looks_right(guess, walk.guess)
    assert by_id(browser, "play-guess").get_attribute("textContent") == walk.guess  # copied, it reads as digits
    for (pegs, (black, white, hole), key), (code, answer) in zip(history, walk.history, strict=True):
        looks_right(pegs, code)
        assert (black, white, hole, key) == (answer.bulls, answer.cows, game.length - answer.bulls - answer.cows, str(answer))
    assert fits_horizontally(browser)
    screenshot(browser, "pegs")
    by_id(browser, "tab-find").click()
    field = by_id(browser, "find-input")
    for symbol in "6621":  # the peg pad types a guess; the erase key takes a symbol back
        browser.find_element(By.CSS_SELECTOR, f'#find-pegs button[data-symbol="{symbol}"]').click()
    by_id(browser, "find-erase").click()
    assert field.get_attribute("value") == "662"
    field.send_keys("3", Keys.ENTER)  # digits are still typeable
    _, history = browser.execute_script(PEG_STATE)
    looks_right(history[-1][0], "6623")
    assert history[-1][2] == browser.find_elements(By.CSS_SELECTOR, "#find-history li")[-1].get_attribute("data-answer")
    for guess in ("1234", "3345"):
        field.send_keys(guess, Keys.ENTER)
    assert fits_horizontally(browser)
    screenshot(browser, "find-pegs")


def test_mastermind_answers_are_said_in_pegs_and_colour_letters_in_their_colour(browser, tmp_path: Path) -> None:
    """`--symbols RGBYOP`: R is red, G green, B blue, Y yellow, O orange, P purple; answers read `1 black, 1 white`."""
    game = Game(4, "RGBYOP", True)
    page, _ = tree_page(load_shipped_tree(make_game("mastermind")).name, game, rename=True)
    path = tmp_path / "rgbyop.html"
    path.write_text(page, encoding="utf-8")
    open_page(browser, path)
    assert text(browser, "play-intro").endswith(
        "Answer each guess with its black and white pegs: the outlined buttons are the answers some remaining secret gives.")
    guess = by_id(browser, "play-guess").get_attribute("textContent")
    answer_button(browser, "1B1C").click()
    pegs, history = browser.execute_script(PEG_STATE)
    named = {"R": "#D55E00", "G": "#009E73", "B": "#0072B2", "Y": "#F0E442", "O": "#E69F00", "P": "#CC79A7"}
    assert [(p[0], p[2]) for p in history[0][0]] == [(s, rgb(named[s])) for s in guess]
    assert browser.find_element(By.CSS_SELECTOR, "#play-history li").get_attribute("textContent") == (
        f"Guess 1: {guess} 1 black, 1 white")
    by_id(browser, "play-input").send_keys("5 0", Keys.ENTER)
    assert text(browser, "play-message") == "impossible answer 5 black, 0 white: black and white pegs cannot exceed 4 together"
    by_id(browser, "play-undo").click()
    assert text(browser, "play-message") == f"Taken back: your answer 1 black, 1 white to guess 1 ({guess})."


def test_bulls_and_cows_keeps_digits(browser, pages) -> None:
    path, _ = pages["bc4x10"]
    open_page(browser, path)
    by_id(browser, "tab-browse").click()
    node_buttons(browser)[0].click()
    assert browser.find_elements(By.CSS_SELECTOR, ".peg, .key") == []
    assert not by_id(browser, "find-pegs").is_displayed()


# --- browse ----------------------------------------------------------------------


def node_buttons(browser, under: str = "#browse-tree"):
    return browser.find_elements(By.CSS_SELECTOR, f"{under} > li > button.node")


def test_browse_expands_nodes_and_follows_typed_answers(browser, pages) -> None:
    path, tree = pages["bc4x10"]
    open_page(browser, path)
    by_id(browser, "tab-browse").click()
    (root,) = node_buttons(browser)
    assert root.text == f"{tree.root['guess']} depth 1 · 5040 secrets"
    root.send_keys(Keys.ENTER)  # keyboard: a node is a button
    assert root.get_attribute("aria-expanded") == "true"
    children = node_buttons(browser, "#browse-tree > li > ul")
    walk = tree.start()
    parts = tree._split(tree.root, [])
    assert [c.text for c in children] == [
        f"{key} → {child['guess']} depth 2 · {len(parts[a])} secret{'s' if len(parts[a]) > 1 else ''}"
        + (" · found" if "next" not in child else "")
        for key, child in tree.root["next"].items()
        for a in parts if str(a) == key
    ]
    field = by_id(browser, "browse-path")
    field.send_keys("1B1C 20", Keys.ENTER)
    walk.answer(1, 1)
    walk.answer(2, 0)
    target = browser.find_element(By.CSS_SELECTOR, "button.node.target")
    assert target.get_attribute("data-guess") == walk.guess and target.get_attribute("data-depth") == "3"
    assert browser.switch_to.active_element == target
    assert text(browser, "browse-message") == f"After 1B1C 2B0C: guess {walk.guess} at depth 3."
    field.clear()
    field.send_keys("1B1C 3B1C", Keys.ENTER)
    assert text(browser, "browse-message") == "impossible answer 3B1C: 3 bulls leave one symbol, which cannot be a cow"
    field.clear()
    field.send_keys("4B0C", Keys.ENTER)
    assert text(browser, "browse-message").startswith(f"No branch 4B0C under {tree.root['guess']} (depth 1); its answers: 0B0C ")
    field.clear()
    field.send_keys("1B1C 2B0C", Keys.ENTER)
    assert fits_horizontally(browser)
    browser.execute_script("window.scrollTo(0, 0)")
    screenshot(browser, "browse")
    by_id(browser, "browse-collapse").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "button.node")) == 1


# --- word games ----------------------------------------------------------------------


def typed(word: str) -> str:
    """`word` as a person might type it: upper case (where that keeps its length: not ß), letters decomposed (NFD)."""
    upper = word.upper()
    return unicodedata.normalize("NFD", upper if len(upper) == len(word) else word)


def test_word_games_play_every_secret_in_bulls_and_cows(browser, pages) -> None:
    for key, game in (("de", GERMAN), ("ru", RUSSIAN)):
        path, tree = pages[key]
        assert tree.game == game
        open_page(browser, path)
        assert text(browser, "game-line") == f"{game} · worst-case tree, at most {tree.stats['max_guesses']} guesses"
        assert text(browser, "play-intro") == (
            f"Think of a secret word, one of {game}. I will find it in at most {tree.stats['max_guesses']} guesses. "
            "Answer each guess with its bulls and cows: the outlined buttons are the answers some remaining secret gives.")
        depths = {secret: play_by_clicking(browser, tree, secret) for secret in game.secret_codes}
        assert sum(depths.values()) == tree.stats["total_guesses"]
    shipped = load_shipped_tree(resolve_game("words", None, None, None))  # the 1,529 words of en-4
    path = pages["de"][0].with_name("words.html")
    path.write_text(tree_page(shipped.name)[0], encoding="utf-8")
    open_page(browser, path)
    for secret in random.Random(5).sample(shipped.game.secret_codes, 3):
        play_by_clicking(browser, shipped, secret)
    open_page(browser, pages["ru"][0])
    assert browser.find_elements(By.CSS_SELECTOR, ".peg, .key") == []  # repeated letters, yet no pegs
    field = by_id(browser, "play-input")
    by_id(browser, "play-restart").click()
    walk = tree.start()
    secret = "ёлка"
    while not walk.solved:  # answers typed, as at the terminal
        answer = RUSSIAN.score(walk.guess, secret)
        field.send_keys(f"{answer.bulls} {answer.cows}", Keys.ENTER)
        walk.answer(answer.bulls, answer.cows)
    assert text(browser, "play-message") == f"Solved: your secret is ёлка, found in {len(walk.history)} guesses."
    assert text(browser, "play-history").splitlines()[-1] == f"Guess {len(walk.history)}: ёлка 4B0C"
    by_id(browser, "play-restart").click()
    field.send_keys("3 1", Keys.ENTER)
    assert text(browser, "play-message") == "impossible answer 3B1C: 3 bulls leave one symbol, which cannot be a cow"


def test_a_word_game_of_few_letters_that_repeat_keeps_bulls_and_cows(browser, tmp_path: Path) -> None:
    """Two letters, repeated: a Mastermind game of every code would be pegs; a word game is told in bulls and cows."""
    game = word_game(["abba", "baba", "abab", "aabb", "bbba", "aaab"])
    page, _ = tree_page(write_tree(tmp_path / "ab.json", game))
    path = tmp_path / "ab.html"
    path.write_text(page, encoding="utf-8")
    open_page(browser, path)
    guess = text(browser, "play-guess")
    answer = game.score(guess, "abab")
    answer_button(browser, str(answer)).click()
    assert text(browser, "play-history") == f"Guess 1: {guess} {answer}"
    assert browser.find_elements(By.CSS_SELECTOR, ".peg, .key") == []
    by_id(browser, "play-input").send_keys("9 0", Keys.ENTER)
    assert text(browser, "play-message") == "impossible answer 9B0C: bulls plus cows cannot exceed 4"


def test_play_a_game_of_symbols_past_u_ffff(browser, tmp_path: Path) -> None:
    """Emoji are one symbol each but two UTF-16 units: the page counts and scores code points."""
    game = Game(2, "a\U0001F600b\U0001F601", True)
    tree = load_tree(write_tree(tmp_path / "emoji.json", game))
    page, _ = tree_page(tree.name)
    path = tmp_path / "emoji.html"
    path.write_text(page, encoding="utf-8")
    open_page(browser, path)
    depths = {secret: play_by_clicking(browser, tree, secret) for secret in game.codes}
    assert sum(depths.values()) == tree.stats["total_guesses"]
    by_id(browser, "tab-find").click()
    field = by_id(browser, "find-input")
    field.send_keys("\U0001F600", Keys.ENTER)
    assert text(browser, "find-message") == "invalid code '\U0001F600': expected 2 symbols, got 1"
    field.clear()
    field.send_keys("\U0001F600\U0001F600", Keys.ENTER)
    assert browser.find_element(By.CSS_SELECTOR, "#find-history li").get_attribute("data-answer") in {str(a) for a in game.answers}


def test_find_mine_takes_words_in_any_case_and_refuses_others(browser, pages) -> None:
    path, tree = pages["de"]
    open_page(browser, path)
    by_id(browser, "tab-find").click()
    assert text(browser, "find-intro") == (
        "I have picked a secret word, one of 16 words of 4 letters, 20 allowed guesses. Find it! Type a word of the list, in any case.")
    field = by_id(browser, "find-input")
    assert field.get_attribute("placeholder") == "a word" and not by_id(browser, "find-pegs").is_displayed()
    for guess, message in (("xyzw", "invalid guess 'xyzw': not a word of the game's list"),  # the terminal's words
                           ("Fuss", "invalid guess 'Fuss': not a word of the game's list"),
                           ("käsen", "invalid guess 'käsen': expected 4 letters, got 5"),
                           ("мама", "invalid guess 'мама': not a word of the game's list")):
        field.clear()
        field.send_keys(guess, Keys.ENTER)
        assert text(browser, "find-message") == message
        assert browser.find_elements(By.CSS_SELECTOR, "#find-history li") == []  # a refused guess changes nothing
    shown = []
    for guess in ("EBBE", typed("öfen"), typed("füße")):  # an allowed guess that is no secret; Ö decomposed; ß
        field.clear()
        field.send_keys(guess, Keys.ENTER)
        item = browser.find_elements(By.CSS_SELECTOR, "#find-history li")[-1]
        shown.append(item.find_element(By.CSS_SELECTOR, "code").text)
        if item.get_attribute("data-answer") == "4B0C":  # the hidden word, by chance: a new one for the next guess
            by_id(browser, "find-new").click()
    assert typed("öfen") == "O\u0308FEN"
    assert shown == ["ebbe", "öfen", "füße"]  # scored, as the lists hold them
    walk = tree.start()
    by_id(browser, "find-new").click()
    while True:  # the tree finds the hidden word from the page's answers, each guess typed in capitals and decomposed
        field.clear()
        field.send_keys(typed(walk.guess), Keys.ENTER)
        item = browser.find_elements(By.CSS_SELECTOR, "#find-history li")[-1]
        assert item.find_element(By.CSS_SELECTOR, "code").text == walk.guess  # the word as the list holds it
        assert item.find_element(By.CSS_SELECTOR, ".verdict").text.startswith(("Exact: ", "Bounds: "))
        key = item.get_attribute("data-answer")
        walk.answer(int(key[0]), int(key[2]))
        if walk.solved:
            break
        n = len(walk.candidates)
        assert text(browser, "find-message") == f"{key}: {n} {'secret still fits' if n == 1 else 'secrets still fit'}."
    assert text(browser, "find-message") == f"Solved in {len(walk.history)} guesses."
    assert fits_horizontally(browser)
    by_id(browser, "find-new").click()
    by_id(browser, "find-give-up").click()
    revealed = text(browser, "find-message").removeprefix("The secret was ").rstrip(".")
    assert revealed in GERMAN.secret_codes  # a secret, never a guess of the longer list
    by_id(browser, "tab-stats").click()
    assert "Secrets 16\nAllowed guesses 20\nMost guesses" in text(browser, "stats-table")


def test_browse_a_word_game(browser, pages) -> None:
    path, tree = pages["ru"]
    open_page(browser, path)
    by_id(browser, "tab-browse").click()
    (root,) = node_buttons(browser)
    assert root.text == f"{tree.root['guess']} depth 1 · 24 secrets"
    field = by_id(browser, "browse-path")
    key = next(iter(tree.root["next"]))
    field.send_keys(key, Keys.ENTER)
    walk = tree.start()
    walk.answer(key)
    target = browser.find_element(By.CSS_SELECTOR, "button.node.target")
    assert target.get_attribute("data-guess") == walk.guess and target.get_attribute("data-depth") == "2"
    assert text(browser, "browse-message") == f"After {key}: guess {walk.guess} at depth 2."
    assert [b.get_attribute("data-guess") for b in node_buttons(browser, "#browse-tree > li > ul")] == [
        child["guess"] for child in tree.root["next"].values()]
    by_id(browser, "tab-stats").click()
    table = text(browser, "stats-table")
    assert f"Secrets 24\nMost guesses {tree.stats['max_guesses']}\nTotal guesses {tree.stats['total_guesses']}" in table
    bars = browser.find_elements(By.CSS_SELECTOR, "#stats-chart svg g.bar")
    assert {b.get_attribute("data-guesses"): int(b.get_attribute("data-secrets")) for b in bars} == tree.stats["histogram"]


# --- stats and every shipped tree ----------------------------------------------------


def test_stats_chart_every_shipped_tree(browser, tmp_path: Path) -> None:
    for entry in shipped_trees():
        page, doc = tree_page(entry.path)
        out = tmp_path / (entry.path.stem + ".html")
        out.write_text(page, encoding="utf-8")
        open_page(browser, out)
        by_id(browser, "tab-stats").click()
        bars = browser.find_elements(By.CSS_SELECTOR, "#stats-chart svg g.bar")
        drawn = {b.get_attribute("data-guesses"): int(b.get_attribute("data-secrets")) for b in bars}
        assert drawn == doc["stats"]["histogram"], entry.path.name
        table = text(browser, "stats-table")
        assert f"Total guesses {doc['stats']['total_guesses']}" in table
        assert ("Proven optimal yes" in table) is doc["optimal"]
        assert f"Hard mode {'yes' if doc['objective']['hard_mode'] else 'no'}" in table
    open_page(browser, out.with_name("bulls-cows-4x10-expected.html"))
    by_id(browser, "tab-play").send_keys(Keys.ARROW_LEFT)  # arrows move between the modes, wrapping round
    assert browser.switch_to.active_element == by_id(browser, "tab-stats") and by_id(browser, "stats").is_displayed()
    assert not by_id(browser, "play").is_displayed()
    assert fits_horizontally(browser)
    screenshot(browser, "stats")
