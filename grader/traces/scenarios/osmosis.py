"""Osmosis scenarios (rulings OS1..OS8, X1, X3, X7, X10).

Deals and long playouts (generic) cover the deal (OS1) and passes through the
stock with redeals (OS6, OS7). Here: near-won positions that end in a win,
some with base-rank cards still in play (OS3); constructed positions for each
foundation rule (f1 takes any rank of its suit, base cards start the lowest
empty foundation, a foundation takes ranks present in the one above it at
that moment), the last short turns of the stock, a redeal, stock and waste
both empty, a space that is never filled, and a pile's next card turning up;
every pile cleared with cards left in the waste (not won yet).

The helpers take ``tableau_down``: whether cards under a pile's top lie face
down (Osmosis) or face up (Peek, whose scenarios reuse this module).
"""

from __future__ import annotations

from solitaire.cards import Card, parse_card
from solitaire.moves import action, card_move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import rulings

PILES = ("t1", "t2", "t3", "t4")
FOUNDATIONS = ("f1", "f2", "f3", "f4")
DRAW = card_move("s", "w")
REDEAL = action("redeal")

DEAL_RULINGS = rulings("OS1", "X3")  # the rulings of the deal, named by the generic deal traces


def consistent(state: State) -> bool:
    """Whether the foundations could have been built: f1 started, each fk's ranks present
    in f(k-1), every started foundation on a base-rank card."""
    piles = [state.piles[f].cards for f in FOUNDATIONS]
    if not piles[0]:
        return False
    base = piles[0][0].rank
    for above, below in zip(piles, piles[1:], strict=False):
        if not {c.rank for c in below} <= {c.rank for c in above}:
            return False
    return all(not cards or cards[0].rank == base for cards in piles)


def won_osmosis(kit: Kit, rng: Rng) -> State:
    """Every card on the foundations: a random base rank, suits in random order, each
    foundation's other ranks in a random order of its own."""
    base = 1 + rng.below(13)
    suits = list("CDHS")
    rng.shuffle(suits)
    lines = []
    for index, suit in enumerate(suits):
        others = [rank for rank in range(1, 14) if rank != base]
        rng.shuffle(others)
        cards = [Card(base, suit)] + [Card(rank, suit) for rank in others]
        lines.append(f"{FOUNDATIONS[index]}: " + " ".join(str(c) for c in cards))
    return kit.position("\n".join(lines))


def _to_waste(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card goes onto the waste, as long as the foundations stay consistent."""
    if not consistent(state):
        return False
    state.put("w", [card])
    return True


def make_scatter():  # noqa: ANN201 - a Scatter
    """A card pulled off a foundation goes onto a tableau pile (mostly), the waste or the
    stock, as long as the foundations stay consistent; f1's base card never moves."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        if not consistent(state):
            return False
        roll = rng.below(100)
        if roll < 60:
            state.put(rng.choice(PILES), [card])
        elif roll < 80:
            state.put("w", [card])
        else:
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        return True

    return scatter


def finisher(tableau_down: bool):  # noqa: ANN201 - a Finish
    """Only each pile's top card face up (Osmosis), or every card (Peek); stock face down."""

    def finish(state: State) -> None:
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards, len(stock.cards)))
        for pile in PILES:
            cards = state.piles[pile].cards
            state.set_pile(pile, Pile(cards, max(0, len(cards) - 1) if tableau_down else 0))

    return finish


def position(kit: Kit, text: str, rest: str = "s", down: bool = True) -> State:
    """A constructed position: the piles of ``text``; every card not named there goes to
    ``rest`` (in a fixed order) under the named cards of that pile, face down if ``down``."""
    named = {parse_card(token) for line in text.strip().splitlines()
             for token in line.partition(":")[2].split()}
    missing = [str(c) for c in kit.variation.deck.pack() if c not in named]
    lines = {line.partition(":")[0].strip(): line.partition(":")[2]
             for line in text.strip().splitlines()}
    lines[rest] = " ".join(c.lower() if down else c for c in missing) + " " + lines.get(rest, "")
    return kit.position("\n".join(f"{name}: {cards}" for name, cards in lines.items()))


def pile(cards: str, tableau_down: bool) -> str:
    """A tableau pile written face up, turned down but its top card for Osmosis."""
    tokens = cards.split()
    if not tableau_down:
        return " ".join(tokens)
    return " ".join([t.lower() for t in tokens[:-1]] + tokens[-1:])


