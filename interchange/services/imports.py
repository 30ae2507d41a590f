"""Importing whole events (event JSON v1, TOM ``.tdf``, WER, melee.gg) from ``EventData``.

Every importer normalises its file into :class:`EventData`; :func:`event_import` checks
it whole (``formats.checks``, then what each pairing group's rounds need) before it
writes anything, then creates everything in one transaction: a file that fails
validation writes nothing (docs/interfaces.md).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from pairings.procedures import event_done
from rulesets import get_ruleset
from tournaments.actors import Actor, acting_user
from tournaments.errors import InvalidInput
from tournaments.groups import (
    cut_group,
    cut_key,
    flight_group,
    flight_key,
    seeds_store,
    set_swiss_groups,
    swiss_group,
)
from tournaments.models import (
    Division,
    Event,
    EventStaff,
    EventStatus,
    GroupPhase,
    Match,
    MatchSeat,
    Outcome,
    PairingGroup,
    Phase,
    Player,
    Registration,
    Round,
    RoundStatus,
    StaffRole,
    Structure,
    match_kind,
)
from tournaments.multiplayer import allowed_cuts
from tournaments.seeds import FirstRoundSeat, first_round_seeds
from tournaments.services.audit import audit_log
from tournaments.services.events import event_insert
from tournaments.services.rounds import standings_refresh_on_commit
from tournaments.stored_text import gettext_storable, stored
from tournaments.text import normalised_name

from ..formats.checks import ELIMINATION, MAX_FILE_BYTES, FileRefused, check_event_data
from ..formats.eventdata import DivisionData, EventData, MatchData
from ..formats.tdf import TdfError, parse_tdf
from ..formats.tdf_event import tdf_event_data


def _group_of(
    match: MatchData,
    phase: str,
    division_of: dict[str, DivisionData],
    flight_of: dict[str, int | None] | None = None,
) -> str:
    """The pairing group a match is played in: its first player's (``_check_groups``
    makes sure every player of the match is in the same one)."""
    return _player_group(match.players[0], phase, division_of, flight_of or {})


def _player_group(
    pid: str, phase: str, division_of: dict[str, DivisionData], flight_of: dict[str, int | None]
) -> str:
    division = division_of[pid]
    if phase in (Phase.TOP_CUT, Phase.SINGLE_ELIMINATION):
        return cut_key(division.code) if phase == Phase.TOP_CUT else division.group
    flight = flight_of.get(pid)
    if division.flights and flight:  # P-FL: each flight is its own pairing group
        return flight_key(division.group, flight)
    return division.group


def _check_groups(data: EventData) -> None:
    """What the rows of each pairing group need, checked before anything is written:
    the players of a match in one group, a round number once per group, a table number
    once per round, and head-to-head single-elimination brackets the standings can read
    (nobody knocked out plays on, except in a playoff of players knocked out). Raises
    FileRefused naming the match (or round) at fault."""
    division_of = {
        p.id: next(d for d in data.divisions if d.code == p.division) for p in data.players
    }
    flight_of = {p.id: p.flight for p in data.players}
    numbers: set[tuple[str, int]] = set()
    brackets: dict[str, list[tuple[int, str, MatchData]]] = {}
    for i, rd in enumerate(data.rounds):
        tables: set[tuple[str, int]] = set()
        played = set()
        for j, m in enumerate(rd.matches):
            where = m.where or f"rounds[{i}].matches[{j}]"
            groups = {_player_group(p, rd.phase, division_of, flight_of) for p in m.players}
            if len(groups) > 1:
                names = ", ".join(sorted(groups))
                raise FileRefused(
                    gettext_storable(
                        "%(where)s: players of different pairing groups meet (%(names)s)"
                    )
                    % {"where": where, "names": names}
                )
            (group,) = groups
            played.add(group)
            if m.table is not None and len(m.players) > 1:
                if (group, m.table) in tables:
                    raise FileRefused(
                        gettext_storable("%(where)s: table %(table)s is given twice in this round")
                        % {"where": where, "table": m.table}
                    )
                tables.add((group, m.table))
            if rd.phase in ELIMINATION:
                brackets.setdefault(group, []).append((rd.number, where, m))
        for group in sorted(played):
            if (group, rd.number) in numbers:
                where = rd.where or f"rounds[{i}]"
                raise FileRefused(
                    gettext_storable("%(where)s: round %(number)s of %(group)r is given twice")
                    % {"where": where, "number": rd.number, "group": group}
                )
            numbers.add((group, rd.number))
    if not get_ruleset(data.ruleset).uses_pods:  # a drawn group of a cut goes on (MP-SE)
        for matches in brackets.values():
            _check_bracket(sorted(matches, key=lambda x: x[0]))


def _check_bracket(matches: list[tuple[int, str, MatchData]]) -> None:
    """A single-elimination bracket as ``standings.engine.placement`` reads it: a player
    knocked out (a loss, a double loss) plays again only against others knocked out."""
    out: dict[str, int] = {}
    for number, where, m in matches:
        if m.outcome in ("pending", "bye"):
            continue
        gone = [p for p in m.players if p in out]
        if gone and len(gone) != len(m.players):
            raise FileRefused(
                gettext_storable("%(where)s: %(gone)r was knocked out in round %(out)s")
                % {"where": where, "gone": gone[0], "out": out[gone[0]]}
            )
        if gone:
            continue  # a playoff (3rd/4th place) of players knocked out
        losers = [p for p in m.players if p != m.winner]
        out.update(dict.fromkeys(losers, number))


# ``progress(stage, done, total)``: what an import is doing, for a job page to show
# (``services.import_jobs``); units are rows written, the file's players then its matches.
Progress = Callable[[str, int, int], None]


def _no_progress(stage: str, done: int, total: int) -> None:
    """Progress nobody watches (the import commands, tests)."""


BATCH = 2000  # rows per INSERT: a few queries per thousand rows, whatever the file's size


def _group_rows(event: Event) -> dict[str, PairingGroup]:
    """``{key: group}`` of the event's Swiss groups and its flighted divisions' flights
    (made here, P-FL-1); cut groups are made as their rounds are met."""
    rows: dict[str, PairingGroup] = {}
    for division in event.divisions.prefetch_related("groups"):
        root = swiss_group(division)
        rows[root.key] = root
        for n in range(1, division.flights + 1):
            flight = flight_group(division, n)
            rows[flight.key] = flight
    return rows


def _create_rounds(event: Event, data: EventData, regs: dict[str, Registration]) -> int:
    """Every round of the file, split by pairing group, with its matches and seats: three
    bulk inserts (a few more for a big file, ``BATCH`` rows each), never a query per round,
    match or player. Ids follow the file's order, as the exports expect. Returns the
    number of matches written."""
    by_code = {d.code: d for d in data.divisions}
    division_of = {p.id: by_code[p.division] for p in data.players}
    flight_of = {p.id: p.flight for p in data.players}
    rows = _group_rows(event)
    groups: list[tuple[Round, list[MatchData]]] = []
    for rd in data.rounds:
        by_key: dict[str, list[MatchData]] = {}
        for m in rd.matches:
            by_key.setdefault(_group_of(m, rd.phase, division_of, flight_of), []).append(m)
        for key, matches in by_key.items():
            if key not in rows:  # a division's cut, made as it is first met
                rows[key] = cut_group(regs[matches[0].players[0]].division)
            pending = any(m.outcome == Outcome.PENDING for m in matches)
            status = RoundStatus.STARTED if pending else RoundStatus.COMPLETE
            rnd = Round(
                event=event,
                group=rows[key],
                phase=rd.phase,
                number=rd.number,
                status=status,
                seed=rd.seeds.get(key, 0),
            )
            groups.append((rnd, matches))
    Round.objects.bulk_create([rnd for rnd, _ in groups], batch_size=BATCH)
    pairs = [(rnd, m) for rnd, matches in groups for m in matches]
    created = Match.objects.bulk_create(
        [
            Match(
                round_id=rnd.pk,
                table=m.table if len(m.players) > 1 else None,
                kind=match_kind(rnd.phase, m.outcome, third_place=m.third_place),
                outcome=m.outcome,
                winner_id=regs[m.winner].pk if m.winner else None,
                games=m.games,
                why=m.why,
                version=0 if m.outcome == Outcome.PENDING else 1,
            )
            for rnd, m in pairs
        ],
        batch_size=BATCH,
    )
    MatchSeat.objects.bulk_create(
        (
            MatchSeat(
                match_id=obj.pk,
                round_id=rnd.pk,
                registration_id=regs[pid].pk,
                seat=n,
                conceded=pid in m.conceded,
            )
            for obj, (rnd, m) in zip(created, pairs, strict=True)
            for n, pid in enumerate(m.players, start=1)
        ),
        batch_size=BATCH,
    )
    _store_seeds([g for g in rows.values() if g.phase != GroupPhase.SWISS], pairs, regs)
    return len(created)


def _store_seeds(
    brackets: list[PairingGroup],
    pairs: list[tuple[Round, MatchData]],
    regs: dict[str, Registration],
) -> None:
    """Store the seeds of each bracket group that has rounds (``CutSeed``), read back
    from its first round (``tournaments.seeds``: a file carries no seeds)."""
    for group in brackets:
        played = [(rnd, m) for rnd, m in pairs if rnd.group_id == group.pk]
        if not played:
            continue
        first = min(rnd.number for rnd, _ in played)
        matches = sorted(
            (m for rnd, m in played if rnd.number == first),
            key=lambda m: (m.table is None or len(m.players) == 1, m.table or 0),
        )
        seats = [
            FirstRoundSeat(regs[pid].pk, m.table if len(m.players) > 1 else None, n, m.why)
            for m in matches
            for n, pid in enumerate(m.players, start=1)
        ]
        seeds_store(group, first_round_seeds(seats))


def _create_registrations(
    event: Event, data: EventData, divisions: dict[str, Division]
) -> dict[str, Registration]:
    """The file's players and their registrations, in two bulk inserts (``BATCH`` rows
    each), keyed by the file's player id."""
    players = Player.objects.bulk_create(
        [
            Player(name=normalised_name(p.name), player_id=p.player_id, birth_year=p.birth_year)
            for p in data.players
        ],
        batch_size=BATCH,
    )
    regs = Registration.objects.bulk_create(
        [
            Registration(
                event=event,
                player=player,
                division=divisions[p.division],
                external_id=p.id,
                late=p.late,
                dropped_after_round=p.dropped_after_round,
                disqualified=p.disqualified,
                flight=p.flight,
            )
            for player, p in zip(players, data.players, strict=True)
        ],
        batch_size=BATCH,
    )
    return {p.id: reg for p, reg in zip(data.players, regs, strict=True)}


