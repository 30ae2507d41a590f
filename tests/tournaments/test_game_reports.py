"""Best-of-3 rulesets beyond the staff slip (M-MATCH-1, M-SE-2, R-6): players' own
reports with game records, judges' corrections (double loss and every valid record)
and printed match slips with a games box."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests import factories
from tests.tournaments.test_game_slips import bo3_round, snapshot, table
from tournaments import services
from tournaments.errors import (
    AgreedResultOverride,
    InvalidInput,
    ReportOverride,
    ResultConflict,
)
from tournaments.models import AuditEvent, Outcome, Phase, SelfReport, SelfReportMode, StaffRole
from tournaments.services import Result

HX = {"HX-Request": "true"}
VALID = [(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (1, 0, 2), (1, 1, 1), (0, 0, 3)]


def report(match, reg, games):
    return services.report_submit(match=match, registration=reg, result=Result.of(games=games))


def hold(ev):
    ev.self_report = SelfReportMode.HOLD
    ev.save(update_fields=["self_report"])


# --- self-reports: the service ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("games", VALID)
def test_M_MATCH_1_two_agreeing_game_reports_are_recorded_with_the_games(games):
    _, rnd, regs, _ = bo3_round()
    m = table(rnd, 1)
    assert report(m, regs[0], games) == "waiting"
    assert report(m, regs[1], games) == "recorded"
    m = table(rnd, 1)
    assert m.games == list(games)
    winner = {0: regs[0].pk, 1: regs[1].pk}.get(0 if games[0] > games[1] else 1)
    assert m.winner_id == (winner if games[0] != games[1] else None)
    submitted = AuditEvent.objects.get(action="report.submit", actor_registration=regs[0])
    assert submitted.new["games"] == list(games)
    entered = AuditEvent.objects.get(action="result.enter")
    assert entered.actor_registration == regs[1] and entered.new["games"] == list(games)


@pytest.mark.django_db
def test_M_MATCH_1_reports_with_the_same_winner_but_other_games_are_a_dispute(client):
    ev, rnd, regs, _ = bo3_round()
    m = table(rnd, 1)
    report(m, regs[0], (2, 1, 0))
    assert report(m, regs[1], (2, 0, 0)) == "disputed"
    assert table(rnd, 1).outcome == Outcome.PENDING
    client.force_login(factories.staff(ev, StaffRole.JUDGE))
    page = client.get(reverse("staff:disputes", args=[ev.slug])).content.decode()
    assert "Player 001 wins 2-1-0" in page and "Player 001 wins 2-0-0" in page
    assert "disputed" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("games", "why"), [((3, 0, 0), "more than 2 games"), ((2, 2, 0), "cannot reach 2")]
)
def test_M_MATCH_1_impossible_reported_scores_are_refused_by_the_slip_validator(games, why):
    _, rnd, regs, _ = bo3_round()
    with pytest.raises(InvalidInput, match=why):
        report(table(rnd, 1), regs[0], games)
    assert not SelfReport.objects.exists()


@pytest.mark.django_db
def test_M_SE_2_players_cannot_report_a_drawn_playoff_match():
    _, rnd, regs, _ = bo3_round(phase=Phase.TOP_CUT)
    for games in ((1, 1, 1), (0, 0, 3)):
        with pytest.raises(InvalidInput, match="cannot end in a draw"):
            report(table(rnd, 1), regs[0], games)
    assert report(table(rnd, 1), regs[0], (1, 2, 0)) == "waiting"


@pytest.mark.django_db
def test_W_TIME_1_bo3_wins_against_players_cannot_report_a_draw():
    _, rnd, regs, _ = bo3_round("bo3-wins-against")
    with pytest.raises(InvalidInput, match="no drawn matches"):
        report(table(rnd, 1), regs[0], (1, 1, 1))


@pytest.mark.django_db
def test_held_game_reports_wait_for_a_staff_click_that_records_the_games(client):
    ev, rnd, regs, _ = bo3_round()
    hold(ev)
    m = table(rnd, 1)
    report(m, regs[0], (1, 2, 0))
    assert report(m, regs[1], (1, 2, 0)) == "held"
    client.force_login(factories.staff(ev, StaffRole.SCOREKEEPER))
    page = client.get(reverse("staff:disputes", args=[ev.slug])).content.decode()
    assert "Accept: Player 002 wins 2-1-0" in page
    client.post(reverse("staff:report_accept", args=[ev.slug, m.pk]))
    assert (table(rnd, 1).winner_id, table(rnd, 1).games) == (regs[1].pk, [1, 2, 0])


@pytest.mark.django_db
def test_a_player_changes_their_game_report_until_the_opponent_confirms_it():
    ev, rnd, regs, _ = bo3_round()
    hold(ev)
    m = table(rnd, 1)
    report(m, regs[0], (2, 1, 0))
    assert report(m, regs[0], (2, 0, 0)) == "waiting"
    change = AuditEvent.objects.get(action="report.change")
    assert (change.old["games"], change.new["games"]) == ([2, 1, 0], [2, 0, 0])
    assert report(m, regs[1], (2, 0, 0)) == "held"
    with pytest.raises(ResultConflict, match=r"opponent confirmed your report \(Player 001 wins"):
        report(m, regs[0], (2, 1, 0))


@pytest.mark.django_db
def test_a_misclicked_slip_against_one_game_report_asks_what_she_reported(client):
    """A Magic table: Inés reported a 2-0 win; the scorekeeper's slip says Kofi won 2-0.
    The round page asks before anything is recorded, and records it once confirmed."""
    organiser = factories.user("org")
    ev = factories.event(by=organiser, ruleset="mtg")
    ines, kofi = (
        services.registration_add(event=ev, name=name, player_id=pid, by=organiser)
        for name, pid in (("Inés Ruiz", "3001"), ("Kofi Mensah", "3002"))
    )
    rnd = services.round_create(
        event=ev,
        group=factories.group_row(ev, "open"),
        number=1,
        phase=Phase.SWISS,
        by=organiser,
        tables=[(2, [ines, kofi], "random")],
    )
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    m = table(rnd, 2)
    assert report(m, ines, (2, 0, 0)) == "waiting"
    client.force_login(organiser)
    url = reverse("staff:match_result", args=[ev.slug, m.pk])
    slip = {"score": "0-2-0", "version": m.version}
    asked = client.post(url, slip, headers=HX)
    assert asked.status_code == 409
    assert (
        "Inés Ruiz reported: Inés Ruiz wins 2-0-0. Record Kofi Mensah wins 2-0-0 anyway?"
        in asked.content.decode()
    )
    assert table(rnd, 2).outcome == Outcome.PENDING
    done = client.post(url, {**slip, "confirm_override": "1"}, headers=HX)
    assert done.status_code == 200
    m = table(rnd, 2)
    assert (m.winner_id, m.games) == (kofi.pk, [0, 2, 0])
    override = AuditEvent.objects.get(action="report.override")
    assert override.old[ines.external_id]["games"] == [2, 0, 0]


@pytest.mark.django_db
def test_a_slip_with_the_reported_winner_but_other_games_is_asked_too():
    _, rnd, regs, org = bo3_round()
    m = table(rnd, 1)
    report(m, regs[0], (2, 1, 0))
    with pytest.raises(ReportOverride, match=r"reported: Player 001 wins 2-1-0\. Record "):
        services.slip_enter(match=m, result=Result.of(games=(2, 0, 0)), by=org)
    services.slip_enter(match=m, result=Result.of(games=(2, 1, 0)), by=org)  # as reported
    assert table(rnd, 1).games == [2, 1, 0]


@pytest.mark.django_db
def test_a_staff_entry_overrides_game_reports_and_the_override_is_logged():
    ev, rnd, regs, org = bo3_round()
    hold(ev)
    m = table(rnd, 1)
    report(m, regs[0], (2, 1, 0))
    report(m, regs[1], (2, 1, 0))
    with pytest.raises(AgreedResultOverride, match="reported Player 001 wins 2-1-0"):
        services.slip_enter(match=m, result=Result.of(games=(2, 0, 0)), by=org)  # needs a reason
    services.slip_enter(
        match=m, result=Result.of(games=(2, 0, 0)), by=org, reason="game 2 was a loss"
    )
    override = AuditEvent.objects.get(action="report.override")
    assert override.old[regs[0].external_id]["games"] == [2, 1, 0]
    assert override.new["games"] == [2, 0, 0]
    assert table(rnd, 1).games == [2, 0, 0]
    with pytest.raises(ResultConflict, match="recorded as Player 001 wins 2-0-0"):
        report(m, regs[0], (2, 1, 0))
    assert report(m, regs[0], (2, 0, 0)) == "recorded"  # the same result: harmless


# --- self-reports: the private page ----------------------------------------------------


def page_url(reg, name="public:player"):
    return reverse(name, args=[reg.event.slug, reg.report_token])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "draws"), [("mtg", True), ("bo3-wins-against", False)], ids=["mtg", "bo3"]
)
def test_M_MATCH_1_the_private_page_offers_the_game_score(client, ruleset, draws):
    _, rnd, regs, _ = bo3_round(ruleset)
    body = client.get(page_url(regs[1])).content.decode()
    for label in ("You 2-0", "You 2-1", "Player 001 2-1", "Player 001 2-0", "Other score"):
        assert f">{label}<" in body
    assert (">Draw 1-1-1<" in body, ">Intentional draw 0-0-3<" in body) == (draws, draws)
    assert "Games won: you – Player 001" in body and 'value="me"' not in body


@pytest.mark.django_db
def test_M_MATCH_1_each_player_reports_from_their_own_side_stored_in_seat_order(client):
    _, rnd, regs, _ = bo3_round()
    url = page_url(regs[1], "public:player_report")
    m = table(rnd, 1)
    response = client.post(url, {"match": m.pk, "score": "2-1-0"}, headers=HX)  # seat 2 won
    assert response.status_code == 200 and "Your opponent now reports" in response.content.decode()
    mine = SelfReport.objects.get(registration=regs[1])
    assert (mine.winner_id, mine.games) == (regs[1].pk, [1, 2, 0])
    client.post(
        page_url(regs[0], "public:player_report"),
        {"match": m.pk, "wins_1": 1, "wins_2": 2, "draws": 0},
    )
    assert (table(rnd, 1).winner_id, table(rnd, 1).games) == (regs[1].pk, [1, 2, 0])


@pytest.mark.django_db
def test_M_MATCH_1_an_impossible_score_on_the_private_page_is_refused_with_the_reason(client):
    _, rnd, regs, _ = bo3_round()
    url = page_url(regs[0], "public:player_report")
    m = table(rnd, 1)
    response = client.post(url, {"match": m.pk, "wins_1": 3, "wins_2": 0}, headers=HX)
    assert response.status_code == 422
    assert "nobody wins more than 2 games" in response.content.decode()
    empty = client.post(url, {"match": m.pk}, headers=HX)
    assert empty.status_code == 422 and "Choose a score" in empty.content.decode()
    assert not SelfReport.objects.exists()


# --- corrections -----------------------------------------------------------------------


def correct(client, ev, m, data):
    url = reverse("staff:result_correct", args=[ev.slug, m.pk])
    body = {"version": table(m.round, m.table).version, "reason": "slip misread", **data}
    return client.post(url, body, follow=True)


@pytest.fixture
def judge_client(client):
    ev, rnd, regs, org = bo3_round()
    client.force_login(factories.staff(ev, StaffRole.JUDGE))
    return client, ev, rnd, regs, org


@pytest.mark.django_db
def test_R_6_a_judge_records_a_double_loss_through_the_correction_form(judge_client):
    client, ev, rnd, _, org = judge_client
    m = services.slip_enter(match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org)
    page = client.get(reverse("staff:corrections", args=[ev.slug]) + f"?round={rnd.pk}")
    assert 'name="result" value="double-loss"' in page.content.decode()
    # The form shows the recorded games; ticking "Double loss" takes precedence.
    correct(client, ev, m, {"wins_1": 2, "wins_2": 1, "draws": 0, "result": "double-loss"})
    assert (table(rnd, 1).outcome, table(rnd, 1).games) == (Outcome.DOUBLE_LOSS, None)
    audit = AuditEvent.objects.get(action="result.correct")
    assert audit.old["games"] == [2, 1, 0] and audit.new["outcome"] == "double-loss"


@pytest.mark.django_db
@pytest.mark.parametrize("games", VALID)
def test_M_MATCH_1_every_valid_game_record_goes_through_the_correction_form(judge_client, games):
    client, ev, rnd, _, org = judge_client
    m = services.slip_enter(
        match=table(rnd, 1), result=Result.of(outcome=Outcome.DOUBLE_LOSS), by=org
    )
    body = correct(client, ev, m, dict(zip(("wins_1", "wins_2", "draws"), games, strict=True)))
    assert table(rnd, 1).games == list(games)
    assert "is now:" in body.content.decode()


@pytest.mark.django_db
def test_M_SE_2_a_correction_cannot_make_a_playoff_match_a_draw(client):
    ev, rnd, _, org = bo3_round(phase=Phase.TOP_CUT)
    m = services.slip_enter(match=table(rnd, 1), result=Result.of(games=(2, 1, 0)), by=org)
    client.force_login(factories.staff(ev, StaffRole.JUDGE))
    before = snapshot(m)
    refused = correct(client, ev, m, {"wins_1": 1, "wins_2": 1, "draws": 1})
    assert "cannot end in a draw" in refused.content.decode()
    refused = correct(client, ev, m, {"wins_1": 3, "wins_2": 0})
    assert "nobody wins more than 2 games" in refused.content.decode()
    no_reason = correct(client, ev, m, {"wins_1": 0, "wins_2": 2, "reason": ""})
    assert "give a reason" in no_reason.content.decode()
    assert snapshot(m) == before


@pytest.mark.django_db
def test_R_6_a_dispute_can_be_resolved_as_a_double_loss(client):
    ev, rnd, regs, _ = bo3_round()
    m = table(rnd, 1)
    report(m, regs[0], (2, 0, 0))
    report(m, regs[1], (0, 2, 0))
    client.force_login(factories.staff(ev, StaffRole.JUDGE))
    client.post(
        reverse("staff:dispute_resolve", args=[ev.slug, m.pk]),
        {"result": "double-loss", "version": 0, "reason": "both left the table"},
    )
    assert table(rnd, 1).outcome == Outcome.DOUBLE_LOSS


# --- printed match slips ---------------------------------------------------------------


def slips(client, ev, rnd, org):
    client.force_login(org)
    return client.get(reverse("staff:print_slips", args=[ev.slug, rnd.pk])).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "phase", "draw_box"),
    [
        ("mtg", Phase.SWISS, True),
        ("mtg", Phase.TOP_CUT, False),  # M-SE-2
        ("bo3-wins-against", Phase.SWISS, False),
    ],
)
def test_M_MATCH_1_printed_best_of_3_slips_have_a_games_box_per_player(
    client, ruleset, phase, draw_box
):
    ev, rnd, _, org = bo3_round(ruleset, phase=phase)
    body = slips(client, ev, rnd, org)
    boxes = re.findall(r'class="games-box" data-player="([^"]+)"', body)
    assert boxes == ["Player 001", "Player 002", "Player 003", "Player 004"]
    assert "Games W" in body and "Double loss" in body
    assert ("</span> Draw</span>" in body) == draw_box


@pytest.mark.django_db
def test_result_only_slips_have_no_per_player_games_box(client):
    ev, rnd, _, org = bo3_round("pokemon")
    body = slips(client, ev, rnd, org)
    assert 'class="games-box"' not in body and "</span> Tie</span>" in body
