"""bactree beside other exact solvers on the ladder of games: wall and CPU medians, and the ratios.

    python scripts/bench_peers.py [--mmstrat PATH] [--rust PATH] [--arfst23 PATH] [--games 3x10,mm4x6,...]
                                  [--repeats N] [--timeout S]
    python scripts/bench_peers.py --self-test

Each cell is a whole process, run `--repeats` times one after the other
(bactree, then each peer given, then again); its CPU time is the process's
user plus system time with its workers (`os.wait4`), the figure a shared
machine disturbs least. Without peers it measures bactree alone. Every
result is checked: bactree's total, mmstrat's total, the Rust minimax's
height and the total of arfst23's tree (replayed here) must be the proven
optimum, or the row says so. How to build each peer from its public source:
docs/performance-peers.md. bactree runs as `python -m bactree build`
in this interpreter, once untimed first so that numba's cache is warm and
Python's bytecode of bactree is cached (that run may write it even where
PYTHONDONTWRITEBYTECODE is set, as pip writes it when it installs a
package: compiling bactree's 35 modules from source cost about 0.05 s of
CPU on every run otherwise).
A bactree process spends about half a second importing numpy and numba
before it searches, and more where the environment holds packages that
numba or typer pull in on their own (the command keeps numba from
importing scipy for its BLAS check since 2026-11-26): run it from a fresh
venv, as a user installs bactree, and the table's second line names what
this interpreter holds.

`--self-test` runs the ladder's smallest game with stub peers that print
fixed answers in each peer's format and checks the table's parsing (not the
speed); tests/test_bench_peers.py runs it.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from process_clock import timed  # scripts/, beside this one


def environment() -> str:
    """What this interpreter's bactree starts with: Python, numpy, numba, typer, and whether scipy is there."""
    from importlib import metadata
    from importlib.util import find_spec

    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "absent"

    held = ", ".join(f"{name} {version(name)}" for name in ("numpy", "numba", "typer"))
    scipy = "scipy installed (not imported by the command)" if find_spec("scipy") else "no scipy"
    return f"{sys.executable}: Python {sys.version.split()[0]}, {held}, {scipy}"


@dataclass(frozen=True)
class Game:
    """One rung of the ladder: bactree's options, mmstrat's rules, and the proven optimum."""

    key: str
    title: str
    bactree: tuple[str, ...]
    mmstrat: tuple[str, ...]  # mmstrat's options naming the game (-r)
    optimum: int  # least total guesses (least height for the worst-case rung)
    peers: tuple[str, ...]  # the peers that solve this game


LADDER = (
    Game("3x10", "3 of 10 (expected)", ("-n", "3", "-O", "expected"), ("-r", "p3c10n"), 3575, ("mmstrat",)),
    Game("mm4x6", "Mastermind 4x6 (expected)", ("--game", "mastermind", "-O", "expected"), ("-r", "p4c6r"), 5625,
         ("mmstrat", "arfst23")),
    Game("4x9", "4 of 9 (expected)", ("-n", "4", "--symbols", "012345678", "-O", "expected"), ("-r", "p4c9n"), 14914, ("mmstrat",)),
    Game("mm4x7", "Mastermind 4x7 (expected)", ("--game", "mastermind", "--symbols", "1234567", "-O", "expected"),
         ("-r", "p4c7r"), 11228, ("mmstrat",)),
    Game("4x10", "4 of 10 (expected)", ("-O", "expected"), ("-r", "p4c10n"), 26274, ("mmstrat",)),
    Game("4x10-worst", "4 of 10 (worst case, height)", ("-O", "worst-case"), ("-r", "p4c10n"), 7, ("rust",)),
    Game("mm4x8", "Mastermind 4x8 (expected)", ("--game", "mastermind", "--symbols", "12345678", "-O", "expected"),
         ("-r", "p4c8r"), 20471, ("mmstrat",)),
)
DEFAULT_GAMES = ("3x10", "mm4x6", "4x9", "mm4x7", "4x10")


@dataclass
class Run:
    """One process: wall and CPU seconds, its output, and what it answered (None: not understood)."""

    wall: float
    cpu: float
    answer: int | None
    note: str = ""


