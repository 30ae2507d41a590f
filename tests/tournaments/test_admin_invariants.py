"""The admin cannot edit around the services and the audit trail, and
the database keeps every choices field to its choices."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.db import IntegrityError, models, transaction
from django.urls import reverse

from standings.models import StandingsSnapshot
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import (
    AuditEvent,
    Division,
    Event,
    EventStaff,
    EventStatus,
    Match,
    PairingGroup,
    PenaltyKind,
    PenaltyNote,
    Phase,
    Player,
    Registration,
    Round,
    RoundStatus,
)
from tournaments.services import Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def root_client(client):
    root = factories.user("root", is_staff=True, is_superuser=True)
    client.force_login(root)
    client.root = root
    return client


@pytest.fixture
def played(organiser, django_capture_on_commit_callbacks):
    """An 8-player event with round 1 complete (standings computed) and a penalty note."""
    ev = factories.event_with_players(8, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        for match in rnd.matches.order_by("table"):
            reg = match.seats.order_by("seat").first().registration
            services.slip_enter(match=match, result=Result.win(reg), by=organiser)
    services.penalty_note_add(
        event=ev, registration=reg, kind=PenaltyKind.WARNING, infraction="Slow play", by=organiser
    )
    return ev, rnd


def _admin_url(model: type[models.Model], view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.mark.parametrize(
    "model", [AuditEvent, PenaltyNote, Match, Round, Registration, StandingsSnapshot]
)
def test_audited_and_service_owned_records_are_read_only(root_client, played, model):
    obj = model.objects.first()
    assert obj is not None
    change = _admin_url(model, "change", obj.pk)
    page = root_client.get(change)
    assert page.status_code == 200  # shown, as a read-only view
    assert b'name="_save"' not in page.content
    before = {f.attname: getattr(obj, f.attname) for f in model._meta.concrete_fields}
    assert root_client.post(change, {}).status_code == 403
    assert root_client.post(_admin_url(model, "delete", obj.pk), {"post": "yes"}).status_code == 403
    assert root_client.get(_admin_url(model, "add")).status_code == 403
    obj.refresh_from_db()
    assert {f.attname: getattr(obj, f.attname) for f in model._meta.concrete_fields} == before


def test_bulk_delete_of_audit_rows_is_refused(root_client, played):
    ids = list(AuditEvent.objects.values_list("pk", flat=True))
    root_client.post(
        _admin_url(AuditEvent, "changelist"),
        {"action": "delete_selected", "_selected_action": ids, "post": "yes"},
    )
    assert AuditEvent.objects.count() == len(ids)


def test_round_actions_publish_and_start_through_the_services(root_client, organiser):
    ev = factories.event_with_players(8, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PAIRED)
    url = _admin_url(Round, "changelist")
    actions = dict(root_client.get(url).context["action_form"].fields["action"].choices)
    publish = next(k for k, v in actions.items() if v.startswith("Publish"))
    start = next(k for k, v in actions.items() if v.startswith("Start"))

    root_client.post(url, {"action": start, "_selected_action": [rnd.pk]})
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PAIRED  # a paired round cannot start: refused, unchanged

    root_client.post(url, {"action": publish, "_selected_action": [rnd.pk]})
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PUBLISHED
    row = AuditEvent.objects.filter(event=ev, action="round.published").get()
    assert row.actor == root_client.root
    assert (row.old, row.new) == ({"status": "paired"}, {"status": "published"})


def test_registration_drop_action_is_audited(root_client, organiser):
    ev = factories.event_with_players(4, by=organiser)
    reg = ev.registrations.order_by("pk").first()
    url = _admin_url(Registration, "changelist")
    actions = dict(root_client.get(url).context["action_form"].fields["action"].choices)
    drop = next(k for k, v in actions.items() if v.startswith("Drop"))
    root_client.post(url, {"action": drop, "_selected_action": [reg.pk]})
    reg.refresh_from_db()
    assert reg.dropped_after_round == 0
    row = AuditEvent.objects.get(event=ev, action="registration.drop")
    assert (row.actor, row.reason) == (root_client.root, "dropped in the admin")


def test_pokemon_event_cannot_store_a_pod_cut_in_the_admin(root_client, organiser):
    ev = factories.event(by=organiser, top_cut_size=8)
    page = root_client.get(_admin_url(Event, "change", ev.pk))
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "options"}
    data.update(
        {
            "options": "{}",
            "source": "{}",
            "top_cut_size": "7",
            "divisions-TOTAL_FORMS": "0",
            "divisions-INITIAL_FORMS": "0",
            "staff-TOTAL_FORMS": "0",
            "staff-INITIAL_FORMS": "0",
        }
    )
    data = {k: v for k, v in data.items() if not isinstance(v, (list, dict))}
    response = root_client.post(_admin_url(Event, "change", ev.pk), data)
    assert response.status_code == 200  # the form again, with the error
    errors = response.context["adminform"].form.errors
    assert errors["top_cut_size"] == [
        "A Play! Pokémon (2019 procedures) top cut has 0 (none) or 2, 4, 8, 16, 32, 64 players, not 7."
    ]
    ev.refresh_from_db()
    assert ev.top_cut_size == 8


def test_services_refuse_a_cut_the_ruleset_does_not_run(organiser):
    with pytest.raises(InvalidInput) as e:
        factories.event(by=organiser, top_cut_size=7)
    assert (
        str(e.value)
        == "A Play! Pokémon (2019 procedures) top cut has 0 (none) or 2, 4, 8, 16, 32, 64 players, not 7."
    )
    assert not Event.objects.exists()


def test_division_override_is_checked_against_the_ruleset(organiser):
    from django.core.exceptions import ValidationError

    ev = factories.event(by=organiser)
    division = ev.divisions.get()
    division.top_cut_size = 10
    with pytest.raises(ValidationError) as e:
        division.full_clean()
    assert e.value.message_dict["top_cut_size"] == [
        "A Play! Pokémon (2019 procedures) top cut has 0 (none) or 2, 4, 8, 16, 32, 64 players, not 10."
    ]
    division.top_cut_size = 16
    division.full_clean()  # a bracket size is fine


def _choices_fields():
    for model in [*apps.get_app_config("tournaments").get_models(), StandingsSnapshot]:
        for field in model._meta.concrete_fields:
            if field.choices:
                yield model, field


def test_every_choices_field_has_a_check_constraint():
    missing = []
    for model, field in _choices_fields():
        conditions = [
            str(c.condition)
            for c in model._meta.constraints
            if isinstance(c, models.CheckConstraint)
        ]
        if not any(f"'{field.name}__in'" in c for c in conditions):
            missing.append(f"{model.__name__}.{field.name}")
    assert missing == []


def test_the_database_refuses_a_value_outside_the_choices(played):
    ev, rnd = played
    rows = {
        Event: ev.pk,
        Division: ev.divisions.get().pk,
        Round: rnd.pk,
        Match: rnd.matches.first().pk,
        PenaltyNote: PenaltyNote.objects.get().pk,
        PairingGroup: rnd.group_id,
    }
    refused = []
    for model, field in _choices_fields():
        pk = rows.get(model)
        if pk is None:
            continue
        try:
            with transaction.atomic():
                model.objects.filter(pk=pk).update(**{field.name: "zz"})
        except IntegrityError:
            refused.append(f"{model.__name__}.{field.name}")
    assert sorted(refused) == [
        "Division.code",
        "Event.listing",
        "Event.ruleset",
        "Event.self_report",
        "Event.status",
        "Event.structure",
        "Match.kind",
        "Match.outcome",
        "Match.seating",
        "PairingGroup.phase",
        "PenaltyNote.kind",
        "Round.phase",
        "Round.status",
    ]
    assert Round.objects.get(pk=rnd.pk).phase == Phase.SWISS


# admin changes are audited in the event's trail; a running event's
# ruleset and structure are read-only.


def _form_data(form, prefix: str = "") -> dict[str, str]:
    """What a browser posts for ``form`` unchanged: each field's initial value as text."""
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if callable(value):
            value = value()
        key = f"{prefix}{name}"
        if value is None or value is False:
            continue
        if value is True:
            data[key] = "on"
        elif isinstance(value, (dict, list)):
            data[key] = json.dumps(value)
        elif isinstance(value, models.Model):
            data[key] = str(value.pk)
        elif hasattr(value, "isoformat"):
            data[key] = value.isoformat()
        else:
            data[key] = str(value)
    return data


