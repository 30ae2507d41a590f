"""Domain errors raised by the standings engines."""


class StandingsError(ValueError):
    """The input cannot be ranked as given (unknown player, inconsistent match record…).

    The message names the match or player at fault so the organiser can correct it.
    """
