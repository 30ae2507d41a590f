"""Featured tables: staff feature a match at a feature table, a player
opts out from their private page and is then never featured, the public pairings mark
featured matches and the event page lists them. Services and pages, against PostgreSQL."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from interchange.services.csv_exports import pairings_rows
from tests import factories
from tests.tournaments.test_fixed_seating import name_lines
from tournaments import services
from tournaments.errors import InvalidInput, RoundStateError
from tournaments.models import AuditEvent, Match, Outcome, RoundStatus
from tournaments.services import Result
from tournaments.services.featured import (
    match_feature,
    match_unfeature,
    registration_feature_opt_out,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(organiser):
    """8 players, round 1 published: tables 1–4 in registration order."""
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3)
    rnd = factories.round_in_order(ev, by=organiser, status=RoundStatus.PUBLISHED)
    return ev, rnd, list(ev.registrations.order_by("pk"))


def table(rnd, number):
    return Match.objects.get(round=rnd, table=number)


def test_staff_feature_a_match_and_it_is_audited(published, organiser):
    ev, rnd, _ = published
    m = match_feature(match=table(rnd, 2), feature_table="  Stream  ", by=organiser)
    assert m.feature_table == "Stream"
    row = AuditEvent.objects.get(event=ev, action="match.feature")
    assert row.new == {"table": 2, "feature_table": "Stream"} and row.actor == organiser
    match_unfeature(match=m, by=organiser)
    assert table(rnd, 2).feature_table == ""
    assert AuditEvent.objects.filter(event=ev, action="match.unfeature").count() == 1


def test_a_player_who_opted_out_is_never_featured(published, organiser):
    _, rnd, regs = published
    registration_feature_opt_out(registration=regs[3], opt_out=True, by=regs[3])
    with pytest.raises(InvalidInput, match="Player 004 asked not to be featured"):
        match_feature(match=table(rnd, 2), feature_table="Stream", by=organiser)
    assert table(rnd, 2).feature_table == ""
    # opting back in lets staff feature the match again
    registration_feature_opt_out(registration=regs[3], opt_out=False, by=regs[3])
    assert match_feature(match=table(rnd, 2), feature_table="Stream", by=organiser).feature_table


def test_opting_out_takes_the_feature_off_the_players_match_at_once(published, organiser):
    ev, rnd, regs = published
    match_feature(match=table(rnd, 1), feature_table="Feature 1", by=organiser)
    taken = registration_feature_opt_out(registration=regs[0], opt_out=True, by=regs[0])
    assert [m.table for m in taken] == [1] and table(rnd, 1).feature_table == ""
    row = AuditEvent.objects.get(event=ev, action="registration.feature_opt_out")
    assert row.actor_registration == regs[0] and row.new == {"feature_opt_out": True}
    assert AuditEvent.objects.get(event=ev, action="match.unfeature").reason == (
        "the player asked not to be featured"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "must not be empty"),
        ("x" * 41, "at most 40 characters"),
        ("Stream", "already featured"),
    ],
)
def test_a_bad_feature_is_refused_and_changes_nothing(published, organiser, name, message):
    _, rnd, _ = published
    match_feature(match=table(rnd, 1), feature_table="Stream", by=organiser)
    with pytest.raises(InvalidInput, match=message):
        match_feature(match=table(rnd, 3), feature_table=name, by=organiser)
    assert table(rnd, 3).feature_table == ""


def test_a_bye_or_a_complete_round_is_not_featured(organiser):
    ev = factories.event_with_players(3, by=organiser)
    regs = list(ev.registrations.order_by("pk"))
    rnd = services.round_create(
        event=ev,
        group=factories.group_row(ev, "open"),
        number=1,
        phase="swiss",
        by=organiser,
        tables=[(1, regs[:2], ""), (None, [regs[2]], "bye")],
    )
    bye = rnd.matches.get(outcome=Outcome.BYE)
    with pytest.raises(InvalidInput, match="cannot be featured"):
        match_feature(match=bye, feature_table="Stream", by=organiser)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    played = rnd.matches.get(table=1)
    services.slip_enter(match=played, result=Result.win(regs[0]), by=organiser)
    with pytest.raises(RoundStateError, match="is complete"):
        match_feature(match=played, feature_table="Stream", by=organiser)


# --- pages ------------------------------------------------------------------------------


def test_the_round_page_features_a_match_and_the_public_pages_show_it(client, published, organiser):
    ev, rnd, _ = published
    client.force_login(organiser)
    page = client.get(reverse("staff:round", args=[ev.slug, rnd.pk])).content.decode()
    assert 'id="feature-form"' in page
    url = reverse("staff:match_feature", args=[ev.slug, rnd.pk])
    answer = client.post(url, {"match": table(rnd, 3).pk, "feature_table": "Stream"}, follow=True)
    assert "Table 3 is featured as “Stream”." in answer.content.decode()
    client.logout()
    pairings = client.get(reverse("public:pairings", args=[ev.slug])).content.decode()
    assert pairings.count('data-mark="featured"') == 1 and "Featured: Stream" in pairings
    event_page = client.get(reverse("public:event", args=[ev.slug])).content.decode()
    assert 'id="featured-matches"' in event_page and "<strong>Stream</strong>" in event_page
    spanish = client.get(
        reverse("public:event", args=[ev.slug]), headers={"accept-language": "es"}
    ).content.decode()
    assert "Partidas destacadas" in spanish


def test_staff_are_told_clearly_when_a_player_opted_out(client, published, organiser):
    ev, rnd, regs = published
    registration_feature_opt_out(registration=regs[5], opt_out=True, by=regs[5])
    client.force_login(organiser)
    url = reverse("staff:match_feature", args=[ev.slug, rnd.pk])
    answer = client.post(url, {"match": table(rnd, 3).pk, "feature_table": "Stream"}, follow=True)
    assert "Player 006 asked not to be featured: choose another match." in answer.content.decode()
    assert table(rnd, 3).feature_table == ""


def test_a_player_opts_out_on_their_private_page(client, published, organiser):
    ev, rnd, regs = published
    match_feature(match=table(rnd, 1), feature_table="Stream", by=organiser)
    home = reverse("public:player", args=[ev.slug, regs[1].report_token])
    page = client.get(home).content.decode()
    assert "Your match is featured: Stream." in page and "Never feature my matches" in page
    url = reverse("public:player_feature", args=[ev.slug, regs[1].report_token])
    answer = client.post(url, {"opt_out": "1"}, follow=True)
    body = answer.content.decode()
    assert "Your matches will not be featured." in body and 'id="feature-opted-out"' in body
    regs[1].refresh_from_db()
    assert regs[1].feature_opt_out and table(rnd, 1).feature_table == ""
    assert (
        client.post(url.replace(regs[1].report_token, "nope"), {"opt_out": "1"}).status_code == 404
    )


def test_only_organisers_and_scorekeepers_feature_matches(client, published, organiser):
    ev, rnd, _ = published
    url = reverse("staff:match_feature", args=[ev.slug, rnd.pk])
    data = {"match": table(rnd, 1).pk, "feature_table": "Stream"}
    assert client.post(url, data).status_code == 302  # to the login page
    client.force_login(factories.staff(ev, "judge"))
    assert client.post(url, data).status_code == 403
    client.force_login(factories.staff(ev, "scorekeeper"))
    client.post(url, data)
    assert table(rnd, 1).feature_table == "Stream"
    unfeature = reverse("staff:match_unfeature", args=[ev.slug, table(rnd, 1).pk])
    client.post(unfeature)
    assert table(rnd, 1).feature_table == ""


# --- the mark on every list of the tables ---------------------------------------------------

FEATURED = {"en": "Featured: Stream", "es": "Destacada: Stream"}


def test_a_featured_match_is_marked_by_name_printed_on_its_slip_on_the_projector_and_in_the_csv(
    client, published, organiser
):
    ev, rnd, _ = published
    match_feature(match=table(rnd, 3), feature_table="Stream", by=organiser)  # 005 v 006
    by_name = reverse("public:pairings", args=[ev.slug]) + "?by=name"
    for language, mark in FEATURED.items():
        lines = name_lines(client.get(by_name, headers={"accept-language": language}).text)
        marked = [p for p, line in lines.items() if 'data-mark="featured"' in line]
        assert marked == ["Player 005", "Player 006"] and mark in lines["Player 005"]
    client.force_login(organiser)
    for language, mark in FEATURED.items():
        headers = {"accept-language": language}
        wall = client.get(reverse("staff:print_pairings", args=[ev.slug, rnd.pk]), headers=headers)
        lines = name_lines(wall.text)
        marked = [p for p, line in lines.items() if 'data-mark="featured"' in line]
        assert marked == ["Player 005", "Player 006"] and mark in lines["Player 006"]
        slips = client.get(reverse("staff:print_slips", args=[ev.slug, rnd.pk]), headers=headers)
        heads = dict(re.findall(r'data-table="(\d+)".*?<header>(.*?)</header>', slips.text, re.S))
        assert [t for t, head in sorted(heads.items()) if mark in head] == ["3"]
    header, *rows = pairings_rows(ev)
    assert header[-1] == "feature table"
    assert {r[2]: r[-1] for r in rows} == {"1": "", "2": "", "3": "Stream", "4": ""}
    services.round_start(round=rnd, by=organiser)
    client.logout()
    for language, mark in FEATURED.items():
        html = client.get(
            reverse("public:timer", args=[ev.slug]), headers={"accept-language": language}
        ).text
        listed = html[html.index('class="marked-tables"') :]
        listed = listed[: listed.index("</ul>")]
        assert re.findall(r'data-table="(\d+)"', listed) == ["3"] and mark in listed
