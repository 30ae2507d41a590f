"""Staff pages name things as people do: pairing groups by their
divisions ("Junior + Senior"), never by key ("junior+senior"); every Corrections tab of an
event with several groups carries its group's name."""

from __future__ import annotations

from django.urls import reverse

from pairings.checkin_services import checkin_close
from pairings.services import round_pair
from tests.pairings.test_age_divisions import age_event
from tournaments import services
from tournaments.models import BackgroundRun, BackgroundRunStatus
from tournaments.models.staff import BackgroundRunKind


def _two_groups_started(organiser):
    ev = age_event(organiser, {"junior": 3, "senior": 7, "masters": 12})
    checkin_close(event=ev, by=organiser)
    rounds = [
        round_pair(event=ev, group=g, by=organiser, seed=1)[0] for g in ("junior+senior", "masters")
    ]
    return ev, rounds


def test_corrections_tabs_name_every_group_by_its_divisions(client, organiser):
    ev, rounds = _two_groups_started(organiser)
    for rnd in rounds:
        services.round_publish(round=rnd, by=organiser)
        services.round_start(round=rnd, by=organiser)
    client.force_login(organiser)
    page = client.get(reverse("staff:corrections", args=[ev.slug])).content.decode()
    nav = page[: page.index('id="chosen-round"')]
    assert "Round 1 <small>Junior + Senior</small>" in nav
    assert "Round 1 <small>Masters</small>" in nav
    assert "junior+senior" not in nav and "<small>masters</small>" not in nav


def test_the_pairing_run_page_names_the_groups_it_paired(client, organiser):
    ev, rounds = _two_groups_started(organiser)
    client.force_login(organiser)
    run = BackgroundRun.objects.create(
        event=ev, kind=BackgroundRunKind.PAIRING, group="masters", status=BackgroundRunStatus.DONE
    )
    page = client.get(reverse("staff:run", args=[ev.slug, run.pk])).content.decode()
    assert "Review round 1 (Junior + Senior)" in page and "Review round 1 (Masters)" in page
    assert "(junior+senior)" not in page
