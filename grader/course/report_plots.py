"""The plots of the class report: matplotlib figures rendered to inline SVG text.

Only matplotlib's object API is used (no pyplot: no global figure state, no GUI
backend). Each SVG is made to sit inside an HTML page: text stays text
(``svg.fonttype = none``: readable, searchable, no embedded font files), no XML
prolog or DTD (the only URLs matplotlib writes), no creation date (the same
class gives the same bytes), ids only where something refers to them and
salted per figure (two plots never share an id), a ``<title>`` and
``role="img"`` for screen readers. Colours are the Okabe-Ito palette, which
stays distinguishable with the common colour-vision deficiencies, and nothing
is told by colour alone.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from typing import Any

from solitaire.errors import UserError

from .class_stats import GroupStats, RuleRate

BLUE, ORANGE, GREEN, GREY = "#0072B2", "#E69F00", "#009E73", "#6b6b6b"
INSTALL_HINT = ("the class report draws its plots with matplotlib, which is not installed; install it with "
                "`pip install 'solitaire-lab[report]'` (or `pip install matplotlib`)")


def require_matplotlib() -> None:
    """Raise a one-line :class:`UserError` saying how to install matplotlib when it is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UserError(INSTALL_HINT) from None


@contextmanager
def _figure(name: str, width: float, height: float) -> Iterator[Any]:
    import matplotlib
    from matplotlib.figure import Figure

    settings: Any = {"svg.fonttype": "none", "svg.hashsalt": f"solitaire-report-{name}",
                "font.size": 10, "axes.spines.top": False, "axes.spines.right": False}
    with matplotlib.rc_context(settings):
        yield Figure(figsize=(width, height), layout="constrained")


def to_svg(figure: Any, name: str, title: str) -> str:
    """``figure`` as inline SVG markup with ``title`` as its accessible name (see the module docstring)."""
    import matplotlib

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": f"solitaire-report-{name}"}):
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None,
                                                       "Type": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]  # drop the XML prolog and the DTD
    # inline in HTML the parser gives <svg> its namespace and knows xlink:href: no namespace URLs needed
    svg = re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", svg[:svg.index(">")]) + svg[svg.index(">"):]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    referenced = set(re.findall(r'url\(#([^)]+)\)', svg)) | set(re.findall(r'href="#([^"]+)"', svg))
    svg = re.sub(r'\s+id="([^"]+)"', lambda m: m.group(0) if m.group(1) in referenced else "", svg)
    title_id = f"plot-{name}-title"
    return svg.replace(
        "<svg ", f'<svg role="img" aria-labelledby="{title_id}" class="plot" ', 1
    ).replace(">", f'>\n <title id="{title_id}">{escape(title)}</title>', 1)


def distribution(percents: list[float], mean: float) -> str:
    """Histogram of the class's final scores in steps of 10 %, the mean marked."""
    bins = [float(b) for b in range(0, 101, 10)]
    with _figure("distribution", 6.4, 2.8) as figure:
        axes = figure.add_subplot()
        axes.hist(percents, bins=bins, color=BLUE, edgecolor="white")
        axes.axvline(mean, color=ORANGE, linestyle="--", linewidth=2, label=f"mean {mean:.1f} %")
        axes.set_xlim(0, 100)
        axes.set_xticks(bins)
        axes.set_xlabel("final score (% of the variation's maximum, late penalty included)")
        axes.set_ylabel("students")
        axes.yaxis.get_major_locator().set_params(integer=True)
        axes.legend(frameon=False, loc="upper left")
        return to_svg(figure, "distribution", f"Histogram of the final scores of {len(percents)} graded "
                                               f"students; mean {mean:.1f} %.")


def by_variation(groups: dict[str, list[float]], stats: list[GroupStats], whole: GroupStats) -> str:
    """Each variation's students as dots, its mean as a diamond with the 95 % interval as a bar."""
    names = [s.name for s in stats]
    with _figure("variations", 6.4, 0.6 + 0.45 * max(2, len(names))) as figure:
        axes = figure.add_subplot()
        for row, item in enumerate(stats):
            values = sorted(groups[item.name])
            offsets = [row + 0.12 * ((i % 3) - 1) for i in range(len(values))]  # keep equal scores apart
            axes.scatter(values, offsets, s=18, color=GREY, zorder=2, label="a student" if row == 0 else None)
            if item.interval is not None:
                axes.hlines(row, item.interval.low, item.interval.high, color=BLUE, linewidth=3, zorder=3,
                            label="95 % interval of the mean" if row == 0 else None)
            axes.scatter([item.mean], [row], marker="D", s=50, color=ORANGE, edgecolor="black", zorder=4,
                         label="mean" if row == 0 else None)
        axes.axvline(whole.mean, color=GREEN, linestyle=":", linewidth=2,
                     label=f"class mean {whole.mean:.1f} %")
        axes.set_yticks(range(len(names)), [f"{s.name} (n={s.n})" for s in stats])
        axes.set_ylim(-0.6, len(names) - 0.4)
        axes.invert_yaxis()
        axes.set_xlim(-2, 102)
        axes.set_xlabel("final score (%)")
        figure.legend(frameon=False, fontsize=8, loc="outside lower center", ncols=4)
        return to_svg(figure, "variations", "Final scores per variation: each student a dot, each "
                                             "variation's mean with its 95 % bootstrap interval.")


def pass_rates(rates: list[RuleRate], name: str, title: str, label: Any) -> str:
    """Horizontal bars of pass rates (hardest at the top), each bar labelled with passed/submissions."""
    with _figure(name, 6.4, 0.5 + 0.32 * max(2, len(rates))) as figure:
        axes = figure.add_subplot()
        rows = range(len(rates))
        axes.barh(list(rows), [100 * r.rate for r in rates], color=BLUE, height=0.7)
        for row, rate in zip(rows, rates, strict=True):
            axes.text(100 * rate.rate + 1, row, f"{rate.passed}/{rate.submissions}", va="center", fontsize=8)
        axes.set_yticks(list(rows), [label(r) for r in rates])
        axes.invert_yaxis()
        axes.set_xlim(0, 112)  # room for the label of a full bar
        axes.set_xticks(range(0, 101, 20))
        axes.set_xlabel("submissions that passed (%)")
        return to_svg(figure, name, title)
