"use strict";
// The coach's book in the page: the exact least totals of the positions after one or two guesses, made by the
// search and shipped (bactree/coach/book.py), found up to symmetry as the terminal finds them
// (bactree/coach/symmetry.py, ported map for map): each guess of a history is carried to the least code of its
// class given the guesses before, and the entry filed under that canonical history is read back through the
// inverse map. Only games of every code have books (a word list has no symmetry to speak of).
const bactreeBook = (function () {
  /** Every order of the positions 0..n-1, in the order of Python's itertools.permutations. */
  function permutations(n) {
    const orders = [];
    (function extend(prefix, left) {
      if (!left.length) { orders.push(prefix); return; }
      left.forEach((p, i) => extend([...prefix, p], [...left.slice(0, i), ...left.slice(i + 1)]));
    })([], Array.from({ length: n }, (_, i) => i));
    return orders;
  }

  /**
   * A book of one game: `positions` (canonical history key -> [[guess, total], ...], best first), `guesses`
   * (how many guesses deep it goes), `start` ([guess, total] at the start, from the game's optimal least-total
   * tree, or undefined), the game's `symbols` (a string, one code point each) and code `length`.
   */
  function makeBook({ positions, guesses, start, symbols, length }) {
    const alphabet = [...symbols];
    const rank = new Map(alphabet.map((symbol, i) => [symbol, i]));
    const orders = permutations(length);

    /** [order, symbol map] for each order of positions sending every source code onto its target. */
    function* partialMaps(sources, targets) {
      for (const order of orders) {
        const forward = new Map(), backward = new Map();
        let ok = true;
        for (let k = 0; ok && k < sources.length; k++) {
          const source = [...sources[k]], target = [...targets[k]];
          for (let i = 0; i < length; i++) {
            const a = source[i], b = target[order[i]];
            if (!forward.has(a)) forward.set(a, b);
            if (!backward.has(b)) backward.set(b, a);
            if (forward.get(a) !== b || backward.get(b) !== a) { ok = false; break; }
          }
        }
        if (ok) yield [order, forward];
      }
    }

    /** The code `code` becomes under the map sending c to c' with c'[order[i]] = relabel(c[i]). */
    function apply({ order, relabel }, code) {
      const image = new Array(length);
      [...code].forEach((symbol, i) => { image[order[i]] = relabel.get(symbol); });
      return image.join("");
    }

    function inverse({ order, relabel }) {
      const back = new Array(length);
      order.forEach((j, i) => { back[j] = i; });
      return { order: back, relabel: new Map([...relabel].map(([a, b]) => [b, a])) };
    }

    /** A symmetry sending each of `sources` onto the target at the same place, or null (symmetry.carrying). */
    function carrying(sources, targets) {
      for (const [order, forward] of partialMaps(sources, targets)) {
        const taken = new Set(forward.values());
        const free = alphabet.filter((c) => !taken.has(c));
        const relabel = new Map(alphabet.map((a) => [a, forward.has(a) ? forward.get(a) : free.shift()]));
        return { order, relabel };
      }
      return null;
    }

    /** The least code a symmetry fixing every code of `fixed` sends `code` to (symmetry.least_image). */
    function leastImage(code, fixed) {
      const used = new Set(fixed.flatMap((f) => [...f]));
      const unused = alphabet.filter((c) => !used.has(c));
      const symbolsOf = [...code];
      const key = (text) => [...text].map((c) => rank.get(c));
      let best = code, bestKey = key(code);
      for (const [order, forward] of partialMaps(fixed, fixed)) {
        const image = new Array(length).fill(null);
        symbolsOf.forEach((symbol, i) => { image[order[i]] = forward.has(symbol) ? forward.get(symbol) : null; });
        const free = [...unused], relabel = new Map();
        for (let i = 0; i < length; i++) {
          if (image[i] !== null) continue;
          const original = symbolsOf[order.indexOf(i)];
          if (!relabel.has(original)) relabel.set(original, free.shift());
          image[i] = relabel.get(original);
        }
        const candidate = image.join(""), candidateKey = key(candidate);
        const less = candidateKey.findIndex((r, i) => r !== bestKey[i]);
        if (less >= 0 && candidateKey[less] < bestKey[less]) { best = candidate; bestKey = candidateKey; }
      }
      return best;
    }

    /** {symmetry, key}: the map carrying `history` ([[guess, answer], ...]) to its canonical image, and that
     * image's key, or null (book.canonical_pairs). */
    function canonical(history) {
      const sources = history.map(([guess]) => guess), targets = [];
      for (const guess of sources) {
        const carried = carrying(sources.slice(0, targets.length), targets);
        if (carried === null) return null;
        targets.push(leastImage(apply(carried, guess), targets));
      }
      const symmetry = carrying(sources, targets);
      if (symmetry === null) return null;
      return { symmetry, key: targets.map((guess, i) => `${guess}=${history[i][1]}`).join(" ") };
    }

    /** The book's best for the position after `history`: { total, guess } (the guess in the history's codes), or
     * null when the book does not hold it. */
    function best(history) {
      if (!history.length) return start ? { guess: start[0], total: start[1] } : null;
      if (history.length > guesses) return null;
      const found = canonical(history);
      const entry = found && positions[found.key];
      if (!entry) return null;
      const [guess, total] = entry[0];
      return { total, guess: apply(inverse(found.symmetry), guess) };
    }

    return { best, canonical, leastImage }; // canonical and leastImage: for the tests
  }

  return { makeBook };
})();
