"""bactree and Alex Selby's Wordle prover on the same first words: the proven totals compared, and the CPU of each.

    python scripts/wordle_side_by_side.py [--selby DIR] [--words salet,reast,...] [--max-guesses K]
                                          [--bactree COMMAND] [--timeout S] [--no-warm-up]

Selby's folder (default /work/peers/wordle) is his repository, github
alex1770/wordle, with `wordle` built in it (docs/performance-peers.md says
how): the original word lists `wordlist_orig_hidden` (2,315 secrets) and
`wordlist_orig_all` (12,972 allowed guesses) and his proven values per
first word, `normal.top105.proven`, are read from there; bactree does not
ship the New York Times' lists. The first words default to the ten best of
that file.

For each word, one after the other, whole processes: Selby's `wordle -a
wordlist_orig_all -h wordlist_orig_hidden -w WORD` (run in his folder; it
prints `Best first guess score = TOTAL`), then `bactree build --rule wordle
--words HIDDEN --guesses ALL -O expected --first WORD` (its total read from
the tree file written: `stats.total_guesses`, with `optimal` true and
`objective.first_guess` the word). A process's CPU is its user plus system
time with its children (`os.wait4`), the figure a shared machine disturbs
least; the load average is printed beside the table. Selby's prover caps a
game at 6 guesses unless told otherwise (`-g`), and his file's values are
within that cap; `--max-guesses K` gives both programs the cap K, and
without it bactree's total is uncapped (never more than the capped one:
the same figure shows that the cap does not bind).

Prints a Markdown table, a row per word and one for the words both
proved: the value in Selby's file, each program's total and CPU, and
bactree's CPU over Selby's (below 1: bactree used less). Exit 0 when every total agrees with the
other's and with the file, 1 on any disagreement (a run that failed, timed
out or proved nothing counts as one), 2 on a missing folder, binary or
list, or a word the file does not hold.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from process_clock import timed  # scripts/, beside this one

DEFAULT_FOLDER = Path("/work/peers/wordle")
HIDDEN, ALLOWED, PROVEN = "wordlist_orig_hidden", "wordlist_orig_all", "normal.top105.proven"
SELBY_CAP = 6  # Selby's prover's default cap on guesses, within which his file's values are proven
DEFAULT_COUNT = 10  # the ten best first words of the proven file
SCORE = re.compile(r"^Best first guess score = (\d+)$", re.MULTILINE)


class SetupError(Exception):
    """Selby's folder, binary or lists are missing, or a word is not in his file: exit 2 with one line."""


@dataclass(frozen=True)
class Run:
    """One program's whole process on one first word: its proven total (None when it gave none) and CPU."""

    total: int | None
    cpu: float
    wall: float
    note: str = ""  # why there is no total: a failure's last line, a timeout


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def selby_total(stdout: str) -> int | None:
    """The proven total from Selby's `Best first guess score = N` line (None without one)."""
    found = SCORE.findall(stdout)
    return int(found[-1]) if found else None


def tree_total(path: Path, word: str) -> tuple[int | None, str]:
    """The total of a tree file bactree wrote, if it is proven optimal for first guess `word`; else why not."""
    try:
        tree = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        return None, f"no tree file read ({err})"
    if tree.get("objective", {}).get("first_guess") != word:
        return None, f"the tree's first guess is not fixed to {word!r}"
    if tree.get("optimal") is not True:
        return None, f"not proven (total {tree['stats']['total_guesses']}, lower bound {tree['stats'].get('lower_bound')})"
    return int(tree["stats"]["total_guesses"]), ""


def proven_values(folder: Path) -> dict[str, int]:
    """Selby's proven totals by first word, in his file's order (best first)."""
    values = {}
    for line in (folder / PROVEN).read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[1].isdigit():
            values[fields[0].lower()] = int(fields[1])
    return values


