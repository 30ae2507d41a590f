"""Round control: the pairing explanations every staff role sees, and the order of a
round's posting (P-POST-1, P-POST-2, P-SW-5, P-AGE-3)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairings.checkin_services import checkin_close
from pairings.services import round_pair
from tests import factories
from tournaments import services
from tournaments.errors import ResultsMissing, RoundStateError
from tournaments.models import StaffRole
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def test_P_SW_5_P_AGE_3_judge_sees_why_each_table_and_the_bye_were_paired(client, organiser):
    """3 Juniors, 3 Seniors and 1 Master share a pod: one bye, one table across divisions."""
    pod = "junior+senior+masters"
    ev = factories.event(
        by=organiser, divisions=dict.fromkeys(("junior", "senior", "masters"), pod)
    )
    for code, n, year in (("junior", 3, 2016), ("senior", 3, 2012), ("masters", 1, 1990)):
        for i in range(n):
            services.registration_add(
                event=ev, name=f"{code} {i}", birth_year=year,
                division=ev.divisions.get(code=code), by=organiser,
            )  # fmt: skip
    checkin_close(event=ev, by=organiser)
    (rnd,) = round_pair(event=ev, group=pod, by=organiser, seed=3)
    judge = factories.staff(ev, StaffRole.JUDGE)
    client.force_login(judge)
    page = client.get(reverse("staff:round_why", args=[ev.slug, rnd.pk])).content.decode()
    assert "bye: lowest bracket" in page
    assert "other division" in page
    assert page.count('<tr id="why-') == rnd.matches.count()


def test_P_POST_1_next_round_is_paired_only_after_every_result_is_in(organiser, event8):
    (r1,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    with pytest.raises(RoundStateError, match="publish and start it"):
        round_pair(event=event8, group="open", by=organiser, seed=2)
    services.round_publish(round=r1, by=organiser)
    services.round_start(round=r1, by=organiser)
    with pytest.raises(ResultsMissing, match="4 result"):
        round_pair(event=event8, group="open", by=organiser, seed=2)
    for m in r1.matches.prefetch_related("seats"):
        winner = m.seats.first().registration
        services.slip_enter(match=m, result=Result.win(winner), by=organiser)
    (r2,) = round_pair(event=event8, group="open", by=organiser, seed=2)
    assert r2.number == 2 and not r2.is_public  # posted only when published


def test_P_POST_1_a_paired_round_is_not_public_until_published(client, organiser, event8):
    (rnd,) = round_pair(event=event8, group="open", by=organiser, seed=1)
    name = rnd.matches.first().seats.first().registration.player.name
    public = reverse("public:pairings", args=[event8.slug])
    assert name not in client.get(public).content.decode()
    services.round_publish(round=rnd, by=organiser)
    assert name in client.get(public).content.decode()
