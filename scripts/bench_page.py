"""Benchmark the `bactree html` page: how long each shipped tree's page takes to open in headless Chromium.

For every shipped tree (or the files given), writes the page and opens it
afresh `--runs` times from a file:// URL, reading the browser's own
Navigation Timing: the time until the page's script has run (DOMContentLoaded
end; the script builds the codes, counts the secrets at every node and draws
all four modes) and until the load event. Prints medians in ms and the page size.
Target: the largest tree under 1000 ms.

Usage: python scripts/bench_page.py [TREE_FILE ...] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from bactree.page import tree_page
from bactree.shipped import shipped_trees

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
    args = parser.parse_args()
    paths = args.trees or [entry.path for entry in shipped_trees()]
    try:
        with chromium(1024, 900) as browser, tempfile.TemporaryDirectory() as folder:
            print(f"{'tree':40} {'nodes':>6} {'KiB':>5} {'script ms':>10} {'load ms':>8}")
            for path in paths:
                page, doc = tree_page(path)
                out = Path(folder) / "page.html"
                out.write_text(page, encoding="utf-8")
                ready, loaded = [], []
                for _ in range(args.runs):
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
    except NoBrowser as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
