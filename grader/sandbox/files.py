"""The files a worker sees: checked rules copy, the grader's engine copy, the entry script.

One private temp directory per submission (mode 0711, owned by the grader)::

    lib/solitaire/   a copy of the grader's OWN engine package (never the student's vendored one),
                     byte-compiled here so the worker imports it without writing
    rules/<name>.py  a copy of the student's rules file, checked first
    boot/entry.py    the worker entry script (not on the worker's sys.path)
    work-P-N/        the working directory of launch N (unshare and plain layers; bwrap uses its own /tmp)
    bwrap-options-P-N  bwrap's options of launch N (mode 0600; deleted once bwrap has it open)
    cgroup-unjoined-P-N  exists until launch N's wrapper is in its cgroup (see release_cgroups)

(P is the pid of the grading process that launched it: the process replaying traces ahead,
grader/suite/ahead.py, is forked from the suite and launches its own sandbox here too.)

Everything but ``work-N`` is read-only to the sandbox uid. The directory is
removed by :meth:`Submission.remove`, which also removes the launches' cgroups
(:meth:`Submission.remove_work_dir`, called after each launch ends, removes those
whose processes are gone).
"""

from __future__ import annotations

import atexit
import compileall
import functools
import hashlib
import itertools
import os
import shutil
import stat
import sys
import tempfile
import threading
import time
from pathlib import Path

import solitaire

ENTRY_SCRIPT = Path(__file__).with_name("entry.py")
RESERVED_NAMES = ("solitaire", "entry")


class RulesFileProblem(Exception):
    """The submitted rules file cannot be used; the message is meant for the student."""


def read_rules_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of a submitted rules file, after checks a student can act on."""
    name = path.name
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise RulesFileProblem(f"the rules file {name} is missing from the submission") from None
    except OSError as error:
        raise RulesFileProblem(f"the rules file {name} cannot be read ({error.strerror})") from None
    if stat.S_ISLNK(info.st_mode):
        raise RulesFileProblem(f"the rules file {name} is a symbolic link; submit the file itself")
    if not stat.S_ISREG(info.st_mode):
        raise RulesFileProblem(f"the rules file {name} is not a regular file")
    if info.st_size > max_bytes:
        raise RulesFileProblem(
            f"the rules file {name} is {info.st_size} bytes, more than the limit of {max_bytes} bytes"
        )
    stem = path.stem
    if path.suffix != ".py" or not stem.isidentifier() or stem in RESERVED_NAMES:
        raise RulesFileProblem(f"the rules file {name} must be named <variation>.py, e.g. scorpion.py")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as error:
        raise RulesFileProblem(f"the rules file {name} cannot be read ({error.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise RulesFileProblem(f"the rules file {name} is more than the limit of {max_bytes} bytes")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise RulesFileProblem(
            f"the rules file {name} is not UTF-8 text (invalid byte at line {line}); save it as UTF-8"
        ) from None
    return data


def engine_source() -> Path:
    """The grader's own engine package directory."""
    return Path(solitaire.__file__).resolve().parent


def _compile_engine(destination: Path) -> None:
    source = engine_source()
    shutil.copytree(source, destination, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo"))
    compileall.compile_dir(str(destination), quiet=2, workers=1)
    for path in [destination, *destination.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)


def _engine_digest() -> str:
    """A hash of the engine's source files and of the interpreter that compiles them."""
    digest = hashlib.sha256(sys.version.encode())
    source = engine_source()
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo"):
            digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=1)
def _engine_template() -> Path:
    """The engine copied and byte-compiled once, kept in this user's private sandbox directory
    (``engine-<hash of the sources>``) so that every grading process reuses it; without that
    directory, once per process in a temp dir removed at exit."""
    from .uids import state_dir

    directory = state_dir()
    if directory is None:
        holder = Path(tempfile.mkdtemp(prefix="solitaire-engine-"))
        atexit.register(shutil.rmtree, holder, True)
        os.chmod(holder, 0o711)
        _compile_engine(holder / "solitaire")
        return holder / "solitaire"
    final = directory / f"engine-{_engine_digest()}"
    if not (final / "solitaire").is_dir():
        building = Path(tempfile.mkdtemp(prefix="engine-building-", dir=directory))
        os.chmod(building, 0o755)
        _compile_engine(building / "solitaire")
        try:
            os.rename(building, final)
        except OSError:  # another process built it first
            shutil.rmtree(building, ignore_errors=True)
        _prune_templates(directory, keep=final)
    return final / "solitaire"


