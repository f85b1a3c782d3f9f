"""The one error type of the referee: which rule was broken, in words a new player understands."""
from __future__ import annotations


class RuleError(ValueError):
    """An action the rules do not allow.

    `code` is a short stable name of the broken rule (e.g. "left-of-last-mark"); `message` is one
    sentence for the player ("Red 5 is left of your last red mark, 7: numbers left of it are gone.").
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
