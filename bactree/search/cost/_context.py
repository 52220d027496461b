"""A least-cost search's constant state as one numba object, so that its kernels are called with one argument for it.

numba checks and unboxes every argument of every call from Python: about
0.1 microseconds an array, 1.9 a typed dict and more for a tuple
(2026-11-28). The search calls its kernels tens of thousands of times on a
small game (Mastermind 4x7: about 20,000 calls with 15 such arguments
each), so the arguments cost more than some of the calls' work. A
`Context` (a numba structref) holds the answer table, the floors, the
memo tables and the rest that do not change during a search, and unboxes
in about 1.2 microseconds; the kernels' entry points (`..._in`) read their
arguments from it. It is made by a cached kernel (`_new_context`): a
structref built from Python compiles its constructor in every process.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.experimental import structref

from ._memo import MEMO_TYPE


@structref.register
class ContextType(types.StructRef):
    """numba's type of a `Context`."""


class Context(structref.StructRefProxy):
    """A search's constant state, opaque to Python (made by `_new_context`)."""


structref.define_boxing(ContextType, Context)

_CODES = types.Array(types.uint8, 2, "C")
_INTS = types.Array(types.int64, 1, "C")


def _context_type(grouped: types.Type) -> ContextType:
    """The type of a `Context` whose `grouped` field has type `grouped`."""
    return ContextType([
        ("table", types.Array(types.uint8, 2, "C", readonly=True)),
        ("by_secret", types.Array(types.uint8, 2, "C", readonly=True)),
        ("grouped", grouped),
        ("codes", _CODES),
        ("solved", types.int64),
        ("num_slots", types.int64),
        ("caps", _INTS),
        ("floor", types.Array(types.int64, 2, "C")),
        ("class_floor", types.Array(types.int64, 4, "C")),
        ("orbit_of", _INTS),
        ("lookahead", types.boolean),
        ("level_fill", _INTS),
        ("weights", _INTS),
        ("hard", types.boolean),
        ("symmetric", types.boolean),
        ("memo", MEMO_TYPE),
        ("kernel_max", types.int64),
    ])


# A search that bounds total guesses by lookahead reads the regrouped table (`grouped`); one that does not (heights,
# node counts) has None there, and as its type is then none numba prunes the lookahead's code from every kernel that
# tests `grouped is not None`: a first run compiles less (`docs/notes/first-run.md`).
CONTEXT_TYPE = _context_type(types.Tuple((_CODES, _CODES, _INTS, _INTS, _INTS)))
NO_LOOKAHEAD_CONTEXT_TYPE = _context_type(types.none)


@njit(cache=True)
def _new_context(*fields):
    """A `Context` holding `fields` (`_fill`'s; the memo tables shared, not copied), for a search with lookahead."""
    return _fill(structref.new(CONTEXT_TYPE), *fields)


@njit(cache=True)
def _new_no_lookahead_context(*fields):
    """The same for a search without lookahead: `grouped` None (`NO_LOOKAHEAD_CONTEXT_TYPE`)."""
    return _fill(structref.new(NO_LOOKAHEAD_CONTEXT_TYPE), *fields)


@njit(cache=True)
def _fill(
    context, table, by_secret, grouped, codes, solved, num_slots, caps, floor, class_floor, orbit_of, lookahead, level_fill,
    weights, hard, symmetric, memo, kernel_max,
):
    """`context` with every field set."""
    context.grouped = grouped
    context.table = table
    context.by_secret = by_secret
    context.codes = codes
    context.solved = solved
    context.num_slots = num_slots
    context.caps = caps
    context.floor = floor
    context.class_floor = class_floor
    context.orbit_of = orbit_of
    context.lookahead = lookahead
    context.level_fill = level_fill
    context.weights = weights
    context.hard = hard
    context.symmetric = symmetric
    context.memo = memo
    context.kernel_max = kernel_max
    return context


def readonly(table: np.ndarray) -> np.ndarray:
    """`table` as a read-only view (the context's type): `answer_table`'s are read-only, a table a caller hands to
    `Solver` may not be."""
    if not table.flags.writeable:
        return table
    view = table.view()
    view.flags.writeable = False
    return view
