"""Fixed seating: a player's fixed table in every Swiss round, never
another match there, hall-wide across pairing groups, with pods, through the manual
changes and the minimal re-pair; the pairings show it without the reason.
Through the services and the pages, against PostgreSQL."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from interchange.services.csv_exports import pairings_rows
from pairings.repair_services import round_repair, round_repair_preview
from pairings.services import round_pair
from tests import factories
from tests.pod_factories import play, pod_event, seats
from tests.tournaments.test_hall_tables_and_names import two_groups
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import (
    AuditEvent,
    Match,
    Outcome,
    Registration,
    Round,
    RoundStatus,
    Seating,
)
from tournaments.services import Result
from tournaments.services.seating import fixed_seats, registration_fixed_seat_set

pytestmark = pytest.mark.django_db


def seat(reg, table, by, reason="wheelchair"):
    return registration_fixed_seat_set(registration=reg, table=table, reason=reason, by=by)


def table_of(rnd, reg):
    return Match.objects.get(round=rnd, seats__registration=reg).table


def at_table(rnd, table):
    """The ids of the players seated at ``table`` in ``rnd`` (every match there)."""
    return [
        set(m.seats.values_list("registration_id", flat=True))
        for m in Match.objects.filter(round=rnd, table=table)
    ]


def play_heads(rnd, by, number):
    """Publish, start and report every match of a head-to-head round, the winner
    changing with the table and round so the fixed-seat players move between brackets."""
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        players = [s.registration for s in m.seats.all()]
        winner = players[(m.table + number) % 2]
        services.slip_enter(match=m, result=Result.win(winner), by=by)


def test_a_fixed_seat_player_sits_at_their_table_every_swiss_round_of_a_64_player_event(
    organiser,
):
    ev = factories.event_with_players(64, by=organiser, swiss_rounds=6)
    regs = list(ev.registrations.order_by("pk"))
    mobility, sight = regs[40], regs[7]
    seat(mobility, 3, organiser)
    seat(sight, 17, organiser, reason="low vision")
    for number in range(1, 7):
        (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=number)
        assert table_of(rnd, mobility) == 3 and table_of(rnd, sight) == 17
        assert len(at_table(rnd, 3)) == 1 and mobility.pk in at_table(rnd, 3)[0]
        assert len(at_table(rnd, 17)) == 1 and sight.pk in at_table(rnd, 17)[0]
        numbers = sorted(rnd.matches.exclude(table=None).values_list("table", flat=True))
        assert numbers == list(range(1, 33))  # the others close up around the fixed tables
        play_heads(rnd, organiser, number)
    # over the whole event, tables 3 and 17 only ever held their players' matches
    for table, reg in ((3, mobility), (17, sight)):
        held = Match.objects.filter(round__event=ev, table=table)
        assert held.count() == 6
        assert all(m.seats.filter(registration=reg).exists() for m in held)
        assert set(held.values_list("seating", flat=True)) <= {
            Seating.FIXED,
            Seating.FIXED_NOT_TOP,
        }


def test_a_fixed_table_below_its_bracket_place_is_marked_not_a_top_table(organiser):
    ev = factories.event_with_players(16, by=organiser, swiss_rounds=3)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[9], 1, organiser)
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    services.round_publish(round=r1, by=organiser)
    services.round_start(round=r1, by=organiser)
    for m in r1.matches.prefetch_related("seats"):  # the fixed-seat player loses
        winner = next(s.registration for s in m.seats.all() if s.registration != regs[9])
        services.slip_enter(match=m, result=Result.win(winner), by=organiser)
    (r2,) = round_pair(event=ev, group="open", by=organiser, seed=2)
    fixed = r2.matches.get(table=1)
    leaders = r2.matches.exclude(pk=fixed.pk).order_by("table").first()
    assert leaders.table == 2  # the leaders' match moved to the next table
    # table 1 holds a match of a lower bracket than table 2's: marked, so not taken for one
    assert fixed.seating == Seating.FIXED_NOT_TOP


def test_in_a_pod_event_the_pod_with_the_fixed_seat_player_sits_at_their_table(organiser):
    ev = pod_event(64, by=organiser, rounds=4)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[21], 5, organiser)
    for number in range(1, 5):
        (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=number)
        pods = at_table(rnd, 5)
        assert len(pods) == 1 and regs[21].pk in pods[0] and len(pods[0]) == 4
        assert sorted(rnd.matches.values_list("table", flat=True)) == list(range(1, 17))
        play(rnd, organiser, pick=number % 4)
    held = Match.objects.filter(round__event=ev, table=5)
    assert held.count() == 4 and all(regs[21] in seats(m) for m in held)


def test_a_fixed_table_is_reserved_hall_wide_across_pairing_groups(organiser):
    ev = two_groups(organiser)  # 16 Masters, 6 Junior, age-separated
    junior = Registration.objects.filter(event=ev, division__code="junior").order_by("pk")[2]
    masters = Registration.objects.filter(event=ev, division__code="masters").order_by("pk")[5]
    seat(junior, 2, organiser)
    seat(masters, 10, organiser)
    (m1,) = round_pair(event=ev, group="masters", by=organiser, seed=1)
    (j1,) = round_pair(event=ev, group="junior", by=organiser, seed=1)
    masters_tables = set(m1.matches.exclude(table=None).values_list("table", flat=True))
    junior_tables = set(j1.matches.exclude(table=None).values_list("table", flat=True))
    assert 2 not in masters_tables and table_of(j1, junior) == 2  # the Junior's seat kept
    assert table_of(m1, masters) == 10 and 10 not in junior_tables
    assert not masters_tables & junior_tables  # never one number twice in the hall


def test_two_fixed_seat_players_paired_together_play_at_the_lower_table(organiser):
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[0], 6, organiser)
    seat(regs[1], 2, organiser)
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PAIRED)  # 0 meets 1
    assert table_of(rnd, regs[0]) == 2
    assert not Match.objects.filter(round=rnd, table=6).exists()  # the other stays empty
    assert any(
        "play each other: at table 2, the lower; table 6 stays empty" in n for n in rnd.notes
    )


def test_a_bye_or_a_dropped_player_leaves_the_table_empty_or_free(organiser):
    ev = factories.event_with_players(7, by=organiser, swiss_rounds=3)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[6], 1, organiser)  # round_in_order gives the 7th player no table: a bye
    rnd = services.round_create(
        event=ev,
        group=factories.group_row(ev, "open"),
        number=1,
        phase="swiss",
        by=organiser,
        tables=[(t + 1, regs[2 * t : 2 * t + 2], "") for t in range(3)] + [(None, [regs[6]], "")],
    )
    assert sorted(rnd.matches.exclude(table=None).values_list("table", flat=True)) == [2, 3, 4]
    services.registration_drop(registration=regs[6], by=organiser, reason="went home")
    assert 1 not in fixed_seats(ev).values()  # a player not paired again frees the table
    with pytest.raises(InvalidInput, match="still the fixed seat of Player 007, who is no"):
        seat(regs[0], 1, organiser)  # staff remove the old seat before giving the table again
    seat(regs[6], None, organiser)
    assert seat(regs[0], 1, organiser).fixed_table == 1


@pytest.mark.django_db(transaction=True)  # the cut reads the standings, computed on commit
def test_a_top_cut_keeps_its_bracket_order_and_skips_the_fixed_tables(organiser):
    ev = factories.event_with_players(10, by=organiser, swiss_rounds=3, top_cut_size=4)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[9], 1, organiser)
    for number in range(1, 4):
        (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=number)
        assert table_of(rnd, regs[9]) == 1
        play_heads(rnd, organiser, number)
    (semis,) = round_pair(event=ev, group="open", by=organiser)
    assert sorted(semis.matches.values_list("table", flat=True)) == [2, 3]
    assert not semis.matches.exclude(seating="").exists()


def test_a_swap_may_not_move_a_fixed_seat_player_off_their_table(organiser):
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[4], 3, organiser)
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PAIRED)
    assert table_of(rnd, regs[4]) == 3
    with pytest.raises(InvalidInput, match="has a fixed seat at table 3 and stays there"):
        services.round_seats_swap(round=rnd, first=regs[4], second=regs[0], by=organiser)
    assert table_of(rnd, regs[4]) == 3
    # their opponent may be swapped: the table stays theirs
    services.round_seats_swap(round=rnd, first=regs[5], second=regs[0], by=organiser)
    assert at_table(rnd, 3) == [{regs[4].pk, regs[0].pk}]


def test_a_move_may_not_take_a_fixed_table_nor_move_one(organiser):
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[4], 3, organiser)
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PAIRED)
    other = Match.objects.get(round=rnd, seats__registration=regs[0])
    with pytest.raises(InvalidInput, match="Table 3 is the fixed seat of Player 005"):
        services.round_table_move(round=rnd, match=other, table=3, by=organiser)
    fixed = Match.objects.get(round=rnd, table=3)
    with pytest.raises(InvalidInput, match="Table 3 is a fixed seat: it does not move"):
        services.round_table_move(round=rnd, match=fixed, table=9, by=organiser)
    assert Match.objects.get(pk=other.pk).table == other.table


def test_a_seat_given_after_pairing_is_kept_by_moving_that_table(organiser):
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3)
    regs = list(ev.registrations.order_by("pk"))
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PAIRED)
    seat(regs[0], 7, organiser)  # round 1 was paired before: it seats them at table 1
    m = Match.objects.get(round=rnd, seats__registration=regs[0])
    services.round_table_move(round=rnd, match=m, table=7, by=organiser)
    assert Match.objects.get(pk=m.pk).seating == Seating.FIXED


def test_P_SW_9_the_minimal_re_pair_puts_the_fixed_seat_player_back_at_their_table(
    event8, organiser
):
    (r1,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    play_heads(r1, organiser, 1)
    flipped = r1.matches.get(table=1)
    fixed_player = flipped.seats.get(seat=1).registration
    seat(fixed_player, 4, organiser)
    (r2,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    assert table_of(r2, fixed_player) == 4
    loser = next(s.registration for s in flipped.seats.all() if s.registration != flipped.winner)
    services.result_correct(
        match=flipped, result=Result.win(loser), reason="slip misread", by=organiser
    )
    preview = round_repair_preview(round=r2, seed=5)
    assert 4 in {c.table for c in preview.result.changed_tables}  # their table is re-paired
    round_repair(round=r2, by=organiser, seed=5, fingerprint=preview.fingerprint)
    assert table_of(r2, fixed_player) == 4
    assert len(at_table(r2, 4)) == 1
    assert sorted(r2.matches.values_list("table", flat=True)) == [1, 2, 3, 4]


def test_giving_a_fixed_seat_is_audited_and_its_reason_kept_for_staff(organiser):
    ev = factories.event_with_players(4, by=organiser)
    reg = ev.registrations.order_by("pk").first()
    seat(reg, 12, organiser, reason="  uses a  wheelchair ")
    reg.refresh_from_db()
    assert (reg.fixed_table, reg.fixed_table_reason) == (12, "uses a wheelchair")
    row = AuditEvent.objects.get(event=ev, action="registration.fixed_seat")
    assert row.old == {"fixed_table": None} and row.new == {"fixed_table": 12}
    seat(reg, None, organiser)
    reg.refresh_from_db()
    assert reg.fixed_table is None and reg.fixed_table_reason == ""


@pytest.mark.parametrize(
    ("table", "message"),
    [(0, "from 1 to 5000"), (5001, "from 1 to 5000"), (5, "already the fixed seat of Player 002")],
)
def test_a_bad_fixed_seat_is_refused_and_changes_nothing(organiser, table, message):
    ev = factories.event_with_players(4, by=organiser)
    first, second = ev.registrations.order_by("pk")[:2]
    seat(second, 5, organiser)
    with pytest.raises(InvalidInput, match=message):
        seat(first, table, organiser)
    first.refresh_from_db()
    assert first.fixed_table is None
    assert AuditEvent.objects.filter(action="registration.fixed_seat").count() == 1


def test_a_dropped_player_gets_no_fixed_seat(organiser):
    ev = factories.event_with_players(4, by=organiser)
    reg = ev.registrations.order_by("pk").first()
    services.registration_drop(registration=reg, by=organiser, reason="")
    with pytest.raises(InvalidInput, match="no longer paired"):
        seat(reg, 2, organiser)


# --- pages ------------------------------------------------------------------------------


@pytest.fixture
def staff_client(client, organiser):
    client.force_login(organiser)
    return client


def test_staff_give_a_fixed_seat_on_the_players_page_and_are_told_of_a_paired_round(
    staff_client, organiser
):
    ev = factories.event_with_players(8, by=organiser)
    reg = ev.registrations.order_by("pk").first()
    factories.round_in_order(ev, by=organiser, status=RoundStatus.PAIRED)
    page = staff_client.get(reverse("staff:player", args=[ev.slug, reg.pk])).content.decode()
    assert 'id="fixed-seat-form"' in page
    url = reverse("staff:fixed_seat", args=[ev.slug, reg.pk])
    body = staff_client.post(url, {"table": "6", "reason": "crutches"}, follow=True)
    text = body.content.decode()
    assert "Table 6 is the fixed seat of Player 001 from the next round paired." in text
    assert "Round 1 is already paired and seats Player 001 at table 1" in text
    assert "crutches" in text  # staff see the reason
    refused = staff_client.post(url, {"table": "", "reason": ""}, follow=True)
    assert "Give the table number, or remove the fixed seat." in refused.content.decode()
    staff_client.post(url, {"remove": "1"})
    reg.refresh_from_db()
    assert reg.fixed_table is None


def test_only_organisers_and_scorekeepers_give_fixed_seats(client, organiser):
    ev = factories.event_with_players(4, by=organiser)
    reg = ev.registrations.order_by("pk").first()
    url = reverse("staff:fixed_seat", args=[ev.slug, reg.pk])
    assert client.post(url, {"table": "3"}).status_code == 302  # to the login page
    judge = factories.staff(ev, "judge")
    client.force_login(judge)
    assert client.post(url, {"table": "3"}).status_code == 403
    client.force_login(factories.staff(ev, "scorekeeper"))
    client.post(url, {"table": "3"})
    reg.refresh_from_db()
    assert reg.fixed_table == 3


def test_public_and_printed_pairings_mark_the_fixed_seat_never_its_reason(
    client, staff_client, organiser
):
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[6], 1, organiser, reason="hearing aid")
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PUBLISHED)
    printed = staff_client.get(
        reverse("staff:print_pairings", args=[ev.slug, rnd.pk]) + "?by=table"
    )
    assert "Fixed seat, not a top table" in printed.content.decode()
    client.logout()
    public = client.get(reverse("public:pairings", args=[ev.slug])).content.decode()
    assert public.count('data-mark="fixed"') == 1 and "Fixed seat, not a top table" in public
    assert "hearing aid" not in public
    spanish = client.get(
        reverse("public:pairings", args=[ev.slug]), headers={"accept-language": "es"}
    ).content.decode()
    assert "Asiento fijo, no es mesa principal" in spanish


# --- the marks on every list of the tables, the staff list, the re-pair preview -----------

MARK = {"en": "Fixed seat, not a top table", "es": "Asiento fijo, no es mesa principal"}
FIXED = {"en": "Fixed seat", "es": "Asiento fijo"}


@pytest.fixture
def marked(organiser):
    """8 players; Player 001 has table 2 (their bracket place is table 1: a fixed seat),
    Player 007 table 1 (their place is table 4: not a top table, "hearing aid"); round 1
    in registration order: 001–002 at table 2, 007–008 at table 1, the others at 3 and 4."""
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3)
    regs = list(ev.registrations.order_by("pk"))
    seat(regs[0], 2, organiser, reason="")
    seat(regs[6], 1, organiser, reason="hearing aid")
    return ev, regs


def name_lines(html: str) -> dict[str, str]:
    """Each line of a "by name" list by its player: the public list ("Player 001"), or
    the printed wall list, surname first ("<strong>001</strong>, Player")."""
    lines = {}
    for line in re.findall(r'<li class="name-line">(.*?)</li>', html, re.S):
        lines["".join(re.findall(r'<span class="name"><bdi>(.*?)</bdi>', line))] = line
    for line in re.findall(r'<li><span class="t">(.*?)</li>', html, re.S):
        lines["Player " + "".join(re.findall(r"<strong>(\d+)</strong>", line))] = line
    return lines


def test_the_pairings_by_name_public_and_printed_and_the_slips_mark_a_fixed_seat(
    client, organiser, marked
):
    ev, _ = marked
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PUBLISHED)
    by_name = reverse("public:pairings", args=[ev.slug]) + "?by=name"
    for language, mark in MARK.items():
        lines = name_lines(client.get(by_name, headers={"accept-language": language}).text)
        assert len(lines) == 8
        assert [p for p, line in lines.items() if 'data-mark="fixed"' in line] == [
            "Player 001", "Player 002", "Player 007", "Player 008"
        ]  # fmt: skip
        assert mark in lines["Player 007"] and mark in lines["Player 008"]
        assert f'data-mark="fixed">{FIXED[language]}</span>' in lines["Player 001"]
        assert "hearing aid" not in "".join(lines.values())
    found = client.get(reverse("public:pairings", args=[ev.slug]), {"q": "player 8"}).text
    assert found.count('data-mark="fixed"') == 1 and MARK["en"] in found  # Find my table too
    client.force_login(organiser)
    for language, mark in MARK.items():
        headers = {"accept-language": language}
        wall = client.get(reverse("staff:print_pairings", args=[ev.slug, rnd.pk]), headers=headers)
        lines = name_lines(wall.text)
        assert [p for p, line in lines.items() if 'data-mark="fixed"' in line] == [
            "Player 001", "Player 002", "Player 007", "Player 008"
        ]  # fmt: skip
        assert mark in lines["Player 008"] and "hearing aid" not in wall.text
        slips = client.get(reverse("staff:print_slips", args=[ev.slug, rnd.pk]), headers=headers)
        heads = dict(re.findall(r'data-table="(\d+)".*?<header>(.*?)</header>', slips.text, re.S))
        assert mark in heads["1"] and 'data-mark="fixed"' in heads["2"] and mark not in heads["2"]
        assert 'data-mark="fixed"' not in heads["3"] + heads["4"]
        assert "hearing aid" not in slips.text


def test_the_projector_marks_a_fixed_seat_still_playing_and_its_board_row_once_time_is_called(
    client, organiser, marked, django_assert_num_queries
):
    ev, _ = marked
    rnd = factories.round_in_order(ev, by=organiser)  # started
    timer = reverse("public:timer", args=[ev.slug])
    for language, mark in MARK.items():
        with django_assert_num_queries(5):  # as without marks (test_round_clock)
            html = client.get(timer, headers={"accept-language": language}).text
        listed = html[html.index('class="marked-tables"') :]
        listed = listed[: listed.index("</ul>")]
        assert re.findall(r'data-table="(\d+)"', listed) == ["1", "2"] and mark in listed
    assert "Mesa 1" in listed  # the Spanish list
    # once time is called the end-of-round board lists every table, marks in their row
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(hours=2))
    html = client.get(timer).text
    assert 'class="marked-tables"' not in html
    rows = dict(re.findall(r'<tr data-table="(\d+)"[^>]*>(.*?)</tr>', html, re.S))
    assert MARK["en"] in rows["1"] and 'data-mark="fixed"' in rows["2"]
    assert 'data-mark="fixed"' not in rows["3"] + rows["4"]


def test_the_current_pairings_csv_ends_with_the_fixed_seat_mark(organiser, marked):
    ev, _ = marked
    factories.round_in_order(ev, by=organiser, status=RoundStatus.PUBLISHED)
    header, *rows = pairings_rows(ev)
    assert header[-3:] == ["result", "fixed seat", "feature table"]
    by_table = {r[2]: r[-2] for r in rows}
    assert by_table == {"1": "fixed-not-top", "2": "fixed", "3": "", "4": ""}
    assert "hearing aid" not in str(rows)  # never the reason


def test_the_players_page_lists_every_fixed_seat_with_its_reason_for_staff_only(client, organiser):
    ev = factories.event_with_players(8, by=organiser)
    regs = list(ev.registrations.order_by("pk"))
    url = reverse("staff:players", args=[ev.slug])
    client.force_login(organiser)
    with CaptureQueriesContext(connection) as without:
        assert 'id="fixed-seats"' not in client.get(url).text  # no seat, no card
    seat(regs[5], 12, organiser, reason="wheelchair")
    seat(regs[2], 3, organiser, reason="")
    seat(regs[7], 7, organiser, reason="low vision")
    services.registration_drop(registration=regs[7], by=organiser, reason="went home")
    for language in ("en", "es"):
        with CaptureQueriesContext(connection) as seats:
            page = client.get(url, headers={"accept-language": language}).text
        assert len(seats) == len(without)  # the list costs no query
        card = page[page.index('id="fixed-seats"') :]
        card = card[: card.index("</section>")]
        rows = dict(re.findall(r'data-fixed-table="(\d+)">(.*?)</tr>', card, re.S))
        assert list(rows) == ["3", "7", "12"]  # by table
        assert "Player 006" in rows["12"] and "wheelchair" in rows["12"]
        edit = reverse("staff:player", args=[ev.slug, regs[5].pk]) + "#fixed-seat"
        assert f'href="{edit}"' in rows["12"]
        assert "Player 003" in rows["3"] and "<td>–</td>" in rows["3"]  # no reason given
        assert "low vision" in rows["7"] and 'class="flag warn"' in rows["7"]
        assert 'class="flag warn"' not in rows["3"] + rows["12"]
    assert "Asientos fijos" in card and "Cambiar el asiento fijo de <bdi" in card
    assert "Ya no se empareja: quita el asiento" in rows["7"]
    client.force_login(factories.staff(ev, "judge"))
    assert client.get(url).status_code == 403
    client.logout()
    for page in ("public:event", "public:pairings", "public:standings"):
        assert "wheelchair" not in client.get(reverse(page, args=[ev.slug])).text


def test_P_SW_9_the_re_pair_preview_shows_the_tables_the_applied_re_pair_uses(
    client, event8, organiser
):
    (r1,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    play_heads(r1, organiser, 1)
    flipped = r1.matches.get(table=1)
    fixed_player = flipped.seats.get(seat=2).registration
    seat(fixed_player, 4, organiser)
    (r2,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    loser = next(s.registration for s in flipped.seats.all() if s.registration != flipped.winner)
    services.result_correct(
        match=flipped, result=Result.win(loser), reason="slip misread", by=organiser
    )
    preview = round_repair_preview(round=r2, seed=5)
    me = str(fixed_player.pk)
    engine = next(c.table for c in preview.result.changed_tables if me in c.new)
    assert engine != 4  # the engine numbers by bracket; the hall keeps the fixed seat
    shown = {c.table: c for c in preview.tables}
    assert me in shown[4].new and all(me not in c.new for t, c in shown.items() if t != 4)
    client.force_login(organiser)
    url = reverse("staff:round_repair", args=[event8.slug, r2.pk])
    page = client.get(url, {"seed": 5}).text
    rows = re.findall(r"<tr><td>(\d+)</td><td>(.*?)</td><td>(.*?)</td></tr>", page)
    assert {t: new for t, _, new in rows}["4"].count(fixed_player.player.name) == 1
    assert len(rows) == len(preview.tables)
    round_repair(round=r2, by=organiser, seed=5, fingerprint=preview.fingerprint)
    for c in preview.tables:  # the applied round has what the preview showed
        assert at_table(r2, c.table) == ([{int(p) for p in c.new}] if c.new else [])
    audit = AuditEvent.objects.get(action="round.repair")
    assert [t for t, _ in audit.new["tables"]] == [c.table for c in preview.tables]