def _event_post(client, ev: Event, **changes: str):
    """Post the event's admin change page with ``changes`` over its current values, the
    division and staff inlines posted unchanged."""
    url = _admin_url(Event, "change", ev.pk)
    page = client.get(url)
    data = _form_data(page.context["adminform"].form)
    for formset in page.context["inline_admin_formsets"]:
        fs = formset.formset
        data.update({f"{fs.prefix}-{k}": str(v) for k, v in fs.management_form.initial.items()})
        for form in fs.forms:
            data.update(_form_data(form, prefix=f"{form.prefix}-"))
    data.update(changes)
    return client.post(url, data)


def test_an_event_renamed_in_the_admin_writes_its_audit_row(root_client, organiser):
    ev = factories.event(by=organiser, name="Spring Cup")
    response = _event_post(root_client, ev, name="Spring Cup 2025")
    assert response.status_code == 302
    ev.refresh_from_db()
    assert ev.name == "Spring Cup 2025"
    row = AuditEvent.objects.get(event=ev, action="admin.change")
    assert (row.actor, row.object_type, row.object_id) == (root_client.root, "event", str(ev.pk))
    assert (row.old, row.new) == ({"name": "Spring Cup"}, {"name": "Spring Cup 2025"})


def test_saving_unchanged_in_the_admin_writes_no_audit_row(root_client, organiser):
    ev = factories.event(by=organiser)
    before = AuditEvent.objects.filter(event=ev).count()
    assert _event_post(root_client, ev).status_code == 302
    assert AuditEvent.objects.filter(event=ev).count() == before