def _prune_templates(directory: Path, keep: Path, age_s: float = 86400.0) -> None:
    """Remove engine templates of older engine sources unused for a day."""
    for path in directory.glob("engine-*"):
        try:
            if path != keep and time.time() - path.stat().st_mtime > age_s:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def _copy_engine(destination: Path) -> None:
    try:
        shutil.copytree(_engine_template(), destination)
    except FileNotFoundError:  # the cached template was pruned meanwhile: build it again
        _engine_template.cache_clear()
        shutil.rmtree(destination, ignore_errors=True)
        shutil.copytree(_engine_template(), destination)


class Submission:
    """The private temp directory for one submission's workers."""

    def __init__(self, rules_file: Path, max_bytes: int) -> None:
        rules_file = Path(rules_file)
        self.rules_name = rules_file.name
        self.problem: RulesFileProblem | None = None
        self.load_failure: Exception | None = None  # set by the first worker that fails to load it
        try:
            data = read_rules_file(rules_file, max_bytes)
        except RulesFileProblem as problem:
            self.problem = problem
            data = b""
        # several workers of the submission may launch at once, each in its own thread
        self._work_numbers = itertools.count(1)
        self._file_numbers = itertools.count(1)
        self._cgroups_lock = threading.Lock()
        self.cgroups: list = []  # WorkerCgroup of each launch not yet removed
        self.root = Path(tempfile.mkdtemp(prefix="solitaire-sandbox-"))
        try:
            os.chmod(self.root, 0o711)
            for part in ("lib", "rules", "boot"):
                (self.root / part).mkdir(mode=0o755)
            _copy_engine(self.root / "lib" / "solitaire")
            shutil.copyfile(ENTRY_SCRIPT, self.root / "boot" / "entry.py")
            os.chmod(self.root / "boot" / "entry.py", 0o644)
            if self.problem is None:
                target = self.root / "rules" / self.rules_name
                target.write_bytes(data)
                os.chmod(target, 0o644)
        except BaseException:
            self.remove()
            raise

    def new_private_file(self, stem: str) -> Path:
        """A new empty file only the grader can read, removed with the submission."""
        path = self.root / f"{stem}-{os.getpid()}-{next(self._file_numbers)}"
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW, 0o600))
        return path

    def track_cgroup(self, group: object) -> None:
        """Remember a launch's cgroup, removed once the launch's processes are gone."""
        with self._cgroups_lock:
            self.cgroups.append(group)

    def release_cgroups(self, wait_s: float = 0.0, everything: bool = False) -> None:
        """Remove the cgroups whose processes have all ended (waiting up to ``wait_s`` for them).
        A launch's cgroup that its wrapper has not joined yet (:attr:`WorkerCgroup.joined`) is
        kept, unless ``everything``: another worker of the submission may be starting right now."""
        with self._cgroups_lock:
            candidates = [g for g in self.cgroups if everything or g.joined]
        removed = {id(g) for g in candidates if g.remove(wait_s)}  # (waits outside the lock)
        with self._cgroups_lock:
            self.cgroups = [g for g in self.cgroups if id(g) not in removed]

    def new_work_dir(self, uid: int | None) -> Path:
        """A fresh working directory owned by ``uid`` (when root), removed with the submission."""
        path = self.root / f"work-{os.getpid()}-{next(self._work_numbers)}"
        path.mkdir(mode=0o700)
        if uid is not None and os.geteuid() == 0:
            os.chown(path, uid, uid)
        return path

    def remove_work_dir(self, path: Path | None) -> None:
        """A launch ended (the worker calls this after killing it): remove its working directory
        and the cgroups left without processes. Those not joined yet belong to launches still
        starting (in another thread) and are kept; so are those of workers still running."""
        if path is not None:
            shutil.rmtree(path, ignore_errors=True)
        if self.cgroups:
            joined = [g for g in self.cgroups if g.joined]
            self.release_cgroups(wait_s=0.5 if len(joined) == 1 else 0.0)

    def remove(self) -> None:
        if self.cgroups:
            self.release_cgroups(wait_s=2.0, everything=True)
        shutil.rmtree(self.root, ignore_errors=True)
