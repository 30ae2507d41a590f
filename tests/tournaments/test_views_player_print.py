"""A player's private page (report, drop) and the print pages (pairings for the wall,
by table, match slips in cut-stack order with report QR codes, standings)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pairings.services import round_pair
from tests import factories
from tests.pod_factories import pod_event, seats
from tournaments import services
from tournaments.models import AuditEvent, RoundStatus
from tournaments.public_pages import public_pages_refresh
from tournaments.selectors.printing import cut_stack
from tournaments.services import Result

HX = {"HX-Request": "true"}


def start_round(event, by, players=8):
    regs = list(event.registrations.order_by("pk"))[:players]
    return factories.round_in_order(event, by=by, regs=regs), regs


def link(reg, name="public:player"):
    return reverse(name, args=[reg.event.slug, reg.report_token])


@pytest.mark.django_db
def test_the_private_page_shows_the_table_and_opponent_and_no_other_link(client, event8, organiser):
    rnd, regs = start_round(event8, organiser)
    response = client.get(link(regs[2]))
    body = response.content.decode()
    assert response["Referrer-Policy"] == "same-origin"  # never to other sites
    assert "private" in response["Cache-Control"]
    assert "Table <strong" in body and ">2</strong>" in body and "Player 004" in body
    others = [r.report_token for r in event8.registrations.exclude(pk=regs[2].pk)]
    assert not any(token in body for token in others)


@pytest.mark.django_db
def test_two_players_report_on_their_links_and_the_result_is_recorded(client, event8, organiser):
    rnd, regs = start_round(event8, organiser)
    match = rnd.matches.get(table=1)
    first = client.post(
        link(regs[0], "public:player_report"), {"match": match.pk, "result": "me"}, headers=HX
    )
    assert first.status_code == 200
    assert "Waiting for your opponent" in first.content.decode()
    again = client.post(
        link(regs[1], "public:player_report"), {"match": match.pk, "result": "opponent"}, headers=HX
    )
    assert "Result recorded" in again.content.decode()
    match.refresh_from_db()
    assert match.winner_id == regs[0].pk


@pytest.mark.django_db
def test_a_report_for_someone_elses_table_is_not_found(client, event8, organiser):
    rnd, regs = start_round(event8, organiser)
    other_table = rnd.matches.get(table=2)
    url = link(regs[0], "public:player_report")
    assert client.post(url, {"match": other_table.pk, "result": "me"}).status_code == 404


@pytest.mark.django_db
def test_without_javascript_a_report_redirects_back_with_a_message(client, event8, organiser):
    rnd, regs = start_round(event8, organiser)
    match = rnd.matches.get(table=1)
    response = client.post(
        link(regs[0], "public:player_report"), {"match": match.pk, "result": "draw"}, follow=True
    )
    assert "Waiting for your opponent" in response.content.decode()


@pytest.mark.django_db
def test_a_player_drops_themselves_after_confirming(client, event8, organiser):
    _, regs = start_round(event8, organiser)
    url = link(regs[0], "public:player_drop")
    body = client.post(url, follow=True).content.decode()
    assert "Tick the box" in body
    body = client.post(url, {"confirm": "on"}, follow=True).content.decode()
    assert "You dropped after round 1" in body
    regs[0].refresh_from_db()
    assert regs[0].dropped_after_round == 1
    assert AuditEvent.objects.get(action="registration.drop").actor_registration == regs[0]


@pytest.mark.django_db
def test_a_reset_link_stops_the_old_one(client, event8, organiser):
    _, regs = start_round(event8, organiser)
    old = link(regs[0])
    client.force_login(organiser)
    client.post(reverse("staff:player_link_reset", args=[event8.slug, regs[0].pk]))
    client.logout()
    regs[0].refresh_from_db()
    assert client.get(old).status_code == 404
    assert client.get(link(regs[0])).status_code == 200


@pytest.mark.parametrize(
    ("n", "per", "sheets"),
    [
        (0, 4, []),
        (3, 4, [[0, 1, 2]]),
        (8, 4, [[0, 2, 4, 6], [1, 3, 5, 7]]),
        (10, 4, [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]),
    ],
)
def test_cut_stack_order_gives_table_order_after_cutting_and_stacking(n, per, sheets):
    arranged = cut_stack(list(range(n)), per)
    assert arranged == sheets
    piles = [[s[i] for s in arranged if i < len(s)] for i in range(per)]
    assert [x for pile in piles for x in pile] == list(range(n))


@pytest.mark.django_db
def test_match_slips_print_in_cut_stack_order_with_one_qr_code_per_player(client, organiser):
    event = factories.event_with_players(20, by=organiser)
    rnd, _ = start_round(event, organiser, players=20)
    client.force_login(organiser)
    body = client.get(reverse("staff:print_slips", args=[event.slug, rnd.pk])).content.decode()
    tables = [int(t) for t in re.findall(r'data-table="(\d+)"', body)]
    assert tables == [1, 4, 7, 10, 2, 5, 8, 3, 6, 9]  # 10 slips on 3 sheets
    assert body.count('class="qr"') == 20
    assert body.count('class="sheet"') == 3
    assert "@page { size: A4 portrait" in body
    letter = client.get(
        reverse("staff:print_slips", args=[event.slug, rnd.pk]), {"paper": "letter"}
    ).content.decode()
    assert "@page { size: letter portrait" in letter


def slip_parts(body: str) -> list[tuple[str, str, list[str]]]:
    """Each printed slip as (table, staff part, [tear-off strips]) in page order."""
    cards = re.findall(
        r'<article class="slip-card[^"]*" data-table="(\d+)"(.*?)</article>', body, re.S
    )
    out = []
    for table, card in cards:
        staff, strips = card.split('<div class="slip-strips">')
        stubs = re.findall(r'<section class="slip-stub"(.*?)</section>', strips, re.S)
        out.append((table, staff, stubs))
    return out


def assert_each_strip_holds_only_its_player(event, body, players_at):
    """Every player's link and name are on their own strip, nobody else's;
    the staff part names the players but carries no link."""
    regs = {r.player.name: r.report_token for r in event.registrations.select_related("player")}
    for table, staff, stubs in slip_parts(body):
        names = players_at[int(table)]
        assert not any(token in staff for token in regs.values())
        assert all(f"<bdi>{name}</bdi>" in staff for name in names)
        assert len(stubs) == len(names)
        for stub, name in zip(stubs, names, strict=True):
            assert f'data-player="{name}"' in stub
            assert f"/e/{event.slug}/p/{regs[name]}/" in stub
            others = [n for n in regs if n != name]
            assert not any(regs[n] in stub or f">{n}<" in stub for n in others)


@pytest.mark.django_db
def test_each_player_s_link_and_name_are_on_their_own_tear_off_strip(client, organiser):
    event = factories.event_with_players(8, by=organiser)
    rnd, _ = start_round(event, organiser)
    client.force_login(organiser)
    body = client.get(reverse("staff:print_slips", args=[event.slug, rnd.pk])).content.decode()
    players_at = {
        m.table: [s.registration.player.name for s in m.seats.order_by("seat")]
        for m in rnd.matches.prefetch_related("seats__registration__player")
    }
    assert len(slip_parts(body)) == 4
    assert body.count("Cut here · keep your half") == 4
    assert_each_strip_holds_only_its_player(event, body, players_at)


@pytest.mark.django_db
def test_pod_slips_print_two_per_sheet_with_a_strip_per_seat(client, organiser):
    event = pod_event(11, by=organiser)  # MP-POD-1: pods of 4, 4 and 3
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=3)
    services.round_publish(round=rnd, by=organiser)
    client.force_login(organiser)
    body = client.get(reverse("staff:print_slips", args=[event.slug, rnd.pk])).content.decode()
    players_at = {m.table: [r.player.name for r in seats(m)] for m in rnd.matches.all()}
    assert sorted(len(p) for p in players_at.values()) == [3, 4, 4]
    assert [int(t) for t, _, _ in slip_parts(body)] == [1, 3, 2]  # 2 sheets, cut-stack order
    assert body.count('class="slip-card slip-pod"') == 3 and body.count('class="sheet"') == 2
    assert body.count("Conceded</div>") == 11
    assert_each_strip_holds_only_its_player(event, body, players_at)


@pytest.mark.django_db
def test_pairings_print_by_name_and_by_table(client, event8, organiser):
    rnd, _ = start_round(event8, organiser)
    client.force_login(organiser)
    url = reverse("staff:print_pairings", args=[event8.slug, rnd.pk])
    by_name = client.get(url).content.decode()
    # by surname: "Player 001" → "001, Player"
    names = re.findall(r'<span class="n"><bdi><strong>([^<]+)</strong>, Player</bdi>', by_name)
    assert names == [f"{i:03d}" for i in range(1, 9)]
    by_table = client.get(url, {"by": "table"}).content.decode()
    assert by_table.count('<td class="t">') == 4 and "by=table&amp;paper=letter" in by_table


@pytest.mark.django_db
def test_standings_print(client, event8, organiser, django_capture_on_commit_callbacks):
    rnd, regs = start_round(event8, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        for m in rnd.matches.prefetch_related("seats"):
            services.slip_enter(
                match=m, result=Result.win(m.seats.all()[0].registration), by=organiser
            )
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    client.force_login(organiser)
    body = client.get(reverse("staff:print_standings", args=[event8.slug])).content.decode()
    assert body.count("<tr class=") == 8 and "print.css" in body


@pytest.mark.django_db
@pytest.mark.parametrize("players", [8, 40])
def test_the_private_page_needs_a_fixed_number_of_queries(
    client, organiser, players, django_assert_max_num_queries
):
    event = factories.event_with_players(players, by=organiser)
    _, regs = start_round(event, organiser, players=players)
    # 9, the round's group and its divisions; the live versions the page shows;
    # the player's table at the top: 5 more while the public pages are not prebuilt
    with django_assert_max_num_queries(17):
        assert client.get(link(regs[0])).status_code == 200
    public_pages_refresh(event.pk)  # as after the round was published: the table is prebuilt
    with django_assert_max_num_queries(12):
        assert client.get(link(regs[0])).status_code == 200


@pytest.mark.django_db
def test_a_resent_report_changes_nothing(client, event8, organiser):
    rnd, regs = start_round(event8, organiser)
    match = rnd.matches.get(table=1)
    for _ in range(2):
        client.post(link(regs[0], "public:player_report"), {"match": match.pk, "result": "me"})
    assert AuditEvent.objects.filter(action__startswith="report.").count() == 1