def test_an_inline_division_change_is_audited(root_client, organiser):
    ev = factories.event(by=organiser)
    division = ev.divisions.get()
    prefix = "divisions-0-"
    response = _event_post(root_client, ev, **{f"{prefix}swiss_rounds": "5"})
    assert response.status_code == 302
    division.refresh_from_db()
    assert division.swiss_rounds == 5
    row = AuditEvent.objects.get(event=ev, action="admin.change")
    assert (row.object_type, row.object_id) == ("division", str(division.pk))
    assert (row.old, row.new) == ({"swiss_rounds": None}, {"swiss_rounds": 5})  # was: the event's


def test_a_player_renamed_in_the_admin_is_audited_in_each_of_their_events(root_client, organiser):
    first = factories.event_with_players(2, by=organiser, name="First Cup")
    second = factories.event(by=organiser, name="Second Cup")
    player = first.registrations.order_by("pk").first().player
    Registration.objects.create(event=second, player=player, division=second.divisions.get())
    assert second.registrations.get().player == player  # the same player row
    url = _admin_url(Player, "change", player.pk)
    data = _form_data(root_client.get(url).context["adminform"].form)
    response = root_client.post(url, {**data, "name": "Ana Renamed"})
    assert response.status_code == 302
    rows = AuditEvent.objects.filter(action="admin.change", object_type="player")
    assert sorted(r.event.name for r in rows) == ["First Cup", "Second Cup"]
    for row in rows:
        assert (row.actor, row.old, row.new) == (
            root_client.root,
            {"name": "Player 001"},
            {"name": "Ana Renamed"},
        )


def test_staff_added_and_removed_in_the_admin_are_audited(root_client, organiser):
    ev = factories.event(by=organiser)
    scorer = factories.user("scorer")
    add = _admin_url(EventStaff, "add")
    response = root_client.post(add, {"event": ev.pk, "user": scorer.pk, "role": "scorekeeper"})
    assert response.status_code == 302
    staff = EventStaff.objects.get(event=ev, user=scorer)
    added = AuditEvent.objects.get(event=ev, action="admin.add")
    assert added.old is None
    assert added.new == {"event": str(ev), "user": "scorer", "role": "scorekeeper"}

    delete = _admin_url(EventStaff, "delete", staff.pk)
    assert root_client.post(delete, {"post": "yes"}).status_code == 302
    assert not EventStaff.objects.filter(pk=staff.pk).exists()
    removed = AuditEvent.objects.get(event=ev, action="admin.delete")
    assert (removed.old, removed.new, removed.actor) == (added.new, None, root_client.root)


def test_a_running_events_ruleset_and_structure_are_read_only(root_client, played):
    ev, _ = played
    assert ev.status == EventStatus.SWISS
    form = root_client.get(_admin_url(Event, "change", ev.pk)).context["adminform"].form
    assert "ruleset" not in form.fields and "structure" not in form.fields
    response = _event_post(
        root_client, ev, ruleset="mtg", structure="single-elimination", name="Renamed"
    )
    assert response.status_code == 302
    ev.refresh_from_db()
    assert (ev.ruleset, ev.structure, ev.name) == ("pokemon", "swiss-top-cut", "Renamed")
    row = AuditEvent.objects.get(event=ev, action="admin.change")
    assert set(row.new) == {"name"}


def test_an_event_in_registration_keeps_its_ruleset_editable(root_client, organiser):
    ev = factories.event(by=organiser)
    assert ev.status == EventStatus.REGISTRATION
    form = root_client.get(_admin_url(Event, "change", ev.pk)).context["adminform"].form
    assert {"ruleset", "structure"} <= set(form.fields)
