"""Players report their own results (services against real PostgreSQL): agreement,
disputes, changing a report until the opponent confirms, held results, overrides."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput, ResultConflict, RoundStateError
from tournaments.models import (
    AuditEvent,
    Outcome,
    Phase,
    RoundStatus,
    SelfReport,
    SelfReportMode,
    StaffRole,
)
from tournaments.services import Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(event8, organiser):
    """Round 1 started; the first table and its two registrations."""
    regs = list(event8.registrations.order_by("pk"))
    rnd = factories.round_in_order(event8, by=organiser)
    return rnd.matches.get(table=1), regs[0], regs[1]


def report(match, reg, outcome=Outcome.WIN, winner=None):
    return services.report_submit(
        match=match, registration=reg, result=Result.of(outcome=outcome, winner=winner)
    )


def test_both_players_reporting_the_same_result_records_it(table):
    match, ash, misty = table
    assert report(match, ash, winner=ash) == "waiting"
    match.refresh_from_db()
    assert match.outcome == Outcome.PENDING
    assert report(match, misty, winner=ash) == "recorded"
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.version) == (Outcome.WIN, ash.pk, 1)
    entry = AuditEvent.objects.get(action="result.enter", object_id=str(match.pk))
    assert (
        entry.actor_registration == misty and entry.reason == "Both players reported this result."
    )


def test_disagreeing_reports_make_a_dispute_and_record_nothing(table):
    match, ash, misty = table
    report(match, ash, winner=ash)
    assert report(match, misty, winner=misty) == "disputed"
    match.refresh_from_db()
    assert match.outcome == Outcome.PENDING
    assert AuditEvent.objects.filter(action="report.dispute").count() == 1


def test_a_player_can_change_their_report_until_the_opponent_confirms(table, event8):
    match, ash, misty = table
    event8.self_report = SelfReportMode.HOLD
    event8.save()
    report(match, ash, winner=misty)
    assert report(match, ash, outcome=Outcome.DRAW) == "waiting"  # changed their mind
    change = AuditEvent.objects.get(action="report.change")
    assert change.old["winner"] == misty.external_id and change.new["outcome"] == "draw"
    assert report(match, misty, outcome=Outcome.DRAW) == "held"  # confirmed
    with pytest.raises(ResultConflict, match="opponent confirmed"):
        report(match, ash, winner=ash)
    assert SelfReport.objects.get(match=match, registration=ash).outcome == Outcome.DRAW


def test_a_disputed_report_can_still_be_changed_into_agreement(table):
    match, ash, misty = table
    report(match, ash, winner=ash)
    report(match, misty, winner=misty)
    assert report(match, misty, winner=ash) == "recorded"


def test_held_results_wait_for_a_staff_click(table, event8, organiser):
    match, ash, misty = table
    event8.self_report = SelfReportMode.HOLD
    event8.save()
    report(match, ash, winner=ash)
    assert report(match, misty, winner=ash) == "held"
    match.refresh_from_db()
    assert match.outcome == Outcome.PENDING
    services.report_accept(match=match, by=organiser)
    services.report_accept(match=match, by=organiser)  # a double click changes nothing
    match.refresh_from_db()
    assert (match.winner_id, match.version) == (ash.pk, 1)


def test_accepting_reports_that_disagree_is_refused(table, organiser):
    match, ash, misty = table
    report(match, ash, winner=ash)
    report(match, misty, winner=misty)
    with pytest.raises(InvalidInput, match="resolve it as a dispute"):
        services.report_accept(match=match, by=organiser)


def test_a_staff_entry_overrides_the_reports_and_the_override_is_logged(table, event8):
    match, ash, misty = table
    judge = factories.staff(event8, StaffRole.JUDGE)
    report(match, ash, winner=ash)
    report(match, misty, winner=misty)
    with pytest.raises(InvalidInput, match="needs a reason"):
        services.dispute_resolve(match=match, result=Result.win(misty), reason=" ", by=judge)
    services.dispute_resolve(
        match=match, result=Result.win(misty), reason="Ash conceded game 3", by=judge
    )
    override = AuditEvent.objects.get(action="report.override")
    assert override.actor == judge and override.reason == "Ash conceded game 3"
    assert set(override.old) == {ash.external_id}  # only Ash's report was overridden
    with pytest.raises(ResultConflict, match=f"recorded as {misty.player.name} wins"):
        report(match, ash, winner=ash)


def test_a_report_after_the_slip_was_entered_with_the_same_result_is_harmless(table, organiser):
    match, ash, _ = table
    services.slip_enter(match=match, result=Result.win(ash), by=organiser)
    assert report(match, ash, winner=ash) == "recorded"


def test_impossible_reports_are_refused(table, event8, organiser):
    match, ash, _ = table
    stranger = event8.registrations.exclude(pk__in=[s.registration_id for s in match.seats.all()])[
        0
    ]
    with pytest.raises(InvalidInput, match="not seated"):
        report(match, stranger, winner=stranger)
    with pytest.raises(InvalidInput, match="one of the two players"):
        report(match, ash, winner=stranger)
    event8.self_report = SelfReportMode.OFF
    event8.save()
    with pytest.raises(InvalidInput, match="do not report"):
        report(match, ash, winner=ash)


def test_reports_only_while_the_round_is_in_progress(event8, organiser):
    regs = list(event8.registrations.order_by("pk"))
    rnd = services.round_create(
        event=event8,
        group=factories.group_row(event8, "open"),
        number=1,
        phase=Phase.SWISS,
        by=organiser,
        tables=[(1, regs[:2], "")],
    )
    assert rnd.status == RoundStatus.PAIRED
    with pytest.raises(RoundStateError, match="not in progress"):
        report(rnd.matches.get(), regs[0], winner=regs[0])


def test_the_database_refuses_a_second_report_of_one_player_for_one_match(table):
    match, ash, _ = table
    report(match, ash, winner=ash)
    with pytest.raises(IntegrityError), transaction.atomic():
        SelfReport.objects.create(match=match, registration=ash, outcome=Outcome.DRAW)


def test_a_player_drops_themselves_and_the_audit_names_them(table):
    _, ash, _ = table
    services.registration_drop(registration=ash, by=ash, reason="Dropped on their link")
    entry = AuditEvent.objects.get(action="registration.drop")
    assert entry.actor is None and entry.actor_registration == ash
