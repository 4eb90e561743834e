"""Four Rows: the 32-card deck of G1 (A and 7..K), the row-by-row deal of FW1,
and the tightened G10 (columns in ascending number order, cards onto the
discard pile in that order) as the engine's canonical removal order."""

from scenario import Scenario

from solitaire import catalog, check_move, legal_moves, parse_move, shuffled_deck, start

V = catalog.load("four_rows")
S = Scenario(V)
legal, play = S.legal, S.play


def test_deck_is_ace_and_seven_to_king():
    cards = shuffled_deck(V, 3)
    assert len(cards) == 32 and sorted({c.rank for c in cards}) == [1, 7, 8, 9, 10, 11, 12, 13]


def test_deal_row_by_row_lowest_row_on_top():
    cards = shuffled_deck(V, 3)
    state = start(V, cards)
    for column in range(8):
        pile = state[f"t{column + 1}"]
        assert pile.cards == tuple(cards[column + 8 * row] for row in range(4)) and pile.down == 0
    assert state.is_empty("d")


def test_removal_in_ascending_column_order_onto_the_discard_pile():
    state = S.build("four_rows\nphase play", {
        "t2": "7C 9D", "t7": "9H", "t3": "7D",
        "d": " ".join(str(c) for c in V.deck.pack() if str(c) not in ("7C", "9D", "9H", "7D")),
    })
    assert [str(m) for m in legal_moves(V, state)] == ["t2+t7"]
    reason = check_move(V, state, parse_move("t7+t2"))
    assert reason is not None and "t2+t7" in reason
    after = play(state, "t2+t7")
    assert [str(c) for c in after["d"].cards[-2:]] == ["9D", "9H"]
    assert legal(after, "t2+t3") and not legal(after, "t2>t7")  # 7C freed; t7 stays empty
