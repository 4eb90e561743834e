"""Midshipman scenarios (rulings MI1..MI7, X3, X4, X8, X10, option ``units``).

Deals and long playouts (generic, for both values of ``units``) cover the
deal with its face-down rows (MI1) and stock play (MI2). Here: near-won
positions that end in a win, with face-down cards to turn up (X10), builds to
move whole (and, with ``units=any_part``, in part) and foundation cards that
may be worried back (MI3-MI5); a foundation completed while its twin's cards
are still in play (MI2); every pile cleared with cards left in the waste (not
won yet, MI7); positions mined from seeded playouts where a foundation card
may come back, where a space lies next to foundation cards (which it refuses,
as foundations refuse one another's cards), where a build of three or more
may move whole but not in part, where unsequenced face-up cards face a space,
and with the stock exhausted.
"""

from __future__ import annotations

from solitaire import engine
from solitaire.moves import Move, card_move
from solitaire.state import State

from ..build import Kit
from ..builder import Rng
from .common import mine, near_won, scripted
from .seed001 import alternate_fits, building_scatter, half_hidden_finish, rulings, to_waste, won_state

PILES = tuple(f"t{i}" for i in range(1, 10))
FOUNDATIONS = tuple(f"f{i}" for i in range(1, 9))
DISCARD = card_move("s", "w")
ANY_PART = {"units": "any_part"}

DEAL_RULINGS = rulings("MI1", "X3")  # the rulings of the deal, named by the generic deal traces


def make_scatter(share: float):  # noqa: ANN201 - a Scatter
    """Cards off the foundations onto piles they pack onto (``share`` of the time), else anywhere."""
    return building_scatter(PILES, share)


finish = half_hidden_finish(PILES)
_fits = alternate_fits
_to_waste = to_waste


def _with(state: State, options: dict) -> State:
    new = state.copy()
    new.options = {**state.options, **options}
    return new


def _moves(kit: Kit, state: State) -> list[Move]:
    return engine.legal_moves(kit.variation, state)


def _worry_back(kit: Kit, state: State) -> Move | None:
    return next((m for m in _moves(kit, state) if m.kind == "move" and m.source in FOUNDATIONS), None)


def _spaces(state: State) -> list[str]:
    return [p for p in PILES if not state.piles[p].cards]


def _build(state: State, pile: str) -> int:
    cards = state.piles[pile].face_up
    length = 1 if cards else 0
    while length < len(cards) and _fits(cards[-length], cards[-length - 1]):
        length += 1
    return length


def _long_build(kit: Kit, state: State) -> Move | None:
    """A legal move of a whole build of three or more cards."""
    return next((m for m in _moves(kit, state) if m.kind == "move" and m.source in PILES
                 and m.count >= 3 and m.count == _build(state, m.source)), None)


def _part_move(kit: Kit, state: State) -> Move | None:
    """A move of a part of a build that ``units=any_part`` allows and ``units=build`` does not."""
    whole = set(_moves(kit, _with(state, {"units": "build"})))
    return next((m for m in _moves(kit, _with(state, ANY_PART)) if m not in whole), None)


def _loose_face_up(state: State) -> str | None:
    """A pile whose top two face-up cards do not make a build, next to a space."""
    if not _spaces(state):
        return None
    return next((p for p in PILES if len(state.piles[p].face_up) >= 2 and _build(state, p) == 1), None)


def _foundation_pair(state: State) -> tuple[str, str] | None:
    """Two foundations where the top card of the first would fit the second, were it not
    a foundation card (an ace onto an empty foundation, a 5H onto a 4H)."""
    for source in FOUNDATIONS:
        card = state.piles[source].top
        for target in FOUNDATIONS:
            top = state.piles[target].top
            if card is not None and target != source and (
                card.rank == 1 if top is None else card.suit == top.suit and card.rank == top.rank + 1
            ):
                return source, target
    return None


