"""The round clock of every ruleset: the pure clock per ruleset (pods:
MP-TIME-1; head-to-head times are the ruleset modules' own, docs/rules.md is silent), pause,
resume and added time, a table's time extension, the services' refusals, the projector
page and the staff controls with their permissions."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from rulesets import RULESETS, get_ruleset
from tests import factories
from tournaments import services
from tournaments.clock import RoundTimes, round_clock
from tournaments.errors import InvalidInput, RoundStateError
from tournaments.models import AuditEvent, Match, Outcome, Phase, Round, RoundStatus, StaffRole
from tournaments.services import Result

START = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)
HX = {"HX-Request": "true"}


def minutes(m: float) -> dt.datetime:
    return START + dt.timedelta(minutes=m)


def clock(ruleset: str, at: float, *, elimination: bool = False, **times) -> object:
    return round_clock(
        rules=get_ruleset(ruleset),
        times=RoundTimes(START, **times),
        now=minutes(at),
        elimination=elimination,
    )


# --- the pure clock, per ruleset ------------------------------------------------------


@pytest.mark.parametrize(
    ("at", "phase", "remaining"),
    [(0, "playing", 50 * 60), (49.5, "playing", 30), (50, "over", 0), (55, "over", -300)],
)
def test_mtg_swiss_round_counts_down_50_minutes(at, phase, remaining):
    c = clock("mtg", at)
    assert (c.limit, c.phase, c.remaining, c.elapsed) == (3000, phase, remaining, int(at * 60))


def test_pokemon_swiss_round_has_50_minutes_and_its_top_cut_75():
    assert clock("pokemon", 10).remaining == 40 * 60
    top_cut = clock("pokemon", 10, elimination=True)
    assert (top_cut.limit, top_cut.remaining, top_cut.phase) == (75 * 60, 65 * 60, "playing")


def test_pokemon_2009_swiss_round_has_30_minutes():
    c = clock("pokemon-2009", 31)
    assert (c.limit, c.remaining, c.phase, c.label) == (1800, -60, "over", "Time")


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_ruleset_clock_reads_its_declared_seconds(ruleset):
    rules = get_ruleset(ruleset)
    for elimination, declared in ((False, rules.round_seconds), (True, rules.elimination_seconds)):
        c = clock(ruleset, 1, elimination=elimination)
        assert c.limit == declared  # None: untimed (the pods' top cut, MP-TIME-1)
        assert c.phase == ("untimed" if declared is None else "playing")


@pytest.mark.parametrize(
    ("at", "added", "phase", "remaining"),
    [
        (79, 0, "playing", 60),
        (80, 0, "last-turn", 30 * 60),  # time: the hard 30-minute last-turn limit
        (80, 300, "playing", 300),  # added time moves time and the last turn later
        (110, 0, "over", 0),
        (112, 300, "last-turn", 180),
    ],
)
def test_MP_TIME_1_pods_keep_the_last_turn_with_added_time(at, added, phase, remaining):
    c = clock("mtg-multiplayer", at, added_seconds=added)
    assert (c.phase, c.remaining) == (phase, remaining)


def test_MP_TIME_1_pod_top_cut_stays_untimed_and_its_final_is_never_timed():
    rules = get_ruleset("mtg-multiplayer")
    common = {"rules": rules, "times": RoundTimes(START), "now": minutes(200), "elimination": True}
    assert round_clock(**common).phase == "untimed"
    drawn = round_clock(**common, intentional_draw=True, extra_seconds=600)
    assert (drawn.limit, drawn.phase) == (160 * 60, "over")  # 150 minutes + the extension
    assert round_clock(**common, intentional_draw=True, final=True).limit is None


def test_pause_freezes_elapsed_time_at_the_pause_moment():
    paused = {"paused_at": minutes(10)}
    assert clock("mtg", 10, **paused).elapsed == 600
    frozen = clock("mtg", 35, **paused)
    assert (frozen.elapsed, frozen.remaining, frozen.paused, frozen.label) == (
        600,
        2400,
        True,
        "Paused",
    )


def test_resume_goes_on_from_the_pause_leaving_the_paused_seconds_out():
    # paused 10:00 → 35:00 (25 minutes), resumed: at 45:00, 20 minutes have been played
    resumed = clock("mtg", 45, paused_seconds=25 * 60)
    assert (resumed.elapsed, resumed.remaining, resumed.paused) == (1200, 1800, False)
    assert clock("mtg", 20, paused_seconds=25 * 60).elapsed == 0  # never negative


def test_added_time_and_a_table_extension_lengthen_the_limit():
    rules = get_ruleset("mtg")
    times = RoundTimes(START, added_seconds=300)
    c = round_clock(rules=rules, times=times, now=minutes(50), elimination=False)
    assert (c.limit, c.remaining, c.phase) == (55 * 60, 300, "playing")
    table = round_clock(
        rules=rules, times=times, now=minutes(50), elimination=False, extra_seconds=180
    )
    assert table.remaining == 480


# --- services -------------------------------------------------------------------------


@pytest.fixture
def server_now(monkeypatch):
    """Set the server's clock: ``server_now(minutes)`` makes ``timezone.now()`` START + m."""

    def set_to(m: float) -> None:
        monkeypatch.setattr(timezone, "now", lambda: minutes(m))

    return set_to


