"""Same grades? One line per submission: its score and a digest of every test's name and score.

    PYTHONPATH=$PWD .venv/bin/python bench/grade_digest.py > /tmp/after.txt
    PYTHONPATH=/work/main .venv/bin/python bench/grade_digest.py --tree /work/main > /tmp/before.txt
    diff /tmp/before.txt /tmp/after.txt

(``--tree``: the checkout whose grader grades; set ``PYTHONPATH`` to it too, for the hidden
suite's subprocess.)

Grades, through the sandbox (``grade_submission``, the hidden suite in its subprocess), the six
approved references, seven catalogued bugs (``grader/bugs/<variation>.toml``: the first of each
of the six outside ``deal``, and Scorpion's first), the Scorpion and Indian starters (every rule
raises: error replies and resyncs) and the demo's cheat (the Scorpion starter with
:func:`grader.course.simulate.cheat_text`: it exits at every deal and forges results.json). The
digest covers each test's name, score and maximum, so any change of any test shows; the
feedback text (which names times) is left out. A check of a change, not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--tree" in sys.argv[:-1]:
    ROOT = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
sys.path.insert(0, str(ROOT))

from grader import bugs  # noqa: E402
from grader.course.simulate import cheat_text  # noqa: E402
from grader.grade import grade_submission  # noqa: E402
from grader.mutants import reference_source  # noqa: E402

APPROVED = ("napoleons_square", "metternich", "bismarck", "indian", "double_fives", "scorpion")


def submissions() -> list[tuple[str, str, str]]:
    """(label, variation, rules text) of every submission graded."""
    found = []
    for name in APPROVED:
        found.append((f"{name}:reference", name, reference_source(name)[1]))
    for name in APPROVED:
        catalogued = bugs.load(name)
        picked = [b for b in catalogued if b.method != "deal"][:1]
        if name == "scorpion":
            picked.append(catalogued[0])
        for bug in picked:
            found.append((f"{name}:bug:{bug.id}", name, bug.source(reference_source(name)[1])))
    for name in ("scorpion", "indian"):
        starter = (ROOT / "starter" / f"{name}.py").read_text(encoding="utf-8")
        found.append((f"{name}:starter", name, starter))
    starter = (ROOT / "starter" / "scorpion.py").read_text(encoding="utf-8")
    found.append(("scorpion:cheat", "scorpion", cheat_text(starter)))
    return found


def digest(results: dict) -> str:
    tests = sorted((t.get("name", ""), t.get("score"), t.get("max_score")) for t in results["tests"])
    return hashlib.sha256(json.dumps(tests).encode()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", default="sandbox", choices=("sandbox", "local"))
    parser.add_argument("--tree", help="the checkout whose grader grades (default: this script's)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="grade-digest-") as temporary:
        for index, (label, name, text) in enumerate(submissions()):
            submission = Path(temporary) / f"s{index}"
            submission.mkdir()
            (submission / f"{name}.py").write_text(text, encoding="utf-8")
            if label.endswith(":cheat"):
                (submission / "results.json").write_text('{"score": 100}', encoding="utf-8")
            results = grade_submission(submission, name, Path(temporary) / f"o{index}", worker=args.worker)
            tests = len(results["tests"])
            print(f"{label:<48} {results['score']:8.3f} {tests:3d} tests {digest(results)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
