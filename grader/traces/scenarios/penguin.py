"""Penguin scenarios (rulings PG1..PG7, X3, X8, X11; option ``tableau_wrap``).

Deals and playouts (generic) cover the deal (PG1). Here, for both values of
``tableau_wrap``: near-won positions from foundations built from base ranks
all round the clock (K-to-A wraps on foundations and tableau, PG2, PG3), with
groups and full cells; a position whose first foundation was emptied (the
beak's rank is the counter, not a card's place, PG2); constructed positions
for a king on an ace (PG3), a group through the wrap and into a space (PG4,
PG6), an ace as base rank (a space takes a king, PG6), cells (PG5);
positions mined from seeded playouts; decks with the base-rank cards at the
very start or the very end (PG1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solitaire import engine
from solitaire.cards import ACE, KING, Card, next_rank, parse_card
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout
from .common import mine, near_won, scripted

PILES = tuple(f"t{i}" for i in range(1, 8))
CELLS = tuple(f"c{i}" for i in range(1, 8))
FOUNDATIONS = ("f1", "f2", "f3", "f4")
DEAL_RULINGS = ["PG1", "X3"]  # the rulings of the deal, named by the generic deal traces
WRAP = (True, False)


def won_state(kit: Kit, base: int, suits: str, options: dict[str, Any]) -> State:
    """Every card on the foundations, f1..f4 of ``suits``, each from ``base`` round to base - 1."""
    lines = [f"phase play base={base}"]
    for foundation, suit in zip(FOUNDATIONS, suits, strict=True):
        rank, cards = base, []
        for _ in range(13):
            cards.append(str(Card(rank, suit)))
            rank = next_rank(rank, wrap=True) or ACE
        lines.append(f"{foundation}: " + " ".join(cards))
    return kit.position("\n".join(lines), options)


def _packs(card: Card, top: Card | None) -> bool:
    return top is not None and top.suit == card.suit and (
        card.rank == top.rank - 1 or (top.rank == ACE and card.rank == KING))


def make_scatter(group_share: float, cell_share: float):  # noqa: ANN201 - a Scatter
    """A card pulled off a foundation goes into an empty cell (``cell_share``), onto a pile it
    packs on (``group_share`` of the rest, when one fits: groups form), else onto any pile."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        free = [c for c in CELLS if not state.piles[c].cards]
        fitting = [p for p in PILES if _packs(card, state.piles[p].top)]
        if free and rng.chance(cell_share):
            state.put(rng.choice(free), [card])
        elif fitting and rng.chance(group_share):
            state.put(rng.choice(fitting), [card])
        else:
            state.put(rng.choice(PILES), [card])
        return True

    return scatter


def pulled(kit: Kit, base: int, suits: str, placements: Sequence[tuple[str, str]],
           options: dict[str, Any]) -> State:
    """A won position with ``placements`` (card, pile) taken, in order, off the foundation tops."""
    state = won_state(kit, base, suits, options)
    for text, pile in placements:
        card = parse_card(text)
        foundation = FOUNDATIONS[suits.index(card.suit)]
        if state.piles[foundation].top != card:
            raise AssertionError(f"penguin scenario: {card} is not on top of {foundation}")
        state.take(foundation)
        state.put(pile, [card])
    engine.check_state(kit.variation, state)
    return state


def _strip_first(state: State, rng: Rng) -> State:
    """``f1`` emptied completely, its cards scattered over the piles (its base card too)."""
    scatter = make_scatter(0.5, 0.1)
    while state.piles["f1"].cards:
        card = state.piles["f1"].top
        state.take("f1")
        scatter(state, card, rng)
    return state


def _constructed(kit: Kit, options: dict[str, Any], tag: str) -> None:
    wrap = options["tableau_wrap"]
    # base 5, suits H S C D on f1..f4: hearts 5..QH on f1 once 4H 3H 2H AH KH are off
    state = pulled(kit, 5, "HSCD", [("4H", "t2"), ("3H", "t2"), ("2H", "t2"), ("AH", "t1"), ("KH", "c1"),
                                    ("4S", "t4"), ("3S", "t4"), ("2S", "t4"), ("AS", "t5"), ("KS", "t5")],
                   options)
    if wrap:
        moves = ["c1>c2", "t2>t3", "c1>t1", "t1:2>t2", "t5:2>t4", "t4:5>t3", "t2:5>t6", "t6:3>t1",
                 "t6>f1", "t6>f1", "t6>f1", "t6>f1", "t6>f1", "t3>f2", "t3>f2", "t3>f2", "t3>f2", "t3>f2"]
        text = ("a king goes on an ace of its suit (PG3), A-K runs move as groups (PG4); a five-card "
                "group through the wrap into a space, headed by a four, base 5 (PG6); no cell to cell (PG5)")
    else:
        moves = ["c1>c2", "c1>t1", "t5:2>t4", "t1>c2", "c1>f1", "c2>f1", "t2>t3", "t2:3>t3", "t3>f1",
                 "t3>f1", "t3>f1", "t5>t6", "t5>f2", "t5>f2", "t4:3>t6", "t6>f2", "t6>f2", "t6>f2"]
        text = ("without tableau_wrap nothing goes on an ace (PG3) and a king on an ace is no group (PG4); "
                "no cell to cell (PG5); a space takes only a four, base 5 (PG6)")
    scripted(kit, f"king-on-ace{tag}", state, moves, rulings=["PG3", "PG4", "PG5", "PG6", "PG2", "PG7"],
             description=text)

    # base ace: a space takes a king, whatever tableau_wrap says (PG6)
    state = pulled(kit, ACE, "SHDC", [("KS", "c1"), ("QS", "t1"), ("KH", "t2"), ("QH", "c2"), ("JH", "t3")],
                   options)
    moves = ["t1>t4", "c2>t4", "c1>t4", "t1>t4", "t4:2>t5", "t2>t6", "t6>t2", "c2>t6", "c2>t2", "t3>t6",
             "t3>t2", "t2:3>t4", "t5>c1", "c1>f1", "t5>f1", "t4>f2", "t4>f2", "t4>f2"]
    scripted(kit, f"ace-base{tag}", state, moves, rulings=["PG6", "PG4", "PG5", "PG2", "PG7"],
             description="base rank ace: a space takes only a king, alone or heading a group (PG6); "
             "a queen is refused; a cell card fills a space")

    # base 2: a space takes an ace; a king on that ace only with the wrap
    state = pulled(kit, 2, "DCHS", [("AD", "c1"), ("KD", "t1"), ("QD", "t2"), ("AC", "t3")], options)
    moves = ["t1>t4", "c1>t4", "t1>t4", "t2>t1", "t2>t4", "t3>t5", "t4:3>t1", "t1>f1", "t1>f1", "t1>f1",
             "t5>f2"] if wrap else \
        ["t1>t4", "c1>t4", "t1>t4", "t2>t5", "t3>t5", "t2>f1", "t1>f1", "t4>f1", "t5>f2"]
    scripted(kit, f"base-two{tag}", state, moves, rulings=["PG6", "PG3", "PG2"],
             description="base rank 2: a space takes an ace (PG6); a king goes on it only with "
             "tableau_wrap (PG3)")
    if wrap:
        state = pulled(kit, 9, "CDHS", [("8C", "c1"), ("8D", "c2"), ("8H", "c3"), ("8S", "c4"), ("7S", "t1")],
                       options)
        scripted(kit, "cells-last", state, ["c4>f4", "t1>f4", "c1>c5", "c1>f1", "c2>f2", "c3>f3", "c4>f4"],
                 rulings=["PG7", "PG5", "PG2"], description="PG7: the tableau cleared while the cells "
                 "still hold cards is not a win; the last cards go up from the cells")


