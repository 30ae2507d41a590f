"""Identities: players' Play! Pokémon IDs are their TOM ``userid`` and
their CSV "player id"; the event's sanction ID and organiser's POP ID are settings,
checked, audited, written to the TOM file and the event JSON and read back from both;
CSV percentages are numbers rounded as the Standings JSON writes them, and a "dropped"
column. The shared TOM file's own round trip is in ``test_tdf_export``."""

from __future__ import annotations

import csv
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from interchange.formats.tdf import parse_tdf
from interchange.services.csv_exports import pairings_rows, standings_rows
from interchange.services.tdf_exports import event_tdf
from pairings.services import round_pair
from standings.adapters import decimal_text
from standings.services import standings_data
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.identities import file_ids, pop_id_problem, sanction_id_problem
from tournaments.models import AuditEvent, Event, Outcome
from tournaments.services import Result

SANCTION, POP = "25-11-024905", "2289823"


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


# --- the formats (no database) -----------------------------------------------------------


@pytest.mark.parametrize("value", ["25-11-024905", "26-01-004635", "26-12-000001", ""])
def test_a_sanction_id_is_year_month_and_six_digits(value):
    assert sanction_id_problem(value) is None


@pytest.mark.parametrize(
    "value",
    ["25-13-000001", "25-00-000001", "2025-11-024905", "25-11-24905", "25-11-0249051",
     "25/11/024905", "25-11-024905\n", " 25-11-024905", "٢٥-11-024905", "T-123"],
)  # fmt: skip
def test_anything_else_is_not_a_sanction_id(value):
    assert "is not a sanction ID" in str(sanction_id_problem(value))


def test_a_pop_id_is_digits_only():
    assert pop_id_problem("2289823") is None and pop_id_problem("") is None
    for bad in ("22898a3", "-5", "12345678901", "2289823 ", "٣"):
        assert "is not a POP ID" in str(pop_id_problem(bad)), bad


def test_file_ids_are_play_ids_else_the_events_own_id_and_always_unique():
    ids = file_ids(
        [
            ("p1", "1000001"),  # a Play! ID: written as it is
            ("p2", ""),  # none: the event's own id
            ("p3", "555"),  # two players claim 555: neither is written under it
            ("p4", "555"),
            ("p5", "p2"),  # would take p2's name: keeps its own
            ("9000001", "9000001"),  # imported from TOM: unchanged
        ]
    )
    assert ids == {
        "p1": "1000001",
        "p2": "p2",
        "p3": "p3",
        "p4": "p4",
        "p5": "p5",
        "9000001": "9000001",
    }
    assert len(set(ids.values())) == len(ids)


def test_csv_numbers_are_rounded_half_up_to_the_jsons_six_decimals():
    assert decimal_text("5/9") == "0.555556"  # the JSON's 0.5555555555555556
    assert decimal_text("49/80") == "0.612500"  # the JSON's 0.612500
    assert decimal_text("1/2000000") == "0.000001"  # half up
    assert decimal_text("1") == "1.000000" and decimal_text("15/2") == "7.500000"


# --- the event's IDs ---------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "field, value", [("sanction_id", "25-1-000123"), ("organizer_pop_id", "12a")]
)
def test_the_database_refuses_ids_of_another_form(event, field, value):
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.filter(pk=event.pk).update(**{field: value})


@pytest.mark.django_db
def test_setting_the_ids_is_checked_stripped_and_audited(event, organiser):
    services.event_settings_update(
        event=event, by=organiser, sanction_id=f" {SANCTION} ", organizer_pop_id=POP
    )
    event.refresh_from_db()
    assert (event.sanction_id, event.organizer_pop_id) == (SANCTION, POP)
    audit = AuditEvent.objects.get(action="event.settings")
    assert audit.old == {"sanction_id": "", "organizer_pop_id": ""}
    assert audit.new == {"sanction_id": SANCTION, "organizer_pop_id": POP}
    with pytest.raises(InvalidInput, match="is not a sanction ID"):
        services.event_settings_update(
            event=event, by=organiser, sanction_id="2025-01", organizer_pop_id=""
        )
    event.refresh_from_db()
    assert (event.sanction_id, event.organizer_pop_id) == (SANCTION, POP)  # nothing changed
    services.event_settings_update(event=event, by=organiser, organizer_pop_id="")
    event.refresh_from_db()
    assert (event.sanction_id, event.organizer_pop_id) == (SANCTION, "")
    assert AuditEvent.objects.filter(action="event.settings").count() == 2


