"""Build and run the Gradescope autograder zip in Ubuntu root filesystems, as Gradescope would.

    sudo .venv/bin/python scripts/gradescope_chroot_check.py [--roots DIR] [--release jammy] ...

No container runtime is needed: for each Ubuntu release (default: 22.04
``jammy``, Gradescope's default base image, and 24.04 ``noble``) the script

1. makes, once, a minimal root filesystem with ``debootstrap --variant=minbase``
   in ``ROOTS/<release>/base`` and adds to it what we assume Gradescope's base
   image adds to Ubuntu (:data:`IMAGE_LAYER_SH`: the apt sources of Docker's
   ``ubuntu:<version>`` image, ``python3``; the package lists are then emptied,
   as in Docker images, so setup.sh must fetch them itself);
2. copies that base to ``ROOTS/<release>/run`` (every run starts from the
   untouched image), unzips the autograder into ``/autograder/source``, runs
   ``setup.sh`` there as root in a chroot, and copies ``run_autograder`` to
   ``/autograder/run_autograder`` (Gradescope's image build);
3. grades two submissions there, as Gradescope's harness does (files in
   ``/autograder/submission``, the submitter in
   ``/autograder/submission_metadata.json``, then ``/autograder/run_autograder``
   from ``/autograder``), and checks ``/autograder/results/results.json``: the
   reference solution of the submitter's variation, uploaded inside a folder,
   scores full points; a submitter not on the roster gets a visible "not
   graded" test.

Each chroot runs inside its own mount namespace (``unshare --mount``):
``/proc``, ``/sys`` (read-only), a small ``/dev`` and ``/dev/shm`` are mounted
there and vanish with it, so no mount outlives the script, even when it is
killed. Needs root, ``debootstrap`` (installed with apt-get when missing) and
the Ubuntu archive over the network (the archive keyring is taken from the
host or from the archive's ``ubuntu-keyring`` package, checked by its
SHA-256). Prints one line per step and a summary; exit status 0 when every
release passed. Measured here: a debootstrap takes under a minute to a few
(the mirror's speed) and makes a base of about 140 MB; the bases are reused by
later runs (``--fresh`` rebuilds them); a run's copy, with the installed
autograder, holds about 900 MB and its setup.sh took 1 to 5 minutes (load).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RELEASES = {"jammy": "22.04", "noble": "24.04"}
MIRROR = "http://archive.ubuntu.com/ubuntu"
KEYRING = "/usr/share/keyrings/ubuntu-archive-keyring.gpg"
#: jammy's ubuntu-keyring package (holds the 2018 archive key that signs jammy and noble)
KEYRING_DEB = "https://archive.ubuntu.com/ubuntu/pool/main/u/ubuntu-keyring/ubuntu-keyring_2021.03.26_all.deb"
KEYRING_DEB_SHA256 = "0d0e7ed6b112f5d03eabf3c7eb01ebdacf9c57714b279e90495cfc58c8c4520f"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

#: What Gradescope's base image is assumed to add to a minimal Ubuntu: the apt sources of Docker's
#: ubuntu image (all four components, -updates and -security) and Python 3, its default Python since
#: 2020 (gradescope/autograder_samples, docs/updates.md). No pip, venv, git, bubblewrap or
#: ca-certificates: setup.sh must install what it needs. The package lists are emptied afterwards.
IMAGE_LAYER_SH = """\
set -eu
export DEBIAN_FRONTEND=noninteractive
release="$1"
rm -f /etc/apt/sources.list.d/*.sources
cat > /etc/apt/sources.list <<EOF
deb http://archive.ubuntu.com/ubuntu $release main restricted universe multiverse
deb http://archive.ubuntu.com/ubuntu $release-updates main restricted universe multiverse
deb http://security.ubuntu.com/ubuntu $release-security main restricted universe multiverse
EOF
apt-get update -qq
apt-get install -y -qq --no-install-recommends python3 >/dev/null
apt-get clean
rm -rf /var/lib/apt/lists/*
"""

#: Run inside ``unshare --mount --propagation private``: the root bound onto itself and made the
#: namespace's root with pivot_root (as a container runtime does; a plain chroot is no mount point,
#: so bwrap cannot make it a slave, and the kernel refuses user namespaces to a chrooted process),
#: what a container has mounted in it, then the command.
CHROOT_SH = """\
set -eu
root="$1"; shift
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount -t sysfs -o ro sysfs "$root/sys"
mount -t tmpfs -o mode=0755,size=16m tmpfs "$root/dev"
for node in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
  IFS=: read -r name major minor <<EOF
$node
EOF
  mknod -m 0666 "$root/dev/$name" c "$major" "$minor"
done
mkdir -p "$root/dev/shm"
mount -t tmpfs -o mode=1777,size=64m tmpfs "$root/dev/shm"
ln -s /proc/self/fd "$root/dev/fd"
rm -f "$root/etc/resolv.conf"  # never write through a link into the host
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
cd "$root"
mkdir -p .host
pivot_root . .host
cd /
umount -l /.host
rmdir /.host
exec "$@"
"""


class CheckFailed(Exception):
    """One release failed a step (the message says which and why)."""


@dataclass
class Outcome:
    release: str
    passed: bool = False
    lines: list[str] = field(default_factory=list)


def say(text: str) -> None:
    print(f"gradescope-check: {text}", flush=True)


def run(command: list[str], log: Path, what: str, timeout: float = 3600) -> None:
    """Run ``command``, its output appended to ``log``; CheckFailed with the log's tail if it fails."""
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(command)}\n")
        out.flush()
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
    if done.returncode != 0:
        tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-25:])
        raise CheckFailed(f"{what} failed (exit {done.returncode}); the end of {log}:\n{tail}")


def mounts_under(path: Path) -> list[str]:
    """Mount points at or below ``path`` in this mount namespace."""
    prefix = str(path.resolve())
    found = []
    for line in Path("/proc/self/mounts").read_text().splitlines():
        point = line.split()[1].replace("\\040", " ")
        if point == prefix or point.startswith(prefix + "/"):
            found.append(point)
    return found


def remove_tree(path: Path) -> None:
    """``rm -rf`` that refuses a tree with anything mounted in it (a bound /dev would be emptied)."""
    if not path.exists():
        return
    if mounts_under(path):
        raise CheckFailed(f"{path} has mounts in it ({', '.join(mounts_under(path))}); not removing it")
    subprocess.run(["rm", "-rf", "--one-file-system", str(path)], check=True)


#: In the chroot: the CA bundle of this machine's network (``--host-ca``), apart from the image's own
HOST_CA = "etc/solitaire-check-host-ca.crt"


def in_chroot(root: Path, script: str, log: Path, what: str, *args: str, host_ca: Path | None = None) -> None:
    """Run the bash ``script`` (with ``args``) as root in ``root``, in a private mount namespace, with
    a clean environment (plus, with ``host_ca``, that bundle for pip and Python's ssl)."""
    staged = root / "tmp" / "solitaire-check.sh"
    staged.write_text(script, encoding="utf-8")
    env = [f"PATH={PATH}", "HOME=/root"]
    if host_ca is not None:
        shutil.copyfile(host_ca, root / HOST_CA)
        env += [f"PIP_CERT=/{HOST_CA}", f"SSL_CERT_FILE=/{HOST_CA}"]
    run(["unshare", "--mount", "--propagation", "private", "--fork", "sh", "-c", CHROOT_SH, "chroot-sh",
         str(root), "/usr/bin/env", "-i", *env, "bash", "/tmp/solitaire-check.sh", *args], log, what)
    staged.unlink()


# -- preparing the host and the base images ----------------------------------------------------
def ensure_debootstrap(log: Path) -> None:
    """Install ``debootstrap`` with apt-get when it is missing."""
    if not shutil.which("debootstrap"):
        if not shutil.which("apt-get"):
            raise CheckFailed("debootstrap is missing and there is no apt-get to install it")
        say("installing debootstrap with apt-get")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "debootstrap"]):
            with log.open("a") as out:
                if subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env).returncode:
                    raise CheckFailed(f"{' '.join(command)} failed (see {log})")


def archive_keyring(roots: Path) -> Path:
    """The Ubuntu archive keyring: the host's, else extracted from the checked ubuntu-keyring package."""
    if Path(KEYRING).is_file():
        return Path(KEYRING)
    kept = roots / "ubuntu-archive-keyring.gpg"
    if kept.is_file():
        return kept
    with urllib.request.urlopen(KEYRING_DEB, timeout=60) as response:  # noqa: S310 - a fixed https URL
        data = response.read()
    if hashlib.sha256(data).hexdigest() != KEYRING_DEB_SHA256:
        raise CheckFailed(f"{KEYRING_DEB} does not have the expected SHA-256; not trusting it")
    with tempfile.TemporaryDirectory() as temp:
        deb = Path(temp) / "keyring.deb"
        deb.write_bytes(data)
        subprocess.run(["dpkg-deb", "-x", str(deb), temp], check=True)
        shutil.copyfile(Path(temp) / KEYRING.lstrip("/"), kept)
    return kept


def debootstrap_script(release: str) -> list[str]:
    """An older debootstrap knows no noble: Ubuntu's releases since 7.10 share the ``gutsy`` script."""
    scripts = Path("/usr/share/debootstrap/scripts")
    return [] if (scripts / release).exists() else [str(scripts / "gutsy")]


def ensure_base(roots: Path, release: str, keyring: Path, fresh: bool, log: Path) -> Path:
    """``ROOTS/<release>/base``: minbase Ubuntu plus the image layer, made once."""
    home = roots / release
    base, done, layered = home / "base", home / "debootstrap.done", home / "image.done"
    if fresh:
        remove_tree(base)
        done.unlink(missing_ok=True)
        layered.unlink(missing_ok=True)
    home.mkdir(parents=True, exist_ok=True)
    if not done.exists():
        remove_tree(base)
        say(f"{release}: debootstrap --variant=minbase (a few minutes)")
        run(["debootstrap", "--variant=minbase", f"--keyring={keyring}", release, str(base), MIRROR,
             *debootstrap_script(release)], log, f"debootstrap {release}")
        done.write_text(dt.datetime.now(dt.UTC).isoformat() + "\n")
    if not layered.exists():
        say(f"{release}: adding the base image's layer (apt sources, python3)")
        in_chroot(base, IMAGE_LAYER_SH, log, f"the image layer of {release}", release)
        layered.write_text(dt.datetime.now(dt.UTC).isoformat() + "\n")
    return base


# -- the autograder, the submissions ------------------------------------------------------------
@dataclass(frozen=True)
class Autograder:
    zip_path: Path
    variation: str  # ada's
    full_points: float


def build_autograder(work: Path) -> Autograder:
    """A two-student course, assigned, exported as a Gradescope zip (the project's own code)."""
    from grader.course import assign, config, gradescope
    from grader.course.points import category_points

    course = config.init(work / "course", roster="id,name,email\nada,Ada Tester,ada@students.example\n"
                         "bob,Bob Tester,bob@students.example\n", deadline="2030-03-14T23:59:00+01:00")
    assign.run(course)
    variation = {a.student: a.variation for a in assign.load_assignments(course)}["ada"]
    archive = gradescope.build(course, work / "autograder.zip")
    return Autograder(archive, variation, float(sum(category_points(variation).values())))


def install_autograder(root: Path, autograder: Autograder) -> None:
    """Gradescope's layout before setup.sh: the zip's contents in /autograder/source."""
    source = root / "autograder" / "source"
    source.mkdir(parents=True)
    with zipfile.ZipFile(autograder.zip_path) as bundle:
        for info in bundle.infolist():
            bundle.extract(info, source)
            mode = info.external_attr >> 16
            if mode:
                (source / info.filename).chmod(mode & 0o777)


def stage_submission(root: Path, variation: str | None, email: str) -> None:
    """A fresh /autograder/submission (the reference of ``variation`` inside a folder, as a student
    uploading their repo's folder would) and the submitter in submission_metadata.json."""
    from grader.course import simulate

    top = root / "autograder"
    remove_tree(top / "submission")
    remove_tree(top / "results")
    (top / "results").mkdir(parents=True)
    folder = top / "submission" / "my-solitaire"
    folder.mkdir(parents=True)
    if variation:
        simulate.copy_reference(variation)(folder)
    (top / "submission_metadata.json").write_text(json.dumps({"users": [{"email": email, "name": "X"}]}))


def results_of(root: Path) -> dict:
    path = root / "autograder" / "results" / "results.json"
    if not path.is_file():
        raise CheckFailed("run_autograder wrote no /autograder/results/results.json")
    return json.loads(path.read_text(encoding="utf-8"))


RUN_SH = "cd /autograder && /autograder/run_autograder\n"
SETUP_SH = "cd /autograder/source && bash ./setup.sh && cp /autograder/source/run_autograder /autograder/\n"
PROBE_SH = """\
. /etc/os-release; echo "os: $PRETTY_NAME"
echo "python3: $(python3 --version 2>&1)"
echo "autograder python: $(/autograder/source/.venv/bin/python --version 2>&1)"
echo "bwrap: $(bwrap --version 2>&1 || true)"
"""


def check_release(roots: Path, release: str, autograder: Autograder, keyring: Path, fresh: bool,
                  host_ca: Path | None) -> Outcome:
    outcome = Outcome(release)
    log = roots / release / "check.log"
    (roots / release).mkdir(parents=True, exist_ok=True)
    log.write_text(f"# {dt.datetime.now(dt.UTC).isoformat()} {release}\n")
    try:
        base = ensure_base(roots, release, keyring, fresh, log)
        target = roots / release / "run"
        remove_tree(target)
        say(f"{release}: copying the base image to {target}")
        subprocess.run(["cp", "-a", "--reflink=auto", str(base), str(target)], check=True)
        install_autograder(target, autograder)
        started = time.monotonic()
        say(f"{release}: setup.sh in the chroot (apt and pip from the network: minutes)")
        in_chroot(target, SETUP_SH, log, f"setup.sh on {release}", host_ca=host_ca)
        outcome.lines.append(f"setup.sh: ok in {time.monotonic() - started:.0f} s")
        in_chroot(target, PROBE_SH, log, "the version probe")
        outcome.lines += [line for line in log.read_text().splitlines()
                          if line.startswith(("os:", "python3:", "autograder python:", "bwrap:", "sandbox"))]
        stage_submission(target, autograder.variation, "ada@students.example")
        in_chroot(target, RUN_SH, log, f"run_autograder on {release}")
        graded = results_of(target)
        if graded.get("score") != autograder.full_points or graded["extra_data"].get("worker") != "sandbox":
            raise CheckFailed(f"the reference of {autograder.variation} scored {graded.get('score')} / "
                              f"{autograder.full_points}: {str(graded.get('output'))[:800]}")
        outcome.lines.append(f"reference of {autograder.variation} in a folder: {graded['score']:g} / "
                             f"{autograder.full_points:g}, sandbox layer "
                             f"{graded['extra_data'].get('sandbox_layer')}")
        stage_submission(target, autograder.variation, "stranger@elsewhere.example")
        in_chroot(target, RUN_SH, log, f"run_autograder (a stranger) on {release}")
        stranger = results_of(target)
        if stranger.get("extra_data", {}).get("status") != "not-on-roster" or stranger.get("score") != 0:
            raise CheckFailed(f"a submitter not on the roster was graded: {stranger}")
        outcome.lines.append("submitter not on the roster: not graded, a visible test says why")
        outcome.passed = True
    except (CheckFailed, subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        outcome.lines.append(f"FAILED: {error}")
    outcome.lines.append(f"log: {log}")
    return outcome


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--roots", type=Path, default=Path("/var/tmp/solitaire-roots"),
                        help="where the Ubuntu roots are made and kept (default: %(default)s; "
                             "about 1 GB per release)")
    parser.add_argument("--release", action="append", choices=sorted(RELEASES),
                        help="an Ubuntu release to check (repeatable; default: jammy and noble)")
    parser.add_argument("--fresh", action="store_true", help="debootstrap the bases again")
    parser.add_argument("--host-ca", type=Path, default=os.environ.get("PIP_CERT") or None,
                        help="a CA bundle pip in the chroot trusts besides the image's own (default: "
                             "$PIP_CERT): for a network whose HTTPS goes through an intercepting proxy; "
                             "Gradescope needs none")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("gradescope-check: needs root (debootstrap, chroot, mounts); run it with sudo", file=sys.stderr)
        return 2
    if not shutil.which("unshare"):
        print("gradescope-check: needs unshare (util-linux)", file=sys.stderr)
        return 2
    roots = args.roots.resolve()
    if roots == ROOT or roots.is_relative_to(ROOT):
        print("gradescope-check: --roots must be outside the checkout", file=sys.stderr)
        return 2
    roots.mkdir(parents=True, exist_ok=True)
    releases = args.release or list(RELEASES)
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="solitaire-gradescope-check-") as temp:
        try:
            ensure_debootstrap(roots / "host.log")
            keyring = archive_keyring(roots)
        except (CheckFailed, OSError) as error:
            print(f"gradescope-check: {error}", file=sys.stderr)
            return 2
        autograder = build_autograder(Path(temp))
        for release in releases:
            outcomes.append(check_release(roots, release, autograder, keyring, args.fresh, args.host_ca))
    left = mounts_under(roots)
    print(f"\nGradescope autograder checked on {dt.date.today().isoformat()}:")
    for outcome in outcomes:
        print(f"  Ubuntu {RELEASES[outcome.release]} ({outcome.release}): "
              f"{'passed' if outcome.passed else 'FAILED'}")
        for line in outcome.lines:
            print(f"    {line}")
    if left:
        print(f"  mounts left under {roots}: {', '.join(left)}")
    return 0 if all(o.passed for o in outcomes) and not left else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
