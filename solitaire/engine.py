"""Legal moves, legality and applying moves, derived from a variation's rule methods.

Generation and checking share one path: :func:`legal_moves` enumerates
candidates and keeps those for which :func:`_pick_up_ok` and :func:`_target_ok`
hold; :func:`check_move` runs the same two functions for one candidate.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .errors import IllegalMove, InvalidNotation
from .moves import MOVE, Move
from .piles import FOUNDATION
from .rng import SplitMix64
from .state import OptionValue, State
from .variation import Variation


def shuffled_deck(variation: Variation, seed: int) -> list[Card]:
    """Deal number ``seed`` of ``variation``: its deck shuffled by the engine's PRNG."""
    rng = SplitMix64(seed)
    deck = variation.deck
    if deck.separate:
        cards: list[Card] = []
        for _ in range(deck.packs):
            pack = deck.pack()
            rng.shuffle(pack)
            cards.extend(pack)
        return cards
    cards = deck.pack() * deck.packs
    rng.shuffle(cards)
    return cards


def start(
    variation: Variation,
    cards: Sequence[Card],
    options: dict[str, OptionValue] | None = None,
    seed: int | None = None,
) -> State:
    """The initial state of a game dealt from the explicit deck ``cards``."""
    if sorted(cards) != sorted(variation.deck.pack() * variation.deck.packs):
        raise InvalidNotation(f"that deck is not the {variation.deck.describe()} of {variation.name}")
    state = variation.new_state(options)
    if seed is not None:
        state.counters["seed"] = seed
    variation.deal(state, list(cards))
    return state


def new_game(
    variation: Variation, seed: int, options: dict[str, OptionValue] | None = None
) -> State:
    """The initial state of deal number ``seed``."""
    return start(variation, shuffled_deck(variation, seed), options)


# -- one path for generation and checking -------------------------------------
def _pick_up_ok(variation: Variation, state: State, source: str, count: int) -> bool:
    pile = state.piles[source]
    return 1 <= count <= len(pile.cards) - pile.down and variation.can_pick_up(state, source, count)


def _target_ok(
    variation: Variation, state: State, source: str, target: str, cards: tuple[Card, ...]
) -> bool:
    spec = variation.layout.by_name[target]
    if target == source or not spec.is_target:
        return False
    return _accepts(variation, state, source, target, spec.kind == FOUNDATION, spec.capacity, cards)


def _accepts(
    variation: Variation,
    state: State,
    source: str,
    target: str,
    is_foundation: bool,
    capacity: int | None,
    cards: tuple[Card, ...],
) -> bool:
    """The rule-method dispatch for a target pile: foundation, space or build."""
    pile = state.piles[target]
    if capacity is not None and len(pile.cards) + len(cards) > capacity:
        return False
    if is_foundation:
        return variation.foundation_accepts(state, target, cards, source)
    if not pile.cards:
        return variation.space_accepts(state, target, cards, source)
    return variation.tableau_accepts(state, target, cards, source)


def card_moves(variation: Variation, state: State) -> list[Move]:
    """Every legal card move (``src[:n]>dst``), in layout order."""
    moves = []
    targets = variation.layout.targets
    for source, pile in state.piles.items():
        for count in range(1, len(pile.cards) - pile.down + 1):
            if not variation.can_pick_up(state, source, count):
                continue
            cards = pile.cards[len(pile.cards) - count:]
            for target, is_foundation, capacity in targets:
                if target != source and _accepts(
                    variation, state, source, target, is_foundation, capacity, cards
                ):
                    moves.append(Move(MOVE, (source, target), count))
    return moves


def legal_moves(variation: Variation, state: State) -> list[Move]:
    """Every legal move: card moves, then the variation's actions."""
    return card_moves(variation, state) + list(variation.special_moves(state))


def is_action(variation: Variation, move: Move) -> bool:
    """Whether ``move`` is the variation's business (an action, or a card-shaped
    move onto a pile that is not a target, such as ``s>w``) rather than a card move."""
    if move.kind != MOVE:
        return True
    spec = variation.layout.by_name.get(move.target)
    return spec is not None and move.source in variation.layout and not spec.is_target


def check_move(variation: Variation, state: State, move: Move) -> str | None:
    """None if ``move`` is legal in ``state``, else the reason it is not, in words."""
    source, target = move.args if move.kind == MOVE else ("", "")
    for name in (source, target) if move.kind == MOVE else ():
        if name not in variation.layout:
            return f"{variation.name} has no pile {name}"
    if is_action(variation, move):
        if move in variation.special_moves(state):
            return None
        return f"{move} is not allowed now"
    pile = state.piles[source]
    if move.count > len(pile.cards) - pile.down:
        have = len(pile.cards) - pile.down
        return f"{source} has {have} face-up card{'s' if have != 1 else ''}, not {move.count}"
    if not _pick_up_ok(variation, state, source, move.count):
        return f"cannot pick up {_cards_phrase(pile.cards, move.count)} from {source}"
    cards = pile.cards[len(pile.cards) - move.count:]
    if not _target_ok(variation, state, source, target, cards):
        return f"{target} does not take {_cards_phrase(pile.cards, move.count)}"
    return None


def _cards_phrase(cards: tuple[Card, ...], count: int) -> str:
    moved = cards[len(cards) - count:]
    return " ".join(str(c) for c in moved) if count <= 3 else f"{count} cards from {moved[0]}"


def is_legal(variation: Variation, state: State, move: Move) -> bool:
    return check_move(variation, state, move) is None


def apply_unchecked(variation: Variation, state: State, move: Move) -> State:
    """The state after the (known legal) ``move``, effects included; ``state`` is unchanged."""
    new = state.copy()
    move_cards(variation, new, move)
    variation.after_move(new, move)
    return new


def move_cards(variation: Variation, state: State, move: Move) -> None:
    """The move itself, before effects: cards carried, or the action carried out."""
    if is_action(variation, move):
        variation.apply_special(state, move)
    else:
        state.put(move.target, state.take(move.source, move.count))


def apply(variation: Variation, state: State, move: Move) -> State:
    """The state after ``move``; raises :class:`IllegalMove` with the reason if illegal."""
    reason = check_move(variation, state, move)
    if reason is not None:
        raise IllegalMove(move, reason)
    return apply_unchecked(variation, state, move)


def is_won(variation: Variation, state: State) -> bool:
    return bool(variation.is_won(state))


def check_state(variation: Variation, state: State) -> None:
    """Raise InvalidNotation unless ``state`` fits ``variation`` (name, options, piles)."""
    if state.variation != variation.name:
        raise InvalidNotation(f"state is of {state.variation!r}, not {variation.name!r}")
    expected = variation.resolve_options(dict(state.options))
    if expected != state.options:
        missing = sorted(set(expected) - set(state.options))
        raise InvalidNotation(f"state must list every option of {variation.name}: missing {missing}")
    if tuple(state.piles) != variation.layout.names:
        raise InvalidNotation(
            f"{variation.name} has piles {' '.join(variation.layout.names)}; "
            f"the state lists {' '.join(state.piles)}"
        )
    for spec in variation.layout.piles:
        size = len(state.piles[spec.name])
        if spec.capacity is not None and size > spec.capacity:
            raise InvalidNotation(f"pile {spec.name} holds {size} cards, more than {spec.capacity}")
