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


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"feature_table": ""}, "Give the name of the feature table, for example “Stream”."),
        ({"feature_table": "   "}, "Give the name of the feature table, for example “Stream”."),
        ({}, "Give the name of the feature table, for example “Stream”."),
        ({"match": "", "feature_table": "Stream"}, "Choose the table to feature."),
    ],
)
def test_a_feature_posted_without_its_name_or_table_is_refused_clearly_and_changes_nothing(
    client, published, organiser, data, message
):
    """The page's ``required`` is the browser's only: a post without it (no JavaScript,
    an old browser) is told what is missing, and neither match nor audit trail changes."""
    ev, rnd, _ = published
    match_feature(match=table(rnd, 1), feature_table="Stream", by=organiser)
    client.force_login(organiser)
    url = reverse("staff:match_feature", args=[ev.slug, rnd.pk])
    for match in (table(rnd, 1), table(rnd, 3)):  # renaming a featured one, featuring another
        answer = client.post(url, {"match": match.pk, **data}, follow=True)
        assert answer.redirect_chain == [(reverse("staff:round", args=[ev.slug, rnd.pk]), 302)]
        shown = [str(m) for m in answer.context["messages"]]
        assert shown == [message]
    assert [(m.table, m.feature_table) for m in rnd.matches.order_by("table")] == [
        (1, "Stream"),
        (2, ""),
        (3, ""),
        (4, ""),
    ]
    assert AuditEvent.objects.filter(event=ev, action="match.feature").count() == 1


def test_the_refusal_of_a_feature_without_its_name_is_in_spanish(client, published, organiser):
    ev, rnd, _ = published
    client.force_login(organiser)
    url = reverse("staff:match_feature", args=[ev.slug, rnd.pk])
    answer = client.post(
        url, {"match": table(rnd, 2).pk}, follow=True, headers={"accept-language": "es"}
    )
    assert [str(m) for m in answer.context["messages"]] == [
        "Indica el nombre de la mesa destacada, por ejemplo “Retransmisión”."
    ]
    assert table(rnd, 2).feature_table == ""


MY_FEATURE = {
    "en": ("Your match is featured: Stream.", "Ask not to be featured"),
    "es": ("Tu partida está destacada: Stream.", "Pedir que no me destaquen"),
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_featured_player_is_told_at_their_table_with_the_way_to_opt_out(
    client, published, organiser, language
):
    """The player's own table at the top of their page (as their page shows it, fetches
    it and their stream pushes it: ``my_table_html``) says the match is featured and
    leads to the opt-out (``#feature-choice``, which the page has); their opponent's
    too, and nobody else's."""
    ev, rnd, regs = published
    match_feature(match=table(rnd, 2), feature_table="Stream", by=organiser)  # 003 v 004
    said, link = MY_FEATURE[language]
    headers = {"accept-language": language}
    for reg in regs:
        page = client.get(
            reverse("public:player", args=[ev.slug, reg.report_token]), headers=headers
        ).content.decode()
        box = page[
            page.index('id="my-table"') : page.index("</section>", page.index('id="my-table"'))
        ]
        fetched = client.get(
            reverse("public:player_table", args=[ev.slug, reg.report_token]), headers=headers
        ).content.decode()
        if reg in regs[2:4]:
            mark = (
                f'<span class="my-feature" data-feature-table="Stream"><strong>{said}</strong>'
                f' <a href="#feature-choice">{link}</a></span>'
            )
            assert mark in box and mark in fetched, reg
            assert 'id="feature-choice"' in page  # where the link leads: the opt-out
        else:
            assert "my-feature" not in box and "my-feature" not in fetched, reg