def _near_won(kit: Kit) -> None:
    ids = rulings("MI2", "MI3", "MI4", "MI5", "MI6", "X8", "X10", "X4")
    for index, (pulls, share) in enumerate(((5, 0.6), (9, 0.7), (14, 0.7), (20, 0.6), (28, 0.5), (36, 0.5))):
        near_won(kit, f"near-won-{index + 1}", won_state(kit, Rng(f"midshipman-won-{index}")),
                 make_scatter(share), pulls, finish=finish, neutral=DISCARD, rulings=ids,
                 attempts=16, max_nodes=8000,
                 description=f"{pulls} cards off the foundations, many laid in builds, some face down "
                 "(MI2-MI6, X8, X10); the trace plays a winning line found by search")
    for index, (pulls, share) in enumerate(((8, 0.8), (16, 0.7), (24, 0.7))):
        near_won(kit, f"near-won-any-part-{index + 1}",
                 _with(won_state(kit, Rng(f"midshipman-any-{index}")), ANY_PART),
                 make_scatter(share), pulls, finish=finish, neutral=DISCARD,
                 rulings=rulings("MI4", "MI3", "X8"), attempts=16, max_nodes=8000,
                 description=f"MI4 with units=any_part: {pulls} cards off the foundations, laid in "
                 "builds that move in part too; the trace plays a winning line found by search")
    near_won(kit, "near-won-stripped", won_state(kit, Rng("midshipman-stripped")), make_scatter(0.5), 3,
             finish=finish, neutral=DISCARD, rulings=rulings("MI2", "MI5"), strip=1, attempts=20,
             max_nodes=8000,
             description="MI2: one foundation emptied completely while its twin stays complete: the "
             "twin ace must start another foundation (never a foundation's ace, MI5); the trace "
             "plays a winning line")
    near_won(kit, "twin-ace-free", won_state(kit, Rng("midshipman-twin-ace")), make_scatter(0.5), 0,
             finish=finish, neutral=DISCARD, rulings=rulings("MI2"), strip=1, attempts=20, max_nodes=8000,
             description="MI2: one foundation emptied completely, its ace on top of a pile while the "
             "twin foundation is complete: the ace never goes onto the twin's king (no wrapping)")
    near_won(kit, "piles-cleared", won_state(kit, Rng("midshipman-cleared")), _to_waste, 6, finish=finish,
             neutral=DISCARD, rulings=rulings("MI7", "MI6", "X4"), attempts=12, max_nodes=5000,
             description="MI7: every pile empty, the stock exhausted, cards left in the waste: not won "
             "until they are on the foundations")
    near_won(kit, "public-near-won", won_state(kit, Rng("public")), make_scatter(0.6), 6, finish=finish,
             neutral=DISCARD, rulings=rulings("MI3", "MI4", "X8"), public=True)


def _mined(kit: Kit) -> None:
    def worry(state: State) -> list[Move]:
        move = _worry_back(kit, state)
        return [move] if move is not None else []

    def refused_foundation(state: State) -> list[Move]:
        source, target = _foundation_pair(state)  # type: ignore[misc]
        return [card_move(source, _spaces(state)[0]), card_move(source, target)]

    def part_then_whole(state: State) -> list[Move]:
        part, whole = _part_move(kit, state), _long_build(kit, state)
        return [m for m in (part, whole) if m is not None]

    def loose_into_space(state: State) -> list[Move]:
        pile = _loose_face_up(state)
        assert pile is not None
        return [card_move(pile, _spaces(state)[0], len(state.piles[pile].face_up))]

    mined = [
        ("worry-back", {}, lambda s: _worry_back(kit, s) is not None, worry, rulings("MI5", "MI3"),
         "MI5: the top card of a foundation is worried back onto a tableau pile where MI3 admits it"),
        ("worry-back-any-part", ANY_PART, lambda s: _worry_back(kit, s) is not None, worry,
         rulings("MI5", "MI3"), "MI5 with units=any_part: a foundation card comes back onto the tableau"),
        ("space-and-foundations", {}, lambda s: bool(_spaces(s)) and _foundation_pair(s) is not None,
         refused_foundation, rulings("MI6", "MI5"),
         "MI6, MI5: a space takes no foundation card, and a foundation card never goes to another "
         "foundation (tried, refused)"),
        ("whole-build", {}, lambda s: _long_build(kit, s) is not None and _part_move(kit, s) is not None,
         part_then_whole, rulings("MI4", "MI3", "X8"),
         "MI4: a part of a build that would fit is refused; the whole build of three or more moves"),
        ("part-of-build", ANY_PART, lambda s: _part_move(kit, s) is not None, part_then_whole,
         rulings("MI4", "MI3", "X8"), "MI4 with units=any_part: a top part of the build moves too"),
        ("loose-face-up-into-space", {}, lambda s: _loose_face_up(s) is not None, loose_into_space,
         rulings("MI4", "MI6"),
         "MI4: face-up cards out of sequence are not a unit, not even into a space (tried, refused)"),
        ("space-with-stock", {}, lambda s: bool(_spaces(s)) and bool(s.piles["s"].cards), lambda s: [],
         rulings("MI6", "X4"), "MI6: a space while the stock lasts takes a pile's top card or build, "
         "the top waste card or the drawn stock card"),
        ("stock-exhausted", {}, lambda s: not s.piles["s"].cards and bool(s.piles["w"].cards),
         lambda s: [DISCARD], rulings("MI2", "X4"),
         "MI2: the stock is exhausted: no discard, no redeal; the top waste card still plays"),
    ]
    for name, options, predicate, script, ids, description in mined:
        state = mine(kit, predicate, options=options, steps=400, action_bias=0.35)
        if state is None:
            raise AssertionError(f"midshipman: no seeded playout reaches {name}")
        scripted(kit, name, state, script(state), rulings=ids, description=description, then=16)


def build(kit: Kit) -> None:
    _near_won(kit)
    _mined(kit)
