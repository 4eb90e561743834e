"""Grading order: the submissions expected to take longest go first (no grade depends on it)."""

from grader.course.task_order import longest_first
from grader.course.worker import GradeTask


def task(tmp_path, student, variation, text):
    directory = tmp_path / student
    directory.mkdir()
    if text is not None:
        (directory / f"{variation}.py").write_text(text, encoding="utf-8")
    return GradeTask(student, "a", variation, "0" * 40, "v", "sandbox", str(directory),
                     str(tmp_path / "out" / student), 60.0, {})


def test_stubs_first_then_variations_with_more_traces(tmp_path):
    stub = "    raise NotImplementedError()\n"
    tasks = [
        task(tmp_path, "ref_bismarck", "bismarck", "x = 1\n"),  # 21 hidden traces
        task(tmp_path, "missing", "bismarck", None),
        task(tmp_path, "partial", "bismarck", stub * 2),
        task(tmp_path, "ref_indian", "indian", "x = 1\n"),  # 32 hidden traces
        task(tmp_path, "starter", "scorpion", stub * 9),
        task(tmp_path, "ref_bismarck_2", "bismarck", ""),
    ]
    order = [t.student for t in longest_first(tasks)]
    assert order == ["starter", "partial", "ref_indian", "ref_bismarck", "missing", "ref_bismarck_2"]
    assert sorted(order) == sorted(t.student for t in tasks)  # every task, once
