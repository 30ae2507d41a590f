"""Every ruleset looks like itself on the staff pages: no Pokémon-only
field or wording on other rulesets' pages, rules in plain words (the rule ID only in a
tooltip), the New-event recommendation from the ruleset's own table (single elimination
for 5–8 Magic players), quick result buttons that name the winner, and one word for a
drawn match per ruleset."""

from __future__ import annotations

import html
import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from pairings.procedures.flights import division_flight_options, flights_assign
from standings.services import standings_latest
from tests import factories
from tests.pod_factories import pod_event
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import Event, EventStatus, Match, Outcome, Phase, Round
from tournaments.services import Result

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
POKEMON_ONLY = (
    "Junior",
    "Senior",
    "Masters",
    "Championship Points",
    "Season",
    "Day 2",
    "TOM",
    "P-RT",
    "P-AGE",
    "P-SW",
    "P-D2",
)
OTHER_RULESETS = ("mtg", "bo3-wins-against", "mtg-multiplayer")


def visible(body: str) -> str:
    """The text a reader sees: no scripts, styles or tags (so no ``title`` tooltips)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]*>", " ", body)
    return re.sub(r"\s+", " ", html.unescape(body))


def page(client, name: str, *args, **params) -> str:
    response = client.get(reverse(name, args=args), params)
    assert response.status_code == 200, name
    return response.content.decode()


def pair(client, event: Event, capture, group: str = "open") -> Round:
    """Press the dashboard's "Pair next round" (the task runs at commit) and return the
    round it paired."""
    with capture(execute=True):
        response = client.post(reverse("staff:pair", args=[event.slug]), {"group": group})
    assert response.status_code == 302
    return Round.objects.filter(event=event).latest("number", "pk")


def start(client, event: Event, rnd: Round) -> None:
    client.post(reverse("staff:round_publish", args=[event.slug, rnd.pk]))
    client.post(reverse("staff:round_start", args=[event.slug, rnd.pk]))


def event_of(ruleset: str, organiser) -> Event:
    if ruleset == "mtg-multiplayer":
        return pod_event(8, by=organiser, rounds=2)
    return factories.event_with_players(
        8, by=organiser, ruleset=ruleset, structure="swiss", swiss_rounds=3
    )


def started_round(ruleset: str, organiser, *, phase=Phase.SWISS):
    """Round 1 (started) of a 4-player ``ruleset`` event, tables in registration order;
    players ``Player 001`` … ``Player 004``."""
    ev = factories.event_with_players(4, by=organiser, ruleset=ruleset)
    rnd = factories.round_in_order(ev, by=organiser, phase=phase)
    return ev, rnd


# --- 1. no Pokémon-only field or wording ----------------------------------------------


@pytest.mark.parametrize("ruleset", OTHER_RULESETS)
def test_other_rulesets_staff_pages_show_nothing_pokemon_only(
    client, organiser, ruleset, django_capture_on_commit_callbacks
):
    ev = event_of(ruleset, organiser)
    client.force_login(organiser)
    pages = {
        name: page(client, f"staff:{name}", ev.slug)
        for name in ("dashboard", "players", "team", "corrections", "disputes")
    }
    rnd = pair(client, ev, django_capture_on_commit_callbacks)
    start(client, ev, rnd)
    pages["round"] = page(client, "staff:round", ev.slug, rnd.pk)
    pages["dashboard after pairing"] = page(client, "staff:dashboard", ev.slug)
    for name, body in pages.items():
        text = visible(body)
        shown = [word for word in POKEMON_ONLY if word in text]
        assert not shown, f"{ruleset} {name} page shows {shown}"
    assert 'name="birth_year"' not in pages["players"]
    assert "birth year" not in visible(pages["players"]).lower()


@pytest.mark.parametrize("ruleset", ("mtg", "bo3-wins-against"))
def test_a_head_to_head_dashboard_has_no_pod_column(client, organiser, ruleset):
    ev = event_of(ruleset, organiser)
    client.force_login(organiser)
    body = page(client, "staff:dashboard", ev.slug)
    assert "<th>Pod</th>" not in body
    assert 'id="age-mode"' not in body and 'id="checkin-plan"' in body
    assert '<option value="7">' not in body  # a pod cut size is not offered


def test_closing_check_in_of_a_magic_event_says_rounds_and_cut(client, organiser):
    ev = factories.event_with_players(
        12, by=organiser, ruleset="mtg", structure="swiss-top-cut", top_cut_size=8
    )
    client.force_login(organiser)
    response = client.post(reverse("staff:checkin_close", args=[ev.slug]), follow=True)
    text = visible(response.content.decode())
    assert "Check-in closed. 5 Swiss rounds, top 4." in text
    assert "Open event" not in text and "one division" not in text  # no age mode
    ev.refresh_from_db()
    assert (ev.swiss_rounds, ev.top_cut_size) == (5, 4)


def test_a_pokemon_event_keeps_its_age_divisions_and_championship_points(client, organiser):
    ev = factories.event(
        by=organiser,
        divisions={"junior": "junior", "senior": "senior", "masters": "masters"},
        awards_championship_points=True,
    )
    for i, born in enumerate((2016, 2012, 1990, 1991, 1992, 1993)):
        services.registration_add(event=ev, name=f"P{i}", birth_year=born, by=organiser)
    client.force_login(organiser)
    dashboard = page(client, "staff:dashboard", ev.slug)
    assert 'id="age-mode"' in dashboard and "<th>Pairing group</th>" in dashboard
    assert "TOM file" in visible(dashboard)
    players = visible(page(client, "staff:players", ev.slug))
    assert "Born" in players and "Birth year" in players and "Deck list" in players
    assert "Season ending" in players and "Masters" in players
    new = page(client, "staff:event_create", ruleset="pokemon")
    for name in ("divisions", "season_year", "awards_championship_points", "day2_rounds"):
        assert f'name="{name}"' in new
    assert "Championship Points" in visible(new) and "Junior" in visible(new)


def test_the_new_event_page_marks_the_pokemon_only_fields_for_its_script(client, organiser):
    client.force_login(organiser)
    body = page(client, "staff:event_create")
    for feature in ("age_divisions", "championship_points", "day2"):
        assert f'data-feature="{feature}"' in body
    data = json.loads(re.search(r'id="ruleset-features"[^>]*>(.*?)</script>', body, re.S)[1])
    assert set(data["pokemon"]["features"]) >= {"age_divisions", "championship_points", "day2"}
    for ruleset in OTHER_RULESETS:
        assert data[ruleset]["features"] == []
    assert data["mtg"]["cuts"] == [0, 2, 4, 8, 16, 32, 64]
    assert data["mtg-multiplayer"]["cuts"] == [0, 4, 7, 10, 13, 16, 40, 64]


def test_the_form_ignores_pokemon_only_fields_for_magic(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_create"),
        {
            "name": "Magic Monday",
            "ruleset": "mtg",
            "structure": "swiss",
            "divisions": "age",
            "swiss_rounds": 4,
            "top_cut_size": 0,
            "day2_rounds": 5,
            "season_year": 2020,
            "awards_championship_points": "on",
        },
    )
    assert response.status_code == 302
    ev = Event.objects.get(name="Magic Monday")
    assert list(ev.divisions.values_list("code", flat=True)) == ["open"]
    assert (ev.day2_rounds, ev.season_year, ev.awards_championship_points) == (0, None, False)


def test_magic_plays_no_flights(organiser):
    ev = factories.event_with_players(
        40, by=organiser, ruleset="mtg", swiss_rounds=6, top_cut_size=8
    )
    division = ev.divisions.get()
    assert division_flight_options(division) == ()
    with pytest.raises(InvalidInput, match="do not play in flights"):
        flights_assign(division=division, flights=2, by=organiser)


# --- 2. rules in plain words -----------------------------------------------------------

RULE_ID = re.compile(r"\b(?:P|MP|M|W)-[A-Z0-9]+-\d+\b")


@pytest.mark.parametrize("ruleset", ("pokemon", *OTHER_RULESETS))
def test_staff_pages_say_the_rules_in_plain_words(client, organiser, ruleset):
    ev = event_of(ruleset, organiser)
    client.force_login(organiser)
    for name in ("dashboard", "players", "team", "corrections", "penalties"):
        text = visible(page(client, f"staff:{name}", ev.slug))
        assert not RULE_ID.findall(text), f"{ruleset} {name}: {RULE_ID.findall(text)}"
    new = visible(page(client, "staff:event_create", players=300, ruleset=ruleset))
    assert not RULE_ID.findall(new), RULE_ID.findall(new)


def test_the_rule_id_stays_in_a_tooltip(client, organiser):
    ev = event_of("mtg", organiser)
    client.force_login(organiser)
    body = page(client, "staff:dashboard", ev.slug)
    assert 'title="P-RT-5"' in body and "P-RT-5" not in visible(body)


def test_the_day_2_step_says_its_cut_in_plain_words(client, organiser):
    ev = factories.event_with_players(4, by=organiser, swiss_rounds=1, day2_rounds=1)
    rnd = factories.round_in_order(ev, by=organiser)
    for m in rnd.matches.all():
        winner = m.seats.first().registration
        services.slip_enter(match=m, result=Result.win(winner), by=organiser)
    client.force_login(organiser)
    text = visible(page(client, "staff:dashboard", ev.slug))
    assert "Day 2 cut: 19+ match points or the top 32." in text
    assert "P-D2" not in text


# --- 3. the recommendation follows the ruleset's table --------------------------------


def test_new_magic_event_for_8_players_recommends_single_elimination(client, organiser):
    client.force_login(organiser)
    response = client.get(reverse("staff:event_create"), {"ruleset": "mtg", "players": 8})
    text = visible(response.content.decode())
    assert "Single elimination: 3 rounds, no Swiss (Magic table for 5–8 players)" in text
    assert response.context["form"].initial == {
        "ruleset": "mtg",
        "structure": "single-elimination",
        "swiss_rounds": 0,
        "top_cut_size": 0,
    }
    body = response.content.decode()
    assert 'data-fill-structure="single-elimination"' in body
    assert 'data-fill-rounds="0"' in body and 'data-fill-cut="0"' in body


def test_the_recommendation_fragment_reads_the_chosen_rulesets_table(client, organiser):
    client.force_login(organiser)
    url = reverse("staff:event_create")
    body = client.get(url, {"ruleset": "mtg", "players": 20}, headers=HX).content.decode()
    assert body.strip().startswith('<div id="recommendation"')
    assert "5 Swiss rounds, top 8 (Magic table for 17–32 players)" in visible(body)
    pokemon = client.get(url, {"ruleset": "pokemon", "players": 20}, headers=HX)
    assert "5 Swiss rounds, top 4" in visible(pokemon.content.decode())


def test_swiss_plus_top_cut_without_a_cut_is_refused_on_the_page(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_create"),
        {
            "name": "No Cut Cup",
            "ruleset": "mtg",
            "structure": "swiss-top-cut",
            "divisions": "open",
            "swiss_rounds": 5,
            "top_cut_size": 0,
        },
    )
    assert response.status_code == 200
    message = "Swiss plus top cut needs a top cut: choose its size, or choose Swiss."
    assert response.context["form"].non_field_errors() == [message]
    errors = re.search(
        r'<div class="form-errors" role="alert"[^>]*>(.*?)</div>', response.content.decode(), re.S
    )
    assert errors and message in html.unescape(errors[1])
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("structure", "rounds", "cut", "message"),
    [
        ("single-elimination", 3, 0, "Single elimination has no Swiss rounds"),
        ("swiss", 0, 0, "Swiss needs at least one round."),
        ("swiss", 4, 8, "Swiss alone has no top cut"),
    ],
)
def test_a_structure_that_cannot_run_is_refused(client, organiser, structure, rounds, cut, message):
    client.force_login(organiser)
    data = {"name": "Bad", "ruleset": "mtg", "structure": structure, "divisions": "open"}
    data |= {"swiss_rounds": rounds, "top_cut_size": cut}
    response = client.post(reverse("staff:event_create"), data)
    assert response.status_code == 200
    assert message in visible(response.content.decode())
    assert not Event.objects.exists()


def test_a_magic_single_elimination_event_runs_to_the_final_with_the_pair_button(
    client, organiser, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    recommended = (
        client.get(reverse("staff:event_create"), {"ruleset": "mtg", "players": 8})
        .context["form"]
        .initial
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("staff:event_create"),
            {"name": "Magic Eight", "divisions": "open", **recommended},
        )
    assert response.status_code == 302
    ev = Event.objects.get(name="Magic Eight")
    assert (ev.structure, ev.swiss_rounds, ev.top_cut_size) == ("single-elimination", 0, 0)
    for i in range(1, 9):
        services.registration_add(event=ev, name=f"Mage {i}", by=organiser)
    dashboard = visible(page(client, "staff:dashboard", ev.slug))
    assert "Seed the players at random and pair round 1." in dashboard
    assert "Swiss is over" not in dashboard and "Pair next round" in dashboard

    for number, tables in ((1, 4), (2, 2), (3, 1)):
        rnd = pair(client, ev, django_capture_on_commit_callbacks)
        assert (rnd.number, rnd.phase, rnd.matches.count()) == (
            number,
            "single-elimination",
            tables,
        )
        start(client, ev, rnd)
        for m in rnd.matches.order_by("table"):
            with django_capture_on_commit_callbacks(execute=True):
                client.post(
                    reverse("staff:match_result", args=[ev.slug, m.pk]),
                    {"score": "2-1-0", "version": m.version},
                    headers=HX,
                )
        assert not rnd.matches.filter(outcome=Outcome.PENDING).exists()

    dashboard = visible(page(client, "staff:dashboard", ev.slug))
    assert "The final is played." in dashboard and "Pair next round" not in dashboard
    ev.refresh_from_db()
    assert ev.status == EventStatus.FINISHED
    out = StringIO()
    call_command("standings", ev.slug, "--json", stdout=out)
    rows = json.loads(out.getvalue())["divisions"]["open"]
    assert len(rows) == 8 and standings_latest(ev).final
    assert all({"omw", "gw", "ogw"} <= set(row["tiebreakers"]) for row in rows)
    assert all(row["tiebreakers"][k] is not None for row in rows for k in ("omw", "gw", "ogw"))
    assert rows[0]["record"] == "3-0-0"


# --- 4. quick buttons name the winner; one word for a drawn match ---------------------


def test_magic_quick_buttons_name_the_winner(client, organiser):
    ev, rnd = started_round("mtg", organiser)
    client.force_login(organiser)
    body = page(client, "staff:round", ev.slug, rnd.pk)
    for label in (
        "Player 001 2-0",
        "Player 001 2-1",
        "Player 002 2-1",
        "Player 002 2-0",
        "Draw 1-1-1",
        "Intentional draw 0-0-3",
    ):
        assert f">{label}</button>" in body, label
    assert ">2-1</button>" not in body and "ID 0-0-3" not in body


def test_the_quick_button_records_the_named_winner(client, organiser):
    ev, rnd = started_round("mtg", organiser)
    client.force_login(organiser)
    m = Match.objects.get(round=rnd, table=1)
    body = page(client, "staff:round", ev.slug, rnd.pk)
    value = re.search(r'value="([0-9-]+)"[^>]*>Player 002 2-1</button>', body)[1]
    data = {"score": value, "version": m.version}
    client.post(reverse("staff:match_result", args=[ev.slug, m.pk]), data)
    m.refresh_from_db()
    assert m.winner.player.name == "Player 002" and m.games == [1, 2, 0]


@pytest.mark.parametrize(
    ("ruleset", "draw_button", "recorded"),
    [
        ("pokemon", ">Tie</button>", "Tie"),
        ("mtg", ">Draw 1-1-1</button>", "Draw 1-1-1"),
        ("bo3-wins-against", None, None),
        ("pokemon-2009", None, None),
    ],
)
def test_each_ruleset_has_its_own_word_for_a_drawn_match(
    client, organiser, ruleset, draw_button, recorded
):
    ev, rnd = started_round(ruleset, organiser)
    client.force_login(organiser)
    body = page(client, "staff:round", ev.slug, rnd.pk)
    if draw_button is None:  # no drawn matches at all
        assert 'value="draw"' not in body and 'value="1-1-1"' not in body
        assert ">Tie<" not in body and ">Draw" not in body
        return
    assert draw_button in body
    other = ">Draw" if ruleset == "pokemon" else ">Tie"
    assert other not in body
    m = Match.objects.get(round=rnd, table=1)
    games = (1, 1, 1) if ruleset == "mtg" else None
    result = Result.of(games=games) if games else Result.draw()
    services.slip_enter(match=m, result=result, by=organiser)
    text = visible(page(client, "staff:round", ev.slug, rnd.pk))
    assert recorded in text
    reg = m.seats.first().registration
    player = visible(page(client, "public:player", ev.slug, reg.report_token))
    assert f"Result: {recorded}" in player


def test_a_magic_top_cut_offers_no_draw(client, organiser):
    ev, rnd = started_round("mtg", organiser, phase=Phase.TOP_CUT)
    client.force_login(organiser)
    body = page(client, "staff:round", ev.slug, rnd.pk)
    assert ">Player 001 2-1</button>" in body
    assert "1-1-1" not in body and "0-0-3" not in body


def test_pods_call_a_shared_result_a_draw(client, organiser, django_capture_on_commit_callbacks):
    ev = pod_event(8, by=organiser, rounds=2)
    client.force_login(organiser)
    rnd = pair(client, ev, django_capture_on_commit_callbacks)
    start(client, ev, rnd)
    body = page(client, "staff:round", ev.slug, rnd.pk)
    assert 'value="draw"' in body and ">Draw</button>" in body and ">Tie<" not in body


def test_the_player_page_names_the_winner_on_magic_quick_buttons(client, organiser):
    ev, rnd = started_round("mtg", organiser)
    reg = ev.registrations.order_by("pk")[1]  # Player 002, seat 2 of table 1
    body = page(client, "public:player", ev.slug, reg.report_token)
    for label in ("You 2-0", "You 2-1", "Player 001 2-1", "Player 001 2-0", "Draw 1-1-1"):
        assert f">{label}</button>" in body, label


def test_printed_slips_use_the_rulesets_word(client, organiser):
    client.force_login(organiser)
    for ruleset, word in (("pokemon", "Tie"), ("pokemon-2009", None), ("mtg", "Draw")):
        ev, rnd = started_round(ruleset, organiser)
        text = visible(page(client, "staff:print_slips", ev.slug, rnd.pk))
        if word is None:
            assert " Tie " not in text and " Draw " not in text
        else:
            assert f" {word} " in text
