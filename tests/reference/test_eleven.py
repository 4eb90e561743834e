"""Eleven: the tightened G10 (slots in ascending number order, cards onto the
discard pile in that order) agrees with the engine's canonical removal order,
and the tightened EL2/EL3 (refill lowest slot first; J, Q, K only as a trio)."""

from scenario import Scenario

from solitaire import catalog, check_move, legal_moves, parse_card, parse_move
from solitaire.state import State

V = catalog.load("eleven")
S = Scenario(V)
legal, play = S.legal, S.play


def board(slots: dict[int, str], stock: str = "") -> State:
    """A position: ``slots`` maps 1..11 to a card, ``stock`` lists the stock bottom first
    (face down); every other card is on the discard pile."""
    used = {parse_card(c) for c in slots.values()} | {parse_card(c) for c in stock.split()}
    piles = {f"t{i}": card for i, card in slots.items()}
    piles["s"] = stock.lower()
    piles["d"] = " ".join(str(c) for c in V.deck.pack() if c not in used)
    return S.build("eleven\nphase play", piles)


FULL = dict(enumerate("AC 2D QH 4S 5C JD 6H 7D 8S 9H KC".split(), 1))


def test_removal_names_slots_in_ascending_number_order():
    state = board(FULL, "QS TS")
    assert legal(state, "t2+t10")  # 2D + 9H: number order, though "t10" sorts before "t2" as text
    reason = check_move(V, state, parse_move("t10+t2"))
    assert reason is not None and "t2+t10" in reason
    for move in legal_moves(V, state):
        numbers = [int(pile[1:]) for pile in move.args]
        assert numbers == sorted(numbers), move
    after = play(state, "t2+t10")
    assert [str(c) for c in after["d"].cards[-2:]] == ["2D", "9H"]  # the lower slot's card first


def test_refill_lowest_slot_first_while_the_stock_lasts():
    after = play(board(FULL, "QS TS"), "t2+t10")  # TS is the top of the stock
    assert str(after["t2"].top) == "TS" and str(after["t10"].top) == "QS"
    assert after["t2"].down == 0 and after["t10"].down == 0 and after.is_empty("s")
    short = play(board(FULL, "TS"), "t2+t10")
    assert str(short["t2"].top) == "TS" and short.is_empty("t10")


def test_picture_cards_leave_only_as_a_jack_queen_king_trio():
    state = board(FULL, "QS TS")
    assert not legal(state, "t6+t11")  # J + K never pair
    assert not legal(state, "t1+t6")  # an ace and a jack are not 1 + 10
    assert not legal(state, "t1+t2+t9")  # A + 2 + 8 adds up to 11 but is no trio
    assert not legal(state, "t6+t3+t11")
    after = play(state, "t3+t6+t11")
    assert [str(c) for c in after["d"].cards[-3:]] == ["QH", "JD", "KC"]  # slot order, not rank order
    assert str(after["t3"].top) == "TS" and str(after["t6"].top) == "QS" and after.is_empty("t11")
