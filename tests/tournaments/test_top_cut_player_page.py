"""A top-cut player's private page, in English and Spanish: the round is named by its
stage ("Open top cut · Semi-finals", "Final", beside it the "3rd/4th place playoff") at
their table, in the report card and in their earlier rounds; a cut opponent is shown
without a Swiss record; a finished event's page has no drop card (only a dropped
player's line that they dropped)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.models import Event, EventStatus, Match, Phase, Round, RoundStatus
from tournaments.selectors.public import table_for_player
from tournaments.selectors.rounds import round_for_staff
from tournaments.services import Result

pytestmark = pytest.mark.django_db
ES = {"HTTP_ACCEPT_LANGUAGE": "es"}


def _page(client, reg, **headers) -> str:
    response = client.get(
        reverse("public:player", args=[reg.event.slug, reg.report_token]), **headers
    )
    assert response.status_code == 200
    return response.content.decode()


def _report_card(body: str) -> str:
    start = body.index('<section id="report"')
    return body[start : body.index("</section>", start)]


def _semi_finals(event8, organiser) -> tuple[Round, list]:
    """A top 4 of event8's first four players: the semi-finals (round 4) started."""
    regs = list(event8.registrations.order_by("pk"))[:4]
    rnd = factories.round_in_order(
        event8,
        by=organiser,
        group="open-top-cut",
        phase=Phase.TOP_CUT,
        number=4,
        regs=[regs[0], regs[3], regs[1], regs[2]],
    )
    return rnd, regs


def _final_with_playoff(event8, organiser, semis, regs) -> Round:
    """Seeds 1 and 2 won their semi-finals: the final and, beside it, the 3rd/4th place
    playoff (round 5), started."""
    for m in Match.objects.filter(round=semis).order_by("table"):
        winner = regs[0] if m.table == 1 else regs[1]
        services.slip_enter(match=m, result=Result.win(winner), by=organiser)
    final = services.round_create(
        event=event8,
        group=factories.group_row(event8, "open-top-cut"),
        number=5,
        phase=Phase.TOP_CUT,
        by=organiser,
        tables=[(1, [regs[0], regs[1]], "final"), (2, [regs[3], regs[2]], "3rd/4th")],
        third_place=1,
    )
    services.round_publish(round=final, by=organiser)
    services.round_start(round=final, by=organiser)
    return final


def test_a_semi_finalist_reads_the_stage_not_a_round_number(client, event8, organiser):
    _, regs = _semi_finals(event8, organiser)
    body = _page(client, regs[0])
    assert '<small class="round-label"> Open top cut · Semi-finals</small>' in body
    card = _report_card(body)
    assert "<h2>Semi-finals <span" in card and "Round 4" not in card
    spanish = _page(client, regs[0], **ES)
    assert '<small class="round-label"> Corte de Abierta · Semifinales</small>' in spanish
    assert "<h2>Semifinales <span" in _report_card(spanish)


def test_a_cut_opponent_is_shown_without_a_swiss_record(client, event8, organiser):
    _, regs = _semi_finals(event8, organiser)
    card = _report_card(_page(client, regs[0]))
    assert "against <strong><bdi>Player 004</bdi></strong></p>" in card
    assert "0-0-0" not in card


def test_the_final_and_the_playoff_beside_it_are_named_as_such(client, event8, organiser):
    semis, regs = _semi_finals(event8, organiser)
    final = _final_with_playoff(event8, organiser, semis, regs)
    assert round_for_staff(final).stage_label == "Final"  # not "Semi-finals": 2 tables
    finalist = _page(client, regs[0])
    assert "<h2>Final <span" in _report_card(finalist)
    assert '<small class="round-label"> Open top cut · Final</small>' in finalist
    history = finalist[finalist.index('id="history"') :]
    assert '<span class="history-round">Semi-finals · table 1</span>' in history
    playoff = _page(client, regs[3])
    assert "<h2>3rd/4th place playoff <span" in _report_card(playoff)
    assert '<small class="round-label"> Open top cut · 3rd/4th place playoff</small>' in playoff
    spanish = _page(client, regs[3], **ES)
    assert "<h2>Partida por el 3.er/4.º puesto <span" in _report_card(spanish)
    assert '<span class="history-round">Semifinales · mesa 1</span>' in spanish


def test_one_table_read_names_the_stage_as_the_whole_round_does(
    event8, organiser, django_assert_num_queries
):
    """A player's own table (one table read) says "Final", as the bracket does; the
    stage's size is one query more than a Swiss round's 5."""
    semis, regs = _semi_finals(event8, organiser)
    _final_with_playoff(event8, organiser, semis, regs)
    with django_assert_num_queries(6):
        (entry,) = table_for_player(regs[0])
    assert entry.round_label == "Open top cut · Final"
    (entry,) = table_for_player(regs[2])
    assert entry.round_label == "Open top cut · 3rd/4th place playoff"


def test_a_finished_events_page_has_no_drop_card(client, event8, organiser):
    regs = list(event8.registrations.order_by("pk"))
    services.registration_drop(registration=regs[1], by=organiser)
    Event.objects.filter(pk=event8.pk).update(status=EventStatus.FINISHED)
    body = _page(client, regs[0])
    assert "Drop from the event" not in body and "The event is finished." not in body
    assert 'id="player-drop"' not in body
    spanish = _page(client, regs[0], **ES)
    assert 'id="player-drop"' not in spanish
    dropped = _page(client, regs[1])
    assert 'id="player-drop"' in dropped


def test_a_running_events_page_keeps_the_drop_card(client, event8):
    reg = event8.registrations.order_by("pk").first()
    body = _page(client, reg)
    assert 'id="player-drop"' in body
    assert reverse("public:player_drop", args=[event8.slug, reg.report_token]) in body


def test_the_swiss_rounds_keep_their_number(client, event8, organiser):
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.STARTED)
    reg = event8.registrations.order_by("pk").first()
    body = _page(client, reg)
    assert "<h2>Round 1 <span" in _report_card(body)
    assert '<small class="round-label"> Open · Round 1</small>' in body
    assert "<small>0-0-0</small>" in _report_card(body)  # a Swiss opponent's record
    assert rnd.number == 1
