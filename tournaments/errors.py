"""Domain errors: expected conditions with a message an organiser can act on (STYLE.md §7).

Views show ``str(error)`` as a form error or message; commands print it and exit non-zero.
"""


class MatchslipError(Exception):
    """Base class of every expected, user-fixable condition."""


class InvalidInput(MatchslipError):
    """Bad input (a malformed upload, a CSV line, an impossible result)."""


class RoundStateError(MatchslipError):
    """The round is not in a state that allows this action (e.g. publishing twice)."""


class ResultsMissing(MatchslipError):
    """R-6: results of the current round are missing, so the next round cannot be paired."""


class ResultConflict(MatchslipError):
    """The match changed since the form was shown (optimistic version check)."""

    def __init__(self, message: str, *, current: str = "") -> None:
        super().__init__(message)
        self.current = current


class RecordLocked(MatchslipError):
    """P-POST-4: the record-correction window for this round has closed."""


class PairingImpossible(MatchslipError):
    """The next round cannot be paired (no players, event finished, ...)."""
