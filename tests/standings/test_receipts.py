"""Tiebreaker receipts through the database: on every real event of the
test data, every player's receipt adds up to the standings JSON (1e-9, and exactly to
its ``exact`` Fractions); a two-day event and a flighted one take the same path."""

from __future__ import annotations

import re
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from pairings.services import round_pair
from rulesets import get_ruleset
from standings.engine.receipts import Combine
from standings.receipts import (
    player_receipt,
    player_receipt_cached,
    receipts_warm,
    snapshot_row,
)
from standings.services import standings_compute, standings_data
from standings.views.receipts import signed_change
from tests import factories
from tests.paths import DATA
from tests.tournaments.test_tdf_flights import flighted_masters
from tests.tournaments.test_tdf_two_day import two_day_event
from tournaments import services
from tournaments.groups import swiss_group
from tournaments.models import Event, EventListing, MatchSeat, Outcome, Registration
from tournaments.services import Result

pytestmark = pytest.mark.django_db

REAL_EVENTS = [
    ("import_tdf", DATA / "pokemon" / "2025-dg-nov-cup.tdf"),
    ("import_wer", DATA / "mtg" / "wer-modern-weekly-2018-10-29.wer"),
    *[("import_melee", path) for path in sorted((DATA / "mtg").glob("melee-*.json"))],
]


def imported(command: str, path) -> Event:
    out = StringIO()
    call_command(command, str(path), stdout=out)
    return Event.objects.get(slug=out.getvalue().strip().splitlines()[-1])


def assert_adds_up(event: Event) -> int:
    """Every placed player's receipt: each column's terms, done again, equal the
    standings JSON value within 1e-9 and its exact Fraction; returns the players seen."""
    data = standings_data(event)
    seen = 0
    for reg in Registration.objects.filter(event=event).select_related("division", "player"):
        row = snapshot_row(data, reg.external_id)
        assert row is not None, reg.external_id
        receipt = player_receipt(event, reg)
        assert receipt is not None, reg.external_id
        counted = receipt.counted.receipt
        assert [c.key for c in counted.columns] == list(row["tiebreakers"])
        for column in counted.columns:
            total = column.total()
            assert abs(float(total) - row["tiebreakers"][column.key]) <= 1e-9, (reg, column)
            assert total == Fraction(row["exact"][column.key]) == column.value
            if column.combine is Combine.MEAN:
                assert len(column.terms) == sum(column.key in x.terms for x in counted.lines)
        seen += 1
    return seen


@pytest.mark.parametrize(("command", "path"), REAL_EVENTS, ids=lambda x: getattr(x, "stem", x))
def test_every_receipt_of_a_real_event_adds_up_to_the_standings_json(command, path):
    event = imported(command, path)
    assert assert_adds_up(event) == Registration.objects.filter(event=event).count() > 10


# --- an event of each ruleset, played through the services --------------------------

GAMES = ((2, 1, 0), (0, 2, 0), (1, 2, 0))


def played(ruleset: str, by, *, players: int = 9, rounds: int = 3, **options) -> Event:
    """A ``ruleset`` event of ``players`` (a bye or a smaller pod each round), paired by
    the pairing engine, every table won by a seat in turn (best-of-3 tables 2-1, 0-2,
    1-2, and a 1-1-1 draw where the ruleset has draws), the first player dropping after
    round 1; the standings computed after the last round."""
    ev = factories.event_with_players(
        players, by=by, ruleset=ruleset, swiss_rounds=rounds, options=options or None
    )
    for n in range(1, rounds + 1):
        play_round(ev, n, by)
        if n == 1:
            first = ev.registrations.order_by("pk")[0]
            services.registration_drop(registration=first, by=by)
    standings_compute(event=ev)
    return ev


def play_round(ev: Event, n: int, by) -> None:
    """Round ``n`` of ``ev`` paired by the pairing engine (seed ``n``), published, started
    and every table decided as :func:`played` decides them."""
    rules = get_ruleset(ev.ruleset)
    games = (*GAMES, (1, 1, 1)) if rules.allows_ties else GAMES
    (rnd,) = round_pair(event=ev, group=swiss_group(ev.divisions.get()), by=by, seed=n)
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for k, m in enumerate(rnd.matches.filter(outcome=Outcome.PENDING).order_by("table")):
        seats = [s.registration for s in m.seats.order_by("seat")]
        if len(seats) > 2:
            services.slip_enter(match=m, result=Result.of(winner=seats[k % len(seats)]), by=by)
        elif rules.game_record:
            services.slip_enter(match=m, result=Result.of(games=games[k % len(games)]), by=by)
        else:
            services.slip_enter(match=m, result=Result.win(seats[k % 2]), by=by)


