"""Rebuild the shipped trees from the commands that made them and compare them byte for byte.

Usage: python scripts/rebuild_trees.py [--all] [--from-scratch] [--trees DIR] [--list] [FILE ...]

`REBUILDS` below is the one list of every file of trees/ with the exact
`bactree build` options that made it (most also quoted in the README) and
whether its build is fast (under about a minute on 2 cores) or slow
(minutes to hours). A tree file records its game and objective but not how
the search was run (`--budget`, `--greedy`, `--workers`), so this list is
where that lives; a test checks each entry against its file's header.

Each build runs `bactree build OPTIONS --quiet -o TEMP/FILE` in a temporary
folder, so the search, and with it the optimality proof, runs again; the
new file must equal the shipped one byte for byte (builds are
deterministic). One line per tree: wall and CPU seconds, bytes, verdict.
Exit 0 when every rebuilt file is identical, 1 when one differs or its build
fails, 2 on bad input (a file of DIR this list does not hold, or an unknown
name). CI (`.ci/rebuild`) runs the fast ones; `--all` adds the slow ones.

A file of runs/ that options name is never written: a `--refutations` file
is copied into the temporary folder first (the build saves what it refutes
there). Such files only steer a build unless the same search code made them
(`bactree.search.provenance`). With `--from-scratch` no file of runs/ is
read at all: `--refutations` names a new file in the temporary folder and
`--exact-from` is dropped, so every proof is the build's own; a tree the
file does not call optimal is skipped (nothing to re-prove). Where the
runs/ file is what lets a budgeted build find the shipped tree, the entry
names other options for this (`scratch_options`: no budget), and a tree
of the same least height or total, proven, counts as `re-proved` even if
other bytes (the search, deciding alone, may stop at another optimum).
"""

from __future__ import annotations

import argparse
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

TREES = Path(__file__).resolve().parent.parent / "trees"
RUNS = "runs/"  # options naming a file under it point into the record of long runs (runs/README.md)


@dataclass(frozen=True)
class Rebuild:
    """A shipped tree file, the `bactree build` options that made it, and how long that takes."""

    file: str
    options: str
    fast: bool  # under about a minute on 2 cores: rebuilt in CI
    took: str  # as measured when the file was built (see the README)
    # `--from-scratch` runs these in place of `options` when a file of runs/ is what lets `options` find the shipped
    # tree (within a budget): without it the search must decide alone, and may end at another tree as good.
    scratch_options: str | None = None

    def command(
        self, output: Path | str, quiet: bool = True, bactree: str = "bactree", options: list[str] | None = None
    ) -> list[str]:
        """The build's command line; `options` in place of `self.options` (`inputs_moved`)."""
        options = shlex.split(self.options) if options is None else options
        return [bactree, "build", *options, *(["--quiet"] if quiet else []), "-o", str(output)]

    def inputs_moved(self, folder: Path, from_scratch: bool) -> list[str]:
        """The options with every file of runs/ out of the way: a `--refutations` file copied into `folder` (or, with
        `from_scratch`, a new one there), and with `from_scratch` no `--exact-from`."""
        tokens = shlex.split(self.scratch_options if from_scratch and self.scratch_options is not None else self.options)
        out: list[str] = []
        for i, token in enumerate(tokens):
            before = tokens[i - 1] if i else ""
            if from_scratch and (token == "--exact-from" or before == "--exact-from"):
                continue
            if before == "--refutations" and token.startswith(RUNS):
                copy = folder / Path(token).name
                if not from_scratch:
                    shutil.copyfile(TREES.parent / token, copy)
                token = str(copy)
            out.append(token)
        return out


