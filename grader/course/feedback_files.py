"""A student's feedback files in the course: ``feedback/<student>/`` with the late penalty and final grade.

Grading one submission (:func:`grader.grade.grade_submission`) knows nothing
of deadlines: its ``feedback.md`` and ``feedback.html`` show the points
earned. The course knows when the push was received; here both files are
rendered again from the model the grading wrote (``feedback.json``), with the
late penalty and the final grade computed exactly as the gradebook records
them (:meth:`grader.course.grade_class.ClassGrader.record_values`), so that
the feedback a student reads and the recorded grade agree.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from grader import feedback_model, feedback_render

from .collect import Collected

#: what is copied as it is from a grading run's folder
COPIED = ("results.json",)


def publish(out_dir: Path, target: Path, row: Collected, raw: float, penalty: float) -> None:
    """Write ``target``'s feedback from the grading run in ``out_dir``: results.json copied,
    feedback.md, feedback.html (and feedback.json) rendered with ``row``'s lateness, ``raw`` points
    earned and ``penalty`` points off (the gradebook's figures). A run without ``feedback.json``
    (graded by an older grader) has its feedback.md copied as it is."""
    target.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        if (out_dir / name).exists():
            shutil.copyfile(out_dir / name, target / name)
    model = feedback_render.read(out_dir)
    if model is None:
        if (out_dir / "feedback.md").exists():
            shutil.copyfile(out_dir / "feedback.md", target / "feedback.md")
        return
    late = feedback_model.with_late(model, row.days_late, row.penalty_percent, raw, penalty)
    feedback_render.write(target, late)
