"""Pyramid scenarios (rulings PY1..PY5, X3, X4, X9; option ``redeals``).

Deals and long playouts (generic, every ``redeals`` value) cover the deal (PY1)
and stock play (PY4). Random play rarely clears much of the pyramid, so the
near-won traces start from positions made *backwards from a won game*: a
seeded walk takes the last removal off the discard pile and puts its cards
back where they were available (uncovered pyramid positions whose row above
is still there, the top of the stock, the top of the waste), or undoes an
``s>w`` or a redeal. Every undo is checked by replaying the forward move on
the reference, so each trace's line is legal and ends in a win. Hand-made
positions cover the rest: a card covered by one card that would pair with it,
kings alone from every pile, ``s+w``, reversed spellings, an exhausted stock
with and without redeals left, a redeal with an empty waste, and a cleared
pyramid with the waste still holding cards.

The two-letter ruling ids (``PY2``) are named in the descriptions; a trace's
``rulings`` keeps those the trace format admits (:func:`.seed001.rulings`).
"""

from __future__ import annotations

from typing import Any

from solitaire import engine
from solitaire.cards import KING, SUITS, Card, parse_card
from solitaire.moves import Move, action, card_move, removal
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import scripted
from .seed001 import rulings

ROWS = 7
PYRAMID = tuple(f"t{i}" for i in range(1, 29))
ORDER = ("s", "w") + PYRAMID  # X9's canonical order
TURN = card_move("s", "w")
REDEAL = action("redeal")

DEAL_RULINGS = rulings("PY1", "X3")  # the rulings of the deal, named by the generic deal traces


def _row_of(index: int) -> int:
    row = 1
    while row * (row + 1) // 2 <= index:
        row += 1
    return row


def coverers(pile: str) -> tuple[str, ...]:
    """The two positions that cover ``pile`` (none for row 7)."""
    index = PYRAMID.index(pile)
    row = _row_of(index)
    if row == ROWS:
        return ()
    left = row * (row + 1) // 2 + index - row * (row - 1) // 2
    return PYRAMID[left], PYRAMID[left + 1]


def covered(pile: str) -> tuple[str, ...]:
    """The positions ``pile`` covers (in the row above)."""
    return tuple(p for p in PYRAMID if pile in coverers(p))


def _stock(cards: tuple[Card, ...]) -> Pile:
    return Pile(cards, max(0, len(cards) - 1))


def units(rng: Rng) -> list[tuple[Card, ...]]:
    """The 52 cards as removals: the four kings alone and 24 pairs totalling 13, shuffled."""
    found: list[tuple[Card, ...]] = [(Card(KING, s),) for s in SUITS]
    for low in range(1, 7):
        highs = list(SUITS)
        rng.shuffle(highs)
        found += [(Card(low, a), Card(13 - low, b)) for a, b in zip(SUITS, highs, strict=True)]
    rng.shuffle(found)
    return [unit if rng.chance(0.5) else unit[::-1] for unit in found]


def won_state(kit: Kit, rng: Rng, options: dict[str, Any], redeals_left: int) -> State:
    """Every card on the discard pile, as the removals of :func:`units` left them."""
    cards = [card for unit in units(rng) for card in unit]
    state = kit.position("d: " + " ".join(str(c) for c in cards), options)
    state.counters["redeals"] = redeals_left
    return state


class BackwardWalk:
    """Undo moves from a won position; ``line`` is the forward line back to the win."""

    def __init__(self, kit: Kit, state: State, rng: Rng, stock_share: float) -> None:
        self.variation = kit.variation
        self.state = state
        self.rng = rng
        self.stock_share = stock_share
        self.line: list[Move] = []

    def _places(self, state: State) -> list[str]:
        """Where a card may go back to and be available there (the stock and the waste
        with chance ``stock_share``)."""
        places = [p for p in PYRAMID if state.is_empty(p)
                  and all(state.is_empty(c) for c in coverers(p))
                  and all(not state.is_empty(c) for c in covered(p))]
        return (["s", "w"] if self.rng.chance(self.stock_share) else []) + places

    def _put(self, state: State, place: str, card: Card) -> None:
        if place == "s":
            state.set_pile("s", _stock(state.piles["s"].cards + (card,)))
        else:
            state.put(place, [card])

    def _unremove(self) -> tuple[State, Move] | None:
        discard = self.state.piles["d"].cards
        if not discard:
            return None
        size = 1 if discard[-1].rank == KING else 2
        places = self._places(self.state)
        if len(places) < size:
            return None
        chosen = sorted(self.rng.sample(places, size) if size == 2 else [self.rng.choice(places)],
                        key=ORDER.index)  # the first card on d came from the first-named pile
        new = self.state.copy()
        for place, card in zip(chosen, new.take("d", size), strict=True):
            self._put(new, place, card)
        return new, (card_move(chosen[0], "d") if size == 1 else removal(*chosen))

    def _unturn(self) -> tuple[State, Move] | None:
        if self.state.is_empty("w"):
            return None
        new = self.state.copy()
        self._put(new, "s", new.take("w")[0])
        return new, TURN

    def _unredeal(self) -> tuple[State, Move] | None:
        left = self.state.counters["redeals"]
        if left >= int(self.state.option("redeals")) or not self.state.is_empty("w"):
            return None
        new = self.state.copy()
        stock = new.take("s", len(new.piles["s"]))
        new.put("w", reversed(stock))
        new.counters["redeals"] = left + 1
        return new, REDEAL

    def step(self, redeal_chance: float) -> bool:
        """One undo, checked forward on the reference; False if none was found."""
        for _ in range(40):
            roll = self.rng.below(100)
            if roll < redeal_chance * 100:
                undo = self._unredeal()
            elif roll < 30:
                undo = self._unturn()
            else:
                undo = self._unremove()
            if undo is None:
                continue
            before, move = undo
            if engine.check_move(self.variation, before, move) is None and \
                    engine.apply(self.variation, before, move) == self.state:
                self.state = before
                self.line.insert(0, move)
                return True
        return False


