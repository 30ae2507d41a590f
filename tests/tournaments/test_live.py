"""Live pages: what changed is kept in the database per event and topic, every
process learns of it, and an open stream tells its page."""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import json
import queue
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tournaments import live, services
from tournaments.live import hub as hub_module
from tournaments.live.hub import Hub, Listener, read_changed
from tournaments.live.stream import Stream, events_async, events_sync
from tournaments.live.topics import Change, channel, parse
from tournaments.models import LiveVersion, SelfReportMode
from tournaments.services import Result

pytestmark = pytest.mark.django_db


def run_async(coroutine):
    """Run ``coroutine`` to its end on a loop of its own, in a thread of its own: the
    browser tests' Playwright leaves an event loop running in this worker's thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def versions(event_id: int) -> dict[str, int]:
    return dict(LiveVersion.objects.filter(event_id=event_id).values_list("topic", "version"))


def test_a_change_is_counted_after_commit_and_never_on_rollback(
    event8, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        live.changed(event8.pk, live.PUBLIC)
    assert versions(event8.pk) == {"public": 1, "staff": 1}
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                live.changed(event8.pk, live.CLOCK)
                raise RuntimeError("the change fails")
        except RuntimeError:
            pass
    assert versions(event8.pk) == {"public": 1, "staff": 1}  # nothing for the rolled back
    with django_capture_on_commit_callbacks(execute=True):
        live.changed(event8.pk, live.PUBLIC)
    assert versions(event8.pk)["public"] == 2


def test_a_slip_tells_the_staff_the_projector_and_both_players_but_not_the_public(
    organiser, django_capture_on_commit_callbacks
):
    ev = factories.event_with_players(4, by=organiser)
    rnd = factories.round_in_order(ev, by=organiser)
    m = rnd.matches.get(table=1)
    a, b = (s.registration_id for s in m.seats.order_by("pk"))
    before = versions(ev.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    after = versions(ev.pk)
    grown = {t for t in after if after[t] > before.get(t, 0)}
    assert grown == {"staff", "results", f"reg:{a}", f"reg:{b}"}


def test_publishing_tells_the_public_after_the_pages_are_built(
    organiser, django_capture_on_commit_callbacks
):
    ev = factories.event_with_players(4, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        factories.round_in_order(ev, by=organiser, status="paired")
    assert "public" not in versions(ev.pk)  # paired, not public yet
    rnd = ev.rounds.get()
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=rnd, by=organiser)
    assert versions(ev.pk)["public"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.round_start(round=rnd, by=organiser)
    assert versions(ev.pk)["public"] == 2  # players may report now: their pages refresh
    assert versions(ev.pk)["clock"] == 1


def test_a_finished_event_is_announced_with_its_last_public_change(
    organiser, django_capture_on_commit_callbacks
):
    ev = factories.event_with_players(2, by=organiser, swiss_rounds=1, top_cut_size=0)
    rnd = factories.round_in_order(ev, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        services.slip_enter(
            match=rnd.matches.get(),
            result=Result.win(rnd.matches.get().seats.first().registration),
            by=organiser,
        )
    ev.refresh_from_db()
    assert ev.status == "finished"
    assert versions(ev.pk)["finished"] >= 1


def test_settings_a_players_page_shows_reach_it_once_the_pages_are_built(
    client, organiser, django_capture_on_commit_callbacks
):
    """Switching deck lists on, setting their deadline or turning players' reports off
    changes every player's page: each tells the public topic (after the public pages'
    rebuild), which the players' live part follows (``sse:public``); a save that
    changes nothing, or a setting no player's page shows, tells no one."""
    ev = factories.event_with_players(4, by=organiser)
    factories.round_in_order(ev, by=organiser)  # started: the players may report
    reg = ev.registrations.order_by("pk").first()
    url = reverse("public:player", args=[ev.slug, reg.report_token]) + "?part=live"

    def live_part() -> str:
        return client.get(url, headers={"HX-Request": "true"}).content.decode()

    def told(change) -> int:
        before = versions(ev.pk).get("public", 0)
        with django_capture_on_commit_callbacks(execute=True):
            change()
        return versions(ev.pk).get("public", 0) - before

    assert 'id="player-decklist"' not in live_part()
    assert told(lambda: services.decklist_settings_update(
        event=ev, by=organiser, required=True, public=False
    )) == 1  # fmt: skip
    assert 'id="player-decklist"' in live_part()
    assert told(lambda: services.decklist_settings_update(
        event=ev, by=organiser, required=True, public=False
    )) == 0  # fmt: skip
    deadline = timezone.now() + dt.timedelta(hours=2)
    assert told(lambda: services.decklist_deadline_set(
        event=ev, by=organiser, deadline=deadline
    )) == 1  # fmt: skip
    shown = timezone.localtime(deadline).strftime("%H:%M")
    assert f"You can change it until {timezone.localtime(deadline):%a} {shown}." in live_part()
    assert 'value="me"' in live_part()  # "I won"
    assert told(lambda: services.event_settings_update(
        event=ev, by=organiser, self_report=SelfReportMode.OFF
    )) == 1  # fmt: skip
    assert 'value="me"' not in live_part()
    assert told(lambda: services.event_settings_update(
        event=ev, by=organiser, sanction_id="25-01-000123"
    )) == 0  # fmt: skip


