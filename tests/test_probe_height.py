"""scripts/probe_height.py: every line it prints, checked against the brute force on small games."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from naive_search import fits_within, parts

from bactree.game import Game

_spec = importlib.util.spec_from_file_location("probe_height", Path(__file__).parents[1] / "scripts" / "probe_height.py")
probe_height = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(probe_height)


def _probe(capsys: pytest.CaptureFixture[str], game: Game, path: str, *command: str) -> tuple[frozenset[str], list[str]]:
    """The set the path leaves (by the brute force: the part of each answer given) and the script's lines after the first."""
    probe_height.main(["-n", str(game.length), "--symbols", game.symbols, "--path", path, *command])
    lines = capsys.readouterr().out.splitlines()
    secrets = frozenset(game.codes)
    for step in path.split(","):
        code, answer = step.split("/")
        secrets = next(p for a, p in parts(game, secrets, code).items() if str(a) == answer)
    assert lines[0].startswith(f"{len(secrets)} secrets after ")
    return secrets, lines[1:]


@pytest.mark.parametrize(
    "game, path, left, works",
    [
        (Game(3, "012345", False), "012/0B0C", 3, True),
        (Game(3, "0123456", False), "012/1B1C", 3, False),
        (Game(4, "012345", False), "0123/1B3C", 3, False),
        (Game(3, "0123456", False), "012/1B1C", 4, True),
    ],
    ids=str,
)
def test_decide_lines_match_the_brute_force(capsys, game, path, left, works):
    secrets, lines = _probe(capsys, game, path, "decide", "--left", str(left))
    assert fits_within(game, secrets, left) == works
    for line in lines[:-1] if not works else lines:
        found = re.fullmatch(r"\d+ (\w+): (?:works|largest (\d+); (\w+) \((\d+) secrets\) has no tree within (\d+))", line)
        assert found, line
        guess, largest, answer, size, within = found.groups()
        split = parts(game, secrets, guess)
        if largest is None:
            assert line is lines[-1] and all(fits_within(game, p, left - 1) for p in split.values())
        else:
            failed = next(p for a, p in split.items() if str(a) == answer)
            assert (int(largest), len(failed), int(within)) == (max(map(len, split.values())), int(size), left - 1)
            assert not fits_within(game, failed, left - 1)
    if not works:
        assert re.fullmatch(rf"refuted: none of the {len(lines) - 1} guesses starts a tree within {left}", lines[-1])


def test_rank_lines_give_parts_and_the_least_largest_part_after_the_next_guess(capsys):
    game = Game(3, "0123456", False)
    secrets, lines = _probe(capsys, game, "012/0B2C", "rank", "--left", "4", "--top", "5")
    assert len(lines) == 5
    for line in lines:
        guess, sizes, ahead = re.fullmatch(r"\d+ (\w+): parts ([\d ]+); after the next guess at least (\d+)", line).groups()
        split = parts(game, secrets, guess).values()
        assert sorted(map(len, split), reverse=True) == [int(s) for s in sizes.split()]
        least = [min(max(map(len, parts(game, p, g).values()), default=0) for g in game.codes) for p in split if len(p) > 2]
        assert int(ahead) == max(least, default=0)


def test_lookahead_order_sorts_the_same_guesses_by_the_lookahead_figure(capsys):
    game = Game(3, "0123456", False)
    _, plain = _probe(capsys, game, "012/0B1C", "rank", "--left", "4", "--top", "1000")
    _, ahead = _probe(capsys, game, "012/0B1C", "--by-lookahead", "rank", "--left", "4", "--top", "1000")
    figures = [int(line.rsplit(" ", 1)[1]) for line in ahead]
    assert figures == sorted(figures) and plain != ahead
    assert sorted(line.split(" ", 1)[1] for line in plain) == sorted(line.split(" ", 1)[1] for line in ahead)


def test_decide_follows_the_lookahead_order(capsys):
    game = Game(3, "01234567", False)
    _, ahead = _probe(capsys, game, "012/0B1C", "--by-lookahead", "rank", "--left", "4", "--top", "1000")
    _, decided = _probe(capsys, game, "012/0B1C", "--by-lookahead", "decide", "--left", "4")
    assert decided[-1] == f"refuted: none of the {len(ahead)} guesses starts a tree within 4"
    assert [line.split(":")[0] for line in decided[:-1]] == [line.split(":")[0] for line in ahead]


def test_a_path_answer_no_secret_gives_is_one_line(capsys):
    with pytest.raises(SystemExit, match="^Error: no secret left gives 3B0C to 012$"):
        probe_height.main(["-n", "3", "--symbols", "0123456", "--path", "012/0B0C,012/3B0C", "rank", "--left", "3"])


def test_sample_lines_match_the_brute_force(capsys):
    """Each sampled pair's outcome is what the brute force says of the next guess on the first guess's largest part."""
    game, left = Game(3, "0123456", False), 4
    secrets, lines = _probe(capsys, game, "012/1B1C", "sample", "--left", str(left), "--count", "6", "--seed", "3")
    total = int(re.fullmatch(r"(\d+) pairs of guesses to refute", lines[0]).group(1))
    for line in lines[1:-1]:
        found = re.fullmatch(r"(\w+),(\w+): largest (\d+); (?:works|(\d+) secrets have no tree within (\d+)); [\d.]+s CPU", line)
        assert found, line
        guess, after, largest, size, within = found.groups()
        split = parts(game, secrets, guess)
        most = max(map(len, split.values()))
        outcomes = set()
        for part in (p for p in split.values() if len(p) == most):  # the script takes one of the largest
            below = parts(game, part, after)
            failing = [p for p in below.values() if not fits_within(game, p, left - 2)]
            outcomes.add((max(map(len, below.values())), max(map(len, failing)) if failing else None))
        reported = (int(largest), int(size) if size else None)
        assert reported in outcomes  # the first part that fails, largest first: the largest failing one
        assert within is None or int(within) == left - 2
    assert re.fullmatch(rf"{len(lines) - 2} pairs: mean [\d.]+s, median [\d.]+s CPU; times {total} pairs: [\d.]+ CPU hours",
                        lines[-1])


def test_sample_by_runs_decides_runs_of_pairs_in_a_row(capsys):
    """`--run K`: the pairs come as runs of K in the refutation's own order (its list of pairs, consecutive indices)."""
    game, left, run = Game(3, "0123456", False), 4, 3
    _, lines = _probe(capsys, game, "012/1B1C", "sample", "--left", str(left), "--count", "6", "--seed", "3",
                      "--run", str(run))
    solver = probe_height.Solver(game)
    subset, history = probe_height.probed_set(solver, "012/1B1C")
    order = []
    for guess in probe_height.ordered_guesses(solver, subset, history, left, False, False):
        largest = max(solver.split(subset, guess), key=len)
        order += [(game.codes[guess], game.codes[after])
                  for after in probe_height.ordered_guesses(solver, largest, history + (guess,), left - 1, False, False)]
    drawn = [tuple(re.match(r"(\w+),(\w+):", line).groups()) for line in lines[1:-1]]
    assert len(drawn) == 6
    indices = [order.index(pair) for pair in drawn]
    for start in range(0, len(indices), run):
        assert indices[start:start + run] == list(range(indices[start], indices[start] + run))
