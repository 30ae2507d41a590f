"""Best-of-1 Magic events: the slip's game-record check and buttons
follow the event's ``match_length`` option, which is fixed once a result is recorded
(M-MATCH-1, M-PTS-1)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import Event, Match, Outcome, Phase, StaffRole
from tournaments.services import Result

pytestmark = pytest.mark.django_db

BO1 = {"match_length": "best-of-1"}


def started(options=BO1, players=5):
    """Round 1 (started) of an mtg event with ``options``, tables in registration order
    and the last player's bye."""
    org = factories.user("org")
    ev = factories.event_with_players(players, by=org, ruleset="mtg", options=options)
    regs = list(ev.registrations.order_by("pk"))
    tables = [(t + 1, regs[2 * t : 2 * t + 2], "random") for t in range(players // 2)]
    tables += [(None, [regs[-1]], "bye")] if players % 2 else []
    rnd = services.round_create(
        event=ev,
        group=factories.group_row(ev, "open"),
        number=1,
        phase=Phase.SWISS,
        by=org,
        tables=tables,
    )
    services.round_publish(round=rnd, by=org)
    services.round_start(round=rnd, by=org)
    return ev, rnd, regs, org


def table(rnd, n):
    return Match.objects.get(round=rnd, table=n)


@pytest.mark.parametrize(
    ("games", "outcome", "seat"),
    [((1, 0, 0), Outcome.WIN, 0), ((0, 1, 0), Outcome.WIN, 1), ((0, 0, 1), Outcome.DRAW, None)],
)
def test_M_MATCH_1_a_best_of_1_slip_records_one_game(games, outcome, seat):
    _, rnd, regs, org = started()
    m = services.slip_enter(match=table(rnd, 1), result=Result.of(games=games), by=org)
    assert (m.outcome, m.winner_id, m.games) == (
        outcome,
        None if seat is None else regs[seat].pk,
        list(games),
    )


@pytest.mark.parametrize("games", [(2, 0, 0), (2, 1, 0), (1, 1, 1), (0, 0, 3)])
def test_M_MATCH_1_a_best_of_3_score_is_refused_in_a_best_of_1_event(games):
    _, rnd, _, org = started()
    with pytest.raises(InvalidInput, match="Impossible game score .*(best-of-1|reach 1)"):
        services.slip_enter(match=table(rnd, 1), result=Result.of(games=games), by=org)
    assert table(rnd, 1).outcome == Outcome.PENDING


def test_M_PTS_1_a_best_of_1_bye_counts_one_game_won():
    ev, rnd, regs, org = started()
    services.slip_enter(match=table(rnd, 1), result=Result.of(games=(1, 0, 0)), by=org)
    services.slip_enter(match=table(rnd, 2), result=Result.of(games=(0, 1, 0)), by=org)
    rows = {r["player"]: r for r in standings_data(ev)["divisions"]["open"]}
    # The bye: 3 game points of 1 game, GW% 100 % (best-of-3 would count 6 of 2, also 1).
    assert rows[regs[-1].external_id]["record"] == "1-0-0"
    assert rows[regs[-1].external_id]["exact"]["gw"] == "1"


def test_the_round_page_offers_best_of_1_quick_scores(client):
    ev, rnd, _, _ = started()
    client.force_login(factories.staff(ev, StaffRole.SCOREKEEPER))
    body = client.get(reverse("staff:round", args=[ev.slug, rnd.pk])).content.decode()
    for label in ("Player 001 1-0", "Player 002 1-0", "Draw 0-0-1", "Other score"):
        assert f">{label}<" in body
    for label in ("Player 001 2-0", "Player 001 2-1", "Draw 1-1-1", "Intentional draw 0-0-3"):
        assert f">{label}<" not in body


def test_a_best_of_3_event_keeps_its_buttons(client):
    ev, rnd, _, _ = started(options={})
    client.force_login(factories.staff(ev, StaffRole.SCOREKEEPER))
    body = client.get(reverse("staff:round", args=[ev.slug, rnd.pk])).content.decode()
    assert ">Player 001 2-1<" in body and ">Player 001 1-0<" not in body


def test_the_player_reports_a_best_of_1_score_on_their_private_link(client):
    ev, rnd, regs, _ = started()
    page = client.get(reverse("public:player", args=[ev.slug, regs[0].report_token]))
    body = page.content.decode()
    assert ">You 1-0<" in body and ">You 2-0<" not in body


def test_the_match_length_is_fixed_once_a_result_is_recorded():
    ev, rnd, _, org = started(options={})
    # Before any result: best-of-3 → best-of-1 and back (the bye is no result).
    services.event_settings_update(event=ev, by=org, options=BO1)
    services.event_settings_update(event=ev, by=org, options={"match_length": "best-of-3"})
    services.slip_enter(match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org)
    with pytest.raises(InvalidInput, match="Match length cannot change once a result"):
        services.event_settings_update(event=ev, by=org, options=BO1)
    assert Event.objects.get(pk=ev.pk).options["match_length"] == "best-of-3"
    # Saving the options form again with the same length still works.
    services.event_settings_update(
        event=ev, by=org, options={"match_length": "best-of-3", "mwp_floor": "1/3"}
    )
    assert Event.objects.get(pk=ev.pk).options["mwp_floor"] == "1/3"
