"""The cut-line outlook through the services, the task and the pages:
computed on the worker after each Swiss round's standings, stored once per snapshot,
shown on the public standings, the player's page and the help page, in English and
Spanish. Real PostgreSQL."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from pairings.engine.outlook import SIMULATIONS, outlook, simulations_for
from pairings.outlook_services import group_input, outlook_compute, outlook_json
from pairings.procedures.flights import flights_assign
from pairings.services import round_pair
from standings.models import CutOutlook
from standings.services import standings_compute, standings_latest
from tests import factories
from tests.pod_factories import play as play_pods
from tests.pod_factories import pod_event
from tournaments import services
from tournaments.models import Outcome
from tournaments.public_pages import public_pages_refresh
from tournaments.selectors.outlook import percent
from tournaments.services import Result

pytestmark = pytest.mark.django_db

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es"}


def play(rnd, by, pick=0):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table"):
        seats = list(m.seats.order_by("seat"))
        services.slip_enter(match=m, result=Result.win(seats[pick].registration), by=by)


def played(organiser, rounds: int, *, players: int = 8, top_cut: int = 4, **kwargs):
    """An event of ``players``, 3 Swiss rounds and a top cut, ``rounds`` of them played
    (no task runs: the test computes the standings itself)."""
    event = factories.event_with_players(
        players, by=organiser, swiss_rounds=3, top_cut_size=top_cut, **kwargs
    )
    for n in range(1, rounds + 1):
        (rnd,) = round_pair(event=event, group="open", by=organiser, seed=n)
        play(rnd, organiser)
    return event


@pytest.mark.django_db(transaction=True)  # real commits: the tasks run on commit
def test_P_TC_1_the_outlook_follows_each_swiss_round_on_the_worker(organiser):
    event = played(organiser, 2)
    stored = CutOutlook.objects.get(snapshot=standings_latest(event))
    assert (stored.rounds_complete, stored.simulations) == (2, simulations_for(8))
    assert stored.simulations >= SIMULATIONS
    (cut,) = stored.data["cuts"]
    assert cut["simulations"] == stored.simulations
    assert (cut["kind"], cut["division"], cut["places"], cut["rounds_left"]) == (
        "top-cut",
        "open",
        4,
        1,
    )
    chances = stored.data["players"]
    assert set(chances) == set(event.registrations.values_list("external_id", flat=True))
    assert sum(c["top-cut"]["share"] for c in chances.values()) == pytest.approx(4, abs=1e-3)
    # One outlook per round's standings: round 1's is kept with its snapshot.
    assert CutOutlook.objects.filter(event=event).count() == 2
    # The last Swiss round decides the cut: the standings show it, nothing is simulated.
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=3)
    play(rnd, organiser)
    assert not CutOutlook.objects.filter(snapshot=standings_latest(event)).exists()


def test_the_outlook_is_stored_once_and_reproducible_from_its_seed(organiser):
    event = played(organiser, 2)
    snapshot = standings_compute(event=event)
    first = outlook_compute(snapshot.pk)
    assert first is not None and first.seconds >= 0
    assert outlook_compute(snapshot.pk) is None  # the task ran twice: stored once
    assert CutOutlook.objects.filter(snapshot=snapshot).count() == 1
    (group,) = event.groups.all()
    again = group_input(event, group)
    assert again is not None and again.seed == first.seed
    assert (
        outlook_json([(again, outlook(again.players, again.plan, seed=again.seed))]) == first.data
    )


def test_an_older_snapshot_or_an_event_without_a_cut_gets_no_outlook(organiser):
    event = played(organiser, 1)
    older = standings_compute(event=event)
    standings_compute(event=event)
    assert outlook_compute(older.pk) is None  # a newer snapshot's task computes it
    no_cut = played(organiser, 1, top_cut=0)
    assert outlook_compute(standings_compute(event=no_cut).pk) is None
    assert not CutOutlook.objects.exists()


def test_P_TC_1_the_public_standings_show_chances_and_records_in_both_languages(client, organiser):
    event = played(organiser, 2)
    outlook_compute(standings_compute(event=event).pk)
    url = reverse("public:standings", args=[event.slug])
    body = client.get(url).content.decode()
    assert body.count('class="outlook') >= 8 and "Cut-line outlook" in body
    assert "Top 4 · Open" in body and "simulated endings" in body
    assert "%" in body and "100 %" not in body and " 0 %" not in body
    spanish = client.get(url, **SPANISH).content.decode()
    assert "Previsión del corte" in spanish and "finales simulados" in spanish
    public_pages_refresh(event.pk)  # the prebuilt pages carry it too
    assert "Cut-line outlook" in client.get(url).content.decode()


def test_P_TC_1_the_players_page_says_what_a_win_next_round_changes(client, organiser):
    event = played(organiser, 2)
    outlook_compute(standings_compute(event=event).pk)
    chances = CutOutlook.objects.get(event=event).data["players"]
    reg = next(
        r
        for r in event.registrations.all()
        if chances[r.external_id]["top-cut"]["verdict"] == "open"
        and chances[r.external_id]["top-cut"]["if_win"] is not None
    )
    url = reverse("public:player", args=[event.slug, reg.report_token])
    body = client.get(url).content.decode()
    assert 'id="player-outlook"' in body and "Top 4: " in body
    assert "a win next round makes it" in body
    spanish = client.get(url, **SPANISH).content.decode()
    assert "una victoria en la próxima ronda" in spanish


def test_P_TC_1_tiny_and_noisy_figures_read_honestly_on_the_players_page_and_standings(
    client, organiser
):
    """A stored share of 0.5 % read "0 %" (rounded to even) and a win figure below the
    chance read as if a win helped: the player's page and the standings cell now say
    "under 1 %" and leave out a clause that does not move the figure as shown."""
    event = played(organiser, 2)
    stored = outlook_compute(standings_compute(event=event).pk)
    assert stored is not None
    tiny, noisy = event.registrations.order_by("pk")[:2]
    players = stored.data["players"]
    players[tiny.external_id]["top-cut"] |= {
        "verdict": "open",
        "share": 0.005,
        "if_win": 0.012,
        "if_loss": 0.0,
        "if_win_verdict": "open",
    }
    players[noisy.external_id]["top-cut"] |= {
        "verdict": "open",
        "share": 0.4,
        "if_win": 0.38,
        "if_loss": 0.2,
        "if_win_verdict": "open",
    }
    CutOutlook.objects.filter(pk=stored.pk).update(data=stored.data)

    def outlook_line(reg, **headers) -> str:
        url = reverse("public:player", args=[event.slug, reg.report_token])
        body = client.get(url, **headers).content.decode()
        found = re.search(r'<li class="outlook-open"[^>]*>([^<]*)</li>', body)
        assert found is not None
        return found[1]

    assert outlook_line(tiny) == "Top 4: under 1 % — a win next round makes it 1 %."
    assert outlook_line(tiny, **SPANISH) == (
        "Top 4: menos del 1 % — una victoria en la próxima ronda lo deja en 1 %."
    )
    assert outlook_line(noisy) == "Top 4: 40 % — a loss next round makes it 20 %."
    assert outlook_line(noisy, **SPANISH) == (
        "Top 4: 40 % — una derrota en la próxima ronda lo deja en 20 %."
    )
    standings = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    for reg, cell in ((tiny, "under 1 %"), (noisy, "40 %")):
        link = reverse("public:receipt", args=[event.slug, reg.pk])
        row = re.search(rf'href="{link}".*?</tr>', standings, re.S)
        assert row is not None and f'data-outlook="open">{cell}</td>' in row[0]
    assert ">0 %<" not in standings and ">100 %<" not in standings


def test_the_standings_help_page_explains_the_method_in_both_languages(client, organiser):
    event = played(organiser, 1)
    url = reverse("public:standings_help", args=[event.slug])
    assert 'id="outlook-method"' in client.get(url).content.decode()
    assert "10.000 veces" in client.get(url, **SPANISH).content.decode()


def test_P_D2_1_a_two_day_event_shows_day_2_then_simulates_day_2_alone(organiser):
    """In Day 1 the outlook has a Day 2 cut (19 points or the top 32) and the top cut
    after Day 2; once Day 1 is over, only the top cut, for the players of Day 2 (R-3)."""
    event = factories.event_with_players(
        40, by=organiser, swiss_rounds=2, day2_rounds=2, top_cut_size=8
    )
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    play(rnd, organiser)
    day1 = outlook_compute(standings_compute(event=event).pk)
    assert day1 is not None
    assert [(c["kind"], c["places"], c["qualify"]) for c in day1.data["cuts"]] == [
        ("day2", 32, 19),
        ("top-cut", 8, None),
    ]
    chances = day1.data["players"]
    assert sum(c["day2"]["share"] for c in chances.values()) == pytest.approx(32, abs=1e-3)
    assert day1.data["cuts"][1]["rounds_left"] == 3  # a Day 1 round and two of Day 2
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=2)
    play(rnd, organiser)
    day2 = outlook_compute(standings_compute(event=event).pk)
    assert day2 is not None
    (cut,) = day2.data["cuts"]
    assert (cut["kind"], cut["rounds_left"]) == ("top-cut", 2)
    assert len(day2.data["players"]) == 32  # the players of Day 2 only
    assert sum(c["top-cut"]["share"] for c in day2.data["players"].values()) == pytest.approx(
        8, abs=1e-3
    )


def test_P_FL_5_each_flight_has_its_own_outlook_for_its_share_of_the_cut(client, organiser):
    """Two flights of 32, top 4: each flight sends 2 (P-FL-5), so each flight's outlook
    is a top 2 of its own, named by its flight on the players' pages."""
    event = factories.event_with_players(
        64, by=organiser, structure="swiss-top-cut", swiss_rounds=3, top_cut_size=4
    )
    flights_assign(division=event.divisions.get(), flights=2, by=organiser, seed=2)
    for flight in (1, 2):
        (rnd,) = round_pair(event=event, group=f"open#flight-{flight}", by=organiser, seed=1)
        play(rnd, organiser)
    stored = outlook_compute(standings_compute(event=event).pk)
    assert stored is not None
    cuts = [(c["flight"], c["places"], c["rounds_left"]) for c in stored.data["cuts"]]
    assert cuts == [(1, 2, 1), (2, 2, 1)]
    for flight in (1, 2):
        players = event.registrations.filter(flight=flight).values_list("external_id", flat=True)
        shares = [stored.data["players"][p]["top-cut"]["share"] for p in players]
        assert sum(shares) == pytest.approx(2, abs=1e-3)
    reg = event.registrations.filter(flight=2).first()
    body = client.get(reverse("public:player", args=[event.slug, reg.report_token])).content
    assert "Top 2 of flight 2" in body.decode()


