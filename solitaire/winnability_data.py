"""Measured winnability, cached: the solver's counts per variation and option value.

``winnability.toml`` beside this module holds one ``[[measurement]]`` per run
of ``solitaire winnability``: the variation, the options set, the deals
(``first``..``first+deals-1``), the node budget, the counts won / lost /
undecided, and the exact command that reproduces them (the solver is
deterministic: the same command gives the same counts anywhere). Rates and
intervals are computed from the counts (:mod:`solitaire.winnability`), never
stored. ``solitaire winnability ... --record`` adds or replaces a measurement;
docs/winnability.md shows the same rows, and a test keeps the two equal.

:func:`figures` answers, for each option value of a variation, the
measurement to show (most deals, then the largest budget) or None: "not
measured".
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .state import OptionValue, format_option_value
from .winnability import wilson_bounds

DATA_FILE = Path(__file__).resolve().parent / "winnability.toml"
HEADER = """\
# Measured winnability of each variation and option value: the solver's counts over deals
# first..first+deals-1 at a node budget, and the command that reproduces them. Written by
# `solitaire winnability ... --record` (see solitaire/winnability_data.py); docs/winnability.md
# shows the same rows (tests/engine/test_winnability_data.py keeps them equal). Rates and
# intervals are computed from the counts.
"""


@dataclass(frozen=True)
class Measurement:
    """One run of ``solitaire winnability``."""

    variation: str
    options: dict[str, OptionValue]
    deals: int
    budget: int
    won: int
    lost: int
    undecided: int
    command: str
    first: int = 1
    measured: str = ""  # the date of the run, when known
    cpu_seconds: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.won / self.deals if self.deals else 0.0

    @property
    def undecided_share(self) -> float:
        return self.undecided / self.deals if self.deals else 0.0

    @property
    def decided_share(self) -> float:
        return 1.0 - self.undecided_share if self.deals else 0.0

    def interval(self) -> tuple[float, float]:
        """95% bounds on the win rate: undecided counted as lost (low) and as won (high)."""
        low = wilson_bounds(self.won, self.deals)[0]
        return (low, wilson_bounds(self.won + self.undecided, self.deals)[1])

    @property
    def never_won(self) -> bool:
        return self.won == 0 and self.deals > 0

    @property
    def proved_unwinnable(self) -> bool:
        """Every deal tried was proved lost (not merely undecided)."""
        return self.deals > 0 and self.lost == self.deals

    def same_run(self, other: Measurement, defaults: dict[str, OptionValue] | None = None) -> bool:
        """Whether both measure the same deals at the same budget and settings (``defaults``
        filled in: an option set to its default is the same run as one left unset)."""
        base = dict(defaults or {})
        return (self.variation, base | self.options, self.first, self.deals, self.budget) == (
            other.variation, base | other.options, other.first, other.deals, other.budget)

    def summary(self) -> str:
        """One line: won share with its interval, undecided share, deals and budget."""
        low, high = self.interval()
        return (f"won {self.win_rate:.1%} of {self.deals} deals (95% {low:.1%}..{high:.1%}), "
                f"undecided {self.undecided_share:.1%}, budget {self.budget:,} nodes")

    def warning(self) -> str:
        """What a win rate of 0 means here ('' when some deal was won)."""
        if not self.never_won:
            return ""
        if self.proved_unwinnable:
            return f"UNWINNABLE: every one of the {self.deals} deals tried was proved lost"
        if self.lost:
            return (f"NO DEAL WON: {self.lost} of {self.deals} proved lost, the rest undecided at this "
                    "budget")
        return f"NO DEAL WON: all {self.deals} undecided at this budget (the solver could not tell)"


def _measurement(item: dict[str, Any], where: str) -> Measurement:
    known = {"variation", "options", "deals", "budget", "won", "lost", "undecided", "command", "first",
             "measured", "cpu_seconds"}
    try:
        found = Measurement(
            variation=str(item["variation"]), options=dict(item.get("options", {})),
            deals=int(item["deals"]), budget=int(item["budget"]), won=int(item["won"]),
            lost=int(item["lost"]), undecided=int(item["undecided"]), command=str(item["command"]),
            first=int(item.get("first", 1)), measured=str(item.get("measured", "")),
            cpu_seconds=float(item["cpu_seconds"]) if "cpu_seconds" in item else None,
            extra={k: v for k, v in item.items() if k not in known},
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{where}: a measurement lacks or garbles {error}") from None
    if found.won + found.lost + found.undecided != found.deals:
        raise ValueError(f"{where}: {found.variation} {found.options}: won + lost + undecided != deals")
    return found


def load(path: Path = DATA_FILE) -> list[Measurement]:
    """Every measurement of the data file (none when the file is absent)."""
    if not path.is_file():
        return []
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return [_measurement(item, str(path)) for item in data.get("measurement", [])]


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }" if value else "{}"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def dump(measurements: list[Measurement]) -> str:
    """The text of a data file holding ``measurements``, in their order."""
    parts = [HEADER]
    for m in measurements:
        lines = ["[[measurement]]", f"variation = {_toml_value(m.variation)}",
                 f"options = {_toml_value(m.options)}", f"first = {m.first}", f"deals = {m.deals}",
                 f"budget = {m.budget}", f"won = {m.won}", f"lost = {m.lost}", f"undecided = {m.undecided}"]
        if m.cpu_seconds is not None:
            lines.append(f"cpu_seconds = {m.cpu_seconds:g}")
        if m.measured:
            lines.append(f"measured = {_toml_value(m.measured)}")
        lines.extend(f"{k} = {_toml_value(v)}" for k, v in m.extra.items())
        lines.append(f"command = {_toml_value(m.command)}")
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def record(new: Measurement, path: Path = DATA_FILE, defaults: dict[str, OptionValue] | None = None) -> None:
    """Add ``new`` to the data file, replacing a measurement of the same run (``defaults``: the
    variation's option defaults)."""
    kept = [m for m in load(path) if not m.same_run(new, defaults)]
    path.write_text(dump(kept + [new]), encoding="utf-8")


def _matches(m: Measurement, defaults: dict[str, OptionValue], wanted: dict[str, OptionValue]) -> bool:
    settings = dict(defaults) | m.options
    return all(settings.get(k) == v for k, v in (dict(defaults) | wanted).items())


def best(measurements: list[Measurement]) -> Measurement | None:
    """The measurement to show of several of one setting: most deals, then the largest budget."""
    return max(measurements, key=lambda m: (m.deals, m.budget), default=None)


def figures(
    variation: Any, measurements: list[Measurement] | None = None
) -> list[tuple[str, Measurement | None]]:
    """(setting, its measurement or None) of ``variation`` (a
    :class:`solitaire.variation.Variation`): first the default options, then each other
    allowed value of each option, the others at their default; values measured but not
    listed as allowed (free integers) too."""
    mine = [m for m in (load() if measurements is None else measurements) if m.variation == variation.name]
    defaults = {o.name: o.default for o in variation.options}
    shown = ", ".join(f"{k}={format_option_value(v)}" for k, v in defaults.items())
    at_defaults = best([m for m in mine if _matches(m, defaults, {})])
    label = f"{shown} (default)" if shown else "no options"
    rows: list[tuple[str, Measurement | None]] = [(label, at_defaults)]
    for option in variation.options:
        values = [v for v in option.allowed() if v != option.default]
        values += [m.options[option.name] for m in mine
                   if m.options.get(option.name, option.default) not in values + [option.default]]
        for value in values:
            found = [m for m in mine if _matches(m, defaults, {option.name: value})]
            rows.append((f"{option.name}={format_option_value(value)}", best(found)))
    return rows


def zero_win_settings(
    variation: Any, measurements: list[Measurement] | None = None
) -> list[tuple[str, Measurement]]:
    """The settings of ``variation`` whose measured win rate is 0, with their measurement."""
    return [(label, m) for label, m in figures(variation, measurements) if m is not None and m.never_won]


def describe(variation: Any, measurements: list[Measurement] | None = None) -> list[tuple[str, bool]]:
    """Lines on ``variation``'s measured winnability, each with whether it is a warning (a win
    rate of 0): per setting its figures and the command that reproduces them, or "not measured"."""
    lines: list[tuple[str, bool]] = []
    for label, found in figures(variation, measurements):
        head = "" if label == "no options" else f"{label}: "
        if found is None:
            lines.append((f"{head}not measured", False))
            continue
        lines.append((f"{head}{found.summary()}", False))
        if found.warning():
            lines.append((f"    {found.warning()}", True))
        lines.append((f"    reproduce: {found.command}", False))
    return lines
