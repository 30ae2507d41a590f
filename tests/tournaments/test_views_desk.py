"""The judges' desk through the web: corrections inside and outside the P-POST-4
window, marks on later pairings, the disputes queue, and penalty notes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.services import round_pair
from standings.models import StandingsSnapshot
from tests import factories
from tournaments import services
from tournaments.models import AuditEvent, Match, Outcome, PenaltyNote, StaffRole
from tournaments.services import Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge(event8):
    return factories.staff(event8, StaffRole.JUDGE)


def play(event, by, seed):
    """Pair, publish and start the next round; seat 1 wins every table."""
    (rnd,) = round_pair(event=event, group="open", by=by, seed=seed)
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        services.slip_enter(match=m, result=Result.win(m.seats.all()[0].registration), by=by)
    return rnd


def correct(client, event, match, result, reason="slip misread"):
    return client.post(
        reverse("staff:result_correct", args=[event.slug, match.pk]),
        {"result": result, "version": match.version, "reason": reason},
        follow=True,
    )


def test_P_POST_4_judge_corrects_round_1_after_round_2_is_paired_but_not_after_round_3(
    client, event8, organiser, judge, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # each round's standings task
        r1 = play(event8, organiser, seed=1)
        play(event8, organiser, seed=2)
    m = r1.matches.filter(table=1).get()
    client.force_login(judge)
    snapshots = StandingsSnapshot.objects.filter(event=event8)
    before = snapshots.count()
    with django_capture_on_commit_callbacks(execute=True):
        body = correct(client, event8, m, "p2").content.decode()
    assert "Round 1 table 1 is now:" in body
    m.refresh_from_db()
    assert m.winner_id == m.seats.get(seat=2).registration_id
    entry = AuditEvent.objects.get(action="result.correct")
    assert (entry.actor, entry.reason) == (judge, "slip misread")
    assert snapshots.count() == before + 1  # recomputed (task)

    round_pair(event=event8, group="open", by=organiser, seed=3)
    m.refresh_from_db()
    body = correct(client, event8, m, "p1", reason="late appeal").content.decode()
    assert "second subsequent round has been paired." in body
    m.refresh_from_db()
    assert m.winner_id == m.seats.get(seat=2).registration_id  # unchanged
    page = client.get(reverse("staff:corrections", args=[event8.slug]) + f"?round={r1.pk}")
    assert "Round 1 is locked" in page.content.decode()
    assert 'action="' + reverse("staff:result_correct", args=[event8.slug, m.pk]) not in (
        page.content.decode()
    )


def test_a_correction_needs_a_reason(client, event8, organiser, judge):
    r1 = play(event8, organiser, seed=1)
    m = r1.matches.get(table=1)
    client.force_login(judge)
    body = correct(client, event8, m, "p2", reason="").content.decode()
    assert "choose a result and give a reason" in body
    m.refresh_from_db()
    assert m.version == 1


def test_a_stale_correction_shows_the_current_value(client, event8, organiser, judge):
    r1 = play(event8, organiser, seed=1)
    m = r1.matches.get(table=1)
    client.force_login(judge)
    stale = Match.objects.get(pk=m.pk)
    correct(client, event8, m, "draw")
    body = correct(client, event8, stale, "p2").content.decode()
    assert "This match was just recorded as tie." in body


def test_a_correction_marks_the_later_pairings_whose_brackets_it_changed(
    client, event8, organiser, judge
):
    r1 = play(event8, organiser, seed=1)
    (r2,) = round_pair(event=event8, group="open", by=organiser, seed=2)  # paired, not started
    m = r1.matches.get(table=1)
    moved = set(m.seats.values_list("registration_id", flat=True))
    client.force_login(judge)
    body = correct(client, event8, m, "draw").content.decode()
    expected = set(
        Match.objects.filter(round=r2, seats__registration_id__in=moved).values_list(
            "pk", flat=True
        )
    )
    marked = set(r2.matches.filter(bracket_changed=True).values_list("pk", flat=True))
    assert marked == expected and marked
    assert "are marked" in body and "has not started" in body
    assert AuditEvent.objects.filter(action="pairing.bracket_changed").count() == len(marked)
    client.force_login(organiser)
    page = client.get(reverse("staff:round", args=[event8.slug, r2.pk])).content.decode()
    assert "bracket changed by a correction" in page and "Re-pair before starting" in page


def test_a_correction_that_moves_no_bracket_marks_nothing(client, event8, organiser, judge):
    r1 = play(event8, organiser, seed=1)
    round_pair(event=event8, group="open", by=organiser, seed=2)
    m = r1.matches.get(table=1)
    client.force_login(judge)
    correct(client, event8, m, "p1", reason="resent")  # same result: nothing changes
    assert not Match.objects.filter(bracket_changed=True).exists()


def test_scorekeepers_do_not_change_a_complete_rounds_result_on_the_round_page(
    client, event8, organiser
):
    r1 = play(event8, organiser, seed=1)
    m = r1.matches.get(table=1)
    client.force_login(organiser)
    url = reverse("staff:match_result", args=[event8.slug, m.pk])
    response = client.post(
        url, {"result": "p2", "version": m.version}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert "a judge corrects its results" in response.content.decode()
    same = client.post(url, {"result": "p1", "version": 0}, headers={"HX-Request": "true"})
    assert same.status_code == 200  # a resent slip stays harmless


def test_disputes_queue_lists_disagreeing_tables_and_a_judge_resolves_one(
    client, event8, organiser, judge
):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    m = rnd.matches.get(table=1)
    a, b = (s.registration for s in m.seats.order_by("seat"))
    services.report_submit(match=m, registration=a, result=Result.win(a))
    services.report_submit(match=m, registration=b, result=Result.win(b))
    client.force_login(judge)
    page = client.get(reverse("staff:disputes", args=[event8.slug])).content.decode()
    assert f'id="match-{m.pk}"' in page and "disputed" in page
    assert f"{a.player.name} reported <strong>{a.player.name} wins" in page
    response = client.post(
        reverse("staff:dispute_resolve", args=[event8.slug, m.pk]),
        {"result": "p2", "version": 0, "reason": "Judge watched game 3"},
        follow=True,
    )
    assert f"recorded as {b.player.name} wins" in response.content.decode()
    assert f'id="match-{m.pk}"' not in response.content.decode()
    audit = client.get(reverse("staff:audit", args=[event8.slug])).content.decode()
    assert "Judge watched game 3" in audit and "report.override" in audit


def test_a_judge_notes_a_penalty(client, event8, judge):
    reg = event8.registrations.first()
    client.force_login(judge)
    response = client.post(
        reverse("staff:penalties", args=[event8.slug]),
        {"registration": reg.pk, "round_number": 1, "kind": "warning", "infraction": "Slow play"},
        follow=True,
    )
    assert "Penalty noted." in response.content.decode()
    assert PenaltyNote.objects.get().by == judge
    assert AuditEvent.objects.get(action="penalty.add").new["kind"] == "warning"
