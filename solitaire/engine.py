"""Legal moves, legality and applying moves, derived from a variation's rule methods.

Generation and checking share one path: :func:`legal_moves` enumerates
candidates and keeps those for which :func:`_pick_up_ok` and :func:`_target_ok`
hold; :func:`check_move` runs the same two functions for one candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import Card
from .errors import IllegalMove, InvalidNotation
from .moves import MOVE, REMOVE, Move
from .piles import DISCARD, FOUNDATION_KINDS
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
    return _accepts(variation, state, source, target, spec.kind in FOUNDATION_KINDS, spec.capacity, cards)


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


#: ``Move(kind, args, count)`` without the keyword handling of NamedTuple's constructor
_new_move = tuple.__new__


def card_moves(variation: Variation, state: State) -> list[Move]:
    """Every legal card move (``src[:n]>dst``), in layout order."""
    return _card_moves(variation, state, None)


def _card_moves(variation: Variation, state: State, picked: dict[str, bool] | None) -> list[Move]:
    """:func:`card_moves`; when ``picked`` is a dict, it receives ``can_pick_up(pile, 1)`` of
    every pile asked, so that the removals that follow do not ask it again.

    The hot loop of generation, written for speed: the rule methods are looked up
    once, the targets of each source come precomputed, and the dispatch of
    :func:`_accepts` is inlined (same questions, same order, same answers).
    """
    moves: list[Move] = []
    targets_of = variation.layout.targets_from.get
    can_pick_up = variation.can_pick_up
    foundation_accepts = variation.foundation_accepts
    tableau_accepts = variation.tableau_accepts
    space_accepts = variation.space_accepts
    piles = state.piles
    every_target = variation.layout.targets
    for source, pile in piles.items():
        cards_of_source = pile.cards
        size = len(cards_of_source)
        if size <= pile.down:
            continue
        targets = targets_of(source)
        if targets is None:  # a pile the layout does not know: every target but itself
            targets = tuple(t for t in every_target if t[0] != source)
        for count in range(1, size - pile.down + 1):
            allowed = can_pick_up(state, source, count)
            if count == 1 and picked is not None:
                picked[source] = bool(allowed)
            if not allowed:
                continue
            cards = cards_of_source[size - count:]
            for target, is_foundation, capacity in targets:
                on_target = piles[target].cards
                if capacity is not None and len(on_target) + count > capacity:
                    continue
                if is_foundation:
                    ok = foundation_accepts(state, target, cards, source)
                elif on_target:
                    ok = tableau_accepts(state, target, cards, source)
                else:
                    ok = space_accepts(state, target, cards, source)
                if ok:
                    moves.append(_new_move(Move, (MOVE, (source, target), count)))
    return moves


# -- removals (see "Removals" in solitaire.variation) ---------------------------
def removal_order(variation: Variation) -> tuple[str, ...]:
    """The order piles are named in a removal: the stock, the waste, then the layout's order."""
    return variation.layout.removal_order


def discard_pile(variation: Variation) -> str:
    """The pile removals go to: the layout's (first) discard pile."""
    piles = variation.layout.of_kind(DISCARD)
    if not piles:
        raise ValueError(f"{variation.name} declares removals but has no discard pile")
    return piles[0]


def _removable(variation: Variation, state: State, picked: dict[str, bool] | None = None) -> list[str]:
    """The piles, in removal order, whose top card is face up and may be picked up.
    ``picked``: answers of ``can_pick_up(pile, 1)`` already asked in this generation."""
    available = []
    for name in removal_order(variation):
        pile = state.piles[name]
        if not pile.top_is_face_up:
            continue
        if picked is not None and name in picked:
            allowed = picked[name]
        else:
            allowed = _pick_up_ok(variation, state, name, 1)
        if allowed:
            available.append(name)
    return available


def removal_moves(variation: Variation, state: State) -> list[Move]:
    """Every legal removal (``a+b``), piles in removal order; none unless the game removes."""
    return _removal_moves(variation, state, None)