def build_scenarios(kit: Kit, ids: dict[str, list[str]], tableau_down: bool, tag: str) -> None:
    """Every scenario of the Osmosis family; ``ids`` maps a topic to its ruling ids."""
    finish = finisher(tableau_down)
    for index, pulls in enumerate((4, 8, 12, 18, 26, 34)):
        near_won(kit, f"near-won-{index + 1}", won_osmosis(kit, Rng(f"{tag}-won-{index}")), make_scatter(),
                 pulls, finish=finish, neutral=DRAW, rulings=ids["near"], keep=0, attempts=16,
                 max_nodes=6000,
                 description=f"{pulls} cards off the foundations, spread over piles, waste and stock, "
                 "base cards of f2..f4 among them; the trace plays a winning line found by search")
    near_won(kit, "piles-cleared", won_osmosis(kit, Rng(f"{tag}-cleared")),
             _to_waste, 6, finish=finish,
             neutral=DRAW, rulings=ids["won"], keep=0, attempts=12, max_nodes=5000,
             description="every pile empty, the stock exhausted, cards left in the waste: not won "
             "until they are on the foundations")
    near_won(kit, "public-near-won", won_osmosis(kit, Rng(f"{tag}-public")), make_scatter(), 5,
             finish=finish, neutral=DRAW, rulings=ids["near"], keep=0, public=True)

    down = lambda cards: pile(cards, tableau_down)  # noqa: E731
    # OS3: base cards start f2, f3, f4 in that order, never out of order
    state = position(kit, f"""
        f1: 7D 2D
        t1: {down("9C 5S 7S")}
        t2: {down("4D 8S 7H")}
        t3: {down("KC 8H")}
        t4: {down("3C 9S 8D")}
        w: 2C 6H 7C
    """)
    scripted(kit, "base-cards-in-order", state,
             ["t1>f3", "t1>f4", "t3>f2", "t1>f2", "t2>f4", "t2>f3", "w>f1", "w>f4", "t3>f3", "t4>f1"],
             rulings=ids["base"], then=10,
             description="base cards (sevens) start the lowest-numbered empty foundation only: f2, "
             "then f3, then f4; a card of another rank never starts one")
    # OS2, OS4: f1 takes any rank of its suit; fk takes ranks present in f(k-1) at that moment
    state = position(kit, f"""
        f1: 7D KD 3D
        f2: 7S
        f3: 7H
        t1: {down("2C 5S")}
        t2: {down("6C KS")}
        t3: {down("4C 5D")}
        t4: {down("TC KH")}
        w: 9D 3S QD
    """)
    scripted(kit, "ranks-from-above", state,
             ["t1>f2", "t4>f3", "t4>f2", "w>f1", "w>f2", "t2>f2", "t4>f3", "t1>f1", "t3>f1", "t1>f2",
              "t3>f2"],
             rulings=ids["above"], then=12,
             description="f1 takes any card of its suit (QD, 5D); f2 takes a spade whose rank is in f1 "
             "at that moment (5S only after 5D), f3 a heart whose rank is in f2 (KH only after KS); "
             "never a card of another suit")
    # OS6, OS7, X7: the last short turns, then a redeal keeps the order
    state = position(kit, f"""
        f1: 7D
        t1: {down("9C 5S")}
        t2: {down("4D JD")}
        t3: {down("8H 6D")}
        t4: {down("8D 9S")}
        w: 2C 6H 7C 2H 4C AC
        s: 3s 3d 9d qd qh
    """, rest="w", down=False)
    scripted(kit, "short-turns-and-redeal", state,
             ["redeal", "s>w", "s>w", "s>w", "redeal", "s>w", "s>w"], rulings=ids["stock"], then=20,
             description="s>w turns three cards, then the last two; no redeal while the stock has "
             "cards; the redeal turns the waste over unshuffled, its first card drawn first")
    # OS7: stock and waste both empty: no action at all
    state = position(kit, f"""
        f1: 7D 8D 9D TD JD QD KD AD 2D 3D 4D 5D 6D
        f2: 7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C
        f3: 7H 8H 9H TH JH QH KH AH 2H 3H 4H
        f4: 7S 8S 9S TS JS QS KS AS 2S 3S
        t1: {down("4S 5H 6C")}
        t2: {down("6H")}
        t3: {down("5S")}
        t4: 6S
    """)
    scripted(kit, "stock-and-waste-empty", state, ["redeal", "s>w", "t4>f1", "t2>f3", "t3>f3"],
             rulings=ids["empty"], then=10,
             description="stock and waste empty: no s>w and no redeal; a card of the wrong suit "
             "or a rank absent from the foundation above is refused")
    # OS5: no building, spaces never filled; X10: the next card turns up
    state = position(kit, f"""
        f1: 7D 2D
        f2: 7S 2S
        t2: {down("4D 8S 3H 2H")}
        t3: {down("KC 8H 2C")}
        t4: {down("3C 9S 8D 3D")}
        w: 6H 7C
    """)
    scripted(kit, "no-building-no-spaces", state,
             ["t2>t1", "w>t1", "t3>t4", "w>t3", "t2:2>f1", "t4>f1", "t4>t2", "t3:2>t1", "t2>t3"],
             rulings=ids["space"], then=12,
             description="nothing goes onto a pile or into an empty pile (t1); a played top card "
             "uncovers the next one")

    mined = {
        "waste-without-stock": (lambda s: not s.piles["s"].cards and len(s.piles["w"].cards) > 3,
                                ids["stock"], [REDEAL],
                                "the stock is exhausted: redeal turns the waste over as the stock"),
        "space-in-play": (lambda s: any(not s.piles[p].cards for p in PILES) and bool(s.piles["s"].cards),
                          ids["space"], [],
                          "a pile emptied by play is never filled; the game goes on from the others"),
    }
    for name, (predicate, ruling_ids, moves, description) in mined.items():
        found = mine(kit, predicate, steps=400, action_bias=0.35)
        if found is None:
            raise AssertionError(f"{kit.variation.name}: no seeded playout reaches {name}")
        scripted(kit, name, found, moves, rulings=ruling_ids, description=description, then=24)


def build(kit: Kit) -> None:
    ids = {
        "near": rulings("OS2", "OS3", "OS4", "OS5", "OS6", "OS7", "X10"),
        "won": rulings("OS8", "OS5"),
        "base": rulings("OS3", "OS5"),
        "above": rulings("OS2", "OS4", "OS5"),
        "stock": rulings("OS6", "OS7", "X1", "X7"),
        "empty": rulings("OS7", "OS4"),
        "space": rulings("OS5", "X10"),
    }
    build_scenarios(kit, ids, tableau_down=True, tag="osmosis")
