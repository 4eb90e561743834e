# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Links to javascript: URLs (Markdown, autolink, reference style) in messages and answers."""

LINKS = ("[see your full marks](javascript:alert(1)) <javascript:alert(2)> "
         "![img](javascript:alert(3)) [ref]: javascript:alert(4) www.example.com/phish")


def _link(rule):
    def method(self, *args):
        if rule == "special_moves":
            return ["[deal](javascript:alert(5))"]
        raise ValueError(LINKS)
    return method


patch_every_rule(_link)
