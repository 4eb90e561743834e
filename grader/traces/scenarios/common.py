"""Helpers shared by the scenario modules: near-won positions and scripted traces.

A *near-won* position is made from a won one: cards are taken off the tops of
the foundations (never a foundation's last card, which the deal placed) and
scattered over the other piles by a variation-specific ``scatter`` function;
a bounded search on the reference then finds a winning line, which the trace
plays. Positions whose search fails are skipped (another seed is tried).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solitaire import engine
from solitaire.cards import Card
from solitaire.moves import Move, parse_move
from solitaire.piles import FOUNDATION, Pile
from solitaire.state import State

from ..build import Kit
from ..builder import SCENARIO, Density, Rng, TraceBuilder, choose_move, playout, search_win

Scatter = Callable[[State, Card, Rng], bool]
Finish = Callable[[State], None]


def settled(kit: Kit, state: State, move: Move) -> bool:
    """Whether no effect is pending in ``state`` (after_move would change nothing)."""
    after = state.copy()
    kit.variation.after_move(after, move)
    return after == state


def pull_from_foundations(state: State, rng: Rng, count: int, foundations: Sequence[str],
                          scatter: Scatter, keep: int = 1) -> int:
    """Move up to ``count`` foundation top cards elsewhere with ``scatter``; how many moved."""
    moved = 0
    for _ in range(count * 4):
        if moved == count:
            break
        candidates = [f for f in foundations if len(state.piles[f]) > keep]
        if not candidates:
            break
        foundation = rng.choice(candidates)
        card = state.piles[foundation].top
        assert card is not None
        before = state.copy()
        state.take(foundation)
        if scatter(state, card, rng):
            moved += 1
        else:
            state.piles = before.piles
    return moved


def near_won(
    kit: Kit,
    name: str,
    won: State,
    scatter: Scatter,
    pulls: int,
    *,
    finish: Finish | None = None,
    neutral: Move | None = None,
    rulings: Sequence[str] = (),
    description: str = "",
    public: bool = False,
    density: Density = SCENARIO,
    attempts: int = 8,
    max_nodes: int = 4000,
    keep: int = 1,
    strip: int = 0,
) -> dict[str, Any] | None:
    """A trace from a position ``pulls`` cards away from ``won`` that plays a winning line.

    ``strip`` foundations are emptied completely first (their base cards too).
    """
    variation = kit.variation
    foundations = variation.piles(FOUNDATION)
    for attempt in range(attempts):
        rng = Rng(f"{name}/{attempt}")
        state = won.copy()
        for foundation in rng.sample(list(foundations), strip):  # emptied completely, base card too
            while state.piles[foundation].cards:
                card = state.piles[foundation].top
                state.take(foundation)
                if not scatter(state, card, rng):  # type: ignore[arg-type]
                    state.put(foundation, [card])  # type: ignore[list-item]
                    break
        pull_from_foundations(state, rng, pulls, foundations, scatter, keep)
        if finish is not None:
            finish(state)
        engine.check_state(variation, state)
        if neutral is not None and not settled(kit, state, neutral):
            continue
        if engine.is_won(variation, state):
            continue
        line = search_win(variation, state, max_nodes=max_nodes)
        if not line:
            continue
        builder = kit.trace(name, state=state, density=density, rulings=rulings,
                            description=description or f"{len(line)} moves from a win; the trace plays "
                            "a winning line found by search")
        for move in line:
            builder.play(move)
        return kit.add(builder, public=public)
    return None


def scripted(
    kit: Kit,
    name: str,
    state: State,
    moves: Sequence[str | Move],
    *,
    rulings: Sequence[str] = (),
    description: str = "",
    then: int = 0,
    density: Density = SCENARIO,
    public: bool = False,
    neutral: Move | None = None,
    expect_legal: bool | None = None,
) -> TraceBuilder:
    """A trace from a constructed ``state``: the given moves (legal or not), then ``then`` playout moves."""
    if neutral is not None and not settled(kit, state, neutral):
        raise AssertionError(f"{name}: the constructed position has effects pending")
    builder = kit.trace(name, state=state, density=density, rulings=rulings, description=description)
    for move in moves:
        move = parse_move(move) if isinstance(move, str) else move
        legal = builder.play(move)
        if expect_legal is not None and legal != expect_legal and move.kind != "redeal":
            raise AssertionError(f"{name}: {move} is {'legal' if legal else 'illegal'}, unexpectedly")
    if then:
        playout(builder, then)
    kit.add(builder, public=public)
    return builder


def deck_with(variation: Any, seed: int, front: Sequence[Card]) -> list[Card]:
    """Deal number ``seed`` of ``variation`` with the cards ``front`` moved to its start, in order."""
    cards = engine.shuffled_deck(variation, seed)
    for card in front:
        cards.remove(card)
    return list(front) + cards


def mine(
    kit: Kit,
    predicate: Callable[[State], bool],
    *,
    options: dict[str, Any] | None = None,
    seeds: Sequence[int] = tuple(range(1, 41)),
    steps: int = 250,
    action_bias: float = 0.3,
    greedy: float = 0.6,
) -> State | None:
    """The first state of seeded playouts (from deals ``seeds``) that satisfies ``predicate``."""
    variation = kit.variation
    for seed in seeds:
        rng = Rng(f"mine/{seed}")
        state = engine.new_game(variation, seed, dict(options or {}))
        seen = {state.key()}
        for _ in range(steps):
            if predicate(state):
                return state
            move = choose_move(variation, state, engine.legal_moves(variation, state), rng, seen,
                               greedy, action_bias)
            if move is None:
                break
            state = engine.apply_unchecked(variation, state, move)
            seen.add(state.key())
    return None


def stock_play_scatter(columns: Sequence[str]) -> Callable[[State, Card, Rng], bool]:
    """A scatter for the stock-play games: a card pulled from a foundation goes onto a
    column (mostly), onto the waste, or onto the stock (face down)."""

    def scatter(state: State, card: Card, rng: Rng) -> bool:
        roll = rng.below(10)
        if roll < 6:
            state.put(rng.choice(columns), [card])
        elif roll < 8:
            state.put("w", [card])
        else:
            stock = state.piles["s"]
            state.set_pile("s", Pile(stock.cards + (card,), len(stock.cards) + 1))
        return True

    return scatter


def turn_up_stock(state: State) -> None:
    """Lay the stock face down but its top card: the drawn card while the stock is in play."""
    stock = state.piles["s"]
    state.set_pile("s", Pile(stock.cards, len(stock.cards)))
    state.turn_up("s")
