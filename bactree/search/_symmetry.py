"""Numba kernels of symmetry: which guesses are least in their orbit under a history's stabiliser.

A symmetry of the game is a permutation of positions combined with a
relabelling of symbols; it keeps every answer. Guesses that such a map sends
onto each other, while it fixes every earlier guess, start equivalent
subtrees, so the search tries one guess of each orbit (`Solver.canonical_guesses`).
These kernels call nothing in other files, so numba's cache (which does not
see changes to callees in other files) stays sound.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _stabiliser(history, perms, num_symbols):
    """Elements (position permutation, symbol map) that fix every code of `history`.

    Returns `(perm_rows, symbol_maps)`: `symbol_maps[e, c]` is the image of
    symbol c, or -1 for symbols no history code uses (those may be permuted
    freely among themselves). The action maps code c to c' with
    c'[perm[i]] = map[c[i]].
    """
    num_perms = perms.shape[0]
    n = perms.shape[1]
    keep = np.zeros(num_perms, np.bool_)
    maps = np.full((num_perms, num_symbols), -1, np.int64)
    for p in range(num_perms):
        inverse = np.full(num_symbols, -1, np.int64)
        ok = True
        for h in range(history.shape[0]):
            for i in range(n):
                a = history[h, i]
                b = history[h, perms[p, i]]
                if maps[p, a] == -1:
                    if inverse[b] != -1:
                        ok = False
                        break
                    maps[p, a] = b
                    inverse[b] = a
                elif maps[p, a] != b:
                    ok = False
                    break
            if not ok:
                break
        keep[p] = ok
    return perms[keep], maps[keep]


@njit(cache=True)
def _canonical_mask(codes, history, perms, num_symbols):
    """True for each code that is the least code of its orbit under the history's stabiliser.

    Guesses in one orbit give subproblems that are images of each other, so a
    search needs only the marked ones. Symbols unused by the history are
    relabelled in order of first appearance to the least unused symbols, which
    gives the least code among those relabellings.
    """
    group_perms, maps = _stabiliser(history, perms, num_symbols)
    num_codes, n = codes.shape
    used = np.zeros(num_symbols, np.bool_)
    for h in range(history.shape[0]):
        for i in range(n):
            used[history[h, i]] = True
    unused = np.empty(num_symbols, np.int64)
    num_unused = 0
    for c in range(num_symbols):
        if not used[c]:
            unused[num_unused] = c
            num_unused += 1
    mask = np.ones(num_codes, np.bool_)
    image = np.empty(n, np.int64)
    relabel = np.full(num_symbols, -1, np.int64)
    for ci in range(num_codes):
        code = codes[ci]
        for e in range(group_perms.shape[0]):
            for i in range(n):
                image[group_perms[e, i]] = maps[e, code[i]] if maps[e, code[i]] >= 0 else -1 - code[i]
            next_free = 0
            for i in range(n):
                if image[i] < 0:
                    original = -1 - image[i]
                    if relabel[original] == -1:
                        relabel[original] = unused[next_free]
                        next_free += 1
                    image[i] = relabel[original]
            for c in range(num_symbols):
                relabel[c] = -1
            smaller = False
            for i in range(n):
                if image[i] != code[i]:
                    smaller = image[i] < code[i]
                    break
            if smaller:
                mask[ci] = False
                break
    return mask
