"""The minimal re-pair of a paired round after a judge's correction (P-SW-9, P-POST-2),
through the service and the staff page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.repair_services import players_before, round_repair, round_repair_preview
from pairings.services import round_pair
from tournaments import services
from tournaments.errors import InvalidInput, RoundStateError
from tournaments.models import AuditEvent, Match
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def play_round_1(event, by):
    (rnd,) = round_pair(event=event, group="open", by=by, seed=1)
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.prefetch_related("seats"):
        services.slip_enter(match=m, result=Result.win(m.seats.all()[0].registration), by=by)
    return rnd


def tables(rnd):
    return {
        m.table: frozenset(m.seats.values_list("registration_id", flat=True))
        for m in Match.objects.filter(round=rnd)
    }


@pytest.fixture
def corrected(event8, organiser):
    """Round 1 played, round 2 paired, then table 1 of round 1 flipped by a correction."""
    r1 = play_round_1(event8, organiser)
    (r2,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    m = r1.matches.get(table=1)
    loser = m.seats.get(seat=2).registration
    services.result_correct(match=m, result=Result.win(loser), reason="slip misread", by=organiser)
    return r2


def test_players_before_a_round_do_not_count_that_round(corrected):
    players = players_before(corrected)
    assert len(players) == 8
    assert sorted(p.match_points for p in players) == [0, 0, 0, 0, 3, 3, 3, 3]
    assert all(len(p.opponents) == 1 for p in players)


def test_P_SW_9_repair_changes_only_the_tables_it_must_and_clears_the_marks(corrected, organiser):
    before = tables(corrected)
    preview = round_repair_preview(round=corrected, seed=5)
    changed = {c.table for c in preview.result.changed_tables}
    assert changed and len(changed) < len(before)  # fewer than every table
    round_repair(round=corrected, by=organiser, seed=5, fingerprint=preview.fingerprint)
    after = tables(corrected)
    assert {t for t in before if before[t] != after.get(t)} == changed
    assert not corrected.matches.filter(bracket_changed=True).exists()
    entry = AuditEvent.objects.get(action="round.repair")
    assert entry.new["seed"] == 5 and len(entry.old["tables"]) == len(changed)


def test_a_stale_preview_is_refused(corrected, organiser):
    with pytest.raises(InvalidInput, match="changed since the preview"):
        round_repair(round=corrected, by=organiser, seed=5, fingerprint="something else")


def test_P_POST_2_a_started_round_is_not_repaired(corrected, organiser):
    services.round_publish(round=corrected, by=organiser)
    services.round_start(round=corrected, by=organiser)
    with pytest.raises(RoundStateError, match="its pairings are frozen"):
        round_repair_preview(round=corrected)


def test_the_round_page_offers_the_re_pair_and_applying_it_lands_on_the_round(
    client, corrected, organiser
):
    client.force_login(organiser)
    page = client.get(reverse("staff:round", args=[corrected.event.slug, corrected.pk]))
    url = reverse("staff:round_repair", args=[corrected.event.slug, corrected.pk])
    assert url in page.content.decode()
    preview = client.get(url, {"seed": 7})
    body = preview.content.decode()
    assert "Apply the re-pair" in body and 'name="seed" value="7"' in body
    fingerprint = round_repair_preview(round=corrected, seed=7).fingerprint
    response = client.post(url, {"seed": 7, "fingerprint": fingerprint}, follow=True)
    assert "re-paired: only the changed tables moved" in response.content.decode()
