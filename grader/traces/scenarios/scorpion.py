"""Scorpion scenarios (rulings S1..S6, option ``moves``).

Random Scorpion deals stall after a few moves, so most traces here start from
positions made *backwards from a won game*: starting with every suit removed,
a seeded walk undoes moves (puts a removed suit back split over two columns,
moves a run back to where it could have come from, turns a lone card face
down, takes the reserve deal back). Every undo is verified by replaying the
forward move on the reference, so each trace's line is legal and ends in a
win, passing through spaces, turn-ups, removals and the reserve deal on the way.
A few hand-made positions cover what a walk rarely produces.
"""

from __future__ import annotations

from typing import Any

from solitaire import engine
from solitaire.cards import ACE, KING, SUITS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import Pile
from solitaire.state import State

from ..build import Kit
from ..builder import PLAYOUT, SCENARIO, Rng, playout

COLUMNS = tuple(f"t{i}" for i in range(1, 8))
FOUNDATIONS = ("f1", "f2", "f3", "f4")


DEAL_RULINGS = ["S1"]  # the rulings of the deal, named by the generic deal traces

def _suit_run(suit: str, high: int, low: int) -> list[Card]:
    return [Card(rank, suit) for rank in range(high, low - 1, -1)]


def won_state(kit: Kit, options: dict[str, Any], rng: Rng) -> State:
    suits = list(SUITS)
    rng.shuffle(suits)
    lines = [f"{f}: " + " ".join(str(c) for c in _suit_run(s, KING, ACE))
             for f, s in zip(FOUNDATIONS, suits, strict=True)]
    return kit.position("\n".join(lines), options)


class BackwardWalk:
    """Undo moves from a won position; ``line`` is the forward line back to the win."""

    def __init__(self, kit: Kit, state: State, rng: Rng, any_unit: bool) -> None:
        self.variation = kit.variation
        self.state = state
        self.rng = rng
        self.any_unit = any_unit
        self.line: list[Move] = []
        self.undealt = False

    # -- candidates --------------------------------------------------------
    def _turned_down(self, pile: Pile) -> Pile:
        """``pile`` with its top card face down, when it is the only face-up card."""
        if pile.cards and pile.down == len(pile.cards) - 1 and self.rng.chance(0.6):
            return Pile(pile.cards, pile.down + 1)
        return pile

    def _unremove(self) -> tuple[State, Move] | None:
        full = [f for f in FOUNDATIONS if self.state.piles[f].cards]
        if not full:
            return None
        foundation = full[-1]
        suit_cards = self.state.piles[foundation].cards  # king lowest, ace on top
        length = 1 + self.rng.below(12)  # the moved unit: ranks length..A
        target, source = self._two_columns()
        new = self.state.copy()
        new.set_pile(foundation, Pile())
        new.set_pile(target, self._turned_down(new.piles[target]).added(suit_cards[: 13 - length]))
        new.set_pile(source, new.piles[source].added(suit_cards[13 - length:]))
        return new, card_move(source, target, length)

    def _unpack(self) -> tuple[State, Move] | None:
        candidates = []
        for target in COLUMNS:
            pile = self.state.piles[target]
            for index in range(pile.down, len(pile.cards)):
                unit = pile.cards[index:]
                if not self.any_unit and not _is_run(unit):
                    continue
                if index == 0:
                    if unit[0].rank == KING:
                        candidates.append((target, index))
                elif index > pile.down:
                    below = pile.cards[index - 1]
                    if below.suit == unit[0].suit and below.rank == unit[0].rank + 1:
                        candidates.append((target, index))
        if not candidates:
            return None
        target, index = self.rng.choice(candidates)
        pile = self.state.piles[target]
        unit = pile.cards[index:]
        others = [c for c in COLUMNS if c != target]
        # mostly put the unit where it buries no run that could still be undone
        harmless = [c for c in others if not self._linked_top(c)]
        source = self.rng.choice(harmless if harmless and self.rng.chance(0.8) else others)
        new = self.state.copy()
        new.set_pile(target, Pile(pile.cards[:index], min(pile.down, index)))
        new.set_pile(source, self._turned_down(new.piles[source]).added(unit))
        return new, card_move(source, target, len(unit))

    def _linked_top(self, column: str) -> bool:
        pile = self.state.piles[column]
        if len(pile.cards) - pile.down < 2:
            return False
        below, top = pile.cards[-2], pile.cards[-1]
        return below.suit == top.suit and below.rank == top.rank + 1

    def _undeal(self) -> tuple[State, Move] | None:
        if self.undealt or any(not self.state.piles[c].cards for c in COLUMNS[:3]):
            return None
        new = self.state.copy()
        dealt = [new.take(c)[0] for c in COLUMNS[:3]]
        new.put("r", reversed(dealt), face_up=False)
        return new, action("deal")

    def _two_columns(self) -> tuple[str, str]:
        first = self.rng.choice(COLUMNS)
        second = self.rng.choice([c for c in COLUMNS if c != first])
        return first, second

    # -- the walk ------------------------------------------------------------
    def _verified(self, candidate: tuple[State, Move] | None) -> bool:
        if candidate is None:
            return False
        new, move = candidate
        settled = new.copy()
        self.variation.after_move(settled, move)
        if settled != new:
            return False  # a position with effects still pending is not a real position
        if engine.check_move(self.variation, new, move) is not None:
            return False
        if engine.apply_unchecked(self.variation, new, move) != self.state:
            return False
        self.state = new
        self.line.insert(0, move)
        return True

    def walk(self, steps: int, undeal_at: int | None = None) -> None:
        done = 0
        attempts = 0
        while done < steps and attempts < steps * 60:
            attempts += 1
            if undeal_at is not None and done >= undeal_at and not self.undealt:
                if self._verified(self._undeal()):
                    self.undealt = True
                    done += 1
                    continue
            roll = self.rng.below(10)
            candidate = self._unremove() if roll < 3 else self._unpack()
            if self._verified(candidate):
                done += 1


