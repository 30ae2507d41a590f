"""Draft, listed and unlisted events, and deleting one: the New-event
page makes drafts, which stay off the home page and answer 404 to all but their staff
until published; a listed event can be unlisted and listed again; a draft or an event
without results can be deleted once its name is typed."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from tests import factories
from tournaments import public_pages, services
from tournaments.errors import InvalidInput
from tournaments.models import (
    AuditEvent,
    Event,
    EventListing,
    EventStatus,
    PenaltyKind,
    Player,
    Registration,
    StaffRole,
)
from tournaments.services import Result

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = ["event", "pairings", "bracket", "timer", "standings", "standings_help"]


def create(client, name: str = "Spring Cup") -> Event:
    """An event made on the New-event page by the signed-in user."""
    client.post(
        reverse("staff:event_create"),
        {
            "name": name,
            "ruleset": "pokemon",
            "structure": "swiss",
            "divisions": "open",
            "swiss_rounds": 3,
            "top_cut_size": 0,
        },
    )
    return Event.objects.get(name=name)


def statuses(client, event: Event) -> set[int]:
    return {client.get(reverse(f"public:{p}", args=[event.slug])).status_code for p in PUBLIC_PAGES}


def test_the_new_event_page_makes_a_draft_off_the_home_page(client, organiser):
    client.force_login(organiser)
    draft = create(client)
    assert draft.listing == EventListing.DRAFT
    mine = client.get(reverse("home"))
    assert [e.name for e in mine.context["my_events"]] == ["Spring Cup"]
    assert mine.context["events"] == []
    assert '<span class="badge">Draft</span>' in mine.content.decode()
    client.logout()
    assert "Spring Cup" not in client.get(reverse("home")).content.decode()


def test_a_drafts_public_pages_answer_404_except_to_its_staff(client, organiser):
    client.force_login(organiser)
    draft = create(client)
    assert statuses(client, draft) == {200}  # the organiser previews them
    judge = factories.staff(draft, StaffRole.JUDGE)
    client.force_login(judge)
    assert statuses(client, draft) == {200}
    client.force_login(factories.user("stranger"))
    assert statuses(client, draft) == {404}
    client.logout()
    assert statuses(client, draft) == {404}


def test_factory_and_imported_events_are_listed(client, event8):
    assert event8.listing == EventListing.LISTED
    assert statuses(client, event8) == {200}
    assert "Test Cup" in client.get(reverse("home")).content.decode()


def test_publishing_from_the_dashboard_lists_the_event(client, organiser):
    client.force_login(organiser)
    draft = create(client)
    dashboard = reverse("staff:dashboard", args=[draft.slug])
    assert 'id="draft-notice"' in client.get(dashboard).content.decode()
    response = client.post(
        reverse("staff:event_listing", args=[draft.slug]),
        {"listing": "listed", "next": "dashboard"},
    )
    assert response.url == dashboard
    draft.refresh_from_db()
    assert draft.listing == EventListing.LISTED
    assert 'id="draft-notice"' not in client.get(dashboard).content.decode()
    audit = AuditEvent.objects.get(event=draft, action="event.listing")
    assert (audit.old, audit.new, audit.actor) == (
        {"listing": "draft"},
        {"listing": "listed"},
        organiser,
    )
    client.logout()
    assert statuses(client, draft) == {200}
    assert "Spring Cup" in client.get(reverse("home")).content.decode()


def test_only_organisers_publish(client, organiser):
    client.force_login(organiser)
    draft = create(client)
    client.force_login(factories.staff(draft, StaffRole.SCOREKEEPER))
    response = client.post(reverse("staff:event_listing", args=[draft.slug]), {"listing": "listed"})
    assert response.status_code == 403
    draft.refresh_from_db()
    assert draft.listing == EventListing.DRAFT


def test_a_finished_event_is_unlisted_and_its_links_keep_working(client, event8, organiser):
    services.event_finish(event=event8, by=organiser)
    client.force_login(organiser)
    url = reverse("staff:event_listing", args=[event8.slug])
    client.post(url, {"listing": "unlisted"})
    event8.refresh_from_db()
    assert (event8.status, event8.listing) == (EventStatus.FINISHED, EventListing.UNLISTED)
    client.logout()
    assert "Test Cup" not in client.get(reverse("home")).content.decode()
    assert statuses(client, event8) == {200}
    client.force_login(organiser)
    assert (
        "List on the home page again"
        in client.get(reverse("staff:team", args=[event8.slug])).content.decode()
    )
    client.post(url, {"listing": "listed"})
    event8.refresh_from_db()
    assert event8.listing == EventListing.LISTED


@pytest.mark.parametrize(
    ("start", "wanted", "message"),
    [
        (EventListing.LISTED, "listed", "The event is listed: it cannot be made listed."),
        (EventListing.DRAFT, "unlisted", "The event is draft: it cannot be made unlisted."),
        (EventListing.LISTED, "draft", "'draft' is not a listing: use listed or unlisted."),
    ],
)
def test_a_wrong_listing_move_is_refused_and_changes_nothing(
    event, organiser, start, wanted, message
):
    Event.objects.filter(pk=event.pk).update(listing=start)
    with pytest.raises(InvalidInput) as refused:
        services.event_listing_set(event=event, listing=wanted, by=organiser)
    assert str(refused.value) == message
    event.refresh_from_db()
    assert event.listing == start
    assert not AuditEvent.objects.filter(action="event.listing").exists()


def test_a_draft_is_deleted_once_its_name_is_typed(client, organiser):
    client.force_login(organiser)
    draft = create(client)
    services.registration_add(event=draft, name="Only Here", player_id="1", by=organiser)
    url = reverse("staff:event_delete", args=[draft.slug])
    wrong = client.post(url, {"confirm": "spring cup"}, follow=True)
    assert "Type the event&#x27;s name, Spring Cup, exactly to delete it." in wrong.content.decode()
    assert Event.objects.filter(pk=draft.pk).exists()
    response = client.post(url, {"confirm": " Spring Cup "})
    assert response.url == reverse("home")
    assert not Event.objects.filter(pk=draft.pk).exists()
    assert (
        not Registration.objects.exists() and not Player.objects.filter(name="Only Here").exists()
    )
    assert not AuditEvent.objects.filter(event_id=draft.pk).exists()


def test_a_listed_event_without_results_is_deleted_with_its_round_and_notes(organiser):
    ev, rnd, regs = factories.started_round(4)
    services.penalty_note_add(
        event=ev,
        registration=regs[0],
        kind=PenaltyKind.WARNING,
        infraction="Slow play",
        by=ev.staff.get().user,
    )
    other = factories.event(by=ev.staff.get().user, name="Other Cup")
    services.registration_add(event=other, name=regs[1].player.name, player_id="x", by=None)
    shared = Registration.objects.get(event=other).player
    assert services.event_deletable(ev)
    assert services.event_delete(event=ev, confirm="Test Cup", by=None) == "Test Cup"
    assert not Event.objects.filter(pk=ev.pk).exists()
    assert Player.objects.filter(pk=shared.pk).exists()  # still in another event
    assert Player.objects.filter(registrations__isnull=True).count() == 0


def test_an_event_with_results_cannot_be_deleted(client, organiser):
    ev, rnd, regs = factories.started_round(4, username="boss")
    boss = ev.staff.get().user
    services.slip_enter(match=rnd.matches.get(table=1), result=Result.win(regs[0]), by=boss)
    assert services.event_has_results(ev) and not services.event_deletable(ev)
    client.force_login(boss)
    team = client.get(reverse("staff:team", args=[ev.slug])).content.decode()
    assert "The event has results, so it cannot be deleted." in team
    page = client.post(
        reverse("staff:event_delete", args=[ev.slug]), {"confirm": "Test Cup"}, follow=True
    )
    assert "Test Cup has results, so it cannot be deleted." in page.content.decode()
    assert Event.objects.filter(pk=ev.pk).exists()


def test_a_draft_with_results_can_still_be_deleted(organiser):
    ev, rnd, regs = factories.started_round(4, username="boss")
    boss = ev.staff.get().user
    services.slip_enter(match=rnd.matches.get(table=1), result=Result.win(regs[0]), by=boss)
    Event.objects.filter(pk=ev.pk).update(listing=EventListing.DRAFT)
    ev.refresh_from_db()
    services.event_delete(event=ev, confirm="Test Cup", by=boss)
    assert not Event.objects.filter(pk=ev.pk).exists()


def test_a_draft_is_never_prebuilt(client, organiser):
    ev, rnd, regs = factories.started_round(4, username="boss")
    Event.objects.filter(pk=ev.pk).update(listing=EventListing.DRAFT)
    public_pages.public_pages_forget(ev.slug)
    assert public_pages.public_pages_build(ev.pk, public_pages.generation(ev.pk)) is None
    public_pages.public_pages_fill(ev.slug)
    assert public_pages.pointer(ev.slug) is None
    assert client.get(reverse("public:pairings", args=[ev.slug])).status_code == 404
    Event.objects.filter(pk=ev.pk).update(listing=EventListing.LISTED)
    assert client.get(reverse("public:pairings", args=[ev.slug])).status_code == 200
    assert public_pages.pointer(ev.slug) is not None  # built on the first public request


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_existing_event_listed():
    before = [("tournaments", "0024_checkin")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("tournaments", "Event")
    old.objects.create(slug="old-cup", name="Old Cup")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Event.objects.get(slug="old-cup").listing == EventListing.LISTED
