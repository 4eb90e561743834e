"""Scorpion with every rule method stubbed (what a student starts from).

The security tests prepend this text to each attack file to make the submitted
``scorpion.py``: the attack patches ``Scorpion`` or runs code at import time.
None of the rules is implemented, so an honest grader gives it 0.
"""

from solitaire.cards import ONE_PACK
from solitaire.piles import FOUNDATION, RESERVE, TABLEAU, Layout, numbered, single
from solitaire.variation import Option, Variation


class Scorpion(Variation):
    name = "scorpion"
    title = "Scorpion"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, 7), numbered(FOUNDATION, 4, target=False), single(RESERVE))
    options = (Option("moves", "runs", "which cards move together", choices=("runs", "any_faceup")),)

    def deal(self, state, cards):
        raise NotImplementedError

    def can_pick_up(self, state, pile, count):
        raise NotImplementedError

    def tableau_accepts(self, state, pile, cards, source):
        raise NotImplementedError

    def space_accepts(self, state, pile, cards, source):
        raise NotImplementedError

    def special_moves(self, state):
        raise NotImplementedError

    def apply_special(self, state, move):
        raise NotImplementedError

    def after_move(self, state, move):
        raise NotImplementedError

    def is_won(self, state):
        raise NotImplementedError


RULES = ("deal", "can_pick_up", "tableau_accepts", "space_accepts", "special_moves", "apply_special",
         "after_move", "is_won")


def patch_every_rule(function):
    """Replace every rule method of Scorpion by ``function(rule_name)`` (a method)."""
    for rule in RULES:
        setattr(Scorpion, rule, function(rule))
