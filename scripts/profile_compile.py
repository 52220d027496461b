"""Where a cold command's compile goes: each numba kernel's compile CPU seconds, from numba's compile events.

    python scripts/profile_compile.py [--warm-up] [--top N] -- build -n 3 -q -o /tmp/t.json

Runs the bactree command given after `--` in this process with an empty
numba cache of its own (a fresh NUMBA_CACHE_DIR), and prints for every
kernel compiled (each signature once) its inclusive CPU seconds (the
compiles of the kernels it calls first included) and its own (theirs left
out), outermost compiles marked `*`, then the totals: compile CPU, LLVM's
share (numba's `numba:llvm_lock` events) and the whole process's CPU.
Without `--warm-up` the build's second compiling process is not started,
so every kernel the command needs is compiled and counted here; with it,
that process prints its own outermost compiles as it ends.
"""

from __future__ import annotations

import argparse
import atexit
import os
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm-up", action="store_true", help="let a worst-case build fork its compiling process")
    parser.add_argument("--full", action="store_true", help="print whole signatures")
    parser.add_argument("--top", type=int, default=40, help="kernels to list (default 40)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the bactree command, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bactree-compile-profile-")
    from numba.core import event

    rows: list[tuple[str, float, float, bool]] = []  # (kernel and signature, inclusive, own, outermost)
    stack: list[list[float]] = []  # [start CPU, CPU of the compiles nested in it]
    llvm = [0.0, 0.0]  # [total, start]

    class Compiles(event.Listener):
        def on_start(self, _event: event.Event) -> None:
            stack.append([time.process_time(), 0.0])

        def on_end(self, ev: event.Event) -> None:
            started, nested = stack.pop()
            spent = time.process_time() - started
            if stack:
                stack[-1][1] += spent
            data = ev.data or {}
            dispatcher = data.get("dispatcher")
            name = getattr(getattr(dispatcher, "py_func", None), "__qualname__", str(dispatcher))
            rows.append((f"{name}{tuple(data.get('args', ()))}", spent, spent - nested, not stack))

    class Llvm(event.Listener):
        def on_start(self, _event: event.Event) -> None:
            llvm[1] = time.process_time()

        def on_end(self, _event: event.Event) -> None:
            llvm[0] += time.process_time() - llvm[1]

    event.register("numba:compile", Compiles())
    event.register("numba:llvm_lock", Llvm())
    if not args.warm_up:
        from bactree.pipeline import warm_up

        warm_up.start = lambda solver, cost: None
    else:
        from bactree.search.cost import warm_up as cost_warm_up

        compile_kernels = cost_warm_up.compile_kernels

        def compile_and_report(solver, cost) -> None:  # in the forked process: its own compiles, as it ends
            before, cpu, wall = len(rows), time.process_time(), time.perf_counter()
            compile_kernels(solver, cost)
            mine = [row for row in rows[before:] if row[3]]
            print(f"warm-up process: {time.process_time() - cpu:.1f} s of CPU, {time.perf_counter() - wall:.1f} s wall; "
                  + ", ".join(f"{name.split('(')[0]} {spent:.1f}" for name, spent, _, _ in sorted(mine, key=lambda r: -r[1])),
                  flush=True)

        cost_warm_up.compile_kernels = compile_and_report
    started = time.perf_counter()

    def report() -> None:
        wall = time.perf_counter() - started
        outer = sum(spent for _, spent, _, top in rows if top)
        width = 70
        print(f"\n{'kernel (signature)':<{width}} {'incl. s':>8} {'own s':>7}")
        for name, spent, own, top in sorted(rows, key=lambda row: -row[1])[:args.top]:
            label = ("* " if top else "  ") + name
            print(f"{label if args.full else label[:width]:<{width}} {spent:8.2f} {own:7.2f}")
        print(f"{len(rows)} compiles ({sum(top for *_, top in rows)} outermost): {outer:.1f} s of CPU compiling, "
              f"{llvm[0]:.1f} s of it in LLVM; the process {time.process_time():.1f} s of CPU, {wall:.1f} s wall", flush=True)

    atexit.register(report)  # the command ends its process itself (os._exit), after the atexit handlers
    from bactree.cli.command import main as bactree_main

    sys.argv = ["bactree", *command]
    bactree_main()


if __name__ == "__main__":
    main()
