"""``course init`` shows how winnable each approved variation is and warns about zero win rates."""

from __future__ import annotations

from solitaire import cli


def test_init_prints_the_measured_winnability_and_warns_about_scorpion(tmp_path, capsys):
    status = cli.main(["course", "init", str(tmp_path / "c"), "--deadline", "2030-03-14T23:59Z",
                       "--variations", "scorpion,indian,pyramid"])
    captured = capsys.readouterr()
    assert status == 0
    assert "scorpion moves=any_faceup: won 10.6% of 1000 deals (95% 8.8%..14.2%)" in captured.out
    assert "indian strict_protection=true: won 63.0% of 200 deals" in captured.out
    assert "pyramid redeals=1: not measured" in captured.out
    assert ("warning: scorpion moves=runs (default): UNWINNABLE: every one of the 1000 deals tried was "
            "proved lost") in captured.err
    assert "indian" not in captured.err  # some deals of Indian are won