def mtg_round(players: int = 8, *, status: str = RoundStatus.STARTED, ruleset: str = "mtg"):
    organiser = factories.user("org")
    ev = factories.event_with_players(players, by=organiser, ruleset=ruleset, structure="swiss")
    rnd = factories.round_in_order(ev, by=organiser, status=status)
    return ev, rnd, organiser


def state(rnd: Round) -> tuple:
    r = Round.objects.get(pk=rnd.pk)
    extras = tuple(
        Match.objects.filter(round=r).order_by("pk").values_list("extra_seconds", flat=True)
    )
    return (
        r.clock_paused_at,
        r.clock_paused_seconds,
        r.clock_added_seconds,
        extras,
        AuditEvent.objects.count(),
    )


def staff_clock(rnd: Round, at: float):
    r = Round.objects.get(pk=rnd.pk)
    assert r.started_at is not None
    times = RoundTimes(
        r.started_at, r.clock_paused_at, r.clock_paused_seconds, r.clock_added_seconds
    )
    return round_clock(rules=r.event.rules, times=times, now=minutes(at), elimination=False)


@pytest.mark.django_db
def test_pause_and_resume_freeze_and_resume_the_elapsed_time_exactly(server_now):
    ev, rnd, organiser = mtg_round()
    Round.objects.filter(pk=rnd.pk).update(started_at=START)
    server_now(10)
    services.round_clock_pause(round=rnd, by=organiser)
    assert staff_clock(rnd, 30).elapsed == 600  # frozen while paused
    server_now(25)
    services.round_clock_resume(round=rnd, by=organiser)
    assert Round.objects.get(pk=rnd.pk).clock_paused_seconds == 15 * 60
    assert staff_clock(rnd, 30).elapsed == 15 * 60
    assert staff_clock(rnd, 30).remaining == 35 * 60
    rows = AuditEvent.objects.filter(action__startswith="round.clock").order_by("pk")
    assert list(rows.values_list("action", flat=True)) == [
        "round.clock_pause",
        "round.clock_resume",
    ]


@pytest.mark.django_db
def test_add_time_extends_the_remaining_time_and_adds_up():
    ev, rnd, organiser = mtg_round()
    Round.objects.filter(pk=rnd.pk).update(started_at=START)
    services.round_clock_add_time(round=rnd, by=organiser, minutes=1)
    services.round_clock_add_time(round=rnd, by=organiser, minutes=5)
    assert staff_clock(rnd, 50).remaining == 6 * 60
    row = AuditEvent.objects.filter(action="round.clock_add").latest("pk")
    assert (row.old, row.new) == ({"added_seconds": 60}, {"added_seconds": 360})