def test_P_FL_5_P_D2_1_a_flighted_two_day_event_has_each_flights_day_2_and_share(client, organiser):
    """A flighted division of a two-day event: each flight plays its own Day 2 cut (19
    points or the top 32 of the flight, ``day2_qualified`` on the flight) and Day 2, then
    sends its share of the top cut (P-FL-5), as ``pairings.procedures.day2`` plays it; the
    outlook simulates exactly that, flight by flight, and the standings page shows it."""
    event = factories.event_with_players(
        80,
        by=organiser,
        structure="swiss-top-cut",
        swiss_rounds=3,
        day2_rounds=1,
        top_cut_size=4,
    )
    flights_assign(division=event.divisions.get(), flights=2, by=organiser, seed=2)
    for flight in (1, 2):
        (rnd,) = round_pair(event=event, group=f"open#flight-{flight}", by=organiser, seed=1)
        play(rnd, organiser)
    stored = outlook_compute(standings_compute(event=event).pk)
    assert stored is not None
    cuts = [(c["flight"], c["kind"], c["places"], c["rounds_left"]) for c in stored.data["cuts"]]
    # two flights play a round fewer (P-FL-2): one Day 1 round left, then a Day 2 round
    assert cuts == [
        (1, "day2", 32, 1),
        (1, "top-cut", 2, 2),
        (2, "day2", 32, 1),
        (2, "top-cut", 2, 2),
    ]
    for flight in (1, 2):
        players = event.registrations.filter(flight=flight).values_list("external_id", flat=True)
        chances = [stored.data["players"][p] for p in players]
        assert len(chances) == 40
        # 40 players, nobody can reach 19 points in 2 rounds: exactly the top 32 go on
        assert sum(c["day2"]["share"] for c in chances) == pytest.approx(32, abs=1e-3)
        assert sum(c["top-cut"]["share"] for c in chances) == pytest.approx(2, abs=1e-3)
        # "in" / "out" only where proven: never against what an ending showed
        for c in chances:
            for kind in ("day2", "top-cut"):
                assert c[kind]["verdict"] != "in" or c[kind]["share"] == 1.0
                assert c[kind]["verdict"] != "out" or c[kind]["share"] == 0.0
    body = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert "Cut-line outlook" in body and "simulated endings" in body