def test_current_versions_read_zero_for_a_topic_never_changed(event8):
    assert live.current(event8.pk, ["public", "reg:1"]) == {"public": 0, "reg:1": 0}


# --- the stream -------------------------------------------------------------------------


def test_the_stream_opens_with_hello_and_what_the_page_missed():
    stream = Stream(7, frozenset({"public", "reg:5", "finished"}), {"public": 3, "reg:5": 2})
    opening = stream.opening({"public": 5, "reg:5": 2, "finished": 0}).decode()
    head, *messages = [m for m in opening.split("\n\n") if m]
    assert head.startswith("retry: 2000\nevent: hello\ndata: ")
    assert json.loads(head.split("data: ", 1)[1])["versions"] == {
        "finished": 0,
        "me": 2,
        "public": 5,
    }
    assert messages == ["event: public\ndata: 5 0.0"]  # reg:5 is at the page's version
    assert not stream.done


def test_finished_is_sent_last_and_ends_the_stream():
    stream = Stream(7, frozenset({"public", "finished"}), {"public": 1})
    out = stream.changes([Change(7, "finished", 1), Change(7, "public", 2)]).decode()
    assert out.index("event: public") < out.index("event: finished")
    assert stream.done


def test_a_finished_event_closes_the_stream_at_once():
    stream = Stream(7, frozenset({"public", "finished"}), {}, finished=True)
    assert b"event: finished" in stream.opening({"public": 4, "finished": 1})
    assert stream.done


def test_the_sync_stream_hands_on_a_change_and_ignores_other_events_and_topics():
    stream = Stream(91001, frozenset({"public", "finished"}), {"public": 1})
    body = events_sync(stream, {"public": 1, "finished": 0})
    first = next(body)
    assert b"event: hello" in first and b"event: public" not in first
    got: queue.SimpleQueue = queue.SimpleQueue()
    reader = threading.Thread(target=lambda: got.put(next(body)), daemon=True)
    reader.start()
    time.sleep(0.2)
    hub = hub_module.hub()
    hub.publish([Change(91002, "public", 9)])  # another event
    hub.publish([Change(91001, "staff", 9)])  # a topic this page does not follow
    hub.publish([Change(91001, "public", 2)])
    assert got.get(timeout=5) == b"event: public\ndata: 2 0.0\n\n"  # version, spread (s)
    body.close()
    assert all(x.event_id != 91001 for g in hub._listeners.values() for x in g)


def test_the_async_stream_hands_on_a_change_on_the_event_loop():
    async def scenario() -> list[bytes]:
        stream = Stream(91003, frozenset({"public", "finished"}), {"public": 0})
        body = events_async(stream, {"public": 0, "finished": 0})
        chunks = [await body.__anext__()]
        waiting = asyncio.ensure_future(body.__anext__())
        await asyncio.sleep(0.1)
        # from another thread, as the hub's readers do
        threading.Thread(
            target=hub_module.hub().publish, args=([Change(91003, "finished", 1)],)
        ).start()
        chunks.append(await asyncio.wait_for(waiting, 5))
        with pytest.raises(StopAsyncIteration):
            await body.__anext__()
        return chunks

    chunks = run_async(scenario())
    assert b"event: hello" in chunks[0]
    assert chunks[1].startswith(b"event: finished\ndata: 1")


