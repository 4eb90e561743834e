"""Indian: are the stock-empty positions the solver gets stuck in lost? (docs/winnability.md,
"Indian's estimates, tried and dropped").

    PYTHONPATH=$PWD python bench/indian_endgames.py SEED BUDGET SUB EVERY

solves deal SEED with BUDGET nodes, keeping every state expanded with the stock empty (a
``hopeless`` that records and answers False; the solver asks it once per expansion), then
solves every EVERY-th of them with SUB nodes and prints how many are won, lost, undecided.
"""

from __future__ import annotations

import sys
import time

from solitaire import catalog
from solitaire.engine import new_game
from solitaire.solver import solve
from solitaire.state import State

V = catalog.load("indian")


class Recorder(type(V)):  # type: ignore[misc]
    states: list[State] = []

    def hopeless(self, state: State) -> bool:
        if not state.piles["s"].cards:
            self.states.append(state)
        return False


def main(argv: list[str]) -> None:
    if len(argv) < 4 or "--help" in argv:
        print(__doc__)
        return
    seed, budget, sub, every = (int(a) for a in argv[:4])
    recorder = Recorder()
    solve(recorder, new_game(V, seed), budget)
    sample = recorder.states[::every]
    outcomes: dict[str, int] = {}
    nodes = 0
    started = time.process_time()
    for state in sample:
        result = solve(V, state, sub)
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
        nodes += result.nodes
    print(
        f"deal {seed}: {len(recorder.states)} stock-empty expansions of {budget}, {len(sample)} solved "
        f"at {sub} nodes: {outcomes}, {nodes} nodes, {time.process_time() - started:.1f} CPU s",
        flush=True,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
