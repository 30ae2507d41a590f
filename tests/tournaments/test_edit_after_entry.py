"""Fixing what was entered: a player's name, player id and birth year, and the event's
name, date, venue and planned rounds while they can change — each edit audited with the
old and new values; and the tidied staff pages (player page with the disqualification
behind a confirmation, Corrections on the last completed round with a search, the
next-round button, plurals, the home page line, the live note)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput, ResultConflict
from tournaments.models import AuditEvent, RoundStatus
from tournaments.services import Result

AGES = {"junior": "junior", "senior": "senior", "masters": "masters"}


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def _audit(event, action):
    return list(
        AuditEvent.objects.filter(event=event, action=action).values("old", "new", "reason")
    )


# --- player_update ---------------------------------------------------------------------


def test_player_update_renames_and_fixes_the_id_with_an_audit_row(event8, organiser):
    reg = event8.registrations.get(player__player_id="1001")
    services.player_update(
        registration=reg, by=organiser, name="  Ann   Lee ", player_id="5005", reason="typo"
    )
    reg.player.refresh_from_db()
    assert (reg.player.name, reg.player.player_id) == ("Ann Lee", "5005")
    assert _audit(event8, "player.update") == [
        {
            "old": {"name": "Player 001", "player_id": "1001"},
            "new": {"name": "Ann Lee", "player_id": "5005"},
            "reason": "typo",
        }
    ]
    # Saving the same values again changes nothing and writes nothing.
    services.player_update(registration=reg, by=organiser, name="Ann Lee")
    assert len(_audit(event8, "player.update")) == 1


def test_player_update_refuses_a_taken_id_an_empty_name_and_a_stale_form(event8, organiser):
    reg = event8.registrations.get(player__player_id="1001")
    with pytest.raises(InvalidInput, match="Player id 1002 is already registered"):
        services.player_update(registration=reg, by=organiser, player_id="1002")
    with pytest.raises(InvalidInput, match="The player needs a name."):
        services.player_update(registration=reg, by=organiser, name="  ")
    with pytest.raises(InvalidInput, match="Birth year 1850 is out of range"):
        services.player_update(registration=reg, by=organiser, birth_year=1850)
    services.player_update(registration=reg, by=organiser, name="Ann")
    with pytest.raises(ResultConflict, match=r"Ann was changed meanwhile \(now: name Ann\)"):
        services.player_update(
            registration=reg, by=organiser, name="Bea", expected={"name": "Player 001"}
        )
    reg.player.refresh_from_db()
    assert reg.player.name == "Ann"


def test_P_AGE_1_a_new_birth_year_moves_the_division_until_round_1_is_paired(organiser):
    event = factories.event(by=organiser, divisions=AGES, season_year=2026)
    text = "".join(f"P{n},{n},1990\n" for n in range(4))
    regs = services.registrations_add_sheet(event=event, text=text, by=organiser)
    assert {r.division.code for r in regs} == {"masters"}
    reg = services.player_update(registration=regs[0], by=organiser, birth_year=2012)
    assert reg.division.code == "senior"
    assert _audit(event, "player.update")[0] == {
        "old": {"birth_year": 1990, "division": "masters"},
        "new": {"birth_year": 2012, "division": "senior"},
        "reason": "",
    }
    factories.round_in_order(event, by=organiser, regs=regs[1:3], group="masters")
    with pytest.raises(InvalidInput, match="divisions are fixed once round 1 is paired"):
        services.player_update(registration=regs[1], by=organiser, birth_year=2012)
    # A year of the same division is still a plain fix.
    services.player_update(registration=regs[1], by=organiser, birth_year=1991)
    regs[1].player.refresh_from_db()
    assert regs[1].player.birth_year == 1991


# --- event_update ----------------------------------------------------------------------


def test_event_update_edits_name_date_venue_rounds_with_old_and_new(event8, organiser):
    services.event_update(
        event=event8,
        by=organiser,
        name="Spring Cup",
        date=dt.date(2026, 3, 1),
        location="Hall 2",
        swiss_rounds=4,
    )
    event8.refresh_from_db()
    assert (event8.name, event8.date, event8.location, event8.swiss_rounds) == (
        "Spring Cup",
        dt.date(2026, 3, 1),
        "Hall 2",
        4,
    )
    assert _audit(event8, "event.update") == [
        {
            "old": {"name": "Test Cup", "date": None, "location": "", "swiss_rounds": 3},
            "new": {
                "name": "Spring Cup",
                "date": "2026-03-01",
                "location": "Hall 2",
                "swiss_rounds": 4,
            },
            "reason": "",
        }
    ]


def test_event_rounds_never_go_below_a_paired_round(event8, organiser):
    rnd = factories.round_in_order(event8, by=organiser)
    for m in rnd.matches.all():
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    factories.round_in_order(event8, by=organiser, number=2, status=RoundStatus.PAIRED)
    with pytest.raises(InvalidInput, match="Round 2 is already paired: announce at least 2"):
        services.event_update(event=event8, by=organiser, swiss_rounds=1)
    services.event_update(event=event8, by=organiser, swiss_rounds=2)
    event8.refresh_from_db()
    assert event8.swiss_rounds == 2
    with pytest.raises(ResultConflict):
        services.event_update(event=event8, by=organiser, name="X", expected={"swiss_rounds": 3})


def test_single_elimination_rounds_cannot_be_edited(organiser):
    event = factories.event(by=organiser, structure="single-elimination", swiss_rounds=0)
    assert (
        services.event_rounds_editable(event) == "A single-elimination event has no Swiss rounds."
    )
    with pytest.raises(InvalidInput, match="single-elimination event has no Swiss rounds"):
        services.event_update(event=event, by=organiser, swiss_rounds=3)


# --- pages -----------------------------------------------------------------------------


def test_player_page_edits_the_player_and_keeps_the_shown_values(staff_client, event8):
    reg = event8.registrations.get(player__player_id="1001")
    url = reverse("staff:player", args=[event8.slug, reg.pk])
    page = staff_client.get(url).content.decode()
    assert 'name="was_name" value="Player 001"' in page
    shown = {"was_name": "Player 001", "was_player_id": "1001"}
    response = staff_client.post(
        url, {"name": "Ann Lee", "player_id": "1001", **shown}, follow=True
    )
    assert "Saved Ann Lee." in response.content.decode()
    stale = staff_client.post(url, {"name": "Bea", "player_id": "1001", **shown})
    assert "Ann Lee was changed meanwhile (now: name Ann Lee)" in stale.content.decode()
    reg.player.refresh_from_db()
    assert reg.player.name == "Ann Lee"


def test_disqualify_is_on_the_player_page_behind_a_confirmation(staff_client, event8):
    reg = event8.registrations.get(player__player_id="1001")
    players = staff_client.get(reverse("staff:players", args=[event8.slug])).content.decode()
    assert "player_disqualify" not in players and "/disqualify/" not in players
    page = staff_client.get(reverse("staff:player", args=[event8.slug, reg.pk])).content.decode()
    assert reverse("staff:player_disqualify", args=[event8.slug, reg.pk]) in page
    url = reverse("staff:player_disqualify", args=[event8.slug, reg.pk])
    unconfirmed = staff_client.post(url, {"reason": "cheating"})
    assert unconfirmed.status_code == 200
    reg.refresh_from_db()
    assert not reg.disqualified
    done = staff_client.post(url, {"reason": "cheating", "confirm": "on"}, follow=True)
    assert "Player 001 is disqualified." in done.content.decode()
    reg.refresh_from_db()
    assert reg.disqualified


def test_event_edit_page(staff_client, event8):
    url = reverse("staff:event_edit", args=[event8.slug])
    assert 'name="swiss_rounds"' in staff_client.get(url).content.decode()
    data = {
        "name": "Autumn Cup",
        "date": "2026-10-03",
        "location": "Library",
        "swiss_rounds": "5",
        "was_name": "Test Cup",
        "was_date": "",
        "was_location": "",
        "was_swiss_rounds": "3",
    }
    response = staff_client.post(url, data, follow=True)
    assert "Saved Autumn Cup." in response.content.decode()
    event8.refresh_from_db()
    assert (event8.name, str(event8.date), event8.location, event8.swiss_rounds) == (
        "Autumn Cup",
        "2026-10-03",
        "Library",
        5,
    )


def test_corrections_open_on_the_last_completed_round_with_a_search(
    staff_client, event8, organiser
):
    r1 = factories.round_in_order(event8, by=organiser)
    for m in r1.matches.all():
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    factories.round_in_order(event8, by=organiser, number=2)  # started, unplayed
    url = reverse("staff:corrections", args=[event8.slug])
    page = staff_client.get(url).content.decode()
    assert '<h2 id="chosen-round">Round 1' in page
    assert page.count('class="match is-reported"') == 4
    by_table = staff_client.get(url, {"round": r1.pk, "q": "3"}).content.decode()
    assert by_table.count('class="match is-reported"') == 1 and "Table 3" in by_table
    by_name = staff_client.get(url, {"round": r1.pk, "q": "player 008"}).content.decode()
    assert by_name.count('class="match is-reported"') == 1 and "Player 008" in by_name


def test_the_next_round_button_posts_the_pairing(staff_client, event8, organiser):
    rnd = factories.round_in_order(event8, by=organiser)
    for m in rnd.matches.all():
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    page = staff_client.get(reverse("staff:round", args=[event8.slug, rnd.pk])).content.decode()
    form = page[page.index('id="pair-next"') - 200 :]
    assert f'action="{reverse("staff:pair", args=[event8.slug])}"' in form[:400]
    assert 'name="group" value="open"' in form


def test_the_last_slip_offers_the_next_round_of_its_group_by_key(staff_client, event8, organiser):
    """The progress line the last slip redraws (HTMX) names the group by its key, as the
    round page does; an earlier round offers no "Pair the next round"."""
    rnd = factories.round_in_order(event8, by=organiser)
    *first, last = list(rnd.matches.order_by("table"))
    for m in first:
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    url = reverse("staff:match_result", args=[event8.slug, last.pk])
    answer = staff_client.post(url, {"result": "draw", "version": 0}, HTTP_HX_REQUEST="true")
    page = answer.content.decode()
    assert answer.status_code == 200 and 'id="pair-next"' in page
    assert 'name="group" value="open"' in page
    newer = factories.round_in_order(event8, by=organiser, number=2)
    assert newer.pk != rnd.pk
    page = staff_client.get(reverse("staff:round", args=[event8.slug, rnd.pk])).content.decode()
    assert 'id="pair-next"' not in page


def test_home_page_line_without_date_does_not_start_with_a_dot(client, organiser):
    factories.event(by=organiser, name="Dateless Cup")
    body = client.get("/").content.decode()
    line = body[body.index("Dateless Cup") :]
    small = line[line.index("<small>") + len("<small>") : line.index("</small>")]
    assert small.strip() == "Registration"


def test_a_published_round_that_has_not_started_is_not_in_progress(client, event8, organiser):
    factories.round_in_order(event8, by=organiser, status=RoundStatus.PUBLISHED)
    body = client.get(reverse("public:event", args=[event8.slug])).content.decode()
    assert "Round in progress" not in body
    assert "the round has not started yet" in body


def test_the_dashboards_start_button_starts_the_round(staff_client, event8, organiser):
    rnd = factories.round_in_order(event8, by=organiser, status=RoundStatus.PUBLISHED)
    page = staff_client.get(reverse("staff:dashboard", args=[event8.slug])).content.decode()
    action = reverse("staff:round_start", args=[event8.slug, rnd.pk])
    assert f'<form method="post" action="{action}" class="start-round">' in page
    staff_client.post(action)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.STARTED
