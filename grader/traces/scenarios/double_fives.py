"""Double Fives scenarios (rulings D1..D6).

Deals and long playouts are generic (the long ones reach the redeal and phase
2). Here: positions mined from seeded playouts for the end of the stock in
phase 1 (a short last deal, the redeal, D5, D6), gaps in the hand row (D5),
spaces (D4), phase 2 with its stock exhausted (D6), and near-won positions in
both phases, from base ranks all round the clock (D2 wraps), ending in a win.
"""

from __future__ import annotations

from solitaire.cards import SUITS, Card, next_rank
from solitaire.moves import action, card_move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import Scatter, mine, near_won, scripted, turn_up_stock

COLUMNS = tuple(f"t{i}" for i in range(1, 11))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
SLOTS = tuple(f"h{i}" for i in range(1, 6))
DEAL, REDEAL, DISCARD = action("deal"), action("redeal"), card_move("s", "w")
DEAL_RULINGS = ["D1"]  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, base: int, rng: Rng, phase: str) -> State:
    suits = list(SUITS) * 2
    rng.shuffle(suits)
    lines = [f"phase {phase}"]
    for foundation, suit in zip(FOUNDATIONS, suits, strict=True):
        rank, cards = base, []
        for _ in range(13):
            cards.append(str(Card(rank, suit)))
            rank = next_rank(rank, wrap=True) or 1
        lines.append(f"{foundation}: " + " ".join(cards))
    return kit.position("\n".join(lines))


def make_scatter(phase: str) -> Scatter:
    def scatter(state: State, card: Card, rng: Rng) -> bool:
        """Columns mostly; in phase 1 also hand slots, the discard pile and the stock
        (all face down but the hand); in phase 2 the waste and the stock."""
        roll = rng.below(10)
        if roll < 6:
            state.put(rng.choice(COLUMNS), [card])
        elif phase == "hand" and roll < 8:
            free = [h for h in SLOTS if not state.piles[h].cards]
            if not free:
                return False
            state.put(free[0], [card])
        elif phase == "hand" and roll < 9:
            state.put("d", [card], face_up=False)
        elif phase == "stock" and roll < 8:
            state.put("w", [card])
        else:
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        return True
    return scatter


def finish(state: State) -> None:
    if state.phase == "stock":
        turn_up_stock(state)


def _hand_gap(state: State) -> bool:
    filled = [bool(state.piles[h].cards) for h in SLOTS]
    return state.phase == "hand" and any(not a and b for a, b in zip(filled, filled[1:], strict=False))


def build(kit: Kit) -> None:
    plans = (("stock", 13, 4), ("stock", 1, 9), ("stock", 5, 16), ("stock", 10, 24),
             ("hand", 12, 5), ("hand", 3, 10), ("hand", 7, 16))
    for index, (phase, base, pulls) in enumerate(plans):
        rng = Rng(f"double-fives-won-{index}")
        neutral = DISCARD if phase == "stock" else DEAL
        near_won(kit, f"near-won-{phase}-{index + 1}", won_state(kit, base, rng, phase), make_scatter(phase),
                 pulls, finish=finish, neutral=neutral, rulings=["D2", "D3", "D4", "D5", "D6"],
                 attempts=12, max_nodes=6000)
    # D2: a foundation emptied completely: any base-rank card may start it again, and the
    # second card of that rank and suit must not go onto its full twin foundation
    for index, phase in enumerate(("stock", "hand")):
        rng = Rng(f"double-fives-stripped-{index}")
        neutral = DISCARD if phase == "stock" else DEAL
        near_won(kit, f"near-won-stripped-{phase}", won_state(kit, 6 + index, rng, phase),
                 make_scatter(phase), 3, finish=finish, neutral=neutral, rulings=["D2"], strip=1,
                 attempts=20, max_nodes=8000)
    near_won(kit, "public-near-won", won_state(kit, 9, Rng("public"), "stock"), make_scatter("stock"), 5,
             finish=finish, neutral=DISCARD, rulings=["D2"], public=True)

    mined = {
        "short-last-deal": (lambda s: s.phase == "hand" and 0 < len(s.piles["s"].cards) < 5, [DEAL, DEAL],
                            ["D5"], "the last deal of phase 1 turns up fewer than five cards; the "
                            "next deal is not allowed"),
        "hand-row-gap": (_hand_gap, [DEAL], ["D5"], "a played hand card leaves its slot empty; deal "
                         "sweeps the rest onto the discard pile in slot order"),
        "redeal": (lambda s: s.phase == "hand" and not s.piles["s"].cards, [DEAL, REDEAL, REDEAL],
                   ["D6", "D5"], "the stock is empty in phase 1: redeal turns the discard pile over as "
                   "the new stock and phase 2 begins; there is no second redeal"),
        "space": (lambda s: any(not s.piles[c].cards for c in COLUMNS), [], ["D4"],
                  "an empty column takes any single available card, at any time"),
        "phase-two-exhausted": (lambda s: s.phase == "stock" and not s.piles["s"].cards,
                                [DISCARD, REDEAL, DEAL], ["D6"],
                                "phase 2 with its stock used up: no discard, no redeal, no deal"),
    }
    for name, (predicate, moves, rulings, description) in mined.items():
        state = mine(kit, predicate, steps=500, action_bias=0.45)
        if state is None:
            raise AssertionError(f"double_fives: no seeded playout reaches {name}")
        scripted(kit, name, state, moves, rulings=rulings, description=description, then=14)
