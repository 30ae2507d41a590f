"""Public pages as prebuilt responses: the pairings (by table, by
name) and standings pages are built once per change as stored bytes with an ETag and
served without a query; "Find my table" and a player's own table answer in a few hundred
bytes; with Redis down every page still renders from PostgreSQL. Every language is
prebuilt: a Spanish visitor gets the Spanish copy the same way."""

from __future__ import annotations

import gzip

import pytest
from celery import current_app
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests import factories
from tests.tournaments.test_faults import cache_on, redis_server  # noqa: F401 - fixtures
from tournaments import public_pages, services
from tournaments.models import Round, RoundStatus
from tournaments.public_pages import public_pages_forget
from tournaments.selectors import (
    current_public_rounds,
    seats_for_public,
    views_in_language,
)
from tournaments.services import Result

HX = {"HX-Request": "true"}
RESTORE = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
PAGES = [("public:pairings", {}), ("public:pairings", {"by": "name"}), ("public:standings", {})]


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a block's on-commit work (page builds, the standings task) as a commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _round(event, by, commit, *, number=1, status=RoundStatus.PUBLISHED) -> Round:
    with commit():
        return factories.round_in_order(event, by=by, number=number, status=status)


def _play(rnd: Round, by, commit, *, start: bool = True) -> None:
    """The first seat of every table wins: the round completes, standings are computed."""
    with commit():
        if start:
            services.round_start(round=rnd, by=by)
        for m in rnd.matches.prefetch_related("seats__registration"):
            first = min(m.seats.all(), key=lambda s: s.seat)
            services.slip_enter(match=m, result=Result.win(first.registration), by=by)


@pytest.fixture
def round2(event8, organiser, commit):
    """Round 1 played (standings computed), round 2 published: every page is prebuilt."""
    _play(_round(event8, organiser, commit), organiser, commit)
    return _round(event8, organiser, commit, number=2)


def _url(event, name="public:pairings", params=None) -> str:
    url = reverse(name, args=[event.slug])
    return url + ("?by=name" if params else "")


@pytest.mark.parametrize(("name", "params"), PAGES)
def test_a_prebuilt_page_takes_no_query(
    client, event8, round2, name, params, django_assert_num_queries
):
    url = _url(event8, name, params)
    with django_assert_num_queries(0):
        page = client.get(url)
        fragment = client.get(url, headers=HX)
        restored = client.get(url, headers=RESTORE)
    assert page.status_code == fragment.status_code == restored.status_code == 200
    body = page.content.decode()
    assert "<html" in body and "Player 001" in body and "Updated <time" in body
    assert restored.content == page.content  # a history restore gets the whole page
    assert fragment.content.decode().lstrip().startswith('<section id="live"')
    assert "<html" not in fragment.content.decode()
    assert page["Cache-Control"] == "public, max-age=5"
    for header in ("Accept-Encoding", "HX-Request", "HX-History-Restore-Request"):
        assert header in page["Vary"]
    assert page["ETag"] != fragment["ETag"]


def test_the_prebuilt_page_is_what_the_view_renders(client, event8, round2, organiser):
    prebuilt = client.get(_url(event8)).content.decode()
    client.force_login(organiser)  # a signed-in user's page is rendered, with their name
    rendered = client.get(_url(event8)).content.decode()
    assert "organiser" in rendered and "organiser" not in prebuilt
    strip = [line for line in prebuilt.splitlines() if "Updated" not in line]
    assert "Round 2" in prebuilt and "1-0-0" in prebuilt
    assert all(line in rendered for line in strip if "login" not in line.lower())


