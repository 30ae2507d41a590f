"""Tiebreaker receipts of one player: how the standings engine counted
their columns, from exactly the inputs the standings counted.

``group_standings`` records, for every player, the standings calls their line came from
(``GroupStandings.sources``: Day 1, then Day 2 for a Day 2 player; their flight's for a
flighted division). A receipt is the ruleset's receipts function
(``Ruleset.receipts``, ``standings.engine.receipts``) called with those very inputs, and
once more with one round fewer for "how it changed since the previous round". So a
change to how the standings count (a Day 2 drop frozen, a bye's games, a floor) reaches
the receipts by itself.

Decisions where the issue is silent: the round before Day 2's first round is none (Day 2
tiebreakers start over, P-D2-2; Day 1's receipt is shown beside it); the round before
counts no playoff match (R-8 counts them after the Swiss only); a receipt is computed
from the results now and says so when the latest standings snapshot differs (a
correction not yet in the standings).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from django.core.cache import cache
from django.urls import reverse

from rulesets import Ruleset, get_ruleset
from tournaments.groups import swiss_group
from tournaments.models import Event, PairingGroup, Registration
from tournaments.procedures import standalone_bracket
from tournaments.selectors.names import registration_name

from .engine.receipts import ColumnChange, Receipt, TermChange, changes
from .models import StandingsSnapshot
from .services import group_standings, standings_latest
from .swiss_standings import Source

CACHE_SECONDS = 3600


@dataclass(frozen=True)
class StageReceipt:
    """The player's receipt from one standings call, now and one round earlier.

    offset: event rounds before the call's round 1 (Day 2: the Day 1 rounds). day2: the
    call counts Day 2 only (P-D2-2, R-3). counted: its columns are the ones the standings
    show (the last stage). before: the receipt after the previous round of the same call
    (None in its first round).
    """

    receipt: Receipt
    before: Receipt | None
    columns: tuple[ColumnChange, ...]
    terms: tuple[TermChange, ...]
    offset: int
    day2: bool
    counted: bool


@dataclass(frozen=True)
class PlayerReceipt:
    """Everything a receipt page shows about one player.

    player: the registration id (as the engines name players). stages: Day 1 first, the
    counted one last. names: how people see every player named (the player and their
    opponents), by id. snapshot_rounds: the rounds of the latest standings snapshot of
    the player's division; agrees: the snapshot shows the counted stage's values.
    """

    player: str
    ruleset_id: str
    stages: tuple[StageReceipt, ...]
    names: dict[str, str]
    snapshot_id: int | None
    agrees: bool

    @property
    def ruleset(self) -> Ruleset:
        return get_ruleset(self.ruleset_id)

    @property
    def counted(self) -> StageReceipt:
        return self.stages[-1]


def player_receipt(
    event: Event, reg: Registration, snapshot: StandingsSnapshot | None = None
) -> PlayerReceipt | None:
    """The receipt of ``reg`` after the complete Swiss rounds, or None where there is none:
    a standalone bracket (no tiebreakers, P-SE), a ruleset without receipts, a player
    seated in no counted round. ``snapshot``: the latest standings snapshot when the
    caller has it (else read). See :func:`group_receipts`."""
    pid = str(reg.pk)
    return group_receipts(event, swiss_group(reg.division), snapshot, only=(pid,)).get(pid)


def group_receipts(
    event: Event,
    group: PairingGroup,
    snapshot: StandingsSnapshot | None = None,
    *,
    only: Collection[str] | None = None,
) -> dict[str, PlayerReceipt]:
    """``{registration id: PlayerReceipt}`` of every player of the Swiss ``group`` (or of
    the ids in ``only``): the group's standings read once (``group_standings``), each of
    its standings calls counted twice (now, and a round earlier) for all those players.
    Empty for a standalone bracket or a ruleset without receipts."""
    rules = get_ruleset(event.ruleset)
    if rules.receipts is None or standalone_bracket(event):
        return {}
    ps = group_standings(event, group)
    snapshot = snapshot or standings_latest(event)
    rows = _snapshot_rows(snapshot.data if snapshot else {})
    counted: dict[int, tuple[Mapping[str, Receipt], Mapping[str, Receipt]]] = {}
    out: dict[str, PlayerReceipt] = {}
    for pid in ps.sources if only is None else [p for p in only if p in ps.sources]:
        sources = ps.sources[pid]
        stages = []
        for k, source in enumerate(sources):
            if id(source) not in counted:
                counted[id(source)] = _count(rules, source, only)
            stages.append(_stage(counted[id(source)], source, pid, k == len(sources) - 1))
        found = [s for s in stages if s is not None]
        if not found or stages[-1] is None:
            continue
        reg = ps.registrations[pid]
        out[pid] = PlayerReceipt(
            player=pid,
            ruleset_id=rules.id,
            stages=tuple(found),
            names=_names(ps.registrations, found),
            snapshot_id=snapshot.pk if snapshot else None,
            agrees=_agrees(rows.get(reg.external_id), found[-1].receipt),
        )
    return out


def player_receipt_cached(event: Event, reg: Registration) -> PlayerReceipt | None:
    """:func:`player_receipt`, kept in the cache per standings snapshot: a new snapshot
    (a round completed, a correction) is a new key, so the receipt follows the published
    standings. A miss counts the whole group's receipts at once and keeps each player's
    (the other players of the group open theirs right after a round), so a phone
    opening or reloading its receipt costs one cache read. Usually :func:`receipts_warm`
    has kept them already, when the snapshot committed."""
    snapshot = standings_latest(event)
    prefix = _cache_prefix(event.pk, snapshot)
    kept: tuple[PlayerReceipt | None] | None = cache.get(f"{prefix}{reg.pk}")
    if kept is None:
        found = group_receipts(event, swiss_group(reg.division), snapshot)
        kept = (found.get(str(reg.pk)),)
        values: dict[str, Any] = {f"{prefix}{pid}": (r,) for pid, r in found.items()}
        values[f"{prefix}{reg.pk}"] = kept
        cache.set_many(values, CACHE_SECONDS)
    return kept[0]


def receipts_warm(event_id: int) -> int:
    """Count the receipts of every player of the event's latest standings snapshot and
    keep them as :func:`player_receipt_cached` keeps them (each Swiss group counted once;
    a player without a receipt kept as none), so the open receipt pages, which refresh
    when the new standings are announced, read them kept rather than each counting a
    group at the same moment. Body of the task ``standings.tasks.receipts_warm``, sent
    when a snapshot commits (``services.standings_compute``); safe to run twice. Returns
    how many players were kept (0: no such event or no standings yet)."""
    event = Event.objects.filter(pk=event_id).first()
    snapshot = standings_latest(event) if event is not None else None
    if event is None or snapshot is None:
        return 0
    prefix = _cache_prefix(event.pk, snapshot)
    values: dict[str, Any] = {}
    for group in PairingGroup.objects.filter(event=event, parent__isnull=True):
        for pid, found in group_receipts(event, group, snapshot).items():
            values[f"{prefix}{pid}"] = (found,)
    for pk in Registration.objects.filter(event=event).values_list("pk", flat=True):
        values.setdefault(f"{prefix}{pk}", (None,))
    cache.set_many(values, CACHE_SECONDS)
    return len(values)


def _cache_prefix(event_id: int, snapshot: StandingsSnapshot | None) -> str:
    """The cache keys of the receipts counted for ``snapshot`` (the latest; None before
    any): a new snapshot is a new key."""
    return f"matchslip:receipt:{event_id}:{snapshot.pk if snapshot else 0}:"


def receipt_links(event: Event) -> dict[str, str]:
    """``{Standings JSON player id: address of their public receipt}`` for every player of
    ``event`` (one query), for the names on the public standings; empty where there are
    no receipts (a standalone bracket, a ruleset without them)."""
    if get_ruleset(event.ruleset).receipts is None or standalone_bracket(event):
        return {}
    players = Registration.objects.filter(event=event).values_list("external_id", "pk")
    return {
        external_id: reverse("public:receipt", args=[event.slug, pk]) for external_id, pk in players
    }


def _count(
    rules: Ruleset, source: Source, only: Collection[str] | None
) -> tuple[Mapping[str, Receipt], Mapping[str, Receipt]]:
    """The receipts of ``source``'s standings call now and a round earlier (no playoff
    match then, see the module notes), for the players ``only`` (None: all)."""
    assert rules.receipts is not None
    ctx = source.context
    if ctx.rounds < 1:
        return {}, {}
    now = rules.receipts(source.entrants, source.matches, ctx, only)
    earlier = replace(ctx, rounds=ctx.rounds - 1, playoff_matches=())
    if earlier.rounds < 1:
        return now, {}
    return now, rules.receipts(source.entrants, source.matches, earlier, only)


def _stage(
    counted: tuple[Mapping[str, Receipt], Mapping[str, Receipt]],
    source: Source,
    pid: str,
    last: bool,
) -> StageReceipt | None:
    """The player's receipt from ``source`` now and a round earlier (None when the call
    counted no round for them)."""
    now, earlier = counted
    if pid not in now:
        return None
    before = earlier.get(pid)
    columns, terms = changes(now[pid], before)
    return StageReceipt(now[pid], before, columns, terms, source.offset, source.day2, last)


def _names(registrations: dict[str, Registration], stages: list[StageReceipt]) -> dict[str, str]:
    """Shown names of the player and of everyone on their receipts."""
    ids = {s.receipt.player for s in stages}
    ids |= {line.opponent for s in stages for line in s.receipt.lines if line.opponent}
    return {pid: registration_name(registrations[pid]) for pid in ids if pid in registrations}


def _agrees(row: dict[str, Any] | None, receipt: Receipt) -> bool:
    """Whether a snapshot row holds the receipt's column values exactly (its ``exact``
    Fractions); False without a row."""
    if row is None:
        return False
    exact: dict[str, Any] = row.get("exact", {})
    return all(c.key in exact and Fraction(str(exact[c.key])) == c.value for c in receipt.columns)


def _snapshot_rows(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The Standings JSON rows by player id (``external_id``)."""
    return {
        str(row.get("player")): row for rows in data.get("divisions", {}).values() for row in rows
    }


def snapshot_row(data: dict[str, Any], player: str) -> dict[str, Any] | None:
    """The Standings JSON row of ``player`` (its ``external_id``), or None."""
    return _snapshot_rows(data).get(player)
