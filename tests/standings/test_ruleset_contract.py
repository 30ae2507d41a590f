"""The ruleset contract: every registered ruleset runs a small event through
the same paths the app uses — create, pair (the ``pair`` command), start, enter every
result, standings — and every tiebreaker column it declares shows a value on every row
of the public, staff and print standings and in ``standings --json``.

A new ruleset module is covered as soon as it is registered: the parameters are the
registry itself.
"""

from __future__ import annotations

import json
import re
from html import unescape
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from rulesets import RULESETS, get_ruleset
from tests import factories
from tournaments import services
from tournaments.models import Match, Outcome, Round
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def _command(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _enter_results(rnd: Round, by) -> None:
    """Every pending match won by its first seat, as a scorekeeper enters slips: the
    game record 2-1 for best-of-3 rulesets (M-MATCH-1), the winner otherwise."""
    ruleset = get_ruleset(rnd.event.ruleset)
    for m in Match.objects.filter(round=rnd, outcome=Outcome.PENDING).order_by("table"):
        seats = [s.registration for s in m.seats.select_related("registration").order_by("seat")]
        if ruleset.uses_pods:
            services.slip_enter(match=m, result=Result.of(winner=seats[0]), by=by)
        elif ruleset.game_record:
            services.slip_enter(match=m, result=Result.of(games=(2, 1, 0)), by=by)
        else:
            services.slip_enter(match=m, result=Result.win(seats[0]), by=by)


def _play_event(ruleset_id: str, organiser, capture, players: int = 8, rounds: int = 3):
    """The event played through; ``capture`` runs the on-commit work (the standings task
    after each complete round) as a real request would."""
    event = factories.event_with_players(
        players, by=organiser, ruleset=ruleset_id, structure="swiss", swiss_rounds=rounds
    )
    for _ in range(rounds):
        out = json.loads(_command("pair", event.slug, "--publish", "--json"))
        rnd = Round.objects.get(event=event, number=out["round"])
        services.round_start(round=rnd, by=organiser)
        with capture(execute=True):
            _enter_results(rnd, organiser)
    return event


def _table_rows(html: str) -> tuple[list[str], list[list[str]]]:
    """(headings, rows of cell texts) of the first standings table of a page."""
    table = re.search(r'<table class="standings">(.*?)</table>', html, re.S)
    assert table, "no standings table on the page"
    headings = [
        unescape(re.sub(r"<[^>]+>", "", h)).strip()
        for h in re.findall(r"<th[^>]*>(.*?)</th>", table.group(1), re.S)
    ]
    tbody = re.search(r"<tbody>(.*?)</tbody>", table.group(1), re.S)
    assert tbody is not None
    body = tbody.group(1)
    rows = [
        [
            unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        ]
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]
    return headings, rows


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_ruleset_shows_its_own_columns_with_values_everywhere(
    ruleset_id, client, organiser, django_capture_on_commit_callbacks
):
    ruleset = get_ruleset(ruleset_id)
    event = _play_event(ruleset_id, organiser, django_capture_on_commit_callbacks)
    keys = list(ruleset.tiebreakers)

    data = json.loads(_command("standings", event.slug, "--json"))
    assert data["ruleset"] == ruleset_id
    (rows,) = data["divisions"].values()
    assert len(rows) == 8
    for row in rows:
        assert list(row["tiebreakers"]) == keys
        assert all(row["tiebreakers"][k] is not None for k in keys)

    client.force_login(organiser)
    pages = {
        "public": reverse("public:standings", args=[event.slug]),
        "staff": reverse("staff:standings", args=[event.slug]),
        "print": reverse("staff:print_standings", args=[event.slug]),
    }
    for where, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, where
        headings, cells = _table_rows(response.content.decode())
        assert headings[4:] == [c.heading for c in ruleset.columns], where
        assert len(cells) == 8, where
        for line in cells:
            values = line[4:]
            assert len(values) == len(keys) and all(values), (where, line)
        other = {c.heading for r in RULESETS.values() for c in r.columns} - {
            c.heading for c in ruleset.columns
        }
        assert not set(headings) & other, where
