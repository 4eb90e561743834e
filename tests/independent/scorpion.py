"""Scorpion, written independently of the reference (from RULINGS.md S1..S6).

One pack. Columns t1..t7, the removed suits on f1..f4 (not targets: nothing is
moved there by the player), the reserve ``r`` (face down, next card on top).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import ACE, KING, ONE_PACK, Card
from solitaire.moves import Move, action
from solitaire.piles import FOUNDATION, RESERVE, TABLEAU, Layout, PileSpec, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

COLUMNS = 7
FACE_DOWN_ROWS, FACE_DOWN_COLUMNS = 3, 4
SUIT_LENGTH = 13


def _descending_in_suit(cards: Sequence[Card]) -> bool:
    """Each card one rank below the card under it, all one suit."""
    return all(
        upper.suit == lower.suit and upper.rank == lower.rank - 1
        for lower, upper in zip(cards, cards[1:], strict=False)
    )


class Scorpion(Variation):
    name = "scorpion"
    title = "Scorpion"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, COLUMNS),
        tuple(PileSpec(f"f{i}", FOUNDATION, target=False) for i in range(1, 5)),
        single(RESERVE),
    )
    options = (
        Option(
            "moves",
            "runs",
            "S3: which cards move: 'runs' (the top card or a same-suit descending run at the "
            "top) or 'any_faceup' (any face-up card with every card above it)",
            choices=("runs", "any_faceup"),
        ),
    )

    # -- helpers ---------------------------------------------------------------
    def _complete_suit_on_top(self, state: State, column: str) -> bool:
        pile = state[column]
        if len(pile) - pile.down < SUIT_LENGTH:
            return False
        top = pile.cards[-SUIT_LENGTH:]
        return top[0].rank == KING and top[-1].rank == ACE and _descending_in_suit(top)

    # -- rules -----------------------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """S1: 49 cards row by row into 7 columns; in rows 1..3 the first four cards are
        face down, all others face up. The last 3 cards are the reserve, face down,
        the 50th card of the deck on top."""
        columns = self.piles(TABLEAU)
        for index, card in enumerate(cards[: COLUMNS * COLUMNS]):
            row, col = divmod(index, COLUMNS)
            face_down = row < FACE_DOWN_ROWS and col < FACE_DOWN_COLUMNS
            state.put(columns[col], [card], face_up=not face_down)
        state.put("r", list(reversed(cards[COLUMNS * COLUMNS:])), face_up=False)

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """S3: with ``moves=runs`` the top card alone or a same-suit descending run at
        the top of a column; with ``moves=any_faceup`` any face-up card with all above it."""
        if self.kind(pile) != TABLEAU:
            return False
        if state.option("moves") == "any_faceup":
            return True
        return _descending_in_suit(state[pile].cards[-count:])

    def foundation_accepts(self, state: State, foundation: str, cards: tuple[Card, ...], source: str) -> bool:
        """S6: the player never moves cards to f1..f4; only completed suits land there."""
        return False

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """S2: onto the top card of a column of the same suit one rank higher (so
        nothing goes onto an ace)."""
        top = state.top(pile)
        if top is None or self.kind(pile) != TABLEAU:
            return False
        return cards[0].suit == top.suit and cards[0].rank == top.rank - 1

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """S4: a space takes only a king, alone or heading the moved cards."""
        return self.kind(pile) == TABLEAU and cards[0].rank == KING

    def special_moves(self, state: State) -> list[Move]:
        """S5: ``deal`` once, at any time, while the reserve holds its cards."""
        return [action("deal")] if not state.is_empty("r") else []

    def apply_special(self, state: State, move: Move) -> None:
        """S5: the 3 reserve cards go face up onto t1, t2, t3 (empty ones too), in deck order."""
        for column in self.piles(TABLEAU)[:3]:
            if state.is_empty("r"):
                break
            state.put(column, state.take("r"))

    def after_move(self, state: State, move: Move) -> None:
        """General: exposed face-down cards turn up. S6: a complete king-to-ace suit face
        up at the top of a column is removed to the first empty f1..f4 (king lowest);
        turning up and removing repeat until nothing changes."""
        changed = True
        while changed:
            changed = False
            for column in self.piles(TABLEAU):
                if state.turn_up(column):
                    changed = True
                if self._complete_suit_on_top(state, column):
                    target = next(f for f in self.piles(FOUNDATION) if state.is_empty(f))
                    state.put(target, state.take(column, SUIT_LENGTH))
                    changed = True

    def is_won(self, state: State) -> bool:
        """S6: won when all 52 cards are removed."""
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
