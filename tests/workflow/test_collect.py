"""publish -> push -> collect on real local bare repos, with simulated time (injected clocks)."""

from __future__ import annotations

import csv
import json
import shutil

import git
from workflow_support import DEADLINE, at, notes, push, variation_of

from grader.course import assign, collect, publish, simulate
from grader.course.gitutil import init_bare
from grader.course.ledger import iso


def by_student(rows):
    return {row.student: row for row in rows}


def test_on_time_late_and_after_cutoff(published_course):
    course = published_course(["ada", "bob", "cy", "dee"])
    ada = push(course, "ada", at(-2))
    bob_first = push(course, "bob", at(-1), notes("v1"))
    bob_late = push(course, "bob", at(30), notes("v2"))
    cy_on_time = push(course, "cy", at(-1))
    push(course, "cy", at(24 * 5), notes("too late"))

    rows = by_student(collect.collect(course, clock=lambda: at(24 * 6)))

    assert (rows["ada"].status, rows["ada"].sha, rows["ada"].received_at) == ("ok", ada, iso(at(-2)))
    assert rows["ada"].penalty_percent == 0
    variation = variation_of(course, "ada")
    extracted = (course.work_dir / "submissions" / "ada" / ada / f"{variation}.py").read_text()
    assert extracted == simulate.reference_text(variation)

    assert bob_first != bob_late
    assert (rows["bob"].status, rows["bob"].sha) == ("late", bob_late)
    assert (rows["bob"].days_late, rows["bob"].penalty_percent) == (2, 20.0)
    assert rows["bob"].seconds_late == 30 * 3600

    assert (rows["cy"].status, rows["cy"].sha) == ("ok", cy_on_time)
    assert "after the cut-off" in rows["cy"].reason

    published = publish.read_published(course.published_path)
    assert (rows["dee"].status, rows["dee"].sha) == ("not-submitted", published["dee"].sha)
    assert "no push after the starter commit" in rows["dee"].reason

    with course.collected_path.open(encoding="utf-8") as handle:
        written = {row["id"]: row for row in csv.DictReader(handle)}
    assert written["bob"]["status"] == "late" and written["bob"]["penalty_percent"] == "20"


def test_commit_dates_are_never_trusted(published_course):
    course = published_course(["ada"])
    sha = push(course, "ada", at(10), commit_date=at(-24 * 5))  # claims to be five days early
    assert git.Repo(course.remote_url("ada")).commit(sha).committed_datetime == at(-24 * 5)
    row = collect.collect(course, clock=lambda: at(11))[0]
    assert (row.status, row.sha, row.received_at, row.days_late) == ("late", sha, iso(at(10)), 1)


def _without_reflog(course):
    path = course.directory / "course.toml"
    path.write_text(path.read_text().replace("trust_reflog = true", "trust_reflog = false"))
    from grader.course import config

    return config.load(course.directory)


def test_the_ledger_records_first_seen_times_on_every_collect(published_course):
    course = _without_reflog(published_course(["ada", "bob"]))
    v1 = push(course, "ada", at(-3), notes("v1"))
    first = by_student(collect.collect(course, clock=lambda: at(-1)))  # a collect at the deadline (cron)
    assert (first["ada"].status, first["ada"].sha, first["ada"].received_at) == ("ok", v1, iso(at(-1)))

    v2 = push(course, "ada", at(2), notes("v2"))
    bob = push(course, "bob", at(-0.5))  # pushed in time, but first seen by the collect after the deadline
    second = by_student(collect.collect(course, clock=lambda: at(4)))
    assert (second["ada"].status, second["ada"].sha, second["ada"].received_at) == ("late", v2, iso(at(4)))
    assert (second["bob"].status, second["bob"].sha, second["bob"].days_late) == ("late", bob, 1)

    ledger = json.loads(course.ledger_path.read_text())
    assert ledger["collects"] == [iso(at(-1)), iso(at(4))]
    assert ledger["students"]["ada"]["first_seen"][v1] == iso(at(-1))
    assert ledger["students"]["ada"]["first_seen"][v2] == iso(at(4))
    assert [sha for _, sha in ledger["students"]["ada"]["tips"]][-2:] == [v1, v2]

    # a later collect changes no first-seen time and adds no tip when nothing moved
    collect.collect(course, clock=lambda: at(50))
    again = json.loads(course.ledger_path.read_text())
    assert again["students"]["ada"] == ledger["students"]["ada"]


