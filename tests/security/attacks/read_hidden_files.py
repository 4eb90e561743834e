# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Look for the hidden traces and the reference on disk and leak them through error messages."""
import os

FOUND = []
for path in ("@REPO@/reference/scorpion.py", "@REPO@/grader/__init__.py", "@REPO@/pyproject.toml",
             "@OUT@/results.json"):
    try:
        with open(path) as handle:
            FOUND.append(path + "=" + handle.read(80))
    except OSError:
        pass
seen = 0
for top, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev", "usr", "lib", "share", "include")]
    for name in files:
        seen += 1
        if name.endswith((".json", ".py")) and ("trace" in top or "reference" in top or "grader" in top
                                                or "suite" in top or name == "scorpion.py"):
            full = os.path.join(top, name)
            if os.path.abspath(full) == os.path.abspath(__file__):
                continue
            try:
                with open(full) as handle:
                    text = handle.read(4000)
            except OSError:
                continue
            if "BEGIN " + "SOLUTION" in text or '"st' + 'eps"' in text:
                FOUND.append(full + "=" + text[:80])
    if seen > 20000:
        break
LEAK = "LEAK:" + ("|".join(FOUND) if FOUND else "none")


def _report(rule):
    def method(self, *args):
        raise RuntimeError(LEAK[:400])
    return method


patch_every_rule(_report)
