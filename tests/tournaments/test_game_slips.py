"""Best-of-3 match slips with game records (M-MATCH-1, M-PTS-1, M-SE-2) for the ``mtg``
and ``bo3-wins-against`` rulesets: the service and the staff round page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput, ResultConflict
from tournaments.models import AuditEvent, Match, Outcome, Phase, RoundStatus, StaffRole
from tournaments.services import Result

HX = {"HX-Request": "true"}


def bo3_round(ruleset="mtg", *, players=4, phase=Phase.SWISS, username="org"):
    """Round 1 (started) of a ``ruleset`` event, tables in registration order."""
    organiser = factories.user(username)
    ev = factories.event_with_players(players, by=organiser, ruleset=ruleset)
    regs = list(ev.registrations.order_by("pk"))
    tables = [(t + 1, regs[2 * t : 2 * t + 2], "random") for t in range(players // 2)]
    if players % 2:
        tables.append((None, [regs[-1]], "bye"))
    rnd = services.round_create(
        event=ev,
        group=factories.group_row(ev, "open"),
        number=1,
        phase=phase,
        by=organiser,
        tables=tables,
    )
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    return ev, rnd, regs, organiser


def table(rnd, n):
    return Match.objects.get(round=rnd, table=n)


def snapshot(match):
    m = Match.objects.get(pk=match.pk)
    return (m.outcome, m.winner_id, m.games, m.version)


# --- service --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("games", "outcome", "winner_seat"),
    [
        ((2, 0, 0), Outcome.WIN, 0),
        ((2, 1, 0), Outcome.WIN, 0),
        ((1, 2, 0), Outcome.WIN, 1),
        ((0, 2, 0), Outcome.WIN, 1),
        ((1, 0, 2), Outcome.WIN, 0),  # more game wins wins at time
        ((1, 1, 1), Outcome.DRAW, None),
        ((0, 0, 3), Outcome.DRAW, None),  # intentional draw
    ],
)
def test_M_MATCH_1_outcome_and_winner_follow_from_the_games(games, outcome, winner_seat):
    _, rnd, regs, org = bo3_round()
    m = services.slip_enter(match=table(rnd, 1), result=Result.of(games=games), by=org)
    assert m.outcome == outcome
    assert m.winner_id == (None if winner_seat is None else regs[winner_seat].pk)
    assert m.games == list(games)  # stored in seat order
    entry = AuditEvent.objects.get(action="result.enter")
    assert entry.new["games"] == list(games) and entry.old["games"] is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("games", "why"),
    [
        ((3, 0, 0), "nobody wins more than 2 games"),
        ((2, 2, 0), "both players cannot reach 2"),
        ((2, 1, 1), "at most 3"),
        ((0, 0, 0), "no game recorded"),
        ((-1, 2, 0), "cannot be negative"),
    ],
)
def test_M_MATCH_1_impossible_scores_are_refused_and_change_nothing(games, why):
    _, rnd, _, org = bo3_round()
    before = snapshot(table(rnd, 1))
    with pytest.raises(InvalidInput, match=why):
        services.slip_enter(match=table(rnd, 1), result=Result.of(games=games), by=org)
    assert snapshot(table(rnd, 1)) == before
    assert not AuditEvent.objects.filter(action__startswith="result.").exists()


@pytest.mark.django_db
def test_M_MATCH_1_a_winner_with_fewer_games_is_refused():
    _, rnd, regs, org = bo3_round()
    m = table(rnd, 1)
    with pytest.raises(InvalidInput, match="does not give that result"):
        services.slip_enter(match=m, result=Result.win(regs[0], (1, 2, 0)), by=org)
    assert snapshot(m)[0] == Outcome.PENDING


@pytest.mark.django_db
def test_M_MATCH_1_a_win_without_games_is_refused_in_best_of_3_rulesets():
    _, rnd, regs, org = bo3_round()
    with pytest.raises(InvalidInput, match="Enter the game score"):
        services.slip_enter(match=table(rnd, 1), result=Result.win(regs[0]), by=org)


@pytest.mark.django_db
def test_R_6_a_double_loss_needs_no_games_but_cannot_have_any():
    _, rnd, _, org = bo3_round()
    with pytest.raises(InvalidInput, match="no game score"):
        services.slip_enter(
            match=table(rnd, 1),
            result=Result.of(outcome=Outcome.DOUBLE_LOSS, games=(0, 0, 3)),
            by=org,
        )
    m = services.slip_enter(
        match=table(rnd, 1), result=Result.of(outcome=Outcome.DOUBLE_LOSS), by=org
    )
    assert (m.outcome, m.games) == (Outcome.DOUBLE_LOSS, None)


@pytest.mark.django_db
def test_M_SE_2_a_drawn_single_elimination_match_is_refused():
    _, rnd, _, org = bo3_round(phase=Phase.TOP_CUT)
    for games in ((1, 1, 1), (0, 0, 3)):
        with pytest.raises(InvalidInput, match="cannot end in a draw"):
            services.slip_enter(match=table(rnd, 1), result=Result.of(games=games), by=org)
    assert (
        services.slip_enter(match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org).outcome
        == "win"
    )


@pytest.mark.django_db
def test_W_TIME_1_bo3_wins_against_has_no_drawn_matches():
    _, rnd, _, org = bo3_round("bo3-wins-against")
    with pytest.raises(InvalidInput, match="no drawn matches"):
        services.slip_enter(match=table(rnd, 1), result=Result.of(games=(1, 1, 1)), by=org)
    assert (
        services.slip_enter(match=table(rnd, 1), result=Result.of(games=(1, 0, 0)), by=org).outcome
        == "win"
    )


@pytest.mark.django_db
def test_pokemon_2009_has_no_ties_and_takes_no_games():
    _, rnd, regs, org = bo3_round("pokemon-2009")
    with pytest.raises(InvalidInput, match="Ties are not possible"):
        services.slip_enter(match=table(rnd, 1), result=Result.draw(), by=org)
    with pytest.raises(InvalidInput, match="not games"):
        services.slip_enter(match=table(rnd, 1), result=Result.of(games=(2, 0, 0)), by=org)
    m = services.slip_enter(match=table(rnd, 1), result=Result.win(regs[0]), by=org)
    assert m.outcome == Outcome.WIN and m.games is None


@pytest.mark.django_db
def test_M_MATCH_1_a_double_submitted_score_changes_nothing():
    _, rnd, _, org = bo3_round()
    m = services.slip_enter(
        match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org, version=0
    )
    again = services.slip_enter(
        match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org, version=0
    )
    assert again.version == m.version == 1
    assert AuditEvent.objects.filter(action="result.enter").count() == 1


@pytest.mark.django_db
def test_M_MATCH_1_a_stale_score_with_another_result_conflicts():
    _, rnd, _, org = bo3_round()
    services.slip_enter(match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org, version=0)
    with pytest.raises(ResultConflict, match="just recorded as Player 001 wins 2-1-0"):
        services.slip_enter(
            match=table(rnd, 1), result=Result.of(games=(2, 0, 0)), by=org, version=0
        )
    assert table(rnd, 1).games == [2, 1, 0]


@pytest.mark.django_db
def test_M_PTS_1_a_bye_is_recorded_at_once_and_scores_as_a_2_0_win():
    ev, rnd, regs, org = bo3_round(players=5)
    bye = Match.objects.get(round=rnd, outcome=Outcome.BYE)
    for t, games in ((1, (2, 0, 0)), (2, (1, 2, 0))):
        services.slip_enter(match=table(rnd, t), result=Result.of(games=games), by=org)
    from standings.services import standings_data

    rows = {r["player"]: r for r in standings_data(ev)["divisions"]["open"]}
    bye_row = rows[bye.seats.get().registration.external_id]
    assert bye_row["match_points"] == 3
    assert bye_row["record"] == "1-0-0"


@pytest.mark.django_db
def test_M_MATCH_1_a_judge_corrects_the_games_with_a_reason():
    ev, rnd, regs, org = bo3_round()
    m = services.slip_enter(match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org)
    judge = factories.staff(ev, StaffRole.JUDGE)
    with pytest.raises(InvalidInput, match="nobody wins more than 2"):
        services.result_correct(
            match=m, result=Result.of(games=(3, 0, 0)), reason="slip misread", by=judge
        )
    c = services.result_correct(
        match=m, result=Result.of(games=(1, 2, 0)), reason="slip misread", by=judge
    )
    assert (c.match.winner_id, c.match.games) == (regs[1].pk, [1, 2, 0])
    audit = AuditEvent.objects.get(action="result.correct")
    assert audit.old["games"] == [2, 1, 0] and audit.new["games"] == [1, 2, 0]


@pytest.mark.django_db
def test_M_MATCH_1_player_reports_of_a_best_of_3_match_need_the_game_score():
    ev, rnd, regs, org = bo3_round()
    m = table(rnd, 1)
    with pytest.raises(InvalidInput, match="Enter the game score"):
        services.report_submit(match=m, registration=regs[0], result=Result.win(regs[0]))
    assert not m.reports.exists()
    services.report_submit(match=m, registration=regs[0], result=Result.of(games=(2, 1, 0)))
    state = services.report_submit(match=m, registration=regs[1], result=Result.of(games=(2, 1, 0)))
    assert state == "recorded"
    assert (table(rnd, 1).winner_id, table(rnd, 1).games) == (regs[0].pk, [2, 1, 0])


# --- the staff round page -------------------------------------------------------------


@pytest.fixture
def scorekeeper_client(client):
    ev, rnd, regs, org = bo3_round()
    client.force_login(factories.staff(ev, StaffRole.SCOREKEEPER))
    return client, ev, rnd, regs


def post_games(client, ev, match, data, htmx=True):
    body = {"version": match.version, **data}
    return client.post(
        reverse("staff:match_result", args=[ev.slug, match.pk]), body, headers=HX if htmx else {}
    )


@pytest.mark.django_db
def test_M_MATCH_1_the_round_page_offers_quick_scores_and_free_entry(scorekeeper_client):
    client, ev, rnd, _ = scorekeeper_client
    body = client.get(reverse("staff:round", args=[ev.slug, rnd.pk])).content.decode()
    for label in (
        "Player 001 2-0",
        "Player 001 2-1",
        "Player 002 2-1",
        "Player 002 2-0",
        "Draw 1-1-1",
        "Intentional draw 0-0-3",
        "Other score",
    ):
        assert f">{label}<" in body
    assert reverse("staff:match_result", args=[ev.slug, table(rnd, 1).pk]) in body
    assert 'value="p1"' not in body  # no result-only buttons: games are required
    assert "Time called" not in body  # W-TIME-1 applies to bo3-wins-against only


@pytest.mark.django_db
def test_M_MATCH_1_a_quick_score_swaps_the_row_and_the_missing_counter(scorekeeper_client):
    client, ev, rnd, regs = scorekeeper_client
    response = post_games(client, ev, table(rnd, 1), {"score": "2-1-0"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Player 001 wins 2-1-0" in body
    assert 'id="round-progress"' in body and 'hx-swap-oob="true"' in body
    assert '<strong id="results-missing">1</strong>' in body
    assert table(rnd, 1).winner_id == regs[0].pk


@pytest.mark.django_db
def test_M_MATCH_1_free_entry_records_an_intentional_draw(scorekeeper_client):
    client, ev, rnd, _ = scorekeeper_client
    response = post_games(client, ev, table(rnd, 2), {"wins_1": 0, "wins_2": 0, "draws": 3})
    assert response.status_code == 200
    assert (table(rnd, 2).outcome, table(rnd, 2).games) == (Outcome.DRAW, [0, 0, 3])
    assert "Draw 0-0-3" in response.content.decode()  # a Magic drawn match is a draw


@pytest.mark.django_db
def test_M_MATCH_1_an_impossible_score_is_refused_on_the_page_with_the_reason(scorekeeper_client):
    client, ev, rnd, _ = scorekeeper_client
    before = snapshot(table(rnd, 1))
    response = post_games(client, ev, table(rnd, 1), {"wins_1": 3, "wins_2": 0})
    assert response.status_code == 422
    assert "Impossible game score 3-0-0: nobody wins more than 2 games" in response.content.decode()
    assert snapshot(table(rnd, 1)) == before


@pytest.mark.django_db
def test_a_game_form_without_a_score_is_refused(scorekeeper_client):
    client, ev, rnd, _ = scorekeeper_client
    response = post_games(client, ev, table(rnd, 1), {"wins_1": "", "wins_2": ""})
    assert response.status_code == 422
    assert "Choose a score" in response.content.decode()


@pytest.mark.django_db
def test_M_MATCH_1_a_stale_game_form_shows_what_was_recorded(scorekeeper_client):
    client, ev, rnd, _ = scorekeeper_client
    stale = table(rnd, 1)
    post_games(client, ev, stale, {"score": "2-0-0"})
    response = post_games(client, ev, stale, {"score": "0-2-0"})
    assert response.status_code == 409
    assert "This match was just recorded as Player 001 wins 2-0-0." in response.content.decode()
    again = post_games(client, ev, stale, {"score": "2-0-0"})  # a double click: harmless
    assert again.status_code == 200 and table(rnd, 1).version == 1


@pytest.mark.django_db
def test_without_javascript_a_game_slip_redirects_to_the_round(scorekeeper_client):
    client, ev, rnd, _ = scorekeeper_client
    response = post_games(client, ev, table(rnd, 1), {"score": "2-0-0"}, htmx=False)
    assert response.status_code == 302
    assert response.url.endswith(f"#match-{table(rnd, 1).pk}")


@pytest.mark.django_db
@pytest.mark.parametrize("role", [StaffRole.JUDGE, None])
def test_only_operators_enter_game_slips(client, role):
    ev, rnd, _, _ = bo3_round()
    user = factories.staff(ev, role) if role else factories.user("stranger")
    client.force_login(user)
    response = post_games(client, ev, table(rnd, 1), {"score": "2-0-0"}, htmx=False)
    assert response.status_code == 403
    assert table(rnd, 1).outcome == Outcome.PENDING


@pytest.mark.django_db
def test_a_complete_round_changes_its_games_only_through_a_correction(scorekeeper_client):
    client, ev, rnd, _ = scorekeeper_client
    post_games(client, ev, table(rnd, 1), {"score": "2-0-0"})
    post_games(client, ev, table(rnd, 2), {"score": "2-0-0"})
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    response = post_games(client, ev, table(rnd, 1), {"score": "0-2-0"})
    assert response.status_code == 422 and "a judge corrects" in response.content.decode()


@pytest.mark.django_db
def test_M_MATCH_1_the_judges_correction_page_takes_the_games(client):
    ev, rnd, regs, org = bo3_round()
    m = services.slip_enter(match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org)
    client.force_login(factories.staff(ev, StaffRole.JUDGE))
    page = client.get(reverse("staff:corrections", args=[ev.slug]) + f"?round={rnd.pk}")
    assert 'name="wins_1"' in page.content.decode()
    url = reverse("staff:result_correct", args=[ev.slug, m.pk])
    refused = client.post(
        url, {"wins_1": 3, "wins_2": 0, "draws": 0, "version": 1, "reason": "r"}, follow=True
    )
    assert "nobody wins more than 2 games" in refused.content.decode()
    assert table(rnd, 1).games == [2, 1, 0]
    client.post(url, {"wins_1": 1, "wins_2": 2, "draws": 0, "version": 1, "reason": "misread"})
    assert (table(rnd, 1).games, table(rnd, 1).winner_id) == ([1, 2, 0], regs[1].pk)


@pytest.mark.django_db
def test_M_MATCH_1_staff_resolve_a_disputed_best_of_3_report_with_the_games(client):
    ev, rnd, regs, org = bo3_round()
    m = table(rnd, 1)
    services.report_submit(match=m, registration=regs[0], result=Result.of(games=(2, 1, 0)))
    services.report_submit(match=m, registration=regs[1], result=Result.of(games=(2, 0, 0)))
    client.force_login(factories.staff(ev, StaffRole.SCOREKEEPER))
    page = client.get(reverse("staff:disputes", args=[ev.slug])).content.decode()
    assert 'name="wins_1"' in page and "Accept:" not in page  # disputed: staff decide
    accept = client.post(reverse("staff:report_accept", args=[ev.slug, m.pk]), follow=True)
    assert "resolve it as a dispute" in accept.content.decode()
    client.post(
        reverse("staff:dispute_resolve", args=[ev.slug, m.pk]),
        {"wins_1": 2, "wins_2": 1, "draws": 0, "version": 0, "reason": "slip 2-1"},
    )
    assert (table(rnd, 1).winner_id, table(rnd, 1).games) == (regs[0].pk, [2, 1, 0])
