"""Napoleon's Square scenarios (rulings N1..N7).

Deals and long playouts (generic) cover the deal in rounds with its pauses
(N1, N2) and stock play (N3, N4). Here: positions mined from seeded playouts
for what random play meets only by luck (spaces in play and in a pause, the
fourth round, the exhausted stock) and near-won positions that end in a win.
"""

from __future__ import annotations

from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import action, card_move
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted, stock_play_scatter, turn_up_stock

TABLEAU = tuple(f"t{i}" for i in range(1, 13))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
DEAL, DISCARD, REDEAL = action("deal"), card_move("s", "w"), action("redeal")


DEAL_RULINGS = ["N1", "N2"]  # the rulings of the deal, named by the generic deal traces

def won_state(kit: Kit, rng: Rng) -> State:
    suits = list(SUITS) * 2
    rng.shuffle(suits)
    lines = ["phase play rounds=4"]
    for foundation, suit in zip(FOUNDATIONS, suits, strict=True):
        lines.append(f"{foundation}: " + " ".join(str(Card(rank, suit)) for rank in range(ACE, KING + 1)))
    return kit.position("\n".join(lines))


scatter = stock_play_scatter(TABLEAU)
finish = turn_up_stock


def _empty_tableau(state: State) -> bool:
    return any(not state.piles[t].cards for t in TABLEAU)


def build(kit: Kit) -> None:
    for index, pulls in enumerate((3, 6, 10, 14, 20, 28)):
        rng = Rng(f"napoleon-won-{index}")
        near_won(kit, f"near-won-{index + 1}", won_state(kit, rng), scatter, pulls, finish=finish,
                 neutral=DISCARD, rulings=["N3", "N4", "N5", "N6"])
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), scatter, 5, finish=finish,
             neutral=DISCARD, rulings=["N5"], public=True)

    mined = {
        "space-in-play": (lambda s: s.phase == "play" and _empty_tableau(s), ["N6", "N3", "N4"],
                          "a space in play: it takes the top stock card, the top waste card or a king "
                          "from a tableau pile, nothing else"),
        "space-in-pause": (lambda s: s.phase == "pause" and _empty_tableau(s), ["N2", "N6"],
                           "a space during a pause of the deal may not be filled; the next round "
                           "deals a card onto it too"),
        "fourth-round": (lambda s: s.phase == "pause" and s.counters.get("rounds") == 3, ["N2", "N3"],
                         "the fourth round starts play: the stock comes into play, its top card face up"),
        "stock-exhausted": (lambda s: s.phase == "play" and not s.piles["s"].cards, ["N3", "N4", "N7"],
                            "the stock is exhausted: no discard, no redeal (N7); the waste top still plays"),
    }
    for name, (predicate, rulings, description) in mined.items():
        state = mine(kit, predicate, steps=320)
        if state is None:
            raise AssertionError(f"napoleons_square: no seeded playout reaches {name}")
        moves = [REDEAL] if name == "stock-exhausted" else []
        scripted(kit, name, state, moves, rulings=rulings, description=description, then=14)
    # N1: the aces are found anywhere in the deck; a deck with the aces last
    # and first, to exercise the order of the foundations
    from solitaire import engine

    variation = kit.variation
    cards = engine.shuffled_deck(variation, 77)
    aces = [c for c in cards if c.rank == ACE]
    rest = [c for c in cards if c.rank != ACE]
    for name, deck in (("deal-aces-last", rest + aces), ("deal-aces-first", aces + rest)):
        builder = kit.trace(name, cards=deck, rulings=["N1", "N2"],
                            description="the eight aces go to f1..f8 in deck order wherever they lie")
        builder.play(DEAL)
        builder.play(REDEAL)
        kit.add(builder)
