"""Age divisions in the app: season cut-offs, closing check-in, age-modified pairing,
division winners and per-division cuts (P-AGE-1 … P-AGE-6, R-5, P-LATE-1)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.checkin_services import age_plan, checkin_close
from pairings.procedures import event_group_keys
from pairings.procedures.flights import flights_assign
from pairings.services import round_pair
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.groups import swiss_group
from tournaments.models import AuditEvent, Outcome
from tournaments.seasons import cutoffs
from tournaments.selectors import standings_for_public
from tournaments.services import Result

pytestmark = pytest.mark.django_db

AGES = {"junior": "junior", "senior": "senior", "masters": "masters"}
BORN = {"junior": 2016, "senior": 2012, "masters": 1990}  # season ending 2026


def age_event(by, counts, **kwargs):
    kwargs.setdefault("season_year", 2026)
    ev = factories.event(by=by, divisions=dict(AGES), **kwargs)
    for code, n in counts.items():
        for i in range(n):
            services.registration_add(
                event=ev,
                name=f"{code} {i:02d}",
                birth_year=BORN[code],
                division=ev.divisions.get(code=code),
                by=by,
            )
    return ev


def play(rnd, by):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        seats = list(m.seats.all())
        services.slip_enter(match=m, result=Result.win(seats[0].registration), by=by)


@pytest.mark.parametrize(
    ("season", "junior", "senior", "masters"),
    [(2019, 2008, (2004, 2007), 2003), (2010, 1999, (1995, 1998), 1994)],
)
def test_P_AGE_1_cutoffs_of_the_worked_seasons(season, junior, senior, masters):
    c = cutoffs(season)
    assert (c.junior_from, c.senior, c.masters_until) == (junior, senior, masters)


def test_P_AGE_1_organiser_season_places_players_by_birth_year(organiser):
    ev = factories.event(by=organiser, divisions=dict(AGES), season_year=2019)
    regs = services.registrations_add_csv(
        event=ev, text="A,,2008\nB,,2007\nC,,2004\nD,,2003", by=organiser
    )
    assert [r.division.code for r in regs] == ["junior", "senior", "senior", "masters"]


def test_P_AGE_1_division_override_before_round_1_only(organiser):
    ev = age_event(organiser, {"junior": 4, "senior": 4})
    reg = ev.registrations.filter(division__code="junior").first()
    senior = ev.divisions.get(code="senior")
    with pytest.raises(InvalidInput, match="Put in Senior anyway"):
        services.registration_set_division(registration=reg, division=senior, by=organiser)
    services.registration_set_division(
        registration=reg, division=senior, by=organiser, confirm=True
    )
    reg.refresh_from_db()
    assert reg.division == senior
    assert AuditEvent.objects.filter(action="registration.division").exists()
    checkin_close(event=ev, by=organiser)
    round_pair(event=ev, group="junior+senior", by=organiser, seed=1)
    with pytest.raises(InvalidInput, match="fixed once round 1"):
        services.registration_set_division(
            registration=reg, division=ev.divisions.get(code="junior"), by=organiser
        )


def test_P_AGE_2_six_in_every_division_is_age_separated(organiser):
    ev = age_event(organiser, {"junior": 6, "senior": 6, "masters": 9})
    plan = checkin_close(event=ev, by=organiser)
    assert plan.mode.style == "age-separated" and "its own tournament" in plan.mode.reason
    assert dict(ev.divisions.filter(groups__parent=None).values_list("code", "groups__key")) == AGES
    ev.refresh_from_db()
    assert ev.age_style == "age-separated"


def test_P_AGE_4_round_count_from_the_largest_division(organiser):
    """5 Juniors, 11 Seniors, 16 Masters → 4 rounds (the 2009 table), not 5 for 32."""
    ev = age_event(organiser, {"junior": 5, "senior": 11, "masters": 16}, ruleset="pokemon-2009")
    plan = checkin_close(event=ev, by=organiser)
    assert plan.mode.age_modified and "division over record" in plan.mode.reason
    assert [(p.group, p.rounds) for p in plan.groups] == [("junior+senior", 4), ("masters", 4)]
    assert {d.code: d.rounds for d in ev.divisions.all()} == dict.fromkeys(AGES, 4)
    ev.refresh_from_db()
    assert ev.swiss_rounds == 4


def test_P_AGE_5_cuts_per_division_with_the_same_share(organiser):
    """The ``division_cuts`` example: Masters top 4 (25 %) → Seniors top 2, Juniors none."""
    ev = age_event(organiser, {"junior": 5, "senior": 11, "masters": 16})
    checkin_close(event=ev, by=organiser, top_cut=4)
    assert {d.code: d.cut for d in ev.divisions.all()} == {
        "junior": 0,
        "senior": 2,
        "masters": 4,
    }


def test_P_AGE_3_masters_join_the_shared_pod_when_small(organiser):
    ev = age_event(organiser, {"junior": 3, "senior": 7, "masters": 4})
    plan = age_plan(ev)
    assert [p.group for p in plan.groups] == ["junior+senior+masters"]


def test_P_AGE_3_age_modified_pod_pairs_division_over_record(organiser):
    """3 Juniors and 7 Seniors share a pod: only one table crosses divisions (R-5)."""
    ev = age_event(organiser, {"junior": 3, "senior": 7, "masters": 12})
    checkin_close(event=ev, by=organiser)
    (rnd,) = round_pair(event=ev, group="junior+senior", by=organiser, seed=7)
    crossing = [
        m
        for m in rnd.matches.prefetch_related("seats__registration__division")
        if len({s.registration.division.code for s in m.seats.all()}) > 1
    ]
    assert len(crossing) == 1 and crossing[0].why.startswith("other division")


def test_P_AGE_3_each_division_has_its_winner_in_final_standings(organiser):
    ev = age_event(organiser, {"junior": 3, "senior": 7, "masters": 12})
    checkin_close(event=ev, by=organiser, swiss_rounds=2, top_cut=0)
    for n in (1, 2):
        for pod in ("junior+senior", "masters"):
            (rnd,) = round_pair(event=ev, group=pod, by=organiser, seed=n)
            play(rnd, organiser)
    data = standings_data(ev)
    assert data["final"]
    winners = [
        (table.label, line.name)
        for table in standings_for_public(data)
        for line in table.lines
        if line.winner
    ]
    assert [label for label, _ in winners] == [
        "Junior",
        "Senior",
        "Masters",
    ]  # age order
    assert all(name.lower().startswith(label.lower()) for label, name in winners)


def test_P_LATE_1_championship_points_event_needs_override_after_round_2(organiser):
    ev = factories.event_with_players(
        4, by=organiser, awards_championship_points=True, swiss_rounds=4
    )
    for n in (1, 2, 3):
        (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=n)
        play(rnd, organiser)
    assert services.late_losses(ev) == 3
    with pytest.raises(InvalidInput, match="override"):
        services.registration_add(event=ev, name="Late", by=organiser)
    reg = services.registration_add(event=ev, name="Late", by=organiser, override_late_entry=True)
    assert reg.late and reg.seats.count() == 3


def test_P_LATE_1_players_page_tells_the_losses_before_adding(client, organiser):
    ev = factories.event_with_players(4, by=organiser, swiss_rounds=3)
    (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    play(rnd, organiser)
    client.force_login(organiser)
    page = client.get(reverse("staff:players", args=[ev.slug])).content.decode()
    assert "a loss for each of the 1 round already started" in page


def test_P_AGE_2_P_AGE_3_dashboard_tells_the_mode_and_closes_checkin(client, organiser):
    ev = age_event(organiser, {"junior": 3, "senior": 7, "masters": 12})
    client.force_login(organiser)
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert "age-modified" in page and "Junior has only 1-5 players" in page
    response = client.post(reverse("staff:checkin_close", args=[ev.slug]), {"top_cut": ""})
    assert response.status_code == 302
    ev.refresh_from_db()
    assert ev.checkin_closed_at and ev.age_style == "age-modified"
    assert swiss_group(ev.divisions.get(code="junior")).key == "junior+senior"
    # the stored reason is shown in the reader's language, division names included
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert "Junior has only 1-5 players (Junior 3, Senior 7, Masters 12)" in page
    client.cookies["django_language"] = "es"
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert "Júnior solo tiene de 1 a 5 jugadores (Júnior 3, Sénior 7, Máster 12)" in page


def test_P_AGE_1_event_create_page_shows_the_cutoffs(client, organiser):
    client.force_login(organiser)
    page = client.post(reverse("staff:event_create"), {"season_year": "2019"}).content.decode()
    assert "Junior born 2008 or later" in page


@pytest.mark.parametrize(
    ("role", "status"),
    [("organiser", 302), ("scorekeeper", 302), ("judge", 403), (None, 302)],
)
def test_P_AGE_2_only_operators_close_checkin_or_set_flights(client, organiser, role, status):
    ev = age_event(organiser, {"junior": 6, "senior": 6, "masters": 6})
    if role == "organiser":
        client.force_login(organiser)
    elif role:
        client.force_login(factories.staff(ev, role))
    for name in ("staff:checkin_close", "staff:flights"):
        response = client.post(reverse(name, args=[ev.slug]), {"division": "masters"})
        assert response.status_code == status
        if role is None:
            assert "/accounts/login/" in response.url
    ev.refresh_from_db()
    assert bool(ev.checkin_closed_at) == (role in ("organiser", "scorekeeper"))


def test_P_RT_4_event_create_recommends_from_the_ruleset_table(client, organiser):
    client.force_login(organiser)
    url = reverse("staff:event_create")
    body = client.get(
        url, {"players": 16, "ruleset": "pokemon-2009"}, headers={"HX-Request": "true"}
    )
    text = body.content.decode()
    assert "4 Swiss rounds" in text and 'title="P-RT-4"' in text
    assert "you may play 3 or 4 Swiss rounds" in text
    text = client.get(url, {"players": 300, "ruleset": "pokemon"}).content.decode()
    assert "9 Swiss rounds" in text and 'title="P-RT-1"' in text


def test_P_FL_1_check_in_refuses_to_pair_a_flighted_division_with_another(organiser):
    """Flights are for age-separated divisions (P-FL-1): a check-in whose age mode would
    pair the flighted Juniors with the Seniors is refused, and nothing changes."""
    ev = age_event(organiser, {"junior": 64, "senior": 3, "masters": 10}, top_cut_size=8)
    flights_assign(division=ev.divisions.get(code="junior"), flights=2, by=organiser, seed=1)
    with pytest.raises(InvalidInput, match=r"Junior is in flights.*\(P-FL-1\)"):
        checkin_close(event=ev, by=organiser)
    ev.refresh_from_db()
    assert ev.checkin_closed_at is None and ev.age_style == ""
    assert swiss_group(ev.divisions.get(code="junior")).key == "junior"
    assert event_group_keys(ev)[:2] == ["junior#flight-1", "junior#flight-2"]
