"""The bwrap layer's mount view: the interpreter, its standard library and the shared libraries
they link, and nothing else of the host.

Inside the sandbox the interpreter is ``/sandbox/python/bin/python3`` and its standard library
``/sandbox/python/lib/python3.X`` (Python finds its prefix from the binary's location), so
neither the command line nor ``sys.path`` names a host directory. Shared libraries of the
interpreter's own installation (a ``libpython`` of a ``--enable-shared`` build) are mounted in
``/sandbox/python/lib`` and found through ``LD_LIBRARY_PATH``; system libraries (libc, libffi,
libssl ...) at their own paths, one file each, with the symbolic links on the way to them
(``/lib -> usr/lib``). Every ``site-packages``/``dist-packages`` directory in the standard
library is covered by an empty read-only tmpfs: no installed package is importable, whatever
``sys.path`` a submission builds.

The libraries are found with ``ldd`` on the interpreter and on every extension module of the
standard library (``lib-dynload``); ``ldd`` is slow (about a second for 70 modules), so the
list is cached in the grader's private state directory, keyed by the files' sizes and times.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

SANDBOX_PYTHON = "/sandbox/python"
PACKAGE_DIRS = ("site-packages", "dist-packages")
#: extension modules left out of the library scan: a GUI toolkit (X11, Tk, fonts: half the libraries)
#: and NIS are of no use to a rules file; importing them inside fails for want of their libraries
UNUSED_MODULES = ("_tkinter", "nis")
_LDD_LINE = re.compile(r"^\s*(?:\S+\s+=>\s+)?(/\S+)\s+\(0x[0-9a-f]+\)\s*$")


@dataclass(frozen=True)
class PythonView:
    """What of the host the worker's interpreter needs, and where it appears inside."""

    binary: str  # the real interpreter binary on the host
    stdlib: str  # the real standard library directory on the host
    dynload: str | None  # lib-dynload, when it is not inside ``stdlib``
    libraries: tuple[str, ...]  # shared libraries as ldd names them (host paths)

    @property
    def inside_binary(self) -> str:
        return f"{SANDBOX_PYTHON}/bin/python3"

    @property
    def inside_stdlib(self) -> str:
        return f"{SANDBOX_PYTHON}/lib/{os.path.basename(self.stdlib)}"


def base_interpreter() -> str:
    """The grader's base interpreter (not a venv's launcher), resolved."""
    real = os.path.realpath(sys.executable)
    if real.startswith(os.path.realpath(sys.base_prefix) + os.sep):
        return real
    for name in (f"python{sys.version_info[0]}.{sys.version_info[1]}", "python3"):
        candidate = os.path.join(sys.base_prefix, "bin", name)
        if os.path.exists(candidate):
            return os.path.realpath(candidate)
    return real


def _stdlib_dirs() -> tuple[str, str]:
    """The standard library and its extension modules' directory (of the base installation)."""
    paths = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_exec_prefix,
                                      "installed_base": sys.base_prefix,
                                      "installed_platbase": sys.base_exec_prefix})
    stdlib = os.path.realpath(paths["stdlib"])
    dynload = os.path.realpath(os.path.join(paths["platstdlib"], "lib-dynload"))
    return stdlib, dynload


def _stat_key(path: str) -> list[object]:
    try:
        info = os.stat(path)
    except OSError:
        return [path, None]
    return [path, info.st_size, info.st_mtime_ns]


