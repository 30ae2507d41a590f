"""Replay a real League Cup through the staff web endpoints and check the public standings.

The event is the TOM export ``2025-dg-nov-cup.tdf`` (Masters pod of 18, 5 Swiss rounds,
top 4; Junior+Senior age-modified pod of 11, 4 rounds, Senior top 4; ties, byes, drops).
Players are registered with the staff add-player form, each round is created with the
file's pairings (``round_create``), published and started with the staff buttons, every
result is entered with the HTMX row form, drops go through the drop button, and the
standings the Celery task computes after each round must match the official
``<standings>`` place by place in every division (R-1, R-2, R-4, R-5, P-TC-3).
"""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from django.urls import reverse

from interchange.formats.tdf import MatchResult, TdfTournament, parse_tdf
from interchange.formats.tdf_event import tdf_event_data
from tests import factories
from tests.paths import DATA
from tournaments import services
from tournaments.groups import cut_key, swiss_group
from tournaments.models import Division, Phase, Registration, RoundStatus

pytestmark = pytest.mark.django_db

TDF = DATA / "pokemon" / "2025-dg-nov-cup.tdf"
HX = {"HX-Request": "true"}
CATEGORY = {"junior": 0, "senior": 1, "masters": 2}
BUTTON = {MatchResult.DRAW: "draw", MatchResult.DOUBLE_LOSS: "double-loss"}


def _register(client, event, tournament: TdfTournament) -> dict[str, Registration]:
    """Every player through the staff add-player form, in their division."""
    data = tdf_event_data(tournament)
    divisions = {d.code: d for d in Division.objects.filter(event=event)}
    for p in data.players:
        response = client.post(
            reverse("staff:player_add", args=[event.slug]),
            {
                "name": p.name,
                "player_id": p.player_id,
                "birth_year": p.birth_year or "",
                "division": divisions[p.division].pk,
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
    regs = Registration.objects.filter(event=event).select_related("player", "division")
    return {r.player.player_id: r for r in regs}


def _rounds(tournament: TdfTournament, regs: dict[str, Registration]):
    """``{number: [(group key, phase, matches)]}``: top-cut matches go to their division's
    cut group, Swiss matches to its Swiss group (R-5)."""
    by_number: dict[int, dict[tuple[str, str], list]] = defaultdict(lambda: defaultdict(list))
    for pod in tournament.pods:
        for rnd in pod.rounds:
            for m in rnd.matches:
                if rnd.is_elimination:
                    key = (cut_key(regs[m.players[0]].division.code), Phase.TOP_CUT)
                else:
                    key = (swiss_group(regs[m.players[0]].division).key, Phase.SWISS)
                by_number[rnd.number][key].append(m)
    return {
        n: [(key, phase, ms) for (key, phase), ms in groups.items()]
        for n, groups in sorted(by_number.items())
    }


def _play(client, event, rnd, matches, regs) -> None:
    """Publish and start the round with the staff buttons, then one click per table."""
    for name in ("staff:round_publish", "staff:round_start"):
        assert client.post(reverse(name, args=[event.slug, rnd.pk])).status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.STARTED
    tables = {m.table: m for m in rnd.matches.all()}
    for m in matches:
        if m.result == MatchResult.BYE:
            continue
        if m.result == MatchResult.WIN:
            button = "p1" if m.winner == m.players[0] else "p2"
        else:
            button = BUTTON[m.result]
        match = tables[m.table_number]
        url = reverse("staff:match_result", args=[event.slug, match.pk])
        response = client.post(url, {"result": button, "version": match.version}, headers=HX)
        assert response.status_code == 200, response.content.decode()
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE


def _public_standings(client, event) -> dict[str, list[str]]:
    """Names per division label, in the order the public standings page shows them."""
    body = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    sections = re.findall(r'<section class="division">(.*?)</section>', body, re.S)
    out = {}
    for section in sections:
        heading = re.search(r"<h2>(.*?)</h2>", section)
        assert heading is not None
        out[heading.group(1)] = re.findall(
            r'<td class="name">(?:<a [^>]*>)?<bdi>([^<]+?)</bdi>', section
        )
    return out


def test_R_5_league_cup_replayed_through_the_staff_pages_matches_official_standings(
    client, organiser, django_capture_on_commit_callbacks
):
    tournament = parse_tdf(TDF.read_bytes())
    event = services.event_create(
        name="DG Nov Cup replay",
        by=organiser,
        swiss_rounds=5,
        top_cut_size=4,
        divisions={"junior": "junior+senior", "senior": "junior+senior", "masters": "masters"},
        season_year=2026,  # November 2025: the birth years give the file's divisions
    )
    client.force_login(organiser)
    regs = _register(client, event, tournament)
    drops = defaultdict(list)
    for p in tournament.players:
        if p.dropped_round is not None:
            drops[p.dropped_round].append(regs[p.userid])

    with django_capture_on_commit_callbacks(execute=True):  # the standings task, the cache
        for number, groups in _rounds(tournament, regs).items():
            for key, phase, matches in groups:
                tables = [
                    (
                        m.table_number if len(m.players) > 1 else None,
                        [regs[i] for i in m.players],
                        "from the TOM file",
                    )
                    for m in matches
                ]
                rnd = services.round_create(
                    event=event,
                    group=factories.group_row(event, key),
                    number=number,
                    phase=phase,
                    tables=tables,
                    by=organiser,
                )
                _play(client, event, rnd, matches, regs)
            for reg in drops[number]:
                url = reverse("staff:player_drop", args=[event.slug, reg.pk])
                assert client.post(url, {"confirm": "on"}).status_code == 302

    names = {p.userid: f"{p.firstname} {p.lastname}" for p in tournament.players}
    official = {
        code.title(): [names[i] for i in tournament.official_places(category)]
        for code, category in CATEGORY.items()
    }
    shown = _public_standings(client, event)
    assert set(shown) == set(official)
    for division, order in official.items():
        assert shown[division] == order, division
