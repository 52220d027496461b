"""Numba kernels of symmetry: which guesses are least in their orbit under a history's stabiliser or a set's own symmetries.

A symmetry of the game is a permutation of positions combined with a
relabelling of symbols; it keeps every answer. Guesses that such a map sends
onto each other, while it fixes every earlier guess, start equivalent
subtrees, so the search tries one guess of each orbit (`Solver.canonical_guesses`).
The same holds for any map that sends the set being searched onto itself
(`_set_automorphisms`): those form a group that holds the history's
stabiliser and can be larger, since a set may have symmetries its history
lacks (`Solver.set_canonical_guesses`).
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
    search needs only the marked ones. When the stabiliser is the identity
    alone and at most one symbol is unused (common deep in a search), every
    code is marked without a pass over them.
    """
    group_perms, maps = _stabiliser(history, perms, num_symbols)
    used = np.zeros(num_symbols, np.bool_)
    for h in range(history.shape[0]):
        for i in range(codes.shape[1]):
            used[history[h, i]] = True
    if group_perms.shape[0] == 1 and num_symbols - np.count_nonzero(used) <= 1:
        return np.ones(codes.shape[0], np.bool_)
    return _least_in_orbits(codes, group_perms, maps, used)


@njit(cache=True)
def _unused_symbols(used):
    """The symbols not `used`, in order."""
    unused = np.empty(used.shape[0], np.int64)
    num_unused = 0
    for c in range(used.shape[0]):
        if not used[c]:
            unused[num_unused] = c
            num_unused += 1
    return unused[:num_unused]


@njit(cache=True)
def _image(codes, ci, perms, e, maps, unused, image, relabel):
    """Write into `image` the least code that the element (`perms[e]`, `maps[e]`) sends `codes[ci]` to.

    Symbols the map leaves at -1 may be relabelled freely among the `unused`
    ones: in order of first appearance, to the least of them. `relabel` is
    scratch, all -1 before and after. Rows are read by index, not passed as
    views: a view made per call costs two reference counts.
    """
    n = codes.shape[1]
    for i in range(n):
        symbol = codes[ci, i]
        image[perms[e, i]] = maps[e, symbol] if maps[e, symbol] >= 0 else -1 - symbol
    next_free = 0
    for i in range(n):
        if image[i] < 0:
            original = -1 - image[i]
            if relabel[original] == -1:
                relabel[original] = unused[next_free]
                next_free += 1
            image[i] = relabel[original]
    for c in range(relabel.shape[0]):
        relabel[c] = -1


@njit(cache=True)
def _before(a, codes, ci):
    """True when code `a` comes before the code `codes[ci]` (lexicographic order of symbols)."""
    for i in range(a.shape[0]):
        if a[i] != codes[ci, i]:
            return a[i] < codes[ci, i]
    return False


@njit(cache=True)
def _least_in_orbits(codes, group_perms, maps, used):
    """True for each code that no element of the group maps to a smaller code.

    The group: the listed elements (`group_perms`, `maps` as `_stabiliser`
    gives them), each combined with every relabelling among themselves of the
    symbols not `used` (their maps are -1). Those are relabelled in order of
    first appearance to the least unused symbols, which gives the least code
    among those relabellings.
    """
    num_codes, n = codes.shape
    unused = _unused_symbols(used)
    mask = np.ones(num_codes, np.bool_)
    image = np.empty(n, np.int64)
    relabel = np.full(used.shape[0], -1, np.int64)
    for ci in range(num_codes):
        for e in range(group_perms.shape[0]):
            _image(codes, ci, group_perms, e, maps, unused, image, relabel)
            if _before(image, codes, ci):
                mask[ci] = False
                break
    return mask


@njit(cache=True)
def _least_images(codes, group_perms, maps, used):
    """Each code's least image under the group `_least_in_orbits` reads: one name for its orbit.

    `_least_in_orbits` does not call this: it stops at a code's first smaller
    image, which the height search, calling it for every set, needs.
    """
    num_codes, n = codes.shape
    unused = _unused_symbols(used)
    least = codes.astype(np.int64)
    image = np.empty(n, np.int64)
    relabel = np.full(used.shape[0], -1, np.int64)
    for ci in range(num_codes):
        for e in range(group_perms.shape[0]):
            _image(codes, ci, group_perms, e, maps, unused, image, relabel)
            if _before(image, least, ci):
                for i in range(n):  # element by element: a row copy links numba's shape-error text into every caller
                    least[ci, i] = image[i]
    return least


