"""Exceptions for bad input. Each is a ValueError whose message quotes the input."""


class InvalidDealError(ValueError):
    """A deal (number, card list, file) that cannot be read or is not a full deck."""


class UnknownGameError(InvalidDealError):
    """A game id that is not one of ours; the message suggests the nearest ids."""


class InvalidMoveError(ValueError):
    """Move text that is not well-formed notation (RULES §5)."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in the position; the message says why."""
