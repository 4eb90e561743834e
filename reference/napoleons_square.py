"""Napoleon's Square (2 packs): build the eight aces up in suit to the kings.

Layout: the eight aces on foundations ``f1``..``f8`` in the middle, twelve
tableau piles ``t1``..``t12`` around them, the stock ``s`` and the waste ``w``.
The deal comes in four rounds of twelve cards with a pause after each round
(phase ``pause``, counter ``rounds`` = rounds dealt so far); after the fourth
round play begins (phase ``play``) and the stock comes into play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solitaire.cards import ACE, KING, TWO_PACKS, Card
from solitaire.moves import Move, action, card_move
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, Layout, numbered, single
from solitaire.solver import safe_foundation_move
from solitaire.solver_dead import blocking_in_sequences, cannot_all_go_up, successors_gone
from solitaire.state import State
from solitaire.variation import Variation

PILES = 12
FOUNDATIONS = 8
ROUNDS = 4  # rounds of twelve cards in the deal
PAUSE = "pause"  # phase between the rounds of the deal
PLAY = "play"  # phase after the fourth round
DEAL = action("deal")
DISCARD = card_move("s", "w")


class NapoleonsSquare(Variation):
    name = "napoleons_square"
    title = "Napoleon's Square"
    deck = TWO_PACKS
    layout = Layout(
        numbered(TABLEAU, PILES),
        numbered(FOUNDATION, FOUNDATIONS),
        single(STOCK),
        single(WASTE),
    )
    interchangeable = (FOUNDATION,)  # solver hint: foundations have no fixed suit

    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """N1, N2: the deal up to the first pause.

        The 8 aces go to foundations ``f1``..``f8`` in the order they appear in
        the deck (N1). The other 96 cards, in deck order, are the stock: face
        down, the next card to deal on top. The first round is dealt at once:
        the first 12 of those cards face up, one to each of ``t1``..``t12``.
        The game starts in the pause after round 1 (N2): phase ``pause``,
        counter ``rounds`` = 1. The stock is not in play, so no card of it is
        face up.
        """
        ### BEGIN SOLUTION
        aces = (card for card in cards if card.rank == ACE)
        for foundation in self.piles(FOUNDATION):
            state.put(foundation, [next(aces)])
        state.put("s", reversed([card for card in cards if card.rank != ACE]), face_up=False)
        for pile in self.piles(TABLEAU):
            state.put(pile, state.take("s"))
        state.phase = PAUSE
        state.counters["rounds"] = 1
        ### END SOLUTION

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """N3, N4, N5, general rulings: only one card moves at a time, the top card.

        The top card of a tableau pile and the top card of the waste may always
        be played (N4, N5). The top card of the stock may be played only once
        play has begun (phase ``play``): during the pauses of the deal the
        stock is not in play (N2, N3). Cards never come back from a foundation.
        """
        ### BEGIN SOLUTION
        kind = self.kind(pile)
        return count == 1 and (kind in (TABLEAU, WASTE) or (kind == STOCK and state.phase == PLAY))
        ### END SOLUTION

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """N5: foundations build up in suit from ace to king, one card at a time.

        A card goes onto a foundation whose top card has the same suit and is
        one rank lower. (An empty foundation would take an ace, as the general
        rulings say; in this game the aces are placed by the deal, N1.) Only
        one card is ever offered: that is :meth:`can_pick_up`'s rule (N5).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        top = state.top(foundation)
        suit, rank = (top.suit, top.rank + 1) if top is not None else (card.suit, ACE)
        return card.suit == suit and card.rank == rank
        ### END SOLUTION

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """N5: the tableau packs down in suit, one card at a time.

        A single card goes onto a tableau pile whose top card has the same suit
        and is one rank higher (a 7 of hearts onto the 8 of hearts). This holds
        during the pauses of the deal too (N2), for tableau cards. Only one
        card is ever offered: that is :meth:`can_pick_up`'s rule (N5).
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        *_, top = state[pile].cards
        return top.suit == card.suit and top.rank == card.rank + 1
        ### END SOLUTION

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """N6, N2: what fills an empty tableau pile (a space).

        Only once play has begun: during the pauses of the deal a space may not
        be filled (N2). Then a space takes one card: the top card of the stock,
        the top card of the waste, or a king that is the top card of a tableau
        pile; nothing else (N6). A space is never filled by itself. (One card
        at a time is :meth:`can_pick_up`'s rule, N5.)
        """
        ### BEGIN SOLUTION
        card, *_ = cards
        return state.phase == PLAY and (self.kind(source) in (STOCK, WASTE) or card.rank == KING)
        ### END SOLUTION

    def special_moves(self, state: State) -> list[Move]:
        """N2, N3, N7: the actions.

        During a pause (N2) the only action is ``deal``, the next round. Once
        play has begun ``deal`` is no longer legal; ``s>w`` (discard the top
        stock card to the waste) is legal whenever the stock has a card, even
        when that card could be played (N3). There is no redeal (N7).
        """
        ### BEGIN SOLUTION
        if state.phase == PAUSE:
            return [DEAL]
        return [DISCARD] if not state.is_empty("s") else []
        ### END SOLUTION

    def apply_special(self, state: State, move: Move) -> None:
        """N2, N3: what the actions do.

        ``deal`` deals the next round: the next 12 stock cards face up, one to
        each of ``t1``..``t12`` in order, an empty pile too; the counter
        ``rounds`` goes up by one, and after the 4th round play begins (phase
        ``play``). ``s>w`` puts the top stock card face up on the waste.
        """
        ### BEGIN SOLUTION
        if move == DEAL:
            for pile in self.piles(TABLEAU):
                state.put(pile, state.take("s"))
            state.counters["rounds"] += 1
            if state.counters["rounds"] == ROUNDS:
                state.phase = PLAY
        else:
            state.put("w", state.take("s"))
        ### END SOLUTION

    def after_move(self, state: State, move: Move) -> None:
        """N3 and the general stock-play ruling: once play has begun, the top
        card of the stock is face up (it is the drawn card), so after every
        move, the 4th round of the deal included, it is turned up. During the
        pauses the stock stays face down. Nothing goes to a foundation by itself.
        """
        ### BEGIN SOLUTION
        if state.phase == PLAY:
            state.turn_up("s")
        ### END SOLUTION

    def is_won(self, state: State) -> bool:
        """General ruling: the game is won when all 104 cards are on the foundations."""
        ### BEGIN SOLUTION
        return sum(len(state[f]) for f in self.piles(FOUNDATION)) == self.deck.size
        ### END SOLUTION

    def interchangeable_in(self, state: State) -> tuple[str, ...]:
        """Solver hint, not a rule (never graded): once play has begun (phase ``play``),
        the tableau piles are alike as well as the foundations. Only the rounds of the
        deal name piles (N2, each pile its card of the round); in play a pile takes a
        card by its top card (N5) or, empty, by where the card comes from (N6).
        """
        if state.phase != PLAY:
            return self.interchangeable
        return (FOUNDATION, TABLEAU)

    def safe_move(self, state: State) -> Move | None:
        """Solver hint, not a rule (never graded): a card the solver may put on a
        foundation without trying alternatives, found with the rule methods above by
        :func:`solitaire.solver.safe_foundation_move`: no card that could still be
        packed onto it is off the foundations, its twin (two packs) keeps a foundation
        to go to, and the move has no effect beyond the card itself.
        """
        return safe_foundation_move(self, state)

    def hopeless(self, state: State) -> bool:
        """Solver hint, not a rule (never graded): True when, by
        :func:`solitaire.solver_dead.cannot_all_go_up`, some card can never reach a
        foundation, so the game cannot be won (general ruling: all 104 cards go up; N5:
        up in suit from the ace, one card at a time).

        The frozen piles it is given: every tableau pile, bottom card first. Only its top
        card ever leaves it (N5, one card at a time), and cards that come onto it later (a
        packed card, N5, or a round of the deal, N2) only keep its cards there longer. A
        tableau card X leaves its pile only to a foundation, onto a tableau pile whose top
        card is X's successor (its suit, one rank higher; N5), or, a king, into a space
        (N6: a space takes a tableau card only if it is a king); no move takes a tableau
        card to the stock or the waste (N3, N4). So X, not a king, goes only to a
        foundation when every copy of its successor is on a foundation (cards never come
        back) or lies beneath X in X's own pile (it cannot be a top card while X is above
        it). Stock and waste cards are free in the relaxed game.
        """
        packs = self.deck.packs
        up = Counter(card for f in self.piles(FOUNDATION) for card in state.piles[f].cards)
        frozen = []
        any_marked = False
        for name in self.piles(TABLEAU):
            cards = state.piles[name].cards
            marks = successors_gone(cards, up, packs)  # a king is never marked: it may go to a space
            any_marked = any_marked or any(marks)
            frozen.append(list(zip(cards, marks, strict=True)))
        # with no card marked every frozen top card is free at once: nothing is dead
        return any_marked and cannot_all_go_up(self, state, frozen)

    INVERSION_COST = 10  # solver estimate: a card above a lower card of its suit (a foundation card is -10)
    STOCK_ORDER_COST = 1  # solver estimate: a stock card coming after a lower card of its suit

    def solver_estimate(self, state: State) -> int:
        """Solver hint, not a rule (never graded): each card of a tableau pile or the
        waste that lies above a lower card of its own suit costs ``INVERSION_COST``, as
        much as a card on the foundations is worth. It must leave first (onto the card of
        its suit one rank higher, N5, to a foundation, or, a king, into a space, N6), and
        only then can the lower card go up (N5: up in suit, one card at a time).

        Each further such card when the stock is counted in the order it will come (the
        waste bottom to top, then the stock top to bottom: N3, no redeal, N7) costs
        ``STOCK_ORDER_COST``: a stock card that comes after a lower card of its suit lands
        on the waste above it unless it goes to the tableau, a space or a foundation, or the
        lower card has gone up first. Charged lightly: unlike a waste card it still has those
        places to go. Only an estimate: it changes which win is found first, never a verdict."""
        piles = [state.piles[name].cards for name in self.piles(TABLEAU)]
        waste = state.piles["w"].cards
        blocking = blocking_in_sequences([*piles, waste])
        in_stock_order = blocking_in_sequences([*piles, waste + state.piles["s"].cards[::-1]])
        return self.INVERSION_COST * blocking + self.STOCK_ORDER_COST * (in_stock_order - blocking)
