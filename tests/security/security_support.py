"""Helpers of the security tests: building attack submissions, reference answers, file-system guards."""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solitaire import catalog, format_state, new_game, shuffled_deck
from solitaire.protocol import LocalWorker, Worker, WorkerError

HERE = Path(__file__).resolve().parent
ATTACKS = HERE / "attacks"
REPO = HERE.parents[1]
ATTACK_NAMES = sorted(p.stem for p in ATTACKS.glob("*.py") if not p.stem.startswith("_"))

# Planted in the trusted process (memory and environment): no worker may ever see it.
SECRET = "HIDDEN" + "-TRACE-" + secrets.token_hex(8)
os.environ["SOLITAIRE_TEST_SECRET"] = SECRET
PLANTED = {"expected": SECRET, "trace": [SECRET]}


def compose(attack: str, directory: Path, out: Path | None = None) -> Path:
    """The submission ``directory/scorpion.py``: the stubbed Scorpion followed by the attack."""
    prelude = (ATTACKS / "_prelude.py").read_text()
    text = prelude + "\n\n# ---- attack ----\n" + (ATTACKS / f"{attack}.py").read_text()
    text = text.replace("@REPO@", str(REPO)).replace("@OUT@", str(out or directory / "out"))
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "scorpion.py"
    path.write_text(text)
    return path


def reference_copy(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "scorpion.py"
    path.write_bytes((REPO / "reference" / "scorpion.py").read_bytes())
    return path


# -- a fixed script of requests --------------------------------------------------

SCORPION = catalog.load("scorpion")
CARDS = [str(c) for c in shuffled_deck(SCORPION, 1)]
DEALT = format_state(new_game(SCORPION, 1))

# (label, exercises student code?, call)
SCRIPT: list[tuple[str, bool, Any]] = [
    ("start", True, lambda w: w.start(CARDS, {})),
    ("load", False, lambda w: w.load(DEALT)),
    ("legal t1>t2", True, lambda w: w.legal("t1>t2")),
    ("legal deal", True, lambda w: w.legal("deal")),
    ("apply deal", True, lambda w: w.apply("deal")),
    ("moves", True, lambda w: w.moves()),
    ("won", True, lambda w: w.won()),
    ("load again", False, lambda w: w.load(DEALT)),
    ("can_pick_up", True, lambda w: w.call("can_pick_up", ["t1", 1])),
    ("tableau_accepts", True, lambda w: w.call("tableau_accepts", ["t4", ["6S"], "t7"])),
    ("special_moves", True, lambda w: w.call("special_moves", [])),
]


@dataclass
class Outcome:
    label: str
    student_code: bool
    value: Any = None
    error: WorkerError | None = None

    @property
    def kind(self) -> str:
        return "ok" if self.error is None else self.error.kind


@dataclass
class Run:
    outcomes: list[Outcome] = field(default_factory=list)

    def messages(self) -> str:
        return "\n".join(str(o.error) for o in self.outcomes if o.error is not None)


def drive(worker: Worker) -> Run:
    """Run SCRIPT, each request on its own (a failure resyncs nothing: the next request just follows)."""
    run = Run()
    for label, student_code, call in SCRIPT:
        outcome = Outcome(label, student_code)
        try:
            outcome.value = call(worker)
        except WorkerError as error:
            outcome.error = error
        run.outcomes.append(outcome)
    return run


def reference_run() -> Run:
    return drive(LocalWorker(SCORPION))


# -- guards ----------------------------------------------------------------------

def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "absent"


class Guard:
    """A snapshot of the places an attack might write to; :meth:`changes` lists what differs."""

    WATCHED_FILES = [
        REPO / "reference" / "scorpion.py", REPO / "solitaire" / "engine.py",
        REPO / "solitaire" / "protocol.py",
        REPO / "grader" / "__init__.py", REPO / "results.json", REPO / "PWNED-results.json",
        Path("/tmp/results.json"), Path("/tmp/PWNED-results.json"), Path("/autograder/results/results.json"),
        Path("/results.json"), Path("/PWNED-results.json"),
    ]

    def __init__(self, *directories: Path) -> None:
        self.directories = directories
        self.before = self._snapshot()

    def _snapshot(self) -> dict[str, str]:
        state = {str(p): _digest(p) for p in self.WATCHED_FILES}
        for directory in self.directories:
            for path in sorted(directory.rglob("*")) if directory.exists() else []:
                state[str(path)] = _digest(path) if path.is_file() else "dir"
        return state

    def changes(self) -> list[str]:
        after = self._snapshot()
        keys = set(self.before) | set(after)
        return sorted(k for k in keys if self.before.get(k, "absent") != after.get(k, "absent"))


def unsafe_characters(text: str, multiline: bool = True) -> list[str]:
    """Characters student text must never carry into the grader's output (grader.sanitize.text escapes
    them): controls (NUL, ESC, CR ...), bidi and other format characters, separators, lone surrogates."""
    import unicodedata

    kept = {"\n", "\t"} if multiline else set()
    return [c for c in text if c not in kept and unicodedata.category(c) in
            {"Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs"}]


def process_status() -> dict[int, dict[str, str]]:
    """Every process now: its pid and the fields of its /proc status (``Uid``, ``PPid`` ...)."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        table[int(entry)] = {key: value.strip() for key, value in
                             (line.split(":", 1) for line in status.splitlines() if ":" in line)}
    return table


def processes_of(uid: int) -> list[int]:
    """Pids of live (not zombie) processes whose real uid is ``uid``."""
    return [pid for pid, fields in process_status().items()
            if int(fields.get("Uid", "-1").split()[0]) == uid and not fields.get("State", "").startswith("Z")]
