# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""HTML and script tags in error messages, type names and answers, for a page that renders HTML."""

HTML = '<script>alert(document.cookie)</script><img src=x onerror="alert(1)"><!-- --><b>100/100</b>&amp;'
Tagged = type("<script>Error</script>", (Exception,), {})


def _html(rule):
    def method(self, *args):
        if rule == "special_moves":
            return [HTML]
        raise Tagged(HTML)
    return method


patch_every_rule(_html)
