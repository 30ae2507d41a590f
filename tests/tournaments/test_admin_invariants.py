"""Issue 10, part 5: the admin cannot edit around the services and the audit trail, and
the database keeps every choices field to its choices."""

from __future__ import annotations

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
    Match,
    PairingGroup,
    PenaltyKind,
    PenaltyNote,
    Phase,
    Registration,
    Round,
    RoundStatus,
)

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
            services.slip_enter(match=match, outcome="win", winner=reg, by=organiser)
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
        "Event.ruleset",
        "Event.self_report",
        "Event.status",
        "Event.structure",
        "Match.kind",
        "Match.outcome",
        "PairingGroup.phase",
        "PenaltyNote.kind",
        "Round.phase",
        "Round.status",
    ]
    assert Round.objects.get(pk=rnd.pk).phase == Phase.SWISS