def _is_run(cards: tuple[Card, ...]) -> bool:
    return all(b.suit == a.suit and b.rank == a.rank - 1 for a, b in zip(cards, cards[1:], strict=False))


def _walk_trace(kit: Kit, name: str, steps: int, options: dict[str, Any], undeal: bool,
                public: bool = False) -> None:
    rng = Rng(name)
    any_unit = options.get("moves") == "any_faceup"
    walk = BackwardWalk(kit, won_state(kit, options, rng), rng, any_unit)
    walk.walk(steps, undeal_at=steps // 2 if undeal else None)
    density = SCENARIO if steps <= 12 else PLAYOUT
    builder = kit.trace(name, state=walk.state, density=density,
                        description=f"a position {len(walk.line)} moves from a win, made backwards "
                        "from a won game; the trace plays the winning line",
                        rulings=["S2", "S3", "S4", "S6"] + (["S5"] if undeal else []))
    for move in walk.line:
        if not builder.play(move):
            raise AssertionError(f"{name}: the backward walk made an illegal line at {move}")
    if not builder.won:
        raise AssertionError(f"{name}: the line does not end in a win")
    kit.add(builder, public=public)


HAND_MADE = {
    "deal-onto-spaces": ("""
        t2: 2c jc KD QD JD TD 9D
        t4: QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
        t5: KC QC TC 9C 8C 7C 6C 5C 4C AC
        t6: KH QH JH TH 9H 8H 7H 6H 3H 2H AH KS
        t7: 8D 7D 6D 5D 4D 3D 2D AD AS
        r: 3c 5h 4h
        """, ["S5", "S4"], "the reserve deal puts its cards onto empty columns 1 and 3 too",
        ["deal", "deal"], 12),
    "deal-completes-three-suits": ("""
        t1: 3c KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
        t2: 4c KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
        t3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
        t4: KC QC JC TC 9C 8C 7C 6C 5C
        t5: 2C
        t6: AC
        r: ad as ah
        """, ["S5", "S6"], "the reserve deal completes three suits at once; they go to f1, f2, f3 in "
        "column order, and the cards under them turn up; then the last suit wins the game",
        ["deal", "t2>t4", "t1>t4", "t5>t4", "t6>t4"], 0),
    "face-down-king-stays": ("""
        t1: ks QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
        t2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AS
        t3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
        t4: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
        t5: AH AD
        t6: AC
        """, ["S6"], "a king-to-ace run whose king is face down is not removed; three other suits are",
        ["t2>t1", "t5>t3", "t5>t2", "t6>t4"], 0),
    "mixed-suit-run-stays": ("""
        t1: KH QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
        t2: KS AS
        t3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
        t4: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AD
        t5: QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
        t6: AC
        """, ["S6"], "thirteen cards from a king down to an ace are removed only when they are one suit",
        ["t2>t1", "t4>t3", "t6>t4"], 6),
    "spaces-take-only-kings": ("""
        t1: 5h 6h KD QD JD 3S 2S
        t2: 8h KS QS JS TS 9S 8S
        t3: KC
        t5: AH TD 9D 8D 7D 6D 5D 4D 3D 2D AD
        t6: 2h QH JH TH 9H 3H KH 4S
        t7: 7S 6S 5S 4H QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC 7H AS
        r:
        """, ["S4", "S2", "S3"], "an empty column takes a king or a run headed by a king, nothing else",
        [], 20),
}


def _settled(kit: Kit, state: State) -> bool:
    after = state.copy()
    kit.variation.after_move(after, action("deal"))
    return after == state


def build(kit: Kit) -> None:
    runs: dict[str, Any] = {"moves": "runs"}
    anyup: dict[str, Any] = {"moves": "any_faceup"}
    for index, steps in enumerate((1, 2, 4, 6, 9, 12)):
        _walk_trace(kit, f"near-won-{index + 1}", steps, runs if index % 2 == 0 else anyup, undeal=steps >= 6)
    for index, steps in enumerate((15, 22, 30, 40)):
        _walk_trace(kit, f"midgame-runs-{index + 1}", steps, runs, undeal=index % 2 == 0)
        _walk_trace(kit, f"midgame-any-faceup-{index + 1}", steps, anyup, undeal=index % 2 == 1)
    _walk_trace(kit, "public-near-won", 5, runs, undeal=True, public=True)
    for name, (text, rulings, description, line, extra) in HAND_MADE.items():
        for options in (runs, anyup):
            state = kit.position(text, options)
            if not _settled(kit, state):
                raise AssertionError(f"hand-made position {name} has effects pending")
            tag = "" if options is runs else "-any-faceup"
            builder = kit.trace(name + tag, state=state, density=SCENARIO, description=description,
                                rulings=rulings)
            for move in line:
                builder.play(move)
            playout(builder, extra)
            kit.add(builder)
