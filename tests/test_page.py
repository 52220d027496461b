"""`bactree html` without a browser: the page is one file, needs no network, and embeds the tree intact."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bactree.cli.main import app
from bactree.game import Game
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
    result = runner.invoke(app, ["html", "-g", "mastermind", "-o", str(out)])
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
