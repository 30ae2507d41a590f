"""Pod events: cut sizes on the event itself (MP-SE-1), intentional draws and the
150-minute rule (MP-TIME-1), the points label of the standard pod size (MP-PTS-1),
late-entry losses in the standings (P-LATE-1) and corrections of who conceded (P-SW-9
for pods)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from pairings.services import round_pair
from standings.engine.multiplayer import points_per_win as engine_points_per_win
from standings.services import group_standings
from tests.factories import group_row
from tests.pod_factories import play, pod_event, seats
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.forms import EventForm
from tournaments.models import AuditEvent, Outcome
from tournaments.multiplayer import match_points_rule
from tournaments.selectors.timer import timer_for_public
from tournaments.services import Result, pod_intentional_draw_note, result_correct, slip_enter

pytestmark = pytest.mark.django_db


def start(rnd, by):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    return rnd


@pytest.mark.parametrize("cut", [4, 7, 10, 13, 16, 40, 64])
def test_MP_SE_1_a_multiplayer_event_announces_a_pod_cut_itself(organiser, cut):
    event = services.event_create(
        name="Pods", ruleset="mtg-multiplayer", top_cut_size=cut, by=organiser
    )
    assert event.top_cut_size == cut and event.divisions.get().cut == cut


@pytest.mark.parametrize(
    ("ruleset", "cut", "message"),
    [
        ("pokemon", 7, "2, 4, 8, 16, 32, 64"),
        ("mtg", 10, "2, 4, 8, 16, 32, 64"),
        ("mtg-multiplayer", 8, "4, 7, 10, 13, 16, 40, 64"),
        ("mtg-multiplayer", 2, "4, 7, 10, 13, 16, 40, 64"),
    ],
)
def test_MP_SE_1_each_ruleset_keeps_its_own_cut_sizes(organiser, ruleset, cut, message):
    with pytest.raises(InvalidInput, match=message):
        services.event_create(name="X", ruleset=ruleset, top_cut_size=cut, by=organiser)


def test_MP_SE_1_the_create_form_offers_pod_cuts_for_pod_events_only():
    base = {"name": "X", "structure": "swiss-top-cut", "divisions": "open", "swiss_rounds": 3}
    assert EventForm({**base, "ruleset": "mtg-multiplayer", "top_cut_size": 10}).is_valid()
    form = EventForm({**base, "ruleset": "pokemon", "top_cut_size": 10})
    assert not form.is_valid() and "2, 4, 8, 16, 32, 64" in str(form.errors["top_cut_size"])
    form = EventForm({**base, "ruleset": "mtg-multiplayer", "top_cut_size": 8})
    assert not form.is_valid() and "4, 7, 10, 13, 16, 40, 64" in str(form.errors)


def test_MP_SE_1_the_announced_pod_cut_lives_on_the_event(organiser):
    event = pod_event(10, by=organiser, cut=7)
    event.refresh_from_db()
    assert event.top_cut_size == 7 and event.divisions.get().top_cut_size is None


def test_P_RT_6_dashboard_heading_names_the_multiplayer_table(client, organiser, event8):
    client.force_login(organiser)
    pokemon = client.get(f"/e/{event8.slug}/staff/").content.decode()
    assert '<th title="P-RT-1">Recommended</th>' in pokemon  # the rule ID as a tooltip
    event = pod_event(8, by=organiser)
    html = client.get(f"/e/{event.slug}/staff/").content.decode()
    assert '<th title="P-RT-6">Recommended</th>' in html and "P-RT-1" not in html


def _cut_round(organiser, players, cut):
    event = pod_event(players, by=organiser, rounds=1, cut=cut)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=1)
    play(r1, organiser)
    (top,) = round_pair(event=event, group="open", by=organiser)
    return event, start(top, organiser)


def test_MP_TIME_1_an_intentional_draw_is_recorded_on_the_match_once(organiser):
    event, top = _cut_round(organiser, 7, 7)
    m = top.matches.get(table=1)
    first = pod_intentional_draw_note(match=m, by=organiser).intentional_draw_at
    assert first is not None
    assert pod_intentional_draw_note(match=m, by=organiser).intentional_draw_at == first
    assert AuditEvent.objects.filter(action="pod.intentional-draw").count() == 1
    (clock,) = timer_for_public(event, first)
    assert clock.clock.limit == 150 * 60


def test_MP_TIME_1_the_clock_reads_the_match_field(organiser):
    event, top = _cut_round(organiser, 7, 7)
    (clock,) = timer_for_public(event, timezone.now())
    assert clock.clock.phase == "untimed"
    top.matches.filter(table=1).update(intentional_draw_at=timezone.now())
    (clock,) = timer_for_public(event, timezone.now())
    assert clock.clock.label.startswith("150-minute")


def test_MP_TIME_1_the_final_is_never_timed_even_after_an_intentional_draw(organiser):
    event, final = _cut_round(organiser, 4, 4)  # top 4: one pod, the final
    pod_intentional_draw_note(match=final.matches.get(), by=organiser)
    (clock,) = timer_for_public(event, timezone.now())
    assert clock.final and clock.clock.phase == "untimed" and clock.clock.limit is None


def test_MP_TIME_1_intentional_draws_are_noted_only_in_a_running_top_cut(organiser):
    event = pod_event(8, by=organiser)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    start(rnd, organiser)
    with pytest.raises(Exception, match="top-cut"):
        pod_intentional_draw_note(match=rnd.matches.get(table=1), by=organiser)


@pytest.mark.parametrize("size", [3, 4])
def test_MP_PTS_1_page_points_follow_the_standings_strategy(size):
    event = type("E", (), {"ruleset": "mtg-multiplayer", "options": {"pod_size": size}})()
    rule = match_points_rule(event)
    assert rule(1, 0) == engine_points_per_win(size) == 2 * size - 1
    assert rule(2, 3) == 2 * (2 * size - 1) + 3


def test_MP_PTS_1_round_page_points_use_pod_size_3_and_skip_conceded_draws(client, organiser):
    event = pod_event(6, by=organiser, rounds=2, pod_size=3)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=5)
    start(r1, organiser)
    t1, t2 = r1.matches.order_by("table")
    winner = seats(t1)[0]
    slip_enter(match=t1, result=Result.of(winner=winner), by=organiser)
    b = seats(t2)
    slip_enter(match=t2, result=Result.draw([b[0].pk]), by=organiser)
    (r2,) = round_pair(event=event, group="open", by=organiser, seed=6)
    client.force_login(organiser)
    html = client.get(f"/e/{event.slug}/staff/rounds/{r2.pk}/").content.decode()
    assert f"{winner.player.name}</bdi></span> <small>1-0-0 · 5 pts</small>" in html
    assert f"{b[0].player.name}</bdi></span> <small>0-1-0 · 0 pts</small>" in html
    assert f"{b[1].player.name}</bdi></span> <small>0-0-1 · 1 pt</small>" in html
    rows = {r.player: r.match_points for r in group_standings(event, group_row(event, "open")).rows}
    assert rows[str(winner.pk)] == 5 and rows[str(b[0].pk)] == 0


def test_P_LATE_1_late_entry_losses_count_as_rounds_played_with_no_points(organiser):
    event = pod_event(8, by=organiser, rounds=3)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=1)
    play(r1, organiser)
    late = services.registration_add(event=event, name="Late Larry", by=organiser)
    assert late.seats.get().match.outcome == Outcome.LOSS
    (r2,) = round_pair(event=event, group="open", by=organiser, seed=2)
    start(r2, organiser)
    m = r2.matches.get(seats__registration=late)
    slip_enter(match=m, result=Result.of(winner=late), by=organiser)
    for other in r2.matches.exclude(pk=m.pk):
        slip_enter(match=other, result=Result.of(winner=seats(other)[0]), by=organiser)
    line = next(
        r for r in group_standings(event, group_row(event, "open")).rows if r.player == str(late.pk)
    )
    assert line.record == "1-1-0" and line.match_points == 7
    assert line.tiebreakers["mwp"] == 0.5  # 7 ÷ (2 matches × 7): the late loss counts


def test_P_SW_9_a_correction_of_who_conceded_marks_later_pods(organiser):
    event = pod_event(8, by=organiser, rounds=3)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=1)
    start(r1, organiser)
    t1, t2 = r1.matches.order_by("table")
    slip_enter(match=t1, result=Result.of(winner=seats(t1)[0]), by=organiser)
    m = slip_enter(match=t2, result=Result.draw(), by=organiser)  # a draw shared by all four
    (r2,) = round_pair(event=event, group="open", by=organiser, seed=2)
    conceder = seats(t2)[2]
    m.refresh_from_db()
    result_correct(
        match=m,
        result=Result.of(winner=None, conceded=[conceder.pk]),
        version=m.version,
        reason="Seat 3 had conceded",
        by=organiser,
    )
    marked = r2.matches.filter(bracket_changed=True)
    assert list(marked) == list(r2.matches.filter(seats__registration=conceder))
    assert AuditEvent.objects.filter(action="pairing.bracket_changed").count() == 1


def test_P_SW_9_a_marked_pod_round_is_paired_again_from_the_corrected_standings(client, organiser):
    event = pod_event(8, by=organiser, rounds=3)
    (r1,) = round_pair(event=event, group="open", by=organiser, seed=1)
    start(r1, organiser)
    t1, t2 = r1.matches.order_by("table")
    m = slip_enter(match=t1, result=Result.of(winner=seats(t1)[0]), by=organiser)
    slip_enter(match=t2, result=Result.of(winner=seats(t2)[0]), by=organiser)
    (r2,) = round_pair(event=event, group="open", by=organiser, seed=2)
    m.refresh_from_db()
    new_winner = seats(t1)[1]
    result_correct(
        match=m,
        result=Result.of(winner=new_winner),
        version=m.version,
        reason="wrong seat",
        by=organiser,
    )
    client.force_login(organiser)
    url = f"/e/{event.slug}/staff/rounds/{r2.pk}/repair/"
    assert "Pair round 2 again" in client.get(url).content.decode()
    response = client.post(url)
    assert response.status_code == 302
    new = event.rounds.get(number=2)
    assert new.pk != r2.pk and not new.matches.filter(bracket_changed=True).exists()
    top = new.matches.get(table=1)
    assert {new_winner.pk, seats(t2)[0].pk} <= {r.pk for r in seats(top)}
    assert AuditEvent.objects.filter(action="round.discard").exists()
