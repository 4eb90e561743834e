"""The demo's cheating student (grader.course.simulate.cheat): a real attack that runs and is stopped.

The cheat is a student repo's starter with attack code added: it must compile
(the attack sits after ``from __future__``), run in the sandboxed worker (its
report reaches the grader only through the worker's captured output) and exit
with status 0 when asked to deal, which the grader reports as a crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.course import simulate
from grader.sandbox import SandboxWorker, choose_isolation
from solitaire.cards import ONE_PACK
from solitaire.protocol import WorkerError

STARTERS = sorted((Path(__file__).resolve().parents[2] / "starter").glob("*.py"))


@pytest.mark.parametrize("starter", STARTERS, ids=[p.stem for p in STARTERS])
def test_cheat_compiles_with_the_attack_after_the_future_import(starter):
    text = simulate.cheat_text(starter.read_text(encoding="utf-8"))
    compile(text, starter.name, "exec")  # a SyntaxError here is the bug this replaces
    future = text.index("from __future__ import annotations")
    assert future < text.index("def _forge():") < text.index("def _steal():")
    assert text.rstrip().endswith(".deal = _exit_mid_grading")
    assert "raise NotImplementedError()" in text  # the other rules stay stubs: it implements none


def test_cheat_edit_rewrites_the_repo_starter_and_adds_a_forged_results_file(tmp_path):
    (tmp_path / "scorpion.py").write_text((STARTERS[0].parent / "scorpion.py").read_text(encoding="utf-8"))
    simulate.cheat("scorpion")(tmp_path)
    assert simulate.CHEAT_MARK in (tmp_path / "scorpion.py").read_text(encoding="utf-8")
    assert (tmp_path / "results.json").read_text(encoding="utf-8") == simulate.FORGED_RESULTS


def test_cheat_attack_runs_in_the_sandbox_and_its_exit_is_a_crash(tmp_path):
    rules = tmp_path / "scorpion.py"
    rules.write_text(simulate.cheat_text((STARTERS[0].parent / "scorpion.py").read_text(encoding="utf-8")))
    worker = SandboxWorker(rules)
    try:
        worker.launch()  # it imports: no load failure
        lines = worker.load_output.splitlines()
        report = next(line for line in lines if line.startswith(simulate.CHEAT_MARK))
        if choose_isolation("auto").name != "plain":  # only the namespace layers hide the project
            assert report.endswith("; 0 hidden trace files read"), report
        with pytest.raises(WorkerError) as raised:
            worker.request({"op": "start", "cards": [str(c) for c in ONE_PACK.pack()], "options": {}})
        assert raised.value.kind == "crashed"
        assert "(exit status 0)" in str(raised.value)
        assert f"{simulate.CHEAT_MARK} os._exit(0)" in worker.output
    finally:
        worker.close()
