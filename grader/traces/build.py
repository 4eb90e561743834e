"""``solitaire traces build`` / ``check``: make every trace of a variation from its reference.

For each variation the build makes, deterministically:

* generic traces, for every combination of the variation's options: seeded
  deals (the deal is checked) followed by seeded playouts;
* the variation's own scenarios, from ``grader.traces.scenarios.<variation>``
  when that module exists: constructed positions for every ruling id
  (mid-game, near-won positions that end in a win, stuck positions ...).

Public traces (a few short ones, with seeds of their own) go to
``starter/traces/<variation>/``; hidden ones to ``grader/traces/data/<variation>/``.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solitaire import engine
from solitaire.catalog import variation_class
from solitaire.errors import UserError
from solitaire.state import OptionValue, State, parse_state
from solitaire.traces import dumps, validate
from solitaire.variation import Variation

from .. import project
from .builder import LONG, PLAYOUT, SPARSE, Density, TraceBuilder, playout

ROOT = Path(__file__).resolve().parents[2]
HIDDEN_ROOT = Path(__file__).resolve().parent / "data"
PUBLIC_ROOT = project.ROOT / "starter" / "traces"

#: how many generic deal traces per option combination (hidden, public)
HIDDEN_DEALS = 6
PUBLIC_DEALS = 1
#: public deals for the first option sets only (defaults first): a game with many option values
#: (Clock of seed 000: 10 sets) would otherwise publish a deal per set
PUBLIC_OPTION_SETS = 2
HIDDEN_PLAYOUT = 60
PUBLIC_PLAYOUT = 12
LONG_PLAYOUT = 260


def reference_variation(name: str) -> Variation:
    """The instructor's reference implementation of ``name`` (never a student file)."""
    try:
        module = importlib.import_module(f"reference.{name}")
    except ModuleNotFoundError:
        raise UserError(f"no reference implementation for {name!r}") from None
    return variation_class(module)()


def reference_names() -> list[str]:
    import reference

    return [n for n in reference.VARIATIONS if importlib.util.find_spec(f"reference.{n}") is not None]


def option_sets(variation: Variation) -> list[dict[str, OptionValue]]:
    """Every combination of the allowed values of the variation's options (defaults first)."""
    choices = []
    for option in variation.options:
        allowed = list(option.allowed()) or [option.default]
        allowed.sort(key=lambda value: value != option.default)
        choices.append([(option.name, value) for value in allowed])
    return [dict(combo) for combo in itertools.product(*choices)]


def option_tag(options: dict[str, OptionValue], variation: Variation) -> str:
    """A short file-name tag for the options that differ from the defaults."""
    parts = []
    for option in variation.options:
        value = options.get(option.name, option.default)
        if value != option.default:
            parts.append(f"{option.name}-{str(value).lower()}")
    return "-".join(parts) or "default"


@dataclass
class Kit:
    """What a scenario module builds traces with."""

    variation: Variation
    hidden: dict[str, dict[str, Any]] = field(default_factory=dict)
    public: dict[str, dict[str, Any]] = field(default_factory=dict)
    known_actions: set[str] = field(default_factory=set)

    def trace(self, name: str, *, density: Density = PLAYOUT, **kwargs: Any) -> TraceBuilder:
        return TraceBuilder(self.variation, name, density=density, known_actions=self.known_actions,
                            **kwargs)

    def add(self, builder: TraceBuilder, public: bool = False) -> dict[str, Any]:
        trace = builder.result()
        validate(trace, f"{self.variation.name}/{trace['name']}")
        store = self.public if public else self.hidden
        if trace["name"] in self.hidden or trace["name"] in self.public:
            raise ValueError(f"two traces named {trace['name']}")
        store[trace["name"]] = trace
        return trace

    def position(self, text: str, options: Mapping[str, OptionValue] | None = None) -> State:
        """A constructed position from canonical text without its header lines.

        ``text`` lists ``phase ...`` (optional) and pile lines; piles not listed
        are empty; the options header is added. The cards must be the whole deck.
        """
        variation = self.variation
        opts = variation.resolve_options(dict(options or {}))
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        phase = "phase play"
        if lines and lines[0].startswith("phase"):
            phase = lines.pop(0)
        given = {line.split(":", 1)[0].strip(): line for line in lines}
        head = " ".join([variation.name] + [f"{k}={_fmt(v)}" for k, v in sorted(opts.items())])
        body = [given.pop(name, f"{name}:") for name in variation.layout.names]
        if given:
            raise ValueError(f"unknown piles {sorted(given)} in a {variation.name} position")
        state = parse_state("\n".join([head, phase, *body]) + "\n")
        engine.check_state(variation, state)
        want = sorted(variation.deck.pack() * variation.deck.packs)
        if sorted(state.cards()) != want:
            raise ValueError("a constructed position must hold the whole deck exactly once")
        return state


