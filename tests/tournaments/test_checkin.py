"""Check-in for real: a present state per registration, the
staff check-in list, players checking themselves in, closing check-in removing the
absentees, and round 1 waiting for Close check-in."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pairings.checkin_services import age_plan, checkin_close
from pairings.services import group_states, pairing_request, round_pair
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput, PairingRefused, RoundStateError
from tournaments.models import AuditEvent, Event, PenaltyNote, Registration
from tournaments.services.checkin import (
    checkin_absentees,
    checkin_list_for_staff,
    checkin_pending,
    door_registration,
    self_checkin_open,
)

pytestmark = pytest.mark.django_db

AGES = {"junior": "junior", "senior": "senior", "masters": "masters"}
BORN = {"junior": 2016, "senior": 2012, "masters": 1990}  # season ending 2026


def age_event(by, counts, **kwargs):
    ev = factories.event(by=by, divisions=dict(AGES), season_year=2026, **kwargs)
    for code, n in counts.items():
        for i in range(n):
            services.registration_add(
                event=ev,
                name=f"{code} {i:02d}",
                player_id=f"{code[0]}{i:03d}",
                birth_year=BORN[code],
                division=ev.divisions.get(code=code),
                by=by,
            )
    return ev


def regs(ev, code=None):
    qs = ev.registrations.select_related("player").order_by("player__name")
    return list(qs.filter(division__code=code) if code else qs)


def tick(ev, by, names):
    for reg in ev.registrations.filter(player__name__in=names):
        services.registration_checkin(registration=reg, by=by)


# --- the present state -----------------------------------------------------------------


def test_ticking_a_player_records_when_and_who_and_is_audited(organiser):
    ev = factories.event_with_players(4, by=organiser)
    reg = regs(ev)[0]
    assert services.registration_checkin(registration=reg, by=organiser) is True
    reg.refresh_from_db()
    assert reg.checked_in_at is not None and reg.checked_in_by == organiser
    assert services.registration_checkin(registration=reg, by=organiser) is False  # double tap
    row = AuditEvent.objects.get(action="registration.checkin")
    assert (row.object_id, row.actor, row.old) == (str(reg.pk), organiser, {"checked_in_at": None})
    assert services.registration_checkin(registration=reg, by=organiser, present=False) is True
    reg.refresh_from_db()
    assert reg.checked_in_at is None and reg.checked_in_by is None
    assert AuditEvent.objects.filter(action="registration.checkout").count() == 1


def test_a_first_tick_gives_the_event_its_check_in_step(organiser):
    ev = factories.event_with_players(4, by=organiser)
    assert not ev.checkin_step and not checkin_pending(ev)
    services.registration_checkin(registration=regs(ev)[0], by=organiser)
    ev.refresh_from_db()
    assert ev.checkin_step and checkin_pending(ev) and self_checkin_open(ev)


def test_check_in_is_refused_once_round_1_is_paired_and_for_a_dropped_player(organiser):
    ev = factories.event_with_players(4, by=organiser)
    dropped = services.registration_drop(registration=regs(ev)[3], by=organiser)
    with pytest.raises(InvalidInput, match="has dropped or is disqualified"):
        services.registration_checkin(registration=dropped, by=organiser)
    round_pair(event=ev, group="open", by=organiser, seed=1)
    with pytest.raises(InvalidInput, match="Round 1 is paired: check-in is over."):
        services.registration_checkin(registration=regs(ev)[0], by=organiser)
    assert not ev.registrations.filter(checked_in_at__isnull=False).exists()


def test_a_player_checks_in_but_not_out_and_not_after_check_in_closed(organiser):
    ev = factories.event_with_players(4, by=organiser, checkin_step=True)
    me = regs(ev)[0]
    assert services.registration_checkin(registration=me, by=me) is True
    me.refresh_from_db()
    assert me.checked_in_at is not None and me.checked_in_by is None
    assert AuditEvent.objects.get(action="registration.checkin").actor_registration == me
    with pytest.raises(InvalidInput, match="Check-in is closed"):
        services.registration_checkin(registration=me, by=me, present=False)
    tick(ev, organiser, ["Player 002", "Player 003", "Player 004"])
    checkin_close(event=ev, by=organiser)
    with pytest.raises(InvalidInput, match="Check-in is closed: please see the tournament desk."):
        services.registration_checkin(registration=regs(ev)[1], by=regs(ev)[1], present=True)


# --- the staff list ------------------------------------------------------------------


def test_the_staff_list_searches_names_without_accents_and_ids_and_counts_per_division(
    organiser, django_assert_num_queries
):
    ev = age_event(organiser, {"junior": 2, "masters": 3})
    services.registration_add(
        event=ev,
        name="Tomás Müller",
        player_id="777123",
        birth_year=1990,
        division=ev.divisions.get(code="masters"),
        by=organiser,
    )
    tick(ev, organiser, ["junior 00", "Tomás Müller"])
    with django_assert_num_queries(1):
        everyone = checkin_list_for_staff(ev)
    assert [r.name for r in everyone.rows][:2] == ["junior 00", "junior 01"]
    assert everyone.counts == {"junior": (1, 1), "masters": (1, 3)}
    assert (everyone.present, everyone.absent) == (2, 4)
    assert [r.name for r in checkin_list_for_staff(ev, "muller tomas").rows] == ["Tomás Müller"]
    assert [r.name for r in checkin_list_for_staff(ev, "777").rows] == ["Tomás Müller"]
    found = checkin_list_for_staff(ev, "MÜLLER").rows
    assert [(r.name, r.present, r.division_label) for r in found] == [
        ("Tomás Müller", True, "Masters")
    ]
    assert checkin_list_for_staff(ev, "nobody").rows == []


def test_the_check_in_page_toggles_with_htmx_and_without_javascript(client, organiser):
    ev = factories.event_with_players(3, by=organiser)
    reg = regs(ev)[1]
    client.force_login(organiser)
    page = client.get(reverse("staff:checkin", args=[ev.slug]), {"q": "002"}).content.decode()
    assert f'id="reg-{reg.pk}"' in page and f'id="reg-{regs(ev)[0].pk}"' not in page
    url = reverse("staff:checkin_toggle", args=[ev.slug, reg.pk])
    answer = client.post(url, {"present": "1", "q": "002"}, headers={"HX-Request": "true"})
    body = answer.content.decode()
    assert answer.status_code == 200
    assert 'aria-pressed="true"' in body and 'id="present-count">1<' in body
    assert 'hx-swap-oob="true"' in body
    reg.refresh_from_db()
    assert reg.checked_in_at is not None
    answer = client.post(url, {"present": "0", "q": "Player 002"})  # no JavaScript
    assert answer.status_code == 302
    assert answer.url == reverse("staff:checkin", args=[ev.slug]) + f"?q=Player+002#reg-{reg.pk}"
    reg.refresh_from_db()
    assert reg.checked_in_at is None


def test_a_refused_tap_answers_422_with_the_reason_and_changes_nothing(client, organiser):
    ev = factories.event_with_players(4, by=organiser)
    round_pair(event=ev, group="open", by=organiser, seed=1)
    reg = regs(ev)[0]
    client.force_login(organiser)
    url = reverse("staff:checkin_toggle", args=[ev.slug, reg.pk])
    answer = client.post(url, {"present": "1"}, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    assert "Round 1 is paired: check-in is over." in answer.content.decode()
    reg.refresh_from_db()
    assert reg.checked_in_at is None


@pytest.mark.parametrize(("role", "status"), [("judge", 403), (None, 302)])
def test_only_operators_tick_players(client, organiser, role, status):
    ev = factories.event_with_players(2, by=organiser)
    if role:
        client.force_login(factories.staff(ev, role))
    reg = regs(ev)[0]
    answer = client.post(reverse("staff:checkin_toggle", args=[ev.slug, reg.pk]), {"present": "1"})
    assert answer.status_code == status
    reg.refresh_from_db()
    assert reg.checked_in_at is None


# --- players checking themselves in ---------------------------------------------------


def test_the_private_page_offers_check_in_while_it_is_open(client, organiser):
    ev = factories.event_with_players(2, by=organiser, checkin_step=True)
    me = regs(ev)[0]
    url = reverse("public:player", args=[ev.slug, me.report_token])
    assert 'id="player-checkin"' in client.get(url).content.decode()
    answer = client.post(reverse("public:player_checkin", args=[ev.slug, me.report_token]))
    assert answer.status_code == 302 and answer.url == url
    page = client.get(url).content.decode()
    assert "You are checked in (" in page and "You are checked in. Good luck!" in page
    me.refresh_from_db()
    assert me.checked_in_at is not None


def test_an_event_without_a_check_in_step_shows_no_check_in_button(client, organiser):
    ev = factories.event_with_players(2, by=organiser)
    me = regs(ev)[0]
    page = client.get(reverse("public:player", args=[ev.slug, me.report_token])).content.decode()
    assert 'id="player-checkin"' not in page


def test_the_door_page_checks_in_by_player_id_and_birth_year_only(client, organiser):
    ev = age_event(organiser, {"junior": 1, "masters": 1}, checkin_step=True)
    url = reverse("public:checkin", args=[ev.slug])
    assert "Type your player ID and your birth year" in client.get(url).content.decode()
    wrong = client.post(url, {"player_id": "m000", "birth_year": "1991"})
    assert wrong.status_code == 422
    assert "No player of this event has that player ID and birth year." in wrong.content.decode()
    assert not ev.registrations.filter(checked_in_at__isnull=False).exists()
    right = client.post(url, {"player_id": " M000 ", "birth_year": "1990"})
    body = right.content.decode()
    assert right.status_code == 200 and "masters 00, you are checked in." in body
    assert ev.registrations.get(checked_in_at__isnull=False).player.name == "masters 00"
    assert "report_token" not in body and regs(ev, "masters")[0].report_token not in body


def test_door_registration_refuses_blank_input_with_the_same_message(organiser):
    ev = age_event(organiser, {"junior": 1})
    for pid, year in (("", "2016"), ("j000", ""), ("j000", "20x6"), ("j999", "2016")):
        with pytest.raises(InvalidInput, match="No player of this event has that player ID"):
            door_registration(ev, pid, year)
    assert door_registration(ev, "j000", "2016").player.name == "junior 00"


def test_the_door_sign_shows_a_qr_code_of_the_check_in_page(client, organiser):
    ev = factories.event_with_players(2, by=organiser, checkin_step=True)
    client.force_login(organiser)
    page = client.get(reverse("staff:checkin_door", args=[ev.slug])).content.decode()
    assert "<svg" in page and f"/e/{ev.slug}/checkin/" in page


# --- closing check-in --------------------------------------------------------------------


def test_the_age_plan_counts_only_the_players_checked_in(organiser):
    ev = age_event(organiser, {"junior": 6, "senior": 6, "masters": 6})
    assert age_plan(ev).mode.style.value == "age-separated"
    tick(ev, organiser, [r.player.name for r in regs(ev) if r.player.name != "junior 05"])
    plan = age_plan(ev)  # 5 Juniors present: 1-5 Juniors make the event age-modified
    assert plan.mode.style.value == "age-modified"
    assert {p.group: p.counts for p in plan.groups}["junior+senior"] == {"junior": 5, "senior": 6}


def test_closing_removes_exactly_the_confirmed_absentees_who_get_no_place(organiser):
    ev = factories.event_with_players(6, by=organiser, checkin_step=True)
    tick(ev, organiser, ["Player 001", "Player 002", "Player 003", "Player 004"])
    gone = services.registration_drop(registration=regs(ev)[3], by=organiser)  # no-show dropped
    absent = checkin_absentees(ev)
    assert [r.player.name for r in absent] == ["Player 004", "Player 005", "Player 006"]
    with pytest.raises(InvalidInput, match="has changed"):
        checkin_close(event=ev, by=organiser)  # not confirmed
    with pytest.raises(InvalidInput, match=r"has changed \(3 now\)"):
        checkin_close(event=ev, by=organiser, absent=[absent[0].pk])
    assert ev.registrations.count() == 6
    checkin_close(event=ev, by=organiser, absent=[r.pk for r in absent])
    assert [r.player.name for r in regs(ev)] == ["Player 001", "Player 002", "Player 003"]
    assert not Registration.objects.filter(pk=gone.pk).exists()
    row = AuditEvent.objects.get(action="event.checkin_absent_removed")
    assert [p["name"] for p in row.old["players"]] == ["Player 004", "Player 005", "Player 006"]
    assert row.old["players"][0]["dropped_after_round"] == 0
    assert AuditEvent.objects.get(action="event.checkin_close").new["removed"] == 3
    (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    assert rnd.matches.count() == 2  # 3 players: one table and a bye
    assert len(standings_data(ev)["divisions"]["open"]) == 3  # no place for the absent


def test_closing_with_nobody_checked_in_counts_everyone_present(organiser):
    ev = factories.event_with_players(4, by=organiser, checkin_step=True)
    assert checkin_absentees(ev) == []
    checkin_close(event=ev, by=organiser)
    assert ev.registrations.filter(checked_in_at__isnull=False).count() == 4
    assert AuditEvent.objects.get(action="event.checkin_close").new["everyone_present"] is True


def test_an_absentee_with_a_penalty_note_stops_the_close_and_nothing_changes(organiser):
    ev = factories.event_with_players(4, by=organiser, checkin_step=True)
    tick(ev, organiser, ["Player 001", "Player 002", "Player 003"])
    late = regs(ev)[3]
    PenaltyNote.objects.create(event=ev, registration=late, kind="warning", infraction="Tardiness")
    with pytest.raises(InvalidInput, match="Player 004 has a penalty note"):
        checkin_close(event=ev, by=organiser, absent=[late.pk])
    ev.refresh_from_db()
    assert ev.checkin_closed_at is None and ev.registrations.count() == 4


def test_the_close_button_lists_the_absentees_then_removes_them_on_confirmation(client, organiser):
    ev = factories.event_with_players(4, by=organiser, checkin_step=True)
    tick(ev, organiser, ["Player 001", "Player 002", "Player 003"])
    absent = regs(ev)[3]
    client.force_login(organiser)
    url = reverse("staff:checkin_close", args=[ev.slug])
    answer = client.post(url, {"swiss_rounds": "2", "top_cut": "0"})
    body = answer.content.decode()
    assert answer.status_code == 200 and "1 player is not checked in" in body
    assert f'name="absent" value="{absent.pk}"' in body and "Player 004" in body
    assert 'name="swiss_rounds" value="2"' in body and 'name="top_cut" value="0"' in body
    ev.refresh_from_db()
    assert ev.checkin_closed_at is None and ev.registrations.count() == 4
    data = {"swiss_rounds": "2", "top_cut": "0", "absent": [absent.pk], "confirm_absent": "1"}
    answer = client.post(url, data)
    assert answer.status_code == 302
    ev.refresh_from_db()
    assert ev.checkin_closed_at is not None and ev.swiss_rounds == 2
    assert ev.registrations.count() == 3


# --- round 1 waits for Close check-in ----------------------------------------------------


def test_round_1_waits_for_close_check_in_on_the_dashboard_and_in_the_services(client, organiser):
    ev = age_event(organiser, {"junior": 5, "senior": 6, "masters": 6}, checkin_step=True)
    assert checkin_pending(ev)
    states = {s.key: s for s in group_states(ev)}
    assert not states["junior"].can_pair
    assert states["junior"].next_action.startswith("Close check-in first")
    with pytest.raises(RoundStateError, match="Close check-in first"):
        pairing_request(event=ev, group="junior", by=organiser)
    with pytest.raises(PairingRefused, match="Close check-in first"):
        round_pair(event=ev, group="junior", by=organiser, seed=1)
    assert not ev.rounds.exists()
    client.force_login(organiser)
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert "Pair next round" not in page and 'data-step="checkin"' in page
    assert 'id="checkin-everyone"' in page and "0 of 17 players checked in" in page
    checkin_close(event=ev, by=organiser)
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert "Pair next round" in page and 'data-step="checkin"' not in page
    assert "Check the players in" not in page
    (rnd,) = round_pair(event=ev, group="junior+senior", by=organiser, seed=1)
    assert rnd.matches.count() == 6  # 5 Juniors with 6 Seniors, age-modified (P-AGE-3)


def test_events_without_a_check_in_step_pair_at_once_as_before(organiser):
    ev = factories.event_with_players(4, by=organiser)
    assert not checkin_pending(ev)
    (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    assert rnd.number == 1


def test_the_new_event_page_makes_events_with_a_check_in_step(client, organiser):
    client.force_login(organiser)
    data = {"name": "Door Cup", "ruleset": "pokemon", "structure": "swiss", "divisions": "open"}
    data |= {"swiss_rounds": 3, "top_cut_size": 0}
    answer = client.post(reverse("staff:event_create"), data)
    assert answer.status_code == 302
    assert Event.objects.get(name="Door Cup").checkin_step is True


def test_the_check_in_pages_speak_spanish(client, organiser):
    ev = factories.event_with_players(2, by=organiser, checkin_step=True)
    client.cookies["django_language"] = "es"
    door = client.get(reverse("public:checkin", args=[ev.slug])).content.decode()
    assert "Escribe tu ID de jugador y tu año de nacimiento" in door
    client.force_login(organiser)
    page = client.get(reverse("staff:checkin", args=[ev.slug])).content.decode()
    assert "Buscar un jugador" in page and "Toca para registrar" in page
    dashboard = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    assert "0 de 2 jugadores registrados" in dashboard and "Lista de llegada" in dashboard


def test_the_door_page_works_for_a_draft_event(client, organiser):
    """Check-in comes before publishing: the door QR code of a draft opens its page."""
    ev = age_event(organiser, {"masters": 1}, checkin_step=True)
    ev.listing = "draft"
    ev.save(update_fields=["listing"])
    url = reverse("public:checkin", args=[ev.slug])
    assert client.get(reverse("public:event", args=[ev.slug])).status_code == 404
    right = client.post(url, {"player_id": "m000", "birth_year": "1990"})
    assert right.status_code == 200 and "masters 00, you are checked in." in right.content.decode()


def test_a_player_added_after_check_in_closed_is_present_and_counted(organiser):
    """Found on a newcomer's walk: a late entry at the desk was paired but counted absent
    (and would have been removed by closing check-in again)."""
    ev = factories.event_with_players(4, by=organiser, checkin_step=True)
    tick(ev, organiser, ["Player 001", "Player 002", "Player 003", "Player 004"])
    checkin_close(event=ev, by=organiser)
    late = services.registration_add(event=ev, name="Late Comer", by=organiser)
    late.refresh_from_db()
    assert late.checked_in_at is not None and late.checked_in_by == organiser
    assert checkin_absentees(ev) == []
    before = services.registration_add(
        event=factories.event(by=organiser), name="Early", by=organiser
    )
    assert before.checked_in_at is None  # check-in still open there: ticked at the desk


def test_reloading_the_close_confirmation_goes_back_to_the_dashboard(client, organiser):
    ev = factories.event_with_players(2, by=organiser, checkin_step=True)
    client.force_login(organiser)
    response = client.get(reverse("staff:checkin_close", args=[ev.slug]))
    assert response.status_code == 302
    assert response["Location"] == reverse("staff:dashboard", args=[ev.slug]) + "#checkin"
    ev.refresh_from_db()
    assert ev.checkin_closed_at is None


def _checkin_card(client, ev) -> tuple[str, str, str]:
    """The dashboard's phase badge, check-in plan sentence (tags and runs of spaces
    removed) and the close form's Swiss rounds field."""
    page = client.get(reverse("staff:dashboard", args=[ev.slug])).content.decode()
    phase = re.search(r'id="event-phase">([^<]*)<', page)
    plan = re.search(r'<p id="checkin-plan"[^>]*>(.*?)</p>', page, re.S)
    field = re.search(r'<input[^>]*name="swiss_rounds"[^>]*>', page)
    assert phase is not None and field is not None
    text = " ".join(re.sub(r"<[^>]+>", "", plan[1]).split()) if plan else ""
    return phase[1], text, field[0]


