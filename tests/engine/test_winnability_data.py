"""solitaire/winnability.toml and docs/winnability.md hold the same measured rows, and what is shown."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from solitaire import catalog, winnability_data
from solitaire.state import parse_option_value
from solitaire.winnability_data import Measurement

DOCS = Path(__file__).resolve().parents[2] / "docs" / "winnability.md"


def docs_rows(text: str) -> list[dict[str, object]]:
    """Every row of the measured tables of docs/winnability.md (tables whose header starts
    ``| variation | option |``), as the cells say it."""
    rows: list[dict[str, object]] = []
    header: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("| variation | option |"):
            header = [cell.strip() for cell in line.strip("|").split("|")]
            continue
        if header is None or not line.startswith("|"):
            header = None
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0].startswith("---"):
            continue
        row = dict(zip(header, cells, strict=True))
        options: dict[str, object] = {}
        if row["option"] != "—":
            for part in row["option"].removesuffix(" (default)").split(","):
                key, _, value = part.strip().partition("=")
                options[key] = parse_option_value(value)
        counts = {k: int(row[k]) for k in ("won", "lost", "undecided")}
        rows.append({"variation": row["variation"].split()[0], "options": options,
                     "deals": int(row.get("deals", sum(counts.values()))),
                     "budget": int(row["budget"].replace(",", "")), **counts,
                     "win rate": row["win rate"], "interval": row["95% interval"],
                     "decided": row["decided"],
                     "cpu": None if row["CPU s"] == "—" else float(row["CPU s"])})
    return rows


def data_row(m: Measurement) -> dict[str, object]:
    low, high = m.interval()
    return {"variation": m.variation, "options": m.options, "deals": m.deals, "budget": m.budget,
            "won": m.won, "lost": m.lost, "undecided": m.undecided, "win rate": f"{m.win_rate:.1%}",
            "interval": f"{low:.1%}..{high:.1%}", "decided": f"{m.decided_share:.1%}", "cpu": m.cpu_seconds}


def _key(row: dict[str, object]) -> str:
    """The row with every option stated (an option at its default may be written or not)."""
    variation = catalog.load(str(row["variation"]))
    options = {o.name: o.default for o in variation.options} | dict(row["options"])  # type: ignore[arg-type]
    return repr(sorted((row | {"options": sorted(options.items())}).items()))


def test_every_row_of_the_data_file_is_in_the_docs_and_back():
    documented = sorted(_key(r) for r in docs_rows(DOCS.read_text(encoding="utf-8")))
    recorded = sorted(_key(data_row(m)) for m in winnability_data.load())
    assert len(documented) >= 30
    missing_in_docs = [r for r in recorded if r not in documented]
    missing_in_data = [r for r in documented if r not in recorded]
    assert not missing_in_docs and not missing_in_data


def test_each_command_reproduces_its_row():
    """The stored command names the row's variation, deals, budget and options (non-default ones)."""
    for m in winnability_data.load():
        words = shlex.split(m.command)
        assert words[:3] == ["solitaire", "winnability", m.variation], m.command
        flags: dict[str, str] = {}
        sets: list[str] = []
        pairs = iter(words[3:])
        for flag in pairs:
            value = next(pairs)
            if flag == "--set":
                sets.append(value)
            else:
                flags[flag] = value
        assert int(flags["--deals"]) == m.deals and int(flags["--budget"]) == m.budget
        assert int(flags.get("--first", "1")) == m.first
        variation = catalog.load(m.variation)
        defaults = {o.name: o.default for o in variation.options}
        wanted = {k: v for k, v in m.options.items() if defaults.get(k) != v}
        assert {s.split("=")[0]: parse_option_value(s.split("=")[1]) for s in sets} == wanted


def test_scorpion_default_is_flagged_unwinnable_and_unmeasured_values_say_so():
    scorpion = dict(winnability_data.figures(catalog.load("scorpion")))
    default = scorpion["moves=runs (default)"]
    assert default is not None and default.proved_unwinnable and "UNWINNABLE" in default.warning()
    assert scorpion["moves=any_faceup"] is not None and scorpion["moves=any_faceup"].deals == 1000
    labels = [label for label, _ in winnability_data.zero_win_settings(catalog.load("scorpion"))]
    assert labels == ["moves=runs (default)"]
    indian = dict(winnability_data.figures(catalog.load("indian")))
    assert indian["strict_protection=true"] is not None and indian["strict_protection=true"].deals == 200
    pyramid = dict(winnability_data.figures(catalog.load("pyramid")))
    assert pyramid["redeals=1"] is None  # shown as "not measured"


def test_record_adds_or_replaces_one_run(tmp_path):
    path = tmp_path / "w.toml"
    first = Measurement("bismarck", {"same_suit": True}, 10, 100, 9, 0, 1, "solitaire winnability x")
    winnability_data.record(first, path)
    again = Measurement("bismarck", {"same_suit": True}, 10, 100, 10, 0, 0, "solitaire winnability x",
                        cpu_seconds=1.5, measured="2026-12-01")
    winnability_data.record(again, path)
    other = Measurement("bismarck", {}, 10, 200, 10, 0, 0, 'solitaire "quoted"')
    winnability_data.record(other, path)
    assert winnability_data.load(path) == [again, other]


def test_a_garbled_data_file_names_itself(tmp_path):
    path = tmp_path / "w.toml"
    path.write_text('[[measurement]]\nvariation = "x"\ndeals = 3\nbudget = 1\nwon = 1\nlost = 1\n'
                    'undecided = 0\ncommand = "c"\n')
    with pytest.raises(ValueError, match="won \\+ lost \\+ undecided != deals"):
        winnability_data.load(path)


def test_variations_shows_the_figures_flags_zero_and_says_not_measured(capsys):
    from solitaire import cli

    assert cli.main(["variations"]) == 0
    out = capsys.readouterr().out
    scorpion = out[out.index("scorpion  Scorpion"):]
    scorpion = scorpion[:scorpion.index("\n", scorpion.index("moves=any_faceup: won"))]
    assert "moves=runs (default): won 0.0% of 1000 deals (95% 0.0%..0.4%), undecided 0.0%, budget 20,000" \
        in scorpion
    assert "UNWINNABLE: every one of the 1000 deals tried was proved lost" in scorpion
    assert "reproduce: solitaire winnability scorpion --deals 1000 --budget 20000 --jobs 1" in scorpion
    assert "redeals=1: not measured" in out[out.index("pyramid  "):]
    assert "strict_protection=true: won 63.0% of 200 deals" in out


def test_winnability_record_writes_the_run_and_its_command(tmp_path, capsys):
    from solitaire import cli

    path = tmp_path / "w.toml"
    argv = ["winnability", "scorpion", "--deals", "3", "--budget", "500", "--set", "moves=any_faceup",
            "--record", str(path)]
    assert cli.main(argv) == 0
    (m,) = winnability_data.load(path)
    out = capsys.readouterr().out
    assert f"won {m.won}  lost {m.lost}  undecided {m.undecided}  of 3" in out
    assert m.command == ("solitaire winnability scorpion --deals 3 --budget 500 --jobs 1 "
                         "--set moves=any_faceup")
    assert cli.main(argv) == 0 and len(winnability_data.load(path)) == 1  # the same run, replaced