@pytest.mark.django_db
def test_table_extensions_add_up_and_are_audited():
    ev, rnd, organiser = mtg_round()
    t2 = rnd.matches.get(table=2)
    services.match_time_extend(match=t2, by=organiser, minutes=3)
    services.match_time_extend(match=t2, by=organiser, minutes=2)
    assert Match.objects.get(pk=t2.pk).extra_seconds == 300
    assert AuditEvent.objects.filter(action="match.time_extend", object_id=str(t2.pk)).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("call", "error"),
    [
        ("pause twice", RoundStateError),
        ("resume unpaused", RoundStateError),
        ("add 0", InvalidInput),
        ("add 999", InvalidInput),
        ("add no number", InvalidInput),
        ("extend 0", InvalidInput),
        ("extend 61", InvalidInput),
        ("extend a reported table", RoundStateError),
    ],
)
def test_clock_services_refuse_bad_input_changing_nothing(call, error):
    ev, rnd, organiser = mtg_round()
    t1 = rnd.matches.get(table=1)
    if call == "pause twice":
        services.round_clock_pause(round=rnd, by=organiser)
    if call == "extend a reported table":
        services.slip_enter(match=t1, result=Result.of(outcome=Outcome.DOUBLE_LOSS), by=organiser)
    before = state(rnd)
    action = {
        "pause twice": lambda: services.round_clock_pause(round=rnd, by=organiser),
        "resume unpaused": lambda: services.round_clock_resume(round=rnd, by=organiser),
        "add 0": lambda: services.round_clock_add_time(round=rnd, by=organiser, minutes=0),
        "add 999": lambda: services.round_clock_add_time(round=rnd, by=organiser, minutes=999),
        "add no number": lambda: services.round_clock_add_time(
            round=rnd, by=organiser, minutes=None
        ),
        "extend 0": lambda: services.match_time_extend(match=t1, by=organiser, minutes=0),
        "extend 61": lambda: services.match_time_extend(match=t1, by=organiser, minutes=61),
        "extend a reported table": lambda: services.match_time_extend(
            match=t1, by=organiser, minutes=3
        ),
    }[call]
    with pytest.raises(error):
        action()
    assert state(rnd) == before


@pytest.mark.django_db
@pytest.mark.parametrize("status", [RoundStatus.PAIRED, RoundStatus.PUBLISHED])
def test_clock_services_refuse_a_round_not_started_changing_nothing(status):
    ev, rnd, organiser = mtg_round(status=status)
    before = state(rnd)
    for action in (
        lambda: services.round_clock_pause(round=rnd, by=organiser),
        lambda: services.round_clock_resume(round=rnd, by=organiser),
        lambda: services.round_clock_add_time(round=rnd, by=organiser, minutes=5),
        lambda: services.match_time_extend(match=rnd.matches.first(), by=organiser, minutes=3),
    ):
        with pytest.raises(RoundStateError, match="in progress"):
            action()
    assert state(rnd) == before


# --- the projector page ---------------------------------------------------------------


def started_minutes_ago(rnd: Round, m: float) -> None:
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(minutes=m))


@pytest.mark.django_db
def test_timer_page_answers_for_a_head_to_head_mtg_event(client):
    ev, rnd, organiser = mtg_round()
    started_minutes_ago(rnd, 20 + 5 / 60)  # 50 − 20:05 = 29:55 by the server's clock
    response = client.get(f"/e/{ev.slug}/timer/")
    html = response.content.decode()
    assert response.status_code == 200  # a 404 before: the clock was for pods only
    assert ">29:5" in html and 'data-limit-s="3000"' in html and "50-minute rounds." in html
    assert "Still playing: tables <strong>1, 2, 3, 4</strong>" in html
    assert "Pause clock" not in html and "Clock controls" not in html  # anonymous


