"""A player's private page on a phone: place, record and points from
the latest standings, earlier rounds with opponents and results, the current table, and
report messages that say whom they are about."""

from __future__ import annotations

import pytest
from django.urls import reverse

from standings.models import StandingsSnapshot
from tests import factories
from tournaments import services
from tournaments.models import Match, RoundStatus
from tournaments.selectors.reports import PastRound, page_for_player, standing_for_player
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def _link(reg) -> str:
    return reverse("public:player", args=[reg.event.slug, reg.report_token])


def _body(client, reg) -> str:
    response = client.get(_link(reg))
    assert response.status_code == 200
    return response.content.decode()


def test_May_who_has_not_reported_is_asked_to_report_not_told_to_wait(client):
    event, rnd, regs = factories.started_round()
    misty, may = regs[0], regs[1]
    for reg, name in ((misty, "Misty Elm"), (may, "May Oak")):
        reg.player.name = name
        reg.player.save()
    match = Match.objects.get(round=rnd, table=1)
    services.report_submit(match=match, registration=misty, result=Result.win(misty))
    body = _body(client, may)
    assert "Misty Elm reported: <strong>Misty Elm wins, you lose</strong>" in body
    assert 'data-waiting="me"' in body
    assert "Misty Elm has reported. Now report yours" in body
    assert "Waiting for your opponent" not in body
    # Misty, who has reported, waits for May
    body = _body(client, misty)
    assert "You reported: <strong>you win</strong>" in body
    assert 'data-waiting="opponent"' in body and "Waiting for your opponent" in body


def _play(rnd, by) -> None:
    """Every table of ``rnd`` won by its first seat; the round completes."""
    for m in Match.objects.filter(round=rnd).prefetch_related("seats__registration"):
        first = sorted(m.seats.all(), key=lambda s: s.seat)[0].registration
        services.slip_enter(match=m, result=Result.win(first), by=by)


def test_a_player_reads_place_record_points_opponents_and_table(client, organiser, event8):
    regs = list(event8.registrations.order_by("pk"))
    r1 = factories.round_in_order(event8, by=organiser, status=RoundStatus.STARTED)
    _play(r1, organiser)
    order = [regs[i] for i in (0, 2, 4, 6, 1, 3, 5, 7)]  # winners meet winners
    r2 = factories.round_in_order(
        event8, by=organiser, status=RoundStatus.STARTED, number=2, regs=order
    )
    _play(r2, organiser)
    StandingsSnapshot.objects.create(
        event=event8,
        label="After round 2",
        rounds_complete=2,
        data={
            "ruleset": "pokemon",
            "divisions": {
                "open": [
                    {"place": i + 1, "player": r.external_id, "name": r.player.name,
                     "match_points": mp, "record": rec, "tiebreakers": {}}
                    for i, (r, mp, rec) in enumerate(
                        [(regs[0], 6, "2-0-0"), (regs[4], 6, "2-0-0"), (regs[2], 3, "1-1-0")]
                    )
                ]
            },
        },
    )  # fmt: skip
    order3 = [regs[i] for i in (2, 5, 0, 4, 1, 6, 3, 7)]
    factories.round_in_order(
        event8, by=organiser, status=RoundStatus.PUBLISHED, number=3, regs=order3
    )
    player = regs[2]  # Player 003: beat Player 004, lost to Player 001; table 1 now
    assert standing_for_player(player).place == 3
    assert page_for_player(player).history == (
        PastRound(1, 2, ("Player 004",), "Won", "won", "Round 1"),
        PastRound(2, 1, ("Player 001",), "Lost", "lost", "Round 2"),
    )
    body = _body(client, player)
    assert 'data-place="3" data-record="1-1-0" data-points="3"' in body
    assert "3 of 3" in body
    assert '<strong class="table-big">1</strong>' in body
    assert "against</span>" not in body and "<strong><bdi>Player 006</bdi></strong>" in body
    assert 'data-round="1" data-result="won"' in body and "<strong>Player 004</strong>" in body
    assert 'data-round="2" data-result="lost"' in body and "<strong>Player 001</strong>" in body


def test_no_standings_yet_shows_no_place(client, event8):
    reg = event8.registrations.first()
    assert standing_for_player(reg) is None
    assert 'id="standing"' not in _body(client, reg)


def test_before_round_1_the_page_says_not_seated_once(client, event8):
    """Found on a newcomer's walk: the table box and the report box both said it."""
    reg = event8.registrations.order_by("pk").first()
    page = client.get(reverse("public:player", args=[event8.slug, reg.report_token]))
    body = page.content.decode()
    assert body.count("not seated") == 1
    assert "Your result is reported here once your round has started." in body
