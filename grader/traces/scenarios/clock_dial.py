"""Clock (seed 000, ``clock_dial``) scenarios (rulings CK1..CK6, G4, G5, G11).

Deals and long playouts (generic, every combination of ``primary_suit`` and
``suit_sequence``) cover the deal (CK1, G3, G4), the first card fixing the
primary suit and the drawn card going to the waste. Here: near-won positions
that end in a win, cards on the waste and in the stock, with and without the
redeal left (CK2, CK4, CK6, G5); the same with each option value (CK3 fixed
suits, CK5 position suits); rank piles emptied completely, so the primary suit
must be read from the other piles' bottom cards (CK1 tightened, CK3); an
exhausted stock whose redeal is used, or left, or lost (G5); positions where
the waste top and the drawn card compete, and where a card of the right rank
but the wrong colour or suit is refused (CK4, CK5).
"""

from __future__ import annotations

from collections.abc import Mapping

from solitaire.cards import KING, SUITS, Card
from solitaire.piles import Pile
from solitaire.state import OptionValue, State

from ..build import Kit
from ..builder import Rng, search_win
from .common import mine, near_won, scripted, turn_up_stock
from .seed001 import rulings

PILES = tuple(f"f{rank}" for rank in range(1, KING + 1))
DEAL_RULINGS = rulings("CK1", "G3", "G4")
OTHER = {"C": "DH", "S": "DH", "D": "CS", "H": "CS"}
MATE = {"C": "S", "S": "C", "D": "H", "H": "D"}


def won_state(kit: Kit, rng: Rng, options: Mapping[str, OptionValue] | None = None,
              redeals: int = 1) -> State:
    """Every rank pile full: primary suit, other colour, primary colour, other colour.

    The primary suit is the option's or a random one; with ``suit_sequence`` every
    pile has the same suit at each position, else the red/black order of each pile
    is chosen at random.
    """
    options = dict(options or {})
    fixed = str(options.get("primary_suit", "first"))
    primary = fixed.upper() if fixed != "first" else rng.choice(list(SUITS))
    second = rng.choice(list(OTHER[primary]))
    lines = [f"phase play redeals={redeals}"]
    for rank, pile in enumerate(PILES, start=1):
        if not options.get("suit_sequence"):
            second = rng.choice(list(OTHER[primary]))
        order = [primary, second, MATE[primary], MATE[second]]
        lines.append(f"{pile}: " + " ".join(str(Card(rank, suit)) for suit in order))
    return kit.position("\n".join(lines), options)


def scatter(state: State, card: Card, rng: Rng) -> bool:
    """A card pulled off a rank pile goes onto the waste or (face down) into the stock."""
    if rng.below(10) < 5:
        state.put("w", [card])
    else:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
    return True


def to_waste(state: State, card: Card, rng: Rng) -> bool:
    """A scatter that leaves the stock empty: every pulled card goes onto the waste."""
    state.put("w", [card])
    return True


def _legal(kit: Kit, state: State) -> list[str]:
    from solitaire import engine

    return [str(m) for m in engine.legal_moves(kit.variation, state)]


def _both_fit(kit: Kit, state: State) -> bool:
    """The drawn card and the waste top may both go to their rank piles."""
    legal = _legal(kit, state)
    return any(m.startswith("w>") for m in legal) and any(m.startswith("s>f") for m in legal)


def _drawn_same_colour(state: State, same: bool) -> bool:
    """The drawn card's rank pile has cards, its top of the drawn card's colour (``same``) or not."""
    drawn = state.piles["s"].top
    if drawn is None or not state.piles["s"].top_is_face_up:
        return False
    top = state.piles[PILES[drawn.rank - 1]].top
    return top is not None and (top.color == drawn.color) == same


