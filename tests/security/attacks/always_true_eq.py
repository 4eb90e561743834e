# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Return objects that equal everything and are truthy, and unwrap the engine's bool check."""
import solitaire.protocol


class AlwaysEqual(int):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __bool__(self):
        return True

    __hash__ = int.__hash__


class AlwaysEqualList(list):
    def __eq__(self, other):
        return True


solitaire.protocol._strict_bool = lambda value, method: value


def _answer(rule):
    def method(self, *args):
        if rule == "special_moves":
            return AlwaysEqualList()
        return AlwaysEqual(1)
    return method


patch_every_rule(_answer)
