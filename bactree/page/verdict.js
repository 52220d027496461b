"use strict";
// Find mine's verdict on a guess: how many guesses it leaves to finish on average, against the best guess,
// under the expected objective (bactree/search/cost/search.py; tests/naive_search.py least_total):
//   cost(S) = |S| + min over guesses g of the sum over answers a other than all bulls of cost(S_a),
// cost of one secret 1, the guess that wins counted. A verdict is exact, from the tree (an optimal expected
// tree's subtree totals) or solved here by branch and bound, or else a pair of proven bounds, and says which.
// The search's work is counted, not timed, so the same position always gets the same verdict.
const bactreeVerdicts = (function () {
  const WORK = 3e6; // scorings (a guess against a secret) a verdict may spend on exact values before it settles for bounds
  const BOUNDS = 6e6; // scorings a verdict's bounds may spend trying guesses on sets; past it, cheaper bounds: the
  // counting bound below, and a greedy strategy that tries fewer still-possible guesses, down to the first alone

  class OutOfWork extends Error {}

  /**
   * A judge of positions of one game (`length`, `symbols`, `repeats` as in the tree file). `codes` are the
   * game's allowed guesses in order, `secrets` its possible secrets (all of `codes` unless a word game's list
   * of guesses holds more), `answers` its answer keys; positions are sets of secrets, and every allowed guess
   * is tried on them;
   * `total(node)` is the total guesses of a tree node's subtree, and `exactTree` says whether those totals
   * are optimal (an optimal expected tree of normal play with no guess cap) or only upper bounds;
   * `wholeFloor`, if not null, a proven lower bound on the cost of all the secrets (a tree file's stats.lower_bound).
   */
  function makeJudge({ codes, secrets = codes, length, symbols, repeats, answers, total, exactTree, wholeFloor }) {
    const alphabet = [...symbols]; // one symbol a code point, whatever its UTF-16 length
    const N = codes.length, L = length, K = alphabet.length, WIN = L * (L + 1);
    const M = answers.length - 1; // the most parts a guess can make, besides the win
    const keyOf = (a) => `${Math.floor(a / (L + 1))}B${a % (L + 1)}C`;

    // Common symbols are counted by the fastest means the game allows: a bit set of each code's symbols
    // (no repeats, at most 31 symbols), each code's count of every symbol (at most 16 symbols), or pairing positions.
    const BITS = !repeats && K <= 31, COUNTS = !BITS && K <= 16;
    const digits = new Int32Array(N * L);
    const masks = new Int32Array(BITS ? N : 0);
    const counts = new Uint8Array(COUNTS ? N * K : 0);
    const symbolIndex = new Map(alphabet.map((symbol, d) => [symbol, d]));
    codes.forEach((code, i) => {
      const points = [...code];
      for (let p = 0; p < L; p++) {
        const d = symbolIndex.get(points[p]);
        digits[i * L + p] = d;
        if (BITS) masks[i] |= 1 << d;
        if (COUNTS) counts[i * K + d]++;
      }
    });
    const paired = new Uint8Array(L);

    function popcount(x) { let c = 0; for (; x; x &= x - 1) c++; return c; }

    /** The answer index bulls * (L + 1) + cows of `s` to `g`: cows are common symbols less bulls, as game.score. */
    function score(g, s) {
      let bulls = 0, common = 0;
      for (let p = 0; p < L; p++) if (digits[g * L + p] === digits[s * L + p]) bulls++;
      if (BITS) common = popcount(masks[g] & masks[s]);
      else if (COUNTS) for (let k = 0; k < K; k++) common += Math.min(counts[g * K + k], counts[s * K + k]);
      else { // each symbol of g takes an unpaired equal symbol of s, if any
        paired.fill(0);
        for (let p = 0; p < L; p++) {
          for (let q = 0; q < L; q++) {
            if (!paired[q] && digits[s * L + q] === digits[g * L + p]) { paired[q] = 1; common++; break; }
          }
        }
      }
      return bulls * (L + 1) + common - bulls;
    }

    const Labels = WIN < 256 ? Uint8Array : Uint16Array; // answer indices: one byte up to 14 positions
    const rows = new Map(); // secret -> the answer it gives to every guess (scoring is symmetric, so a row per secret)
    function row(s) {
      let r = rows.get(s);
      if (!r) {
        r = new Labels(N);
        for (let g = 0; g < N; g++) r[g] = score(g, s);
        rows.set(s, r);
      }
      return r;
    }

    // least[k]: no strategy finds k secrets in fewer guesses in all, as a guess finds at most one secret
    // and has at most M answers to go on from: fill the levels of an M-ary tree, one secret a node.
    const least = new Float64Array(N + 1);
    for (let k = 1, depth = 1, width = 1; k <= N; depth++, width = Math.min(width * M, N)) {
      for (let i = 0; i < width && k <= N; i++, k++) least[k] = least[k - 1] + depth;
    }

    let work = 0, allowance = Infinity;

    /** The secrets of S (sorted indices) grouped by their answer to g, the win left out: parts and whether g wins. */
    function split(S, g) {
      const buckets = new Map();
      let wins = false;
      for (const s of S) {
        const known = rows.get(s);
        const a = known ? known[g] : score(g, s); // one guess needs no whole row
        if (a === WIN) { wins = true; continue; }
        const part = buckets.get(a);
        if (part) part.push(s); else buckets.set(a, [s]);
      }
      return { parts: buckets, wins };
    }

    /**
     * Every useful guess on S with its one-guess-deep bound |S| + sum least[|part|], best first (ties: a guess
     * that may win, then code order), charged to the work budget. Guesses that split S alike lead to the same
     * subproblems, so only the first is kept (splits are compared in full; a hash only finds candidates).
     */
    function options(S) {
      const n = S.length, found = [], sizes = new Uint32Array(WIN + 1);
      if (work + n * N > allowance) throw new OutOfWork(); // before any row is made
      work += n * N;
      const columns = S.map(row);
      const seen = new Map(); // hash of a split -> the labels of the splits with that hash
      let labels = new Labels(n);
      for (let g = 0; g < N; g++) {
        sizes.fill(0);
        let hash = 0;
        for (let j = 0; j < n; j++) {
          const a = columns[j][g];
          sizes[a]++;
          labels[j] = a;
          hash = (Math.imul(hash, 31) + a + 1) | 0;
        }
        const wins = sizes[WIN] > 0;
        let bound = n, parts = 0;
        for (let a = 0; a < WIN; a++) if (sizes[a]) { bound += least[sizes[a]]; parts++; }
        if (!wins && parts === 1) continue; // a guess that learns nothing
        const alike = seen.get(hash);
        if (alike && alike.some((other) => other.every((a, j) => a === labels[j]))) continue;
        if (alike) alike.push(labels); else seen.set(hash, [labels]);
        labels = new Labels(n);
        found.push({ g, bound, wins }); // g wins on some secret exactly when g is one of S
      }
      found.sort((x, y) => x.bound - y.bound || Number(y.wins) - Number(x.wins) || x.g - y.g);
      return found;
    }

    /**
     * The guess of `guesses` (default all) that options(S) would put first, as { g, bound }, found in one
     * pass with nothing sorted or kept: the bounds' workhorse, outside the search's work budget (`lead` and
     * `greedy` keep it within BOUNDS).
     */
    function leadOf(S, guesses) {
      const n = S.length, sizes = new Uint32Array(WIN + 1);
      // columns[j][i]: the answer of S[j] to the i-th guess (for a few guesses, scored here rather than whole rows made)
      const columns = guesses ? S.map((s) => { const r = rows.get(s); return guesses.map((g) => (r ? r[g] : score(g, s))); }) : S.map(row);
      const count = guesses ? guesses.length : N;
      let best = null;
      for (let i = 0; i < count; i++) {
        const g = guesses ? guesses[i] : i;
        sizes.fill(0);
        for (let j = 0; j < n; j++) sizes[columns[j][i]]++;
        let bound = n, parts = 0;
        for (let a = 0; a < WIN; a++) if (sizes[a]) { bound += least[sizes[a]]; parts++; }
        const wins = sizes[WIN] > 0;
        if (!wins && parts === 1) continue;
        if (!best || bound < best.bound || (bound === best.bound && wins && !best.wins)) best = { g, bound, wins };
      }
      return best;
    }

    const leading = new Map(); // S's key -> leadOf(S) over every guess
    let boundsWork = 0; // scorings spent by `lead` in this verdict

    /** leadOf(S) over every guess, remembered; null if that would take the verdict's bounds past BOUNDS. */
    function lead(S) {
      const key = S.join(",");
      let first = leading.get(key);
      if (!first) {
        if (boundsWork + S.length * N > BOUNDS) return null;
        boundsWork += S.length * N;
        leading.set(key, (first = leadOf(S)));
      }
      return first;
    }

    const exact = new Map(); // S's key -> [cost, a best guess]
    const floor = new Map(); // S's key -> a proven lower bound on its cost

    /** cost(S) if it is below `cutoff`; else a proven lower bound on it of at least `cutoff`. */
    function solve(S, cutoff) {
      const n = S.length;
      if (n <= 2) return 2 * n - 1;
      const key = S.join(",");
      const known = exact.get(key);
      if (known) return known[0];
      const low = Math.max(least[n], floor.get(key) || 0);
      if (low >= cutoff) return low;
      let best = Infinity, bestGuess = -1;
      for (const option of options(S)) {
        const limit = Math.min(best, cutoff);
        if (option.bound >= limit) break; // sorted by bound: no later guess can do better
        const parts = [...split(S, option.g).parts.values()].sort((x, y) => y.length - x.length);
        let sum = option.bound;
        for (const part of parts) {
          sum += solve(part, limit - sum + least[part.length]) - least[part.length];
          if (sum >= limit) break;
        }
        if (sum < limit) { best = sum; bestGuess = option.g; }
      }
      if (best < cutoff) { exact.set(key, [best, bestGuess]); return best; }
      floor.set(key, cutoff); // every guess was shown to cost at least `cutoff`
      return cutoff;
    }

    /** A proven lower bound on cost(S): the one-guess-deep bound over every guess when affordable. */
    function lowerBound(S) {
      const n = S.length;
      if (n <= 2) return 2 * n - 1;
      const key = S.join(",");
      const known = exact.get(key);
      if (known) return known[0];
      const low = Math.max(least[n], floor.get(key) || 0);
      const first = lead(S);
      return first ? Math.max(low, first.bound) : low;
    }

    /** An upper bound on cost(S): the total of a strategy that takes the guess with the best one-deep bound. */
    function greedy(S) {
      const n = S.length;
      if (n <= 2) return 2 * n - 1;
      const known = exact.get(S.join(","));
      if (known) return known[0];
      let first = lead(S);
      if (!first) { // past BOUNDS: some still-possible guesses, as many as the allowance left pays for (at least one)
        const take = Math.min(n, Math.max(1, Math.floor((BOUNDS - boundsWork) / n)));
        boundsWork += take * n;
        first = leadOf(S, take === n ? S : Array.from({ length: take }, (_, i) => S[Math.floor((i * n) / take)]));
      }
      const pick = first.g;
      let sum = n;
      for (const part of split(S, pick).parts.values()) sum += greedy(part);
      return sum;
    }

    /** cost(X) as { lo, hi }, equal when exact: from the tree `node` (X's node, or null), else solved or bounded. */
    function value(X, node) {
      if (node && exactTree) { const t = total(node); return { lo: t, hi: t }; }
      try {
        const v = solve(X, Infinity);
        return { lo: v, hi: v };
      } catch (err) {
        if (!(err instanceof OutOfWork)) throw err;
        const lo = X.length === secrets.length && wholeFloor !== null ? Math.max(wholeFloor, lowerBound(X)) : lowerBound(X);
        return { lo, hi: node ? total(node) : greedy(X) };
      }
    }

    /**
     * The verdict on guessing `guess` (an index) when the secrets `S` (sorted indices) are left, `node` being
     * the tree's node for S when the game so far followed the tree (else null). Totals over S: `value` of the
     * guess and `best` of any guess, each { lo, hi } (equal when exact), `bestGuess` a code when known.
     */
    function verdict(S, node, guess, budget = WORK) {
      const began = performance.now();
      work = 0;
      boundsWork = 0;
      allowance = budget;
      const n = S.length;
      const { parts, wins } = split(S, guess);
      const useful = wins || parts.size > 1;
      const onTree = node !== null && guess === codes.indexOf(node.guess);
      let guessValue = { lo: n, hi: n }; // the guess's own parts first: their exact values help the search for the best
      if (useful) { // the small parts first: while the work lasts, as many parts as can be are solved exactly
        for (const [a, part] of [...parts].sort((x, y) => x[1].length - y[1].length)) {
          const v = value(part, onTree ? node.next[keyOf(a)] : null);
          guessValue.lo += v.lo;
          guessValue.hi += v.hi;
        }
      }
      let best = value(S, node);
      if (!useful) guessValue = { lo: n + best.lo, hi: n + best.hi }; // a wasted guess: the same secrets are left
      best = { lo: best.lo, hi: Math.min(best.hi, guessValue.hi) }; // the best guess does no worse than this one,
      guessValue.lo = Math.max(guessValue.lo, best.lo); // and this one no better than the best
      const known = exact.get(S.join(","));
      let bestGuess = null;
      if (best.lo === best.hi) {
        if (guessValue.hi === best.lo) bestGuess = codes[guess];
        else if (node && exactTree) bestGuess = node.guess;
        else if (known) bestGuess = codes[known[1]];
      }
      const isExact = best.lo === best.hi && guessValue.lo === guessValue.hi;
      return { exact: isExact, secrets: n, value: guessValue, best, bestGuess, work, ms: performance.now() - began };
    }

    /** Record that cost(S) is `total`, with `g` a best guess: a value proven elsewhere (the shipped book). */
    function know(S, total, g) {
      exact.set(S.join(","), [total, g]);
    }

    return { verdict, know, score }; // score: for the tests
  }

  /** A verdict in words: the guess's mean guesses to finish (itself counted), the best's, the loss; exact or bounds. */
  function verdictText(v) {
    const mean = (total) => (total / v.secrets).toFixed(3);
    const range = (r) => (r.lo === r.hi ? mean(r.lo) : `${mean(r.lo)}–${mean(r.hi)}`);
    const best = `best ${range(v.best)}` + (v.bestGuess ? ` (${v.bestGuess})` : "");
    const togo = (r) => `${range(r)} guesses to go on average, this one included`;
    if (v.exact) {
      if (v.value.lo === v.best.lo) return `Exact: a best guess; ${togo(v.value)}.`;
      return `Exact: ${togo(v.value)}; ${best}: loss ${((v.value.lo - v.best.lo) / v.secrets).toFixed(3)}.`;
    }
    const lossLo = Math.max(0, v.value.lo - v.best.hi) / v.secrets, lossHi = (v.value.hi - v.best.lo) / v.secrets;
    const loss = lossLo === 0 ? `at most ${lossHi.toFixed(3)}` : `${lossLo.toFixed(3)}–${lossHi.toFixed(3)}`;
    return `Bounds: ${togo(v.value)}; ${best}: loss ${loss}.`;
  }

  return { makeJudge, verdictText };
})();