REBUILDS: tuple[Rebuild, ...] = (
    Rebuild("bulls-cows-4x10-worst-case.json", "", True, "2.5 s"),
    Rebuild("bulls-cows-4x10-expected.json", "-O expected", True, "18 s"),
    Rebuild("bulls-cows-4x10-hard-expected.json", "-O expected --hard", True, "7 s"),
    Rebuild("bulls-cows-4x10-hard-worst-case.json", "--hard --tie-break total", True, "10 s"),
    Rebuild("bulls-cows-4x10-crush.json", "--tie-break crush,total", False, "8.3 min, 3.8 GiB"),
    Rebuild("bulls-cows-4x9-worst-case.json", "--symbols 012345678", True, "7 s CPU"),
    Rebuild("bulls-cows-4x9-expected.json", "--symbols 012345678 -O expected", True, "8 s CPU"),
    Rebuild("mastermind-4x6-worst-case.json", "-g mastermind", True, "1.5 s"),
    Rebuild("mastermind-4x6-expected.json", "-g mastermind -O expected", True, "1.4 s"),
    Rebuild("mastermind-4x6-expected-max5.json", "-g mastermind -O expected --max-guesses 5", True, "1.35 s"),
    Rebuild("mastermind-4x6-crush.json", "-g mastermind --tie-break crush,total", True, "5 s"),
    Rebuild("mastermind-4x6-hard-expected.json", "-g mastermind -O expected --hard", True, "2 s"),
    Rebuild("mastermind-4x7-worst-case.json", "-g mastermind --symbols 1234567", True, "1.7 s"),
    Rebuild("mastermind-4x7-expected.json", "-g mastermind --symbols 1234567 -O expected", True, "6 s"),
    Rebuild("mastermind-4x8-expected-max7.json", "-g mastermind --symbols 12345678 -O expected --max-guesses 7", True, "8 s CPU"),
    Rebuild("mastermind-4x8-expected-max6.json", "-g mastermind --symbols 12345678 -O expected --max-guesses 6", True, "8 s CPU"),
    # A word list: no symmetry, so no tie-break (a search for the fewest nodes within 6 ran 7 min without ending).
    # A word list's least total is not yet proven: the bounds the search has for a list leave the best first guess's
    # tree far above the least any tree could cost (docs/word-games.md). The budgeted build's tree (7,577) gives way to
    # the best tree so far of the exact run of runs/ (runs/README.md: eats, exact for that first guess), replayed; a
    # later checkpoint may give a better tree (then ship it), never a worse one. The bound is the budgeted build's: the
    # other first guesses two guesses deep below their large parts (slow: nearly all the time is that bound).
    Rebuild("words-en-4-expected.json",
            "--words en-4 -O expected --budget 1000 --others-deeper-to 7000 "
            "--exact-from runs/words-en-4-expected-exact.json.resume", False, "65 s CPU"),
    Rebuild("words-en-4-worst-case.json", "--words en-4 --tie-break none", True, "32 s CPU"),
    # With the exact run of runs/ (runs/README.md): its best tree so far (the first guess pares, exact for that first
    # guess), replayed, where it costs less than the budgeted one; a later checkpoint may give a better tree (then ship
    # it), never a worse one. `--from-scratch` drops the file: the budgeted tree alone (10,626), not the shipped one.
    Rebuild("words-en-5-expected.json",
            "--words en-5 -O expected --budget 1000 --exact-from runs/words-en-5-expected-exact.json.resume", True,
            "23 s CPU"),
    # Jotto's six answers and no symmetry make small sets slow to solve exactly: the greedy tree (entropy) with each
    # set of up to 30 words solved exactly (in the slow set: CI takes 40 minutes already); the bound is the least any
    # first guess's tree could cost (docs/word-games.md).
    Rebuild(
        "words-en-5-jotto-jotto-expected.json",
        "--rule jotto --words en-5-jotto -O expected --budget 0 --deeper-calls 0 --greedy entropy", False, "30 s CPU",
    ),
    Rebuild("words-en-5-worst-case.json", "--words en-5 --tie-break none", False, "18 min CPU, 810 MB"),
    Rebuild("bulls-cows-5x9-worst-case.json", "-n 5 --symbols 012345678 --tie-break none -j 1", False, "1.1 min"),
    # Proven by an exact build resumed across three sessions (runs/README.md): about 11 hours of its tasks on two workers.
    Rebuild("bulls-cows-5x9-expected.json", "-n 5 --symbols 012345678 -O expected --greedy entropy", False,
            "about 11 h of tasks on 2 workers, resumed (runs/README.md), 2.3 GB a worker"),
    # Height 7: the file holds the 5-guess refutations of the two second guesses ahead of 15367 on 0B2C, each from a
    # run of runs/ (see its README); with them the exhaustive search finds the tree within the budget.
    Rebuild(
        "bulls-cows-5x10-worst-case.json",
        "-n 5 --tie-break none --budget 400000 --refutations runs/bulls-cows-5x10-height7.refutations.json -j 1",
        False, "1.5 min, 1.3 GiB",
        # Without the file the budget ends at a tree of height 8; with none the search refutes the two itself and
        # proves height 7 (341 s CPU, 1.2 GB on 2026-12-03), at a tree of total 176,275 (the shipped one: 176,068).
        scratch_options="-n 5 --tie-break none -j 1",
    ),
    # The budgeted tree with what the exact run of runs/ has finished where it costs less: a later checkpoint of that
    # run may give a better tree (then ship it), never a worse one.
    Rebuild(
        "bulls-cows-5x10-expected.json",
        "-n 5 -O expected --budget 30 --greedy entropy --exact-from runs/bulls-cows-5x10-expected-exact.json.resume",
        False, "30 min on 2 workers (41 min CPU), 2.7 GB",
    ),
    # The first guess 11223 given (the best of every first guess at `--budget 30`, docs/notes/mastermind-5x8-expected.md)
    # and ten times the budget for its parts; the file's bound is for trees starting 11223 (the game's is 173,814).
    Rebuild(
        "mastermind-5x8-expected.json",
        "-g mastermind -n 5 --symbols 12345678 -O expected --budget 300 --greedy entropy --first 11223",
        False, "16.5 min on 2 workers, 3.0 GB",
    ),
    # Height 6 is refuted by the six parts the file holds, each refuted by a run of runs/ (see its README).
    Rebuild(
        "mastermind-5x8-worst-case.json",
        "-g mastermind -n 5 --symbols 12345678 --tie-break none --refutations runs/mastermind-5x8-height6.refutations.json -j 1",
        False, "1.5 min, 1.3 GB",
    ),
)
BY_FILE = {entry.file: entry for entry in REBUILDS}