def test_MP_SE_1_a_pod_swiss_has_an_outlook_on_the_standings(client, organiser):
    """A multiplayer pod event (8 players, 3 rounds, pod top cut of 4, MP-SE-1): after
    round 1 the task simulates the two rounds left with the pod pairing engine (each pod
    won by one seat: 7 points, MP-PTS-1) and the standings page shows it."""
    event = pod_event(8, by=organiser, rounds=3, cut=4)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    play_pods(rnd, organiser)
    stored = outlook_compute(standings_compute(event=event).pk)
    assert stored is not None
    (cut,) = stored.data["cuts"]
    assert (cut["kind"], cut["places"], cut["rounds_left"]) == ("top-cut", 4, 2)
    assert cut["simulations"] == SIMULATIONS and cut["draw_rate"] == 0
    chances = stored.data["players"]
    assert len(chances) == 8
    assert sum(c["top-cut"]["share"] for c in chances.values()) == pytest.approx(4, abs=1e-3)
    # the two pod winners (7 points) are far likelier to make it than the others
    winners = [m.winner.external_id for m in rnd.matches.select_related("winner")]
    assert len(winners) == 2
    others = [pid for pid in chances if pid not in winners]
    assert min(chances[p]["top-cut"]["share"] for p in winners) > max(
        chances[p]["top-cut"]["share"] for p in others
    )
    assert {r["points"]: r["record"] for r in cut["records"]}[21] == "3-0-0"
    body = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert "Cut-line outlook" in body and "Top 4 · Open" in body


