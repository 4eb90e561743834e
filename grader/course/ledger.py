"""The grader's own record of when it first saw each commit (``ledger.json``).

Commit dates are written by the student's machine and prove nothing. Every
``course collect`` therefore records, per student,

* ``first_seen``: SHA → the first collect time at which that commit was
  reachable from any branch of the student's remote;
* ``tips``: the successive values of the graded branch, each with the time a
  collect first saw it there (a new entry only when the value changed).

The file is rewritten atomically after each student, so an interrupted
collect loses nothing already recorded. Times are UTC, ISO 8601.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solitaire.errors import UserError

VERSION = 1


def iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat()


def parse_time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


@dataclass
class StudentLedger:
    first_seen: dict[str, str] = field(default_factory=dict)
    tips: list[tuple[str, str | None]] = field(default_factory=list)

    def observe(self, now: dt.datetime, tip: str | None, reachable: list[str]) -> None:
        """Record one collect: the graded branch's value ``tip`` and every commit reachable."""
        stamp = iso(now)
        for sha in reachable:
            self.first_seen.setdefault(sha, stamp)
        if not self.tips or self.tips[-1][1] != tip:
            self.tips.append((stamp, tip))

    def tip_events(self) -> list[tuple[dt.datetime, str | None]]:
        return [(parse_time(time), sha) for time, sha in self.tips]


@dataclass
class Ledger:
    path: Path
    collects: list[str] = field(default_factory=list)
    students: dict[str, StudentLedger] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> Ledger:
        if not path.exists():
            return cls(path)
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            students = {
                student: StudentLedger(
                    dict(entry.get("first_seen", {})),
                    [(time, sha) for time, sha in entry.get("tips", [])],
                )
                for student, entry in data.get("students", {}).items()
            }
            return cls(path, list(data.get("collects", [])), students)
        except (ValueError, TypeError, AttributeError) as error:
            raise UserError(f"{path}: the ledger is damaged ({error}); restore it from a backup") from None

    def student(self, student: str) -> StudentLedger:
        return self.students.setdefault(student, StudentLedger())

    def save(self) -> None:
        data = {
            "version": VERSION,
            "collects": self.collects,
            "students": {
                student: {"first_seen": entry.first_seen, "tips": [list(tip) for tip in entry.tips]}
                for student, entry in sorted(self.students.items())
            },
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".ledger.", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=False)
        os.replace(temp, self.path)