@njit(cache=True)
def _set_automorphisms(codes, subset, member, perms, num_symbols, index_of, cap):
    """(perm_rows, symbol_maps, used, complete): the elements that map the set `subset` onto itself.

    Elements are given as `_stabiliser` gives them, the symbols no code of
    the set uses (`used` False) mapped to -1: any relabelling of those among
    themselves keeps the set too. When more than `cap` maps had to be
    checked, `complete` is False and the elements listed are only some
    (see `_set_maps`).
    """
    return _set_maps(codes, subset, subset, member, perms, num_symbols, index_of, cap, cap + 1)


@njit(cache=True)
def _set_maps(codes, source, target, target_member, perms, num_symbols, index_of, cap, most):
    """(perm_rows, symbol_maps, used, complete): up to `most` elements that map the set `source` onto `target`.

    Sets of one size are assumed (`target_member` marks `target`). Maps are
    given as `_stabiliser` gives them, the symbols no code of `source` uses
    (`used` False) mapped to -1. A used symbol may map only to one that
    sits as often in `target` at each (permuted) position, and each such full
    map is checked code by code. When more than `cap` maps reach that check
    the listing stops and `complete` is False: a set may then have maps that
    are not listed. `index_of[v]` is the index of the code whose digits in
    base `num_symbols` read v, or -1.
    """
    num_perms, n = perms.shape
    profile = np.zeros((num_symbols, n), np.int64)
    for x in source:
        for i in range(n):
            profile[codes[x, i], i] += 1
    target_profile = np.zeros((num_symbols, n), np.int64)
    for x in target:
        for i in range(n):
            target_profile[codes[x, i], i] += 1
    used = np.zeros(num_symbols, np.bool_)
    order = np.empty(num_symbols, np.int64)
    num_used = 0
    for c in range(num_symbols):
        for i in range(n):
            if profile[c, i]:
                used[c] = True
        if used[c]:
            order[num_used] = c
            num_used += 1
    place = np.ones(n, np.int64)  # place[j]: the weight of position j in a code's number
    for j in range(n - 2, -1, -1):
        place[j] = place[j + 1] * num_symbols
    maps = np.empty((max(most, 0), num_symbols), np.int64)
    rows = np.empty((max(most, 0), n), perms.dtype)
    num_found = 0
    candidate = np.zeros((num_symbols, num_symbols), np.bool_)
    symbol_map = np.full(num_symbols, -1, np.int64)
    taken = np.zeros(num_symbols, np.bool_)
    choice = np.zeros(num_symbols + 1, np.int64)
    checked = 0
    for p in range(num_perms):
        # Symbol c may map to d when d sits at position perm[i] of `target` as often as c sits at i of `source`.
        possible = True
        for a in range(num_used):
            c = order[a]
            any_d = False
            for d in range(num_symbols):
                ok = True
                for i in range(n):
                    if ok and profile[c, i] != target_profile[d, perms[p, i]]:
                        ok = False
                candidate[c, d] = ok
                any_d = any_d or ok
            if not any_d:
                possible = False
                break
        if not possible or num_used == 0:
            continue
        # Depth first over the used symbols in order; choice[a]: the next image to try for order[a].
        taken[:] = False
        symbol_map[:] = -1
        a = 0
        choice[0] = 0
        while a >= 0:
            c = order[a]
            if symbol_map[c] >= 0:  # back here: free this symbol's image and try the next
                taken[symbol_map[c]] = False
                symbol_map[c] = -1
            d = choice[a]
            while d < num_symbols and (not candidate[c, d] or taken[d]):
                d += 1
            if d == num_symbols:
                a -= 1
                continue
            choice[a] = d + 1
            symbol_map[c] = d
            taken[d] = True
            if a + 1 < num_used:
                a += 1
                choice[a] = 0
                continue
            checked += 1
            if checked > cap:
                return rows[:num_found], maps[:num_found], used, False
            onto = True
            for x in source:
                v = 0
                for i in range(n):
                    v += symbol_map[codes[x, i]] * place[perms[p, i]]
                y = index_of[v]
                if y < 0 or not target_member[y]:
                    onto = False
                    break
            if onto:
                for i in range(n):  # element by element: row copies link numba's shape-error text into every caller
                    rows[num_found, i] = perms[p, i]
                for c in range(symbol_map.shape[0]):
                    maps[num_found, c] = symbol_map[c]
                num_found += 1
                if num_found == most:
                    return rows, maps, used, True
    return rows[:num_found], maps[:num_found], used, True


@njit(cache=True)
def _answer_counts(table, subset, num_slots):
    """counts[i, a]: how many secrets of `subset` give answer a to the code `subset[i]` (its sorted row, counted).

    Every image of the set has the same rows, reordered: what its shape key
    is made of. |subset|**2 reads of the table, with no temporary of that size.
    """
    s = subset.shape[0]
    counts = np.zeros((s, num_slots), np.int32)
    for i in range(s):
        row = table[subset[i]]
        for j in range(s):
            counts[i, row[subset[j]]] += 1
    return counts
