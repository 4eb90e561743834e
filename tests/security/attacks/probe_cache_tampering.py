# Data, not a module: the tests append it to _prelude.py (see ../security_support.py).
# ruff: noqa: F821
"""Delete or replace the grader's isolation probe cache (and uid leases) wherever it could be."""
import glob
import os
import tempfile

FAKE = '{"key": "x", "layer": "plain", "time": 4102444800}'
PLACES = ("/tmp/solitaire-sandbox-*/probe-*.json",
          tempfile.gettempdir() + "/solitaire-sandbox-*/probe-*.json",
          "/run/solitaire-lab/*/*.json", "/var/lib/solitaire-lab/*/*.json",
          "/run/solitaire-lab/uids/uid-*.lock", "/tmp/solitaire-sandbox-*/uid-*.lock",
          os.path.expanduser("~") + "/.cache/solitaire-lab/*/probe-*.json")
TOUCHED = []
for pattern in PLACES:
    for path in glob.glob(pattern):
        for action in (os.unlink, lambda p: open(p, "w").write(FAKE)):
            try:
                action(path)
                TOUCHED.append(path)
            except OSError:
                pass
REPORT = "CACHE:" + (",".join(TOUCHED) or "none")


def _report(rule):
    def method(self, *args):
        raise NotImplementedError(REPORT)
    return method


patch_every_rule(_report)
