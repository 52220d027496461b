"""The kernels' warm-up: `compile_kernels` calls every cost kernel a worst-case tie-break calls, with its types.

The warm-up process of `bactree.pipeline.warm_up` is worth its core only if
the build then compiles none of the cost search's kernels itself. Each check
runs in a fresh interpreter, so that kernels an earlier test compiled with
the same types cannot hide one the warm-up left out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bactree.game import make_game
from bactree.search import Solver
from bactree.search.cost.search import KERNEL_MAX_SET, PERFECT_CHECK_MAX_SET
from bactree.search.cost.warm_up import warm_up_sets

ROOT = Path(__file__).resolve().parent.parent

# After the warm-up, the tie-break's own search on the whole game: the signatures it adds to the cost kernels.
CHECK = """
import sys
from numba.core.registry import CPUDispatcher
from bactree.game import make_game
from bactree.search import Cost, CostSearch, Solver
from bactree.search.cost import _base_kernels, _context, _cost_kernels, _memo, _small_set_kernels
from bactree.search.cost.warm_up import compile_candidates, compile_kernels
from bactree.search.height import _height_kernels

def signatures():
    modules = (_base_kernels, _context, _cost_kernels, _memo, _small_set_kernels, _height_kernels)
    return {(module.__name__, name, signature) for module in modules for name, kernel in vars(module).items()
            if isinstance(kernel, CPUDispatcher) for signature in kernel.signatures}

keys = ("nodes",)  # the default tie-break
solver = Solver(make_game(sys.argv[1], length=int(sys.argv[2]), symbols=sys.argv[3]))
compile_candidates(solver, Cost.chain(keys, 1, solver.num_secrets))  # the build's share, then the process's
compile_kernels(solver, Cost.chain(keys, 1, solver.num_secrets))
warmed = signatures()
height = solver.min_height()
search = CostSearch(solver, Cost.chain(keys, height, solver.num_secrets))
search.solve(solver.secrets, height)
search.tree(solver.secrets, height)
used = {name for _, name, _ in signatures()}
print(len(used & {name for _, name, _ in warmed}))
for module, name, signature in sorted(signatures() - warmed, key=str):
    print(module, name, signature)
"""


@pytest.mark.parametrize("name, length, symbols", [("bulls-cows", 3, "0123456789"), ("mastermind", 4, "123456")])
def test_the_tie_break_compiles_no_cost_kernel_the_warm_up_did_not(name, length, symbols):
    """Other tie-breaks (`total`, `crush`: the lookahead's kernels too) compile what the warm-up left out themselves."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", CHECK, name, str(length), symbols], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    called, *missing = done.stdout.splitlines()
    assert int(called) >= 5  # the screen, the small sets, candidates, context and memo at least
    assert missing == []


def test_the_warm_up_sets_reach_each_size_the_search_treats_apart():
    solver = Solver(make_game(length=3, symbols="0123456789"))
    sets = warm_up_sets(solver)
    sizes = [len(part) for part in sets]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] > PERFECT_CHECK_MAX_SET
    assert any(KERNEL_MAX_SET < size <= PERFECT_CHECK_MAX_SET for size in sizes)
    assert 3 <= sizes[-1] <= KERNEL_MAX_SET
    answers = solver.table[0]
    for part in sets:  # each a whole part of the first code's answers
        assert set(part) == {int(code) for code in solver.secrets if answers[code] == answers[part[0]]}