def build(kit: Kit) -> None:
    for wrap in WRAP:
        options = {"tableau_wrap": wrap}
        tag = "" if wrap else "-no-wrap"
        suit_orders = ("CDHS", "SHDC", "HCSD", "DSCH", "CHSD", "SDHC")
        plan = ((13, 6), (1, 10), (7, 14), (11, 20), (2, 26), (9, 32))
        for index, ((base, pulls), suits) in enumerate(zip(plan, suit_orders, strict=True)):
            near_won(kit, f"near-won-{index + 1}{tag}", won_state(kit, base, suits, options),
                     make_scatter(0.65, 0.12), pulls, attempts=16, max_nodes=8000,
                     rulings=["PG2", "PG3", "PG4", "PG5", "PG6", "PG7", "X8", "X11"],
                     description=f"base {base}: {pulls} cards off the foundations, many laid in groups, "
                     "some in cells (PG2-PG6); the trace plays a winning line found by search")
        rng = Rng(f"penguin-stripped{tag}")
        near_won(kit, f"first-foundation-empty{tag}", _strip_first(won_state(kit, 6, "HDSC", options), rng),
                 make_scatter(0.6, 0.1), 4, attempts=20, max_nodes=8000, rulings=["PG2", "PG1", "PG7"],
                 description="PG2: f1 emptied completely, its base card in play: the base rank is the "
                 "counter, and any empty foundation takes a base-rank card; a winning line follows")
        _constructed(kit, options, tag)
        mined = {
            "cells-full": (lambda s: sum(bool(s.piles[c].cards) for c in CELLS) >= 6, ["PG5"],
                           "six or seven cells taken: a cell holds one card; no cell to cell"),
            "space": (lambda s: any(not s.piles[p].cards for p in PILES), ["PG6", "PG5"],
                      "a space takes only a card one rank below the base rank, from a pile or a cell"),
            "group": (lambda s: any(m.count >= 2 for m in engine.legal_moves(kit.variation, s)),
                      ["PG4", "X8"], "a group at the top of a pile moves, whole or in part"),
        }
        for name, (predicate, ids, description) in mined.items():
            state = mine(kit, predicate, options=options, steps=300, seeds=tuple(range(1, 80)))
            if state is None:
                raise AssertionError(f"penguin: no seeded playout reaches {name}{tag}")
            scripted(kit, name + tag, state, [], rulings=ids, description=description, then=20)
    near_won(kit, "public-near-won", won_state(kit, 4, "CSHD", {}), make_scatter(0.6, 0.1), 6,
             rulings=["PG2", "PG3"], public=True)
    _special_decks(kit)


def _special_decks(kit: Kit) -> None:
    """PG1: the base-rank cards at the very start or end of the deck; an ace and a king as beak."""
    for seed, where, beak_rank in ((91, "first", None), (92, "last", None), (93, "first", ACE),
                                   (94, "last", KING)):
        cards = engine.shuffled_deck(kit.variation, seed)
        if beak_rank is not None:
            beak = next(c for c in cards if c.rank == beak_rank)
            cards.remove(beak)
            cards.insert(0, beak)
        mates = [c for c in cards[1:] if c.rank == cards[0].rank]
        others = [c for c in cards[1:] if c.rank != cards[0].rank]
        deck = [cards[0]] + (mates + others if where == "first" else others + mates)
        name = f"deal-base-cards-{where}-{seed}"
        builder = kit.trace(name, cards=deck, density=PLAYOUT, rulings=["PG1", "X3"],
                            description=f"the other three cards of the base rank lie {where} in the deck "
                            f"(beak {deck[0]})")
        playout(builder, 20)
        kit.add(builder)
