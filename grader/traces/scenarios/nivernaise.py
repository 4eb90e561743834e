"""Nivernaise scenarios (rulings NI1..NI8, X3, X5, X6, X10; option ``foundation_transfer``).

Deals and long playouts (generic, both option values) cover the deal (NI1,
NI2) and the stock (NI6, NI7). Here: near-won positions that end in a win,
with cards in the cells, squared piles and stock or redeals left; a
foundation emptied completely so that its base card must start it again
(NI3); decks that put aces and kings, twins included, in the cells (NI1,
NI3); every pile cleared with cards left in the cells (NI8, no redeal of an
empty tableau); two foundations of a suit that meet (option); and positions
mined from seeded playouts around refills (NI5), short stocks (NI6), spaces
with the stock exhausted (NI4) and each redeal (NI7, X6).
"""

from __future__ import annotations

from typing import Any

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import Move, action
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, Rng, playout, search_win
from .common import Scatter, deck_with, mine, near_won, pull_from_foundations, scripted
from .seed001 import rulings

CELLS = tuple(f"c{i}" for i in range(1, 9))
PILES = tuple(f"t{i}" for i in range(1, 7))
DEAL, REDEAL = action("deal"), action("redeal")
TRANSFER = {"foundation_transfer": True}
OPTION_SETS: tuple[tuple[str, dict[str, bool]], ...] = (("", {}), ("-transfer", TRANSFER))

DEAL_RULINGS = rulings("NI1", "NI2", "X3", "X5")  # the rulings of the deal, named by the generic deal traces


def won_state(kit: Kit, rng: Rng, options: dict[str, Any], redeals: int) -> State:
    """f1..f4 built A-K and f5..f8 built K-A, each set one suit each, suits shuffled."""
    lines = [f"phase play redeals={redeals}"]
    for index, ranks in ((1, range(ACE, KING + 1)), (5, range(KING, ACE - 1, -1))):
        suits = list(SUITS)
        rng.shuffle(suits)
        for offset, suit in enumerate(suits):
            lines.append(f"f{index + offset}: " + " ".join(str(Card(rank, suit)) for rank in ranks))
    return kit.position("\n".join(lines), options)