@pytest.mark.django_db
def test_the_organiser_sets_the_ids_on_the_settings_page(client, event, organiser):
    client.force_login(organiser)
    url = reverse("staff:event_settings", args=[event.slug])
    page = client.get(reverse("staff:team", args=[event.slug])).content.decode()
    assert 'name="sanction_id"' in page and 'name="organizer_pop_id"' in page
    refused = client.post(
        url, {"self_report": "accept", "sanction_id": "25-11-24905", "organizer_pop_id": POP}
    )
    assert refused.status_code == 200
    body = refused.content.decode()
    assert "is not a sanction ID" in body and 'value="25-11-24905"' in body
    event.refresh_from_db()
    assert event.sanction_id == "" and event.organizer_pop_id == ""

    saved = client.post(
        url, {"self_report": "accept", "sanction_id": SANCTION, "organizer_pop_id": POP}
    )
    assert saved.status_code == 302
    event.refresh_from_db()
    assert (event.sanction_id, event.organizer_pop_id) == (SANCTION, POP)
    page = client.get(reverse("staff:team", args=[event.slug])).content.decode()
    assert f'value="{SANCTION}"' in page and f'value="{POP}"' in page


@pytest.mark.django_db
def test_the_settings_page_asks_no_sanction_id_of_a_magic_event(client, organiser):
    ev = factories.event(by=organiser, ruleset="mtg", top_cut_size=0)
    client.force_login(organiser)
    page = client.get(reverse("staff:team", args=[ev.slug])).content.decode()
    assert 'name="self_report"' in page and 'name="sanction_id"' not in page
    client.post(reverse("staff:event_settings", args=[ev.slug]), {"self_report": "hold"})
    ev.refresh_from_db()
    assert ev.self_report == "hold"


@pytest.mark.django_db
def test_the_dashboard_says_when_the_tom_file_lacks_the_ids(client, event, organiser):
    client.force_login(organiser)
    dashboard = reverse("staff:dashboard", args=[event.slug])
    body = client.get(dashboard).content.decode()
    assert 'id="tom-ids-missing"' in body
    assert reverse("staff:team", args=[event.slug]) + "#play-pokemon" in body
    services.event_settings_update(
        event=event, by=organiser, sanction_id=SANCTION, organizer_pop_id=POP
    )
    assert 'id="tom-ids-missing"' not in client.get(dashboard).content.decode()


# --- TOM files ---------------------------------------------------------------------------


def _played_event(organiser) -> Event:
    """Four players pasted with Play! IDs 1001–1004 and one without (``p5``); round 1
    played (a bye), one player dropped; the event's IDs set."""
    ev = factories.event_with_players(4, by=organiser, swiss_rounds=3, top_cut_size=0)
    services.registration_add(event=ev, name="No Id Yet", birth_year=1990, by=organiser)
    services.event_settings_update(
        event=ev, by=organiser, sanction_id=SANCTION, organizer_pop_id=POP
    )
    (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=7)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        first = m.seats.get(seat=1).registration
        services.slip_enter(match=m, result=Result.win(first), by=organiser)
    services.registration_drop(registration=ev.registrations.get(external_id="p2"), by=organiser)
    ev.refresh_from_db()
    return ev


PLAY_IDS = {"1001", "1002", "1003", "1004", "p5"}


@pytest.mark.django_db
def test_the_tom_file_names_players_by_play_id_and_carries_the_events_ids(organiser):
    ev = _played_event(organiser)
    t = parse_tdf(event_tdf(event=ev, standings=standings_data(ev)))
    assert {p.userid for p in t.players} == PLAY_IDS
    assert {pid for pod in t.pods for pid in pod.player_ids} == PLAY_IDS
    seated = {pid for pod in t.pods for r in pod.rounds for m in r.matches for pid in m.players}
    assert seated == PLAY_IDS
    winners = {m.winner for pod in t.pods for r in pod.rounds for m in r.matches if m.winner}
    assert winners <= PLAY_IDS and winners
    assert {s.player_id for s in t.standings} == PLAY_IDS
    assert (t.event.id, t.event.organizer_popid) == (SANCTION, POP)


@pytest.mark.django_db
def test_a_tom_round_trip_keeps_the_play_ids_and_the_events_ids(organiser, tmp_path):
    ev = _played_event(organiser)
    path = tmp_path / "cup.tdf"
    run("export_tdf", ev.slug, str(path))
    again = Event.objects.get(slug=run("import_tdf", str(path)).strip().splitlines()[-1])
    assert (again.sanction_id, again.organizer_pop_id) == (SANCTION, POP)
    ids = dict(again.registrations.values_list("external_id", "player__player_id"))
    assert set(ids) == PLAY_IDS and all(k == v for k, v in ids.items())
    assert "id" not in again.source["tdf"]  # one home: the event's field
    assert again.registrations.get(external_id="1002").dropped

    def without_places(e: Event) -> list[str]:  # tied players may swap (docs/file-formats.md)
        text = event_tdf(event=e, standings=standings_data(e))
        return [line for line in text.splitlines() if "place=" not in line]

    assert without_places(again) == without_places(ev)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "old, new, where",
    [
        (f"<id>{SANCTION}</id>", "<id>2025-11-24905</id>", "<data><id>"),
        (f'popid="{POP}"', 'popid="POP-1"', "<data><organizer popid>"),
    ],
)
def test_a_tom_file_with_ids_of_another_form_is_refused_naming_them(
    organiser, tmp_path, old, new, where
):
    ev = _played_event(organiser)
    text = event_tdf(event=ev, standings=standings_data(ev))
    assert old in text
    path = tmp_path / "bad.tdf"
    path.write_text(text.replace(old, new), encoding="utf-8")
    before = Event.objects.count()
    with pytest.raises(CommandError, match=f"{where}: .* is not a"):
        run("import_tdf", str(path))
    assert Event.objects.count() == before


