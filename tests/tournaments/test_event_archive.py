"""``export_event --archive`` / ``import_event``: a backup restored identically (
item 6; ``tournaments.services.archive``).

A lived event (three rounds, results, a drop, a penalty, a self-report, staff and an
invite, a deck list, a paused clock, audit rows, a standings snapshot) is archived,
deleted, and restored: every table's rows of the event are equal (compared as dicts
without row ids, each reference as the natural key of the row it names), the standings
JSON is identical and each player's private link still opens their page.
"""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import models
from django.urls import reverse

from interchange.services.archive import ARCHIVE_FORMAT, AUDIT_OBJECTS, LEFT_OUT, SECTIONS
from standings.models import StandingsSnapshot
from tests import factories
from tournaments import services
from tournaments.actors import Actor
from tournaments.models import (
    AuditEvent,
    CutSeed,
    Division,
    Event,
    EventStaff,
    JudgeCall,
    Match,
    MatchSeat,
    PairingGroup,
    PenaltyNote,
    Player,
    Registration,
    Round,
    SelfReport,
    StaffInvite,
)
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def win_first_seat(rnd: Round, by: Actor) -> None:
    for m in rnd.matches.order_by("table"):
        first = m.seats.order_by("seat")[0].registration
        services.slip_enter(match=m, by=by, result=services.Result.win(first))


def lived_event() -> Event:
    """Eight players, three Swiss rounds: rounds 1 and 2 complete, one player dropped
    after round 2, round 3 running with a self-report and a paused clock; a judge, a
    penalty, a deck list, a staff invite and a standings snapshot."""
    org = factories.user("org")
    ev = factories.event_with_players(8, by=org, awards_championship_points=True)
    judge = factories.staff(ev, "judge", "judy")
    regs = list(ev.registrations.order_by("pk"))
    services.decklist_record(registration=regs[0], by=org, text="4 Pikachu\n4 Raichu")
    r1 = factories.round_in_order(ev, by=org, number=1, why="random")
    win_first_seat(r1, org)
    order = [regs[i] for i in (0, 2, 1, 3, 4, 6, 5, 7)]
    r2 = factories.round_in_order(ev, by=org, number=2, regs=order)
    win_first_seat(r2, org)
    services.registration_drop(registration=regs[7], by=org, reason="went home")
    r3 = factories.round_in_order(ev, by=org, number=3, regs=[regs[i] for i in (0, 4, 1, 5, 2, 6)])
    m = r3.matches.get(table=1)
    services.report_submit(match=m, registration=regs[0], result=Result.win(regs[0]))
    services.round_clock_pause(round=r3, by=org, reason="deck check")
    services.penalty_note_add(
        event=ev, registration=regs[4], kind="warning", infraction="Slow play", by=judge,
        round_number=3, note="table 2",
    )  # fmt: skip
    call = services.judge_call_open(registration=regs[1], reason="rules")
    services.judge_call_resolve(call=call, by=judge, version=0, note="ruling", minutes=2)
    services.staff_invite_create(event=ev, role="scorekeeper", by=org, email="sk@example.org")
    StandingsSnapshot.objects.create(event=ev, label="After round 2", rounds_complete=2, data={})
    return Event.objects.get(pk=ev.pk)


# --- comparing rows without their ids ------------------------------------------------------


def natural(obj: models.Model | None) -> Any:
    """A key naming ``obj`` by what it is, not by its row id."""
    if obj is None:
        return None
    match obj:
        case Event():
            return ("event", obj.slug)
        case Division():
            return ("division", obj.code)
        case Player():
            return ("player", obj.name, obj.player_id)
        case Registration():
            return ("registration", obj.external_id)
        case PairingGroup():
            return ("group", obj.key)
        case Round():
            return ("round", obj.group.key, obj.number)
        case Match():
            seats = tuple(s.registration.external_id for s in obj.seats.order_by("seat"))
            return ("match", natural(obj.round), obj.table, seats)
        case EventStaff():
            return ("staff", obj.user.username, obj.role)
        case PenaltyNote():
            return ("penalty", obj.registration.external_id, obj.infraction, obj.at)
        case StaffInvite():
            return ("invite", obj.token_hash)
        case JudgeCall():
            return ("judge_call", natural(obj.match), obj.created_at)
        case SelfReport():
            return ("report", natural(obj.match), obj.registration.external_id)
        case _ if isinstance(obj, get_user_model()):
            return ("user", obj.get_username())
    raise AssertionError(f"no natural key for {type(obj).__name__}")


