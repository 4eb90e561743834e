# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""NUL, a right-to-left override and other invisible characters that reorder or hide text."""

BIDI = ("NUL\x00here RLO\u202e001 / 001 :latoT\u202c LRI\u2066x\u2069 ZW\u200b\u200d\ufeff "
        "ALM\u061c LRM\u200e RLM\u200f tag\U000e0041 LS\u2028PS\u2029")
Hidden = type("Hidden\u202eError", (Exception,), {})


def _bidi(rule):
    def method(self, *args):
        if rule == "special_moves":
            return ["t1>t2\u202e", "\x00"]
        raise Hidden(BIDI)
    return method


patch_every_rule(_bidi)
