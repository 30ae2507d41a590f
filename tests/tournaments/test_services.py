"""Services against real PostgreSQL: slips, rounds, registrations, and what must fail."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from pairings.services import round_pair
from tournaments import services
from tournaments.errors import (
    InvalidInput,
    RecordLocked,
    ResultConflict,
    ResultsMissing,
    RoundStateError,
)
from tournaments.groups import swiss_group
from tournaments.models import AuditEvent, Match, MatchSeat, Outcome, Registration, RoundStatus
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def _start(rnd, by):
    services.round_publish(round=rnd, by=by)
    return services.round_start(round=rnd, by=by)


def _play_all(rnd, by):
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        services.slip_enter(match=m, result=Result.win(m.seats.all()[0].registration), by=by)


def _pair_and_play(event, by, seed=1):
    (rnd,) = round_pair(event=event, group="open", by=by, seed=seed)
    _start(rnd, by)
    _play_all(rnd, by)
    rnd.refresh_from_db()
    return rnd


def test_csv_paste_registers_every_line(event, organiser):
    regs = services.registrations_add_csv(
        event=event,
        text="Ash Ketchum,111,1999\nMisty Waterflower,222,2001\nBrock,,\n",
        by=organiser,
    )
    assert [r.player.name for r in regs] == ["Ash Ketchum", "Misty Waterflower", "Brock"]
    assert regs[0].player.birth_year == 1999 and regs[2].player.player_id == ""


def test_csv_paste_with_a_bad_line_names_it_and_writes_nothing(event, organiser):
    with pytest.raises(InvalidInput, match="Line 2: birth year 'abc'"):
        services.registrations_add_csv(event=event, text="Ash,1,1999\nMisty,2,abc\n", by=organiser)
    assert Registration.objects.filter(event=event).count() == 0


def test_duplicate_player_id_is_refused(event, organiser):
    services.registration_add(event=event, name="Ash", player_id="7", by=organiser)
    with pytest.raises(InvalidInput, match="already registered"):
        services.registration_add(event=event, name="Ash again", player_id="7", by=organiser)


def test_round_lifecycle_paired_published_started_complete(event8, organiser):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=3)
    assert rnd.status == RoundStatus.PAIRED and rnd.seed == 3
    with pytest.raises(RoundStateError):
        services.round_start(round=rnd, by=organiser)
    _start(rnd, organiser)
    with pytest.raises(RoundStateError):
        services.round_publish(round=rnd, by=organiser)
    _play_all(rnd, organiser)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    actions = list(AuditEvent.objects.filter(event=event8).values_list("action", flat=True))
    for action in (
        "round.pair",
        "round.published",
        "round.started",
        "result.enter",
        "round.complete",
    ):
        assert action in actions


def test_R_6_missing_results_block_the_next_round_until_a_double_loss_is_recorded(
    event8, organiser
):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    _start(rnd, organiser)
    matches = list(rnd.matches.prefetch_related("seats"))
    for m in matches[:-1]:
        services.slip_enter(match=m, result=Result.win(m.seats.all()[0].registration), by=organiser)
    with pytest.raises(ResultsMissing, match="1 result\\(s\\) missing"):
        round_pair(event=event8, group="open", by=organiser)
    services.slip_enter(
        match=matches[-1], result=Result.of(outcome=Outcome.DOUBLE_LOSS), by=organiser
    )
    (rnd2,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    assert rnd2.number == 2


def test_stale_slip_with_a_different_result_is_a_conflict_and_changes_nothing(event8, organiser):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    _start(rnd, organiser)
    m = rnd.matches.prefetch_related("seats").first()
    p1, p2 = (s.registration for s in m.seats.all())
    services.slip_enter(match=m, result=Result.win(p1), version=0, by=organiser)
    with pytest.raises(ResultConflict, match=f"just recorded as {p1.player.name} wins"):
        services.slip_enter(match=m, result=Result.win(p2), version=0, by=organiser)
    m.refresh_from_db()
    assert (m.winner_id, m.version) == (p1.pk, 1)
    assert AuditEvent.objects.filter(event=event8, action__startswith="result.").count() == 1


def test_double_submit_of_the_same_slip_is_harmless(event8, organiser):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    _start(rnd, organiser)
    m = rnd.matches.first()
    services.slip_enter(match=m, result=Result.draw(), version=0, by=organiser)
    services.slip_enter(match=m, result=Result.draw(), version=0, by=organiser)
    m.refresh_from_db()
    assert (m.outcome, m.version) == (Outcome.DRAW, 1)
    assert AuditEvent.objects.filter(event=event8, action__startswith="result.").count() == 1


def test_impossible_slips_are_refused(event8, organiser):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    m = rnd.matches.first()
    with pytest.raises(RoundStateError, match="has not started"):
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    _start(rnd, organiser)
    stranger = Registration.objects.filter(event=event8).exclude(seats__match=m).first()
    with pytest.raises(InvalidInput, match="one of the two players"):
        services.slip_enter(match=m, result=Result.win(stranger), by=organiser)
    with pytest.raises(InvalidInput, match="not a match result"):
        services.slip_enter(match=m, result=Result.of(outcome="bye"), by=organiser)
    m.refresh_from_db()
    assert m.outcome == Outcome.PENDING


def test_P_POST_4_round_1_correctable_after_round_2_paired_locked_once_round_3_paired(
    event8, organiser
):
    r1 = _pair_and_play(event8, organiser, seed=1)
    m = r1.matches.prefetch_related("seats").first()
    loser = m.seats.all()[1].registration
    r2 = _pair_and_play(event8, organiser, seed=2)
    services.slip_enter(match=m, result=Result.win(loser), by=organiser, reason="slip misread")
    m.refresh_from_db()
    assert m.winner_id == loser.pk
    round_pair(event=event8, group="open", by=organiser, seed=3)
    with pytest.raises(RecordLocked, match="second subsequent round has been paired"):
        services.slip_enter(match=m, result=Result.draw(), by=organiser, reason="late appeal")
    assert r2.matches.exists()
    entry = AuditEvent.objects.get(event=event8, action="result.correct")
    assert entry.reason == "slip misread" and entry.old["winner"] != entry.new["winner"]


def test_database_refuses_a_player_seated_twice_in_one_round(event8, organiser):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    seat = MatchSeat.objects.filter(round=rnd).first()
    other = Match.objects.filter(round=rnd).exclude(pk=seat.match_id).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchSeat.objects.create(match=other, round=rnd, registration=seat.registration, seat=3)


def test_drop_keeps_the_player_out_of_later_rounds(event8, organiser):
    _pair_and_play(event8, organiser, seed=1)
    reg = Registration.objects.filter(event=event8).first()
    services.registration_drop(registration=reg, by=organiser)
    reg.refresh_from_db()
    assert reg.dropped_after_round == 1
    (r2,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    assert not MatchSeat.objects.filter(round=r2, registration=reg).exists()
    assert MatchSeat.objects.filter(round=r2).count() == 7  # 6 in matches + 1 bye
    with pytest.raises(InvalidInput, match="already dropped"):
        services.registration_drop(registration=reg, by=organiser)


def test_P_LATE_1_late_player_gets_a_loss_for_every_started_round(event8, organiser):
    _pair_and_play(event8, organiser, seed=1)
    late = services.registration_add(event=event8, name="Late Larry", by=organiser)
    assert late.late
    losses = Match.objects.filter(seats__registration=late)
    assert [(m.round.number, m.outcome) for m in losses] == [(1, Outcome.LOSS)]


def test_P_POST_2_started_round_is_frozen_but_an_unstarted_one_can_be_discarded(event8, organiser):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    services.round_discard(round=rnd, by=organiser, reason="wrong players checked in")
    assert not event8.rounds.exists()
    assert AuditEvent.objects.get(event=event8, action="round.discard").old["seed"] == 1
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    _start(rnd, organiser)
    with pytest.raises(RoundStateError, match="its pairings are frozen"):
        services.round_discard(round=rnd, by=organiser)
    with pytest.raises(ResultsMissing):
        round_pair(event=event8, group="open", by=organiser)
    assert [m.pk for m in rnd.matches.all()] == [m.pk for m in event8.rounds.get().matches.all()]


def test_P_AGE_6_an_event_without_age_divisions_has_one_open_division(event8):
    assert [(d.code, swiss_group(d).key) for d in event8.divisions.all()] == [("open", "open")]
    assert set(
        Registration.objects.filter(event=event8).values_list("division__code", flat=True)
    ) == {"open"}


def test_P_AGE_1_pasted_players_go_to_the_division_of_their_birth_year(organiser):
    import datetime as dt

    event = services.event_create(
        name="Age Cup",
        by=organiser,
        date=dt.date(2025, 11, 30),
        divisions={"junior": "junior+senior", "senior": "junior+senior", "masters": "masters"},
    )
    regs = services.registrations_add_csv(
        event=event, text="Jun,1,2014\nSen,2,2010\nMas,3,2009\n", by=organiser
    )
    assert [r.division.code for r in regs] == ["junior", "senior", "masters"]
    with pytest.raises(InvalidInput, match="Line 1: a birth year is needed"):
        services.registrations_add_csv(event=event, text="Nobody,4,\n", by=organiser)
