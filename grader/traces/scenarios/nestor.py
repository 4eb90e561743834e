"""Nestor scenarios (rulings NE1..NE5, X3, X4, X9).

Deals and long playouts (generic) cover the usual deal (NE1) and the hand
(NE3). Here: the deals whose last positions find no fitting card (NE1's
fallback: the first rejected card dealt anyway, the others kept in order);
near-won positions made *backwards from a won game*: a seeded walk takes the
last pair off the discard pile and puts its cards back on top of columns or
of the hand, or takes the last dead card back from the waste into the hand,
every undo checked by replaying the forward move on the reference, so each
trace's line is legal and ends in a win (NE5, with cards left in the hand or
none). Hand-made positions cover a dead waste whose top card would pair,
three cards of a rank available at once, reversed spellings, empty columns
that stay empty, ``s>w`` after the win and an exhausted hand.

The two-letter ruling ids (``NE2``) are named in the descriptions; a trace's
``rulings`` keeps those the trace format admits (:func:`.seed001.rulings`).
"""

from __future__ import annotations

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card, parse_card
from solitaire.moves import Move, card_move, removal
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import Rng, playout
from .common import scripted
from .seed001 import rulings

COLUMNS = tuple(f"t{i}" for i in range(1, 9))
ORDER = ("s", "w") + COLUMNS  # X9's canonical order
TURN = card_move("s", "w")
HAND = 4
SUIT_PAIRS = ((SUITS[0], SUITS[1]), (SUITS[2], SUITS[3]))  # two pairs of each rank

DEAL_RULINGS = rulings("NE1", "X3")  # the rulings of the deal, named by the generic deal traces

#: deals whose last positions take the first rejected card anyway (NE1): found by dealing
#: seeds 1..9000 with the reference (6639: four other rejected cards keep their order)
FALLBACK_DEALS = (49, 56, 1013, 5799, 6639, 7874)


def _hand(cards: tuple[Card, ...]) -> Pile:
    return Pile(cards, max(0, len(cards) - 1))


def _hand_line(cards: list[str]) -> str:
    """The hand in state notation: face down (lower case) but its top card."""
    return "s: " + " ".join([c.lower() for c in cards[:-1]] + cards[-1:])


def won_state(kit: Kit, rng: Rng, leftover: int) -> State:
    """The columns cleared: ``leftover`` ranks (two cards each) split between the hand and
    the dead waste, every other card on the discard pile in pairs of equal rank."""
    pairs = [(Card(rank, a), Card(rank, b)) for rank in range(ACE, KING + 1) for a, b in SUIT_PAIRS]
    rng.shuffle(pairs)
    kept = [card for pair in pairs[:leftover] for card in pair]
    rng.shuffle(kept)
    cut = rng.below(len(kept) + 1)
    discard = [card for pair in pairs[leftover:]
               for card in (pair if rng.chance(0.5) else pair[::-1])]
    return kit.position("\n".join([
        _hand_line([str(c) for c in kept[:cut]]),
        "w: " + " ".join(str(c) for c in kept[cut:]),
        "d: " + " ".join(str(c) for c in discard),
    ]))


class BackwardWalk:
    """Undo moves from a won position; ``line`` is the forward line back to the win."""

    def __init__(self, kit: Kit, state: State, rng: Rng, hand_share: float) -> None:
        self.variation = kit.variation
        self.state = state
        self.rng = rng
        self.hand_share = hand_share
        self.line: list[Move] = []
        self.hand_cards = len(state.piles["s"]) + len(state.piles["w"])  # at most 4 in a game

    def _unpair(self) -> tuple[State, Move] | None:
        discard = self.state.piles["d"].cards
        if not discard:
            return None
        cards = discard[-2:]
        use_hand = self.hand_cards < HAND and self.rng.chance(self.hand_share)
        columns = [c for c in COLUMNS if len(self.state.piles[c]) < 6
                   and all(x.rank != cards[0].rank for x in self.state.piles[c].cards)]
        if len(columns) < 2 - use_hand:
            return None
        chosen = sorted((["s"] if use_hand else []) + self.rng.sample(columns, 2 - use_hand), key=ORDER.index)
        new = self.state.copy()
        new.take("d", 2)
        for place, card in zip(chosen, cards, strict=True):
            if place == "s":
                new.set_pile("s", _hand(new.piles["s"].cards + (card,)))
            else:
                new.put(place, [card])
        self.hand_cards += use_hand
        return new, removal(*chosen)

    def _unturn(self) -> tuple[State, Move] | None:
        if self.state.is_empty("w"):
            return None
        new = self.state.copy()
        new.set_pile("s", _hand(new.piles["s"].cards + new.take("w")))
        return new, TURN

    def step(self) -> bool:
        for _ in range(20):
            undo = self._unturn() if self.rng.chance(0.25) else self._unpair()
            if undo is None:
                continue
            before, move = undo
            if engine.check_move(self.variation, before, move) is None and \
                    engine.apply(self.variation, before, move) == self.state:
                self.state = before
                self.line.insert(0, move)
                return True
        return False


