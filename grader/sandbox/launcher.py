"""The command line that starts the worker entry script inside an isolation layer."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from .files import Submission
from .isolation import (
    SANDBOX_ROOT,
    UNSHARE_SANDBOX,
    Isolation,
    bwrap_prefix,
    python_executable,
    unshare_hidden,
    unshare_prefix,
)
from .limits import Limits


def launch_command(
    isolation: Isolation,
    submission: Submission,
    work_dir: Path | None,
    uid: int | None,
    limits: Limits,
    request_fd: int,
    reply_fd: int,
    hidden: Sequence[Path] = (),
) -> list[str]:
    """The argv that starts the entry script inside ``isolation``."""
    if isolation.name == "bwrap":
        base, cwd = SANDBOX_ROOT, "/tmp"
        prefix = bwrap_prefix(submission.root, limits.tmp_bytes, isolation.as_root)
    elif isolation.name == "unshare":
        base, cwd = UNSHARE_SANDBOX, "/tmp"
        hidden_dirs = unshare_hidden([Path(p) for p in hidden])
        if any(submission.root.resolve().is_relative_to(p) for p in hidden_dirs):
            raise RuntimeError(f"the sandbox temp dir {submission.root} lies inside a hidden directory")
        prefix = unshare_prefix(submission.root, limits.tmp_bytes, hidden_dirs, isolation.as_root)
    else:
        base, cwd = str(submission.root), str(work_dir)
        prefix = []
    config = {
        "request_fd": request_fd,
        "reply_fd": reply_fd,
        "engine_dir": f"{base}/lib",
        "rules_file": f"{base}/rules/{submission.rules_name}",
        "work_dir": cwd,
        "uid": uid if isolation.as_root else None,
        "gid": uid if isolation.as_root else None,
        "parent_death": isolation.name == "plain",
        "preload": isolation.name == "plain",
        "rlimits": {
            "cpu": [limits.cpu_s, limits.cpu_s + 1],
            "as": [limits.memory_bytes, limits.memory_bytes],
            "nproc": [limits.processes, limits.processes],
            "nofile": [limits.open_files, limits.open_files],
            "fsize": [limits.file_bytes, limits.file_bytes],
            "core": [0, 0],
        },
    }
    return [*prefix, python_executable(), "-I", "-S", "-B", "-u", f"{base}/boot/entry.py", json.dumps(config)]
