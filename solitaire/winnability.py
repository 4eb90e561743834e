"""How often a variation's deals can be won: the solver over deals 1..N.

The win rate comes with a 95% Wilson score interval whose lower bound counts
undecided deals as lost and whose upper bound counts them as won, so the
interval covers what the budget could not decide.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from . import catalog
from .engine import new_game
from .solver import LOST, UNDECIDED, WON, solve
from .state import OptionValue

Z95 = 1.959963984540054


def wilson_bounds(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``trials``."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """Counts of outcomes over a run of deals, with the solver's effort (states
    expanded, CPU seconds)."""

    won: int = 0
    lost: int = 0
    undecided: int = 0
    nodes: int = 0
    seconds: float = 0.0
    outcomes: dict[int, str] = field(default_factory=dict)

    @property
    def deals(self) -> int:
        return self.won + self.lost + self.undecided

    @property
    def decided(self) -> float:
        return (self.won + self.lost) / self.deals if self.deals else 0.0

    def add(self, seed: int, outcome: str, nodes: int, seconds: float) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)
        self.outcomes[seed] = outcome
        self.nodes += nodes
        self.seconds += seconds

    def interval(self) -> tuple[float, float]:
        """95% bounds on the win rate: undecided as lost (low), as won (high)."""
        low = wilson_bounds(self.won, self.deals)[0]
        high = wilson_bounds(self.won + self.undecided, self.deals)[1]
        return (low, high)

    def summary(self) -> str:
        low, high = self.interval()
        rate = self.won / self.deals if self.deals else 0.0
        return (
            f"won {self.won}  lost {self.lost}  undecided {self.undecided}  of {self.deals}  "
            f"win rate {rate:.1%} (95% {low:.1%}..{high:.1%})  decided {self.decided:.1%}"
        )


def solve_deal(job: tuple[str, dict[str, OptionValue], int, int]) -> tuple[int, str, int, float]:
    """Solve deal ``seed`` of a variation; a picklable unit of work for a process pool.
    Returns the seed, the outcome, the states expanded and the CPU seconds taken."""
    name, options, seed, budget = job
    variation = catalog.load(name)
    started = time.process_time()
    result = solve(variation, new_game(variation, seed, options), budget)
    return seed, result.outcome, result.nodes, time.process_time() - started


def run(
    name: str,
    deals: int,
    budget: int,
    options: dict[str, OptionValue] | None = None,
    jobs: int = 1,
    first: int = 1,
    progress: Callable[[int, str], None] | None = None,
) -> Tally:
    """Solve deals ``first``..``first+deals-1``; ``progress(seed, outcome)`` after each,
    in the order they finish (with ``jobs`` > 1, several processes solve at once)."""
    variation = catalog.load(name)
    resolved = variation.resolve_options(dict(options or {}))
    work = [(name, resolved, seed, budget) for seed in range(first, first + deals)]
    tally = Tally()

    def record(result: tuple[int, str, int, float]) -> None:
        seed, outcome, nodes, seconds = result
        tally.add(seed, outcome, nodes, seconds)
        if progress:
            progress(seed, outcome)

    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for future in as_completed([pool.submit(solve_deal, job) for job in work]):
                record(future.result())
    else:
        for job in work:
            record(solve_deal(job))
    return tally


__all__ = ["WON", "LOST", "UNDECIDED", "Tally", "run", "wilson_bounds", "solve_deal"]
