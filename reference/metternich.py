"""Metternich (2 packs): found the eight aces and build them up in suit to the kings.

Layout: twelve columns ``t1``..``t12`` of four cards, eight foundations
``f1``..``f8`` (empty at the start), the stock ``s`` and the waste ``w``. The
counter ``redeals`` counts the redeals left (1, then 0).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.solver_dead import blocking_in_sequences, cannot_all_go_up, successors_gone
from solitaire.state import State
from solitaire.variation import Option, Variation

COLUMNS = 12
ROWS = 4
FOUNDATIONS = 8
REDEALS = 1
REDEAL = action("redeal")
DISCARD = card_move("s", "w")


class Metternich(Variation):
    name = "metternich"
    title = "Metternich"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, COLUMNS),
        numbered(FOUNDATION, FOUNDATIONS),
        single(STOCK),
        single(WASTE),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit
    options = (
        Option(
            "kings_rule",
            True,
            "M1: when a king is dealt whose suit matches a king already in the layout, "
            "it goes to the bottom of the stock and the next card is dealt in its place",
        ),
    )

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """M1: deal 48 cards face up, row by row, 4 rows of 12: 12 columns of 4.

        The first 12 cards are row 1 (the bottom card of ``t1``..``t12``), the
        next 12 row 2, and so on. Kings rule (option ``kings_rule``, on by
        default): a king whose suit matches a king already in the layout goes
        to the bottom of the stock, and the next undealt card of the deck is
        dealt in its place, again and again if that is such a king too. (Two
        packs hold two kings a suit, so at most 4 kings are set aside and they
        can never come round again during the deal: 48 places take at most 52
        of the 104 cards.) The cards left over are the stock, face down, the
        next card of the deck on top and the set-aside kings at the bottom (the
        last one set aside lowest). The top stock card is face up (general
        stock-play ruling). One redeal: counter ``redeals`` = 1.
        """
        ### BEGIN SOLUTION
        undealt = deque(cards)
        columns = self.piles(TABLEAU)
        kings_in_layout: set[str] = set()
        for place in range(COLUMNS * ROWS):
            card = undealt.popleft()
            while state.option("kings_rule") and card.rank == KING and card.suit in kings_in_layout:
                undealt.append(card)
                card = undealt.popleft()
            if card.rank == KING:
                kings_in_layout.add(card.suit)
            state.put(columns[place % COLUMNS], [card])
        state.put("s", reversed(undealt), face_up=False)
        state.turn_up("s")
        state.counters["redeals"] = REDEALS
        ### END SOLUTION

    def _disabled_columns(self, state: State) -> tuple[str, ...]:
        """M5: the leftmost empty column and every column to its right (none while
        no column is empty). The columns to its right are the disabled ones; the
        empty column itself gives no card (it has none) and takes none (spaces
        are never filled), so counting it in changes nothing."""
        ### BEGIN SOLUTION
        columns = self.piles(TABLEAU)
        piles = state.piles  # read directly: asked for most rule calls of a move generation
        for index, column in enumerate(columns):
            if not piles[column].cards:
                return columns[index:]
        return ()
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """M3, M4, M5: which cards may move.

        The top card of the stock and the top card of the waste, alone (M3).
        From a column: the top card alone or a same-suit descending run at the
        top of it, each card one rank below the card under it (M4). A disabled
        column (M5) gives only its top card, one card at a time (it may only go
        to a foundation). Cards never come back from a foundation.
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        if kind in (STOCK, WASTE) or pile in self._disabled_columns(state):
            return count == 1
        if kind != TABLEAU:
            return False
        cards = state[pile].cards[-count:]
        return all(
            upper.suit == lower.suit and upper.rank == lower.rank - 1 for lower, upper in pairwise(cards)
        )
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """M2: an empty foundation takes an ace (any empty one: foundations have no
        fixed suit); a foundation builds up in suit to the king, one card at a
        time. Aces are moved by the player as they become available; nothing
        goes to a foundation by itself. A disabled column's top card may go
        to a foundation too (M5).
        """
        ### BEGIN SOLUTION
        if len(cards) != 1:
            return False
        (card,) = cards
        top = state.top(foundation)
        if top is None:
            return card.rank == ACE
        return card.suit == top.suit and card.rank == top.rank + 1
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """M4, M5: columns pack down in suit.

        A card, or a run headed by it, goes onto a column whose top card has the
        same suit and is one rank higher (M4); from a column, the stock or the
        waste (M3). A disabled column (M5) accepts nothing and gives nothing to
        another column.
        """
        ### BEGIN SOLUTION
        head, *_ = cards
        *_, top = state[pile].cards
        if top.suit != head.suit or top.rank != head.rank + 1:
            return False
        disabled = self._disabled_columns(state)  # only asked when the cards would fit
        return pile not in disabled and source not in disabled
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """M5: spaces are never filled: an empty column takes no card at all."""
        ### BEGIN SOLUTION
        return False
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """M3, M6: the actions.

        ``s>w`` (discard the top stock card to the waste) is legal whenever the
        stock has a card, even when that card could be played (M3). ``redeal``
        is legal only when the stock is empty and the redeal has not been used
        (counter ``redeals`` is 1) (M6); an empty waste does not forbid it.
        """
        ### BEGIN SOLUTION
        if not state.is_empty("s"):
            return [DISCARD]
        return [REDEAL] if state.counters["redeals"] > 0 else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """M3, M6: what the actions do.

        ``s>w`` puts the top stock card face up on the waste. ``redeal`` turns
        the whole waste over, unshuffled, to become the stock, face down: the
        first card discarded to the waste (its bottom card) is the next card
        drawn (the top of the stock). The counter ``redeals`` drops to 0.
        """
        ### BEGIN SOLUTION
        if move == REDEAL:
            waste = state.take("w", len(state["w"]))
            state.put("s", reversed(waste), face_up=False)
            state.counters["redeals"] -= 1
        else:
            state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """General stock-play ruling (M3): the top card of the stock is face up
        (it is the drawn card); after every move it is turned up. Nothing goes
        to a foundation by itself, and no space is filled (M5).
        """
        ### BEGIN SOLUTION
        state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """General ruling: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a card the solver may put on a
        foundation without trying alternatives, found with the rule methods above by
        :func:`solitaire.solver.safe_foundation_move`: no card that could still be
        packed onto it is off the foundations, its twin keeps a foundation to go to,
        and the move has no effect beyond the card itself. The last card of a column
        that is not disabled is left out: emptying that column would disable the
        columns to its right (M5).
        """
        disabled = self._disabled_columns(state)
        sources = [
            name
            for name in self.layout.names
            if self.kind(name) != FOUNDATION
            and not (self.kind(name) == TABLEAU and len(state[name]) == 1 and name not in disabled)
        ]
        return safe_foundation_move(self, state, sources)

    # -- solver hints (not rules; never graded) -------------------------------
    DISABLED_CARD_COST = 10  # solver estimate: a card in a disabled column (a foundation card is -10)
    BLOCKING_COST = 10  # solver estimate: a card above a lower card of its suit

    def _first_disabled(self, state: State) -> int:
        """The index of the first column right of the leftmost space (M5); the number of
        columns when none is empty. Worked out here, not with :meth:`_disabled_columns`,
        so that the hints do not depend on a method a student writes."""
        columns = self.piles(TABLEAU)
        for index, column in enumerate(columns):
            if not state.piles[column].cards:
                return index + 1
        return len(columns)

    def solver_priority(self, state: State, move: Move) -> int:
        """Solver hint, not a rule (never graded): the order the depth-first search tries
        moves in, lowest first.

        3: a move that takes the last card of a column that is not disabled, while a
        column to its right still holds cards: under M5 the space it leaves would disable
        those columns for good (spaces are never filled). 2: a run moved from one column
        onto the twin of the card it uncovers (two packs): it only swaps which column
        holds the run. 1: the actions (``s>w``, ``redeal``, M3, M6): the stock is drawn
        only after every card move. 0: the rest, in the generic order. Any order is sound:
        it changes which win is found first, never a verdict."""
        if move in (DISCARD, REDEAL):
            return 1
        if not move.is_card_move:
            return 0
        columns = self.piles(TABLEAU)
        source, target = move.source, move.target
        if self.kind(source) != TABLEAU:
            return 0
        cards = state.piles[source].cards
        if len(cards) == move.count:
            index = columns.index(source)
            if index < self._first_disabled(state) and any(state.piles[c].cards for c in columns[index + 1:]):
                return 3
            return 0
        if self.kind(target) == TABLEAU and cards[-move.count - 1] == state.piles[target].cards[-1]:
            return 2
        return 0

    def solver_estimate(self, state: State) -> int:
        """Solver hint, not a rule (never graded): each card in a disabled column (M5)
        costs as much as a card on the foundations is worth, since such a card can only
        wait for its turn to go up, one at a time from the top; and each card lying above
        a lower card of its own suit costs ``BLOCKING_COST`` (:mod:`solitaire.solver_dead`,
        ``blocking_in_sequences``), in each column and in the order the cards of the stock
        and waste end up in the waste once the stock has gone through for the last time:
        the waste bottom to top, then the stock top to bottom (M3: discards go onto the
        waste; M6: the redeal turns it over unshuffled, so the first card discarded comes
        first again). Such a card must leave (up, or onto its successor in a column, M4)
        before the lower card can go up (M2). Only an estimate: it changes which win is
        found first, never a verdict."""
        columns = self.piles(TABLEAU)
        first = self._first_disabled(state)
        disabled = self.DISABLED_CARD_COST * sum(len(state.piles[c].cards) for c in columns[first:])
        sequences = [state.piles[c].cards for c in columns]
        sequences.append(state.piles["w"].cards + state.piles["s"].cards[::-1])
        return disabled + self.BLOCKING_COST * blocking_in_sequences(sequences)

    def hopeless(self, state: State) -> bool:
        """Solver hint, not a rule (never graded): True when, by
        :func:`solitaire.solver_dead.cannot_all_go_up`, some card can never reach a
        foundation, so the game cannot be won (M2: up in suit from the ace, one card at
        a time; all 104 cards must go up).

        The frozen piles it is given, by the rulings. Every disabled column, each card
        going only to a foundation: spaces are never filled (M5), so a column once empty
        stays empty and the columns right of it stay disabled for good; a disabled column
        takes no card and gives only its top card, to a foundation (M5). Once the redeal
        is used (M6), the waste: it gives only its top card (M3), takes cards only from
        the stock on top, and never comes back as the stock. A waste card goes only to a
        foundation when no column can ever take it: a column takes it only onto a card of
        its suit one rank higher (M4), in a column that is not disabled (M5), never in a
        space (M5); so no column can take a king, nor any card when no column is left of
        the leftmost space, nor a card whose higher cards of its suit are all on the
        foundations, in disabled columns or beneath it in the waste (none of them can
        become a column's top card while it lies there).

        Each column that is not disabled, too, when one of its cards is marked: its cards
        leave from the top down (M4: the top card, or a run at the top, moves), and the
        cards put onto it later are free cards of the relaxed game, so leaving them out
        only allows more. A column card is marked (it leaves only for a foundation) when
        it is a king (no column card is one rank higher, and spaces are never filled,
        M5), or when it does not lie directly on the card of its suit one rank higher
        (so it never leaves as part of a run headed by a card beneath it, M4) and every
        copy of that higher card is on the foundations, in a disabled column or beneath
        it in its column (none can become another column's top card while it lies
        there). Other column cards are not marked: they may become free.
        """
        columns = self.piles(TABLEAU)
        first = self._first_disabled(state)
        packs = self.deck.packs
        disabled = [state.piles[c].cards for c in columns[first:]]
        frozen = [[(card, True) for card in cards] for cards in disabled if cards]
        fixed = Counter(card for cards in disabled for card in cards)
        fixed.update(card for f in self.piles(FOUNDATION) for card in state.piles[f].cards)
        for column in columns[:first]:
            marked = self._marked_column(state.piles[column].cards, fixed, packs)
            if marked is not None:
                frozen.append(marked)
        waste = state.piles["w"].cards
        if state.counters["redeals"] == 0 and waste:
            playing = first > 1  # some column lies left of the leftmost space
            gone = successors_gone(waste, fixed, packs)
            frozen.append([(card, card.rank == KING or not playing or up_only)
                           for card, up_only in zip(waste, gone, strict=True)])
        return cannot_all_go_up(self, state, frozen)

    @staticmethod
    def _marked_column(
        cards: Sequence[Card], fixed: Counter[Card], packs: int
    ) -> list[tuple[Card, bool]] | None:
        """A column that is not disabled as a frozen pile for :meth:`hopeless`, each card
        marked when it leaves only for a foundation; None when no card is marked."""
        below = [None, *cards][: len(cards)]  # the card each lies on
        marked = [
            (card, card.rank == KING or (under != Card(card.rank + 1, card.suit) and gone))
            for card, under, gone in zip(cards, below, successors_gone(cards, fixed, packs), strict=True)
        ]
        return marked if any(only_up for _, only_up in marked) else None
