"""Solitaire Lab's engine: a pure model of solitaire games.

No I/O and no game rules live here; each variation (see ``reference/``)
declares its layout and implements the rule methods of
:class:`~solitaire.variation.Variation`.
"""

from .cards import ACE, KING, Card, Deck, parse_card
from .engine import (
    apply,
    apply_unchecked,
    check_move,
    is_legal,
    is_won,
    legal_moves,
    new_game,
    shuffled_deck,
    start,
)
from .errors import IllegalMove, InvalidNotation, SolitaireError, UnknownVariation, UserError
from .game import Game
from .moves import Move, action, card_move, parse_move, removal
from .piles import Layout, Pile, PileSpec
from .state import State, format_state, parse_state
from .variation import RULE_METHODS, Option, Variation

__version__ = "0.1.0"

__all__ = [
    "ACE", "KING", "Card", "Deck", "parse_card", "apply", "apply_unchecked", "check_move",
    "is_legal", "is_won", "legal_moves", "new_game", "shuffled_deck", "start", "IllegalMove",
    "InvalidNotation", "SolitaireError", "UnknownVariation", "UserError", "Game", "Move", "action",
    "card_move", "parse_move", "removal", "Layout", "Pile", "PileSpec", "State",
    "format_state", "parse_state", "RULE_METHODS", "Option", "Variation",
]