def build(kit: Kit) -> None:
    near = rulings("CK2", "CK4", "CK6", "G4")
    for index, pulls in enumerate((4, 10, 18, 26)):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"clock-won-{index}")), scatter, pulls,
                 finish=turn_up_stock, rulings=near, attempts=14, max_nodes=6000,
                 description=f"{pulls} cards off the rank piles onto the waste and the stock (CK2, CK4); "
                 "the trace plays a winning line found by search")
    for index, pulls in enumerate((8, 20)):
        last = won_state(kit, Rng(f"clock-last-{index}"), redeals=0)
        near_won(kit, f"no-redeal-{index + 1}", last, scatter, pulls, finish=turn_up_stock,
                 rulings=rulings("CK1", "G5", "CK4"), attempts=20,
                 max_nodes=6000, description=f"CK1, G5: the redeal is used up; {pulls} cards on the waste "
                 "and in the stock; the trace plays a winning line in the last pass")
    for suit in "cdhs":
        options = {"primary_suit": suit}
        near_won(kit, f"primary-{suit}", won_state(kit, Rng(f"clock-primary-{suit}"), options), scatter, 10,
                 finish=turn_up_stock, rulings=rulings("CK3", "CK4"), strip=4, attempts=14,
                 max_nodes=6000, description=f"CK3 with primary_suit={suit}: four rank piles emptied "
                 "completely; only that suit starts them")
    sequence = {"suit_sequence": True}
    for index, (pulls, strip) in enumerate(((10, 0), (14, 3), (6, 10))):
        near_won(kit, f"suit-sequence-{index + 1}", won_state(kit, Rng(f"clock-seq-{index}"), sequence),
                 scatter, pulls, finish=turn_up_stock, rulings=rulings("CK5", "CK3", "CK4"), strip=strip,
                 attempts=14, max_nodes=6000, description=f"CK5 with suit_sequence=true: {strip} piles "
                 f"emptied, {pulls} more cards off; each position's suit is read from the other piles")
    for index, strip in enumerate((5, 12)):
        near_won(kit, f"primary-read-{index + 1}", won_state(kit, Rng(f"clock-read-{index}")), scatter, 6,
                 finish=turn_up_stock, rulings=rulings("CK3", "CK1"), strip=strip, attempts=14,
                 max_nodes=6000, description=f"CK3, CK1 (tightened): {strip} rank piles emptied; the "
                 "primary suit is the bottom card of the piles left, whatever card comes first")
    near_won(kit, "waste-only", won_state(kit, Rng("clock-waste")), to_waste, 14,
             rulings=rulings("G5", "CK1"), attempts=14, max_nodes=6000,
             description="G5: the stock is exhausted with 14 cards on the "
             "waste and the redeal left: the waste is turned over, unshuffled, as the new stock")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), scatter, 6, finish=turn_up_stock,
             rulings=rulings("CK2", "CK4"), public=True)

    # G5: a lost end: the redeal used, the stock empty, the waste top fits nowhere
    lost = won_state(kit, Rng("clock-lost"), redeals=0)
    fourth, third = lost.take("f9"), lost.take("f9")
    lost.put("w", third + fourth)  # the fourth card on top: the colour of f9's top card again
    scripted(kit, "stuck", lost, ["redeal", "w>f9", "s>w"], rulings=rulings("G5", "CK4", "CK6"),
             description="G5: the stock is empty and the redeal is used: no redeal; the waste top "
             "has the colour of its pile's top card (CK4); nothing is legal; not won (CK6)")

    # CK6: twelve piles full, the kings still in the stock and on the waste
    kings = won_state(kit, Rng("clock-kings"))
    fourth, third, second, first = (kings.take("f13") for _ in range(4))
    kings.put("w", first)
    kings.put("s", fourth + third + second, face_up=False)
    turn_up_stock(kings)
    line = search_win(kit.variation, kings, max_nodes=2000)
    if not line:
        raise AssertionError("clock_dial: no winning line from kings-last")
    scripted(kit, "kings-last", kings, line, rulings=rulings("CK6", "CK2"),
             description="CK6: twelve rank piles are full but the kings are still out: not won until "
             "the centre pile holds its four")

    mined = {
        "waste-and-drawn": (lambda s: _both_fit(kit, s), {}, rulings("CK2", "G4", "G11"),
                            "CK2, G4: the drawn card and the waste top both fit their piles; neither "
                            "goes there by itself (G11)"),
        "colour-refused": (lambda s: _drawn_same_colour(s, True), {}, rulings("CK4"),
                           "CK4: the drawn card has the colour of its pile's top: it may only be discarded"),
        "sequence-refused": (lambda s: _drawn_same_colour(s, False) and not any(
            m.startswith("s>f") for m in _legal(kit, s)), sequence, rulings("CK5"),
            "CK5: the drawn card differs in colour from its pile's top but not in the position's suit"),
        "second-pass": (lambda s: s.counters.get("redeals") == 0 and len(s.piles["s"]) > 10, {},
                        rulings("G5", "CK1"), "G5: the second pass, no redeal left"),
    }
    for name, (predicate, mined_options, ids, description) in mined.items():
        state = mine(kit, predicate, options=mined_options, steps=160)
        if state is None:
            raise AssertionError(f"clock_dial: no seeded playout reaches {name}")
        scripted(kit, name, state, [], rulings=ids, description=description, then=16)