def test_pub_sub_messages_parse_and_skip_garbage():
    assert parse(b"5 public 3\nnonsense\n6 reg:9 2") == [
        Change(5, "public", 3),
        Change(6, "reg:9", 2),
    ]
    assert channel().startswith("matchslip:live:")


# --- the views ----------------------------------------------------------------------------


def test_once_answers_the_versions_as_json(client, event8, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        live.changed(event8.pk, live.PUBLIC)
    answer = client.get(reverse("public:live", args=[event8.slug]) + "?once=1").json()
    assert answer == {"versions": {"finished": 0, "public": 1}, "finished": False}
    again = client.get(
        reverse("public:live", args=[event8.slug]) + "?once=1",
        HTTP_IF_NONE_MATCH=client.get(reverse("public:live", args=[event8.slug]) + "?once=1")[
            "ETag"
        ],
    )
    assert again.status_code == 304  # conditional polling: nothing changed, nothing sent
    projector = client.get(reverse("public:live", args=[event8.slug]) + "?once=1&clock=0")
    assert projector.json()["versions"] == {"clock": 0, "finished": 0, "public": 1}


def test_the_public_stream_is_an_unbuffered_event_stream(client, event8):
    response = client.get(reverse("public:live", args=[event8.slug]), HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert "Content-Encoding" not in response  # not gzipped: messages go out one by one
    assert response["X-Accel-Buffering"] == "no"
    first = next(iter(response.streaming_content))
    assert first.startswith(b"retry: 2000\nevent: hello")
    response.close()


def test_a_player_stream_needs_their_token_and_follows_their_topic(client, event8):
    reg = event8.registrations.first()
    assert client.get(reverse("public:player_live", args=[event8.slug, "nope"])).status_code == 404
    url = reverse("public:player_live", args=[event8.slug, reg.report_token]) + "?once=1"
    assert client.get(url).json()["versions"] == {"finished": 0, "me": 0, "public": 0}


def test_the_staff_stream_is_for_the_event_staff(client, event8, organiser):
    url = reverse("staff:live", args=[event8.slug]) + "?once=1"
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(factories.user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(url).json()["versions"] == {"clock": 0, "staff": 0}


def test_pages_carry_their_stream_with_the_versions_they_show(client, event8, organiser):
    reg = event8.registrations.first()
    page = client.get(reverse("public:pairings", args=[event8.slug])).content.decode()
    assert 'hx-ext="sse"' in page and f'sse-connect="/e/{event8.slug}/live/?public=0' in page
    mine = client.get(reverse("public:player", args=[event8.slug, reg.report_token])).content
    assert f"/e/{event8.slug}/p/{reg.report_token}/live/?public=0&amp;me=0".encode() in mine
    assert b'hx-trigger="sse:me, sse:public"' in mine
    client.force_login(organiser)
    dashboard = client.get(reverse("staff:dashboard", args=[event8.slug])).content.decode()
    assert f'sse-connect="/e/{event8.slug}/staff/live/?staff=' in dashboard
    assert 'hx-trigger="sse:staff"' in dashboard and "data-live-page" in dashboard


@pytest.mark.parametrize(
    ("language", "held", "show"),
    [
        ("en", "New updates: they appear when you finish typing.", "Show now"),
        ("es", "Hay novedades: aparecerán cuando termines de escribir.", "Mostrar ahora"),
    ],
)
def test_live_pages_carry_what_live_js_says_while_updates_wait_in_their_language(
    client, event8, organiser, language, held, show
):
    """``data-live-texts`` on the live root: the note of a refresh held while someone
    types, its button, and the warning of a form an update took away."""
    reg = event8.registrations.first()
    client.force_login(organiser)
    headers = {"accept-language": language}
    for url in (
        reverse("staff:floor", args=[event8.slug]),
        reverse("public:player", args=[event8.slug, reg.report_token]),
    ):
        page = client.get(url, headers=headers).content.decode()
        found = re.search(r'<main [^\n]*? data-live-texts="([^"]*)"', page)
        assert found is not None and page.count("data-live-texts=") == 1, url
        texts = json.loads(html.unescape(found[1]))
        assert (texts["held"], texts["show"]) == (held, show)
        assert set(texts) == {"held", "show", "lost", "dismiss"}


def test_no_page_carries_an_htmx_filter_the_csp_forbids(client, event8):
    """htmx runs with allowEval off: hx-trigger [filters] only logged errors."""
    reg = event8.registrations.first()
    for url in (
        reverse("public:event", args=[event8.slug]),
        reverse("public:pairings", args=[event8.slug]),
        reverse("public:standings", args=[event8.slug]),
        reverse("public:timer", args=[event8.slug]),
        reverse("public:player", args=[event8.slug, reg.report_token]),
    ):
        assert b"visibilityState" not in client.get(url).content


# --- every process: the table read and Redis --------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_change_from_another_process_reaches_a_listener_by_the_table_read(organiser):
    """A management command or a worker bumps the table; this process's hub reads it
    within its poll interval, without Redis and without being told."""
    ev = factories.event(by=organiser)
    hub = Hub(poll_seconds=0.2)
    got: queue.SimpleQueue = queue.SimpleQueue()
    listener = Listener(ev.pk, frozenset({"public"}), got.put)
    try:
        hub.subscribe(listener)
        with connection.cursor() as cursor:  # as another process would: straight to the table
            cursor.execute(
                "INSERT INTO tournaments_liveversion (event_id, topic, version, changed_at) "
                "VALUES (%s, 'public', 7, NOW())",
                [ev.pk],
            )
        assert got.get(timeout=5) == [Change(ev.pk, "public", 7)]
    finally:
        hub.stop()


@pytest.mark.django_db(transaction=True)
def test_a_change_from_another_process_arrives_through_redis_pub_sub(organiser, settings):
    ev = factories.event(by=organiser)
    hub = Hub(poll_seconds=3600)  # no table read in this test: only pub/sub
    got: queue.SimpleQueue = queue.SimpleQueue()
    try:
        hub.subscribe(Listener(ev.pk, frozenset({"public"}), got.put))
        deadline = time.monotonic() + 5
        while got.empty() and time.monotonic() < deadline:
            hub_module.publish_redis([Change(ev.pk, "public", 3)])
            time.sleep(0.2)
        assert got.get(timeout=1) == [Change(ev.pk, "public", 3)]
    finally:
        hub.stop()


@pytest.mark.django_db(transaction=True)
def test_read_changed_reads_only_rows_changed_since(organiser):
    from datetime import timedelta

    from django.utils import timezone

    ev = factories.event(by=organiser)
    live.bump(ev.pk, ["public"])
    assert Change(ev.pk, "public", 1) in read_changed(timezone.now() - timedelta(seconds=5))
    assert read_changed(timezone.now() + timedelta(seconds=5)) == []


# --- the ASGI fast path -------------------------------------------------------------------


def _asgi(app, path: str, query: str = "", headers=(), disconnect_after: float | None = None):
    """Run one request through the ASGI ``app``; returns (status, headers, body chunks)."""
    from tournaments.live.asgi import live_router  # noqa: F401  (the app under test)

    async def run():
        sent = []
        gone = asyncio.Event()

        async def receive():
            if disconnect_after is None:
                await asyncio.Event().wait()
            await asyncio.sleep(disconnect_after)
            gone.set()
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        scope = {
            "type": "http",
            "method": "GET",
            "path": path,
            "query_string": query.encode(),
            "headers": list(headers),
        }
        await asyncio.wait_for(app(scope, receive, send), 10)
        return sent

    sent = run_async(run())
    start = sent[0]
    return start["status"], dict(start["headers"]), [m.get("body", b"") for m in sent[1:]]


@pytest.mark.django_db(transaction=True)
def test_the_asgi_router_answers_public_and_player_streams_before_django(organiser):
    from tournaments.live.asgi import live_router

    calls = []

    async def django(scope, receive, send):
        calls.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"django"})

    app = live_router(django)
    ev = factories.event_with_players(2, by=organiser)
    reg = ev.registrations.first()
    assert _asgi(app, f"/e/{ev.slug}/staff/live/")[2] == [b"django"]  # needs the session
    assert _asgi(app, f"/e/{ev.slug}/pairings/")[2] == [b"django"]
    assert calls == [f"/e/{ev.slug}/staff/live/", f"/e/{ev.slug}/pairings/"]
    assert _asgi(app, "/e/nope/live/")[0] == 404
    assert _asgi(app, f"/e/{ev.slug}/p/nope/live/")[0] == 404

    status, headers, body = _asgi(app, f"/e/{ev.slug}/p/{reg.report_token}/live/", "once=1")
    assert status == 200 and json.loads(body[0])["versions"] == {
        "finished": 0,
        "me": 0,
        "public": 0,
    }
    public_etag = _asgi(app, f"/e/{ev.slug}/live/", "once=1")[1][b"etag"]
    assert _asgi(app, f"/e/{ev.slug}/live/", "once=1", [(b"if-none-match", public_etag)])[0] == 304

    hub = hub_module.hub()
    status, headers, body = _asgi(app, f"/e/{ev.slug}/live/", "public=0", disconnect_after=0.3)
    assert status == 200 and headers[b"content-type"] == b"text/event-stream"
    assert headers[b"x-accel-buffering"] == b"no"
    assert body[0].startswith(b"retry: 2000\nevent: hello")
    assert all(x.event_id != ev.pk for g in hub._listeners.values() for x in g)  # left at once


# --- a player's table pushed in their stream ------------------------------------------------


def test_a_players_table_comes_before_the_public_notice_or_is_asked_for():
    from tournaments.live.seats import SeatChange

    stream = Stream(7, frozenset({"public", "reg:3"}), {"public": 4}, seat=("cup", "en", "t"))
    html = '<section id="my-table">Table <strong>5</strong></section>'
    out = stream.changes([SeatChange(7, "seat", 5, html), Change(7, "public", 5)]).decode()
    assert out.startswith(f"event: seat\ndata: {html}\n\nevent: public\ndata: 5 ")
    again = Stream(7, frozenset({"public"}), {"public": 4}, seat=("cup", "en", "t"))
    out = again.changes([SeatChange(7, "seat", 5, ""), Change(7, "public", 5)]).decode()
    assert out.startswith("event: seatfetch\ndata: 5\n\nevent: public")
    assert stream.changes([SeatChange(7, "seat", 5, html)]) == b""  # not newer: nothing


def test_the_hub_pushes_each_player_page_its_table_in_its_language(organiser):
    from tournaments.public_pages import public_pages_refresh

    ev = factories.event_with_players(4, by=organiser)
    factories.round_in_order(ev, by=organiser)
    public_pages_refresh(ev.pk)
    regs = list(ev.registrations.order_by("pk"))
    hub = Hub(poll_seconds=3600)
    got = {}
    try:
        for reg, language in ((regs[0], "en"), (regs[3], "es")):
            listener = Listener(
                ev.pk,
                frozenset({"public", f"reg:{reg.pk}"}),
                lambda cs, k=language: got.setdefault(k, cs),
                seat=(ev.slug, language, reg.report_token),
            )
            hub.subscribe(listener)
        hub.subscribe(Listener(ev.pk, frozenset({"public"}), lambda cs: got.setdefault("page", cs)))
        hub.publish([Change(ev.pk, "public", 9)])
    finally:
        hub.stop()
    english, spanish = got["en"][0].html, got["es"][0].html
    assert "Table <strong>1</strong>" in english and "Player 002" in english
    assert "Mesa <strong>2</strong>" in spanish and "Player 003" in spanish
    assert "\n" not in english and 'sse-swap="seat"' in english
    assert got["en"][1] == Change(ev.pk, "public", 9)
    assert got["page"] == [Change(ev.pk, "public", 9)]  # a public page gets no table