def _fmt(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def generic_traces(kit: Kit, deal_rulings: Iterable[str] = ()) -> None:
    """Seeded deals, then seeded playouts, for every combination of options.

    ``deal_rulings``: the ruling ids of the variation's deal (named by its scenario module).
    """
    variation = kit.variation
    sets = option_sets(variation)
    hidden_deals = max(3, HIDDEN_DEALS // len(sets))
    for number, options in enumerate(sets):
        tag = option_tag(options, variation)
        public_deals = PUBLIC_DEALS if number < PUBLIC_OPTION_SETS else 0
        for index in range(hidden_deals + public_deals):
            public = index >= hidden_deals
            seed = (1000 if public else 0) + index + 1
            name = f"{'public-' if public else ''}deal-{tag}-{seed}"
            builder = kit.trace(
                name,
                cards=engine.shuffled_deck(variation, seed),
                options=options,
                density=SPARSE if not public else PLAYOUT,
                description=f"deal number {seed}, then a seeded playout",
                rulings=deal_rulings,
            )
            playout(builder, PUBLIC_PLAYOUT if public else HIDDEN_PLAYOUT)
            kit.add(builder, public=public)
        if kit.known_actions:  # a stock or a reserve: play far enough to use it up
            builder = kit.trace(f"long-{tag}", cards=engine.shuffled_deck(variation, 500), options=options,
                                rulings=deal_rulings,
                                density=LONG, description="deal number 500, then a long seeded playout "
                                "that prefers actions, to get through the stock")
            playout(builder, LONG_PLAYOUT, action_bias=0.3)
            kit.add(builder)


def build_variation(name: str) -> Kit:
    """Every trace of ``name`` (hidden and public), in memory."""
    kit = Kit(reference_variation(name))
    try:
        scenarios = importlib.import_module(f"grader.traces.scenarios.{name}")
    except ModuleNotFoundError:
        scenarios = None
    generic_traces(kit, getattr(scenarios, "DEAL_RULINGS", ()))
    if scenarios is not None:
        scenarios.build(kit)
    return kit


def _write_dir(directory: Path, traces: dict[str, dict[str, Any]]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    wanted = {f"{name}.json": dumps(trace) for name, trace in traces.items()}
    for stale in directory.glob("*.json"):
        if stale.name not in wanted:
            stale.unlink()
    for file_name, text in wanted.items():
        path = directory / file_name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def write(kit: Kit, hidden_root: Path = HIDDEN_ROOT, public_root: Path = PUBLIC_ROOT) -> None:
    name = kit.variation.name
    _write_dir(hidden_root / name, kit.hidden)
    _write_dir(public_root / name, kit.public)
    manifest_path = hidden_root / MANIFEST
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.is_file() else {}
    manifest[name] = fingerprint(name, hidden_root, public_root)
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n", encoding="utf-8")


#: the files whose content decides the traces of a variation (besides its scenario module)
ENGINE_INPUTS = ("cards", "rng", "piles", "state", "moves", "variation", "engine", "traces")
MANIFEST = "MANIFEST.json"


def _digest(paths: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"(missing)")
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def fingerprint(name: str, hidden_root: Path = HIDDEN_ROOT,
                public_root: Path = PUBLIC_ROOT) -> dict[str, str]:
    """Hashes of what made the traces of ``name`` (inputs) and of the trace files (outputs).

    ``MANIFEST.json`` keeps them, so a cheap test can tell that traces are stale
    (an input changed) or edited by hand (an output changed) without a rebuild.
    """
    here = Path(__file__).resolve().parent
    # not reference/__init__.py: registering a game changes no other game's traces (the set of
    # shared scenario modules below is what registration changes, and it is hashed)
    inputs = [ROOT / "reference" / f"{name}.py"]
    inputs += [ROOT / "solitaire" / f"{module}.py" for module in ENGINE_INPUTS]
    inputs += sorted(here.glob("*.py"))
    # the variation's own scenarios and every shared helper (common.py, seed001.py ...), not
    # another variation's scenarios
    games = set(reference_names())
    scenarios = sorted((here / "scenarios").glob("*.py"))
    inputs += [p for p in scenarios if p.stem == name or p.stem not in games]
    outputs = sorted((hidden_root / name).glob("*.json")) + sorted((public_root / name).glob("*.json"))
    return {"inputs": _digest(inputs), "traces": _digest(outputs)}


def differences(kit: Kit, hidden_root: Path = HIDDEN_ROOT, public_root: Path = PUBLIC_ROOT) -> list[str]:
    """Files that a fresh build would add, change or remove (empty: the traces are current)."""
    found = []
    name = kit.variation.name
    for directory, traces in ((hidden_root / name, kit.hidden), (public_root / name, kit.public)):
        wanted = {f"{n}.json": dumps(t) for n, t in traces.items()}
        present = {p.name for p in directory.glob("*.json")} if directory.is_dir() else set()
        for file_name in sorted(present - set(wanted)):
            found.append(f"{directory / file_name}: not made by the build (stale)")
        for file_name, text in sorted(wanted.items()):
            path = directory / file_name
            if file_name not in present:
                found.append(f"{path}: missing")
            elif path.read_text(encoding="utf-8") != text:
                found.append(f"{path}: differs from a fresh build")
    return found


def hidden_traces(name: str, hidden_root: Path = HIDDEN_ROOT, schema: bool = False) -> list[dict[str, Any]]:
    """The committed hidden traces of ``name``, validated (the schema only on request:
    committed traces were checked against it when built, and it is slow)."""
    from solitaire.traces import load_dir

    directory = hidden_root / name
    if not directory.is_dir():
        raise UserError(f"no hidden traces for {name!r} (run: solitaire traces build --variation {name})")
    return load_dir(directory, schema)


def names_or_all(names: Iterable[str] | None) -> list[str]:
    chosen = list(names or []) or reference_names()
    known = reference_names()
    for name in chosen:
        if name not in known:
            raise UserError(f"unknown variation {name!r} (known: {', '.join(known)})")
    return chosen