@pytest.mark.django_db
def test_timer_page_answers_for_a_pokemon_event_with_its_top_cut_time(client):
    organiser = factories.user("org")
    ev = factories.event_with_players(8, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser, phase=Phase.TOP_CUT)
    started_minutes_ago(rnd, 5 + 5 / 60)
    response = client.get(f"/e/{ev.slug}/timer/")
    assert response.status_code == 200
    assert ">69:5" in response.content.decode()  # 75 − 5:05 minutes


@pytest.mark.django_db
def test_timer_page_shows_paused_added_time_and_table_extensions(client):
    ev, rnd, organiser = mtg_round()
    started_minutes_ago(rnd, 10)
    services.round_clock_add_time(round=rnd, by=organiser, minutes=5)
    services.match_time_extend(match=rnd.matches.get(table=4), by=organiser, minutes=3)
    services.round_clock_pause(round=rnd, by=organiser)
    html = client.get(f"/e/{ev.slug}/timer/").content.decode()
    assert 'class="clock-label">Paused<' in html and " data-paused" in html
    assert ">45:0" in html and 'data-limit-s="3300"' in html  # 50 + 5 − 10 minutes
    assert "Time added to the round: +5 min." in html
    assert "<li>Table 4: +3 min</li>" in html


@pytest.mark.django_db
def test_timer_page_needs_a_fixed_number_of_queries(client, django_assert_num_queries):
    ev, rnd, organiser = mtg_round(players=16)
    services.match_time_extend(match=rnd.matches.get(table=1), by=organiser, minutes=3)
    # the event, its started rounds (with their pairing groups), the groups' divisions (the
    # groups' names), their tables; the live versions the page shows
    with django_assert_num_queries(5):
        assert client.get(f"/e/{ev.slug}/timer/").status_code == 200


# --- staff controls and permissions ---------------------------------------------------


def url(ev, rnd, action: str = "") -> str:
    return f"/e/{ev.slug}/staff/rounds/{rnd.pk}/clock/{action}"


def extend_url(ev, match) -> str:
    return f"/e/{ev.slug}/staff/matches/{match.pk}/extend-time/"


@pytest.mark.django_db
def test_staff_round_page_shows_the_clock_controls_and_a_tables_extension(client):
    ev, rnd, organiser = mtg_round()
    services.match_time_extend(match=rnd.matches.get(table=2), by=organiser, minutes=3)
    client.force_login(organiser)
    html = client.get(f"/e/{ev.slug}/staff/rounds/{rnd.pk}/").content.decode()
    assert f'action="{url(ev, rnd, "pause/")}"' in html and "+5 min" in html
    assert f'action="{url(ev, rnd, "add/")}"' in html
    assert "Time extension +3 min" in html
    assert html.count("Extend time") == 4  # a form per table
    assert f'href="/e/{ev.slug}/timer/"' in html
    assert 'name="csrfmiddlewaretoken"' in html


@pytest.mark.django_db
def test_round_page_before_the_start_has_no_clock(client):
    ev, rnd, organiser = mtg_round(status=RoundStatus.PUBLISHED)
    client.force_login(organiser)
    html = client.get(f"/e/{ev.slug}/staff/rounds/{rnd.pk}/").content.decode()
    assert "Pause clock" not in html and "Extend time" not in html


@pytest.mark.django_db
def test_pause_without_javascript_redirects_back_and_resume_runs_again(client):
    ev, rnd, organiser = mtg_round()
    client.force_login(organiser)
    page = f"/e/{ev.slug}/staff/rounds/{rnd.pk}/"
    response = client.post(url(ev, rnd, "pause/"), {"next": page})
    assert (response.status_code, response["Location"]) == (302, page)
    html = client.get(page).content.decode()
    assert "Resume clock" in html and "Pause clock" not in html
    client.post(url(ev, rnd, "resume/"), {"next": page})
    assert Round.objects.get(pk=rnd.pk).clock_paused_at is None


@pytest.mark.django_db
def test_a_foreign_next_is_not_followed(client):
    ev, rnd, organiser = mtg_round()
    client.force_login(organiser)
    response = client.post(url(ev, rnd, "add/"), {"minutes": "5", "next": "https://evil.example/"})
    assert response["Location"] == url(ev, rnd)
    assert Round.objects.get(pk=rnd.pk).clock_added_seconds == 300


