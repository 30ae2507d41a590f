"""The event planner on the pages and help where it is needed (item 6):
the New-event plan, the estimated finish on the dashboard and the public event page, the
dashboard's "what next" line, the standings columns page and the staff help pages."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from pairings.checkin_services import checkin_close
from pairings.services import round_pair
from rulesets import get_ruleset
from tests import factories
from tests.pairings.test_age_divisions import AGES, age_event
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import Event, EventStatus, RoundStatus, StaffRole
from tournaments.permissions import CAPABILITIES
from tournaments.planning import plan_for_event
from tournaments.views.guides import CAPABILITY_TEXT

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
PLAN_600 = {
    "players": 600,
    "start": "09:00",
    "round_minutes": 50,
    "break_minutes": 10,
    "tables": 300,
}


def at(hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime(2026, 5, 9, hour, minute))


def test_new_event_page_plans_600_masters_with_rounds_cut_and_finish(client, organiser):
    client.force_login(organiser)
    response = client.get(reverse("staff:event_create"), PLAN_600)
    plan = response.context["plan"]
    assert [(d.division, d.rounds, d.cut) for d in plan.divisions] == [("masters", 10, 8)]
    assert timezone.localtime(plan.finish).strftime("%H:%M") == "23:05"
    body = response.content.decode()
    assert re.search(r'id="plan-finish"[^>]*>\s*23:05<', body)
    starts = re.findall(r'data-round="(\d+)" data-phase="([a-z-]+)"', body)
    assert starts == [(str(n), "swiss") for n in range(1, 11)] + [
        (str(n), "top-cut") for n in (11, 12, 13)
    ]
    assert "09:00–09:50" in body and "21:50–23:05" in body


def test_the_plan_fragment_follows_the_inputs_and_carries_them_to_the_event_form(client, organiser):
    client.force_login(organiser)
    response = client.get(reverse("staff:event_create"), PLAN_600 | {"tables": 200}, headers=HX)
    body = response.content.decode()
    assert body.strip().startswith('<div id="recommendation"')
    assert "2 flights take turns at the tables, 9 Swiss rounds each" in body
    for name, value in (("players", "600"), ("start", "09:00"), ("tables", "200")):
        assert f'form="event-form" name="{name}" value="{value}"' in body


def test_creating_an_event_saves_what_the_day_is_planned_with(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_create"),
        {
            "name": "Big Regional",
            "ruleset": "pokemon",
            "structure": "swiss-top-cut",
            "divisions": "age-modified",
            "swiss_rounds": 10,
            "top_cut_size": 8,
            "date": "2026-05-09",
            "players": 600,
            "senior": 80,
            "junior": 0,
            "start": "09:30",
            "round_minutes": 55,
            "break_minutes": 5,
            "tables": 350,
        },
    )
    assert response.status_code == 302
    event = Event.objects.get(name="Big Regional")
    assert event.expected_players == {"masters": 600, "senior": 80}
    assert (event.planned_start, event.planned_round_seconds) == (dt.time(9, 30), 55 * 60)
    assert (event.planned_break_seconds, event.planned_tables) == (5 * 60, 350)


def test_a_refused_plan_input_creates_nothing_and_says_which(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_create"),
        {
            "name": "Too Quick",
            "ruleset": "mtg",
            "structure": "swiss",
            "divisions": "open",
            "swiss_rounds": 3,
            "top_cut_size": 0,
            "round_minutes": 5,
        },
    )
    assert response.status_code == 200
    assert not Event.objects.filter(name="Too Quick").exists()
    assert response.context["form"].non_field_errors() == [
        "Round length (minutes): Ensure this value is greater than or equal to 10."
    ]
    assert 'placeholder="50"' in response.content.decode()  # Magic: 50 minutes


def test_without_planner_inputs_an_event_keeps_the_ruleset_lengths(organiser):
    event = factories.event(by=organiser)
    assert (event.planned_start, event.planned_round_seconds, event.planned_tables) == (
        None,
        None,
        None,
    )
    assert event.planned_break_seconds == 600 and event.expected_players == {}
    assert plan_for_event(event) is None  # no players, no start: nothing to plan


def _planned_event(organiser) -> Event:
    return factories.event_with_players(
        8,
        by=organiser,
        swiss_rounds=3,
        top_cut_size=0,
        date=dt.date(2026, 5, 9),
        planned_start=dt.time(9, 0),
        planned_round_seconds=50 * 60,
    )


def test_the_estimated_finish_moves_when_a_round_runs_long(client, organiser):
    event = _planned_event(organiser)
    url = reverse("public:event", args=[event.slug])
    assert plan_for_event(event, now=at(8)).finish == at(11, 50)  # 3 × 50 + 2 × 10
    assert re.search(r'id="estimated-finish"[^>]*>.*?<strong>11:50</strong>', _get(client, url))
    rnd = factories.round_in_order(event, by=organiser, status=RoundStatus.STARTED)
    rnd.__class__.objects.filter(pk=rnd.pk).update(
        started_at=at(9), completed_at=at(10, 30), status=RoundStatus.COMPLETE
    )  # round 1 ran 40 minutes long
    assert plan_for_event(event, now=at(10, 31)).finish == at(12, 30)
    assert re.search(r'id="estimated-finish"[^>]*>.*?<strong>12:30</strong>', _get(client, url))


def test_a_round_still_running_past_its_time_pushes_the_finish_to_now(organiser):
    event = _planned_event(organiser)
    rnd = factories.round_in_order(event, by=organiser, status=RoundStatus.STARTED)
    rnd.__class__.objects.filter(pk=rnd.pk).update(started_at=at(9))
    assert plan_for_event(event, now=at(9, 30)).finish == at(11, 50)
    assert plan_for_event(event, now=at(10, 5)).finish == at(12, 5)


def _get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_dashboard_shows_the_estimated_finish(client, organiser):
    event = _planned_event(organiser)
    client.force_login(organiser)
    body = _get(client, reverse("staff:dashboard", args=[event.slug]))
    assert re.search(r'id="estimated-finish"[^>]*>.*?<strong>11:50</strong>', body)


# --- what next ------------------------------------------------------------------------


def _next(client, event: Event) -> tuple[str, str]:
    response = client.get(reverse("staff:dashboard", args=[event.slug]))
    step = response.context["next_step"]
    return step.step, step.text


def test_what_next_at_every_step_of_the_day(client, organiser):
    client.force_login(organiser)
    event = factories.event(by=organiser, swiss_rounds=1, top_cut_size=0, structure="swiss")
    assert _next(client, event) == (
        "players",
        "Add the players: one by one or from a spreadsheet.",
    )
    for i in range(4):
        services.registration_add(event=event, name=f"P{i}", player_id=str(i), by=organiser)
    assert _next(client, event)[0] == "checkin"
    rnd = factories.round_in_order(event, by=organiser, status=RoundStatus.PAIRED)
    assert _next(client, event) == ("publish", "review round 1 and publish it.")
    services.round_publish(round=rnd, by=organiser)
    assert _next(client, event) == ("start", "start round 1 when the players are seated.")
    services.round_start(round=rnd, by=organiser)
    assert _next(client, event) == ("results", "enter the 2 missing results of round 1.")
    body = _get(client, reverse("staff:dashboard", args=[event.slug]))
    assert f'href="/e/{event.slug}/staff/rounds/{rnd.pk}/?missing=1"' in body
    Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    assert _next(client, event) == (
        "finished",
        "The event is over: check the final standings.",
    )


# --- the standings columns explained --------------------------------------------------


@pytest.mark.parametrize("ruleset", ["pokemon", "mtg", "bo3-wins-against", "pokemon-2009"])
def test_standings_help_explains_every_column_of_the_events_ruleset(client, organiser, ruleset):
    rules = get_ruleset(ruleset)
    structure = "swiss" if "swiss" in {s.value for s in rules.structures} else ""
    event = factories.event(by=organiser, ruleset=ruleset, structure=structure or "swiss")
    body = _get(client, reverse("public:standings_help", args=[event.slug]))
    for column in rules.columns:
        assert f'data-column="{column.key}"' in body
        assert str(column.explanation).replace("'", "&#x27;") in body
    points = f"Match points: {rules.points_per_win()} for a win or a bye"
    assert points in body


def test_standings_link_to_the_columns_page(client, organiser):
    event = factories.event(by=organiser)
    body = _get(client, reverse("public:event", args=[event.slug]))
    assert reverse("public:standings_help", args=[event.slug]) in body


# --- staff help per role --------------------------------------------------------------


@pytest.mark.parametrize("role", list(StaffRole.values))
def test_staff_help_says_what_each_role_can_do(client, organiser, role):
    event = factories.event(by=organiser)
    client.force_login(organiser)
    response = client.get(reverse("staff:help", args=[event.slug, role]))
    assert response.status_code == 200
    expected = [str(CAPABILITY_TEXT[c]) for c, (who, _) in CAPABILITIES.items() if role in who]
    assert [str(t) for t in response.context["can_do"]] == expected
    body = response.content.decode()
    assert "How self-reporting works" in body
    assert "it is recorded at once" in body  # the event's mode: accept


def test_a_judge_may_operate_nothing_and_is_told_so(client, organiser):
    event = factories.event(by=organiser)
    judge = factories.staff(event, StaffRole.JUDGE)
    client.force_login(judge)
    response = client.get(reverse("staff:help_home", args=[event.slug]))  # their own role
    assert response.context["role"] == StaffRole.JUDGE
    assert str(CAPABILITY_TEXT["operate"]) not in [str(t) for t in response.context["can_do"]]
    assert str(CAPABILITY_TEXT["operate"]) in [str(t) for t in response.context["cannot_do"]]


def test_staff_help_is_for_the_events_staff_only(client, organiser):
    event = factories.event(by=organiser)
    url = reverse("staff:help", args=[event.slug, "organiser"])
    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(factories.user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(reverse("staff:help", args=[event.slug, "captain"])).status_code == 404


# --- one structure on every page, the one check-in applies ----------


def _age_event(organiser, counts: dict[str, int], **kwargs) -> Event:
    """A Pokémon event with Junior, Senior and Masters announced as a newcomer would
    from the 30 players in total (5 rounds, top 8) and ``counts`` players registered."""
    return age_event(organiser, counts, **({"swiss_rounds": 5, "top_cut_size": 8} | kwargs))


def _structures(event: Event) -> dict[str, tuple[int, int]]:
    return {d.code: (d.rounds, d.cut) for d in event.divisions.all()}


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        # age-separated: each division reads P-RT-1 with its own players, not 30 → top 8
        ({"junior": 6, "senior": 8, "masters": 16}, {"junior": (3, 0), "senior": (3, 0), "masters": (5, 4)}),
        # age-modified: Masters 17 → top 4 (4/17); Seniors 8 → top 2, Juniors 5 → none
        ({"junior": 5, "senior": 8, "masters": 17}, {"junior": (3, 0), "senior": (3, 2), "masters": (5, 4)}),
        ({"junior": 7, "senior": 8, "masters": 15}, {"junior": (3, 0), "senior": (3, 0), "masters": (5, 4)}),
    ],
)  # fmt: skip
def test_settings_page_recommends_per_division_exactly_what_check_in_sets(
    client, organiser, counts, expected
):
    ev = _age_event(organiser, counts)
    client.force_login(organiser)
    response = client.get(reverse("staff:team", args=[ev.slug]))
    shown = {d.code: d.recommended for d in response.context["structure"]["divisions"]}
    assert shown == expected
    assert "recommendation" not in response.context["structure"]  # no "30 players: top 8"
    body = response.content.decode()
    assert re.search(
        r'data-division="masters"[^>]*>Masters, \d+ players: <strong>5 Swiss rounds, top 4', body
    )
    assert "closing check-in sets the recommendation unless you choose otherwise" in body
    checkin_close(event=ev, by=organiser)
    assert _structures(ev) == expected  # check-in applied the very same numbers
    dashboard = client.get(reverse("staff:dashboard", args=[ev.slug]))
    assert {d.code: d.recommended for d in dashboard.context["divisions"]} == expected
    assert not any(d.differs for d in dashboard.context["divisions"])


def test_the_dashboard_says_which_applies_when_the_announced_cut_is_not_the_recommended(
    client, organiser
):
    ev = _age_event(organiser, {"junior": 5, "senior": 8, "masters": 17})
    client.force_login(organiser)
    url = reverse("staff:dashboard", args=[ev.slug])
    checkin_close(event=ev, by=organiser)
    body = _get(client, url)
    # Seniors: announced top 2 and recommended top 2 (P-AGE-5), never "no top cut"
    assert re.search(r'data-division="senior">3 Swiss rounds, top 2</td>', body)
    checkin_close(event=ev, by=organiser, top_cut=8)  # the organiser's own cut (S-3)
    assert _structures(ev) == {"junior": (3, 2), "senior": (3, 4), "masters": (5, 8)}
    body = _get(client, url)
    assert re.search(
        r'data-division="masters">5 Swiss rounds, top 4 <small class="muted">\(closing '
        r"check-in sets this unless you choose otherwise\)</small>",
        body,
    )
    (rnd,) = round_pair(event=ev, group="masters", by=organiser, seed=1)
    body = _get(client, url)
    assert (
        "The announced structure applies; the table recommends 5 Swiss rounds, top 4 for "
        "17 players." in body
    )
    assert (
        "The announced structure applies; the table recommends 3 Swiss rounds, top 2 for "
        "8 players." in body
    )


def test_the_new_event_plan_counts_no_table_for_a_bye_and_one_per_pod(client, organiser):
    client.force_login(organiser)
    url = reverse("staff:event_create")
    ages = client.get(url, {"ruleset": "pokemon", "players": 15, "senior": 8, "junior": 7})
    assert ages.context["plan"].tables_needed == 14  # 7 + 4 + 3: the byes take none
    assert "a round needs 14 tables." in ages.content.decode()
    pods = client.get(url, {"ruleset": "mtg-multiplayer", "players": 22})
    assert pods.context["plan"].tables_needed == 6  # 4 pods of 4, 2 of 3 (MP-POD-1)
    assert "a round needs 6 tables." in pods.content.decode()


def test_use_these_gives_every_division_its_structure_and_the_public_page_shows_them(
    client, organiser
):
    client.force_login(organiser)
    url = reverse("staff:event_create")
    planned = {"players": 17, "senior": 8, "junior": 5, "start": "09:00"}
    page = client.get(url, {"ruleset": "pokemon"} | planned).content.decode()
    fill = "masters:5:4,senior:3:2,junior:3:0"
    assert (
        f'data-fill-rounds="5" data-fill-cut="4" data-fill-day2="0" data-fill-divisions="{fill}"'
        in page
    )
    assert 'type="hidden" name="division_structure"' in page
    form = {
        "name": "Spring Cup",
        "ruleset": "pokemon",
        "structure": "swiss-top-cut",
        "divisions": "age",
        "swiss_rounds": 5,
        "top_cut_size": 4,
        "date": "2026-05-09",
        "division_structure": fill,  # what "Use these" copies
    } | planned
    assert client.post(url, form).status_code == 302
    ev = Event.objects.get(name="Spring Cup")
    assert _structures(ev) == {"junior": (3, 0), "senior": (3, 2), "masters": (5, 4)}
    assert ev.divisions.get(code="masters").top_cut_size is None  # the event's own
    schedule = plan_for_event(ev, now=at(8))
    assert {d.division: (d.rounds, d.cut) for d in schedule.divisions} == {
        "masters": (5, 4),
        "senior": (3, 2),
        "junior": (3, 0),
    }
    Event.objects.filter(pk=ev.pk).update(listing="listed")  # published
    client.logout()
    public = _get(client, reverse("public:event", args=[ev.slug]))
    assert public.count("Each division's own, below") == 2
    assert re.search(
        r'data-division="senior"><td>Senior</td><td>0</td><td>3</td><td>Top 2</td>', public
    )
    assert re.search(
        r'data-division="junior"><td>Junior</td><td>0</td><td>3</td><td>None</td>', public
    )


def test_a_single_structure_stays_one_line_on_the_public_page(client, organiser):
    ev = _age_event(organiser, {})
    public = _get(client, reverse("public:event", args=[ev.slug]))
    assert "Each division" not in public
    assert re.search(r"<dt>Swiss rounds</dt><dd>5</dd>", public)


def test_a_malformed_division_structure_creates_nothing_and_says_why(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_create"),
        {
            "name": "Broken Cup",
            "ruleset": "pokemon",
            "structure": "swiss-top-cut",
            "divisions": "age",
            "swiss_rounds": 5,
            "top_cut_size": 4,
            "division_structure": "senior:three:2",
        },
    )
    assert response.status_code == 200
    assert not Event.objects.filter(name="Broken Cup").exists()
    assert response.context["form"].errors["division_structure"] == [
        "Each division's structure must read division:rounds:cut, got senior:three:2."
    ]
    with pytest.raises(InvalidInput, match="top cut has 0"):
        services.event_create(
            name="Odd Cup",
            by=organiser,
            divisions=dict(AGES),
            division_structure={"senior": (3, 3)},
        )
    assert not Event.objects.filter(name="Odd Cup").exists()
