"""`bactree html` without a browser: the page is one file, needs no network, and embeds the tree intact."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bactree.cli.main import app
from bactree.game import Game, word_game
from bactree.page import page_html, tree_page
from walker_trees import write_tree

BC3 = Game(3, "0123", False)
runner = CliRunner()


@pytest.fixture(scope="module")
def bc3_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tree(tmp_path_factory.mktemp("page") / "bc3.json", BC3)


def embedded(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="bactree-data">(.*?)</script>', page, re.S)
    assert match
    return json.loads(match.group(1))


def test_a_page_with_its_book_loads_no_search() -> None:
    """The page of a shipped tree with a book (4 of 10) reads the book as JSON: the coach's search (numpy, numba) stays
    unloaded, as for the walker."""
    code = (
        "import sys\n"
        "from bactree.game import Game\n"
        "from bactree.page import page_book, tree_page\n"
        "from bactree.shipped import trees_dir\n"
        "page, _ = tree_page(trees_dir() / 'bulls-cows-4x10-expected.json')\n"
        "book = page_book(Game(4, '0123456789', False), '0123456789')\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba') or m.startswith('bactree.search')]\n"
        "print(len(book['positions']) > 100, heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True []"


def test_the_page_embeds_the_tree_and_needs_no_network(bc3_file: Path) -> None:
    page, doc = tree_page(bc3_file)
    data = embedded(page)
    assert data["tree"] == doc and data["name"] == "bc3.json"
    assert data["answers"] == [str(a) for a in BC3.answers]
    assert "{{" not in page  # every marker filled
    assert "default-src 'none'" in page  # the browser refuses any fetch, even if the page asked
    without_svg_namespace = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not re.search(r"https?://|\bsrc=|\bhref=|@import|url\(", without_svg_namespace)


def test_a_closing_script_tag_in_the_data_cannot_end_the_block(bc3_file: Path) -> None:
    _, doc = tree_page(bc3_file)
    page = page_html(doc, BC3, "evil</script><script>alert(1)</script>.json")
    assert page.count("</script>") == 2  # the data block's and the code's own
    assert embedded(page)["name"] == "evil</script><script>alert(1)</script>.json"


def test_cli_html(bc3_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["html", str(bc3_file), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"wrote {out}: bc3.json, ") and out.read_text().startswith("<!DOCTYPE html>")
    result = runner.invoke(app, ["html", "-g", "mastermind", "-o", str(out), "--force"])
    assert result.exit_code == 0 and "mastermind-4x6-" in result.output
    assert embedded(out.read_text())["tree"]["game"]["symbols"] == "123456"


def test_cli_html_errors(bc3_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["html", str(bc3_file), "-g", "mastermind", "-o", str(out)])
    assert (result.exit_code, result.output) == (2, f"Error: {bc3_file} plays {BC3}, but the options ask for 4 of '123456', repeats\n")
    broken = json.loads(bc3_file.read_text())
    broken["stats"]["total_guesses"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    result = runner.invoke(app, ["html", str(bad), "-o", str(out)])
    assert result.exit_code == 2 and result.output.startswith(f"Error: {bad}: stats.total_guesses is ")
    result = runner.invoke(app, ["html", str(bc3_file), "-o", str(tmp_path)])  # a folder
    assert result.exit_code == 2 and result.output.startswith(f"Error: cannot write {str(tmp_path)!r}: ")
    assert not out.exists()


WORDS = word_game(["käse", "hase", "rose", "maus", "haus", "müll"], ["saal", "ebbe"])


def test_a_word_games_page_carries_its_lists_and_no_pegs(tmp_path: Path) -> None:
    """Version 2: the lists travel in the embedded tree; a word game is told in bulls and cows, never drawn as pegs."""
    tree_file = write_tree(tmp_path / "de.json", WORDS)
    page, doc = tree_page(tree_file)
    data = embedded(page)
    assert data["tree"] == doc and doc["version"] == 2
    assert data["tree"]["game"]["secrets"] == ["hase", "haus", "käse", "maus", "müll", "rose"]
    assert data["tree"]["game"]["guesses"] == ["ebbe", "hase", "haus", "käse", "maus", "müll", "rose", "saal"]
    assert data["pegs"] == [] and data["answers"] == [str(a) for a in WORDS.answers]
    assert "<title>bactree: de.json (6 words of 4 letters, 8 allowed guesses)</title>" in page
    two_letters = word_game(["abba", "baba", "abab"])  # repeats and few symbols, as Mastermind's pegs would need
    assert embedded(tree_page(write_tree(tmp_path / "ab.json", two_letters))[0])["pegs"] == []


def test_cli_html_of_a_word_game(tmp_path: Path) -> None:
    tree_file = write_tree(tmp_path / "de.json", WORDS)
    words = tmp_path / "de.txt"
    words.write_text("Käse\nhase\nrose\nmaus\nhaus\nMüll\n", encoding="utf-8")
    guesses = tmp_path / "guesses.txt"
    guesses.write_text("saal\nebbe\n", encoding="utf-8")
    out = tmp_path / "de.html"
    result = runner.invoke(app, ["html", str(tree_file), "--words", str(words), "--guesses", str(guesses), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {out}: de.json, {embedded(out.read_text())['tree']['stats']['nodes']} nodes, {len(out.read_text()) // 1024} KiB\n"
    result = runner.invoke(app, ["html", str(tree_file), "--words", str(words), "-o", str(tmp_path / "other.html")])
    assert (result.exit_code, result.output) == (
        2, f"Error: {tree_file} plays 6 words of 4 letters, 8 allowed guesses, but the options ask for 6 words of 4 letters\n")
    result = runner.invoke(app, ["html", "--words", str(words), "-o", str(tmp_path / "other.html")])
    assert result.exit_code == 2 and result.output.startswith("Error: no shipped tree for words-")
    slug = result.output.split()[5]
    assert result.output.endswith(f" (6 words of 4 letters): bactree build --words {words} --tie-break none -o {slug}.json, "
                                  f"then bactree html {slug}.json -o {tmp_path / 'other.html'}\n")
    assert not (tmp_path / "other.html").exists()
