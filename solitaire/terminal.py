"""Terminal play: drawing a board with rich and the interactive prompt loop.

The model stays pure: this module only reads states (through the engine) and
talks to the player. :func:`render_board` turns a state into a rich
:class:`~rich.text.Text`; :class:`TerminalGame` runs the prompt loop, reading
lines from a callable so that a pipe (or a test) can drive it without a TTY.

A rule method that raises (a student's stub raising ``NotImplementedError``,
or a bug) never ends the game: the player is told which method failed, in
which file, and the prompt comes back with the position unchanged.
"""

from __future__ import annotations

import re
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from .cards import Card
from .engine import check_move, is_won, legal_moves, new_game
from .errors import SolitaireError
from .game import Game
from .moves import Move, parse_move
from .piles import FOUNDATION, TABLEAU, Pile
from .state import OptionValue, State, format_option_value, format_state
from .variation import RULE_METHODS, Variation

RED_CARD = "bold red on white"
BLACK_CARD = "bold black on white"
CARD_BACK = "white on blue"
EMPTY_STYLE = "dim"
PILE_NAME_STYLE = "cyan"
BACK = "##"
NO_CARD = "--"
CELL = 4  # characters per tableau column: a 3-character pile name or card plus a space

KIND_LABELS = {
    TABLEAU: "tableau",
    FOUNDATION: "foundations",
    "cell": "cells",
    "hand": "hand",
    "reserve": "reserve",
    "stock": "stock",
    "waste": "waste",
    "discard": "discard",
}

COMMANDS_HELP = """\
Commands:
  hint       list every legal move
  undo       take back the last move
  board      draw the board again
  state      print the canonical state text
  new [N]    start deal N (default: the next deal)
  help       this text
  quit       leave the game"""


# -- help for the variation being played ------------------------------------------
def declared_specials(variation: Variation) -> list[Move]:
    """The special moves the variation's module declares as constants (``DEAL = action("deal")``,
    ``TO_WASTE = card_move("s", "w")``): how every variation here names its actions."""
    module = sys.modules.get(type(variation).__module__)
    found: list[Move] = []
    for value in vars(module).values() if module else ():
        if isinstance(value, Move) and value not in found:
            found.append(value)
    return found