def _removal_moves(variation: Variation, state: State, picked: dict[str, bool] | None) -> list[Move]:
    """:func:`removal_moves`, the dispatch of :func:`_accepts` inlined (a removal always asks
    ``foundation_accepts`` of the discard pile, within its capacity)."""
    if variation.removes < 2:
        return []
    discard = discard_pile(variation)
    capacity = variation.layout.by_name[discard].capacity
    room = None if capacity is None else capacity - len(state.piles[discard].cards)
    accepts = variation.foundation_accepts
    moves = []
    available = _removable(variation, state, picked)
    top = {name: state.piles[name].cards[-1] for name in available}
    for size in range(2, variation.removes + 1):
        if room is not None and size > room:
            continue
        for piles in combinations(available, size):
            cards = tuple([top[name] for name in piles])
            if accepts(state, discard, cards, "+".join(piles)):
                moves.append(_new_move(Move, (REMOVE, piles, 1)))
    return moves


def _check_removal(variation: Variation, state: State, move: Move) -> str | None:
    """None if the removal ``move`` is legal, else the reason it is not, in words."""
    piles = move.args
    if variation.removes < 2:
        return f"{variation.name} has no removals (a+b)"
    if len(piles) > variation.removes:
        return f"a removal in {variation.name} names at most {variation.removes} piles"
    for name in piles:
        if name not in variation.layout:
            return f"{variation.name} has no pile {name}"
    if len(set(piles)) != len(piles):
        return f"{move} names a pile twice"
    order = removal_order(variation)
    canonical = "+".join(sorted(piles, key=order.index))
    if canonical != str(move):
        return f"write this removal as {canonical} (piles in the order s, w, then the layout's)"
    for name in piles:
        if not state.piles[name].top_is_face_up:
            return f"{name} has no face-up card"
        if not _pick_up_ok(variation, state, name, 1):
            return f"cannot pick up {state.piles[name].cards[-1]} from {name}"
    discard = discard_pile(variation)
    cards = tuple(state.piles[name].cards[-1] for name in piles)
    capacity = variation.layout.by_name[discard].capacity
    if not _accepts(variation, state, str(move), discard, True, capacity, cards):
        return f"{discard} does not take {' '.join(str(c) for c in cards)} together"
    return None


def legal_moves(variation: Variation, state: State) -> list[Move]:
    """Every legal move: card moves, removals, then the variation's actions."""
    actions = list(variation.special_moves(state))
    if variation.removes < 2:
        return _card_moves(variation, state, None) + actions
    # can_pick_up(pile, 1) is asked once per generation, not again for the removals
    picked: dict[str, bool] = {}
    return _card_moves(variation, state, picked) + _removal_moves(variation, state, picked) + actions


def is_action(variation: Variation, move: Move) -> bool:
    """Whether ``move`` is the variation's business (an action, or a card-shaped
    move onto a pile that is not a target, such as ``s>w``) rather than a card move
    or a removal, which the engine decides from the rule methods."""
    kind = move.kind
    if kind == REMOVE:
        return False
    if kind != MOVE:
        return True
    target = move.args[1]
    layout = variation.layout
    return target in layout.non_targets and move.args[0] in layout.by_name


def check_move(variation: Variation, state: State, move: Move) -> str | None:
    """None if ``move`` is legal in ``state``, else the reason it is not, in words."""
    if move.kind == REMOVE:
        return _check_removal(variation, state, move)
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
    elif move.kind == REMOVE:
        discard = discard_pile(variation)
        for name in move.args:
            state.put(discard, state.take(name))
    else:  # state.take, then state.put, without the calls (applied for every move a search tries)
        piles = state.piles
        source, target = move.args[0], move.args[1]
        pile = piles[source]
        count = move.count
        piles[source] = pile.without_top(count)
        piles[target] = piles[target].added(pile.cards[len(pile.cards) - count:])


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
