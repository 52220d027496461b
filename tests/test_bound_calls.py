"""scripts/bound_calls.py: more parts bounded two guesses deep give a higher proven bound, never past the optimum."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from bactree.build import build
from bactree.game import make_game
from bactree.treefile import check_document, read_document

_spec = importlib.util.spec_from_file_location("bound_calls", Path(__file__).parents[1] / "scripts" / "bound_calls.py")
bound_calls = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bound_calls)

GAME = ["-n", "4", "--symbols", "0123456"]  # 4 of 7: its first guess's parts reach the deeper pass's 200 secrets


def figures(capsys, *options: str) -> tuple[int, int]:
    bound_calls.main([*GAME, "--budget", "1", *options])
    found = re.search(r"total (\d+), at least (\d+) proven", capsys.readouterr().out)
    assert found
    return int(found.group(1)), int(found.group(2))


def test_the_calls_raise_the_bound_and_the_bound_holds(capsys, tmp_path):
    least = build(make_game(length=4, symbols="0123456"), "expected").cost  # the exact least total
    none_total, none_bound = figures(capsys, "--calls", "0")
    many_total, many_bound = figures(capsys, "--calls", "1000", "-o", str(tmp_path / "t.json"))
    assert none_bound < many_bound <= least <= min(none_total, many_total)
    assert bound_calls.refine.DEEPER_CALLS == 100  # the build's own setting is left as it was
    doc = read_document(tmp_path / "t.json")
    check_document(doc)
    assert (doc["stats"]["total_guesses"], doc["stats"]["lower_bound"]) == (many_total, many_bound)
