"""What ``course init`` says about how winnable each approved variation is.

The figures are the cached solver measurements shipped with the engine
(:mod:`solitaire.winnability_data`); a setting whose measured win rate is 0
is also warned about on stderr, since students would be graded on games
nobody can win (Scorpion's default rule: every deal tried is proved lost).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solitaire import catalog, winnability_data
from solitaire.errors import SolitaireError


def winnability_lines(variations: Iterable[str]) -> tuple[list[str], list[str]]:
    """(lines to print, warnings) on the measured winnability of ``variations``' settings."""
    measurements = winnability_data.load()
    lines, warnings = [], []
    for name in variations:
        try:
            variation = catalog.load(name)
        except (ImportError, SolitaireError) as error:
            lines.append(f"  {name}: not available ({error})")
            continue
        for label, found in winnability_data.figures(variation, measurements):
            setting = name if label == "no options" else f"{name} {label}"
            if found is None:
                lines.append(f"  {setting}: not measured")
                continue
            lines.append(f"  {setting}: {found.summary()}")
            if found.warning():
                lines.append(f"    {found.warning()}")
                warnings.append(f"{setting}: {found.warning()} (docs/winnability.md)")
    return lines, warnings


def print_winnability(variations: Iterable[str], out: Callable[[str], None],
                      warn: Callable[[str], None]) -> None:
    """Print the block of ``course init`` (``out`` each line, ``warn`` each zero win rate)."""
    lines, warnings = winnability_lines(variations)
    out("measured winnability (the solver on deals 1..N; `solitaire variations` shows the commands):")
    for line in lines:
        out(line)
    for warning in warnings:
        warn(warning)