@pytest.mark.django_db
def test_htmx_add_time_answers_the_clock_partial_and_a_refusal_with_422(client):
    ev, rnd, organiser = mtg_round()
    client.force_login(organiser)
    ok = client.post(url(ev, rnd, "add/"), {"minutes": "5"}, headers=HX)
    assert ok.status_code == 200 and 'id="round-clock"' in ok.content.decode()
    assert "+5 min" in ok.content.decode()
    refused = client.post(url(ev, rnd, "add/"), {"minutes": "999"}, headers=HX)
    assert refused.status_code == 422 and "between 1 and 60 minutes" in refused.content.decode()
    assert Round.objects.get(pk=rnd.pk).clock_added_seconds == 300


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("organiser", 302),
        (StaffRole.SCOREKEEPER, 302),
        (StaffRole.JUDGE, 302),
        ("other event's staff", 403),
        ("player", 403),
        ("anonymous", "login"),
    ],
)
def test_who_may_pause_the_clock(client, who, expected):
    ev, rnd, organiser = mtg_round()
    if who == "organiser":
        client.force_login(organiser)
    elif who == "other event's staff":
        other = factories.event(by=factories.user("else"), name="Other Cup")
        client.force_login(factories.staff(other, StaffRole.ORGANISER, username="someone"))
    elif who == "player":
        client.force_login(factories.user("a-player"))
    elif who != "anonymous":
        client.force_login(factories.staff(ev, who))
    before = Round.objects.get(pk=rnd.pk).clock_paused_at
    response = client.post(url(ev, rnd, "pause/"))
    paused = Round.objects.get(pk=rnd.pk).clock_paused_at is not None
    if expected == "login":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == expected
    assert paused == (expected == 302) and before is None


@pytest.mark.django_db
def test_judge_extends_a_table_from_the_clock_page(client):
    ev, rnd, organiser = mtg_round()
    client.force_login(factories.staff(ev, StaffRole.JUDGE))
    page = client.get(url(ev, rnd)).content.decode()
    t4 = rnd.matches.get(table=4)
    assert f'action="{extend_url(ev, t4)}"' in page and "Pause clock" in page
    response = client.post(extend_url(ev, t4), {"minutes": "3"}, headers=HX)
    assert response.status_code == 200 and "Time extension +3 min" in response.content.decode()
    assert Match.objects.get(pk=t4.pk).extra_seconds == 180
    row = AuditEvent.objects.get(action="match.time_extend")
    assert row.actor.username == f"judge-{ev.pk}"


@pytest.mark.django_db
def test_players_and_anonymous_visitors_cannot_extend_a_table(client):
    ev, rnd, organiser = mtg_round()
    t1 = rnd.matches.get(table=1)
    assert client.post(extend_url(ev, t1), {"minutes": "3"}).status_code == 302  # to log in
    assert client.get(url(ev, rnd)).status_code == 302
    client.force_login(factories.user("a-player"))
    assert client.post(extend_url(ev, t1), {"minutes": "3"}).status_code == 403
    assert client.get(url(ev, rnd)).status_code == 403
    assert Match.objects.get(pk=t1.pk).extra_seconds == 0


@pytest.mark.django_db
def test_staff_see_a_link_to_the_controls_on_the_projector_page(client):
    ev, rnd, organiser = mtg_round()
    client.force_login(factories.staff(ev, StaffRole.JUDGE))
    html = client.get(f"/e/{ev.slug}/timer/").content.decode()
    assert f'href="{url(ev, rnd)}"' in html


@pytest.mark.django_db
def test_dashboard_links_to_the_projector_clock(client):
    ev, rnd, organiser = mtg_round()
    client.force_login(organiser)
    html = client.get(f"/e/{ev.slug}/staff/").content.decode()
    assert f'href="/e/{ev.slug}/timer/"' in html
