"""The Celery worker's log: one INFO line per task, the full result at DEBUG only (issue 17 item 5).

No Redis needed: :func:`log_outcome` is what the task calls after grading, and
Celery's own per-task success line (which prints the whole result at INFO) is
silenced by :func:`make_app`. test_celery_backend.py checks a real worker's log.
"""

from __future__ import annotations

import logging

import pytest

celery_app = pytest.importorskip("grader.course.celery_app",
                                 reason="celery[redis] is not installed (the dev extra brings it)")

TASK = {"student": "ada", "variation": "scorpion", "points": {"deal": 10.0, "is_won": 15.0}}
REPLY = {"task": TASK, "results": {"score": 12.5, "tests": [{"name": "deal", "output": "secret board"}]},
         "error": "", "seconds": 3.21}


def test_one_info_line_per_task_and_the_full_result_at_debug(caplog):
    with caplog.at_level(logging.DEBUG, logger=celery_app.log.name):
        celery_app.log_outcome(REPLY)
    info = [r for r in caplog.records if r.levelno == logging.INFO]
    assert [r.getMessage() for r in info] == ["graded ada scorpion: 12.5 / 25 in 3.2 s"]
    (debug,) = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert "secret board" in debug.getMessage() and "secret board" not in info[0].getMessage()


def test_at_info_the_result_is_not_logged(caplog):
    with caplog.at_level(logging.INFO, logger=celery_app.log.name):
        celery_app.log_outcome(REPLY)
    assert len(caplog.records) == 1 and "secret board" not in caplog.text


def test_a_failed_task_is_one_warning_with_its_reason(caplog):
    failed = {"task": TASK, "results": None, "error": "TimeoutError: too slow", "seconds": 600.0}
    with caplog.at_level(logging.INFO, logger=celery_app.log.name):
        celery_app.log_outcome(failed)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, "grading failed: ada scorpion after 600.0 s: TimeoutError: too slow")]


def test_celery_success_line_with_the_full_result_is_silenced():
    trace = logging.getLogger(celery_app.CELERY_TRACE_LOGGER)
    trace.setLevel(logging.NOTSET)
    celery_app.make_app("redis://127.0.0.1:1/0")  # no connection is made
    assert not trace.isEnabledFor(logging.INFO) and trace.isEnabledFor(logging.WARNING)