def _bye_player(event: Event) -> Registration:
    """A player who had a bye in a Swiss round of ``event``."""
    seat = MatchSeat.objects.filter(round__event=event, match__outcome=Outcome.BYE).first()
    assert seat is not None
    return seat.registration


def _page(client, event: Event, reg: Registration, **headers) -> str:
    response = client.get(reverse("public:receipt", args=[event.slug, reg.pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def _rules_shown(event: Event, reg: Registration) -> set[str]:
    """Every rule ID the player's receipt names (columns, lines, terms)."""
    found = player_receipt(event, reg)
    assert found is not None
    out: set[str] = set()
    for stage in found.stages:
        r = stage.receipt
        applied = [a for c in r.columns for a in c.applied]
        applied += [a for line in r.lines for a in line.applied]
        applied += [a for line in r.lines for t in line.terms.values() for a in t.applied]
        applied += [a for c in r.columns for t in c.terms for a in t.applied]
        out |= {rule for a in applied for rule in a.rules}
    return out


@pytest.mark.parametrize(
    ("ruleset", "rules", "headings"),
    [
        ("pokemon", {"P-TB-5"}, ["OWP", "OOWP"]),
        ("pokemon-2009", {"P-TB-5"}, ["OWP", "OOWP"]),
        ("mtg", {"M-TB-3"}, ["OMW %", "GW %", "OGW %"]),
        ("bo3-wins-against", {"W-TB-1", "W-TB-2"}, ["Wins against", "Game wins", "Win %"]),
        ("mtg-multiplayer", {"MP-TB-3"}, ["MWP", "OAMP", "OMWP"]),
    ],
)
def test_the_receipt_page_renders_for_each_ruleset_and_names_its_rules(
    client, organiser, ruleset, rules, headings
):
    event = played(ruleset, organiser)
    assert_adds_up(event)
    reg = _bye_player(event) if ruleset != "mtg-multiplayer" else _small_pod_player(event)
    body = _page(client, event, reg)
    shown = _rules_shown(event, reg)
    assert rules <= shown  # the bye (P-TB-5, M-TB-3, W-TB-1/2) or the virtual opponent
    for rule in shown:
        assert rule in body, rule
    for heading in headings:
        assert f">{heading}</dt>" in body
    found = player_receipt(event, reg)
    assert found is not None
    for line in found.counted.receipt.lines:
        if line.opponent:  # each opponent named, with a link to their own receipt
            assert reverse("public:receipt", args=[event.slug, int(line.opponent)]) in body
    assert 'id="resistance"' in body and "since round 2" in body
    # the page's cache miss counted the whole group: another player reads theirs kept
    other = event.registrations.exclude(pk=reg.pk).order_by("pk").last()
    assert player_receipt_cached(event, other) == player_receipt(event, other)


def _small_pod_player(event: Event) -> Registration:
    """A player seated in a pod of three (a virtual opponent, MP-TB-3)."""
    for match in event.rounds.get(number=1).matches.prefetch_related("seats__registration"):
        seats = list(match.seats.all())
        if len(seats) == 3:
            return seats[0].registration
    raise AssertionError("no pod of three")


def test_R_2_the_dropped_players_receipt_is_frozen_at_their_drop_round(client, organiser):
    event = played("pokemon", organiser)
    first = event.registrations.order_by("pk").first()
    found = player_receipt(event, first)
    assert found is not None
    counted = found.counted.receipt
    assert counted.as_of == 1 and counted.rounds == 3 and [x.round for x in counted.lines] == [1]
    assert "as of round 1, when this player dropped (R-2)" in _page(client, event, first)


def test_a_spanish_visitor_reads_the_receipt_in_spanish(client, organiser):
    event = played("pokemon", organiser)
    reg = _bye_player(event)
    body = _page(client, event, reg, **{"Accept-Language": "es"})
    assert '<html lang="es">' in body
    assert "recibo de desempates" in body and "Qué significa la resistencia" in body
    assert "desde la ronda 2" in body and "fuera de las medias (P-TB-5)" in body
    assert "Tiebreaker receipt" not in body and "since round" not in body


def test_the_public_standings_link_every_name_to_its_receipt(client, organiser):
    event = played("mtg", organiser)
    body = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    for reg in event.registrations.all():
        assert reverse("public:receipt", args=[event.slug, reg.pk]) in body


def test_the_private_page_links_to_the_players_own_receipt_sent_privately(client, organiser):
    event = played("pokemon", organiser)
    reg = event.registrations.order_by("pk")[3]
    home = client.get(reverse("public:player", args=[event.slug, reg.report_token]))
    own = reverse("public:player_receipt", args=[event.slug, reg.report_token])
    assert own in home.content.decode()
    response = client.get(own)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "same-origin"
    body = response.content.decode()
    assert reverse("public:player", args=[event.slug, reg.report_token]) in body  # back
    assert reg.player.name in body


def test_a_receipt_of_another_event_an_unknown_token_or_a_draft_is_not_found(client, organiser):
    event = played("pokemon", organiser)
    other = factories.event_with_players(2, by=organiser, name="Other Cup")
    stranger = other.registrations.first()
    assert client.get(reverse("public:receipt", args=[event.slug, stranger.pk])).status_code == 404
    assert (
        client.get(reverse("public:player_receipt", args=[event.slug, "nope"])).status_code == 404
    )
    Event.objects.filter(pk=event.pk).update(listing=EventListing.DRAFT)
    reg = event.registrations.first()
    assert client.get(reverse("public:receipt", args=[event.slug, reg.pk])).status_code == 404


def test_before_the_first_round_is_complete_the_page_says_so(client, organiser):
    event = factories.event_with_players(4, by=organiser)
    body = _page(client, event, event.registrations.first())
    assert 'id="receipt-none"' in body


def test_a_standalone_bracket_has_no_receipts(client, organiser):
    event = factories.event_with_players(4, by=organiser, structure="single-elimination",
                                         swiss_rounds=0)  # fmt: skip
    reg = event.registrations.first()
    assert player_receipt(event, reg) is None
    assert 'id="receipt-none"' in _page(client, event, reg)


# --- Day 2 and flights: the same path ---------------------------------------------------


def test_R_3_a_day2_receipt_counts_day2_only_and_shows_day1_apart(client, organiser):
    event = two_day_event(organiser)
    assert assert_adds_up(event) == 41
    day2_player = MatchSeat.objects.filter(round__event=event, round__number=4).first()
    reg = day2_player.registration
    found = player_receipt(event, reg)
    assert found is not None
    day1, day2 = found.stages
    assert (day1.day2, day1.offset, day1.receipt.rounds) == (False, 0, 3)
    assert (day2.day2, day2.offset, day2.counted) == (True, 3, True)
    body = _page(client, event, reg)
    assert "Day 1: rounds 1–3" in body and "Day 2: rounds 4–5" in body
    assert "(P-D2-2, R-3)" in body


def test_R_2_R_3_a_day2_drop_is_frozen_on_the_receipt_too(organiser):
    event = two_day_event(organiser)  # a player drops after round 4, Day 2's first
    reg = event.registrations.get(dropped_after_round=4)
    found = player_receipt(event, reg)
    assert found is not None
    day2 = found.counted.receipt
    assert (day2.rounds, day2.as_of) == (2, 1)  # frozen as of Day 2 round 1
    assert {a.rules for a in day2.column("owp").applied} == {("R-2",)}


def test_P_FL_5_a_flighted_division_receipt_comes_from_its_flight(organiser):
    event = flighted_masters(organiser)
    assert assert_adds_up(event) == 64


def test_a_receipt_agrees_with_the_published_standings_and_says_when_it_runs_ahead(
    client, organiser
):
    event = played("pokemon", organiser)
    regs = list(event.registrations.all())
    assert all(player_receipt(event, reg).agrees for reg in regs)  # type: ignore[union-attr]
    last = event.rounds.get(number=3).matches.exclude(table=None).order_by("table").first()
    loser = next(s.registration for s in last.seats.all() if s.registration != last.winner)
    services.result_correct(match=last, result=Result.win(loser), reason="slip", by=organiser)
    # the standings are recomputed by a task after commit: until then the receipt, counted
    # from the results now, runs ahead of them and the page says so
    found = player_receipt(event, loser)
    assert found is not None and not found.agrees
    assert 'id="receipt-pending"' in _page(client, event, loser)
    standings_compute(event=event)
    assert player_receipt(event, loser).agrees  # type: ignore[union-attr]
    assert 'id="receipt-pending"' not in _page(client, event, loser)


# --- each column's change in its own unit -----------------------------------------------


def _column(ruleset: str, key: str):
    return next(c for c in get_ruleset(ruleset).columns if c.key == key)


@pytest.mark.parametrize(
    ("ruleset", "key", "delta", "english", "spanish"),
    [
        ("pokemon", "owp", Fraction(1, 24), "+4.17 pp", "+4,17 p. p."),
        ("pokemon", "oowp", Fraction(-1, 6), "−16.67 pp", "−16,67 p. p."),
        ("mtg", "omw", Fraction(1, 800), "+0.13 pp", "+0,13 p. p."),  # 0.125: half up
        ("bo3-wins-against", "win_pct", Fraction(-1, 3), "−33.33 pp", "−33,33 p. p."),
        ("mtg-multiplayer", "oamp", Fraction(-14, 5), "−2.80", "−2,80"),  # match points
        ("bo3-wins-against", "wins_against", Fraction(3), "+3", "+3"),  # a count
        ("bo3-wins-against", "game_wins", Fraction(-1), "−1", "−1"),
    ],
)
def test_a_columns_change_is_written_in_the_columns_own_unit(ruleset, key, delta, english, spanish):
    column = _column(ruleset, key)
    with translation.override("en"):
        assert signed_change(column, delta) == english
    with translation.override("es"):
        assert signed_change(column, delta) == spanish


CHANGE = re.compile(
    r'<dd data-column="(\w+)"><strong class="receipt-value">.*?'
    r'<small class="receipt-change">([^<]*)</small>',
    re.S,
)


@pytest.mark.parametrize(
    ("language", "pp", "since"),
    [("en", "pp", "since round 2"), ("es", "p. p.", "desde la ronda 2")],
)
def test_the_receipt_shows_percentage_columns_moving_in_points_and_oamp_in_match_points(
    client, organiser, language, pp, since
):
    event = played("mtg-multiplayer", organiser)
    reg = _small_pod_player(event)
    found = player_receipt(event, reg)
    assert found is not None and found.counted.before is not None
    now, before = found.counted.receipt, found.counted.before
    body = _page(client, event, reg, **{"Accept-Language": language})
    shown = dict(CHANGE.findall(body))
    assert set(shown) == {"mwp", "oamp", "omwp"}
    for column in get_ruleset("mtg-multiplayer").columns:
        delta = now.column(column.key).value - before.column(column.key).value
        assert delta != 0, column.key  # the example moves every column
        with translation.override(language):
            assert shown[column.key] == f"{signed_change(column, delta)} {since}"
    number = r"[+−]\d+[.,]\d\d"
    assert re.fullmatch(rf"{number} {re.escape(pp)} {since}", shown["mwp"])
    assert re.fullmatch(rf"{number} {re.escape(pp)} {since}", shown["omwp"])
    assert re.fullmatch(rf"{number} {since}", shown["oamp"])  # match points: no unit mark
    assert f"% {since}" not in body


# --- live: the page follows the standings as the standings page does --------------------


def _open_event(by) -> Event:
    """A Pokémon event of 9 players and 4 Swiss rounds, two of them played and their
    standings computed: still running."""
    event = factories.event_with_players(9, by=by, ruleset="pokemon", swiss_rounds=4)
    for n in (1, 2):
        play_round(event, n, by)
    standings_compute(event=event)
    return event


def test_the_receipt_pages_follow_the_public_notices_and_refresh_their_live_part(client, organiser):
    event = _open_event(organiser)
    reg = event.registrations.order_by("pk")[2]
    for url in (
        reverse("public:receipt", args=[event.slug, reg.pk]),
        reverse("public:player_receipt", args=[event.slug, reg.report_token]),
    ):
        page = client.get(url).content.decode()
        stream = reverse("public:live", args=[event.slug])
        assert f'hx-ext="sse" sse-connect="{stream}?public=' in page  # as the standings page
        found = re.search(r'<section id="live"[^>]*>', page)
        assert found is not None
        live = found[0]
        assert f'hx-get="{url}"' in live and 'hx-trigger="sse:public"' in live
        assert 'data-live-spread="sse:public"' in live  # a refresh reads the database
        assert "This receipt updates itself when the standings change." in page
        assert 'id="resistance"' in page and "After round 2" in page
        part = client.get(url, headers={"HX-Request": "true"})
        assert part.status_code == 200
        fragment = part.content.decode()
        assert fragment.lstrip().startswith('<section id="live"')
        assert "After round 2" in fragment and "<html" not in fragment
        assert 'id="resistance"' not in fragment
    spanish = client.get(url, headers={"Accept-Language": "es"}).content.decode()
    assert "Este recibo se actualiza solo cuando cambia la clasificación." in spanish


def test_a_finished_events_receipt_no_longer_follows(client, organiser):
    event = played("pokemon", organiser)
    assert Event.objects.get(pk=event.pk).status == "finished"
    body = _page(client, event, _bye_player(event))
    assert "sse-connect" not in body and "hx-get" not in body
    assert "updates itself" not in body and "After round 3" in body


def test_new_standings_count_every_receipt_before_a_page_asks(
    organiser, django_capture_on_commit_callbacks, django_assert_num_queries
):
    event = _open_event(organiser)
    play_round(event, 3, organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the (eager) receipts task
        standings_compute(event=event)
    regs = list(event.registrations.all())
    for reg in regs:
        with django_assert_num_queries(1):  # the latest snapshot; the receipt is kept
            kept = player_receipt_cached(event, reg)
        assert kept == player_receipt(event, reg)
        assert kept is not None and kept.counted.receipt.rounds == 3
    assert receipts_warm(event.pk) == len(regs) == 9  # the task again: kept again
    assert receipts_warm(0) == 0  # no such event