def as_dict(obj: models.Model) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in obj._meta.concrete_fields:
        if f.primary_key:
            continue
        out[f.name] = natural(getattr(obj, f.name)) if f.is_relation else getattr(obj, f.attname)
    for f in obj._meta.many_to_many:
        out[f.name] = sorted(natural(o) for o in getattr(obj, f.name).all())
    if isinstance(obj, AuditEvent) and obj.object_id and obj.object_type in AUDIT_OBJECTS:
        model = AUDIT_OBJECTS[obj.object_type]
        out["object_id"] = natural(model._default_manager.filter(pk=obj.object_id).first())
    return out


def tables(event: Event) -> dict[str, list]:
    """Every archived table's rows of ``event`` as dicts, in a stable order."""
    return {
        section: sorted((as_dict(o) for o in rows(event)), key=repr)
        for section, _, rows in SECTIONS
    }


def delete(event: Event) -> None:
    """The event and everything recorded at it, and its players, gone from the database."""
    players = list(Player.objects.filter(registrations__event=event).values_list("pk", flat=True))
    SelfReport.objects.filter(match__round__event=event).delete()
    PenaltyNote.objects.filter(event=event).delete()
    CutSeed.objects.filter(group__event=event).delete()
    MatchSeat.objects.filter(round__event=event).delete()
    Match.objects.filter(round__event=event).delete()
    Registration.objects.filter(event=event).delete()
    event.delete()
    Player.objects.filter(pk__in=players).delete()


# --- the tests ------------------------------------------------------------------------------


def test_an_archived_event_is_restored_identically_after_it_was_deleted(tmp_path, client):
    ev = lived_event()
    slug = ev.slug
    before = tables(ev)
    standings = json.loads(run("standings", slug, "--json"))
    links = dict(ev.registrations.values_list("external_id", "report_token"))
    assert all(
        before[s]
        for s in ("audit", "penalties", "self_reports", "staff", "staff_invites", "judge_calls")
    )
    assert any(r["dropped_after_round"] == 2 for r in before["registrations"])
    assert any(r["decklist"] for r in before["registrations"])
    assert any(r["clock_paused_at"] for r in before["rounds"])
    path = tmp_path / "backup.json"
    run("export_event", slug, str(path), "--archive")
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == ARCHIVE_FORMAT

    delete(ev)
    assert not Event.objects.filter(slug=slug).exists()
    assert not Registration.objects.exists() and not AuditEvent.objects.exists()

    assert run("import_event", str(path)).strip().splitlines()[-1] == slug
    again = Event.objects.get(slug=slug)
    assert tables(again) == before
    assert json.loads(run("standings", slug, "--json")) == standings
    assert dict(again.registrations.values_list("external_id", "report_token")) == links
    for reg in again.registrations.select_related("player"):
        page = client.get(reverse("public:player", args=[slug, reg.report_token]))
        assert page.status_code == 200
        assert reg.player.name in page.content.decode()


def test_an_archive_is_restored_beside_other_events_with_new_row_ids(tmp_path):
    """Restored next to other events (row ids taken): references and the audit trail's
    object ids point at the restored rows."""
    ev = lived_event()
    before = tables(ev)
    path = tmp_path / "backup.json"
    run("export_event", ev.slug, str(path), "--archive")
    delete(ev)
    org = get_user_model().objects.get(username="org")
    other = factories.event_with_players(6, by=org, name="Other Cup")
    factories.round_in_order(other, by=None, number=1)
    run("import_event", str(path))
    again = Event.objects.get(slug=ev.slug)
    assert again.pk != ev.pk and tables(again) == before
    assert other.registrations.count() == 6  # the other event is untouched
    for row in AuditEvent.objects.filter(event=again, object_type="match"):
        assert Match.objects.get(pk=row.object_id).round.event == again