@dataclass
class Cell:
    runs: list[Run] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(run.wall for run in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(run.cpu for run in self.runs)


# -- what each program prints -------------------------------------------------------------------------------
def bactree_answer(text: str) -> int | None:
    """The total from bactree build's summary line."""
    found = re.search(r": height (\d+), \d+ nodes, total (\d+)", text)
    return None if found is None else int(found.group(2))


def bactree_height(text: str) -> int | None:
    found = re.search(r": height (\d+), ", text)
    return None if found is None else int(found.group(1))


def mmstrat_answer(text: str) -> int | None:
    """`mmstrat -s optimal -S -q` prints TOTAL:HEIGHT:AT_HEIGHT."""
    found = re.search(r"^(\d+):(\d+):(\d+)\s*$", text, re.MULTILINE)
    return None if found is None else int(found.group(1))


def rust_answer(text: str) -> int | None:
    """kunigami's bulls-and-cows prints `Tree height H` and `Tree size N`."""
    found = re.search(r"^Tree height (\d+)", text, re.MULTILINE)
    return None if found is None else int(found.group(1))


# arfst23's punch-card columns: X a black peg (bull), O a white one (cow).
ARFST23_COLUMNS = ("----", "O---", "OO--", "OOO-", "OOOO", "X---", "XO--", "XOO-", "XOOO",
                   "XX--", "XXO-", "XXOO", "XXX-", "XXXX")


def mastermind_answer(guess: str, secret: str) -> str:
    bulls = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return ("X" * bulls + "O" * (common - bulls)).ljust(4, "-")


def arfst23_answer(text: str, colours: int = 6) -> int | None:
    """Total guesses of arfst23's printed tree, replayed over every secret (4 pegs of `colours`); None if it fails one.

    Rows read `ROW DEPTH GUESS` then one cell per answer: `>ROW` a subtree, `----` no secret,
    or the one secret left. The last cell (all black) always repeats the guess, secret or not.
    """
    rows = {}
    for line in text.splitlines():
        found = re.match(r"^(\d{3}) (\d) (\d{4})((?: \S{4})+)$", line)
        if found:
            rows[int(found.group(1))] = (int(found.group(2)), found.group(3), found.group(4).split())
    if 0 not in rows:
        return None
    digits = "".join(str(c) for c in range(colours))
    total = 0
    for n in range(colours ** 4):
        secret = "".join(digits[n // colours ** p % colours] for p in (3, 2, 1, 0))
        row = 0
        while True:
            depth, guess, cells = rows[row]
            if guess == secret:
                total += depth
                break
            cell = cells[ARFST23_COLUMNS.index(mastermind_answer(guess, secret))]
            if cell.startswith(">") and int(cell[1:]) in rows:
                row = int(cell[1:])
            elif cell == secret:
                total += depth + 1
                break
            else:
                return None  # the tree loses this secret
    return total


# -- the table -------------------------------------------------------------------------------------------
def bactree_build(options: tuple[str, ...]) -> list[str]:
    """bactree build in this interpreter, its tree written to a scratch file (a build writes its file atomically)."""
    return [sys.executable, "-m", "bactree", "build", *options, "--quiet", "-o", str(Path(SCRATCH.name) / "tree.json")]


SCRATCH = tempfile.TemporaryDirectory(prefix="bench_peers-")  # removed when this script ends


def commands(game: Game, peers: dict[str, str]) -> dict[str, list[str]]:
    """The command line of bactree and of each given peer that solves `game`."""
    out = {"bactree": bactree_build(game.bactree)}
    for name in game.peers:
        path = peers.get(name)
        if path is None:
            continue
        if name == "mmstrat":
            out[name] = [path, *game.mmstrat, "-s", "optimal", "-S", "-q"]
        else:
            out[name] = [path]
    return out


PARSERS = {"mmstrat": mmstrat_answer, "rust": rust_answer, "arfst23": arfst23_answer}


def measure(games: list[Game], peers: dict[str, str], repeats: int, timeout: float | None,
            say=print) -> dict[tuple[str, str], Cell]:
    cells: dict[tuple[str, str], Cell] = {}
    for game in games:
        for _ in range(repeats):
            for name, command in commands(game, peers).items():
                run = timed(command, timeout)
                wall, cpu, text, status = run.wall, run.cpu, run.out, run.status
                if name == "bactree":
                    answer = (bactree_height if game.key.endswith("worst") else bactree_answer)(text)
                else:
                    answer = PARSERS[name](text)
                note = "timed out" if status == -9 else ("" if answer == game.optimum else f"answered {answer}")
                cells.setdefault((game.key, name), Cell()).runs.append(Run(wall, cpu, answer, note))
                say(f"  {game.key} {name}: {wall:.2f} s wall, {cpu:.2f} s CPU{', ' + note if note else ''}",
                    file=sys.stderr)
    return cells


def table(games: list[Game], peers: list[str], cells: dict[tuple[str, str], Cell]) -> str:
    """A Markdown table: medians per program, and each peer's CPU over bactree's (above 1: bactree is faster)."""
    head = ["game", "bactree wall / CPU"]
    for name in peers:
        head += [f"{name} wall / CPU", f"{name} CPU / bactree CPU"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for game in games:
        ours = cells[game.key, "bactree"]
        row = [game.title, f"{ours.wall:.2f} s / {ours.cpu:.2f} s" + flag(ours)]
        for name in peers:
            cell = cells.get((game.key, name))
            if cell is None:
                row += ["", ""]
                continue
            row += [f"{cell.wall:.2f} s / {cell.cpu:.2f} s" + flag(cell), f"{cell.cpu / ours.cpu:.2f}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def flag(cell: Cell) -> str:
    """Marks a cell whose runs did not all give the proven optimum (or timed out)."""
    notes = sorted({run.note for run in cell.runs if run.note})
    return f" ({'; '.join(notes)})" if notes else ""


# -- self-test -------------------------------------------------------------------------------------------
def stub(folder: Path, name: str, output: str) -> str:
    """An executable that prints `output`, standing in for a peer."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\nimport sys\nsys.stdout.write({output!r})\n")
    path.chmod(0o755)
    return str(path)


def self_test() -> None:
    """The smallest game with stub peers: every answer parsed, every column present, ratios computed."""
    assert mastermind_answer("1123", "1321") == "XXOO" and mastermind_answer("1234", "5566") == "----"
    tiny = "           " + " ".join(ARFST23_COLUMNS) + "\n000 1 0000" + " ----" * 13 + " 0000\n"
    assert arfst23_answer(tiny, colours=1) == 1
    with tempfile.TemporaryDirectory() as folder:
        peers = {
            "mmstrat": stub(Path(folder), "mmstrat", "3575:7:5\n"),
            "rust": stub(Path(folder), "rust", "Tree height 6\nTree size 5040\n"),  # a wrong height: must be flagged
        }
        games = [LADDER[0]]
        cells = measure(games, peers, 2, 60, say=lambda *args, **kwargs: None)
        assert [run.answer for run in cells["3x10", "bactree"].runs] == [3575, 3575], cells
        assert [run.answer for run in cells["3x10", "mmstrat"].runs] == [3575, 3575], cells
        assert ("3x10", "rust") not in cells  # the Rust minimax solves 4 of 10 only
        text = table(games, ["mmstrat"], cells)
        row = text.splitlines()[2]
        assert row.startswith("| 3 of 10 (expected) | ") and "answered" not in row, text
        ratio = float(row.rstrip(" |").rsplit("| ", 1)[1])
        assert abs(ratio - cells["3x10", "mmstrat"].cpu / cells["3x10", "bactree"].cpu) < 0.01, text
        assert rust_answer(timed([peers["rust"]], 60).out) == 6
        wrong = Cell([Run(1.0, 1.0, 6, "answered 6")])
        assert flag(wrong) == " (answered 6)"
    print(text)
    print("self-test passed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mmstrat", help="mmstrat of 7ntO/mastermind-strategy")
    parser.add_argument("--rust", help="the bulls_and_cows binary of kunigami/blog-examples (4 of 10, worst case)")
    parser.add_argument("--arfst23", help="arfst23/Mastermind's solver built for 4 pegs, 6 colours, depth 6 (Mastermind 4x6)")
    parser.add_argument("--games", default=",".join(DEFAULT_GAMES),
                        help=f"comma-separated, from {', '.join(g.key for g in LADDER)} (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per cell (default: %(default)s)")
    parser.add_argument("--timeout", type=float, help="stop a run after this many seconds (the cell says so)")
    parser.add_argument("--self-test", action="store_true", help="check the parsing with stub peers and exit")
    args = parser.parse_args()
    if args.self_test:
        self_test()
        return
    known = {game.key: game for game in LADDER}
    wanted = [key.strip() for key in args.games.split(",")]
    unknown = [key for key in wanted if key not in known]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}: choose from {', '.join(known)}")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    peers = {name: path for name, path in (("mmstrat", args.mmstrat), ("rust", args.rust), ("arfst23", args.arfst23)) if path}
    for name, path in peers.items():
        if not os.access(path, os.X_OK):
            parser.error(f"--{name} {path!r} is not an executable file")
    games = [known[key] for key in wanted]
    warm = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    for objective in sorted({game.bactree[game.bactree.index("-O") + 1] for game in games}):  # each objective's kernels cached
        timed(bactree_build(("-n", "3", "-O", objective)), env=warm)
    cells = measure(games, peers, args.repeats, args.timeout)
    shown = [name for name in peers if any((game.key, name) in cells for game in games)]
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, medians of {args.repeats} runs; CPU = user + system")
    print(environment())
    print(table(games, shown, cells))


if __name__ == "__main__":
    main()
