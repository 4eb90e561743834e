"""The uniform rule contract every variation implements.

A variation declares data (name, deck, layout, options) and implements the
rule methods below, the same names in every variation. The engine
(:mod:`solitaire.engine`) derives legal moves and applies moves from these
methods only. Each rule method is one grading category.

======================  ===================================================
rule method             question it answers
======================  ===================================================
``deal``                how the shuffled cards are laid out at the start
``can_pick_up``         may the top ``count`` cards of a pile move as a unit?
``foundation_accepts``  may these cards go onto this foundation (or discard pile)?
``tableau_accepts``     may these cards go onto this non-empty pile?
``space_accepts``       may these cards fill this empty (non-foundation) pile?
``special_moves``       which actions (deal, redeal, ``s>w`` ...) are legal now?
``apply_special``       what does an action do?
``after_move``          what happens by itself after any move (effects)?
``is_won``              is the game won?
======================  ===================================================

The engine guarantees what it can without knowing a game: only face-up cards
are picked up, cards go only onto piles whose kind is a target (tableau,
foundation, cell), never onto their own pile, never beyond a pile's capacity.

**Removals.** A game that removes cards together (a pair in Pyramid) declares
``removes``: the most piles one removal may name. The engine then lists the
removal ``a+b`` of the top cards of piles ``a`` and ``b`` (named in the
canonical order of :func:`solitaire.engine.removal_order`: the stock, the
waste, then the layout's order) when each of those cards is face up and may
be picked up (``can_pick_up(a, 1)``) and ``foundation_accepts(d, cards,
"a+b")`` holds for the discard pile ``d``, the cards in the removal's order.
The removal puts them on ``d``, the first-named pile's card first. Where a
card may also go to ``d`` alone, the layout makes ``d`` a target
(``single(DISCARD, target=True)``): ``t28>d`` is then an ordinary card move,
asked of ``foundation_accepts`` like any foundation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from .cards import Card, Deck
from .errors import InvalidNotation
from .moves import Move
from .piles import Layout
from .rng import MASK64, deal_shuffle_seed
from .state import OptionValue, State, parse_option_value

RULE_METHODS: tuple[str, ...] = (
    "deal",
    "can_pick_up",
    "foundation_accepts",
    "tableau_accepts",
    "space_accepts",
    "special_moves",
    "apply_special",
    "after_move",
    "is_won",
)


@dataclass(frozen=True)
class Option:
    """A named rule option with a default, e.g. Scorpion's ``moves``."""

    name: str
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] = field(default=())
    #: for an integer option without choices: the lowest and highest value allowed
    bounds: tuple[int, int] | None = None

    def allowed(self) -> tuple[OptionValue, ...]:
        if self.choices:
            return self.choices
        if isinstance(self.default, bool):
            return (False, True)
        return ()

    def coerce(self, text: str | OptionValue) -> OptionValue:
        """The value of this option written ``text``; raises InvalidNotation if not allowed."""
        value = parse_option_value(text.strip().lower()) if isinstance(text, str) else text
        if isinstance(self.default, bool) and isinstance(value, str):
            value = {"on": True, "yes": True, "1": True, "off": False, "no": False}.get(value, value)
        allowed = self.allowed()
        out_of_bounds = (
            self.bounds is not None
            and isinstance(value, int)
            and not self.bounds[0] <= value <= self.bounds[1]
        )
        if allowed and value not in allowed or type(value) is not type(self.default) or out_of_bounds:
            shown = ", ".join(str(a).lower() for a in allowed) or type(self.default).__name__
            if self.bounds is not None:
                shown = f"a whole number from {self.bounds[0]} to {self.bounds[1]}"
            raise InvalidNotation(f"option {self.name} cannot be {text!r} (allowed: {shown})")
        return value


#: RULINGS-000 G6: the option every game with in-game shuffles declares. 0 (the
#: default) derives the seed from the deal (:func:`solitaire.rng.deal_shuffle_seed`);
#: any other value is the shuffle seed itself, so a trace can fix it.
SHUFFLE_SEED_OPTION = Option(
    "shuffle_seed",
    0,
    "seed of the in-game shuffles; 0 = derived from the deal (SHA-256 of its cards)",
    bounds=(0, MASK64),
)


