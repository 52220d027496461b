"""`windows`: fit codes to every answer, but ask them one window of positions at a time.

Past about 60 positions the composition-fitting annealer of `anneal` stops
finding codes that fit every answer early, and its questions lose their
worth. This cracker keeps the one model (a code for the whole key, fitted
to every (bulls, cows) answer so far by `_fit_kernels.anneal_fit`) but,
after `WHOLE_KEY_SHARE` * n whole-key questions (cheap composition and
position information while fitting is easy), asks about one window of
`WIDTH` positions at a time:

- the candidate's symbols on the window, and elsewhere a filler symbol f
  that the candidate's window lacks and whose count c_f in the key is
  known (from one question of f everywhere, asked when no known filler
  fits). Such a question gets exactly WIDTH + c_f bulls if and only if the
  window is right, so a window is never wrongly taken as found; found
  windows are then frozen in the model.
- when a window takes more than `PROBE_AFTER` * WIDTH questions (the
  annealer is trapped with a few positions wrong), every other question
  holds the candidate on a random half of the window only, which tells the
  annealer where the wrong positions lie.

With every window found, the candidate is the key, asked last. Like
`anneal`, it falls back to count-split past `question_limit`, so it is exact
on every key.
"""

from __future__ import annotations

import numpy as np

from ._fit_kernels import anneal_fit
from .anneal import FIT_TEMPERATURE, _Answers, _generator, question_limit
from .count_split import crack_count_split
from .oracles import Oracle
from .result import CrackResult, Progress

WIDTH = 34  # positions per window (25 and 50 measured worse at n = 100)
WHOLE_KEY_SHARE = 0.2  # whole-key questions first, per position of the key (0.08-0.3 measured)
PROBE_AFTER = 2.5  # a window's questions, per position, before half-window probes (1.5: 203.7 questions at n = 100)
MOVES = 1_000_000  # fitting moves per question (300,000: 208.1 questions at n = 100 with probes from 1.5, a third of the time)
WINDOWS_MAX_LENGTH = 100  # `best` uses windows for keys with repeats up to this length (at 150 a window got trapped)


def crack_windows(oracle: Oracle, progress: Progress | None = None, seed: int = 0) -> CrackResult:
    """Crack the oracle's secret exactly: fitted codes asked window by window (keys with repeats)."""
    puzzle = oracle.puzzle
    n, k = puzzle.length, puzzle.num_symbols
    rng = _generator(seed)
    candidate = rng.integers(0, k, n).astype(np.int64)
    asked = _Answers(n, k)
    limit = question_limit(n, k)
    whole_key = int(WHOLE_KEY_SHARE * n)
    filler_counts: dict[int, int] = {}
    found = 0  # positions before `found` are in found windows
    window_questions = 0
    while oracle.queries < limit:
        anneal_fit(
            candidate, asked.guesses, asked.bulls, asked.totals, asked.composition, asked.count,
            asked.head, asked.next, np.arange(found, n), False, MOVES, FIT_TEMPERATURE,
            seed * 1_000_003 + oracle.queries,
        )
        end = min(n, found + WIDTH)
        window = candidate[found:end]
        lacking = np.flatnonzero(np.bincount(window, minlength=k) == 0)
        # windows need a filler the window lacks; with every symbol in it, ask the whole key
        windowed = oracle.queries >= whole_key and found < n and len(lacking) > 0
        if windowed:
            fillers = [f for f in filler_counts if f not in window]
            if not fillers:  # count a symbol the window lacks, to fill the rest with
                filler = int(lacking[0])
                if _ask(oracle, asked, np.full(n, filler, dtype=np.int64)):
                    return asked.checked(CrackResult(np.full(n, filler, dtype=np.int64), oracle.queries, True, 0), oracle)
                filler_counts[filler] = int(asked.bulls[asked.count - 1])
                continue
            filler = fillers[0]
            question = np.full(n, filler, dtype=np.int64)
            question[found:end] = window
            probe = window_questions > PROBE_AFTER * WIDTH and window_questions % 2
            if probe:
                question[found:end][rng.random(end - found) < 0.5] = filler
        else:
            question = candidate.copy()
        if asked.seen(question):  # nudge the candidate off an asked code
            candidate[rng.integers(found, n)] = rng.integers(0, k)
            continue
        if _ask(oracle, asked, question):
            return asked.checked(CrackResult(question, oracle.queries, True, 0), oracle)
        if windowed:
            window_questions += 1
            if not probe and asked.bulls[asked.count - 1] == end - found + filler_counts[filler]:
                found, window_questions = end, 0  # the window is right: freeze it
        if progress:
            progress(oracle.queries, found)
    return asked.checked(crack_count_split(oracle, progress), oracle)


def _ask(oracle: Oracle, asked: _Answers, question: np.ndarray) -> bool:
    """Ask `question` and record its answer; True when it was the key."""
    bulls, cows = oracle.ask(question)
    if not oracle.solved:
        asked.add(question, bulls, bulls + cows)
    return oracle.solved