def _names(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{names[0]}..{names[-1]}"


def help_text(variation: Variation) -> str:
    """The in-game help: the move notation with this variation's own piles and actions
    (a Scorpion player never reads about a stock or a waste), then the commands."""
    layout = variation.layout
    tableau = layout.of_kind(TABLEAU)
    targets = [spec for spec in layout.piles if spec.is_target]
    examples: list[tuple[str, str]] = []
    source = tableau[0] if tableau else next((s.name for s in layout.piles if not s.is_target), "")
    for spec in targets:
        if source and spec.name != source and spec.kind not in {kind for _, kind in examples}:
            examples.append((f"{source}>{spec.name}", spec.kind))
    lines = ["Type a move in the notation, then Enter:"]
    for move, _ in examples:
        lines.append(f"  {move:<10} move the top card of {source} onto {move.split('>')[1]}")
    if len(tableau) > 1 and any(spec.kind == TABLEAU for spec in targets):
        lines.append(f"  {tableau[0]}:3>{tableau[1]:<5} move the top three cards of {tableau[0]} "
                     f"onto {tableau[1]} as a unit")
    for special in declared_specials(variation):
        what = (f"move the top card of {special.source} onto {special.target}" if special.is_card_move
                else f"an action of {variation.title}")
        lines.append(f"  {str(special):<10} {what}")
    lines.append(COMMANDS_HELP)
    piles = []
    for kind in dict.fromkeys(spec.kind for spec in layout.piles):
        names = layout.of_kind(kind)
        label = KIND_LABELS.get(kind, kind)
        fixed = "" if any(layout.by_name[n].is_target for n in names) or kind != FOUNDATION \
            else " (filled by the game, not by your moves)"
        piles.append(f"{_names(names)} {label}{fixed}")
    lines.append(f"Piles of {variation.title}: " + ", ".join(piles) + ".")
    return "\n".join(lines)


# -- describing failures of rule methods ---------------------------------------
def _module_file(variation: Variation) -> str:
    module = sys.modules.get(type(variation).__module__)
    path = getattr(module, "__file__", None)
    return Path(path).name if path else f"{type(variation).__module__}.py"


def _rule_files(variation: Variation) -> set[str]:
    files = set()
    for cls in type(variation).__mro__:
        path = getattr(sys.modules.get(cls.__module__), "__file__", None)
        if path:
            files.add(str(Path(path).resolve()))
    return files


def failing_rule_method(error: BaseException, variation: Variation) -> traceback.FrameSummary | None:
    """The innermost frame of ``error``'s traceback that is a rule method of ``variation``."""
    files = _rule_files(variation)
    found = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.name in RULE_METHODS and str(Path(frame.filename).resolve()) in files:
            found = frame
    return found


def describe_failure(error: BaseException, variation: Variation) -> str | None:
    """A one-line account of an exception raised by a rule method, or None if it
    did not come from one. A stub reads "can_pick_up is not implemented yet in scorpion.py"."""
    frame = failing_rule_method(error, variation)
    if frame is None:
        return None
    if isinstance(error, NotImplementedError):
        return f"{frame.name} is not implemented yet in {_module_file(variation)}"
    detail = f": {error}" if str(error) else ""
    return (
        f"{frame.name} raised {type(error).__name__}{detail} "
        f"({Path(frame.filename).name} line {frame.lineno})"
    )


# -- drawing --------------------------------------------------------------------
def card_text(card: Card | None, face_up: bool = True) -> Text:
    """Two characters: the card in its suit colour, a card back, or ``--`` for none."""
    if card is None:
        return Text(NO_CARD, style=EMPTY_STYLE)
    if not face_up:
        return Text(BACK, style=CARD_BACK)
    return Text(str(card), style=RED_CARD if card.is_red else BLACK_CARD)


def _top_text(pile: Pile) -> Text:
    return card_text(pile.top, pile.top_is_face_up)


def _pile_summary(name: str, pile: Pile, show_count: bool) -> Text:
    text = Text(name, style=PILE_NAME_STYLE)
    text.append(" ")
    text.append_text(_top_text(pile))
    if show_count and len(pile) > 1:
        text.append(f" ({len(pile)})", style=EMPTY_STYLE)
    return text


def _tableau_lines(names: tuple[str, ...], state: State) -> list[Text]:
    header = Text()
    for name in names:
        header.append(f"{name:<{CELL}}", style=PILE_NAME_STYLE)
    lines = [header]
    depth = max((len(state.piles[name]) for name in names), default=0)
    for row in range(max(depth, 1)):
        line = Text()
        for name in names:
            pile = state.piles[name]
            if row < len(pile):
                line.append_text(card_text(pile.cards[row], pile.is_face_up(row)))
            elif row == 0:
                line.append_text(card_text(None))
            else:
                line.append("  ")
            line.append(" " * (CELL - 2))
        lines.append(line)
    return lines


def heading(variation: Variation, state: State, seed: int | None = None, origin: str = "") -> Text:
    """The line above the board: title, deal number (or the file played from), options, phase
    and counters."""
    text = Text(variation.title, style="bold")
    if seed is not None:
        text.append(f"  deal {seed}")
    elif origin:
        text.append(f"  from {origin}")
    for name, value in sorted(state.options.items()):
        text.append(f"  {name}={format_option_value(value)}", style=EMPTY_STYLE)
    text.append(f"  phase {state.phase}")
    for name, count in sorted(state.counters.items()):
        if name != "seed":
            text.append(f" {name}={count}")
    return text


def render_board(variation: Variation, state: State, seed: int | None = None, origin: str = "") -> Text:
    """The board as rich text: every pile under its name; face-down cards as backs.

    Piles other than the tableau are summarised by their top card (and their
    size, except foundations); the tableau is drawn as columns, bottom card first.
    """
    lines = [heading(variation, state, seed, origin)]
    kinds: list[str] = []
    for spec in variation.layout.piles:
        if spec.kind not in kinds:
            kinds.append(spec.kind)
    singles = Text()
    for kind in kinds:
        if kind == TABLEAU:
            continue
        names = variation.layout.of_kind(kind)
        label = KIND_LABELS.get(kind, kind)
        summaries = [
            _pile_summary(name, state.piles[name], show_count=kind != FOUNDATION) for name in names
        ]
        if len(names) == 1:
            if singles:
                singles.append("   ")
            singles.append(f"{label} ")
            singles.append_text(summaries[0])
            continue
        line = Text(f"{label:<12}")
        for summary in summaries:
            line.append_text(summary)
            line.append("  ")
        lines.append(line)
    if singles:
        lines.append(singles)
    tableau = variation.layout.of_kind(TABLEAU)
    if tableau:
        lines.append(Text())
        lines.extend(_tableau_lines(tableau, state))
    return Text("\n").join(lines)


# -- the prompt loop --------------------------------------------------------------
_SPACES_AROUND_SIGNS = re.compile(r"\s*([>:+])\s*")


def normalise_move_text(text: str) -> str:
    """Forgive spaces around ``>``, ``:`` and ``+`` (``t3 > f2`` means ``t3>f2``)."""
    return _SPACES_AROUND_SIGNS.sub(r"\1", text.strip())


def natural_key(text: str) -> tuple[tuple[int, str], ...]:
    """Sort key reading digit runs as numbers (``t2>t10`` before ``t10>t2``)."""
    return tuple((int(part), "") if part.isdigit() else (-1, part) for part in re.findall(r"\d+|\D+", text))


class TerminalGame:
    """An interactive game on ``console``, reading commands with ``read_line(prompt)``.

    ``read_line`` raises EOFError at the end of input (which quits). :meth:`run`
    returns the process exit status. With ``state`` the game starts from that
    position (read from the file ``origin``) instead of dealing ``seed``; ``new``
    then deals ``seed``.
    """

    def __init__(
        self,
        variation: Variation,
        options: dict[str, OptionValue],
        seed: int,
        console: Console,
        read_line: Callable[[str], str] | None = None,
        state: State | None = None,
        origin: str = "",
    ) -> None:
        self.variation = variation
        self.options = options
        self.seed: int | None = None if state is not None else seed
        self.next_seed = seed
        self.initial = state
        self.origin = origin
        self.console = console
        self.read_line = read_line or console.input
        self.game: Game | None = None

    # -- output helpers
    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style))

    def report_failure(self, error: Exception) -> None:
        """Tell the player which rule method failed; re-raise what is not a rule's failure."""
        description = describe_failure(error, self.variation)
        if description is None:
            raise error
        self.say(description, style="bold yellow")

    # -- game steps
    def start(self, seed: int) -> bool:
        """Deal game ``seed``; False (with a message) if the rules cannot deal it."""
        try:
            state = new_game(self.variation, seed, self.options)
        except SolitaireError as error:
            self.say(str(error), style="bold red")
            return False
        except Exception as error:  # noqa: BLE001 - a rule method failed; say which
            self.report_failure(error)
            return False
        self.seed = seed
        self.next_seed = seed + 1
        self.game = Game(self.variation, state)
        self.show()
        return True

    def current(self) -> Game:
        assert self.game is not None, "no game dealt"
        return self.game

    def show(self) -> None:
        game = self.current()
        self.console.print(render_board(self.variation, game.state, self.seed, self.origin))
        self.status()

    def status(self) -> None:
        game = self.current()
        try:
            won = is_won(self.variation, game.state)
        except Exception as error:  # noqa: BLE001
            self.report_failure(error)
            won = False
        try:
            moves = legal_moves(self.variation, game.state) if not won else []
        except Exception as error:  # noqa: BLE001
            self.report_failure(error)
            return
        if won:
            count = len(game.history)
            moves_played = f"{count} move{'s' if count != 1 else ''}"
            self.say(
                f"*** You won {self.variation.title} {self._which()} in {moves_played}! ***"
                " (new, undo or quit)",
                style="bold green",
            )
        elif not moves:
            self.say("No legal moves left: undo, new or quit.", style="bold yellow")
        else:
            plural = "s" if len(moves) != 1 else ""
            self.say(f"{len(moves)} legal move{plural} (hint lists them)", style=EMPTY_STYLE)

    def _which(self) -> str:
        return f"deal {self.seed}" if self.seed is not None else f"from {self.origin or 'the board given'}"

    def hint(self) -> None:
        try:
            found = legal_moves(self.variation, self.current().state)
            moves = sorted((str(m) for m in found), key=natural_key)
        except Exception as error:  # noqa: BLE001
            self.report_failure(error)
            return
        self.say("legal moves: " + ("  ".join(moves) if moves else "none"))

    def play(self, text: str) -> None:
        try:
            move: Move = parse_move(normalise_move_text(text))
        except SolitaireError as error:
            self.say(f"{error}; type help for the notation", style="bold red")
            return
        game = self.current()
        try:
            reason = check_move(self.variation, game.state, move)
            if reason is not None:
                advice = "" if move.is_card_move else " (type help for the commands)"
                self.say(f"illegal move {move}: {reason}{advice}", style="bold red")
                return
            game.play(move)
        except SolitaireError as error:
            self.say(str(error), style="bold red")
            return
        except Exception as error:  # noqa: BLE001
            self.report_failure(error)
            return
        self.say(f"played {move} (move {len(game.history)})")
        self.show()

    def undo(self) -> None:
        game = self.current()
        if not game.history:
            self.say("nothing to undo", style="yellow")
            return
        move = game.undo()
        self.say(f"took back {move}")
        self.show()

    def new(self, argument: str) -> None:
        if argument and not argument.isdigit():
            self.say(f"new takes a deal number, not {argument!r}", style="bold red")
            return
        self.start(int(argument) if argument else self.next_seed)

    # -- the loop
    def run(self) -> int:
        """Play until quit or end of input; 1 if the first deal fails, else 0."""
        if self.initial is not None:
            self.game = Game(self.variation, self.initial)
            self.show()
        elif not self.start(self.next_seed):
            return 1
        prompt = f"{self.variation.name}> "
        while True:
            try:
                line = self.read_line(prompt)
            except EOFError:
                self.console.print()
                return 0
            command, _, argument = line.strip().partition(" ")
            word = command.lower()
            if not word:
                continue
            if word in ("quit", "exit", "q"):
                self.say("bye")
                return 0
            if word in ("help", "?"):
                self.say(help_text(self.variation))
            elif word in ("hint", "moves"):
                self.hint()
            elif word in ("undo", "u"):
                self.undo()
            elif word in ("board", "show"):
                self.show()
            elif word == "state":
                self.console.out(format_state(self.current().state), end="", highlight=False)
            elif word == "new":
                self.new(argument.strip())
            else:
                self.play(line)


def play(
    variation: Variation,
    options: dict[str, OptionValue],
    seed: int,
    console: Console | None = None,
    read_line: Callable[[str], str] | None = None,
    state: State | None = None,
    origin: str = "",
) -> int:
    """Run an interactive game of ``variation`` deal ``seed`` (or from ``state``, read from the
    file ``origin``); returns the exit status."""
    console = console or Console(highlight=False)
    game = TerminalGame(variation, options, seed, console, read_line, state, origin)
    return game.run()