def _structure(data: EventData, cut: int) -> str:
    """S-1 from the rounds when the file does not say it: a file whose rounds are all
    ``single-elimination`` is a standalone bracket; else Swiss, with a top cut if any
    division has one."""
    phases = {rd.phase for rd in data.rounds}
    if phases == {Phase.SINGLE_ELIMINATION}:
        return Structure.SINGLE_ELIMINATION
    return Structure.SWISS_TOP_CUT if cut else Structure.SWISS


def _status(event: Event) -> str:
    """The status of an event whose rounds were just written: finished when no pairing
    group has anything left to pair or enter (``pairings.procedures.event_done``: the
    pairing layer's next step of every group is done), else running — in its top cut once a
    top-cut round exists, else in the Swiss."""
    if event_done(event):
        return EventStatus.FINISHED
    if event.rounds.filter(phase=Phase.TOP_CUT).exists():
        return EventStatus.TOP_CUT
    return EventStatus.SWISS


@transaction.atomic
def event_import(*, data: EventData, by: Actor, progress: Progress | None = None) -> Event:
    """Create an event with its players, rounds and results from normalised data.

    Rounds are split by pairing group (R-5); top-cut matches go to the division's bracket group.
    ``day2_rounds`` of a two-day event is kept (P-D2-1); its ``swiss-day2`` rounds stay in
    the division's pairing group as Day 1's do. The slug is unique even when events of the same
    name are imported at once (``event_insert``). An event whose planned rounds are not
    all played (or whose last round has results still ``pending``) is imported running
    (status ``swiss`` or ``top-cut``) and is continued by the dashboard and ``pair``;
    otherwise it is ``finished``. Official records the live rules refuse but the file
    holds consistently are kept as recorded, their notes in ``Event.import_notes``
    (``formats.checks``).

    Raises InvalidInput naming the element or field at fault when the data fails
    ``formats.checks.check_event_data`` or ``_check_groups``; then nothing is written.
    ``progress`` is told each phase: checking, writing players, writing matches, saved.
    """
    report = progress or _no_progress
    n_players, n_matches = len(data.players), sum(len(rd.matches) for rd in data.rounds)
    total = n_players + n_matches
    report(f"Checking {n_players:,} players and {n_matches:,} matches", 0, total)
    try:
        notes = check_event_data(data)
        _check_groups(data)
    except FileRefused as e:
        raise InvalidInput(str(e)) from None
    cut = max((d.top_cut for d in data.divisions), default=0)
    event = event_insert(
        name=normalised_name(data.name),  # as the forms store names
        ruleset=data.ruleset,
        structure=data.structure or _structure(data, cut),
        swiss_rounds=max((d.swiss_rounds for d in data.divisions), default=0),
        # the ruleset's sizes (MP-SE-1 pod cuts included); each division keeps its own too
        top_cut_size=cut if cut in allowed_cuts(data.ruleset) else 0,
        third_place_playoff=data.third_place_playoff,
        day2_rounds=data.day2_rounds,
        date=data.date,
        location=normalised_name(data.location),
        options=data.options,
        source=data.source,
        sanction_id=data.sanction_id,
        organizer_pop_id=data.organizer_pop_id,
        status=EventStatus.REGISTRATION,
    )
    if notes:  # official records kept as recorded (formats.checks): shown to staff
        event.import_notes = [stored(note) for note in notes]  # in the reader's language
        event.save(update_fields=["import_notes"])
    divisions = {
        d.code: Division.objects.create(
            event=event,
            code=d.code,
            swiss_rounds=d.swiss_rounds,
            top_cut_size=d.top_cut,
            flights=d.flights,
        )
        for d in data.divisions
    }
    set_swiss_groups(event, {d.code: d.group for d in data.divisions})
    report(f"Writing {n_players:,} players", 0, total)
    regs = _create_registrations(event, data, divisions)
    report(f"Writing {n_matches:,} matches", n_players, total)
    matches = _create_rounds(event, data, regs)
    report("Saving", total, total)
    if data.rounds:
        event.status = _status(event)
        event.save(update_fields=["status"])
    audit_log(
        event=event,
        by=by,
        action="event.import",
        obj=event,
        new={
            "players": len(regs),
            "rounds": len(data.rounds),
            "matches": matches,
            "status": event.status,
            "notes": len(notes),
        },
    )
    if data.rounds:  # the public and staff pages show standings as soon as it commits
        standings_refresh_on_commit(event.pk)
    return event


@transaction.atomic
def event_import_tdf(*, content: bytes, by: Actor) -> Event:
    """Import an uploaded TOM ``.tdf`` file and make ``by`` its organiser.

    Raises InvalidInput naming the element at fault for a malformed or inconsistent file,
    or one over ``MAX_FILE_BYTES``; then nothing is written (docs/interfaces.md)."""
    if len(content) > MAX_FILE_BYTES:
        raise InvalidInput(file_too_large(len(content)))
    try:
        data = tdf_event_data(parse_tdf(content))
    except TdfError as e:
        raise InvalidInput(
            gettext_storable("This is not a TOM file we can read: %(e)s") % {"e": e}
        ) from None
    event = event_import(data=data, by=by)
    user = acting_user(by)
    if user is not None:
        EventStaff.objects.create(event=event, user=user, role=StaffRole.ORGANISER)
    return event


def file_too_large(size: int) -> str:
    """The message for a file over ``MAX_FILE_BYTES`` (upload pages, import commands)."""
    return gettext_storable(
        "The file is %(size).1f MB; files up to %(limit)s MB can be imported."
    ) % {
        "size": size / 2**20,
        "limit": MAX_FILE_BYTES // 2**20,
    }