def near_won(kit: Kit, name: str, steps: int, ids: list[str], description: str, *,
             leftover: int = 1, hand_share: float = 0.3, public: bool = False) -> None:
    for attempt in range(20):
        rng = Rng(f"{name}/{attempt}")
        walk = BackwardWalk(kit, won_state(kit, rng, leftover), rng, hand_share)
        while len(walk.line) < steps and walk.step():
            pass
        if len(walk.line) >= steps // 2:
            builder = scripted(kit, name, walk.state, walk.line, rulings=ids, description=description,
                               public=public, expect_legal=True)
            assert builder.won, f"{name}: the line does not end in a win"
            return
    raise AssertionError(f"nestor: no backward walk for {name}")


def position(kit: Kit, rows: dict[str, str]) -> State:
    """A hand-made position: the given piles (the hand face down but its top card), every
    other card on d."""
    listed = [parse_card(c) for text in rows.values() for c in text.split()]
    rest = [c for c in kit.variation.deck.pack() if c not in listed]
    lines = [f"{pile}: {text}" for pile, text in rows.items() if pile != "s"]
    lines.append(_hand_line(rows.get("s", "").split()))
    lines.append("d: " + " ".join(str(c) for c in rest))
    return kit.position("\n".join(lines))


def build(kit: Kit) -> None:
    variation = kit.variation
    for seed in FALLBACK_DEALS:
        builder = kit.trace(f"deal-fallback-{seed}", cards=engine.shuffled_deck(variation, seed),
                            rulings=rulings("NE1", "X3", "X4"),
                            description=f"NE1: deal number {seed}: at a late position no undealt card "
                            "fits its column; the first rejected card is dealt anyway, the others keep "
                            "their order in the hand; then a seeded playout")
        playout(builder, 30)
        kit.add(builder)

    for index, (steps, leftover) in enumerate(((3, 0), (6, 1), (10, 2), (16, 0), (22, 1), (26, 2))):
        near_won(kit, f"near-won-{index + 1}", steps, rulings("NE2", "NE3", "NE5", "X4", "X9"),
                 f"about {steps} moves from a win, pairs back on the columns and in the hand, dead "
                 "cards back in the hand (NE2, NE3); the trace plays the winning line", leftover=leftover)
    near_won(kit, "near-won-hand", 14, rulings("NE2", "NE3", "NE5", "X4"),
             "NE2, NE3: the hand used on the way: s+t pairs and s>w of cards that would pair later; "
             "won with cards left in the hand", leftover=1, hand_share=0.9)
    near_won(kit, "public-near-won", 8, rulings("NE2", "NE5", "X9"),
             "a few pairs from a win; the trace plays the winning line", public=True)

    # NE3: the waste is dead, its top card too
    state = position(kit, {"t1": "9C 4D", "t2": "KS 7H", "t3": "2C", "s": "3D 4S", "w": "8H 7S"})
    scripted(kit, "dead-waste", state, ["w+t2", "s+w", "w>d", "s>w", "w+t1", "s+t1", "s>w"],
             rulings=rulings("NE3", "NE2", "X9"),
             description="NE3: 7S on the waste would pair with 7H on t2 but the waste is dead; "
             "4S turned to the waste is dead too; then 3D goes the same way", then=4)
    state = position(kit, {"t1": "5C QH", "t2": "QS", "t3": "3H QD", "t5": "JD", "s": "QC"})
    scripted(kit, "three-of-a-rank", state, ["t5+t1", "s+t1", "t1+t3", "t2+t3", "t2+t5", "t3+t1"],
             rulings=rulings("NE2", "X9"),
             description="NE2, X9: four queens available at once (three columns and the hand): each "
             "pair is its own move; t5+t1 and t3+t1 are reversed spellings; J and Q do not pair",
             then=4)
    state = position(kit, {"t1": "6S", "t2": "9D 6H", "t4": "6C", "t6": "2S 9S", "s": "2D"})
    scripted(kit, "spaces-stay-empty", state, ["t1>t3", "t1>t2", "s>t3", "t2+t4", "t1>t2", "s>t5",
                                               "t1+t2", "t2+t6", "s+t6", "t1>t2", "t1>t6"],
             rulings=rulings("NE4", "NE2"),
             description="NE4: no card goes into an empty column or onto another column, from a "
             "column or the hand; pairs only", then=4)
    state = position(kit, {"t3": "8C", "t7": "8H", "s": "5S 5C", "w": "4D"})
    scripted(kit, "won-hand-left", state, ["t7+t3", "t3+t7", "s>w", "s>w", "s>w"],
             rulings=rulings("NE5", "NE3"),
             description="NE5: t7+t3 is a reversed spelling; the last pair t3+t7 clears the columns: "
             "won with two cards left in the hand; "
             "s>w stays legal after the win while the hand has cards (tightened NE2)")
    state = position(kit, {"t2": "KD", "t5": "KH", "w": "9C AH"})
    scripted(kit, "hand-exhausted", state, ["s>w", "w+t2", "t2+t5", "s>w"],
             rulings=rulings("NE3", "NE5", "X4"),
             description="NE3: the hand is exhausted: no s>w; the last pair clears the columns: won "
             "although the waste still holds cards")
    state = position(kit, {"t1": "TS", "t4": "TC", "s": "JC", "w": "JH"})
    scripted(kit, "reversed-spelling", state, ["t4+t1", "t1+s", "w+s", "t1+t4", "s+w", "s>w"],
             rulings=rulings("X9", "NE2"),
             description="X9: t4+t1, t1+s and w+s are not moves (the piles go in the order s, w, "
             "t1 ...); t1+t4 is; s+w is not (the waste is dead)")