def test_the_check_in_card_counts_who_is_in_and_proposes_the_rounds_announced(client, organiser):
    """A newcomer's walk: a Magic event made on the New-event page with 4 Swiss rounds
    and a top 4, 12 players, nobody checked in. The card said "12 players checked in" and
    proposed the table's 5 rounds with an empty field, and after closing with 4 still
    said "Closing check-in sets 5 Swiss rounds" under the heading "Registration"."""
    client.force_login(organiser)
    data = {"name": "Friday Cup", "ruleset": "mtg", "structure": "swiss-top-cut"}
    data |= {"divisions": "open", "swiss_rounds": 4, "top_cut_size": 4}
    assert client.post(reverse("staff:event_create"), data).status_code == 302
    ev = Event.objects.get(name="Friday Cup")
    for i in range(1, 13):
        services.registration_add(event=ev, name=f"Player {i:03d}", by=organiser)

    phase, plan, field = _checkin_card(client, ev)
    assert phase == "Registration"
    assert plan == (
        "12 players registered, none checked in yet; the round table recommends 5 Swiss"
        " rounds, top 4. Closing check-in sets 4 Swiss rounds and a top 4. These are the"
        " rounds announced: empty the Swiss rounds field to take the table's."
    )
    assert 'value="4"' in field
    tick(ev, organiser, [f"Player {i:03d}" for i in range(1, 11)])
    assert _checkin_card(client, ev)[1].startswith(
        "10 players checked in; the round table recommends 5 Swiss rounds, top 4. Closing"
        " check-in sets 4 Swiss rounds and a top 4."
    )

    absent = [r.pk for r in checkin_absentees(ev)]
    close = {"swiss_rounds": "4", "top_cut": "", "absent": absent, "confirm_absent": "1"}
    assert client.post(reverse("staff:checkin_close", args=[ev.slug]), close).status_code == 302
    ev.refresh_from_db()
    assert (ev.swiss_rounds, ev.top_cut_size) == (4, 4)
    phase, plan, field = _checkin_card(client, ev)
    assert phase == "Check-in closed"
    assert plan == (
        "10 players checked in; the round table recommends 5 Swiss rounds, top 4. Check-in"
        " was closed with 4 Swiss rounds and a top 4."
    )
    assert "Closing check-in sets" not in plan and 'value="4"' in field
    client.cookies["django_language"] = "es"
    phase, plan, _field = _checkin_card(client, ev)
    assert phase == "Registro de llegada cerrado"
    assert plan == (
        "10 jugadores registrados a su llegada; la tabla de rondas recomienda 5 rondas"
        " suizas, top 4. El registro de llegada se cerró con 4 rondas suizas y un top 4."
    )


def test_an_event_of_several_divisions_closes_with_the_tables_rounds(client, organiser):
    """Age divisions each read the table with the players present (P-AGE-4): the form
    proposes no single number for them all."""
    ev = age_event(organiser, {"junior": 5, "senior": 6, "masters": 6}, checkin_step=True)
    client.force_login(organiser)
    _phase, _plan, field = _checkin_card(client, ev)
    assert "value=" not in field
