"""A player added by birth year (and asked before a division
against it), table numbers unique across the groups of one hall with "Start all" under
one clock, and same-name players told apart on every surface."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from interchange.services.csv_exports import pairings_rows
from pairings.checkin_services import checkin_close
from pairings.services import round_pair
from tests import factories
from tournaments import services
from tournaments.errors import DivisionUnconfirmed, InvalidInput, RoundStateError
from tournaments.models import AuditEvent, Outcome, Phase, Registration, RoundStatus
from tournaments.selectors.reports import page_for_player, reports_for_round
from tournaments.selectors.timer import timer_for_public
from tournaments.services import Result
from tournaments.services.player_decklists import decklist_settings_update
from tournaments.services.tables import (
    group_first_table_set,
    round_first_table,
    rounds_start_all,
)

pytestmark = pytest.mark.django_db

AGES = {"junior": "junior", "senior": "senior", "masters": "masters"}


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def age_event(by, **kwargs):
    return factories.event(by=by, divisions=dict(AGES), season_year=2026, **kwargs)


# --- item 3: the division from the birth year -------------------------------------------


def test_add_a_player_takes_the_division_from_the_birth_year(staff_client, organiser):
    ev = age_event(organiser)
    url = reverse("staff:player_add", args=[ev.slug])
    staff_client.post(url, {"name": "Late Adult", "birth_year": "1999", "division": ""})
    reg = Registration.objects.get(event=ev)
    assert reg.division.code == "masters"


def test_add_a_player_form_offers_by_birth_year_first(staff_client, organiser):
    ev = age_event(organiser)
    page = staff_client.get(reverse("staff:players", args=[ev.slug])).content.decode()
    select = page[
        page.index('name="division"') : page.index("</select>", page.index('name="division"'))
    ]
    assert select.index("By birth year") < select.index("Junior")


def test_add_without_birth_year_or_division_is_refused_and_saves_nothing(staff_client, organiser):
    ev = age_event(organiser)
    url = reverse("staff:player_add", args=[ev.slug])
    answer = staff_client.post(url, {"name": "Nobody Knows", "division": ""})
    assert "Give the birth year or choose the division." in answer.content.decode()
    assert not Registration.objects.filter(event=ev).exists()


def test_add_with_another_division_asks_first_then_saves_when_confirmed(staff_client, organiser):
    ev = age_event(organiser)
    junior = ev.divisions.get(code="junior")
    url = reverse("staff:player_add", args=[ev.slug])
    data = {"name": "Old Timer", "birth_year": "1993", "division": junior.pk}
    answer = staff_client.post(url, data)
    body = answer.content.decode()
    assert "Born 1993: Masters by the season&#x27;s cut-offs. Put in Junior anyway?" in body
    assert 'name="confirm_division" value="1"' in body
    assert not Registration.objects.filter(event=ev).exists()
    staff_client.post(url, data | {"confirm_division": "1"})
    assert Registration.objects.get(event=ev).division == junior


def test_add_with_the_birth_years_own_division_needs_no_confirmation(organiser):
    ev = age_event(organiser)
    masters = ev.divisions.get(code="masters")
    reg = services.registration_add(
        event=ev, name="Right Place", birth_year=1993, division=masters, by=organiser
    )
    assert reg.division == masters


def test_add_turns_last_first_round_as_the_paste_does(organiser):
    ev = age_event(organiser)
    reg = services.registration_add(event=ev, name="Garcia,  Maria", birth_year=1990, by=organiser)
    assert reg.player.name == "Maria Garcia"


def test_moving_against_the_birth_year_asks_first(staff_client, organiser):
    ev = age_event(organiser)
    reg = services.registration_add(event=ev, name="Adult", birth_year=1993, by=organiser)
    junior = ev.divisions.get(code="junior")
    url = reverse("staff:player_division", args=[ev.slug, reg.pk])
    answer = staff_client.post(url, {"division": junior.pk})
    body = answer.content.decode()
    assert "Born 1993: Masters by the season&#x27;s cut-offs. Put in Junior anyway?" in body
    assert 'id="division-move-question"' in body and 'name="confirm" value="1"' in body
    reg.refresh_from_db()
    assert reg.division.code == "masters"
    staff_client.post(url, {"division": junior.pk, "confirm": "1"})
    reg.refresh_from_db()
    assert reg.division == junior


def test_the_move_service_refuses_unconfirmed_and_changes_nothing(organiser):
    ev = age_event(organiser)
    reg = services.registration_add(event=ev, name="Adult", birth_year=1993, by=organiser)
    with pytest.raises(DivisionUnconfirmed, match="Put in Senior anyway"):
        services.registration_set_division(
            registration=reg, division=ev.divisions.get(code="senior"), by=organiser
        )
    reg.refresh_from_db()
    assert reg.division.code == "masters"
    assert not AuditEvent.objects.filter(action="registration.division").exists()


# --- item 7: table numbers across groups ----------------------------------------------------


def two_groups(by):
    """An age-separated event: 6 Junior and 16 Masters players, check-in closed."""
    ev = age_event(by)
    for i in range(6):
        services.registration_add(event=ev, name=f"Junior {i}", birth_year=2016, by=by)
    for i in range(16):
        services.registration_add(event=ev, name=f"Masters {i}", birth_year=1990, by=by)
    checkin_close(event=ev, by=by)
    return ev


def tables_of(rnd):
    return sorted(rnd.matches.exclude(table=None).values_list("table", flat=True))


def test_groups_paired_together_never_share_a_table(organiser):
    ev = two_groups(organiser)
    (masters,) = round_pair(event=ev, group="masters", by=organiser, seed=1)
    (junior,) = round_pair(event=ev, group="junior", by=organiser, seed=1)
    assert tables_of(masters) == list(range(1, 9))
    assert tables_of(junior) == [9, 10, 11]
    assert ev.groups.get(key="junior").first_table == 9


def test_the_first_table_stays_with_the_group_round_after_round(organiser):
    ev = two_groups(organiser)
    rounds = round_pair(event=ev, group="masters", by=organiser, seed=1)
    rounds += round_pair(event=ev, group="junior", by=organiser, seed=1)
    for rnd in rounds:
        services.round_publish(round=rnd, by=organiser)
        services.round_start(round=rnd, by=organiser)
        for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
            winner = m.seats.all()[0].registration
            services.slip_enter(match=m, result=Result.win(winner), by=organiser)
    (junior2,) = round_pair(event=ev, group="junior", by=organiser, seed=2)
    (masters2,) = round_pair(event=ev, group="masters", by=organiser, seed=2)
    assert tables_of(junior2) == [9, 10, 11]
    assert tables_of(masters2) == list(range(1, 9))


def test_a_first_table_set_by_staff_is_used_and_audited(staff_client, organiser):
    ev = two_groups(organiser)
    url = reverse("staff:group_first_table", args=[ev.slug, "junior"])
    staff_client.post(url, {"first_table": "101"})
    assert ev.groups.get(key="junior").first_table == 101
    assert AuditEvent.objects.get(action="group.first_table").new == {
        "group": "junior",
        "first_table": 101,
    }
    (junior,) = round_pair(event=ev, group="junior", by=organiser, seed=1)
    assert tables_of(junior) == [101, 102, 103]


def test_a_bad_first_table_is_refused_and_changes_nothing(staff_client, organiser):
    ev = two_groups(organiser)
    url = reverse("staff:group_first_table", args=[ev.slug, "junior"])
    answer = staff_client.post(url, {"first_table": "0"}, follow=True)
    assert "The first table is a number from 1 to 9999." in answer.content.decode()
    assert ev.groups.get(key="junior").first_table is None
    with pytest.raises(InvalidInput):
        group_first_table_set(group=ev.groups.get(key="junior"), first_table=10_000, by=organiser)


def test_a_first_table_overlapping_tables_in_play_moves_after_them_with_a_note(organiser):
    ev = two_groups(organiser)
    round_pair(event=ev, group="masters", by=organiser, seed=1)  # tables 1–8
    group_first_table_set(group=ev.groups.get(key="junior"), first_table=7, by=organiser)
    (junior,) = round_pair(event=ev, group="junior", by=organiser, seed=1)
    assert tables_of(junior) == [9, 10, 11]
    assert "Tables 7–9 are in use by another group: this round starts at table 9." in junior.notes


def test_round_first_table_without_other_groups_is_one(organiser):
    ev = two_groups(organiser)
    group = ev.groups.get(key="masters")
    assert round_first_table(group, 8) == (1, "")
    group.refresh_from_db()
    assert group.first_table == 1


def test_top_cuts_of_two_divisions_get_distinct_tables(organiser):
    ev = factories.event(by=organiser, divisions=dict(AGES), season_year=2026)
    regs = {}
    for code, year in (("junior", 2016), ("masters", 1990)):
        regs[code] = [
            services.registration_add(event=ev, name=f"{code} {i}", birth_year=year, by=organiser)
            for i in range(4)
        ]
    cuts = [
        services.round_create(
            event=ev,
            group=factories.group_row(ev, f"{code}-top-cut"),
            number=4,
            phase=Phase.TOP_CUT,
            tables=[(1, rs[:2], "seed 1 vs 4"), (2, rs[2:], "seed 2 vs 3")],
            by=organiser,
        )
        for code, rs in regs.items()
    ]
    assert [tables_of(r) for r in cuts] == [[1, 2], [3, 4]]


def test_start_all_publishes_and_starts_every_waiting_round_at_one_time(staff_client, organiser):
    ev = two_groups(organiser)
    (masters,) = round_pair(event=ev, group="masters", by=organiser, seed=1)
    (junior,) = round_pair(event=ev, group="junior", by=organiser, seed=1)
    services.round_publish(round=masters, by=organiser)
    page = staff_client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert 'id="start-all"' in page
    answer = staff_client.post(reverse("staff:rounds_start_all", args=[ev.slug]), follow=True)
    assert "Started together: Junior round 1, Masters round 1." in answer.content.decode()
    masters.refresh_from_db()
    junior.refresh_from_db()
    assert masters.status == junior.status == RoundStatus.STARTED
    assert masters.started_at == junior.started_at
    assert junior.published_at == junior.started_at
    assert AuditEvent.objects.filter(action="round.started", reason="start all").count() == 2


def test_start_all_with_nothing_waiting_is_refused(organiser):
    ev = two_groups(organiser)
    with pytest.raises(RoundStateError, match="No paired round is waiting to start."):
        rounds_start_all(event=ev, by=organiser)


def test_projector_lists_rounds_started_together_under_one_clock_in_table_order(organiser):
    ev = two_groups(organiser)
    round_pair(event=ev, group="junior", by=organiser, seed=1)  # tables 1–3
    round_pair(event=ev, group="masters", by=organiser, seed=1)  # tables 4–11
    rounds_start_all(event=ev, by=organiser)
    (clock,) = timer_for_public(ev, timezone.now())
    assert clock.playing == tuple(range(1, 12))
    assert clock.label == "Junior · Round 1, Masters · Round 1"
    assert len(clock.controls) == 2


def test_projector_keeps_rounds_started_apart_on_their_own_clocks(organiser):
    ev = two_groups(organiser)
    (junior,) = round_pair(event=ev, group="junior", by=organiser, seed=1)
    (masters,) = round_pair(event=ev, group="masters", by=organiser, seed=1)
    for rnd in (junior, masters):
        services.round_publish(round=rnd, by=organiser)
        services.round_start(round=rnd, by=organiser)
    masters.refresh_from_db()
    type(masters).objects.filter(pk=masters.pk).update(
        started_at=masters.started_at - dt.timedelta(minutes=3)
    )
    clocks = timer_for_public(ev, timezone.now())
    assert [c.playing for c in clocks] == [(1, 2, 3), tuple(range(4, 12))]


# --- item 8: same-name players told apart ---------------------------------------------------


@pytest.fixture
def twins(organiser):
    """A started round where two "Noah Williams" (#0017, #0018) meet at table 1."""
    ev = factories.event(by=organiser)
    noah17 = services.registration_add(
        event=ev, name="Noah Williams", player_id="0017", by=organiser
    )
    noah18 = services.registration_add(
        event=ev, name="Noah Williams", player_id="0018", by=organiser
    )
    rnd = factories.round_in_order(ev, by=organiser, regs=[noah17, noah18])
    return ev, rnd, noah17, noah18


def test_the_htmx_slip_fragment_tells_same_names_apart(staff_client, twins):
    ev, rnd, noah17, _ = twins
    m = rnd.matches.get()
    url = reverse("staff:match_result", args=[ev.slug, m.pk])
    answer = staff_client.post(url, {"result": "p1", "version": 0}, HTTP_HX_REQUEST="true")
    body = answer.content.decode()
    assert "Noah Williams #0017" in body and "Noah Williams #0018" in body
    assert "Noah Williams vs Noah Williams" not in body


def test_player_reports_say_who_is_who(twins):
    ev, rnd, noah17, noah18 = twins
    m = rnd.matches.get()
    services.report_submit(match=m, registration=noah17, result=Result.win(noah17))
    services.report_submit(match=m, registration=noah18, result=Result.win(noah18))
    lines = reports_for_round(rnd.pk)[m.pk].lines
    assert [(x.name, x.text) for x in lines] == [
        ("Noah Williams #0017", "Noah Williams #0017 wins"),
        ("Noah Williams #0018", "Noah Williams #0018 wins"),
    ]


def test_the_players_page_names_the_opponent_apart(twins):
    ev, rnd, noah17, _ = twins
    page = page_for_player(noah17)
    assert [s.name for s in page.match.seats] == ["Noah Williams #0017", "Noah Williams #0018"]


def test_deck_lists_page_tells_same_names_apart(staff_client, twins, organiser):
    ev, *_ = twins
    # the page lists players where the event collects deck lists
    decklist_settings_update(event=ev, by=organiser, required=True, public=False)
    body = staff_client.get(reverse("staff:decklists", args=[ev.slug])).content.decode()
    assert "Noah Williams #0017" in body and "Noah Williams #0018" in body


def test_penalty_disqualify_and_audit_selects_tell_same_names_apart(staff_client, twins):
    ev, _, noah17, noah18 = twins
    penalties = staff_client.get(reverse("staff:penalties", args=[ev.slug])).content.decode()
    for pk, name in ((noah17.pk, "Noah Williams #0017"), (noah18.pk, "Noah Williams #0018")):
        assert penalties.count(f'<option value="{pk}">{name}</option>') == 2  # note + DQ
    audit = staff_client.get(reverse("staff:audit", args=[ev.slug])).content.decode()
    assert f'<option value="{noah17.pk}">Noah Williams #0017</option>' in audit
    assert f'<option value="{noah18.pk}">Noah Williams #0018</option>' in audit


def test_pairings_csv_tells_same_names_apart(twins):
    ev, rnd, *_ = twins
    rows = pairings_rows(ev, rnd)
    assert rows[1][4] == "Noah Williams #0017" and rows[1][6] == "Noah Williams #0018"


def test_a_lone_name_keeps_no_suffix(organiser):
    ev = factories.event(by=organiser)
    a = services.registration_add(event=ev, name="Ash Ketchum", player_id="0001", by=organiser)
    b = services.registration_add(event=ev, name="Misty", player_id="0002", by=organiser)
    rnd = factories.round_in_order(ev, by=organiser, regs=[a, b])
    assert pairings_rows(ev, rnd)[1][4] == "Ash Ketchum"
