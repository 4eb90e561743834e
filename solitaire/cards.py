"""Cards and decks.

A card is written rank then suit: ranks ``A 2 3 4 5 6 7 8 9 T J Q K``, suits
``C D H S``; ``AS`` is the ace of spades, ``TD`` the ten of diamonds. In state
notation a face-down card is written in lower case (``td``).

A deck is an ordered list of cards; its first card is dealt first. The
unshuffled order of one pack is suit by suit (clubs, diamonds, hearts, spades),
each suit from its lowest rank up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .errors import InvalidNotation

RANK_LETTERS = "A23456789TJQK"
SUITS = "CDHS"
RED_SUITS = frozenset("DH")
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
ALL_RANKS: tuple[int, ...] = tuple(range(1, 14))


class Card(NamedTuple):
    """A playing card: ``rank`` 1 (ace) .. 13 (king) and ``suit`` one of C D H S."""

    rank: int
    suit: str

    @property
    def color(self) -> str:
        """``"red"`` for diamonds and hearts, ``"black"`` for clubs and spades."""
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card('{self}')"


def parse_card(text: str) -> Card:
    """Parse ``AS``, ``td`` (either case) or ``10H`` into a card."""
    token = text.strip().upper()
    if token.startswith("10"):
        token = "T" + token[2:]
    if len(token) != 2 or token[0] not in RANK_LETTERS or token[1] not in SUITS:
        raise InvalidNotation(f"not a card: {text!r} (expected rank A23456789TJQK + suit CDHS)")
    return Card(RANK_LETTERS.index(token[0]) + 1, token[1])


def next_rank(rank: int, wrap: bool = False) -> int | None:
    """The rank one above ``rank``; after a king, an ace when ``wrap`` else None."""
    if rank < KING:
        return rank + 1
    return ACE if wrap else None


def ranks_adjacent(a: int, b: int, wrap: bool = False) -> bool:
    """True when the ranks differ by one (king and ace count as adjacent when ``wrap``)."""
    if abs(a - b) == 1:
        return True
    return wrap and {a, b} == {ACE, KING}


@dataclass(frozen=True)
class Deck:
    """What cards a variation is played with.

    ``packs`` packs of the ranks ``ranks`` in every suit. ``separate`` means the
    packs are shuffled one by one and laid end to end (Double Fives), instead of
    being mixed into one shuffled deck.
    """

    packs: int = 1
    ranks: tuple[int, ...] = ALL_RANKS
    separate: bool = False

    @property
    def size(self) -> int:
        return self.packs * len(self.ranks) * len(SUITS)

    def pack(self) -> list[Card]:
        """One unshuffled pack, in the documented base order."""
        return [Card(rank, suit) for suit in SUITS for rank in self.ranks]

    def describe(self) -> str:
        kind = "pack" if self.packs == 1 else ("separate packs" if self.separate else "packs")
        ranks = "" if self.ranks == ALL_RANKS else f" of {len(self.ranks) * 4} cards"
        return f"{self.packs} {kind}{ranks}"


ONE_PACK = Deck(1)
TWO_PACKS = Deck(2)
TWO_SEPARATE_PACKS = Deck(2, separate=True)
STRIPPED_36 = Deck(1, (ACE, *range(6, 14)))
STRIPPED_32 = Deck(1, (ACE, *range(7, 14)))
STRIPPED_48 = Deck(1, tuple(range(1, 13)))
