"""Benchmark the `bactree html` page: how long each shipped tree's page takes to open in headless Chromium.

For every shipped tree (or the files given), writes the page and opens it
afresh `--runs` times from a file:// URL, reading the browser's own
Navigation Timing: the time until the page's script has run (DOMContentLoaded
end; the script builds the codes, counts the secrets at every node and draws
all four modes) and until the load event. Prints medians in ms and the page size.
Target: the largest tree under 1000 ms.

Then Find mine's verdicts (bactree/page/verdict.js) on the pages of the best
shipped trees of 4 of 10 and Mastermind 4x6: at `--positions` random
positions after two guesses (a random secret, two random guesses, a random
third guess to judge) and at the largest such positions, the first guess
asked again, the time the page takes for each verdict (the browser's own
clock) and how many are exact rather than bounds.
Target: every verdict under 1000 ms.

Usage: python scripts/bench_page.py [TREE_FILE ...] [--runs N] [--positions N] [--no-open]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

from bactree.game import Game, make_game
from bactree.page import tree_page
from bactree.shipped import shipped_trees
from bactree.walker import shipped_tree_path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from chromium import NoBrowser, chromium  # noqa: E402  (the tests' browser helper)

TIMING = """
const t = performance.getEntriesByType("navigation")[0];
return [document.body.dataset.ready, t.domContentLoadedEventEnd, t.loadEventEnd];
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="*", type=Path, help="tree files (default: every shipped tree)")
    parser.add_argument("--runs", type=int, default=7, help="page opens per tree (default 7)")
    parser.add_argument("--positions", type=int, default=100, help="random positions judged per game (default 100)")
    parser.add_argument("--no-open", action="store_true", help="skip the page-opening timings")
    args = parser.parse_args()
    paths = [] if args.no_open else args.trees or [entry.path for entry in shipped_trees()]
    try:
        with chromium(1024, 900) as browser, tempfile.TemporaryDirectory() as folder:
            bench_open(browser, Path(folder), paths, args.runs)
            bench_verdicts(browser, Path(folder), args.positions)
    except NoBrowser as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    return 0


def bench_open(browser, folder: Path, paths: list[Path], runs: int) -> None:
    """Open each tree's page `runs` times; print the medians."""
    if paths:
            print(f"{'tree':40} {'nodes':>6} {'KiB':>5} {'script ms':>10} {'load ms':>8}")
            for path in paths:
                page, doc = tree_page(path)
                out = folder / "page.html"
                out.write_text(page, encoding="utf-8")
                ready, loaded = [], []
                for _ in range(runs):
                    browser.get("about:blank")
                    browser.get(out.as_uri())
                    done, script_end, load_end = browser.execute_script(TIMING)
                    if done != "true":
                        raise SystemExit(f"{path}: the page did not finish its script")
                    ready.append(script_end)
                    loaded.append(load_end)
                print(
                    f"{path.name:40} {doc['stats']['nodes']:6} {len(page.encode()) // 1024:5} "
                    f"{statistics.median(ready):10.0f} {statistics.median(loaded):8.0f}"
                )


def after_two_guesses(game: Game, count: int, seed: int) -> list[tuple[list[tuple[str, str]], str]]:
    """(history of two guesses, third guess) at random, then the first guess asked three times for each first answer."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        secret, first, second, third = (rng.choice(game.codes) for _ in range(4))
        if secret not in (first, second):
            found.append(([(g, str(game.score(g, secret))) for g in (first, second)], third))
    first = game.codes[0]
    for answer in sorted({str(game.score(first, s)) for s in game.codes} - {str(game.solved)}):
        found.append(([(first, answer), (first, answer)], first))  # the second guess learned nothing: the most secrets left
    return found


VERDICTS = "return arguments[0].map(([history, guess]) => window.bactreeVerdict(history, guess));"


def bench_verdicts(browser, folder: Path, positions: int) -> None:
    """Time Find mine's verdict at positions after two guesses of 4 of 10 and Mastermind 4x6; print the spread."""
    browser.set_script_timeout(600)
    print(f"\n{'verdicts after two guesses':40} {'judged':>6} {'exact':>6} {'most secrets':>12} {'median ms':>10} {'p95 ms':>7} {'max ms':>7}")
    for game in (make_game(), make_game("mastermind")):
        path = shipped_tree_path(game)
        page, _ = tree_page(path)
        out = folder / "verdicts.html"
        out.write_text(page, encoding="utf-8")
        browser.get(out.as_uri())
        cases = after_two_guesses(game, positions, seed=31)
        found = []
        for start in range(0, len(cases), 10):  # a few positions per round trip
            found += browser.execute_script(VERDICTS, cases[start : start + 10])
        times = sorted(v["ms"] for v in found)
        exact = sum(v["exact"] for v in found)
        print(
            f"{path.name:40} {len(found):6} {exact:6} {max(v['secrets'] for v in found):12} "
            f"{statistics.median(times):10.0f} {times[int(0.95 * (len(times) - 1))]:7.0f} {times[-1]:7.0f}"
        )


if __name__ == "__main__":
    sys.exit(main())
