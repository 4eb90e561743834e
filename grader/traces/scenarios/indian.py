"""Indian scenarios (rulings I1..I6, option ``strict_protection``).

Deals and long playouts are generic. Here: positions mined from seeded
playouts with protected cards (I5), columns refilled from a stock of three or
more, two or one cards (I6), spaces after the stock is exhausted (I6), and
near-won positions, with and without stock left, that end in a win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import Move, card_move
from solitaire.piles import FOUNDATION, Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import Scatter, mine, near_won, scripted

COLUMNS = tuple(f"t{i}" for i in range(1, 11))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
DISCARD = card_move("s", "w")
DEAL_RULINGS = ["I1"]  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, options: dict[str, Any]) -> State:
    suits = list(SUITS) * 2
    rng.shuffle(suits)
    lines = []
    for foundation, suit in zip(FOUNDATIONS, suits, strict=True):
        lines.append(f"{foundation}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1)))
    return kit.position("\n".join(lines), options)


def make_scatter(stock_share: float) -> Scatter:
    def scatter(state: State, card: Card, rng: Rng) -> bool:
        """Fill the empty columns first, then columns, the waste and the stock at random."""
        empty = [c for c in COLUMNS if not state.piles[c].cards]
        roll = rng.below(100) / 100
        if empty and roll >= stock_share:
            state.put(empty[0], [card])
        elif roll < stock_share:
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        elif roll < stock_share + 0.15:
            state.put("w", [card])
        else:
            state.put(rng.choice(COLUMNS), [card])
        return True
    return scatter


def _to_waste(state: State, card: Card, rng: Rng) -> bool:
    """Every card pulled off a foundation goes onto the waste."""
    state.put("w", [card])
    return True


def finish(state: State) -> None:
    """Stock face down with its top card face up; a column's bottom card face down when
    it has three cards or more (as dealt)."""
    stock = state.piles["s"]
    state.set_pile("s", Pile(stock.cards, len(stock.cards)))
    state.turn_up("s")
    for column in COLUMNS:
        pile = state.piles[column]
        if len(pile.cards) >= 3:
            state.set_pile(column, Pile(pile.cards, 1))


def _protected_columns(state: State) -> list[str]:
    return [c for c in COLUMNS if len(state.piles[c].cards) == 1] if state.piles["s"].cards else []


def _to_foundation(kit: Kit, state: State, sources: list[str]) -> Move | None:
    for move in engine.legal_moves(kit.variation, state):
        if move.kind == "move" and move.source in sources and kit.variation.kind(move.target) == FOUNDATION:
            return move
    return None


def _fits_onto(kit: Kit, state: State, targets: Sequence[str]) -> bool:
    """Some available single card is one rank below and of another suit than a target's top."""
    for target in targets:
        top = state.piles[target].top
        for source in (*COLUMNS, "s", "w"):
            card = state.piles[source].top
            if source != target and card and top and card.rank == top.rank - 1 and card.suit != top.suit:
                return True
    return False


def short_stock(state: State, keep: int) -> State:
    """``state`` with only the top ``keep`` stock cards left; the others go under the waste."""
    new = state.copy()
    stock = new.piles["s"]
    moved = stock.cards[: len(stock.cards) - keep]
    new.set_pile("s", Pile(stock.cards[len(stock.cards) - keep:], keep - 1))
    new.put_under("w", moved, face_up=True)
    return new


def build(kit: Kit) -> None:
    for strict in (False, True):
        options = {"strict_protection": strict}
        tag = "-strict" if strict else ""
        for index, (pulls, stock_share) in enumerate(((4, 0.0), (9, 0.0), (16, 0.15), (24, 0.2), (32, 0.25))):
            rng = Rng(f"indian-won-{index}{tag}")
            near_won(kit, f"near-won-{index + 1}{tag}", won_state(kit, rng, options),
                     make_scatter(stock_share), pulls, finish=finish, neutral=DISCARD,
                     rulings=["I2", "I3", "I4", "I6"], attempts=14, max_nodes=5000)

        # I5: protected cards, and (strict) packing onto them
        state = mine(kit, lambda s: bool(_protected_columns(s)) and _fits_onto(kit, s, COLUMNS),
                     options=options, steps=300)
        if state is None:
            raise AssertionError("indian: no protected card found")
        scripted(kit, f"protected-card{tag}", state, [], rulings=["I5"], then=14,
                 description="a card dealt face down and turned up is protected while the stock has "
                 "cards: it may go only to a foundation" + (" and nothing may be packed on it" if strict
                                                              else "; cards may be packed onto it"))
        state = mine(kit, lambda s: _fits_onto(kit, s, _protected_columns(s)), options=options, steps=300)
        if state is not None:
            scripted(kit, f"pack-onto-protected{tag}", state, [], rulings=["I5"], then=10,
                     description="packing onto a protected card is "
                     + ("forbidden (strict_protection)" if strict else "allowed"))

        # I6: a column emptied while the stock has cards is refilled at once
        def refill_ready(s: State) -> bool:
            return len(s.piles["s"].cards) >= 3 and _to_foundation(kit, s, _protected_columns(s)) is not None

        state = mine(kit, refill_ready, options=options, steps=400)
        if state is None:
            raise AssertionError("indian: no refill position found")
        for keep in (0, 2, 1):
            start = state if keep == 0 else short_stock(state, keep)
            move = _to_foundation(kit, start, _protected_columns(start))
            assert move is not None
            name = f"refill{'-' + str(keep) + '-left' if keep else ''}{tag}"
            scripted(kit, name, start, [move], rulings=["I6", "I5"], then=12, expect_legal=True,
                     description="the protected card goes to a foundation; its column is refilled "
                     "at once from the stock" + (f", which holds only {keep}" if keep else ""))

        # I6: after exhaustion, protection ends and a space takes any available card
        state = mine(kit, lambda s: not s.piles["s"].cards and any(not s.piles[c].cards for c in COLUMNS),
                     options=options, steps=500, action_bias=0.45)
        if state is None:
            raise AssertionError("indian: no space after exhaustion found")
        scripted(kit, f"exhausted-space{tag}", state, [], rulings=["I6", "I5"], then=16,
                 description="the stock is exhausted: no more protection, a space takes any available card")
    # I3 with two packs: a foundation completed while its twin's cards are still in play (the
    # twin ace must start another foundation, nothing goes onto the full one); and the columns
    # cleared with cards left in the waste, which is not a win yet
    near_won(kit, "near-won-stripped", won_state(kit, Rng("indian-stripped"), {}), make_scatter(0.0), 3,
             finish=finish, neutral=DISCARD, rulings=["I3"], strip=1, attempts=20, max_nodes=8000,
             description="one foundation emptied completely while its twin stays complete; the trace "
             "plays a winning line")
    near_won(kit, "columns-cleared", won_state(kit, Rng("indian-cleared"), {}), _to_waste, 6,
             finish=finish, neutral=DISCARD, rulings=["I3"], attempts=12, max_nodes=5000,
             description="every column empty, the stock exhausted, cards left in the waste: not won "
             "until they are on the foundations")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), {}), make_scatter(0.0), 5,
             finish=finish, neutral=DISCARD, rulings=["I3"], public=True)
