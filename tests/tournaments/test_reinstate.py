"""Undoing a drop: a player dropped by mistake comes back, paired again
from their next round, until that round is paired (then the drop is final, P-SW-6)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.services import round_pair
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import AuditEvent, MatchSeat, StaffRole
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def play_round_1(organiser, players: int = 6):
    event = factories.event_with_players(players, by=organiser)
    rnd = factories.round_in_order(event, by=organiser)
    for m in rnd.matches.prefetch_related("seats"):
        services.slip_enter(
            match=m,
            result=Result.win(m.seats.order_by("pk")[0].registration),
            by=organiser,
        )
    return event, list(event.registrations.order_by("pk"))


def test_a_drop_undone_before_the_next_round_is_paired_is_paired_again(organiser):
    event, regs = play_round_1(organiser)
    services.registration_drop(registration=regs[5], by=organiser, reason="no-show")
    back = services.registration_reinstate(
        registration=regs[5], by=organiser, reason="dropped the wrong Ash"
    )
    assert back.dropped_after_round is None and not back.dropped
    row = AuditEvent.objects.get(event=event, action="registration.reinstate")
    assert row.old == {"dropped_after_round": 1} and row.new == {"dropped_after_round": None}
    assert row.reason == "dropped the wrong Ash" and row.actor == organiser
    (rnd2,) = round_pair(event=event, group="open", by=organiser, seed=3)
    assert MatchSeat.objects.filter(round=rnd2, registration=regs[5]).exists()


def test_once_the_next_round_is_paired_the_drop_is_final(organiser):
    event, regs = play_round_1(organiser)
    services.registration_drop(registration=regs[5], by=organiser)
    round_pair(event=event, group="open", by=organiser, seed=3)
    with pytest.raises(InvalidInput, match="round 2 is already paired without them"):
        services.registration_reinstate(registration=regs[5], by=organiser)
    regs[5].refresh_from_db()
    assert regs[5].dropped_after_round == 1
    assert not AuditEvent.objects.filter(action="registration.reinstate").exists()


def test_a_disqualified_or_active_player_cannot_be_reinstated(organiser):
    event, regs = play_round_1(organiser)
    with pytest.raises(InvalidInput, match="has not dropped"):
        services.registration_reinstate(registration=regs[0], by=organiser)
    services.registration_drop(registration=regs[1], by=organiser)
    services.registration_disqualify(registration=regs[1], by=organiser, reason="Cheating")
    with pytest.raises(InvalidInput, match="disqualification stands"):
        services.registration_reinstate(registration=regs[1], by=organiser)


def test_staff_undo_a_drop_from_the_players_page(client, organiser):
    event, regs = play_round_1(organiser)
    services.registration_drop(registration=regs[2], by=organiser)
    judge = factories.staff(event, StaffRole.JUDGE, username="jules")
    url = reverse("staff:player_reinstate", args=[event.slug, regs[2].pk])
    client.force_login(judge)
    assert client.post(url).status_code == 403  # operating the event: organisers, scorekeepers
    client.force_login(organiser)
    players = client.get(reverse("staff:players", args=[event.slug])).content.decode()
    assert url in players and "Undo drop" in players
    page = client.post(url, {"reason": "came back from lunch"}, follow=True).content.decode()
    assert "Player 003 is back in the event." in page
    regs[2].refresh_from_db()
    assert not regs[2].dropped


def test_nobody_drops_once_the_event_is_finished(client, organiser):
    """Found on a walk: a finished event's player page still offered "Drop", and it worked."""
    event, regs = play_round_1(organiser, players=4)
    services.event_finish(event=event, by=organiser)
    reg = regs[0]
    with pytest.raises(InvalidInput, match="The event is finished"):
        services.registration_drop(registration=reg, by=reg)
    page = client.get(reverse("public:player", args=[event.slug, reg.report_token])).content
    assert reverse("public:player_drop", args=[event.slug, reg.report_token]).encode() not in page
    reg.refresh_from_db()
    assert not reg.dropped


def test_a_same_name_player_is_told_apart_in_the_answer_and_on_their_page(client, organiser):
    """Found on a newcomer's walk: "Noah Williams is back in the event." did not say which
    one, nor did the heading of each one's private page."""
    event = factories.event(by=organiser)
    noah = [
        services.registration_add(event=event, name="Noah Williams", player_id=pid, by=organiser)
        for pid in ("3100009", "3100010")
    ]
    services.registration_drop(registration=noah[0], by=organiser)
    client.force_login(organiser)
    url = reverse("staff:player_reinstate", args=[event.slug, noah[0].pk])
    page = client.post(url, follow=True).content.decode()
    assert "Noah Williams #0009 is back in the event." in page
    mine = client.get(reverse("public:player", args=[event.slug, noah[1].report_token]))
    assert "<h1><bdi>Noah Williams #0010</bdi></h1>" in mine.content.decode()
