"""Where a build's CPU goes inside the numba kernels: Linux perf, with every compiled function named.

Usage: python scripts/perf_kernels.py [--game G] [-n LENGTH] [--symbols S] [--objective O] [--budget B]
                                      [--second-guess ANSWER,GUESS --bound B --seconds S] [--height PATH --left D]
                                      [--frequency HZ] [--top K] [--nrt-callers]

cProfile (`scripts/profile_build.py`) sees a kernel only where Python
calls it: one line for `_screen_guesses`, whatever it calls inside. perf
samples the machine code, but numba's compiled code sits in anonymous
memory, so perf prints bare addresses. This script keeps each kernel
library's object code as numba loads it (from its on-disk cache or a
compile), reads the functions' symbols from it, and writes them to
/tmp/perf-PID.map, the map of JIT code that `perf report` reads. It runs
`perf record` on its own process around an in-process build (one worker),
then prints the share of samples of each function: kernels and the
callees numba kept apart, numba's dict look-ups, the interpreter.

With `--second-guess ANSWER,GUESS` it samples instead what a worker of a
split build does (`bactree.pipeline.part_tasks._solve_branch`): the least total of
the part the first code (01234...) leaves with ANSWER, its second guess
fixed, below `--bound`, stopped after `--seconds` of wall. With `--height
PATH` it samples a least-height decision: whether the set PATH leaves (as
`scripts/probe_height.py --path` reads it, e.g. `01234/0B2C,12356,24781`
for a pair of a refutation of 5 of 10 in 7) has a tree within `--left`
guesses.

With `--nrt-callers` it also says which functions make numba's reference
counts (`NRT_incref`, `NRT_decref`: an atomic operation each, made by
array views, iterators over arrays and some calls). perf's call graphs
cannot walk numba's frames, but these two are leaves, so the word on top
of the stack when a sample lands in them is the caller's return address:
the script records 64 bytes of user stack a sample (`--call-graph
dwarf,64`) and reads that word from `perf report -D`'s dump.

Needs perf (Debian package linux-perf) and a kernel that lets it sample
(`/proc/sys/kernel/perf_event_paranoid` at most 2 for one's own process).
Figures are samples, not seconds: compare shares within one run.
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable

from numba.core import codegen
from numba.core.registry import CPUDispatcher

_set_compiled_object = codegen.CodeLibrary._set_compiled_object


# numba's reference counts of arrays: an atomic add each, in a module numba compiles when it starts (so in no
# kernel's object code). Every non-inlined call of a kernel with arrays counts each one up and down; unnamed, they
# were 14% of Mastermind 4x7's samples (2026-11-28). Their sizes as compiled by numba 0.68 (an inc, and a dec
# that jumps to the destructor at zero), read from the machine code.
REFCOUNTS = (("NRT_incref", 0x10), ("NRT_decref", 0x20))


def _keep_object(self, value):
    """numba drops a library's object code once it is loaded; keep a copy for its symbols."""
    self._perf_object = value
    return _set_compiled_object(self, value)


def keep_objects() -> None:
    """From now on keep every kernel library's object code as numba loads it (call before the kernels load)."""
    codegen.CodeLibrary._set_compiled_object = _keep_object


