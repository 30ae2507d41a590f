"""Domain errors raised by the pairing engines."""


class PairingError(Exception):
    """Base class: an expected condition the organiser can act on."""


class PairingImpossible(PairingError):
    """No valid pairing exists for the given players (e.g. fewer than two players)."""
