"""How many sandboxes a submission gets in ``course grade``'s pool (grader/course/worker.py)."""

import os

from grader.course import worker


def test_one_sandbox_when_the_pool_fills_every_cpu_else_two(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert worker.sandboxes_per_submission(2) == 1  # the other submissions keep both CPUs busy
    assert worker.sandboxes_per_submission(3) == 1
    assert worker.sandboxes_per_submission(1) == 2  # a free CPU: the next trace is replayed ahead
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert worker.sandboxes_per_submission(1) == 1


def test_the_pool_process_takes_the_count_unless_the_environment_has_one(monkeypatch):
    monkeypatch.setattr(worker, "die_with_parent", lambda parent: None)
    monkeypatch.delenv(worker.SANDBOXES_ENV, raising=False)
    worker.start_pool_process(os.getpid(), 2)
    assert os.environ[worker.SANDBOXES_ENV] == "2"
    monkeypatch.setenv(worker.SANDBOXES_ENV, "1")
    worker.start_pool_process(os.getpid(), 2)
    assert os.environ[worker.SANDBOXES_ENV] == "1"


def test_the_variable_is_the_suites():
    from grader.suite.warm import SANDBOXES_ENV

    assert worker.SANDBOXES_ENV == SANDBOXES_ENV


def test_a_celery_worker_gives_its_processes_the_count_for_its_concurrency(monkeypatch):
    from grader.course import celery_app

    seen = {}

    class App:
        def worker_main(self, argv):
            seen["argv"] = argv
            seen["sandboxes"] = os.environ.get(worker.SANDBOXES_ENV)

    monkeypatch.setattr(celery_app, "make_app", lambda broker, visibility: App())
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    for concurrency, sandboxes in ((1, "2"), (2, "1")):
        monkeypatch.delenv(worker.SANDBOXES_ENV, raising=False)
        celery_app.worker_main("redis://127.0.0.1:1/0", concurrency=concurrency)
        assert seen["sandboxes"] == sandboxes and f"--concurrency={concurrency}" in seen["argv"]
