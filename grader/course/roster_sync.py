"""The roster is the source of truth: what changed in it since ``course assign``.

``assignments.csv`` keeps every student ever assigned, with the e-mail the
roster gave them (column ``email``). Comparing it with ``roster.csv``:

* added: on the roster, not assigned yet;
* renamed: an assigned student no longer on the roster whose e-mail is now
  under another id (the same person, a corrected id);
* removed: assigned, no longer on the roster (kept in ``assignments.csv``
  and in the gradebook, never published again).

``course publish`` refuses while a student is added or renamed (it would
skip them) and names the command that fixes it, ``course assign``: it gives
added students a variation and renamed ones the variation of their old id
(:func:`renames`). Removed students are not a reason to refuse: publish
skips them, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solitaire.errors import UserError

from .roster import Student

if TYPE_CHECKING:  # assign uses renames(): no import at run time
    from .assign import Assignment


class RosterChanged(UserError):
    """The roster has students that ``course assign`` has not seen (the message lists them)."""


def _email(text: str) -> str:
    return text.strip().lower()


def renames(roster: Sequence[Student], assigned: dict[str, Assignment]) -> dict[str, Assignment]:
    """New id → the assignment of the old id it replaces (same e-mail, old id gone from the roster).

    An e-mail shared by several new or several old ids is ambiguous and matches nothing.
    """
    on_roster = {s.id for s in roster}
    old_by_email: dict[str, list[Assignment]] = {}
    for assignment in assigned.values():
        if assignment.student not in on_roster and _email(assignment.email):
            old_by_email.setdefault(_email(assignment.email), []).append(assignment)
    new_by_email: dict[str, list[str]] = {}
    for student in roster:
        if student.id not in assigned and _email(student.email):
            new_by_email.setdefault(_email(student.email), []).append(student.id)
    return {new[0]: old[0] for email, new in new_by_email.items()
            if len(new) == 1 and len(old := old_by_email.get(email, [])) == 1}


@dataclass
class RosterChanges:
    added: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (old id, new id)
    removed: list[str] = field(default_factory=list)

    @property
    def blocks_publish(self) -> bool:
        return bool(self.added or self.renamed)

    def summary(self) -> str:
        parts = []
        if self.added:
            parts.append("added " + ", ".join(self.added))
        if self.renamed:
            parts.append("renamed " + ", ".join(f"{old} -> {new}" for old, new in self.renamed)
                         + " (same e-mail)")
        if self.removed:
            parts.append("removed " + ", ".join(self.removed))
        return "; ".join(parts)


def compare(roster: Sequence[Student], assignments: Sequence[Assignment]) -> RosterChanges:
    """What changed in ``roster`` since ``assignments`` were made (see the module docstring)."""
    assigned = {a.student: a for a in assignments}
    renamed = renames(roster, assigned)
    old_ids = {a.student for a in renamed.values()}
    return RosterChanges(
        added=[s.id for s in roster if s.id not in assigned and s.id not in renamed],
        renamed=[(renamed[s.id].student, s.id) for s in roster if s.id in renamed],
        removed=[a.student for a in assignments
                 if a.student not in {s.id for s in roster} and a.student not in old_ids],
    )


def refuse_if_changed(roster: Sequence[Student], assignments: Sequence[Assignment], roster_path: str) -> \
        RosterChanges:
    """The changes; :class:`RosterChanged` when they would make ``course publish`` skip someone."""
    changes = compare(roster, assignments)
    if changes.blocks_publish:
        raise RosterChanged(
            f"{roster_path} changed since `course assign`: {changes.summary()}; nothing was published: "
            "run `solitaire course assign` (added students get a variation, renamed ones keep their "
            "old id's, removed ones are kept but not published), then `solitaire course publish` again")
    return changes