def test_if_none_match_answers_304_without_a_query(
    client, event8, round2, django_assert_num_queries
):
    first = client.get(_url(event8))
    with django_assert_num_queries(0):
        again = client.get(_url(event8), headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    other = client.get(_url(event8), headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200


def test_gzip_is_served_to_who_accepts_it_and_decompresses_to_the_plain_body(
    client, event8, round2
):
    plain = client.get(_url(event8))
    zipped = client.get(_url(event8), headers={"Accept-Encoding": "gzip, br"})
    assert zipped["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert gzip.decompress(zipped.content) == plain.content
    assert zipped["ETag"] != plain["ETag"]
    # Either representation's ETag revalidates.
    again = client.get(_url(event8), headers={"If-None-Match": plain["ETag"]})
    assert again.status_code == 304


def test_a_publish_changes_the_etag_and_the_content(client, event8, organiser, commit):
    rnd = _round(event8, organiser, commit)
    before = client.get(_url(event8))
    _play(rnd, organiser, commit)
    _round(event8, organiser, commit, number=2)
    after = client.get(_url(event8))
    assert before["ETag"] != after["ETag"]
    assert "Round 1" in before.content.decode() and "Round 2" in after.content.decode()


def test_the_result_that_completes_a_round_changes_the_standings_etag(
    client, event8, organiser, commit
):
    rnd = _round(event8, organiser, commit)
    url = _url(event8, "public:standings")
    before = client.get(url)
    assert "Standings appear here" in before.content.decode()
    _play(rnd, organiser, commit)
    after = client.get(url)
    assert after["ETag"] != before["ETag"]
    assert "Standings appear here" not in after.content.decode()
    assert client.get(url, headers={"If-None-Match": before["ETag"]}).status_code == 200


def test_a_correction_changes_the_pairings_etag_and_the_records(
    client, event8, organiser, round2, commit
):
    url = _url(event8)
    before = client.get(url)
    table1 = event8.rounds.get(number=1).matches.get(table=1)
    loser = next(s.registration for s in table1.seats.all() if s.seat == 2)
    with commit():
        services.result_correct(
            match=table1, by=organiser, reason="slip misread", result=Result.win(loser)
        )
    after = client.get(url)
    assert after["ETag"] != before["ETag"]
    line = "<bdi>Player 001</bdi> <small>{}</small>"
    assert line.format("1-0-0") in before.content.decode()
    assert line.format("0-1-0") in after.content.decode()


def test_find_my_table_answers_a_small_snippet_without_a_query(
    client, event8, round2, django_assert_num_queries
):
    url = reverse("public:pairings_find", args=[event8.slug])
    with django_assert_num_queries(0):
        response = client.get(url, {"q": "player 003"})
    body = response.content.decode()
    assert response.status_code == 200 and len(response.content) < 1000
    assert "Player 003" in body and "Table <strong>2</strong>" in body and "vs Player 004" in body
    assert "Player 001" not in body and "<html" not in body
    assert (
        client.get(
            url, {"q": "player 003"}, headers={"If-None-Match": response["ETag"]}
        ).status_code
        == 304
    )
    # The page's own search reads the same list: no search query against PostgreSQL.
    page = client.get(_url(event8), {"q": "player 003"}).content.decode()
    assert "Table <strong>2</strong>" in page and "vs Player 004" in page


def test_a_player_polls_their_own_table_in_a_few_hundred_bytes(
    client, event8, round2, django_assert_num_queries
):
    reg = event8.registrations.get(player__name="Player 005")
    url = reverse("public:player_table", args=[event8.slug, reg.report_token])
    with django_assert_num_queries(0):
        response = client.get(url)
    body = response.content.decode()
    assert response.status_code == 200 and len(response.content) < 500
    assert "Table <strong>3</strong>" in body and "vs Player 006" in body and "Round 2" in body
    assert response["Cache-Control"].startswith("private")
    with django_assert_num_queries(0):
        again = client.get(url, headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304
    unknown = reverse("public:player_table", args=[event8.slug, "not-a-token"])
    assert client.get(unknown).status_code == 404


def test_a_page_missing_from_the_cache_renders_and_is_built_for_the_next_request(
    client, event8, round2, django_assert_num_queries, django_assert_max_num_queries
):
    public_pages_forget(event8.slug)
    # The render, then the build: the tables read once, and each page view's own few
    # queries (event, current rounds, snapshot) in each of the two languages.
    with django_assert_max_num_queries(60):
        rendered = client.get(_url(event8))
    with django_assert_num_queries(0):
        prebuilt = client.get(_url(event8))
    assert rendered.status_code == prebuilt.status_code == 200
    assert "Player 001" in prebuilt.content.decode()


def test_with_redis_down_every_public_answer_renders_from_postgresql(
    client,
    event8,
    organiser,
    cache_on,  # noqa: F811 - the fixture imported above
    commit,
):
    _play(_round(event8, organiser, commit), organiser, commit)
    rnd2 = _round(event8, organiser, commit, number=2)
    assert client.get(_url(event8))["ETag"]  # prebuilt while Redis is up
    cache_on.stop()
    reg = rnd2.matches.get(table=1).seats.get(seat=1).registration
    answers = [
        client.get(_url(event8, name, params), headers=headers)
        for name, params in PAGES
        for headers in ({}, HX)
    ]
    answers.append(client.get(reverse("public:pairings_find", args=[event8.slug]), {"q": "001"}))
    answers.append(client.get(reverse("public:player_table", args=[event8.slug, reg.report_token])))
    assert [a.status_code for a in answers] == [200] * len(answers)
    assert all("Player 001" in a.content.decode() for a in answers[:-1])
    assert "Table <strong>1</strong>" in answers[-1].content.decode()
    assert all("ETag" not in a for a in answers[:6])  # rendered, not prebuilt
    cache_on.start()


@pytest.fixture
def sent_builds(monkeypatch):
    """The page builds sent to the worker, as ``(event id, generation)``, not run."""
    sent: list[tuple[int, str]] = []
    task = current_app.tasks[public_pages.BUILD_TASK]
    monkeypatch.setattr(task, "delay", lambda event_id, gen: sent.append((event_id, gen)))
    return sent


def test_a_publish_sends_one_build_to_the_worker_and_serves_postgresql_meanwhile(
    client, event8, organiser, commit, sent_builds
):
    rnd = factories.round_in_order(event8, by=organiser, number=1, status=RoundStatus.PAIRED)
    with commit():
        services.round_publish(round=rnd, by=organiser)
    assert sent_builds == [(event8.pk, public_pages.generation(event8.pk))]
    assert public_pages.pointer(event8.slug) is None
    page = client.get(_url(event8))  # rendered from PostgreSQL while the build is queued
    assert page.status_code == 200 and "Round 1" in page.content.decode()
    assert "ETag" not in page
    assert public_pages.pointer(event8.slug) is None  # the request left the build to the worker
    # What the worker then runs makes the pages current.
    built = public_pages.public_pages_build(*sent_builds[0])
    assert built is not None and public_pages.pointer(event8.slug) == built
    assert client.get(_url(event8))["ETag"] == built.etag("en", "pairings-table", "page", "plain")


def test_the_slip_that_completes_a_round_leaves_the_build_to_the_standings_run(
    event8, organiser, commit, sent_builds
):
    rnd = _round(event8, organiser, commit, status=RoundStatus.STARTED)  # started: 1 build
    sent_builds.clear()
    _play(rnd, organiser, commit, start=False)  # the standings run goes at the slip's commit
    assert [event_id for event_id, _ in sent_builds] == [event8.pk]
    assert sent_builds[0][1] == public_pages.generation(event8.pk)


def test_a_build_for_a_superseded_generation_does_nothing(
    client, event8, organiser, commit, sent_builds
):
    rnd = factories.round_in_order(event8, by=organiser, number=1, status=RoundStatus.PAIRED)
    with commit():
        services.round_publish(round=rnd, by=organiser)
    with commit():
        services.round_start(round=rnd, by=organiser)  # a second change commits
    (_, first), (_, second) = sent_builds
    assert first != second
    assert public_pages.public_pages_build(event8.pk, first) is None
    assert public_pages.pointer(event8.slug) is None
    current = public_pages.public_pages_build(event8.pk, second)
    assert public_pages.pointer(event8.slug) == current
    # A late duplicate of the old message leaves the current pages alone.
    assert public_pages.public_pages_build(event8.pk, first) is None
    assert public_pages.pointer(event8.slug) == current


def test_a_lazy_build_that_read_before_a_change_does_not_become_current(
    event8, organiser, round2, commit, sent_builds
):
    """A request's build started on generation ``g``; a change commits meanwhile: the
    request's pages are thrown away and the change's build makes the pages current."""
    public_pages.public_pages_forget(event8.slug)
    read = public_pages.generation(event8.pk)
    with commit():
        public_pages.public_pages_changed(event8.pk, pairings=False)
    assert public_pages._store(event8, replace=False, gen=read) is not None
    assert public_pages.pointer(event8.slug) is None
    public_pages.public_pages_build(*sent_builds[-1])
    assert public_pages.pointer(event8.slug) is not None


def test_with_the_broker_down_a_change_still_commits_and_requests_build_the_pages(
    client, event8, organiser, commit, monkeypatch
):
    def unreachable(*args):
        raise OSError("connection refused")

    monkeypatch.setattr(current_app.tasks[public_pages.BUILD_TASK], "delay", unreachable)
    rnd = factories.round_in_order(event8, by=organiser, number=1, status=RoundStatus.PAIRED)
    with commit():
        services.round_publish(round=rnd, by=organiser)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.PUBLISHED
    assert public_pages.pointer(event8.slug) is None
    rendered = client.get(_url(event8))
    assert rendered.status_code == 200 and "ETag" not in rendered
    assert public_pages.pointer(event8.slug) is not None  # built by that request
    assert client.get(_url(event8))["ETag"]


def test_a_build_that_points_just_as_a_change_commits_withdraws_its_pages(
    event8, organiser, round2, commit, sent_builds, monkeypatch
):
    """The change commits after the build's check and before its pointer write: the
    check after the write sees it, so stale pages never stay current."""
    gen = public_pages.generation(event8.pk)
    real = public_pages._current
    checks: list[str | None] = []

    def a_change_commits_after_the_second_check(event_id, g):
        answer = real(event_id, g)
        checks.append(g)
        if len(checks) == 2:  # _store's check, just before it writes the pointer
            with commit():
                public_pages.public_pages_changed(event8.pk, pairings=False)
        return answer

    monkeypatch.setattr(public_pages, "_current", a_change_commits_after_the_second_check)
    public_pages.public_pages_build(event8.pk, gen)
    assert checks == [gen] * 4  # before reading, before pointing, after, before unlocking
    assert public_pages.pointer(event8.slug) is None
    monkeypatch.setattr(public_pages, "_current", real)
    current = public_pages.public_pages_build(*sent_builds[-1])
    assert current is not None and public_pages.pointer(event8.slug) == current


# --- every language prebuilt ------------------------------------------------


def _spanish(how: str) -> tuple[Client, dict[str, str]]:
    """A client and headers that ask for Spanish by the switcher's cookie or the browser."""
    if how == "cookie":
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
        return client, {}
    return Client(), {"Accept-Language": "es"}


@pytest.mark.parametrize("how", ["cookie", "accept-language"])
@pytest.mark.parametrize(("name", "params"), PAGES)
def test_a_spanish_visitor_gets_the_prebuilt_spanish_page_without_a_query(
    event8, round2, how, name, params, django_assert_num_queries
):
    url = _url(event8, name, params)
    english = Client().get(url)
    spanish, headers = _spanish(how)
    with django_assert_num_queries(0):
        page = spanish.get(url, headers=headers)
        fragment = spanish.get(url, headers={**headers, **HX})
        zipped = spanish.get(url, headers={**headers, "Accept-Encoding": "gzip"})
        again = spanish.get(url, headers={**headers, "If-None-Match": page["ETag"]})
    assert page.status_code == fragment.status_code == zipped.status_code == 200
    body = page.content.decode()
    assert '<html lang="es">' in body and "Player 001" in body
    assert "Actualizado <time" in body and "Updated" not in body
    assert ("Clasificación" if name == "public:standings" else "Buscar mi mesa") in body
    assert fragment.content.decode().lstrip().startswith('<section id="live"')
    assert "Actualizado" in fragment.content.decode()
    assert gzip.decompress(zipped.content) == page.content
    # Its own ETags, none of them English; its own ETag revalidates, the English one not.
    spanish_etags = {page["ETag"], fragment["ETag"], zipped["ETag"]}
    assert len(spanish_etags) == 3 and english["ETag"] not in spanish_etags
    assert again.status_code == 304 and again["ETag"] == page["ETag"]
    stale = spanish.get(url, headers={**headers, "If-None-Match": english["ETag"]})
    assert stale.status_code == 200 and stale["ETag"] == page["ETag"]
    for header in ("Accept-Language", "Cookie", "Accept-Encoding", "HX-Request"):
        assert header in page["Vary"] and header in again["Vary"]
    assert page["Cache-Control"] == "public, max-age=5"
    # English unchanged: still prebuilt, in English, and Spanish ETags do not answer it.
    assert '<html lang="en">' in english.content.decode() and "Updated <time" in (
        english.content.decode()
    )
    revalidated = Client().get(url, headers={"If-None-Match": page["ETag"]})
    assert revalidated.status_code == 200 and revalidated["ETag"] == english["ETag"]


def test_the_prebuilt_spanish_page_is_what_the_view_renders_in_spanish(event8, round2, organiser):
    prebuilt = Client().get(_url(event8), headers={"Accept-Language": "es"})
    rendered_client = Client()
    rendered_client.force_login(organiser)  # signed in: rendered per request
    rendered = rendered_client.get(_url(event8), headers={"Accept-Language": "es"})
    assert "ETag" in prebuilt and "ETag" not in rendered
    strip = [line for line in prebuilt.content.decode().splitlines() if "Actualizado" not in line]
    assert "Ronda 2" in prebuilt.content.decode()
    body = rendered.content.decode()
    assert all(line in body for line in strip if "login" not in line.lower())


def test_a_spanish_find_my_table_and_own_table_come_from_the_spanish_lists(
    event8, round2, django_assert_num_queries
):
    spanish, headers = _spanish("cookie")
    reg = event8.registrations.get(player__name="Player 005")
    find = reverse("public:pairings_find", args=[event8.slug])
    own = reverse("public:player_table", args=[event8.slug, reg.report_token])
    with django_assert_num_queries(0):
        found = spanish.get(find, {"q": "player 003"}, headers=headers)
        table = spanish.get(own, headers=headers)
    assert "Mesa <strong>2</strong>" in found.content.decode()
    assert "contra Player 004" in found.content.decode()
    body = table.content.decode()
    assert "Mesa <strong>3</strong>" in body and "contra Player 006" in body
    # Its division and round in Spanish, though the build read the tables in English.
    assert "Abierta · Ronda 2" in body and "Round" not in body and "Open" not in body
    assert "Accept-Language" in table["Vary"] and "Cookie" in table["Vary"]
    english = Client().get(own).content.decode()
    assert "Table <strong>3</strong>" in english and "Open · Round 2" in english


def test_a_spanish_miss_renders_and_builds_every_language(
    event8, round2, django_assert_num_queries
):
    public_pages_forget(event8.slug)
    spanish, headers = _spanish("accept-language")
    rendered = spanish.get(_url(event8), headers=headers)
    assert rendered.status_code == 200 and "ETag" not in rendered
    with django_assert_num_queries(0):
        es = spanish.get(_url(event8), headers=headers)
        en = Client().get(_url(event8))
    assert '<html lang="es">' in es.content.decode() and '<html lang="en">' in en.content.decode()
    assert es["ETag"] != en["ETag"]
    current = public_pages.pointer(event8.slug)
    assert current is not None
    assert current.etag("es", "standings", "live", "gzip") != current.etag(
        "en", "standings", "live", "gzip"
    )


def test_a_language_not_prebuilt_is_rendered(event8, round2, settings):
    """The pointer holds the languages it was built in: a request in another one (here
    the pages are rebuilt in English only) renders from PostgreSQL, in its language."""
    settings.LANGUAGES = [("en", "English")]
    public_pages.public_pages_refresh(event8.pk)
    settings.LANGUAGES = [("en", "English"), ("es", "Español")]
    spanish = Client().get(_url(event8), headers={"Accept-Language": "es"})
    assert spanish.status_code == 200 and "ETag" not in spanish
    assert '<html lang="es">' in spanish.content.decode()
    assert Client().get(_url(event8))["ETag"]


def test_views_read_in_one_language_are_worded_in_another(event8, round2):
    """One read of the tables serves every language: its words are the language's own."""
    rounds = current_public_rounds(event8)
    with translation.override("en"):
        views = seats_for_public(event8, rounds)
    with translation.override("es"):
        spanish = views_in_language(event8, rounds, views)
        direct = seats_for_public(event8, rounds)
    assert spanish == direct
    assert views[0].status_label == "Published" and spanish[0].status_label == "Publicada"
