"""Positions shared by the games whose layout piles take same-rank cards, three at most
(Trefoil TF3, Triad TR3): how near-won positions spread pulled cards over the piles, and
what the mined positions look for. Only the pile names differ between the games."""

from __future__ import annotations

from solitaire.cards import ACE, Card
from solitaire.state import State

from ..builder import Rng


class SameRankPiles:
    """Scenario helpers over the layout piles ``piles`` (``t1``..``tN``)."""

    def __init__(self, piles: tuple[str, ...]) -> None:
        self.piles = piles

    def scatter(self, state: State, card: Card, rng: Rng) -> bool:
        """A pulled card goes onto a pile of fewer than three cards, on a same-rank top when one
        fits (half the time), so that piles of one, two and three cards of mixed ranks form."""
        open_piles = [p for p in self.piles if len(state.piles[p]) < 3]
        same = [p for p in open_piles if (top := state.piles[p].top) is not None and top.rank == card.rank]
        if same and rng.below(2) == 0:
            state.put(rng.choice(same), [card])
        else:
            state.put(rng.choice(open_piles), [card])
        return True

    def blocked_by_three(self, state: State) -> str | None:
        """A same-rank move refused only because its target holds three cards, or None."""
        for source in self.piles:
            card = state.piles[source].top
            if card is None or card.rank == ACE:
                continue
            for target in self.piles:
                top = state.piles[target].top
                full = len(state.piles[target]) == 3
                if target != source and top is not None and top.rank == card.rank and full:
                    return f"{source}>{target}"
        return None

    def ace_on_ace(self, state: State) -> str | None:
        """An ace on top of a pile and another ace on top of a pile of fewer than three, or None."""
        aces = [p for p in self.piles if (top := state.piles[p].top) is not None and top.rank == ACE]
        for source in aces:
            for target in aces:
                if target != source and len(state.piles[target]) < 3:
                    return f"{source}>{target}"
        return None

    def onto_dead(self, state: State) -> str | None:
        """A move of a top card onto an emptied (dead) pile, or None."""
        dead = [p for p in self.piles if not state.piles[p].cards]
        source = next((p for p in self.piles if state.piles[p].cards), None)
        return f"{source}>{dead[0]}" if dead and source else None
