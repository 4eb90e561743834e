"""Finding the rules file in a Gradescope upload (grader/course/gradescope_files.py)."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest

from grader.course import gradescope_files
from grader.course.gradescope_files import UploadError, locate


def test_the_top_wins_then_the_shallowest_folder(tmp_path: Path) -> None:
    upload = tmp_path / "upload"
    (upload / "a" / "b").mkdir(parents=True)
    (upload / "a" / "b" / "scorpion.py").write_text("deep\n")
    (upload / "z").mkdir()
    (upload / "z" / "scorpion.py").write_text("shallow\n")
    assert locate(upload, "scorpion", tmp_path / "scratch") == upload / "z"
    (upload / "scorpion.py").write_text("top\n")
    assert locate(upload, "scorpion", tmp_path / "scratch") == upload


def test_hidden_and_macos_folders_and_links_are_skipped(tmp_path: Path) -> None:
    upload = tmp_path / "upload"
    for folder in (".git", "__MACOSX"):
        (upload / folder).mkdir(parents=True)
        (upload / folder / "scorpion.py").write_text("x\n")
    (tmp_path / "outside.py").write_text("secret\n")
    (upload / "linked").mkdir()
    (upload / "linked" / "scorpion.py").symlink_to(tmp_path / "outside.py")
    assert locate(upload, "scorpion", tmp_path / "scratch") is None


def test_a_zip_too_large_is_refused_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    upload = tmp_path / "upload"
    upload.mkdir()
    with zipfile.ZipFile(upload / "repo.zip", "w") as archive:
        archive.writestr("repo/scorpion.py", "x = 1\n" * 100)
    monkeypatch.setattr(gradescope_files, "MAX_BYTES", 10)
    with pytest.raises(UploadError, match="too large"):
        locate(upload, "scorpion", tmp_path / "scratch")


def test_a_link_inside_a_zip_is_never_written(tmp_path: Path) -> None:
    upload = tmp_path / "upload"
    upload.mkdir()
    with zipfile.ZipFile(upload / "repo.zip", "w") as archive:
        link = zipfile.ZipInfo("repo/scorpion.py")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    assert locate(upload, "scorpion", tmp_path / "scratch") is None


def test_a_broken_zip_is_said_in_words(tmp_path: Path) -> None:
    upload = tmp_path / "upload"
    upload.mkdir()
    (upload / "repo.zip").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(UploadError, match="could not be unpacked"):
        locate(upload, "scorpion", tmp_path / "scratch")