class Variation:
    """Base class of a variation. Subclasses set the class attributes and rules."""

    name: ClassVar[str]
    title: ClassVar[str]
    deck: ClassVar[Deck]
    layout: ClassVar[Layout]
    options: ClassVar[tuple[Option, ...]] = ()
    #: solver hint, not a rule: kinds of pile whose piles may trade places without
    #: changing the game (say, foundations with no fixed suit); none by default
    interchangeable: ClassVar[tuple[str, ...]] = ()
    #: solver hint, not a rule: what a card on the foundations is worth in the best-first
    #: search's estimate, against one card lying on a card the foundations take next
    foundation_weight: ClassVar[int] = 10
    #: the most piles whose top cards one removal (``t3+t5``) takes together to the
    #: discard pile ``d`` (see the module docstring); 0: the game has no removals
    removes: ClassVar[int] = 0

    # -- helpers for rule methods (not rules themselves) --------------------
    def piles(self, kind: str) -> tuple[str, ...]:
        """The names of this variation's piles of ``kind``, in layout order."""
        return self.layout._names_by_kind.get(kind, ())  # of_kind without a call: rule methods ask often

    def kind(self, pile: str) -> str:
        """The kind of pile ``pile`` (``"tableau"``, ``"foundation"``, ``"stock"`` ...)."""
        return self.layout.kinds[pile]

    def new_state(self, options: dict[str, OptionValue] | None = None) -> State:
        """An empty state with every pile of the layout, phase ``play``, no counters."""
        return State(self.name, self.resolve_options(options or {}), self.layout.names)

    def resolve_options(self, given: dict[str, str | OptionValue]) -> dict[str, OptionValue]:
        """Every option, the given ones checked and coerced, the others at their default."""
        known = {option.name: option for option in self.options}
        for name in given:
            if name not in known:
                names = ", ".join(known) or "none"
                raise InvalidNotation(f"{self.name} has no option {name!r} (options: {names})")
        return {
            name: option.coerce(given[name]) if name in given else option.default
            for name, option in known.items()
        }

    def start_shuffles(self, state: State, cards: Sequence[Card]) -> None:
        """Set the in-game shuffle counters at the deal (RULINGS-000 G6); call from ``deal``.

        Counter ``shuffle_seed``: option ``shuffle_seed`` when it is not 0, else
        derived from ``cards`` (the deal, first card dealt first). Counter
        ``shuffles``: the shuffles done, 0. Then :meth:`State.shuffled` does each one.
        """
        given = state.options.get("shuffle_seed", 0)
        seed = given if isinstance(given, int) and given else deal_shuffle_seed(cards)
        state.counters["shuffle_seed"] = seed
        state.counters["shuffles"] = 0

    # -- solver hints (not rules; never graded) ----------------------------
    def interchangeable_in(self, state: State) -> tuple[str, ...]:
        """The kinds of pile whose piles may trade places in ``state`` without changing
        the game (the solver treats two such states as one position): by default the
        class's ``interchangeable``. Override it when a kind is interchangeable only in
        some states (tableau piles once the deal that fills them in order is over); the
        answer must be the same for two states that differ only by such an exchange."""
        return self.interchangeable

    def safe_move(self, state: State) -> Move | None:
        """A move the solver may play without searching alternatives, because it can
        never make a winnable position unwinnable; None when there is none (the default)."""
        return None

    def solver_priority(self, state: State, move: Move) -> int:
        """How late the solver's depth-first search tries the legal ``move`` of ``state``:
        lower first, the generic order breaking ties; 0 for every move by default. Any
        answer is sound: an order changes which win is found first, never a verdict."""
        return 0

    def solver_estimate(self, state: State) -> int:
        """A cost added to the best-first search's generic estimate of ``state`` (lower is
        more promising; one card on a foundation is worth ``foundation_weight``); 0 by default. Any answer
        is sound: it changes which state is expanded next, never a verdict."""
        return 0

    def hopeless(self, state: State) -> bool:
        """True only when no sequence of moves from ``state`` can win (the solver then
        generates no move from it); False by default. A wrong True makes winnable deals "lost":
        each override argues from the rulings why its cases are dead."""
        return False

    # -- the rule methods ---------------------------------------------------
    def deal(self, state: State, cards: Sequence[Card]) -> None:
        """Lay out ``cards`` (the whole deck, first card dealt first) on the empty ``state``."""
        raise NotImplementedError

    def can_pick_up(self, state: State, pile: str, count: int) -> bool:
        """Whether the top ``count`` face-up cards of ``pile`` may be moved as a unit."""
        raise NotImplementedError

    def foundation_accepts(
        self, state: State, foundation: str, cards: tuple[Card, ...], source: str
    ) -> bool:
        """Whether ``cards`` (from ``source``) may go onto ``foundation`` (a foundation or the
        discard pile). For a removal, ``cards`` are the removed top cards in the removal's
        order and ``source`` is the removal as written (``"s+t3"``)."""
        raise NotImplementedError

    def tableau_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """Whether ``cards`` (from ``source``, lowest first) may go onto non-empty ``pile``."""
        raise NotImplementedError

    def space_accepts(self, state: State, pile: str, cards: tuple[Card, ...], source: str) -> bool:
        """Whether ``cards`` (from ``source``) may fill the empty non-foundation ``pile``."""
        raise NotImplementedError

    def special_moves(self, state: State) -> list[Move]:
        """The actions legal now (``deal``, ``redeal``, ``s>w`` ...); none by default."""
        return []

    def apply_special(self, state: State, move: Move) -> None:
        """Carry out the legal action ``move`` on ``state`` in place."""
        raise NotImplementedError

    def after_move(self, state: State, move: Move) -> None:
        """Apply the automatic effects that follow ``move`` (state already moved), in place."""

    def is_won(self, state: State) -> bool:
        """Whether ``state`` is a won game."""
        raise NotImplementedError
