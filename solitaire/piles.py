"""Piles and layouts.

A :class:`Pile` is an immutable value: a tuple of cards from bottom to top and
the number of face-down cards at the bottom (face-down cards always lie under
the face-up ones). A :class:`Layout` declares a variation's piles as data: each
pile's short stable name, its kind, and its capabilities.

Pile names: ``t1``.. tableau, ``f1``.. foundations, ``s`` stock, ``w`` waste,
``c1``.. free cells, ``r`` reserve, ``h1``.. hand-row slots, ``d`` discard pile.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card

TABLEAU, FOUNDATION, STOCK, WASTE, CELL, RESERVE, HAND, DISCARD = (
    "tableau", "foundation", "stock", "waste", "cell", "reserve", "hand", "discard",
)
#: kinds that cards may be moved onto by an ordinary card move (``t3>f2``)
TARGET_KINDS = frozenset({TABLEAU, FOUNDATION, CELL})
#: kinds whose piles take cards by ``foundation_accepts``: a discard pile made a target
#: (``single(DISCARD, target=True)``) is a foundation taking what its game removes alone
#: (Pyramid's kings); removals ``a+b`` reach it whether or not it is a target
FOUNDATION_KINDS = frozenset({FOUNDATION, DISCARD})
PREFIX = {TABLEAU: "t", FOUNDATION: "f", STOCK: "s", WASTE: "w", CELL: "c",
          RESERVE: "r", HAND: "h", DISCARD: "d"}


class Pile:
    """An immutable pile: ``cards`` bottom to top; the lowest ``down`` are face down."""

    __slots__ = ("cards", "down", "_hash")

    def __init__(self, cards: Iterable[Card] = (), down: int = 0) -> None:
        self.cards: tuple[Card, ...] = tuple(cards)
        if not 0 <= down <= len(self.cards):
            raise ValueError(f"{down} face-down cards in a pile of {len(self.cards)}")
        self.down = down
        self._hash: int | None = None

    def __len__(self) -> int:
        return len(self.cards)

    def __bool__(self) -> bool:
        return bool(self.cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pile) and self.down == other.down and self.cards == other.cards

    def __hash__(self) -> int:
        # Piles are immutable, and solvers hash the same pile many times.
        if self._hash is None:
            self._hash = hash((self.cards, self.down))
        return self._hash

    def __repr__(self) -> str:
        return f"Pile({[str(c) for c in self.cards]}, down={self.down})"

    @property
    def top(self) -> Card | None:
        """The top card, face up or not; None for an empty pile."""
        return self.cards[-1] if self.cards else None

    @property
    def face_up(self) -> tuple[Card, ...]:
        """The face-up cards, bottom to top."""
        return self.cards[self.down:]

    @property
    def top_is_face_up(self) -> bool:
        return len(self.cards) > self.down

    def is_face_up(self, index: int) -> bool:
        """Whether the card at ``index`` (0 = bottom, negative from the top) is face up."""
        if index < 0:
            index += len(self.cards)
        return index >= self.down

    def added(self, cards: Iterable[Card], face_up: bool = True) -> Pile:
        """This pile with ``cards`` put on top (first of them lowest)."""
        new = tuple(cards)
        if face_up:
            return Pile(self.cards + new, self.down)
        if self.down != len(self.cards):
            raise ValueError("a face-down card cannot lie on a face-up one")
        return Pile(self.cards + new, self.down + len(new))

    def added_under(self, cards: Iterable[Card], face_up: bool = False) -> Pile:
        """This pile with ``cards`` slid underneath (the first of them lowest)."""
        new = tuple(cards)
        if face_up and self.down:
            raise ValueError("a face-up card cannot lie under a face-down one")
        return Pile(new + self.cards, self.down + (0 if face_up else len(new)))

    def without_top(self, count: int = 1) -> Pile:
        """This pile with its top ``count`` cards taken off."""
        if not 0 <= count <= len(self.cards):
            raise ValueError(f"cannot take {count} cards from a pile of {len(self.cards)}")
        rest = self.cards[: len(self.cards) - count]
        return Pile(rest, min(self.down, len(rest)))

    def turned_up(self) -> Pile:
        """This pile with its top card face up (unchanged if it already is, or is empty)."""
        if self.cards and self.down == len(self.cards):
            return Pile(self.cards, self.down - 1)
        return self


EMPTY = Pile()


@dataclass(frozen=True)
class PileSpec:
    """One pile of a layout: its name, its kind and its capabilities.

    ``capacity``: at most this many cards (a free cell holds one); None means no limit.
    ``target``: whether ordinary card moves may put cards on it; by default the
    kinds tableau, foundation and cell are targets.
    """

    name: str
    kind: str
    capacity: int | None = None
    target: bool | None = None

    @property
    def is_target(self) -> bool:
        return self.kind in TARGET_KINDS if self.target is None else self.target


class Layout:
    """The piles of a variation, in canonical order."""

    def __init__(self, *groups: Iterable[PileSpec]) -> None:
        self.piles: tuple[PileSpec, ...] = tuple(spec for group in groups for spec in group)
        self.by_name = {spec.name: spec for spec in self.piles}
        if len(self.by_name) != len(self.piles):
            raise ValueError("pile names must be unique")
        #: (name, takes cards by foundation_accepts, capacity) of every pile that receives card moves
        self.targets: tuple[tuple[str, bool, int | None], ...] = tuple(
            (spec.name, spec.kind in FOUNDATION_KINDS, spec.capacity) for spec in self.piles if spec.is_target
        )
        #: the piles card moves may not go onto (a card-shaped move onto one, ``s>w``, is an action)
        self.non_targets: frozenset[str] = frozenset(spec.name for spec in self.piles if not spec.is_target)
        #: per pile, the targets a card move from it may reach: ``targets`` without itself
        self.targets_from: dict[str, tuple[tuple[str, bool, int | None], ...]] = {
            spec.name: tuple(t for t in self.targets if t[0] != spec.name) for spec in self.piles
        }
        self._names_by_kind: dict[str, tuple[str, ...]] = {}
        for spec in self.piles:
            self._names_by_kind.setdefault(spec.kind, ())
            self._names_by_kind[spec.kind] += (spec.name,)
        #: pile name -> kind (what ``kind`` answers, one dictionary lookup)
        self.kinds: dict[str, str] = {spec.name: spec.kind for spec in self.piles}
        self._names = tuple(spec.name for spec in self.piles)
        #: the order piles are named in a removal (``s+t3``): the stock, the waste, then layout order
        first = {STOCK: 0, WASTE: 1}
        self.removal_order: tuple[str, ...] = tuple(
            sorted(self._names, key=lambda name: (first.get(self.kinds[name], 2), self._names.index(name)))
        )

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    def of_kind(self, kind: str) -> tuple[str, ...]:
        """The names of the piles of ``kind``, in order."""
        return self._names_by_kind.get(kind, ())

    def kind(self, name: str) -> str:
        return self.kinds[name]

    def __contains__(self, name: object) -> bool:
        return name in self.by_name


def numbered(kind: str, count: int, **capabilities: object) -> tuple[PileSpec, ...]:
    """``count`` piles of ``kind`` named with the kind's prefix and 1, 2, ..."""
    prefix = PREFIX[kind]
    return tuple(PileSpec(f"{prefix}{i}", kind, **capabilities) for i in range(1, count + 1))  # type: ignore[arg-type]


def single(kind: str, **capabilities: object) -> tuple[PileSpec, ...]:
    """One pile of ``kind`` named with the kind's prefix alone (``s``, ``w``, ``r``, ``d``)."""
    return (PileSpec(PREFIX[kind], kind, **capabilities),)  # type: ignore[arg-type]
