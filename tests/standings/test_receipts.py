"""Tiebreaker receipts through the database: on every real event of the
test data, every player's receipt adds up to the standings JSON (1e-9, and exactly to
its ``exact`` Fractions); a two-day event and a flighted one take the same path."""

from __future__ import annotations

from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from pairings.services import round_pair
from rulesets import get_ruleset
from standings.engine.receipts import Combine
from standings.receipts import player_receipt, player_receipt_cached, snapshot_row
from standings.services import standings_compute, standings_data
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
    rules = get_ruleset(ruleset)
    games = (*GAMES, (1, 1, 1)) if rules.allows_ties else GAMES
    group = swiss_group(ev.divisions.get())
    for n in range(1, rounds + 1):
        (rnd,) = round_pair(event=ev, group=group, by=by, seed=n)
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
        if n == 1:
            first = ev.registrations.order_by("pk")[0]
            services.registration_drop(registration=first, by=by)
    standings_compute(event=ev)
    return ev


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
