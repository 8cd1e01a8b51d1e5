"""Errors of the reference engine.

Which stage raises which error:
    InvalidSetup    a new game with an impossible set-up (players, variant, start)     code bad_request
    NotationError   parsing a move (`3K4`, `2@4`) that is not well formed           code bad_request
    IllegalMove     playing a well-formed move the rules forbid here                  code illegal_move
    IllegalDeal     a deal that is not drawable, or a deal at the wrong time          code illegal_move
    MalformedDeal   a deal the protocol schema forbids (a factory of 5+ tiles, a letter
                    that is no colour, not 5 to 9 factories)                          code bad_request
    InvalidState    loading an azul-state/1 document that is no real position         code bad_request
Every error is a ValueError carrying the protocol error `code`, the `rule` it breaks (a spec rule ID, when
one applies) and the offending input. A refused move or deal leaves the game exactly as it was.
"""

from __future__ import annotations


class AzulError(ValueError):
    code = "internal"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class InvalidSetup(AzulError):
    code = "bad_request"


class NotationError(AzulError):
    code = "bad_request"


class IllegalMove(AzulError):
    code = "illegal_move"


class IllegalDeal(AzulError):
    code = "illegal_move"


class MalformedDeal(AzulError):
    """Not a deal at all in protocol v1 (spec/schema/protocol.schema.json limits a factory to 4 colour letters
    and a deal to 5-9 factories): a malformed request, whatever the position."""

    code = "bad_request"


class InvalidState(AzulError):
    """A state document with problems; `problems` lists every one found, not just the first."""

    code = "bad_request"

    def __init__(self, problems: list[str]) -> None:
        super().__init__("invalid state: " + "; ".join(problems))
        self.problems = problems
