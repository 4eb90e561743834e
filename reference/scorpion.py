"""Scorpion (1 pack): pack four king-to-ace suit runs in the tableau and remove them.

Layout: seven tableau columns ``t1``..``t7``, a face-down reserve ``r`` of
three cards, and four piles ``f1``..``f4`` that receive each complete suit as
it is removed (cards never move onto them by a player's move).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import KING, ONE_PACK, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, RESERVE, TABLEAU, Layout, numbered, single
from solitaire.state import State
from solitaire.variation import Option, Variation

COLUMNS = 7
ROWS = 7
FACE_DOWN_ROWS = 3  # rows 1..3 ...
FACE_DOWN_COLUMNS = 4  # ... have their first four cards face down
RESERVE_SIZE = 3
SUIT_LENGTH = 13
DEAL = action("deal")


class Scorpion(Variation):
    name = "scorpion"
    title = "Scorpion"
    deck = ONE_PACK
    layout = Layout(
        numbered(TABLEAU, COLUMNS),
        numbered(FOUNDATION, 4, target=False),
        single(RESERVE),
    )
    interchangeable = (FOUNDATION,)  # solver hint: a removed suit may lie on any f pile
    options = (
        Option(
            "moves",
            "runs",
            "which cards move together: 'runs' = the top card or a same-suit descending "
            "run at the top of a column (S3); 'any_faceup' = any face-up card with every "
            "card above it (Morehead & Mott-Smith)",
            choices=("runs", "any_faceup"),
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """S1: deal 49 cards row by row into 7 columns of 7.

        In rows 1 to 3 the first four cards are face down (so columns 1..4 start
        with 3 face-down cards); every other tableau card is face up. The last 3
        cards form the reserve, face down, the 50th card on top (dealt first).
        """
        ### BEGIN SOLUTION
        columns = self.piles(TABLEAU)
        for index, card in enumerate(cards[: COLUMNS * ROWS]):
            row, column = divmod(index, COLUMNS)
            face_up = not (row < FACE_DOWN_ROWS and column < FACE_DOWN_COLUMNS)
            state.put(columns[column], [card], face_up=face_up)
        state.put("r", reversed(cards[COLUMNS * ROWS :]), face_up=False)
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """S3: only tableau cards move, and only the top card or a run.

        With the default ``moves="runs"`` the cards moved are the top card alone
        or a same-suit descending run at the top of a column (each card one rank
        below the card under it, same suit). With ``moves="any_faceup"`` any
        face-up card may move, with every card above it. The reserve never
        gives cards; completed suits never come back.
        """
        ### BEGIN SOLUTION
        if self.kind(pile) != TABLEAU:
            return False
        if state.option("moves") == "any_faceup":
            return True
        cards = state[pile].cards[-count:]
        return all(
            upper.suit == lower.suit and upper.rank == lower.rank - 1 for lower, upper in pairwise(cards)
        )
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """S2: a card or run goes onto the top card of a column of the same suit one
        rank higher. Nothing goes onto an ace (no king on an ace: ranks do not wrap).
        """
        ### BEGIN SOLUTION
        head, *_ = cards
        *_, top = state[pile].cards
        return state[pile].top_is_face_up and top.suit == head.suit and top.rank == head.rank + 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """S4: an empty column takes only a king, alone or heading the moved cards."""
        ### BEGIN SOLUTION
        head, *_ = cards
        return head.rank == KING
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """S5: ``deal`` is legal once, at any time: while the reserve still holds its cards."""
        ### BEGIN SOLUTION
        return [DEAL] if not state.is_empty("r") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """S5: ``deal`` puts the 3 reserve cards face up onto columns 1, 2, 3 (empty
        ones included), in deck order: the 50th card of the deck to column 1.
        (A hand-made position may hold fewer: then fewer columns get one.)
        """
        ### BEGIN SOLUTION
        for column in self.piles(TABLEAU)[:RESERVE_SIZE]:
            if not state.is_empty("r"):
                state.put(column, state.take("r"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """S6 and the general rule, after every move (the reserve deal too):

        * a face-down card left on top of a column turns face up;
        * a complete king-to-ace run of one suit lying face up at the top of a
          column is removed to the first empty foundation pile (king lowest):
          13 face-up cards of one suit, each one rank below the card under it,
          can only run from king to ace.

        Turning up and removing repeat until nothing changes.
        """
        ### BEGIN SOLUTION
        changed = True
        while changed:
            changed = False
            for column in self.piles(TABLEAU):
                changed |= state.turn_up(column)
                pile = state[column]
                run = pile.cards[-SUIT_LENGTH:]
                if (
                    len(run) == SUIT_LENGTH
                    and pile.is_face_up(-SUIT_LENGTH)
                    and all(
                        upper.suit == lower.suit and upper.rank == lower.rank - 1
                        for lower, upper in pairwise(run)
                    )
                ):
                    empty = next(f for f in self.piles(FOUNDATION) if state.is_empty(f))
                    state.put(empty, state.take(column, SUIT_LENGTH))
                    changed = True
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """S6: the game is won when all 52 cards have been removed as complete suits."""
        ### BEGIN SOLUTION
        return all(len(state[f]) == SUIT_LENGTH for f in self.piles(FOUNDATION))
        ### END SOLUTION

    def interchangeable_in(self, state: State) -> tuple[str, ...]:
        """Solver hint, not a rule (never graded): once the reserve has been dealt, the
        columns are alike as well as the foundations. Only the deal (S5) names columns
        (t1..t3); a column takes a card by its top card (S2) or, empty, a king (S4), and
        a completed suit leaves from any column (S6). The reserve, once empty, stays so.
        """
        if state.is_empty("r"):
            return (FOUNDATION, TABLEAU)
        return self.interchangeable

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a packing move the solver may play
        without trying alternatives, found with the rule methods above.

        Cards packed onto the top card T of another column are safe to move there
        now, once the reserve has been dealt (or when neither column is among
        t1..t3, where the deal lands, S5). With one pack, the one card C that
        may ever go onto T (S2) can go nowhere else (a space takes only a king,
        S4, and C lies below T in rank), so every winning line puts C, with the
        cards then above it, onto T; having them there early loses nothing: a
        later move of T or of a card under T carries them along (S3), and a
        card packed onto them is packed onto the same top card.

        Only C alone or C heading a same-suit run is moved so, under either option: with
        ``moves="any_faceup"`` the argument fails for other cards above C (a solver test
        found a winnable position the hint made lost when they were carried along).
        """
        columns = self.piles(TABLEAU)
        fixed = columns[:RESERVE_SIZE] if not state.is_empty("r") else ()
        targets = [c for c in columns if c not in fixed and not state.is_empty(c)]
        for source in columns:
            pile = state[source]
            if source in fixed:
                continue
            for count in range(1, len(pile.cards) - pile.down + 1):
                cards = pile.cards[-count:]
                if not all(
                    upper.suit == lower.suit and upper.rank == lower.rank - 1
                    for lower, upper in pairwise(cards)
                ):
                    break  # a longer count holds the same broken pair
                for target in targets:
                    if target != source and self.tableau_accepts(state, target, cards, source):
                        return card_move(source, target, count)
        return None
