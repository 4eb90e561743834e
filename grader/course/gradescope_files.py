"""Finding the student's rules file in a Gradescope upload, wherever it lies.

Students upload their repo in many shapes: the files at the top (a GitHub-
or Bitbucket-linked submission), the repo's folder dragged in whole
(``submission/my-repo/scorpion.py``), or a zip of it. :func:`locate` returns
the folder holding ``<variation>.py``: the top, else the shallowest folder
below it (hidden folders and macOS's ``__MACOSX`` skipped), else the same
inside the zips of the upload, unpacked into a scratch folder with limits (no
path may leave it, no link, at most :data:`MAX_FILES` files and
:data:`MAX_BYTES` bytes).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

MAX_DEPTH = 6
MAX_FILES = 5000
MAX_BYTES = 50 * 1024 * 1024
SKIPPED = ("__MACOSX",)


class UploadError(Exception):
    """The upload cannot be read (a zip too large or malformed); the message is for the student."""


def _candidates(top: Path, filename: str) -> list[Path]:
    found = []
    for path in top.rglob(filename):
        parts = path.relative_to(top).parts
        if len(parts) <= MAX_DEPTH and path.is_file() and not path.is_symlink() and not any(
            part.startswith(".") or part in SKIPPED for part in parts[:-1]
        ):
            found.append(path.parent)
    return sorted(found, key=lambda folder: (len(folder.relative_to(top).parts), str(folder)))


def _unpack(archive: Path, dest: Path) -> None:
    try:
        with zipfile.ZipFile(archive) as bundle:
            members = [m for m in bundle.infolist() if not m.is_dir()]
            if len(members) > MAX_FILES or sum(m.file_size for m in members) > MAX_BYTES:
                raise UploadError(f"{archive.name} is too large to unpack (more than {MAX_FILES} files "
                                  f"or {MAX_BYTES // 2**20} MB): upload your repo's files instead")
            for member in members:
                target = (dest / member.filename).resolve()
                is_link = (member.external_attr >> 16) & 0o170000 == 0o120000
                if is_link or not target.is_relative_to(dest.resolve()):
                    continue  # a link or a path leaving the folder is never written
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(bundle.read(member))
    except (zipfile.BadZipFile, OSError) as error:
        raise UploadError(f"{archive.name} could not be unpacked ({error})") from None


def locate(upload: Path, variation: str, scratch: Path) -> Path | None:
    """The folder of ``upload`` (or of a zip in it, unpacked under ``scratch``) holding
    ``<variation>.py``; None when there is none."""
    filename = f"{variation}.py"
    found = _candidates(upload, filename)
    if found:
        return found[0]
    for index, archive in enumerate(sorted(upload.rglob("*.zip"))):
        if len(archive.relative_to(upload).parts) > MAX_DEPTH:
            continue
        unpacked = scratch / f"zip-{index}"
        unpacked.mkdir(parents=True)
        _unpack(archive, unpacked)
        found = _candidates(unpacked, filename)
        if found:
            return found[0]
    return None
