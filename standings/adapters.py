"""Build the standings engine's inputs from the database, and write its lines back as
Standings JSON rows (docs/interfaces.md)."""

from __future__ import annotations

from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from rulesets import Line
from tournaments.models import MatchSeat, Outcome, PairingGroup, Phase, Registration, RoundStatus
from tournaments.selectors.names import registration_name

from .engine.types import Entrant, MatchRecord
from .engine.types import Outcome as EngineOutcome

_OUTCOMES = {
    Outcome.WIN: EngineOutcome.WIN,
    Outcome.DRAW: EngineOutcome.DRAW,
    Outcome.DOUBLE_LOSS: EngineOutcome.DOUBLE_LOSS,
    Outcome.BYE: EngineOutcome.BYE,
    Outcome.LOSS: EngineOutcome.LATE_LOSS,
    Outcome.PENDING: EngineOutcome.PENDING,
}


def entrants(regs: list[Registration]) -> list[Entrant]:
    """Registrations as engine Entrants (ids are registration pks as strings)."""
    return [
        Entrant(
            id=str(r.pk),
            late=r.late,
            dropped_after_round=r.dropped_after_round,
            disqualified=r.disqualified,
        )
        for r in regs
    ]


def match_records(
    group: PairingGroup, phases: tuple[str, ...] = (Phase.SWISS,), public_only: bool = False
) -> list[MatchRecord]:
    """Every match of ``group`` in ``phases`` as MatchRecords, in round and table order.

    public_only: leave out rounds that are not published yet (nothing unpublished is shown).
    """
    seats = MatchSeat.objects.filter(round__group=group, round__phase__in=phases)
    if public_only:
        seats = seats.exclude(round__status=RoundStatus.PAIRED)
    rows = seats.order_by("round__number", "match_id", "seat").values_list(
        "match_id",
        "round__number",
        "registration_id",
        "match__outcome",
        "match__winner_id",
        "match__games",
        "conceded",
    )
    grouped: dict[int, list[tuple[int, int, str, int | None, Any, bool]]] = defaultdict(list)
    for match_id, number, reg_id, outcome, winner_id, games, conceded in rows:
        grouped[match_id].append((number, reg_id, outcome, winner_id, games, conceded))
    return [
        MatchRecord(
            round=seats_[0][0],
            players=tuple(str(s[1]) for s in seats_),
            outcome=_OUTCOMES[Outcome(seats_[0][2])],
            winner=str(seats_[0][3]) if seats_[0][3] is not None else None,
            games=tuple(seats_[0][4]) if seats_[0][4] else None,
            conceded=frozenset(str(s[1]) for s in seats_ if s[5]),
        )
        for seats_ in grouped.values()
    ]


#: Decimals of a tiebreaker written as a number: the Standings JSON writes "at least 6"
#: (docs/interfaces.md); the CSV writes exactly these (:func:`decimal_text`).
DECIMALS = 6


def _number(value: Fraction | int) -> float | int:
    return float(value) if isinstance(value, Fraction) else value


def decimal_text(exact: str) -> str:
    """A tiebreaker's exact value (a row's ``exact`` Fraction text) as a number with
    :data:`DECIMALS` decimals, rounded half up: ``"5/9"`` → ``"0.555556"``, ``"49/80"``
    → ``"0.612500"`` (what the Standings JSON writes for it)."""
    value = Fraction(exact)
    quantum = Decimal(1).scaleb(-DECIMALS)
    exact_decimal = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact_decimal.quantize(quantum, rounding=ROUND_HALF_UP))


def row_json(place: int | None, line: Line, reg: Registration, top_cut: bool) -> dict[str, Any]:
    """One Standings JSON row (docs/interfaces.md): the registration's identity and state, the
    line's points and record, its tiebreakers as numbers 0–1 (or counts) and ``exact``
    as Fraction text."""
    return {
        "place": place,
        "player": reg.external_id,
        "name": reg.player.name,
        "match_points": line.match_points,
        "record": line.record,
        "dropped": reg.dropped,
        "late": reg.late,
        "top_cut": top_cut,
        "tiebreakers": {k: _number(v) for k, v in line.tiebreakers.items()},
        "exact": {k: str(v) for k, v in line.tiebreakers.items()},
    } | _shown_name(reg)


def _shown_name(reg: Registration) -> dict[str, str]:
    """``{"shown_name": "Alice Smith #1111"}`` for a registration loaded with a
    ``name_twin`` annotation whose name another registration of the event shares (the
    pages show it, ``tournaments.selectors.names``); ``{}`` otherwise, so the JSON of
    an event without shared names is unchanged."""
    if not getattr(reg, "name_twin", False):
        return {}
    return {"shown_name": registration_name(reg)}
