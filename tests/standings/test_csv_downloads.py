"""Standings and pairings as CSV: the pairings' result column, and the same
files downloaded from the staff standings and round pages."""

from __future__ import annotations

import csv

import pytest
from django.urls import reverse

from tests import factories
from tests.standings.test_other_rulesets import WER, run
from tournaments import services
from tournaments.models import Event
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def rows_of(raw: bytes) -> list[list[str]]:
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM
    return list(csv.reader(raw.decode("utf-8-sig").splitlines()))


def test_export_csv_pairings_gives_each_rows_result_before_the_table_marks(tmp_path):
    slug = run("import_wer", str(WER)).strip().splitlines()[-1]
    path = tmp_path / "pairings.csv"
    run("export_csv", slug, "pairings", str(path))
    rows = rows_of(path.read_bytes())
    assert rows[0] == [
        "round", "group", "table", "player 1 id", "player 1", "player 2 id", "player 2", "result",
        "fixed seat", "feature table",
    ]  # fmt: skip
    last = Event.objects.get(slug=slug).rounds.order_by("number").last()
    expected = {}
    for m in last.matches.select_related("winner"):
        ids = tuple(s.registration.external_id for s in m.seats.order_by("seat"))
        expected[ids] = m.winner.external_id if m.winner else m.outcome
    got = {(r[3],) + ((r[5],) if r[5] else ()): r[7] for r in rows[1:]}
    assert got == expected


def test_staff_pages_link_and_download_both_csv_files(client, organiser):
    ev = factories.event_with_players(4, by=organiser, name="Café Cup", swiss_rounds=2)
    rnd = factories.round_in_order(ev, by=organiser)
    m1, m2 = rnd.matches.order_by("table")
    services.slip_enter(
        match=m1, result=Result.win(m1.seats.get(seat=1).registration), by=organiser
    )
    client.force_login(organiser)

    round_page = client.get(reverse("staff:round", args=[ev.slug, rnd.pk])).content.decode()
    link = reverse("staff:pairings_csv", args=[ev.slug]) + f"?round={rnd.pk}"
    assert f'href="{link}"' in round_page
    response = client.get(link)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="{ev.slug}-round-1.csv"' in response["Content-Disposition"]
    rows = rows_of(response.content)
    winner = m1.seats.get(seat=1).registration.player.player_id  # the Play! ID
    assert [r[2] for r in rows[1:]] == ["1", "2"]
    result = rows[0].index("result")  # columns are added after it (docs/file-formats.md)
    assert [r[result] for r in rows[1:]] == [winner, ""]  # table 2 is not reported yet

    services.slip_enter(match=m2, result=Result.draw(), by=organiser)
    with_standings = client.get(reverse("staff:standings", args=[ev.slug])).content.decode()
    assert reverse("staff:standings_csv", args=[ev.slug]) in with_standings
    rows = rows_of(client.get(reverse("staff:standings_csv", args=[ev.slug])).content)
    assert rows[0] == [
        "division", "place", "player id", "name", "record", "match points", "OWP", "OOWP",
        "dropped",
    ]  # fmt: skip
    assert [r[4] for r in rows[1:]] == ["1-0-0", "0-0-1", "0-0-1", "0-1-0"]
    assert [r[5] for r in rows[1:]] == ["3", "1", "1", "0"]


def test_csv_downloads_are_staff_only_and_refuse_another_events_round(client, organiser):
    ev = factories.event_with_players(2, by=organiser, swiss_rounds=1)
    other = factories.event_with_players(2, by=organiser, name="Other", swiss_rounds=1)
    rnd = factories.round_in_order(other, by=organiser)
    url = reverse("staff:standings_csv", args=[ev.slug])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(factories.user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    bad = reverse("staff:pairings_csv", args=[ev.slug]) + f"?round={rnd.pk}"
    assert client.get(bad).status_code == 404


def test_the_current_pairings_list_a_top_cut_player_once(organiser):
    """Once the top cut is paired, the current pairings are the cut's
    round alone, not also the Swiss round its players last played."""
    from interchange.services.csv_exports import pairings_rows
    from tournaments.models import Phase, RoundStatus

    event = factories.event_with_players(8, by=organiser, swiss_rounds=1, top_cut_size=4)
    factories.round_in_order(event, by=organiser)
    assert len(pairings_rows(event)) == 1 + 4
    top4 = list(event.registrations.order_by("pk"))[:4]
    factories.round_in_order(
        event, by=organiser, status=RoundStatus.PAIRED, group="open-top-cut",
        phase=Phase.TOP_CUT, number=2, regs=top4,
    )  # fmt: skip
    rows = pairings_rows(event)[1:]
    assert [(r[0], r[1]) for r in rows] == [("2", "open-top-cut"), ("2", "open-top-cut")]
    names = [r[4] for r in rows] + [r[6] for r in rows]
    assert sorted(names) == ["Player 001", "Player 002", "Player 003", "Player 004"]