def _outlook_line(client, event, reg, **headers) -> str:
    """The first line of ``reg``'s cut-line outlook on their private page."""
    url = reverse("public:player", args=[event.slug, reg.report_token])
    body = client.get(url, **headers).content.decode()
    found = re.search(r'<li class="outlook-[a-z]+"[^>]*>([^<]*)</li>', body)
    assert found is not None
    return found[1]


def _outlook_cell(body: str, event, reg) -> tuple[str, str]:
    """``reg``'s Cut cell on the public standings: (data-outlook, text)."""
    link = reverse("public:receipt", args=[event.slug, reg.pk])
    row = re.search(rf'href="{link}".*?</tr>', body, re.S)
    assert row is not None
    cell = re.search(r'data-outlook="([a-z]*)">([^<]*)</td>', row[0])
    assert cell is not None
    return cell[1], cell[2]


def test_P_SW_6_a_player_who_drops_is_out_of_the_running_at_once_until_the_drop_is_undone(
    client, organiser, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """Carla drops from her phone after round 2: her page and the public standings stop
    showing her chance of the cut at once, without a new simulation (the stored outlook
    stays; the pages read her registration), the prebuilt standings are rebuilt by the
    drop itself, and undoing the drop brings the figure back."""
    event = played(organiser, 2)
    stored = outlook_compute(standings_compute(event=event).pk)
    assert stored is not None
    chances = stored.data["players"]
    carla = next(
        r
        for r in event.registrations.order_by("pk")
        if chances[r.external_id]["top-cut"]["verdict"] == "open"
    )
    figure = percent(chances[carla.external_id]["top-cut"]["share"])
    before = _outlook_line(client, event, carla)
    assert before.startswith(f"Top 4: {figure}")
    standings = reverse("public:standings", args=[event.slug])
    public_pages_refresh(event.pk)
    assert _outlook_cell(Client().get(standings).content.decode(), event, carla) == (
        "open",
        figure,
    )

    with django_capture_on_commit_callbacks(execute=True):  # the drop's rebuild runs
        services.registration_self_drop(registration=carla)
    carla.refresh_from_db()
    assert _outlook_line(client, event, carla) == "Top 4: out of the running — you dropped."
    assert _outlook_line(client, event, carla, **SPANISH) == "Top 4: sin opciones — te retiraste."
    with django_assert_num_queries(0):  # the prebuilt page, built again by the drop
        english = Client().get(standings).content.decode()
        spanish = Client().get(standings, **SPANISH).content.decode()
    assert _outlook_cell(english, event, carla) == ("dropped", "dropped")
    assert _outlook_cell(spanish, event, carla) == ("dropped", "retirado")
    others = [r for r in event.registrations.exclude(pk=carla.pk) if r.external_id in chances]
    assert all(_outlook_cell(english, event, r)[0] in ("in", "out", "open") for r in others)
    assert CutOutlook.objects.get(pk=stored.pk).data == stored.data  # nothing recomputed

    with django_capture_on_commit_callbacks(execute=True):
        services.registration_reinstate(registration=carla, by=organiser, reason="Came back.")
    assert _outlook_line(client, event, carla) == before
    with django_assert_num_queries(0):
        again = Client().get(standings).content.decode()
    assert _outlook_cell(again, event, carla) == ("open", figure)


def test_a_disqualified_player_reads_disqualified_in_the_outlook(client, organiser):
    event = played(organiser, 2)
    outlook_compute(standings_compute(event=event).pk)
    reg = event.registrations.order_by("pk").first()
    services.registration_disqualify(registration=reg, by=organiser, reason="Marked cards.")
    reg.refresh_from_db()
    assert _outlook_line(client, event, reg) == (
        "Top 4: out of the running — you were disqualified."
    )
    assert (
        _outlook_line(client, event, reg, **SPANISH) == "Top 4: sin opciones — te descalificaron."
    )
    body = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert _outlook_cell(body, event, reg) == ("disqualified", "disqualified")
