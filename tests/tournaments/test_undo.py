"""Undo, audited, within the rules' windows: discarding a round's pairings,
swapping two players before a round starts, overriding a result every player reported
(only with a reason) or one player's report (only once confirmed), undoing the entry
that completed a round (only once confirmed)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.services import round_pair
from tests import factories
from tournaments import services
from tournaments.errors import (
    AgreedResultOverride,
    InvalidInput,
    ReportOverride,
    ResultConflict,
    RoundStateError,
)
from tournaments.models import (
    AuditEvent,
    BackgroundRun,
    EventStatus,
    Match,
    MatchSeat,
    Outcome,
    Phase,
    Round,
    RoundStatus,
    SelfReportMode,
)
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def seated(rnd: Round) -> dict[int | None, list[str]]:
    """``{table: [player names in seat order]}`` of a round."""
    out: dict[int | None, list[str]] = {}
    for m in rnd.matches.order_by("table"):
        out[m.table] = [s.registration.player.name for s in m.seats.order_by("seat")]
    return out


def win_all(rnd: Round, by) -> None:
    """Seat 1 wins every pending table, table by table."""
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        services.slip_enter(match=m, result=Result.win(m.seats.get(seat=1).registration), by=by)


def juniors_and_masters(organiser, each: int):
    """An event with Junior and Masters paired apart, ``each`` players in each (``junior
    0``…, ``masters 0``…): ``(event, juniors, masters)``, registrations in order."""
    ev = factories.event(by=organiser, divisions={"junior": "junior", "masters": "masters"},
                         season_year=2026)  # fmt: skip
    for code, year in (("junior", 2016), ("masters", 1990)):
        for i in range(each):
            services.registration_add(event=ev, name=f"{code} {i}", birth_year=year,
                                      division=ev.divisions.get(code=code), by=organiser)  # fmt: skip
    juniors = list(ev.registrations.filter(division__code="junior").order_by("pk"))
    masters = list(ev.registrations.filter(division__code="masters").order_by("pk"))
    return ev, juniors, masters


# --- 1. discard a paired round -----------------------------------------------------------


def test_discarding_a_paired_round_removes_it_and_the_group_pairs_again(organiser, event8):
    (r1,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    match_ids = list(r1.matches.values_list("pk", flat=True))
    services.round_pairings_discard(round=r1, by=organiser, reason="wrong seed")
    assert not Round.objects.filter(pk=r1.pk).exists()
    assert not Match.objects.filter(pk__in=match_ids).exists()
    row = AuditEvent.objects.get(action="round.discard")
    assert (row.round_number, row.reason, len(row.old["tables"])) == (1, "wrong seed", 4)
    (again,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    assert (again.number, again.status) == (1, RoundStatus.PAIRED)


def test_a_started_round_cannot_be_discarded(organiser, event8):
    rnd = factories.round_in_order(event8, by=organiser)
    with pytest.raises(RoundStateError, match="Round 1 has started: its pairings are frozen"):
        services.round_pairings_discard(round=rnd, by=organiser)
    assert rnd.matches.count() == 4
    assert not AuditEvent.objects.filter(action="round.discard").exists()


def test_discarding_a_published_round_takes_it_off_the_public_pages(client, organiser, event8):
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.PUBLISHED)
    public = reverse("public:pairings", args=[event8.slug])
    assert "Player 001" in client.get(public).content.decode()
    services.round_pairings_discard(round=rnd, by=organiser)
    assert "Player 001" not in client.get(public).content.decode()


def test_discarding_the_only_top_cut_round_puts_the_event_back_in_swiss(organiser):
    ev = factories.event_with_players(4, by=organiser, swiss_rounds=1, top_cut_size=4)
    r1 = factories.round_in_order(ev, by=organiser)
    win_all(r1, organiser)
    cut = factories.round_in_order(
        ev, by=organiser, status=RoundStatus.PAIRED, group="open-top-cut", number=2,
        phase=Phase.TOP_CUT,
    )  # fmt: skip
    ev.refresh_from_db()
    assert ev.status == EventStatus.TOP_CUT
    services.round_pairings_discard(round=cut, by=organiser)
    ev.refresh_from_db()
    assert ev.status == EventStatus.SWISS


def test_round_page_offers_discard_before_start_and_the_view_discards(client, organiser, event8):
    (r1,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    client.force_login(organiser)
    page = client.get(reverse("staff:round", args=[event8.slug, r1.pk])).content.decode()
    assert (
        "Discard these pairings" in page
        and 'data-confirm="Discard the pairings of round 1?' in page
    )
    response = client.post(reverse("staff:round_discard", args=[event8.slug, r1.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("staff:dashboard", args=[event8.slug])
    assert (
        "The pairings of round 1 were discarded: pair the round again." in response.content.decode()
    )
    assert not Round.objects.filter(pk=r1.pk).exists()


def test_the_discard_view_refuses_a_started_round_with_the_reason(client, organiser, event8):
    rnd = factories.round_in_order(event8, by=organiser)
    client.force_login(organiser)
    page = client.get(reverse("staff:round", args=[event8.slug, rnd.pk])).content.decode()
    assert "Discard these pairings" not in page
    response = client.post(reverse("staff:round_discard", args=[event8.slug, rnd.pk]), follow=True)
    assert "Round 1 has started: its pairings are frozen." in response.content.decode()
    assert Round.objects.filter(pk=rnd.pk).exists()


# --- 2. swap two players ------------------------------------------------------------------


def test_swapping_two_players_moves_them_notes_it_and_audits_it(organiser, event8):
    rnd = factories.round_in_order(
        event8, by=organiser, status=RoundStatus.PAIRED, why="same record"
    )
    regs = list(event8.registrations.order_by("pk"))
    services.round_seats_swap(round=rnd, first=regs[0], second=regs[2], by=organiser, reason="")
    assert seated(rnd)[1] == ["Player 003", "Player 002"]
    assert seated(rnd)[2] == ["Player 001", "Player 004"]
    rnd.refresh_from_db()
    assert rnd.notes[-1] == (
        "Manual change by organiser: swapped Player 001 (table 1) and Player 003 (table 2)."
    )
    # the engine's "same record" no longer holds for the players seated by hand
    assert set(rnd.matches.filter(table__in=[1, 2]).values_list("why", flat=True)) == {
        "manual change"
    }
    row = AuditEvent.objects.get(action="round.swap")
    p = [r.player.name for r in regs]  # names, as people read the audit trail
    assert row.old["tables"] == [[1, [p[0], p[1]]], [2, [p[2], p[3]]]]
    assert row.new["tables"] == [[1, [p[2], p[1]]], [2, [p[0], p[3]]]]
    assert row.reason == rnd.notes[-1] and row.actor == organiser


def test_a_swap_that_makes_a_rematch_is_flagged(organiser, event8):
    r1 = factories.round_in_order(event8, by=organiser)
    win_all(r1, organiser)
    regs = list(event8.registrations.order_by("pk"))
    order = [regs[0], regs[2], regs[1], regs[3], *regs[4:]]  # 1v3, 2v4, 5v6, 7v8
    r2 = factories.round_in_order(
        event8, by=organiser, number=2, regs=order, status=RoundStatus.PUBLISHED
    )
    services.round_seats_swap(round=r2, first=regs[2], second=regs[1], by=organiser)
    assert seated(r2)[1] == ["Player 001", "Player 002"]
    assert list(r2.matches.filter(table__in=[1, 2]).values_list("rematch", flat=True)) == [
        True,
        True,
    ]
    r2.refresh_from_db()
    assert r2.notes[-1].endswith("Table 1, 2 is now a rematch.")


@pytest.mark.parametrize(
    ("pick", "message"),
    [
        ((0, 0), "Choose two different players to swap."),
        ((0, 1), "Player 001 and Player 002 sit at the same table"),
    ],
)
def test_impossible_swaps_are_refused_and_change_nothing(organiser, event8, pick, message):
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.PAIRED)
    regs = list(event8.registrations.order_by("pk"))
    before = seated(rnd)
    with pytest.raises(InvalidInput, match=message):
        services.round_seats_swap(
            round=rnd, first=regs[pick[0]], second=regs[pick[1]], by=organiser
        )
    assert seated(rnd) == before
    assert not AuditEvent.objects.filter(action="round.swap").exists()


def test_a_swap_is_refused_once_the_round_started(organiser, event8):
    rnd = factories.round_in_order(event8, by=organiser)
    regs = list(event8.registrations.order_by("pk"))
    with pytest.raises(RoundStateError, match="Round 1 has started: its pairings are frozen."):
        services.round_seats_swap(round=rnd, first=regs[0], second=regs[2], by=organiser)
    assert seated(rnd)[1] == ["Player 001", "Player 002"]


def test_players_of_two_pairing_groups_are_never_swapped(organiser):
    ev, juniors, masters = juniors_and_masters(organiser, 2)
    rj = factories.round_in_order(ev, by=organiser, group="junior", regs=juniors, status="paired")
    factories.round_in_order(ev, by=organiser, group="masters", regs=masters, status="paired")
    with pytest.raises(InvalidInput, match="masters 0 plays in .*never swapped"):
        services.round_seats_swap(round=rj, first=juniors[0], second=masters[0], by=organiser)
    assert MatchSeat.objects.get(round=rj, registration=juniors[0]).match.table == 1


def test_round_page_swap_form_and_the_why_page_shows_the_note(client, organiser, event8):
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.PAIRED)
    regs = list(event8.registrations.order_by("pk"))
    client.force_login(organiser)
    url = reverse("staff:round", args=[event8.slug, rnd.pk])
    assert 'id="swap-form"' in client.get(url).content.decode()
    swap = reverse("staff:round_swap", args=[event8.slug, rnd.pk])
    response = client.post(swap, {"first": regs[0].pk, "second": regs[3].pk}, follow=True)
    assert "Swapped Player 001 and Player 004." in response.content.decode()
    why = client.get(reverse("staff:round_why", args=[event8.slug, rnd.pk])).content.decode()
    assert (
        "Manual change by organiser: swapped Player 001 (table 1) and Player 004 (table 2)." in why
    )
    refused = client.post(swap, {"first": regs[0].pk, "second": regs[0].pk}, follow=True)
    assert "Choose two different players to swap." in refused.content.decode()


# --- 2b. re-seat a table ------------------------------------------------------------------


def test_moving_a_table_to_a_free_number_and_trading_with_a_used_one(client, organiser, event8):
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.PAIRED)
    t1 = rnd.matches.get(table=1)
    services.round_table_move(round=rnd, match=t1, table=12, by=organiser, reason="wheelchair")
    assert seated(rnd) == {
        2: ["Player 003", "Player 004"],
        3: ["Player 005", "Player 006"],
        4: ["Player 007", "Player 008"],
        12: ["Player 001", "Player 002"],
    }
    rnd.refresh_from_db()
    assert rnd.notes[-1] == "Manual change by organiser: table 1 moved to table 12."
    assert rnd.matches.get(table=12).why.endswith("manual change")
    row = AuditEvent.objects.get(action="round.reseat")
    assert (row.old["table"], row.new["table"], row.reason) == (1, 12, "wheelchair")
    client.force_login(organiser)
    url = reverse("staff:round_move", args=[event8.slug, rnd.pk])
    t2 = rnd.matches.get(table=2)
    page = client.post(url, {"match": t2.pk, "table": 12}, follow=True).content.decode()
    assert "Table 2 now plays at table 12." in page
    assert seated(rnd)[12] == ["Player 003", "Player 004"]
    assert seated(rnd)[2] == ["Player 001", "Player 002"]
    assert rnd.matches.count() == 4


def test_a_move_is_refused_when_it_cannot_be_done_and_changes_nothing(organiser):
    ev, juniors, masters = juniors_and_masters(organiser, 4)
    rm = factories.round_in_order(ev, by=organiser, group="masters", regs=masters, status="paired")
    rj = factories.round_in_order(ev, by=organiser, group="junior", regs=juniors, status="paired")
    junior_tables = set(rj.matches.values_list("table", flat=True))
    before = seated(rm)
    first = rm.matches.order_by("table").first()
    for table, message in (
        (min(junior_tables), "in use by another pairing group"),
        (first.table, "already sit at table"),
        (0, "from 1 to 5000"),
    ):
        with pytest.raises(InvalidInput, match=message):
            services.round_table_move(round=rm, match=first, table=table, by=organiser)
    services.round_publish(round=rm, by=organiser)
    services.round_start(round=rm, by=organiser)
    with pytest.raises(RoundStateError, match="frozen"):
        services.round_table_move(round=rm, match=first, table=40, by=organiser)
    assert seated(rm) == before and not AuditEvent.objects.filter(action="round.reseat").exists()


# --- 3. overriding a result every player reported ----------------------------------------


@pytest.fixture
def agreed(event8, organiser):
    """Round 1 started; both players of table 1 reported Player 001 wins (recorded)."""
    rnd = factories.round_in_order(event8, by=organiser)
    m = rnd.matches.get(table=1)
    ash, misty = (s.registration for s in m.seats.order_by("seat"))
    for reg in (ash, misty):
        services.report_submit(match=m, registration=reg, result=Result.win(ash))
    return m, ash, misty


def test_overriding_an_agreed_result_needs_a_reason(agreed, organiser):
    m, ash, misty = agreed
    m.refresh_from_db()
    with pytest.raises(
        AgreedResultOverride,
        match="Both players reported Player 001 wins: overriding it needs a reason.",
    ):
        services.slip_enter(match=m, result=Result.win(misty), by=organiser, reason=" ")
    m.refresh_from_db()
    assert (m.outcome, m.winner_id) == (Outcome.WIN, ash.pk)
    services.slip_enter(
        match=m, result=Result.win(misty), by=organiser, reason="Ash conceded at the table"
    )
    m.refresh_from_db()
    assert m.winner_id == misty.pk
    correct = AuditEvent.objects.get(action="result.correct", object_id=str(m.pk))
    override = AuditEvent.objects.get(action="report.override", object_id=str(m.pk))
    assert correct.reason == override.reason == "Ash conceded at the table"


def test_a_held_agreed_result_also_needs_a_reason_to_override_but_not_to_accept(event8, organiser):
    event8.self_report = SelfReportMode.HOLD
    event8.save(update_fields=["self_report"])
    rnd = factories.round_in_order(event8, by=organiser)
    m = rnd.matches.get(table=1)
    ash, misty = (s.registration for s in m.seats.order_by("seat"))
    for reg in (ash, misty):
        services.report_submit(match=m, registration=reg, result=Result.draw())
    with pytest.raises(AgreedResultOverride, match="Both players reported tie"):
        services.slip_enter(match=m, result=Result.win(ash), by=organiser)
    services.slip_enter(match=m, result=Result.draw(), by=organiser)  # what they said
    m.refresh_from_db()
    assert m.outcome == Outcome.DRAW


@pytest.fixture
def one_report(event8, organiser):
    """Round 1 started; only Player 001 of table 1 reported: Player 001 wins."""
    rnd = factories.round_in_order(event8, by=organiser)
    m = rnd.matches.get(table=1)
    ash, misty = (s.registration for s in m.seats.order_by("seat"))
    services.report_submit(match=m, registration=ash, result=Result.win(ash))
    return m, ash, misty


def test_a_slip_against_one_players_report_is_asked_first_and_changes_nothing(
    one_report, organiser
):
    m, ash, misty = one_report
    with pytest.raises(ReportOverride) as asked:
        services.slip_enter(match=m, result=Result.win(misty), by=organiser)
    assert str(asked.value) == (
        "Player 001 reported: Player 001 wins. Record Player 002 wins anyway?"
    )
    assert asked.value.reported == ("Player 001 reported: Player 001 wins",)
    assert asked.value.entered == "Player 002 wins"
    m.refresh_from_db()
    assert (m.outcome, m.version) == (Outcome.PENDING, 0)
    assert not AuditEvent.objects.filter(
        action__in=("result.enter", "report.override"), object_id=str(m.pk)
    ).exists()


def test_a_confirmed_slip_over_one_report_needs_no_reason_and_logs_the_override(
    one_report, organiser
):
    m, ash, misty = one_report
    services.slip_enter(match=m, result=Result.win(misty), by=organiser, confirmed=True)
    m.refresh_from_db()
    assert (m.outcome, m.winner_id) == (Outcome.WIN, misty.pk)
    override = AuditEvent.objects.get(action="report.override", object_id=str(m.pk))
    assert override.reason == "A staff entry overrides the players' reports."
    assert override.old == {ash.external_id: {"outcome": "win", "winner": ash.external_id}}


def test_a_slip_saying_what_the_one_report_says_is_recorded_at_once(one_report, organiser):
    m, ash, _ = one_report
    services.slip_enter(match=m, result=Result.win(ash), by=organiser)
    m.refresh_from_db()
    assert (m.outcome, m.winner_id) == (Outcome.WIN, ash.pk)


def test_a_reason_confirms_a_slip_over_one_report(one_report, organiser):
    m, ash, misty = one_report
    services.slip_enter(match=m, result=Result.draw(), by=organiser, reason="Judge saw it")
    m.refresh_from_db()
    assert m.outcome == Outcome.DRAW
    assert AuditEvent.objects.get(action="report.override").reason == "Judge saw it"


def test_a_slip_over_disagreeing_reports_names_the_report_it_contradicts(event8, organiser):
    rnd = factories.round_in_order(event8, by=organiser)
    m = rnd.matches.get(table=1)
    ash, misty = (s.registration for s in m.seats.order_by("seat"))
    services.report_submit(match=m, registration=ash, result=Result.win(ash))
    services.report_submit(match=m, registration=misty, result=Result.draw())
    with pytest.raises(ReportOverride) as asked:
        services.slip_enter(match=m, result=Result.win(misty), by=organiser)
    assert str(asked.value) == (
        "Player 001 reported: Player 001 wins; Player 002 reported: tie. "
        "Record Player 002 wins anyway?"
    )
    with pytest.raises(ReportOverride) as asked:
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    assert asked.value.reported == ("Player 001 reported: Player 001 wins",)
    services.dispute_resolve(match=m, result=Result.draw(), reason="Both agreed", by=organiser)
    m.refresh_from_db()
    assert m.outcome == Outcome.DRAW  # a dispute's decision carries its reason: no question


def test_a_players_own_agreeing_report_is_never_asked(one_report):
    m, ash, misty = one_report
    services.report_submit(match=m, registration=misty, result=Result.win(ash))
    m.refresh_from_db()
    assert (m.outcome, m.winner_id) == (Outcome.WIN, ash.pk)


def test_round_page_asks_to_confirm_a_slip_over_one_report(client, one_report, organiser, event8):
    m, ash, misty = one_report
    client.force_login(organiser)
    url = reverse("staff:match_result", args=[event8.slug, m.pk])
    slip = {"result": "p2", "version": m.version}
    asked = client.post(url, slip, HTTP_HX_REQUEST="true")
    page = asked.content.decode()
    assert asked.status_code == 409
    assert (
        '<p class="error" role="alert">Player 001 reported: Player 001 wins. '
        "Record Player 002 wins anyway?</p>" in page
    )
    assert '<input type="hidden" name="result" value="p2">' in page
    assert '<input type="hidden" name="confirm_override" value="1">' in page
    assert 'name="reason"' not in page  # no reason asked for a single report
    assert "Record it anyway" in page
    m.refresh_from_db()
    assert m.outcome == Outcome.PENDING
    done = client.post(url, {**slip, "confirm_override": "1"}, HTTP_HX_REQUEST="true")
    assert done.status_code == 200
    m.refresh_from_db()
    assert (m.outcome, m.winner_id) == (Outcome.WIN, misty.pk)
    assert 'name="confirm_override"' not in done.content.decode()


def test_without_javascript_the_single_report_question_is_a_page(
    client, one_report, organiser, event8
):
    m, _, _ = one_report
    client.force_login(organiser)
    url = reverse("staff:match_result", args=[event8.slug, m.pk])
    asked = client.post(url, {"result": "draw", "version": m.version})
    assert asked.status_code == 409
    page = asked.content.decode()
    assert "<h1>Override a player's report?" in page
    assert "Player 001 reported: Player 001 wins. Record tie anyway?" in page
    m.refresh_from_db()
    assert m.outcome == Outcome.PENDING
    done = client.post(url, {"result": "draw", "version": m.version, "confirm_override": "1"})
    assert done.status_code == 302
    m.refresh_from_db()
    assert m.outcome == Outcome.DRAW


def test_round_page_asks_for_the_reason_then_overrides(client, agreed, organiser, event8):
    m, ash, misty = agreed
    m.refresh_from_db()
    client.force_login(organiser)
    url = reverse("staff:match_result", args=[event8.slug, m.pk])
    slip = {"result": "p2", "version": m.version}
    asked = client.post(url, slip, HTTP_HX_REQUEST="true")
    page = asked.content.decode()
    assert asked.status_code == 409
    assert "Both players reported Player 001 wins. Override?" in page
    assert '<input type="hidden" name="result" value="p2">' in page
    assert 'name="reason" required' in page
    assert "Type the reason" not in page  # not yet answered
    blank = client.post(url, {**slip, "reason": "   "}, HTTP_HX_REQUEST="true")
    assert blank.status_code == 409  # answered with spaces only: said, nothing changes
    assert "Type the reason: their result is kept until you do." in blank.content.decode()
    m.refresh_from_db()
    assert m.winner_id == ash.pk
    done = client.post(url, {**slip, "reason": "Judge ruling"}, HTTP_HX_REQUEST="true")
    assert done.status_code == 200
    m.refresh_from_db()
    assert m.winner_id == misty.pk
    assert AuditEvent.objects.get(action="report.override").reason == "Judge ruling"


def test_without_javascript_the_question_is_a_page(client, agreed, organiser, event8):
    m, ash, _ = agreed
    m.refresh_from_db()
    client.force_login(organiser)
    url = reverse("staff:match_result", args=[event8.slug, m.pk])
    asked = client.post(url, {"result": "draw", "version": m.version})
    assert asked.status_code == 409
    page = asked.content.decode()
    assert "<h1>Override the players' result?" in page
    assert "Both players reported Player 001 wins. Override?" in page
    m.refresh_from_db()
    assert (m.outcome, m.winner_id) == (Outcome.WIN, ash.pk)


# --- 4. undo the last entry ---------------------------------------------------------------


@pytest.fixture
def completed(event8, organiser):
    """Round 1 of 8 players, every table entered in table order: complete."""
    rnd = factories.round_in_order(event8, by=organiser)
    win_all(rnd, organiser)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    return rnd


def test_undo_last_entry_clears_it_and_reopens_the_round(completed, organiser, event8):
    runs = BackgroundRun.objects.filter(event=event8, kind=BackgroundRun.Kind.STANDINGS).count()
    last = completed.matches.get(table=4)
    assert services.round_last_entry(completed) == last
    m = services.round_last_entry_undo(round=completed, by=organiser, reason="misclick")
    assert m.pk == last.pk
    m.refresh_from_db()
    completed.refresh_from_db()
    assert (m.outcome, m.winner_id, m.reported_at) == (Outcome.PENDING, None, None)
    assert (completed.status, completed.completed_at) == (RoundStatus.STARTED, None)
    undo = AuditEvent.objects.get(action="result.undo")
    assert undo.old["outcome"] == Outcome.WIN and undo.new == {"outcome": "pending"}
    assert undo.reason == "misclick" and undo.actor == organiser
    assert AuditEvent.objects.get(action="round.reopen").old == {"status": "complete"}
    assert (
        BackgroundRun.objects.filter(event=event8, kind=BackgroundRun.Kind.STANDINGS).count()
        >= runs
    )
    assert completed.matches.filter(outcome=Outcome.PENDING).count() == 1
    # the slip is entered again and the round completes again
    services.slip_enter(match=m, result=Result.win(m.seats.get(seat=2).registration), by=organiser)
    completed.refresh_from_db()
    assert completed.status == RoundStatus.COMPLETE


def test_undo_is_refused_once_the_next_round_is_paired(completed, organiser, event8):
    round_pair(event=event8, group="open", by=organiser, seed=1)
    with pytest.raises(RoundStateError, match="Round 2 is already paired"):
        services.round_last_entry_undo(round=completed, by=organiser)
    assert completed.matches.filter(outcome=Outcome.PENDING).count() == 0


def test_undo_is_refused_before_the_round_completes_and_after_a_correction(organiser, event8):
    rnd = factories.round_in_order(event8, by=organiser)
    with pytest.raises(RoundStateError, match="Round 1 is not complete"):
        services.round_last_entry_undo(round=rnd, by=organiser)
    win_all(rnd, organiser)
    first = rnd.matches.get(table=1)
    services.result_correct(
        match=first, result=Result.win(first.seats.get(seat=2).registration),
        reason="slip misread", by=organiser,
    )  # fmt: skip
    with pytest.raises(RoundStateError, match="was corrected after the round completed"):
        services.round_last_entry_undo(round=rnd, by=organiser)


def test_undo_refuses_a_stale_page(completed, organiser):
    other = completed.matches.get(table=1)
    with pytest.raises(ResultConflict, match="Another result was entered meanwhile"):
        services.round_last_entry_undo(round=completed, by=organiser, match=other)
    last = completed.matches.get(table=4)
    with pytest.raises(ResultConflict):
        services.round_last_entry_undo(
            round=completed, by=organiser, match=last, version=last.version - 1
        )
    completed.refresh_from_db()
    assert completed.status == RoundStatus.COMPLETE


def test_round_page_offers_undo_until_the_next_round_is_paired(
    client, completed, organiser, event8
):
    client.force_login(organiser)
    url = reverse("staff:round", args=[event8.slug, completed.pk])
    page = client.get(url).content.decode()
    assert "Undo last entry (table 4)" in page
    last = completed.matches.get(table=4)
    undo = reverse("staff:round_undo_last", args=[event8.slug, completed.pk])
    slip = {"match": last.pk, "version": last.version, "confirm": "on"}
    response = client.post(undo, slip, follow=True)
    text = response.content.decode()
    assert "Table 4 is not reported any more: round 1 is in progress again." in text
    assert "Undo last entry" not in text
    last.refresh_from_db()
    assert last.outcome == Outcome.PENDING
    win_all(completed, organiser)
    round_pair(event=event8, group="open", by=organiser, seed=1)
    assert "Undo last entry" not in client.get(url).content.decode()
    last.refresh_from_db()
    refused = client.post(undo, {**slip, "version": last.version}, follow=True)
    assert "Round 2 is already paired" in refused.content.decode()


def test_undo_last_entry_asks_first_and_without_the_tick_nothing_changes(
    client, completed, organiser, event8
):
    client.force_login(organiser)
    last = completed.matches.get(table=4)
    first, second = (s.registration.player.name for s in last.seats.order_by("seat"))
    undo = reverse("staff:round_undo_last", args=[event8.slug, completed.pk])
    round_page = client.get(reverse("staff:round", args=[event8.slug, completed.pk]))
    assert f'<form method="get" action="{undo}" class="inline-form" id="undo-last">' in (
        round_page.content.decode()
    )
    asked = client.get(undo, {"match": last.pk, "version": last.version})
    page = asked.content.decode()
    assert asked.status_code == 200
    assert "<h1>Undo the last entry?" in page
    assert f"{first} vs {second}: <strong data-recorded>{first} wins</strong>" in page
    assert '<input type="checkbox" name="confirm" required>' in page
    assert f'<input type="hidden" name="version" value="{last.version}">' in page
    refused = client.post(undo, {"match": last.pk, "version": last.version, "reason": "oops"})
    page = refused.content.decode()
    assert refused.status_code == 200
    assert "Nothing was undone: tick “Yes, undo this entry” to confirm." in page
    assert 'value="oops"' in page  # the reason typed is kept
    last.refresh_from_db()
    completed.refresh_from_db()
    assert (last.outcome, completed.status) == (Outcome.WIN, RoundStatus.COMPLETE)
    assert not AuditEvent.objects.filter(action__in=("result.undo", "round.reopen")).exists()
    done = client.post(
        undo, {"match": last.pk, "version": last.version, "reason": "oops", "confirm": "on"}
    )
    assert done.status_code == 302
    last.refresh_from_db()
    assert last.outcome == Outcome.PENDING
    assert AuditEvent.objects.get(action="result.undo").reason == "oops"


def test_the_undo_question_says_when_the_next_round_is_paired_meanwhile(
    client, completed, organiser, event8
):
    client.force_login(organiser)
    last = completed.matches.get(table=4)
    round_pair(event=event8, group="open", by=organiser, seed=1)
    undo = reverse("staff:round_undo_last", args=[event8.slug, completed.pk])
    asked = client.get(undo, {"match": last.pk, "version": last.version}, follow=True)
    assert "Round 2 is already paired" in asked.content.decode()
    last.refresh_from_db()
    assert last.outcome == Outcome.WIN


def test_the_htmx_answer_to_the_last_slip_offers_the_undo(client, event8, organiser):
    rnd = factories.round_in_order(event8, by=organiser)
    for m in rnd.matches.order_by("table")[:3]:
        services.slip_enter(
            match=m, result=Result.win(m.seats.get(seat=1).registration), by=organiser
        )
    last = rnd.matches.get(table=4)
    client.force_login(organiser)
    url = reverse("staff:match_result", args=[event8.slug, last.pk])
    answer = client.post(url, {"result": "p1", "version": last.version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert "Undo last entry (table 4)" in answer.content.decode()


def test_a_swap_in_a_published_round_rebuilds_the_public_pages(organiser, event8, monkeypatch):
    calls = []
    monkeypatch.setattr(
        "tournaments.services.undo.public_pages_changed", lambda *a, **k: calls.append(a)
    )
    regs = list(event8.registrations.order_by("pk"))
    paired = factories.round_in_order(event8, by=organiser, status=RoundStatus.PAIRED)
    services.round_seats_swap(round=paired, first=regs[0], second=regs[2], by=organiser)
    assert calls == []  # not public yet: nothing to rebuild
    services.round_publish(round=paired, by=organiser)
    services.round_seats_swap(round=paired, first=regs[0], second=regs[2], by=organiser)
    assert calls == [(event8.pk,)]
    assert seated(paired)[1] == ["Player 001", "Player 002"]  # swapped back


def test_the_manual_change_mark_is_shown_in_the_visitors_language(client, organiser, event8):
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.PAIRED)
    regs = list(event8.registrations.order_by("pk"))
    services.round_seats_swap(round=rnd, first=regs[0], second=regs[2], by=organiser)
    client.force_login(organiser)
    url = reverse("staff:round_why", args=[event8.slug, rnd.pk])
    assert "cambio manual" in client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "manual change" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