def elf_functions(image: bytes) -> list[tuple[str, int, int, int]]:
    """(name, section index, offset in the section, size) of each function symbol of a 64-bit little-endian ELF object."""
    if image[:4] != b"\x7fELF" or image[4] != 2 or image[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF object")
    section_offset, = struct.unpack_from("<Q", image, 0x28)
    entry_size, count = struct.unpack_from("<HH", image, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", image, section_offset + i * entry_size) for i in range(count)]
    functions = []
    for _, kind, _, _, offset, size, link, _, _, symbol_size in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        names = sections[link][4]  # the string table's file offset
        for at in range(offset, offset + size, symbol_size):
            name_at, info, _, section, value, length = struct.unpack_from("<IBBHQQ", image, at)
            if info & 0xF == 2 and length:  # STT_FUNC
                end = image.index(b"\0", names + name_at)
                functions.append((image[names + name_at:end].decode(), section, value, length))
    return functions


def readable(symbol: str) -> str:
    """`bactree.search.cost._base_kernels._guess_base` of numba's mangled `_ZN7bactree6search4cost13_base_kernels11_guess_baseB4v2...`:
    the length-prefixed names up to the first tag, numba's `_3c`/`_3e` escapes undone."""
    rest = symbol[3:] if symbol.startswith("_ZN") else symbol
    names = []
    while (match := re.match(r"\d+", rest)) is not None:
        length = int(match.group())
        names.append(rest[match.end():match.end() + length])
        rest = rest[match.end() + length:]
    if not names:
        return symbol
    return ".".join(names).replace("_3c", "<").replace("_3e", ">")


def jit_map_lines() -> list[str]:
    """perf map lines (`START SIZE NAME`, hex) for every function of every overload of bactree's kernels loaded since
    `keep_objects` (others, their object code dropped, are left out)."""
    lines, seen, any_library = [], set(), None
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("bactree"):
            continue
        for value in list(vars(module).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            for result in value.overloads.values():
                library = result.library
                image = getattr(library, "_perf_object", None) or library._compiled_object
                if image is None or id(library) in seen:
                    continue
                seen.add(id(library))
                any_library = library
                entry = result.fndesc.llvm_func_name
                functions = elf_functions(image)
                placed = {name: (section, offset) for name, section, offset, _ in functions}
                if entry not in placed:
                    continue
                section, offset = placed[entry]
                base = library.get_pointer_to_function(entry) - offset
                lines += [
                    f"{base + at:x} {size:x} {readable(name)}" for name, where, at, size in functions if where == section
                ]
    if any_library is not None:  # any kernel's library resolves the runtime's symbols
        lines += [f"{any_library.get_pointer_to_function(name):x} {size:x} {name}" for name, size in REFCOUNTS]
    return lines


def perf_report(data: str, top: int) -> list[tuple[float, str]]:
    """The `top` symbols of a perf record by share of samples (self time)."""
    report = subprocess.run(
        ["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "symbol"],
        capture_output=True, text=True, check=True,
    ).stdout
    rows = []
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(.+?)(\s+-\s+-)?\s*$", line)
        if match:
            rows.append((float(match.group(1)), match.group(2)))
    return rows[:top]


def refcount_callers(dump: Iterable[str], map_lines: list[str]) -> tuple[int, int, Counter]:
    """(samples, samples in the reference counts, their callers by name) from `perf report -D` lines of a record with
    a user stack a sample, and the map's `START SIZE NAME` lines: a caller is the function holding the return address,
    the first word after the stack's 8-byte size at its `ustack` offset of the sample's dump."""
    spans = sorted((int(start, 16), int(size, 16), name) for start, size, name in (l.split(" ", 2) for l in map_lines))
    starts = [start for start, _, _ in spans]

    def name_at(address: int) -> str | None:
        i = bisect.bisect_right(starts, address) - 1
        return spans[i][2] if i >= 0 and address < spans[i][0] + spans[i][1] else None

    record, sample, samples, counted, callers = bytearray(), None, 0, 0, Counter()
    for line in dump:
        hex_line = re.match(r"^\.\s+([0-9a-f]{4}):\s+((?:[0-9a-f]{2} )+)", line)
        if hex_line:
            if int(hex_line.group(1), 16) == 0:
                record = bytearray()
            record += bytes.fromhex(hex_line.group(2).replace(" ", ""))
            continue
        header = re.search(r"PERF_RECORD_SAMPLE\(IP, 0x2\): \d+/\d+: (0x[0-9a-f]+)", line)
        if header:
            sample = (int(header.group(1), 16), bytes(record))
            continue
        stack = re.search(r"\.\.\. ustack: size \d+, offset (0x[0-9a-f]+)", line)
        if stack and sample is not None:
            (ip, data), sample = sample, None
            samples += 1
            if name_at(ip) in ("NRT_incref", "NRT_decref"):
                counted += 1
                at = int(stack.group(1), 16) + 8
                callers[name_at(int.from_bytes(data[at : at + 8], "little")) or "?"] += 1
    return samples, counted, callers


def second_guess_task(game, second_guess: str, bound: int | None, seconds: float) -> None:
    """The least total of the part the game's first code leaves with an answer, a second guess fixed (a split build's
    task), until `seconds` of wall have passed."""
    from bactree.search import INFINITE, TOTAL_GUESSES, CostSearch, Solver
    from bactree.search.cost.search import BudgetExceeded

    answer_text, guess_text = second_guess.split(",")
    solver = Solver(game)
    answer, first, guess = game.parse_answer(answer_text), 0, game.code_index[game.parse_code(guess_text)]
    part = next(part for part in solver.split(solver.all_guesses, first) if solver.answer_to(first, part) == answer)
    search = CostSearch(solver, TOTAL_GUESSES)
    search.deadline = time.perf_counter() + seconds
    try:
        value = search.guess_value(part, solver.num_codes - 1, guess, INFINITE if bound is None else bound, (first,))
        print(f"{game.codes[first]} {answer} then {guess_text}: {value} ({search.nodes_searched} sets)")
    except BudgetExceeded:
        print(f"{game.codes[first]} {answer} then {guess_text}: stopped after {seconds:g} s ({search.nodes_searched} sets)")


def height_task(game, path: str, left: int) -> None:
    """Whether the set `path` leaves (`probe_height.probed_set`) has a tree within `left` guesses, in a fresh solver."""
    here = os.path.dirname(os.path.abspath(__file__))  # on the path when run as a script, not when a test loads it
    if here not in sys.path:
        sys.path.insert(0, here)
    from probe_height import probed_set

    from bactree.search import Solver

    solver = Solver(game)
    subset, history = probed_set(solver, path)
    found = solver.find_guess(subset, left, history) >= 0
    print(f"{path}: {len(subset)} secrets, {'a' if found else 'no'} tree within {left}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("-n", "--length", type=int, default=None)
    parser.add_argument("--symbols", default=None, help="the preset's symbols changed, e.g. 012345678")
    parser.add_argument("--objective", default="expected")
    parser.add_argument("--budget", type=int, default=None, help="a budgeted build (`bactree build --budget`)")
    parser.add_argument("--second-guess", default=None, help="ANSWER,GUESS: a split build's task on the first code's part")
    parser.add_argument("--bound", type=int, default=None, help="with --second-guess: the task's bound (default: none)")
    parser.add_argument("--seconds", type=float, default=60.0, help="with --second-guess: stop after this long")
    parser.add_argument("--height", default=None, help="PATH: a least-height decision of the set it leaves")
    parser.add_argument("--left", type=int, default=4, help="with --height: the guesses left (default: 4)")
    parser.add_argument("--frequency", type=int, default=499, help="samples a second")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--nrt-callers", action="store_true", help="also name the callers of numba's reference counts")
    args = parser.parse_args(argv)
    if shutil.which("perf") is None:
        sys.exit("perf_kernels: perf is not installed (Debian package linux-perf)")
    keep_objects()
    from bactree.pipeline.build import build
    from bactree.game import Game, make_game

    game = make_game(args.game, args.length, args.symbols)
    build(Game(3, "01234", False), args.objective, workers=1)  # loads the kernels: not sampled
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "perf.data")
        recorder = subprocess.Popen(
            ["perf", "record", *(["--call-graph", "dwarf,64"] if args.nrt_callers else []), "-F", str(args.frequency),
             "-p", str(os.getpid()), "-o", data],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        time.sleep(0.5)  # perf attaches
        began = time.process_time()
        if args.height is not None:
            height_task(game, args.height, args.left)
        elif args.second_guess is None:
            build(game, args.objective, workers=1, budget=args.budget)
        else:
            second_guess_task(game, args.second_guess, args.bound, args.seconds)
        seconds = time.process_time() - began
        jit_map = f"/tmp/perf-{os.getpid()}.map"
        lines = jit_map_lines()
        with open(jit_map, "w") as out:
            out.write("\n".join(lines) + "\n")
        recorder.send_signal(signal.SIGINT)
        _, errors = recorder.communicate()
        if recorder.returncode not in (0, -signal.SIGINT) or not os.path.exists(data):
            sys.exit(f"perf_kernels: perf record failed: {errors.strip().splitlines()[-1] if errors.strip() else recorder.returncode}")
        try:
            rows = perf_report(data, args.top)
            if args.nrt_callers:
                with subprocess.Popen(["perf", "report", "-D", "-i", data], stdout=subprocess.PIPE, text=True,
                                      stderr=subprocess.DEVNULL) as dump:
                    samples, counted, callers = refcount_callers(dump.stdout, lines)
        finally:
            os.remove(jit_map)
    what = f"height within {args.left} after {args.height}" if args.height is not None else args.objective
    print(f"{game} {what}: {seconds:.2f} s of CPU sampled, {len(lines)} compiled functions mapped")
    for share, name in rows:
        print(f"  {share:6.2f}%  {name}")
    if args.nrt_callers:
        print(f"reference counts: {counted} of {samples} samples, made by")
        for name, count in callers.most_common(args.top):
            print(f"  {count:6d}  {name}")


if __name__ == "__main__":
    main()