def test_a_slug_clash_is_refused_with_the_reason_and_writes_nothing(tmp_path):
    ev = lived_event()
    path = tmp_path / "backup.json"
    run("export_event", ev.slug, str(path), "--archive")
    counts = {m.__name__: m.objects.count() for _, m, _ in SECTIONS}
    with pytest.raises(CommandError) as refused:
        run("import_event", str(path))
    assert str(refused.value) == (
        f"{path}: slug: an event with the address {ev.slug!r} is already here (Test Cup);"
        " delete it first or restore into another database"
    )
    assert {m.__name__: m.objects.count() for _, m, _ in SECTIONS} == counts


def test_a_private_link_already_used_here_is_refused(tmp_path):
    ev = lived_event()
    path = tmp_path / "backup.json"
    run("export_event", ev.slug, str(path), "--archive")
    Event.objects.filter(pk=ev.pk).update(slug="renamed")
    counts = {m.__name__: m.objects.count() for _, m, _ in SECTIONS}
    with pytest.raises(
        CommandError, match=r"a player's private link is already used by the event 'renamed'"
    ):
        run("import_event", str(path))
    assert {m.__name__: m.objects.count() for _, m, _ in SECTIONS} == counts


def test_a_missing_username_is_refused_unless_create_users(tmp_path):
    ev = lived_event()
    path = tmp_path / "backup.json"
    run("export_event", ev.slug, str(path), "--archive")
    delete(ev)
    get_user_model().objects.filter(username="judy").delete()
    events, users = Event.objects.count(), get_user_model().objects.count()
    with pytest.raises(CommandError) as refused:
        run("import_event", str(path))
    assert str(refused.value) == (
        f"{path}: users: no account named judy here; create them first or restore with"
        " --create-users"
    )
    assert (Event.objects.count(), get_user_model().objects.count()) == (events, users)

    run("import_event", str(path), "--create-users")
    judy = get_user_model().objects.get(username="judy")
    assert not judy.has_usable_password() and not judy.is_staff and not judy.is_superuser
    again = Event.objects.get(slug=ev.slug)
    assert EventStaff.objects.filter(event=again, user=judy, role="judge").exists()
    assert PenaltyNote.objects.get(event=again).by == judy


def test_plain_export_event_stays_the_portable_event_json(tmp_path):
    ev = lived_event()
    path = tmp_path / "plain.json"
    run("export_event", ev.slug, str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "matchslip.event.v1"
    assert "audit" not in doc and "slug" not in doc
    slug = run("import_event", str(path)).strip().splitlines()[-1]
    assert slug != ev.slug  # a copy under a new slug, not a restore


def test_every_model_holding_event_rows_is_archived_or_deliberately_left_out():
    """A model added later with rows of an event must be archived or listed in LEFT_OUT
    (with the reason) — else an archive would silently lose it."""
    archived = {m for _, m, _ in SECTIONS}
    event_rows = archived - {Player}
    for model in apps.get_models():
        refers = any(
            f.is_relation and f.many_to_one and f.related_model in event_rows
            for f in model._meta.concrete_fields
        )
        if refers:
            assert model in archived or model in LEFT_OUT, model.__name__


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["registrations"][0].update(shoe_size=44),
            r"registrations\[0\]: unknown fields shoe_size",
        ),
        (
            lambda d: d["matches"][0].update(winner_id=10**9),
            r"matches\[0\]\.winner_id: 1000000000 is not a row of the archive",
        ),
        (lambda d: d.update(event=[]), r"^\S+: event: expected exactly one event$"),
        (
            lambda d: d["rounds"][0].update(started_at="yesterday"),
            r"rounds\[0\]\.started_at: 'yesterday' cannot be read",
        ),
    ],
)
def test_a_broken_archive_is_refused_naming_the_row_and_writes_nothing(tmp_path, change, message):
    ev = lived_event()
    path = tmp_path / "backup.json"
    run("export_event", ev.slug, str(path), "--archive")
    delete(ev)
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")
    counts = {m.__name__: m.objects.count() for _, m, _ in SECTIONS}
    with pytest.raises(CommandError, match=message):
        run("import_event", str(path))
    assert {m.__name__: m.objects.count() for _, m, _ in SECTIONS} == counts
    assert not Event.objects.exists()