# --- event JSON ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_event_json_keeps_the_ids_and_files_without_them_still_import(organiser, tmp_path):
    ev = _played_event(organiser)
    path = tmp_path / "cup.json"
    run("export_event", ev.slug, str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert (doc["sanction_id"], doc["organizer_pop_id"]) == (SANCTION, POP)
    again = Event.objects.get(slug=run("import_event", str(path)).strip().splitlines()[-1])
    assert (again.sanction_id, again.organizer_pop_id) == (SANCTION, POP)

    del doc["sanction_id"], doc["organizer_pop_id"]  # a file written before
    path.write_text(json.dumps(doc), encoding="utf-8")
    older = Event.objects.get(slug=run("import_event", str(path)).strip().splitlines()[-1])
    assert (older.sanction_id, older.organizer_pop_id) == ("", "")

    doc["sanction_id"] = "25-11"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match="sanction_id: '25-11' is not a sanction ID"):
        run("import_event", str(path))


# --- CSV ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_csv_rows_carry_play_ids_a_dropped_column_and_rounded_percentages(organiser, tmp_path):
    ev = _played_event(organiser)
    (rnd,) = round_pair(event=ev, group="open", by=organiser, seed=8)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        services.slip_enter(match=m, result=Result.draw(), by=organiser)
    path = tmp_path / "standings.csv"
    run("export_csv", ev.slug, "standings", str(path))
    header, *rows = csv.reader(path.read_text(encoding="utf-8-sig").splitlines())
    assert header == [
        "division", "place", "player id", "name", "record", "match points", "OWP", "OOWP",
        "dropped",
    ]  # fmt: skip
    assert {r[2] for r in rows} == PLAY_IDS
    assert {r[2]: r[-1] for r in rows}["1002"] == "true"
    assert [r[-1] for r in rows].count("false") == 4
    exact = {r["player"]: r["exact"] for r in standings_data(ev)["divisions"]["open"]}
    ids = dict(ev.registrations.values_list("player__player_id", "external_id"))
    for r in rows:
        line = exact[ids.get(r[2], r[2])]
        assert (r[6], r[7]) == (decimal_text(line["owp"]), decimal_text(line["oowp"]))
        assert all(len(cell.split(".")[1]) == 6 for cell in r[6:8])
    pairings = pairings_rows(ev)
    assert {cell for row in pairings[1:] for cell in (row[3], row[5]) if cell} <= PLAY_IDS
    assert standings_rows(ev) == [header, *rows]


# --- the migration -------------------------------------------------------------------------

BEFORE = [("tournaments", "0022_live_versions")]
AFTER = [("tournaments", "0023_event_play_ids")]


@pytest.mark.django_db(transaction=True)
def test_migration_0023_moves_imported_ids_from_the_source_to_the_fields():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    OldEvent = executor.loader.project_state(BEFORE).apps.get_model("tournaments", "Event")

    def tdf(sanction, popid):
        return {"tdf": {"id": sanction, "data": {"city": "X", "organizer": [popid, "Ann"]}}}

    OldEvent.objects.create(slug="tom", name="tom", source=tdf(SANCTION, POP))
    OldEvent.objects.create(slug="odd", name="odd", source=tdf("T-1", "P1"))
    OldEvent.objects.create(slug="app", name="app")

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    NewEvent = executor.loader.project_state(AFTER).apps.get_model("tournaments", "Event")
    tom, odd, app = (NewEvent.objects.get(slug=s) for s in ("tom", "odd", "app"))
    assert (tom.sanction_id, tom.organizer_pop_id) == (SANCTION, POP)
    assert tom.source == {"tdf": {"data": {"city": "X", "organizer_name": "Ann"}}}
    assert (odd.sanction_id, odd.organizer_pop_id) == ("", "")  # kept where they were
    assert odd.source["tdf"]["id"] == "T-1"
    assert odd.source["tdf"]["data"]["organizer_name"] == "Ann"
    assert (app.sanction_id, app.source) == ("", {})

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)  # and back
    OldEvent = executor.loader.project_state(BEFORE).apps.get_model("tournaments", "Event")
    assert OldEvent.objects.get(slug="tom").source == tdf(SANCTION, POP)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