def ldd_libraries(files: list[str]) -> list[str]:
    """Absolute paths of the shared libraries ``files`` load (the dynamic loader included)."""
    found: set[str] = set()
    for start in range(0, len(files), 32):
        try:
            result = subprocess.run(["ldd", *files[start:start + 32]], capture_output=True, text=True,
                                    timeout=60, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
        except (OSError, subprocess.TimeoutExpired) as error:
            raise RuntimeError(f"ldd cannot list the interpreter's shared libraries: {error}") from None
        for line in result.stdout.splitlines():
            match = _LDD_LINE.match(line)
            if match:
                found.add(match.group(1))
    return sorted(found)


def _cached_libraries(files: list[str]) -> list[str]:
    from .uids import state_dir

    key = hashlib.sha256(json.dumps([_stat_key(f) for f in files]).encode()).hexdigest()[:20]
    directory = state_dir()
    cache = directory / f"libraries-{key}.json" if directory is not None else None
    if cache is not None:
        try:
            return [str(p) for p in json.loads(cache.read_text())]
        except (OSError, ValueError):
            pass
    libraries = ldd_libraries(files)
    if cache is not None:
        temporary = cache.with_suffix(f".{os.getpid()}.tmp")
        try:
            temporary.write_text(json.dumps(libraries))
            os.replace(temporary, cache)
        except OSError:
            pass
    return libraries


@functools.cache
def python_view() -> PythonView:
    """The interpreter, its standard library and its shared libraries (computed once per process)."""
    binary = base_interpreter()
    stdlib, dynload = _stdlib_dirs()
    modules = sorted(str(p) for p in Path(dynload).glob("*.so")
                     if p.name.split(".")[0] not in UNUSED_MODULES) if os.path.isdir(dynload) else []
    libraries = _cached_libraries([binary, *modules])
    inside = dynload == stdlib or dynload.startswith(stdlib + os.sep) or not os.path.isdir(dynload)
    return PythonView(binary, stdlib, None if inside else dynload, tuple(libraries))


def resolve_links(path: str) -> tuple[list[tuple[str, str]], str]:
    """The symbolic links met on the way to ``path`` as (target, link), and the real path."""
    links: list[tuple[str, str]] = []
    parts = list(Path(path).parts[1:])
    current = "/"
    for _ in range(200):
        if not parts:
            return links, current
        candidate = os.path.join(current, parts.pop(0))
        if os.path.islink(candidate):
            target = os.readlink(candidate)
            links.append((target, candidate))
            parts = list(Path(os.path.normpath(os.path.join(current, target))).parts[1:]) + parts
            current = "/"
        else:
            current = candidate
    raise OSError(f"too many symbolic links resolving {path}")


class _Args:
    """bwrap mount arguments without duplicates, parents created traversable (0755)."""

    def __init__(self) -> None:
        self.args: list[str] = []
        self.made: set[str] = {"/"}

    def parents(self, path: str) -> None:
        parts = Path(path).parts
        for depth in range(2, len(parts)):
            parent = str(Path(*parts[:depth]))
            if parent not in self.made:
                self.made.add(parent)
                self.args += ["--perms", "0755", "--dir", parent]

    def bind(self, source: str, dest: str) -> None:
        if dest in self.made:
            return
        self.parents(dest)
        self.made.add(dest)
        self.args += ["--ro-bind", source, dest]

    def symlink(self, target: str, link: str) -> None:
        if link in self.made:
            return
        self.parents(link)
        self.made.add(link)
        self.args += ["--symlink", target, link]


@functools.cache
def _cached_view_args() -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    args, env = _view_args(python_view())
    return tuple(args), tuple(env.items())


def view_args() -> tuple[list[str], dict[str, str]]:
    """bwrap arguments mounting the interpreter's view, and the environment it needs inside
    (computed once per process for the grader's own interpreter)."""
    args, env = _cached_view_args()
    return list(args), dict(env)


def _view_args(view: PythonView) -> tuple[list[str], dict[str, str]]:
    args = _Args()
    prefix = os.path.realpath(sys.base_prefix)
    private_libs = False
    for library in view.libraries:
        links, real = resolve_links(library)
        if os.path.basename(real).startswith("libpython") and real.startswith(prefix + os.sep):
            # libpython of a shared build (--enable-shared): away from the installation's host path
            args.bind(real, f"{SANDBOX_PYTHON}/lib/{os.path.basename(library)}")
            private_libs = True
            continue
        for target, link in links:
            args.symlink(target, link)
        args.bind(real, real)
    if os.path.isfile("/etc/ld.so.cache"):
        args.bind("/etc/ld.so.cache", "/etc/ld.so.cache")
    args.bind(view.binary, view.inside_binary)
    args.bind(view.stdlib, view.inside_stdlib)
    if view.dynload is not None:
        args.bind(view.dynload, f"{view.inside_stdlib}/lib-dynload")
    for name in PACKAGE_DIRS:
        if os.path.isdir(os.path.join(view.stdlib, name)):
            args.args += ["--size", "4096", "--perms", "0555", "--tmpfs", f"{view.inside_stdlib}/{name}",
                          "--remount-ro", f"{view.inside_stdlib}/{name}"]
    env = {"LD_LIBRARY_PATH": f"{SANDBOX_PYTHON}/lib"} if private_libs else {}
    return args.args, env
