"""Scorpion (1 pack): pack four king-to-ace suit runs in the tableau and remove them.

Layout: seven tableau columns ``t1``..``t7``, a face-down reserve ``r`` of
three cards, and four piles ``f1``..``f4`` that receive each complete suit as
it is removed (cards never move onto them by a player's move).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from solitaire.cards import KING, ONE_PACK, QUEEN, Card
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

        Only C alone or C heading a same-suit run is moved so. With ``moves="runs"`` a card
        under T moves only heading a same-suit run up to T, so it never needs a card of
        the packed run (all lower than T) as its base. With ``moves="any_faceup"`` that
        fails (a card under T, carrying T, may need to go onto a card of the run: found
        by tests/engine/test_solver_hopeless.py, "face-up, no cycle"; an earlier version
        also carried the cards above C along, which fails too), and so does T moving onto
        whatever later lies on the run. So under ``any_faceup`` T must be a king lying
        alone in its column, and C its queen: nothing lies under T, a king moves only into
        an empty column, carrying the run, and if the run is complete its removal (S6)
        only takes early a suit whose cards could no longer move (each lies on its
        successor, and nothing goes onto an ace).
        """
        columns = self.piles(TABLEAU)
        fixed = columns[:RESERVE_SIZE] if not state.is_empty("r") else ()
        targets = [c for c in columns if c not in fixed and not state.is_empty(c)]
        if state.option("moves") == "any_faceup":
            targets = [c for c in targets if len(state[c].cards) == 1 and state[c].cards[0].rank == KING]
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

    def hopeless(self, state: State) -> bool:
        """Solver hint, not a rule (never graded): True only when no sequence of moves can
        win from ``state``, proved by a deadlock of cards that can never leave the card
        (or the empty column floor) they lie on.

        A *link* is a column card x together with what lies directly under it (a card,
        or the floor for a column's bottom card); it *breaks* when x stops lying there
        while that card stays. Moves are the only cause besides removal (S6) and the
        deal, which puts cards on top of columns and breaks nothing (S5). A move whose
        first card is x breaks x's link and carries every card above x along (S3), so
        the other links only move with their column. A link of a non-king x breaks only
        by x moving, which needs ``succ(x)`` (same suit, one rank higher, S2) to be the
        top card of a column: removal takes a king-to-ace run, where a non-king lies on
        its successor (S6). Hence, among the links of the state:

        * a non-king x whose successor has a card u directly on it cannot break its
          link before u's link has broken (while u lies on ``succ(x)``, nothing else
          can be put there: only x may go onto it, S2, and there is one pack);
          without such a u (``succ(x)`` a top card, or in the reserve, which the deal
          puts on top of columns) x's link may break at any time;
        * a king's link breaks only by the king moving into an empty column (S4), which
          needs some column's bottom link broken earlier (no column is empty), or by the
          removal of its suit, which needs the queen to lie directly on it, so the
          queen's link broken earlier or at the same move (unless she lies there now,
          or is in the reserve);
        * a face-down card's link breaks only after the link of the card lying on it
          (it moves once face up, and it turns up only when uncovered, S6).

        The links that may ever break are at most the least set closed under those
        conditions (a link joins once each of its conditions names a link of the set);
        any other link never breaks (take the first of them to break: a condition of it
        names a link that broke earlier, or a queen's link breaking at the same move,
        itself a non-king's link held to the first rule, so a link of the set).
        A win removes every card, so every link must break except where x lies on its
        successor (such pairs may leave together): when one of those never breaks, the
        position is lost. Example: x on ``succ(y)`` and y on ``succ(x)`` in two columns.
        """
        piles = [state[column].cards for column in self.piles(TABLEAU)]
        where = {card: (column, index) for column, cards in enumerate(piles)
                 for index, card in enumerate(cards)}
        floors = [(column, 0) for column, cards in enumerate(piles) if cards]
        no_space = all(piles)
        # each link waits for groups of links: a group is met when one of them breaks
        groups: list[tuple[tuple[int, int], tuple[tuple[int, int], ...]]] = []
        must: list[tuple[int, int]] = []
        for card, link in where.items():
            column, index = link
            if index + 1 < len(piles[column]) and not state[self.piles(TABLEAU)[column]].is_face_up(index):
                groups.append((link, ((column, index + 1),)))  # turned up once uncovered
            if card.rank == KING:
                must.append(link)
                queen = where.get(Card(QUEEN, card.suit))
                if no_space and queen is not None and queen != (column, index + 1):
                    groups.append((link, (queen, *floors)))
                continue
            if not index or piles[column][index - 1] != Card(card.rank + 1, card.suit):
                must.append(link)
            home = where.get(Card(card.rank + 1, card.suit))
            if home is not None and home[1] + 1 < len(piles[home[0]]):
                groups.append((link, ((home[0], home[1] + 1),)))
        waiting = dict.fromkeys(where.values(), 0)
        watchers: dict[tuple[int, int], list[int]] = {}
        for number, (link, members) in enumerate(groups):
            waiting[link] += 1
            for member in members:
                watchers.setdefault(member, []).append(number)
        met = [False] * len(groups)
        free = [link for link, count in waiting.items() if not count]
        broken = set(free)
        while free:
            for number in watchers.get(free.pop(), ()):
                if not met[number]:
                    met[number] = True
                    link = groups[number][0]
                    waiting[link] -= 1
                    if not waiting[link]:
                        broken.add(link)
                        free.append(link)
        return any(link not in broken for link in must)
