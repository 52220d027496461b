"""scripts/probe_list_bounds.py: its bounds never above the brute force's least totals, its exact values equal to them."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from naive_search import guess_total, least_total, parts

from bactree.game import word_game

_spec = importlib.util.spec_from_file_location(
    "probe_list_bounds", Path(__file__).parents[1] / "scripts" / "probe_list_bounds.py")
probe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(probe)

WORDS = ("abcd acbd adcb bacd bcda cabd cadb cbad dabc dbca dcab abce aceb bcea ceab eabc ebca "
         "cbea deab adbe").split()


@pytest.mark.parametrize("rule", ["bulls-cows", "jotto"])
def test_each_part_s_bounds_are_ordered_and_its_value_exact(rule: str, tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    probe.main(["--words", str(path), "--rule", rule, "parts", "--first", "abcd", "--most", "100"])
    lines = capsys.readouterr().out.splitlines()
    game = word_game(WORDS, rule=rule)
    wanted = sorted((p for p in parts(game, frozenset(WORDS), "abcd").values() if len(p) >= 3), key=len)
    assert [int(line.split()[0]) for line in lines] == [len(p) for p in wanted]
    for line, part in zip(lines, wanted):
        floor, split, ahead, two, exact = map(int, re.findall(r"(?:floor|split|lookahead|deep|exact) (\d+)(?![\d.])", line))
        assert floor <= ahead <= two <= exact == least_total(game, part) and split <= exact


def test_first_guesses_bounds_and_refutations_hold(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    game = word_game(WORDS)
    every = frozenset(WORDS)
    least = least_total(game, every)
    probe.main(["--words", str(path), "firsts", "--count", "5", "--target", str(least + 1)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{len(game.codes)} first guesses")
    for line in lines[1:]:
        word = line.split()[1].rstrip(":")
        base, ahead, three = map(int, re.findall(r"(?:base|lookahead|deep) (\d+)(?![\d.])", line))
        assert base <= ahead and min(three, least + 1) <= guess_total(game, every, word)
    probe.main(["--words", str(path), "refute", "--bound", str(least + 1), "--ranks", "0,1", "--seconds", "60"])
    for line in capsys.readouterr().out.splitlines():
        word = line.split()[1].rstrip(":")
        value = guess_total(game, every, word)
        if "value" in line:
            assert int(line.split("value ")[1].split(",")[0]) == value <= least
        else:
            assert "at least" in line and value > least


def test_refute_refuses_a_rank_past_the_first_guesses(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    count = len(word_game(WORDS).codes)
    for ranks in (str(count + 5), "0,x"):
        with pytest.raises(SystemExit) as stopped:
            probe.main(["--words", str(path), "refute", "--bound", "100", "--ranks", ranks])
        assert stopped.value.code == 2
        assert f"error: --ranks '{ranks}': ranks from 0 to " in capsys.readouterr().err
