"""Choosing the isolation layer: probe each candidate, strongest first, and cache the outcome.

A probe runs a trivial variation through a layer, the whole way (namespaces,
uid drop, engine import, handshake, one request). The outcome is cached for an
hour so that the many grading processes of a course probe once: in this
grader's private state directory (:func:`.uids.state_dir`:
``/run/solitaire-lab/grader-<key>/`` as root, root-owned 0700, keyed by the
grader's installation path, interpreter and user; never in a shared
``$TMPDIR``), each entry also keyed by kernel, interpreter, tools and entry
script. A worker whose sandbox setup fails clears this grader's entries; only
the entry script's own "ready" line, written before any student code runs,
can say so (see :meth:`.worker.SandboxWorker._handshake`), never a submission.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from solitaire.protocol import WorkerError

from .files import ENTRY_SCRIPT
from .isolation import ISOLATION_NAMES, Isolation, announce, candidates, layer
from .limits import Limits
from .uids import state_dir

log = logging.getLogger("grader.sandbox")

PROBE_RULES = '''"""A minimal variation used to check that a sandbox layer works."""
from solitaire.cards import ONE_PACK
from solitaire.piles import TABLEAU, Layout, numbered
from solitaire.variation import Variation


class Probe(Variation):
    name = "probe"
    title = "Probe"
    deck = ONE_PACK
    layout = Layout(numbered(TABLEAU, 1))
'''


PROBE_CACHE_S = 3600.0


def _file_key(path: str | None) -> list[object]:
    if not path:
        return [None]
    try:
        info = os.stat(path)
    except OSError:
        return [path, None]
    return [os.path.realpath(path), info.st_mtime_ns, info.st_size]


def probe_key(requested: str, entry_digest: str) -> str:
    """What a probe result depends on: user, kernel, interpreter, tools and the entry script."""
    return json.dumps([
        requested, os.geteuid(), os.uname().release, entry_digest,
        _file_key(sys.executable), _file_key(os.path.realpath(sys.executable)),
        _file_key(shutil.which("bwrap")), _file_key(shutil.which("unshare")),
    ])


def _cache_file(directory: Path, requested: str) -> Path:
    return directory / f"probe-{requested}.json"


def cached_layer(requested: str, key: str) -> str | None:
    """The layer a recent probe chose for ``requested`` with the same ``key``, if any."""
    directory = state_dir()
    if directory is None:
        return None
    try:
        data = json.loads(_cache_file(directory, requested).read_text())
        fresh = 0 <= time.time() - float(data.get("time", 0)) < PROBE_CACHE_S
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    if data.get("key") == key and fresh and data.get("layer") in ISOLATION_NAMES:
        return str(data["layer"])
    return None


def remember_layer(requested: str, key: str, name: str) -> None:
    directory = state_dir()
    if directory is None:
        return
    temporary = directory / f"probe.{os.getpid()}.tmp"
    try:
        temporary.write_text(json.dumps({"key": key, "layer": name, "time": time.time()}))
        os.replace(temporary, _cache_file(directory, requested))
    except OSError:
        pass


def forget_layer() -> None:
    """Drop this grader's cached probe outcomes (a worker found its sandbox broken)."""
    directory = state_dir()
    if directory is not None:
        for path in directory.glob("probe-*.json"):
            try:
                path.unlink()
            except OSError:
                pass
    _chosen.clear()


_chosen: dict[str, Isolation] = {}


def _probe(isolation: Isolation) -> str | None:
    """None when a trivial variation answers through ``isolation`` here, else why not."""
    holder = Path(tempfile.mkdtemp(prefix="solitaire-probe-"))
    try:
        rules = holder / "probe.py"
        rules.write_text(PROBE_RULES)
        limits = Limits(startup_s=20, call_s=20, wall_s=60)
        from .worker import SandboxWorker  # a probe is a real worker

        probe = SandboxWorker(rules, limits)
        probe.isolation = isolation
        probe.probing = True
        try:
            reply = probe.request({"op": "won"})
        except WorkerError as error:
            return f"{getattr(error, 'reason', '') or error} / {probe.output.strip()[-300:]}"
        finally:
            probe.close()
        if reply.get("ok") is not False:  # an empty probe game: is_won is not implemented
            return f"unexpected probe answer {reply}"
        return None
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def _entry_digest() -> str:
    return hashlib.sha256(ENTRY_SCRIPT.read_bytes()).hexdigest()[:16]


def choose_isolation(requested: str = "auto") -> Isolation:
    """The strongest working layer (``auto``) or the requested one; logged once at INFO.

    A probe runs a trivial variation through each candidate layer, strongest
    first. Its outcome is cached for an hour in this grader's private
    directory (keyed by kernel, interpreter, tools and entry script), so that
    the many grading processes of a course probe once; a worker whose sandbox
    setup fails clears the cache.
    """
    if requested in _chosen:
        return _chosen[requested]
    key = probe_key(requested, _entry_digest())
    cached = cached_layer(requested, key)
    if cached is not None and cached in candidates(requested):
        isolation = layer(cached)
        _chosen[requested] = isolation
        announce(isolation)
        return isolation
    reasons: list[str] = []
    for name in candidates(requested):
        isolation = layer(name)
        problem = _probe(isolation)
        if problem is None:
            remember_layer(requested, key, name)
            _chosen[requested] = isolation
            announce(isolation)
            if reasons:
                log.info("sandbox: stronger layers unavailable: %s", "; ".join(reasons))
            return isolation
        reasons.append(f"{name}: {problem}")
        log.info("sandbox: %s does not work here: %s", name, problem)
    raise RuntimeError("no sandbox layer works here: " + "; ".join(reasons))


def active_isolation() -> Isolation:
    """The layer ``auto`` picks on this machine (probing it if needed)."""
    return choose_isolation(Limits.from_env().isolation)

