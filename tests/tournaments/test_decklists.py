"""Deck lists and deck checks (P-POST-5), and the staff Disqualify button."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.services import cut_players, round_pair
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import AuditEvent, Outcome, Phase, StaffRole
from tournaments.services import Result
from tournaments.services.decklists import deck_check_pick, decklists_missing

pytestmark = pytest.mark.django_db


def cp_event(organiser, n=8, **kwargs):
    return factories.event_with_players(n, by=organiser, awards_championship_points=True, **kwargs)


def play(rnd, by):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        winner = m.seats.order_by("seat").first().registration
        services.slip_enter(match=m, result=Result.win(winner), by=by)


def test_P_POST_5_decklist_received_with_optional_text_and_missing_list(organiser):
    ev = cp_event(organiser, 4)
    a, b, c, d = ev.registrations.order_by("pk")
    services.decklist_record(registration=a, by=organiser)
    services.decklist_record(registration=b, by=organiser, text="  4 Pikachu\n60 cards ")
    b.refresh_from_db()
    assert b.decklist == "4 Pikachu\n60 cards" and b.decklist_received_at is not None
    services.registration_drop(registration=d, by=organiser)
    assert decklists_missing(ev) == [c]  # dropped players are not chased
    row = AuditEvent.objects.filter(action="decklist.record").latest("pk")
    assert (row.object_id, row.new) == (str(b.pk), {"received": True, "chars": 18})


def test_P_POST_5_deck_lists_only_where_the_event_collects_them(organiser, event8):
    """A Championship Point event collects them by default; another event only when its
    organiser turns them on."""
    reg = event8.registrations.first()
    with pytest.raises(InvalidInput, match="This event does not collect deck lists"):
        services.decklist_record(registration=reg, by=organiser)


def test_P_POST_5_random_deck_check_is_drawn_from_a_stored_seed_and_replays(organiser):
    ev = cp_event(organiser, 8)
    with pytest.raises(InvalidInput, match="once round 1 is paired"):
        services.deck_check_draw(event=ev, count=2, by=organiser)
    round_pair(event=ev, group="open", by=organiser, seed=3)
    dropped = ev.registrations.order_by("pk").first()
    services.registration_drop(registration=dropped, by=organiser)
    picked = services.deck_check_draw(event=ev, count=3, by=organiser, seed=42)
    row = AuditEvent.objects.get(action="decklist.check")
    assert row.round_number == 1
    assert row.new == {"seed": 42, "count": 3, "players": [r.pk for r in picked]}
    active = [str(r.pk) for r in ev.registrations.exclude(pk=dropped.pk)]
    assert [int(i) for i in deck_check_pick(active, 3, 42)] == row.new["players"]  # I-1
    assert dropped not in picked and len(set(picked)) == 3


def test_P_POST_5_top_cut_warns_about_a_cut_player_without_a_deck_list(organiser):
    ev = cp_event(organiser, 8, swiss_rounds=1, top_cut_size=2)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    play(r1, organiser)
    (cut,) = round_pair(event=ev, group="open", by=organiser)
    first, second = (s.registration for s in cut.matches.get().seats.order_by("seat"))
    assert cut.phase == Phase.TOP_CUT
    assert cut.notes == [
        f"Deck list missing for 2 cut player(s): {first.player.name}, {second.player.name}."
    ]
    services.decklist_record(registration=first, by=organiser)
    services.decklist_record(registration=second, by=organiser)
    services.round_discard(round=cut, by=organiser)
    (cut,) = round_pair(event=ev, group="open", by=organiser)  # the same cut, lists in
    assert cut.notes == []


def test_P_POST_5_decklists_page_lists_missing_and_the_players_page_flags_them(client, organiser):
    ev = cp_event(organiser, 2)
    a, b = ev.registrations.order_by("pk")
    client.force_login(organiser)
    url = reverse("staff:decklist_record", args=[ev.slug, a.pk])
    assert client.post(url, {"text": "list", "next": "players"}).url.endswith("/players/")
    body = client.get(reverse("staff:decklists", args=[ev.slug])).content.decode()
    assert "1 missing" in body and f'id="decklist-{b.pk}"' in body
    players = client.get(reverse("staff:players", args=[ev.slug])).content.decode()
    assert players.count('class="flag warn">missing') == 1


def test_disqualify_button_for_judges_needs_a_reason(client, organiser, event8):
    judge = factories.staff(event8, StaffRole.JUDGE)
    reg = event8.registrations.first()
    client.force_login(judge)
    url = reverse("staff:disqualify", args=[event8.slug])
    client.post(url, {"registration": reg.pk, "reason": ""})
    reg.refresh_from_db()
    assert not reg.disqualified
    client.post(url, {"registration": reg.pk, "reason": "Cheating, fraud", "confirm": "on"})
    reg.refresh_from_db()
    assert reg.disqualified
    row = AuditEvent.objects.get(action="registration.disqualify")
    assert (row.actor, row.reason) == (judge, "Cheating, fraud")
    body = client.get(reverse("staff:penalties", args=[event8.slug])).content.decode()
    section = body.split('id="disqualify"')[1].split("</section>")[0]
    assert f'<option value="{reg.pk}">' not in section and "Player 002" in section


def test_disqualify_from_the_penalties_page_asks_for_the_confirmation_too(client, event8):
    """One disqualify view: from the penalties page, as from the player's page, a post
    without the ticked confirmation disqualifies nobody and shows the player's page with
    the form (its reason kept, the confirmation asked)."""
    judge = factories.staff(event8, StaffRole.JUDGE)
    reg = event8.registrations.first()
    client.force_login(judge)
    body = client.get(reverse("staff:penalties", args=[event8.slug])).content.decode()
    section = body.split('id="disqualify"')[1].split("</section>")[0]
    assert 'name="confirm" required' in section and "Yes, disqualify this player" in section
    url = reverse("staff:disqualify", args=[event8.slug])
    response = client.post(url, {"registration": reg.pk, "reason": "Marked cards"})
    assert response.status_code == 200
    page = response.content.decode()
    assert reverse("staff:player_disqualify", args=[event8.slug, reg.pk]) in page
    assert 'value="Marked cards"' in page and "This field is required." in page
    reg.refresh_from_db()
    assert not reg.disqualified
    assert not AuditEvent.objects.filter(action="registration.disqualify").exists()


def test_P_POST_5_dashboard_shows_the_cut_players_deck_lists_before_the_cut(client, organiser):
    ev = cp_event(organiser, 8, swiss_rounds=1, top_cut_size=2)
    client.force_login(organiser)
    dashboard = reverse("staff:dashboard", args=[ev.slug])
    assert 'id="cut-decklists"' not in client.get(dashboard).content.decode()  # Swiss first
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    play(r1, organiser)
    (first, second) = cut_players(ev, ev.divisions.get())
    services.decklist_record(registration=first, by=organiser)
    section = client.get(dashboard).content.decode().split('id="cut-decklists"')[1]
    section = section.split("</section>")[0]
    assert f"{first.player.name} <small>(list received)</small>" in section
    assert f'{second.player.name} <span class="flag warn">no deck list</span>' in section