def make_scatter(stock_share: float, cell_share: float) -> Scatter:
    """A pulled card goes onto the stock (face down), into an empty cell, or onto a pile."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        roll = rng.below(100) / 100
        empty_cells = [c for c in CELLS if not state.piles[c].cards]
        if roll < stock_share:
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        elif empty_cells and roll < stock_share + cell_share:
            state.put(rng.choice(empty_cells), [card])
        else:
            state.put(rng.choice(PILES), [card])
        return True

    return scatter


def _to_cells(state: State, card: Card, rng: Rng) -> bool:
    empty = [c for c in CELLS if not state.piles[c].cards]
    if not empty:
        return False
    state.put(empty[0], [card])
    return True


def _to_middle_piles(state: State, card: Card, rng: Rng) -> bool:
    """A pulled card goes onto one of t2..t5."""
    state.put(rng.choice(PILES[1:5]), [card])
    return True


def make_finish(kit: Kit):  # noqa: ANN201 - a Finish
    """Piles squared (NI2: only the top card face up), the stock face down, and the
    refill of empty piles done while the stock has cards (NI5), as play leaves them."""

    def finish(state: State) -> None:
        for pile in PILES:
            cards = state.piles[pile].cards
            state.set_pile(pile, Pile(cards, max(0, len(cards) - 1)))
        stock = state.piles["s"]
        state.set_pile("s", Pile(stock.cards, len(stock.cards)))
        kit.variation.after_move(state, DEAL)

    return finish


def _single_card_play(kit: Kit, state: State) -> Move | None:
    """A legal move that empties a pile (its last card to a foundation or a cell)."""
    for move in engine.legal_moves(kit.variation, state):
        if move.kind == "move" and move.source in PILES and len(state.piles[move.source]) == 1:
            return move
    return None


def _shorten_stock(state: State, keep: int, avoid: str) -> State:
    """``state`` with only the top ``keep`` stock cards left in the stock; the others are
    slid face down under the piles other than ``avoid``, in turn (their tops unchanged)."""
    state = state.copy()
    stock = state.piles["s"]
    rest, kept = stock.cards[:-keep], stock.cards[-keep:]
    state.set_pile("s", Pile(kept, keep))
    others = [p for p in PILES if p != avoid and state.piles[p].cards]
    for index, card in enumerate(rest):
        state.put_under(others[index % len(others)], [card])
    return state


def _clear_piles(state: State, piles: tuple[str, ...]) -> State:
    """``state`` with ``piles`` empty: their cards slid face down under the other piles."""
    state = state.copy()
    others = [p for p in PILES if p not in piles and state.piles[p].cards]
    cards = [card for pile in piles for card in state.take(pile, len(state.piles[pile]))]
    for index, card in enumerate(cards):
        state.put_under(others[index % len(others)], [card])
    return state


def _tableau_cards(state: State) -> int:
    return sum(len(state.piles[p]) for p in PILES)


def _near_won(kit: Kit) -> None:
    finish = make_finish(kit)
    plans = ((4, 0.3, 0.3, 0), (8, 0.4, 0.2, 1), (12, 0.4, 0.2, 2), (18, 0.5, 0.15, 2), (26, 0.5, 0.1, 2))
    for tag, options in OPTION_SETS:
        for index, (pulls, stock, cells, redeals) in enumerate(plans):
            name = f"near-won-{index + 1}{tag}"
            near_won(kit, name, won_state(kit, Rng(f"nivernaise-won-{index}{tag}"), options, redeals),
                     make_scatter(stock, cells), pulls, finish=finish, neutral=DEAL,
                     rulings=rulings("NI3", "NI4", "NI5", "NI6", "NI7", "X10"), attempts=16,
                     max_nodes=8000,
                     description=f"{pulls} cards off the foundations, in squared piles, cells and the "
                     f"stock, {redeals} redeals left (NI3-NI7); the trace plays a winning line")
        for strip in (1, 2):
            name = f"near-won-stripped-{strip}{tag}"
            near_won(kit, name, won_state(kit, Rng(f"nivernaise-stripped-{strip}{tag}"), options, 1),
                     make_scatter(0.3, 0.3), 2, finish=finish, neutral=DEAL, rulings=rulings("NI3"),
                     strip=strip, attempts=24, max_nodes=12000,
                     description=f"NI3: {strip} foundation(s) emptied completely, their twins still "
                     "built: a base card may start only a foundation of its own set whose suit has "
                     "none there; the trace plays a winning line")
        near_won(kit, f"piles-cleared{tag}", won_state(kit, Rng(f"nivernaise-cleared{tag}"), options, 2),
                 _to_cells, 8, finish=finish, neutral=DEAL, rulings=rulings("NI8", "NI7", "NI4"),
                 attempts=12, max_nodes=5000,
                 description="NI8: every pile and the stock empty, cards left in the cells: not won "
                 "until they are on the foundations; no redeal of an empty tableau (NI7)")
    near_won(kit, "public-near-won", won_state(kit, Rng("public"), {}, 2), make_scatter(0.3, 0.3), 5,
             finish=finish, neutral=DEAL, rulings=rulings("NI3", "NI5"), public=True)


def _meeting(kit: Kit) -> None:
    """Option ``foundation_transfer``: the two foundations of a suit meet (f1 A..7,
    its king foundation K..8); the transfer is legal both ways only with the option."""
    for tag, options in OPTION_SETS:
        state = won_state(kit, Rng(f"nivernaise-meet{tag}"), options, 1)
        suit = state.piles["f1"].cards[0].suit
        twin = next(f"f{i}" for i in range(5, 9) if state.piles[f"f{i}"].cards[0].suit == suit)
        loose = list(state.take("f1", 6)) + list(state.take(twin, 7))  # f1 up to 7, twin down to 8
        rng = Rng(f"nivernaise-meet-scatter{tag}")
        for extra in ("f2", "f6"):
            loose += list(state.take(extra, 3))
        rng.shuffle(loose)
        for index, card in enumerate(loose):
            target = CELLS[index] if index < 4 else ("s" if index % 3 == 0 else PILES[index % 6])
            state.put(target, [card], face_up=target != "s")
        make_finish(kit)(state)
        moves = [f"f1>{twin}", f"{twin}>f1", f"f1>{twin}", "f2>f6", "f6>f2", f"{twin}>c8"]
        builder = kit.trace(f"foundations-meet{tag}", state=state, options=options,
                            rulings=rulings("NI3", "X11"),
                            description="the ace and king foundations of one suit meet: with option "
                            "foundation_transfer the top card passes from one to the other; without "
                            "it, cards never leave a foundation")
        for move in moves:
            builder.play(move)
        line = search_win(kit.variation, builder.state, max_nodes=8000)
        if line is None:
            raise AssertionError(f"nivernaise: no winning line in foundations-meet{tag}")
        for step in line:
            builder.play(step)
        kit.add(builder)


def _deals(kit: Kit) -> None:
    """NI1: no check of the cells; aces and kings there, twins of one suit included."""
    fronts = {
        "deal-cells-twins": [Card(ACE, "H"), Card(ACE, "H"), Card(KING, "S"), Card(KING, "S"),
                             Card(ACE, "C"), Card(KING, "D"), Card(2, "H"), Card(12, "S")],
        "deal-cells-aces-kings": [Card(ACE, s) for s in SUITS] + [Card(KING, s) for s in SUITS],
    }
    for tag, options in OPTION_SETS:
        for name, front in fronts.items():
            builder = kit.trace(name + tag, cards=deck_with(kit.variation, 41, front), options=options,
                                rulings=rulings("NI1", "NI3", "X3"), density=PLAYOUT,
                                description="NI1: the cells are dealt as the deck comes, aces and kings "
                                "and their twins included; one foundation per suit in each set (NI3)")
            playout(builder, 30)
            kit.add(builder)


def _mined(kit: Kit) -> None:
    cases = {
        "refill": (lambda s: bool(s.piles["s"].cards) and _single_card_play(kit, s) is not None,
                   "single", rulings("NI5", "X5", "X10"),
                   "NI5: a pile's last card leaves while the stock has cards: the pile is dealt a "
                   "packet of four at once, only its top card face up"),
        "deal-short-stock": (lambda s: 0 < len(s.piles["s"]) < 24 and len(s.piles["s"]) % 4 != 0,
                             "deal", rulings("NI6", "X5", "NI2", "X1"),
                             "NI6: the stock holds fewer than 24 cards: the deal goes pile by pile, four "
                             "at a time, as far as the stock goes; covered cards turn face down"),
        "space-stock-empty": (lambda s: not s.piles["s"].cards and _tableau_cards(s) >= 12,
                              "spaces", rulings("NI4", "NI5"),
                              "NI4, NI5: with the stock empty a space stays empty: nothing goes into it"),
        "redeal-first": (lambda s: not s.piles["s"].cards and s.counters["redeals"] == 2, "redeal",
                         rulings("NI7", "X6", "X1"),
                         "NI7, X6, X1: the first redeal, offered whether or not other moves remain: "
                         "the piles are picked up in reverse, t1's cards dealt first, then a packet "
                         "to each pile"),
        "redeal-second": (lambda s: not s.piles["s"].cards and s.counters["redeals"] == 1, "redeal",
                          rulings("NI7", "X6"), "NI7: the second and last redeal"),
        "redeals-used": (lambda s: not s.piles["s"].cards and s.counters["redeals"] == 0
                         and _tableau_cards(s) > 0, "redeal", rulings("NI7", "NI6"),
                         "NI7: both redeals used: no third redeal, no deal"),
    }
    for name, (predicate, play, ids, description) in cases.items():
        for tag, options in OPTION_SETS:
            state = mine(kit, predicate, options=options, steps=500, action_bias=0.25)
            if state is None:
                raise AssertionError(f"nivernaise: no seeded playout reaches {name}{tag}")
            if play == "single":
                moves: list[Move] = [_single_card_play(kit, state)]  # type: ignore[list-item]
            elif play == "deal":
                moves = [DEAL]
            elif play == "redeal":
                moves = [REDEAL, DEAL]
            else:
                moves = []
                state = _clear_piles(state, ("t2", "t5"))
                state.counters["redeals"] = 0
            scripted(kit, name + tag, state, moves, rulings=ids, description=description, then=16)
            if name == "refill":
                move = moves[0]
                scripted(kit, "refill-short-stock" + tag, _shorten_stock(state, 2, move.source), moves,
                         rulings=rulings("NI5", "X5"), then=16,
                         description="NI5: a pile is emptied with two cards left in the stock: the "
                         "refill deals what is left")


def _few_cards_redeal(kit: Kit) -> None:
    """NI7, NI5: a redeal of 14 cards: packets reach t1..t4 (the last one short); t5 and t6
    stay empty. Then the trace plays a winning line."""
    for tag, options in OPTION_SETS:
        state = won_state(kit, Rng(f"nivernaise-few{tag}"), options, 2)
        rng = Rng(f"nivernaise-few-pull{tag}")
        pull_from_foundations(state, rng, 14, [f"f{i}" for i in range(1, 9)], _to_middle_piles)
        make_finish(kit)(state)
        builder = kit.trace(f"redeal-few-cards{tag}", state=state, rulings=rulings("NI7", "NI5", "X6"),
                            description="NI7: a redeal of 14 cards: the refill deals packets to t1..t4 "
                            "only, the last one short; t5 and t6 stay empty")
        builder.play(REDEAL)
        line = search_win(kit.variation, builder.state, max_nodes=8000) or []
        for move in line:
            builder.play(move)
        if not line:
            playout(builder, 16)
        kit.add(builder)


def build(kit: Kit) -> None:
    _near_won(kit)
    _meeting(kit)
    _deals(kit)
    _few_cards_redeal(kit)
    _mined(kit)