class BadInput(Exception):
    """A name or folder this script cannot rebuild: exit 2."""


def chosen(trees: Path, names: list[str], everything: bool) -> list[Rebuild]:
    """The entries to rebuild: those named, else the fast ones (all with `everything`) of the files in `trees`.

    Every tree file in `trees` must have an entry, and in trees/ every entry
    its file (another folder may hold a few): a shipped tree nobody can
    rebuild, or an entry left behind, would escape the check.
    """
    present = sorted(path.name for path in trees.glob("*.json"))
    unlisted = [name for name in present if name not in BY_FILE]
    if unlisted:
        raise BadInput(f"{trees}/{unlisted[0]} has no build command in scripts/rebuild_trees.py's REBUILDS")
    absent = [entry.file for entry in REBUILDS if entry.file not in present]
    if absent and trees.resolve() == TREES:
        raise BadInput(f"{TREES}/{absent[0]}, listed in REBUILDS, does not exist")
    for name in names:
        if name not in BY_FILE:
            raise BadInput(f"unknown tree {name!r}: REBUILDS lists {', '.join(BY_FILE)}")
        if name not in present:
            raise BadInput(f"{trees}/{name} does not exist")
    if names:
        return [BY_FILE[name] for name in names]
    return [entry for entry in REBUILDS if entry.file in present and (entry.fast or everything)]


def first_difference(old: bytes, new: bytes) -> str:
    """Where two files first differ, as line and column (1-based), for the report."""
    at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    line = old.count(b"\n", 0, at) + 1
    column = at - (old.rfind(b"\n", 0, at) + 1) + 1
    return f"first difference at line {line}, column {column}"


def proven_claim(doc: dict) -> tuple | None:
    """What an optimal file proves, when one figure says it all: the game, the objective and the least height
    (worst case, no tie-breaks) or total (expected). None otherwise: only the same bytes then rebuild it."""
    objective, stats = doc.get("objective", {}), doc.get("stats", {})
    if not doc.get("optimal") or objective.get("tie_breaks"):
        return None
    figure = {"worst-case": "max_guesses", "expected": "total_guesses"}.get(objective.get("name"))
    return None if figure is None else (orjson.dumps(doc.get("game")), orjson.dumps(objective), figure, stats.get(figure))


