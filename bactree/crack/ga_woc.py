"""`ga-woc`: a port of the genetic algorithm with wisdom of crowds of Eisert, Mikula and Waigel.

Source: "A Bulls and Cows Solver Using GA and WoC on Python". A candidate's
fitness is bulls + cows / n against the secret, so every fitness
evaluation is one question to the code-maker. Each run evolves a
population of 100 for up to 2000 generations: the first individuals are
uniform strings of one symbol each; parents are paired elitist (the six
fittest form the first 3 pairs, the other pairs are drawn from the fitter
half); one-point crossover cuts in the middle 80% of the key; every second
generation each child has 3 positions mutated. A run stops early when it
asks the key itself (n bulls). After 5 runs the agreement matrix of the
runs' best individuals gives the per-position majority, which is asked as
the last question so its bulls say how many positions are wrong.

The population is scored as one numpy batch per generation
(`Oracle.ask_many`); the method itself is unchanged.
"""

from __future__ import annotations

import numpy as np

from .oracles import Oracle
from .result import CrackResult, Progress


def crack_ga_woc(
    oracle: Oracle,
    progress: Progress | None = None,
    seed: int = 0,
    population: int = 100,
    generations: int = 2000,
    runs: int = 5,
    mutations: int = 3,
) -> CrackResult:
    """Run the GA `runs` times and take the per-position majority; may end with wrong positions."""
    puzzle = oracle.puzzle
    n, k = puzzle.length, puzzle.num_symbols
    rng = np.random.default_rng(seed)
    bests = []
    for _run in range(runs):
        best = _evolve(oracle, rng, n, k, population, generations, mutations, progress)
        if oracle.solved:
            return CrackResult(best, oracle.queries, True, 0)
        bests.append(best)
    found = _majority(np.array(bests), k)
    bulls, _ = oracle.ask(found)
    return CrackResult(found, oracle.queries, oracle.solved, n - bulls)


def _evolve(
    oracle: Oracle,
    rng: np.random.Generator,
    n: int,
    k: int,
    size: int,
    generations: int,
    mutations: int,
    progress: Progress | None,
) -> np.ndarray:
    """One GA run; returns its fittest individual (the key when the run finds it)."""
    people = np.repeat((np.arange(size) % k)[:, None], n, axis=1)
    best, best_fitness = people[0].copy(), -1.0
    low, high = max(1, int(0.1 * n)), max(1, int(0.9 * n))
    pairs = size // 2
    for generation in range(generations):
        bulls, cows = oracle.ask_many(people)
        if oracle.solved:
            return people[int(np.argmax(bulls))].copy()
        fitness = bulls + cows / n
        order = np.argsort(-fitness, kind="stable")
        if fitness[order[0]] > best_fitness:
            best, best_fitness = people[order[0]].copy(), float(fitness[order[0]])
        if progress and generation % 100 == 0:
            progress(oracle.queries, int(bulls.max()))
        # Elitist pairing: the 6 fittest make 3 pairs, the rest come from the fitter half.
        elite = order[: min(6, size)]
        fitter = order[: max(2, size // 2)]
        drawn = rng.choice(fitter, size=(max(0, pairs - len(elite) // 2), 2))
        mothers = np.concatenate([elite[0::2], drawn[:, 0]])
        fathers = np.concatenate([elite[1::2], drawn[:, 1]])
        cuts = rng.integers(low, high + 1, size=len(mothers)) if high > low else np.full(len(mothers), low)
        left = np.arange(n)[None, :] < cuts[:, None]
        first = np.where(left, people[mothers], people[fathers])
        second = np.where(left, people[fathers], people[mothers])
        people = np.concatenate([first, second])[:size]
        if generation % 2 == 1:
            rows = np.repeat(np.arange(len(people)), mutations)
            columns = rng.integers(0, n, size=len(rows))
            people[rows, columns] = rng.integers(0, k, size=len(rows))
    return best


def _majority(bests: np.ndarray, k: int) -> np.ndarray:
    """Per position, the symbol most runs agree on (ties to the lower symbol index)."""
    agreement = np.zeros((bests.shape[1], k), dtype=np.int64)
    for row in bests:
        agreement[np.arange(bests.shape[1]), row] += 1
    return np.argmax(agreement, axis=1).astype(np.int64)