def walked(kit: Kit, name: str, steps: int, options: dict[str, Any], *, stock_share: float = 0.25,
           redeal_chance: float = 0.0, need_redeal: bool = False) -> BackwardWalk:
    """A backward walk of about ``steps`` undos from a won position of this trace's seed."""
    for attempt in range(20):
        rng = Rng(f"{name}/{attempt}")
        left = 0 if not need_redeal else rng.below(int(options.get("redeals", 0)))
        walk = BackwardWalk(kit, won_state(kit, rng, options, left), rng, stock_share)
        while len(walk.line) < steps and walk.step(redeal_chance):
            pass
        if len(walk.line) >= steps // 2 and (not need_redeal or REDEAL in walk.line):
            return walk
    raise AssertionError(f"pyramid: no backward walk for {name}")


def near_won(kit: Kit, name: str, steps: int, options: dict[str, Any], ids: list[str], description: str,
             public: bool = False, **walk: Any) -> None:
    found = walked(kit, name, steps, options, **walk)
    builder = scripted(kit, name, found.state, found.line, rulings=ids, description=description,
                       public=public, expect_legal=True)
    assert builder.won, f"{name}: the line does not end in a win"


def position(kit: Kit, rows: dict[str, str], options: dict[str, Any] | None = None,
             redeals_left: int = 0) -> State:
    """A hand-made position: the given piles (the stock face down but its top card), every
    other card on d."""
    listed = [parse_card(c) for text in rows.values() for c in text.split()]
    rest = [c for c in kit.variation.deck.pack() if c not in listed]
    lines = [f"{pile}: {text}" for pile, text in rows.items() if pile != "s"]
    if "s" in rows:
        *down, top = rows["s"].split()
        lines.append("s: " + " ".join([c.lower() for c in down] + [top]))
    lines.append("d: " + " ".join(str(c) for c in rest))
    state = kit.position("\n".join(lines), options)
    state.counters["redeals"] = redeals_left
    engine.check_state(kit.variation, state)
    return state


