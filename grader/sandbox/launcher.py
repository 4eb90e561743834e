"""The command line that starts the worker entry script inside an isolation layer.

Every launch is wrapped by :data:`LAUNCH_SCRIPT` (``/bin/sh``, which then execs the layer, so
the process the worker waits for and kills is still the layer's): it first writes the IPC
sysctls when the launcher made a new IPC namespace for bwrap (``unshare --ipc`` in front, as
root), then moves itself into the launch's cgroup (:mod:`.cgroups`) so that every process of
the worker is born inside it (and deletes the launch's marker file: from then on the cgroup may
be removed once empty), then opens bwrap's options file on a descriptor for ``bwrap --args``
and deletes it: the options name host paths, and a command line is readable by every process
of the PID namespace.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Sequence
from pathlib import Path

from . import cgroups
from .files import Submission
from .isolation import (
    SANDBOX_ROOT,
    UNSHARE_SANDBOX,
    Isolation,
    bwrap_options,
    free_fds,
    ipc_sysctls,
    unshare_hidden,
    unshare_prefix,
)
from .limits import Limits
from .view import base_interpreter, python_view

log = logging.getLogger("grader.sandbox")

# $1 = bwrap's options file ("" for none), $2 = the descriptor to open it on, $3 = a marker file
# deleted once the cgroup is joined ("" for none), then "key=value" sysctls under /proc/sys "--",
# cgroup.procs files "--", the command.
# exit status 96: the wrapper could not write a sysctl, join the cgroup or open the options
LAUNCH_SCRIPT = """
options=$1; fd=$2; joined=$3; shift 3
while [ "$1" != "--" ]; do
  printf '%s\\n' "${1#*=}" > "/proc/sys/${1%%=*}" || exit 96; shift
done
shift
while [ "$1" != "--" ]; do printf '%s\\n' $$ > "$1" || exit 96; shift; done
shift
if [ -n "$joined" ]; then rm -f "$joined"; fi
if [ -n "$options" ]; then eval "exec $fd<\\"\\$options\\"" || exit 96; rm -f "$options"; fi
exec "$@"
"""
EXTRA_TASKS = 4  # the layer's own processes besides the worker's (sh/bwrap, bwrap's init)


def _write_options(submission: Submission, options: list[str]) -> Path:
    path = submission.new_private_file("bwrap-options")
    with open(path, "wb") as handle:
        handle.write(b"".join(arg.encode() + b"\0" for arg in options))
    return path


def launch_command(
    isolation: Isolation,
    submission: Submission,
    work_dir: Path | None,
    uid: int | None,
    limits: Limits,
    request_fd: int,
    reply_fd: int,
    hidden: Sequence[Path] = (),
    control_fd: int | None = None,
) -> list[str]:
    """The argv that starts the entry script inside ``isolation`` (in a new cgroup, when one can be had).

    ``control_fd``: the zygote's control pipe (bwrap only): the entry script then forks a fresh
    child per request read there instead of loading the rules file itself.
    """
    options_file: Path | None = None
    used = (request_fd, reply_fd) if control_fd is None else (request_fd, reply_fd, control_fd)
    options_fd = free_fds(used)[0]
    sysctls: list[str] = []
    front: list[str] = []
    if isolation.name == "bwrap":
        base, cwd = SANDBOX_ROOT, "/tmp"
        own_ipc = isolation.as_root and shutil.which("unshare") is not None
        if own_ipc:
            front = [shutil.which("unshare") or "unshare", "--ipc", "--"]
            sysctls = ipc_sysctls(limits.ipc_bytes)
        options_file = _write_options(
            submission, bwrap_options(submission.root, limits.tmp_bytes, isolation.as_root, own_ipc))
        prefix = [shutil.which("bwrap") or "bwrap", "--args", str(options_fd), "--"]
        python = python_view().inside_binary
    elif isolation.name == "unshare":
        base, cwd = UNSHARE_SANDBOX, "/tmp"
        hidden_dirs = unshare_hidden([Path(p) for p in hidden])
        if any(submission.root.resolve().is_relative_to(p) for p in hidden_dirs):
            raise RuntimeError(f"the sandbox temp dir {submission.root} lies inside a hidden directory")
        prefix = unshare_prefix(submission.root, limits.tmp_bytes, hidden_dirs, isolation.as_root,
                                limits.ipc_bytes, (request_fd, reply_fd))
        python = base_interpreter()
    else:
        base, cwd = str(submission.root), str(work_dir)
        prefix = []
        python = base_interpreter()
    config = {
        "request_fd": request_fd,
        "reply_fd": reply_fd,
        **({"control_fd": control_fd} if control_fd is not None else {}),
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
            "msgqueue": [64 * 1024, 64 * 1024],
        },
    }
    command = [*prefix, python, "-I", "-S", "-B", "-u", f"{base}/boot/entry.py", json.dumps(config)]
    group = cgroups.create(limits.group_memory_bytes, limits.processes + EXTRA_TASKS)
    procs: list[str] = []
    if group is not None:
        # other workers of the submission may stop meanwhile: the marker keeps their cleanup from
        # removing this cgroup before the wrapper is in it
        group.marker = submission.new_private_file("cgroup-unjoined")
        submission.track_cgroup(group)
        procs = group.procs_files
    if not (front or sysctls or procs or options_file):
        return command
    return [*front, "/bin/sh", "-c", LAUNCH_SCRIPT, "sandbox-launch", str(options_file or ""),
            str(options_fd), str(group.marker if group is not None else ""), *sysctls, "--", *procs, "--",
            *command]