def check_folder(folder: Path) -> Path:
    """Selby's binary, once the folder and every file read are there."""
    if not folder.is_dir():
        raise SetupError(f"no folder {folder}: fetch github alex1770/wordle there and build it (docs/performance-peers.md)")
    for name in (HIDDEN, ALLOWED, PROVEN):
        if not (folder / name).is_file():
            raise SetupError(f"{folder} has no {name}: is it Selby's repository (github alex1770/wordle)?")
    binary = folder / "wordle"
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        raise SetupError(f"no executable {binary}: build it from wordle.cpp there with g++ (docs/performance-peers.md)")
    return binary


def selby_command(binary: Path, word: str, max_guesses: int | None) -> list[str]:
    cap = [] if max_guesses is None else ["-g", str(max_guesses)]
    return [str(binary), "-a", ALLOWED, "-h", HIDDEN, *cap, "-w", word]


def bactree_command(bactree: list[str], folder: Path, word: str, output: Path, max_guesses: int | None) -> list[str]:
    cap = [] if max_guesses is None else ["--max-guesses", str(max_guesses)]
    return [*bactree, "build", "--rule", "wordle", "--words", str(folder / HIDDEN), "--guesses", str(folder / ALLOWED),
            "-O", "expected", "--first", word, *cap, "-o", str(output), "--force", "--quiet"]


def run_selby(binary: Path, word: str, max_guesses: int | None, timeout: float | None) -> Run:
    run = timed(selby_command(binary, word, max_guesses), timeout, cwd=binary.parent)
    total = selby_total(run.out) if run.status == 0 else None
    note = "timed out" if run.status == -9 else ("" if total is not None else f"exit {run.status}: {last_line(run.err or run.out)}")
    return Run(total, run.cpu, run.wall, note)


def run_bactree(bactree: list[str], folder: Path, word: str, max_guesses: int | None, timeout: float | None,
                scratch: Path) -> Run:
    output = scratch / f"{word}.json"
    run = timed(bactree_command(bactree, folder, word, output, max_guesses), timeout)
    if run.status != 0:
        return Run(None, run.cpu, run.wall, "timed out" if run.status == -9 else f"exit {run.status}: {last_line(run.err or run.out)}")
    total, note = tree_total(output, word)
    return Run(total, run.cpu, run.wall, note)


def warm_up(bactree: list[str], folder: Path, word: str, scratch: Path) -> None:
    """One untimed bactree build on a small Wordle game of the same lists, so numba's cache holds the kernels."""
    secrets = [line for line in (folder / HIDDEN).read_text(encoding="utf-8").split() if line][:200]
    small = scratch / "warm-up-hidden"
    small.write_text("".join(f"{secret}\n" for secret in secrets), encoding="utf-8")
    command = [*bactree, "build", "--rule", "wordle", "--words", str(small), "--guesses", str(folder / ALLOWED),
               "-O", "expected", "--first", word, "-o", str(scratch / "warm-up.json"), "--force", "--quiet"]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, check=False)


def disagreement(expected: int | None, selby: Run, ours: Run) -> str:
    """What is wrong with one word's row, or '' when both proved the file's value."""
    problems = []
    for name, run in (("Selby", selby), ("bactree", ours)):
        if run.total is None:
            problems.append(f"{name}: {run.note}")
    if selby.total is not None and ours.total is not None and selby.total != ours.total:
        problems.append(f"totals differ ({selby.total} against bactree's {ours.total})")
    for name, run in (("Selby", selby), ("bactree", ours)):
        if expected is not None and run.total is not None and run.total != expected:
            problems.append(f"{name}'s {run.total} is not the file's {expected}")
    return "; ".join(problems)


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}" if theirs > 0 else "-"