def test_publish_rerun_skips_the_published_and_adds_new_students(published_course):
    from workflow_support import roster_text

    course = published_course(["ada", "bob"])
    before = course.published_path.read_text()
    again = publish.publish(course)
    assert (again.published, sorted(again.skipped)) == ([], ["ada", "bob"])
    assert course.published_path.read_text() == before
    course.roster_path.write_text(roster_text(["ada", "bob", "cy"]))
    assign.run(course)
    third = publish.publish(course)
    assert [p.student for p in third.published] == ["cy"] and sorted(third.skipped) == ["ada", "bob"]
    repo = git.Repo(course.remote_url("cy"))
    files = set(repo.git.ls_tree("-r", "--name-only", "main").split())
    assert f"{variation_of(course, 'cy')}.py" in files and "README.md" in files


def test_broken_repos_get_a_clear_reason_and_the_class_is_still_collected(published_course):
    course = published_course(["ada", "bob", "cy", "dee", "eve"])
    ada = push(course, "ada", at(-5))
    shutil.rmtree(course.local_remote("bob"))
    shutil.rmtree(course.local_remote("cy"))
    init_bare(course.local_remote("cy")).close()  # a repo without any commit
    push(course, "dee", at(-4), branch="master")
    push(course, "eve", at(-4), branch="master")
    git.Repo(course.local_remote("eve")).git.update_ref("-d", "refs/heads/main")

    rows = by_student(collect.collect(course, clock=lambda: at(1)))

    assert rows["ada"].status == "ok" and rows["ada"].sha == ada
    assert rows["bob"].status == "missing" and str(course.local_remote("bob")) in rows["bob"].reason
    assert (rows["cy"].status, rows["cy"].reason) == ("empty", "the repository has no commits")
    assert rows["dee"].status == "wrong-branch" and "'master'" in rows["dee"].reason
    assert rows["eve"].status == "wrong-branch" and "no branch 'main' (found: master)" in rows["eve"].reason
    assert not any(row.gradable for s, row in rows.items() if s != "ada")


def test_unreachable_remote_is_reported_for_every_student(make_course):
    course = make_course(["ada", "bob"], remote="nosuchproto://example.invalid/{student}.git")
    assign.run(course)
    failed = publish.publish(course)
    assert [s for s, _ in failed.failed] == ["ada", "bob"]
    assert "cannot publish to nosuchproto://example.invalid/ada.git" in failed.failed[0][1]
    rows = collect.collect(course, clock=lambda: at(1))
    assert [row.status for row in rows] == ["unreachable", "unreachable"]
    assert rows[0].reason.startswith("cannot fetch nosuchproto://example.invalid/ada.git: ")
    # git's own words follow; which ones depends on a race inside git ("remote-nosuchproto is
    # not a git command", or "full write to remote helper failed: Broken pipe")
    detail = rows[0].reason.split(": ", 1)[1]
    assert "nosuchproto" in detail or "remote helper" in detail, detail


def test_a_force_push_back_to_an_earlier_commit_counts_from_its_new_arrival(published_course):
    course = published_course(["ada"])
    v1 = push(course, "ada", at(-10), notes("v1"))
    push(course, "ada", at(-5), notes("v2"))
    repo = git.Repo(course.local_remote("ada"))
    from grader.course.gitutil import git_date

    repo.git.update_ref("-m", "push", "refs/heads/main", v1, env={"GIT_COMMITTER_DATE": git_date(at(2))})
    row = collect.collect(course, clock=lambda: at(3))[0]
    assert (row.sha, row.received_at, row.status) == (v1, iso(at(2)), "late")
    assert DEADLINE < at(2)
