"""The strategy tables of docs/strategies.md are real output: recomputed here, every figure but the time."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from bactree.evaluate import Evaluation, evaluate, evaluate_all
from bactree.game import make_game
from bactree.strategies import make_strategy

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "strategies.md"


def readme_table(command: str) -> dict[str, list[str]]:
    """Rows of the table printed after `$ command` on the page: name -> every column but seconds."""
    text = PAGE.read_text()
    start = text.index(f"$ {command}\n") + len(command) + 3
    rows: dict[str, list[str]] = {}
    for line in text[start:].splitlines()[2:]:
        if not line or line.startswith(("$", "```")):
            break
        name, *figures = line.split()
        rows[name] = figures[:-1]
    return rows


def figures(result: Evaluation) -> list[str]:
    mean = "-" if result.mean_guesses is None else f"{result.mean_guesses:.4f}"
    return [str(result.plays), mean, str(result.max_guesses), str(result.total_guesses), str(result.failures)]


def test_the_3_of_10_table_is_reproduced() -> None:
    rows = readme_table("bactree evaluate --all --length 3 --runs 10")
    results = evaluate_all(make_game("bulls-cows", length=3), runs=10, seed=0, trees=REPO / "trees")
    assert [r.name for r in results] == list(rows)
    for result in results:
        assert figures(result) == rows[result.name], result.name


def test_the_quick_rows_of_the_4_of_10_table_are_reproduced() -> None:
    rows = readme_table("bactree evaluate --all --runs 10 --plot docs/strategies-4x10.png")
    assert len(rows) >= 11 and re.fullmatch(r"\d+\.\d{4}", rows["knuth"][1])
    game = make_game("bulls-cows")
    for name in ("enumerate", "first-consistent"):
        assert figures(evaluate(make_strategy(name, game))) == rows[name], name
    names = list(rows)
    for path in sorted((REPO / "trees").glob("bulls-cows-4x10-*.json")):
        tree = make_strategy(str(path), game)
        assert figures(evaluate(tree)) == rows[tree.name], tree.name
        if tree.optimal:  # only tree files follow an optimal tree
            assert all(n.startswith("tree:") for n in names[names.index(tree.name) :])


def test_the_python_session_runs_as_shown() -> None:
    section = PAGE.read_text()
    match = re.search(r"```pycon\n(.*?)```", section, re.S)
    assert match, "the section has no Python session"
    test = doctest.DocTestParser().get_doctest(match.group(1), {}, "strategies.md", str(PAGE), 0)
    assert len(test.examples) >= 5
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
