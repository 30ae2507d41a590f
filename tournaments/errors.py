"""Domain errors: expected conditions with a message an organiser can act on (docs/style.md §7).

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


class PairingRefused(MatchslipError):
    """The next round cannot be paired (no players, event finished, check-in still open,
    ...): the pairing services' refusal, shown like every ``MatchslipError``.

    The pure engines raise their own ``pairings.engine.errors.PairingImpossible``; a
    service that expects it (a re-pair) catches it and raises this with the same
    message."""


class DivisionUnconfirmed(InvalidInput):
    """P-AGE-1: a player put in a division their birth year does not
    give, not yet confirmed; the message asks ("Born 1993: Masters by the season's
    cut-offs. Put in Junior anyway?") and the page offers to confirm."""


class AgreedResultOverride(InvalidInput):
    """A staff entry differs from the result every player of the table
    reported, and no reason was given. ``agreed``: the players' result in words; the
    round page asks "Both players reported … Override? Reason:" and posts again with it."""

    def __init__(self, message: str, *, agreed: str = "") -> None:
        super().__init__(message)
        self.agreed = agreed


class ReportOverride(InvalidInput):
    """A staff entry contradicts a player's own report of the table (one player
    reported, or the players disagree) and was not confirmed. ``reported``: what each
    contradicted player reported, one sentence each ("Inés Ruiz reported: Inés Ruiz
    wins 2-0-0"); ``entered``: the entry's result in words. The round page shows the
    message ("… Record Kofi Mensah wins 2-0-0 anyway?") and posts the same slip again,
    confirmed; no reason is asked."""

    def __init__(self, message: str, *, reported: tuple[str, ...] = (), entered: str = "") -> None:
        super().__init__(message)
        self.reported = reported
        self.entered = entered


class DecklistRefused(InvalidInput):
    """A player's deck list that cannot be read or breaks the game's
    deck rules. ``problems``: every reason, in the reader's language, each naming its
    line or the count (``rulesets.decklists``); the message is the first."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems[0])
        self.problems = tuple(problems)
