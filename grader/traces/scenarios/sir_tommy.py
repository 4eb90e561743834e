"""Sir Tommy scenarios (rulings ST1..ST4, G3, G4, G11).

Deals and long playouts (generic, both values of ``foundation_suit``) cover
the deal (ST1, G3) and the drawn card going to stacks (ST3). Here: near-won
positions that end in a win, with cards on the auxiliary stacks and in the
stock (ST2, ST3); the same with foundations built regardless of suit
(``foundation_suit=false``, ST2); a foundation emptied completely, so an ace
must start it again (ST2); the stock exhausted with cards left on the stacks
(not won yet, ST4); positions mined from seeded playouts where a stack top goes
to a foundation while a drawn card waits (ST3 tightened), where the drawn card
fits a foundation but may go onto a stack (G4), and where two stacks are empty.
"""

from __future__ import annotations

from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, turn_up_stock
from .seed001 import rulings, won_state

STACKS = tuple(f"t{i}" for i in range(1, 5))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 5))
SUIT_FREE = {"foundation_suit": False}

DEAL_RULINGS = rulings("ST1", "G3", "G4")  # the rulings of the deal, named by the generic deal traces


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A card pulled off a foundation goes onto an auxiliary stack (mostly) or the stock."""
    if rng.below(10) < 6:
        state.put(rng.choice(STACKS), [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def to_stacks(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the stock empty: every pulled card goes onto a stack."""
    state.put(rng.choice(STACKS), [card])
    return True


def suit_free_won(kit: Kit, rng: Rng) -> State:
    """Every card on the foundations, A..K each, the suits of each rank spread at random."""
    columns: list[list[Card]] = [[] for _ in FOUNDATIONS]
    for rank in range(ACE, KING + 1):
        suits = list(SUITS)
        rng.shuffle(suits)
        for column, suit in zip(columns, suits, strict=True):
            column.append(Card(rank, suit))
    lines = (f"{f}: " + " ".join(map(str, cards)) for f, cards in zip(FOUNDATIONS, columns, strict=True))
    text = "\n".join(lines)
    return kit.position(text, SUIT_FREE)


def _stack_to_foundation_waiting(kit: Kit, state: State) -> bool:
    """A stack top may go to a foundation while the stock still has a drawn card."""
    from solitaire import engine

    return bool(state.piles["s"].cards) and any(
        m.kind == "move" and m.source in STACKS and m.target in FOUNDATIONS
        for m in engine.legal_moves(kit.variation, state)
    )


def _drawn_fits(kit: Kit, state: State) -> bool:
    """The drawn card fits a foundation (and may go onto a stack all the same)."""
    from solitaire import engine

    return any(m.kind == "move" and m.source == "s" and m.target in FOUNDATIONS
               for m in engine.legal_moves(kit.variation, state))


def build(kit: Kit) -> None:
    ids = rulings("ST2", "ST3", "G4")
    for index, pulls in enumerate((4, 8, 13, 20, 28)):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"sir-tommy-won-{index}"), 4), scatter,
                 pulls, finish=turn_up_stock, rulings=ids, attempts=14, max_nodes=6000,
                 description=f"{pulls} cards off the foundations onto the stacks and the stock (ST2, "
                 "ST3); the trace plays a winning line found by search")
    for index, pulls in enumerate((6, 14, 24)):
        near_won(kit, f"suit-free-{index + 1}", suit_free_won(kit, Rng(f"sir-tommy-free-{index}")), scatter,
                 pulls, finish=turn_up_stock, rulings=rulings("ST2", "ST3"), attempts=14, max_nodes=6000,
                 description=f"ST2 with foundation_suit=false: foundations built regardless of suit, "
                 f"{pulls} cards off them; the trace plays a winning line")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("sir-tommy-stripped"), 4), scatter, 3,
             finish=turn_up_stock, rulings=rulings("ST2"), strip=1, attempts=20, max_nodes=6000,
             description="ST2: one foundation emptied completely, its ace on a stack or in the stock: "
             "the ace must start an empty foundation; the trace plays a winning line")
    near_won(kit, "suit-free-stripped", suit_free_won(kit, Rng("sir-tommy-free-stripped")), scatter, 4,
             finish=turn_up_stock, rulings=rulings("ST2"), strip=2, attempts=20, max_nodes=6000,
             description="ST2 with foundation_suit=false: two foundations emptied completely; any ace "
             "starts one, then any card one rank higher follows")
    near_won(kit, "stock-exhausted", won_state(kit, Rng("sir-tommy-exhausted"), 4), to_stacks, 12,
             rulings=rulings("ST4", "ST3"), attempts=12, max_nodes=5000,
             description="ST4: the stock is exhausted, cards left on the stacks: not won until they are "
             "on the foundations; no redeal")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 4), scatter, 6, finish=turn_up_stock,
             rulings=rulings("ST2", "ST3"), public=True)

    mined = {
        "stack-while-drawn": (lambda s: _stack_to_foundation_waiting(kit, s), {}, rulings("ST3"),
                              "ST3 (tightened): a stack top goes to a foundation while the drawn card "
                              "waits to be played"),
        "drawn-fits": (lambda s: _drawn_fits(kit, s), {}, rulings("G4", "ST3"),
                       "G4: the drawn card fits a foundation; it may go onto a stack all the same"),
        "suit-free-fits": (lambda s: _drawn_fits(kit, s) and any(
            s.piles[f].cards and s.piles[f].cards[-1].rank > ACE for f in FOUNDATIONS), SUIT_FREE,
            rulings("ST2"), "ST2 with foundation_suit=false: a card of any suit follows one rank lower"),
        "two-stacks-empty-late": (lambda s: len(s.piles["s"]) < 30 and sum(
            not s.piles[t].cards for t in STACKS) >= 1, {}, rulings("ST3", "G4"),
            "ST3: an empty stack takes the drawn card and nothing from another stack"),
    }
    # G11: an ace is drawn; nothing moves it by itself, and the player may even stack it
    state = mine(kit, lambda s: s.piles["s"].top is not None and s.piles["s"].top.rank == ACE
                 and len(s.piles["s"]) < 48, steps=60)
    if state is None:
        raise AssertionError("sir_tommy: no seeded playout draws an ace")
    scripted(kit, "ace-drawn", state, ["s>t1"], rulings=rulings("G11", "ST2", "G4"), then=20,
             description="G11: a drawn ace waits for the player (nothing goes to a foundation by itself); "
             "it may go onto a stack like any drawn card (G4)")
    for name, (predicate, options, ids, description) in mined.items():
        state = mine(kit, predicate, options=options, steps=60)
        if state is None:
            raise AssertionError(f"sir_tommy: no seeded playout reaches {name}")
        scripted(kit, name, state, [], rulings=ids, description=description, then=16)