def table(rows: list[tuple[str, int | None, Run, Run]]) -> str:
    """A Markdown table: a row per first word, then the sums over the words both proved (a ratio needs both)."""
    lines = ["| first word | proven (Selby's file) | Selby total | bactree total | Selby CPU | bactree CPU | bactree / Selby |",
             "|---|---|---|---|---|---|---|"]

    def shown(total: int | None) -> str:
        return "-" if total is None else f"{total:,}"

    for word, expected, selby, ours in rows:
        both = selby.total is not None and ours.total is not None
        lines.append(f"| {word} | {shown(expected)} | {shown(selby.total)} | {shown(ours.total)} | {selby.cpu:.2f} s | "
                     f"{ours.cpu:.2f} s | {ratio(ours.cpu, selby.cpu) if both else '-'} |")
    proved = [(selby, ours) for _, _, selby, ours in rows if selby.total is not None and ours.total is not None]
    selby_cpu, our_cpu = sum(selby.cpu for selby, _ in proved), sum(ours.cpu for _, ours in proved)
    lines.append(f"| all {len(proved)} proven by both | | | | {selby_cpu:.2f} s | {our_cpu:.2f} s | {ratio(our_cpu, selby_cpu)} |")
    return "\n".join(lines)


def load() -> str:
    return ", ".join(f"{figure:.2f}" for figure in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--selby", type=Path, default=DEFAULT_FOLDER, help="Selby's repository with wordle built (default: %(default)s)")
    parser.add_argument("--words", help=f"comma-separated first words (default: the {DEFAULT_COUNT} best of {PROVEN})")
    parser.add_argument("--max-guesses", type=int, help="cap both programs' games at K guesses (default: Selby's 6, bactree none)")
    parser.add_argument("--bactree", default=shlex.join([sys.executable, "-m", "bactree"]),
                        help="the command that runs bactree (default: this interpreter's, %(default)s)")
    parser.add_argument("--timeout", type=float, help="stop a run after this many seconds (the row then disagrees)")
    parser.add_argument("--no-warm-up", action="store_true", help="skip the untimed build that fills numba's cache first")
    args = parser.parse_args(argv)
    try:
        binary = check_folder(args.selby)
        values = proven_values(args.selby)
        words = list(values)[:DEFAULT_COUNT] if args.words is None else [w.strip().lower() for w in args.words.split(",") if w.strip()]
        missing = [word for word in words if word not in values]
        if missing or not words:
            raise SetupError(f"{missing[0] if missing else 'no word'}: not in {args.selby / PROVEN}")
        if args.max_guesses is not None and args.max_guesses < 1:
            raise SetupError("--max-guesses must be at least 1")
    except SetupError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    bactree = shlex.split(args.bactree)
    print(f"load average at the start: {load()} (1, 5, 15 min) on {os.cpu_count()} cores", flush=True)
    rows, problems = [], []
    with tempfile.TemporaryDirectory(prefix="wordle_side_by_side-") as scratch:
        if not args.no_warm_up:
            warm_up(bactree, args.selby, words[0], Path(scratch))
        for word in words:
            selby = run_selby(binary, word, args.max_guesses, args.timeout)
            ours = run_bactree(bactree, args.selby, word, args.max_guesses, args.timeout, Path(scratch))
            expected = values[word] if args.max_guesses in (None, SELBY_CAP) else None
            rows.append((word, expected, selby, ours))
            wrong = disagreement(expected, selby, ours)
            if wrong:
                problems.append(f"{word}: {wrong}")
            print(f"  {word}: Selby {selby.total} in {selby.cpu:.2f} s CPU, bactree {ours.total} in {ours.cpu:.2f} s CPU"
                  f"{'  DISAGREE: ' + wrong if wrong else ''}", file=sys.stderr, flush=True)
    print(table(rows))
    print(f"load average at the end: {load()}")
    for problem in problems:
        print(f"DISAGREE {problem}")
    print(f"{len(rows) - len(problems)} of {len(rows)} first words proven with the same total by both"
          f"{' and as in ' + PROVEN if args.max_guesses in (None, SELBY_CAP) else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
