"""Typed errors of the engine. Each carries a message fit to show a user."""


class SolitaireError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidNotation(SolitaireError, ValueError):
    """Text that is not a well-formed card, move, state or option."""


class IllegalMove(SolitaireError):
    """A well-formed move that the rules do not allow in the given state."""

    def __init__(self, move: object, reason: str) -> None:
        super().__init__(f"illegal move {move}: {reason}")
        self.move = move
        self.reason = reason


class UnknownVariation(SolitaireError, LookupError):
    """A variation name that the catalog does not know."""


class UserError(SolitaireError):
    """A mistake of the person at the command line (bad file, bad argument ...).

    The CLI prints its message on one line and exits with status 2; it never
    shows a traceback for it.
    """
