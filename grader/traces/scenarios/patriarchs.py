"""Patriarchs scenarios (rulings PA1..PA8, X3, X4, X10, X11).

Deals and long playouts (generic) cover the deal (PA1), stock play (PA6) and
the refill from the waste and the stock (PA5). Here: near-won positions that
end in a win, with the stock and the waste in play and the redeal unused or
used (PA2, PA5-PA7); positions where the two foundations of a suit meet, so
that cards may pass between them, a lone base included (PA3); spaces with the
stock and waste empty, the redeal unused (PA5, PA7); decks that put twin aces
and kings early or every base late (PA1); positions mined from seeded playouts
around the redeal (PA7).
"""

from __future__ import annotations

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import action, card_move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import deck_with, mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

POSITIONS = tuple(f"t{i}" for i in range(1, 10))
UP = ("f1", "f2", "f3", "f4")
DOWN = ("f5", "f6", "f7", "f8")
DISCARD, REDEAL = card_move("s", "w"), action("redeal")

DEAL_RULINGS = rulings("PA1", "X3", "X4")  # the rulings of the deal, named by the generic deal traces


def _run(low: int, high: int, suit: str, down: bool = False) -> str:
    ranks = range(high, low - 1, -1) if down else range(low, high + 1)
    return " ".join(str(Card(rank, suit)) for rank in ranks)


def won_state(kit: Kit, rng: Rng, redeals: int, meet: dict[str, int] | None = None) -> State:
    """Every suit's ace foundation A..K and king foundation K..A; a suit in ``meet`` stops
    at ``meet[suit]`` on its ace foundation and one above on its king foundation, its
    other 13 cards (one of each rank) laid on the stock face down for a scatter to take."""
    meet = meet or {}
    up, down = list(SUITS), list(SUITS)
    rng.shuffle(up)
    rng.shuffle(down)
    lines = [f"phase play redeals={redeals}"]
    lines += [f"{f}: {_run(ACE, meet.get(suit, KING), suit)}" for f, suit in zip(UP, up, strict=True)]
    lines += [f"{f}: {_run(meet[suit] + 1 if suit in meet else ACE, KING, suit, down=True)}"
              for f, suit in zip(DOWN, down, strict=True)]
    out = [Card(rank, suit) for suit in meet for rank in range(ACE, KING + 1)]
    rng.shuffle(out)
    if out:
        lines.append("s: " + " ".join(str(c).lower() for c in out))
    return kit.position("\n".join(lines))