def build(kit: Kit) -> None:
    default: dict[str, Any] = {"redeals": 0}
    for index, steps in enumerate((4, 8, 14, 22, 32, 44)):
        near_won(kit, f"near-won-{index + 1}", steps, default,
                 rulings("PY2", "PY3", "PY4", "PY5", "X4", "X9"),
                 f"about {steps} moves from a win, cards back in the pyramid, the stock and the waste "
                 "(PY2, PY3, X9); the trace plays the winning line")
    near_won(kit, "near-won-pyramid", 40, default, rulings("PY2", "PY3", "X9"),
             "PY2: most cards back in the pyramid, rows freed one by one as the cards covering them "
             "go; the trace plays the winning line", stock_share=0.12)
    near_won(kit, "near-won-stock", 24, default, rulings("PY3", "PY4", "X4", "X9"),
             "PY3, PY4: many cards in the stock and the waste: s+w pairs, kings from s and w, s>w; "
             "the trace plays the winning line", stock_share=0.8)
    for redeals in (1, 2):
        near_won(kit, f"near-won-redeals-{redeals}", 30, {"redeals": redeals},
                 rulings("PY4", "PY3", "X4"),
                 f"PY4 with redeals={redeals}: a winning line that turns the waste over as the stock "
                 "(redeal) on the way", stock_share=0.7, redeal_chance=0.25, need_redeal=True)
    near_won(kit, "public-near-won", 10, default, rulings("PY3", "X9"),
             "a few moves from a win; the trace plays the winning line", public=True)

    # PY2: a card still covered by one card cannot pair with it (t16 under t23 alone)
    state = position(kit, {"t16": "5H", "t23": "8C", "t24": "QD", "t25": "AS", "s": "KH 7D", "w": "6C"})
    scripted(kit, "covered-by-one", state, ["t16+t23", "t23+t24", "t24+t25", "t16+t24", "t16+t23"],
             rulings=rulings("PY2", "X9"),
             description="PY2: 5H on t16 is covered by 8C on t23 alone (t22 is empty): t16+t23 (13) is "
             "not a move, before or after t24+t25; t16 pairs with nothing while t23 stays", then=6)
    state = position(kit, {"t16": "5H", "t22": "2C", "t23": "8C", "t28": "JS", "s": "7D", "w": "6C"})
    scripted(kit, "uncovered-pair", state, ["t16+t23", "t22+t28", "t16+t23", "s+w"],
             rulings=rulings("PY2", "PY3", "X9"),
             description="PY2: t16 is covered by t22 and t23; after t22+t28 only t23 covers it, and "
             "t16+t23 (5 and 8) is still not a move; s+w (7 and 6) is; the trace then plays on", then=6)

    # PY3: kings alone from every pile, a king never pairs, no other card alone
    state = position(kit, {"t22": "KC", "t23": "QH", "t24": "AS", "t28": "KD", "s": "2C KS", "w": "KH"})
    scripted(kit, "kings-alone", state, ["t23>d", "t22+t24", "t22>d", "w>d", "s>d", "t28>d", "t23+t24",
                                        "s>w", "w>d", "s>w"],
             rulings=rulings("PY3", "PY5", "X9"),
             description="PY3: a king goes alone from the pyramid, the waste and the stock; a queen "
             "or a 2 does not go alone; a king and an ace do not pair; Q+A pair")
    state = position(kit, {"t22": "TD", "t23": "3S", "t27": "JH", "t28": "2D", "s": "9C 4H", "w": "6S 9S"})
    scripted(kit, "reversed-spelling", state, ["t23+t22", "t22+t23", "t28+t27", "t27+t28", "t3+s",
                                               "w+s", "s+w", "s+w", "w>d", "s>w"],
             rulings=rulings("PY3", "X9"),
             description="X9: the reversed spelling (t23+t22, t28+t27, w+s) is not a move; t22+t23, "
             "t27+t28, s+w (4 and 9) are; 9 and 6 do not pair; a non-king does not go alone")

    # PY1 (tightened): nothing builds, emptied positions stay empty
    state = position(kit, {"t7": "4C", "t11": "9D", "t16": "QS", "t22": "5H", "t23": "AD", "t24": "8S",
                           "s": "3H", "w": "KC"})
    scripted(kit, "nothing-builds", state, ["t22>t23", "t23>t17", "w>t17", "s>t22", "t23>d", "t16+t23",
                                            "t22+t24", "w>d", "s>t22", "t23>t22"],
             rulings=rulings("PY1", "PY2"),
             description="PY1: no card moves onto another or into an emptied position, from the "
             "pyramid, the stock or the waste; only removals and s>w", then=6)

    # PY4 / PY5: the stock exhausted, with and without redeals
    state = position(kit, {"t22": "9H", "w": "7C 2H 9S 4D"})
    scripted(kit, "stock-exhausted", state, ["s>w", "redeal", "w+t22", "w>d", "redeal"],
             rulings=rulings("PY4", "PY5", "X4"),
             description="PY4: the stock is exhausted and redeals=0: no s>w, no redeal; the waste's "
             "top card still pairs (4D with 9H); the game is lost with cards left in the waste")
    for redeals, left in ((1, 1), (2, 1), (2, 2)):
        state = position(kit, {"t22": "9H", "t28": "KS", "w": "6H 7C 2H JD 4D"},
                         {"redeals": redeals}, redeals_left=left)
        scripted(kit, f"redeal-{redeals}-{left}", state,
                 ["w+t22", "redeal", "s>w", "s+w", "s>w", "s>w", "redeal", "s>w", "s>w", "s>w",
                  "redeal", "redeal", "t28>d"],
                 rulings=rulings("PY4", "X4"),
                 description=f"PY4 with redeals={redeals}, {left} left: the waste turned over as the "
                 "stock, its first card drawn first (6H, then 7C: s+w), until no redeal is left",
                 then=10)
    state = position(kit, {"t22": "6D", "t23": "7C", "t28": "KS"}, {"redeals": 2}, redeals_left=2)
    scripted(kit, "redeal-empty-waste", state, ["redeal", "redeal", "redeal", "t22+t23", "t28>d"],
             rulings=rulings("PY4", "PY5"),
             description="PY4 tightened: with the stock and the waste empty a redeal is still legal "
             "while one is left (redeals=2): twice, then not; the pyramid is then cleared: won")
    state = position(kit, {"t1": "5C", "s": "AH", "w": "QS 8D KD"})
    scripted(kit, "waste-left", state, ["w+t1", "w>d", "s+w", "w+t1", "s+w"],
             rulings=rulings("PY5", "PY3", "X9"),
             description="PY5: the pyramid is cleared but cards are left in the stock and the waste "
             "(not won until they are gone); the apex pairs with the waste's 8, then A+Q: won")