def bactree_command() -> str | None:
    """The `bactree` of this Python's environment (its scripts folder), else the one on PATH."""
    beside = Path(sys.executable).parent / "bactree"
    return str(beside) if beside.is_file() else shutil.which("bactree")


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far, their workers included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def rebuild(entry: Rebuild, trees: Path, folder: Path, bactree: str, from_scratch: bool = False) -> bool:
    """Build one entry into `folder` with `bactree`, compare it with `trees`' file, print one line; True when identical
    (or, `from_scratch`, when the file claims no optimum: skipped; or when the build proves the file's claim, its
    least height or total, at another tree: `re-proved`)."""
    out = folder / entry.file
    if from_scratch and not orjson.loads((trees / entry.file).read_bytes()).get("optimal"):
        print(f"{entry.file:38} skipped: not optimal, nothing to re-prove", flush=True)
        return True
    command = entry.command(out, bactree=bactree, options=entry.inputs_moved(folder, from_scratch))
    started, cpu_before = time.perf_counter(), children_cpu()
    # From the repository's top, where the paths in the options (a refutation file under runs/) point.
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=TREES.parent)
    wall, cpu = time.perf_counter() - started, children_cpu() - cpu_before
    timing = f"{wall:7.1f} s wall {cpu:7.1f} s CPU"
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"{entry.file:38} {timing}  BUILD FAILED (exit {done.returncode}): {reason}", flush=True)
        return False
    shipped, made = (trees / entry.file).read_bytes(), out.read_bytes()
    claim = proven_claim(orjson.loads(shipped)) if from_scratch and made != shipped else None
    if made == shipped:
        verdict = "identical"
    elif claim is not None and claim == proven_claim(orjson.loads(made)):
        verdict = f"re-proved: {claim[2]} {claim[3]} optimal, at another tree ({first_difference(shipped, made)})"
    else:
        verdict = f"DIFFERENT from {trees / entry.file} ({len(shipped)} bytes): {first_difference(shipped, made)}"
    print(f"{entry.file:38} {timing} {len(made):9} bytes  {verdict}", flush=True)
    return made == shipped or verdict.startswith("re-proved")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="FILE", help="tree files to rebuild, by name (default: every fast one)")
    parser.add_argument("--all", action="store_true", help="rebuild the slow trees too (minutes to hours)")
    parser.add_argument("--trees", type=Path, default=TREES, help="folder of the files to compare with (default: trees/)")
    parser.add_argument("--list", action="store_true", help="print every entry's build time and command; build nothing")
    parser.add_argument("--from-scratch", action="store_true",
                        help="read no file of runs/: every optimal tree re-proved by its build alone")
    args = parser.parse_args(argv)
    try:
        if not args.trees.is_dir():
            raise BadInput(f"{args.trees} is not a folder")
        entries = chosen(args.trees, args.files, args.all or args.list)
        bactree = bactree_command()
        if not args.list and bactree is None:
            raise BadInput("no bactree command beside this Python or on PATH: pip install -e . first")
    except BadInput as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    if args.list:
        for entry in entries:
            print(f"{'fast' if entry.fast else 'slow'}  {entry.took:>34}  {shlex.join(entry.command('trees/' + entry.file, quiet=False))}")
        return 0
    began, cpu = time.perf_counter(), children_cpu()
    with tempfile.TemporaryDirectory(prefix="bactree-rebuild-") as folder:
        failed = [entry.file for entry in entries if not rebuild(entry, args.trees, Path(folder), bactree, args.from_scratch)]
    alike = "identical or re-proved" if args.from_scratch else "identical"
    took = f"{time.perf_counter() - began:.1f} s wall, {children_cpu() - cpu:.1f} s CPU"
    summary = f"{len(entries) - len(failed)} of {len(entries)} rebuilt {alike} in {took}"
    print(summary if not failed else f"{summary}; differ or failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