def make_scatter(waste_share: float):  # noqa: ANN201 - a Scatter
    """A card goes to an empty tableau position while there is one (PA5 keeps them full
    while the waste or the stock holds a card), else to the waste or the stock."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        spaces = [p for p in POSITIONS if not state.piles[p].cards]
        if spaces:
            state.put(rng.choice(spaces), [card])
        elif rng.below(100) < waste_share * 100:
            state.put("w", [card])
        else:
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        return True

    return scatter


def meeting(kit: Kit, name: str, rng: Rng, meet: dict[str, int], redeals: int, waste_share: float,
            pulls: int = 0) -> None:
    """Suits whose two foundations meet (PA3): their 13 outstanding cards go from the
    stock to the tableau first, then to the waste or stay in the stock."""
    won = won_state(kit, rng, redeals, meet)
    scatter = make_scatter(waste_share)

    def spread(state: State) -> None:
        stock = list(state.piles["s"].cards)
        state.set_pile("s", Pile())
        for card in stock:
            scatter(state, card, rng)
        turn_up_stock(state)

    ranks = ", ".join(f"{suit} at {rank}/{rank + 1}" for suit, rank in meet.items())
    near_won(kit, name, won, scatter, pulls, finish=spread, neutral=DISCARD, attempts=10, max_nodes=8000,
             rulings=rulings("PA3", "PA2", "PA5", "X11"),
             description=f"PA3: the two foundations of a suit meet ({ranks}): the top card of either may "
             "pass onto the other, never a lone base; the trace plays a winning line")


def _deck_bases_last(kit: Kit, seed: int) -> list[Card]:
    deck = engine.shuffled_deck(kit.variation, seed)
    bases = [c for c in deck if c.rank in (ACE, KING)]
    return [c for c in deck if c.rank not in (ACE, KING)] + bases


def build(kit: Kit) -> None:
    for index, (pulls, redeals, share) in enumerate(((4, 0, 0.5), (10, 1, 0.5), (14, 0, 0.7),
                                                     (18, 1, 0.4), (26, 1, 0.6), (34, 0, 0.6))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"patriarchs-won-{index}"), redeals),
                 make_scatter(share), pulls, finish=turn_up_stock, neutral=DISCARD,
                 rulings=rulings("PA2", "PA4", "PA5", "PA6", "X4", "X10"), attempts=14, max_nodes=8000,
                 description=f"{pulls} cards off the foundations, over the tableau, the waste and the stock "
                 f"(PA2-PA6), redeals left {redeals}; the trace plays a winning line found by search")
    near_won(kit, "redeal-to-win", won_state(kit, Rng("patriarchs-redeal"), 1), make_scatter(1.0), 16,
             finish=turn_up_stock, neutral=DISCARD, rulings=rulings("PA7", "PA5", "X4"), attempts=14,
             max_nodes=8000, description="PA7: the stock empty, cards left in the waste: the one redeal "
             "turns the waste over as the stock; the trace plays a winning line")
    for index, (redeals, pulls) in enumerate(((1, 5), (0, 3), (1, 8))):
        near_won(kit, f"spaces-{index + 1}", won_state(kit, Rng(f"patriarchs-spaces-{index}"), redeals),
                 make_scatter(0.5), pulls, neutral=DISCARD, rulings=rulings("PA5", "PA4", "PA7", "PA8"),
                 description="PA5: stock and waste empty: emptied positions stay empty and take no card; "
                 f"redeals left {redeals} (PA7: legal with the waste empty, it changes nothing else)")
    for index, (meet, redeals, share) in enumerate((({"H": 6}, 1, 0.5), ({"S": 1}, 0, 0.5),
                                                    ({"D": 12}, 1, 0.3), ({"C": 3, "H": 9}, 1, 0.6),
                                                    ({"S": 11, "D": 1}, 0, 0.5), ({"C": 7}, 0, 1.0))):
        meeting(kit, f"transfer-{index + 1}", Rng(f"patriarchs-meet-{index}"), meet, redeals, share)
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), 1), make_scatter(0.5), 12,
             finish=turn_up_stock, neutral=DISCARD, rulings=rulings("PA2", "PA5"), public=True)

    twins = [Card(KING, "S"), Card(ACE, "H"), Card(KING, "S"), Card(ACE, "H"), Card(KING, "D"),
             Card(ACE, "D"), Card(ACE, "D"), Card(KING, "H"), Card(ACE, "C"), Card(KING, "C"),
             Card(ACE, "S"), Card(KING, "D")]
    decks = {
        "deal-twin-bases": (deck_with(kit.variation, 41, twins),
                            "the twin of a base ace or king comes right after it: only the first of each "
                            "suit goes to a foundation, the twin is dealt to the tableau"),
        "deal-bases-last": (_deck_bases_last(kit, 43),
                            "every ace and king lies at the end of the deck: the first of each suit goes "
                            "to the foundations, their twins stay at the bottom of the stock"),
    }
    for name, (cards, description) in decks.items():
        builder = kit.trace(name, cards=cards, rulings=rulings("PA1", "X3"), density=PLAYOUT,
                            description="PA1: " + description)
        playout(builder, 30, action_bias=0.3)
        kit.add(builder)

    mined = {
        "redeal-available": (lambda s: not s.piles["s"].cards and s.counters["redeals"] == 1,
                             [REDEAL], rulings("PA7", "X4"),
                             "PA7: the stock is empty: the one redeal turns the waste over, unshuffled, "
                             "its first card drawn first"),
        "redeal-used": (lambda s: not s.piles["s"].cards and s.counters["redeals"] == 0,
                        [REDEAL, DISCARD], rulings("PA7"), "PA7: the redeal is used up: no second redeal"),
        "refill-from-stock": (lambda s: not s.piles["w"].cards and len(s.piles["s"]) < 80
                              and any(m.source in POSITIONS for m in engine.legal_moves(kit.variation, s)
                                      if m.kind == "move"),
                              [], rulings("PA5", "X4", "X10"),
                              "PA5: the waste is empty: a position emptied by a play takes the drawn "
                              "stock card, and the next stock card is turned up"),
    }
    for name, (predicate, moves, ids, description) in mined.items():
        state = mine(kit, predicate, steps=500, action_bias=0.5)
        if state is None:
            raise AssertionError(f"patriarchs: no seeded playout reaches {name}")
        if name == "refill-from-stock":
            moves = [next(m for m in engine.legal_moves(kit.variation, state)
                          if m.kind == "move" and m.source in POSITIONS)]
        scripted(kit, name, state, moves, rulings=ids, description=description, then=16)
