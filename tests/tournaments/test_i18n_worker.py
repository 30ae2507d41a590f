"""Texts written where no language is active, shown in the reader's language:
a pairing run's note or error and an import job's error are written by a worker and
stored language-neutrally (``tournaments.stored_text``); the staff page translates them.
The pure rulesets' refusals and notes (``rulesets.i18n.Text``) are translated where a
page shows them."""

from __future__ import annotations

import json

import pytest
from django.core.management import get_commands
from django.urls import reverse
from django.utils import timezone, translation

from interchange.services.import_jobs import import_job_create, import_job_execute
from pairings.services import pairing_run_execute, round_pair
from rulesets import get_ruleset
from rulesets.tables import recommend
from tests import factories
from tests.paths import DATA
from tournaments.management.commands import makemessages
from tournaments.management.commands.makemessages import STORED_TEXT_KEYWORD
from tournaments.models import (
    BackgroundRun,
    BackgroundRunStatus,
    ImportFormat,
    ImportJob,
    ImportJobStatus,
)
from tournaments.stored_text import deferred, gettext_storable, import_stage, shown, stored

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("i18n")]

PAIRING = BackgroundRun.Kind.PAIRING
TDF = DATA / "pokemon" / "2025-dg-nov-cup.tdf"
ES, EN = "es-ES,es;q=0.9", "en-GB,en;q=0.9"


def _get(client, url: str, lang: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def _as_worker(work, language: str | None) -> None:
    """Run ``work()`` as a worker would: no language active (None), or another one."""
    with translation.override(language):
        work()


# --- pairing runs ----------------------------------------------------------------------


@pytest.mark.parametrize("worker_language", [None, "es"])
def test_a_superseded_run_note_is_shown_in_the_readers_language(client, organiser, worker_language):
    event = factories.event_with_players(4, by=organiser, name="Copa")
    run = BackgroundRun.objects.create(
        event=event, kind=PAIRING, group="open", task="pairings.tasks.pair_round", round_number=6
    )
    _as_worker(lambda: pairing_run_execute(run.pk), worker_language)
    run.refresh_from_db()
    assert run.status == BackgroundRunStatus.DONE and not event.rounds.exists()
    # Stored language-neutrally, whatever language the worker had.
    assert json.loads(run.note) == {
        "msgid": "Superseded: round %(asked)s is no longer the next round (round %(number)s"
        " is); nothing was paired.",
        "params": {"asked": 6, "number": 1},
    }
    client.force_login(organiser)
    url = reverse("staff:run", args=[event.slug, run.pk])
    es = _get(client, url, ES)
    assert (
        "Sustituido: la ronda 6 ya no es la siguiente (lo es la ronda 1); no se emparejó nada."
        in es
    )
    assert "Superseded" not in es and "Paired." not in es
    en = _get(client, url, EN)
    assert "Superseded: round 6 is no longer the next round (round 1 is); nothing was paired." in en
    assert "Sustituido" not in en


def test_a_run_finding_a_round_paired_meanwhile_notes_it_in_the_readers_language(client, organiser):
    event = factories.event_with_players(4, by=organiser, name="Copa")
    run = BackgroundRun.objects.create(
        event=event, kind=PAIRING, group="open", task="pairings.tasks.pair_round", round_number=1
    )
    (paired,) = round_pair(event=event, group="open", by=organiser, seed=7)  # another path
    _as_worker(lambda: pairing_run_execute(run.pk), None)
    at = f"{timezone.localtime(paired.paired_at):%H:%M}"
    client.force_login(organiser)
    url = reverse("staff:run", args=[event.slug, run.pk])
    assert (
        f"Sustituido: la ronda 1 se emparejó mientras tanto ({at}); no se emparejó nada."
        in _get(client, url, ES)
    )
    assert f"Superseded: round 1 was paired meanwhile ({at}); nothing was paired." in _get(
        client, url, EN
    )


def test_nothing_to_pair_nests_the_steps_sentence_and_translates_both(client, organiser):
    event = factories.event_with_players(4, by=organiser, name="Copa")
    round_pair(event=event, group="open", by=organiser, seed=7)  # round 1 paired, not published
    run = BackgroundRun.objects.create(
        event=event, kind=PAIRING, group="open", task="pairings.tasks.pair_round"
    )
    _as_worker(lambda: pairing_run_execute(run.pk), None)
    client.force_login(organiser)
    url = reverse("staff:run", args=[event.slug, run.pk])
    assert "Nada que emparejar: La ronda 1 está emparejada: revísala y publícala." in _get(
        client, url, ES
    )
    assert "Nothing to pair: Round 1 is paired: review and publish it." in _get(client, url, EN)


def test_a_failed_runs_refusal_is_shown_in_the_readers_language(client, organiser):
    """R-6 refused in the worker (round 1 started, results missing): the failure on the
    dashboard and the run page is in the reader's language."""
    event = factories.event_with_players(4, by=organiser, name="Copa")
    factories.round_in_order(event, by=organiser)  # started, no results
    run = BackgroundRun.objects.create(
        event=event, kind=PAIRING, group="open", task="pairings.tasks.pair_round"
    )
    _as_worker(lambda: pairing_run_execute(run.pk), None)
    run.refresh_from_db()
    assert run.status == BackgroundRunStatus.FAILED
    client.force_login(organiser)
    for url in (
        reverse("staff:run", args=[event.slug, run.pk]),
        reverse("staff:dashboard", args=[event.slug]),
    ):
        es, en = _get(client, url, ES), _get(client, url, EN)
        assert "A la ronda 1 aún le faltan 2 resultado(s)." in " ".join(es.split()), url
        assert "Round 1 still has 2 result(s) missing." in en, url
        assert "still has" not in es and "aún le faltan" not in en


def test_an_unexpected_failure_and_an_old_english_row_are_shown_as_well_as_can_be(
    client, organiser
):
    event = factories.event_with_players(4, by=organiser, name="Copa")
    failed = BackgroundRunStatus.FAILED
    unexpected = BackgroundRun.objects.create(
        event=event,
        kind=PAIRING,
        group="open",
        status=failed,
        error="Pairing failed because of an unexpected error; it has been logged.",
    )
    client.force_login(organiser)
    url = reverse("staff:run", args=[event.slug, unexpected.pk])
    assert "El emparejamiento falló por un error inesperado" in _get(client, url, ES)
    BackgroundRun.objects.filter(pk=unexpected.pk).update(error="A text from an older version.")
    assert "A text from an older version." in _get(client, url, ES)  # as stored


# --- import jobs -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "fmt", "spanish", "english"),
    [
        (
            "cup.json",
            b"{\xff}",
            ImportFormat.EVENT_JSON,
            "no es texto UTF-8 (byte 1)",
            "not UTF-8 text (byte 1)",
        ),
        (
            "cup.tdf",
            TDF.read_bytes().replace(b'outcome="5"', b'outcome="7"', 1),
            ImportFormat.TDF,
            "código de resultado desconocido 7",
            "unknown outcome code 7",
        ),
    ],
)
@pytest.mark.parametrize("worker_language", [None, "es"])
def test_a_refused_import_job_is_shown_in_the_readers_language(
    client, organiser, name, content, fmt, spanish, english, worker_language
):
    job = import_job_create(filename=name, content=content, format=fmt, by=organiser)
    _as_worker(lambda: import_job_execute(job.pk), worker_language)
    job.refresh_from_db()
    assert job.status == ImportJobStatus.FAILED and job.error.startswith('{"msgid": ')
    client.force_login(organiser)
    url = reverse("staff:import_job", args=[job.pk])
    es, en = _get(client, url, ES), _get(client, url, EN)
    assert "No se importó nada." in es and spanish in es and english not in es
    assert "Nothing was imported." in en and english in en and spanish not in en


def test_an_import_stage_and_a_lost_worker_are_shown_in_the_readers_language(client, organiser):
    job = ImportJob.objects.create(
        format=ImportFormat.TDF,
        filename="cup.tdf",
        size=1,
        content=b"x",
        requested_by=organiser,
        status=ImportJobStatus.RUNNING,
        stage="Writing 1,200 players",
        units_total=10,
    )
    client.force_login(organiser)
    url = reverse("staff:import_job", args=[job.pk])
    assert "Guardando 1" in _get(client, url, ES) and "Writing" not in _get(client, url, ES)
    assert "Writing 1,200 players" in _get(client, url, EN)
    lost = deferred(
        "The worker importing this file stopped (last seen %(seen)s); nothing was imported."
        " Try again.",
        seen="10:42:07",
    )
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJobStatus.FAILED, error=lost)
    assert "visto por última vez a las 10:42:07" in _get(client, url, ES)
    assert "last seen 10:42:07" in _get(client, url, EN)


def test_stored_messages_round_trip_and_fall_back():
    with translation.override("es"):
        text = stored(ValueError(get_ruleset("mtg").cut_problem(3)))
    assert text.startswith('{"msgid": ')
    with translation.override("es"):
        assert shown(text).startswith("Un corte de Magic")
        assert import_stage("Reading the file") == "Leyendo el archivo"
        assert shown('{"msgid": not json') == '{"msgid": not json'  # shown as stored
        assert shown("") == ""
    with translation.override("en"):
        assert shown(text) == "A Magic: The Gathering, head-to-head top cut has 0 (none) or" + (
            " 2, 4, 8, 16, 32, 64 players, not 3."
        )


# --- the pure rulesets' refusals and notes -----------------------------------------------


@pytest.mark.parametrize(
    ("lang", "problem"),
    [
        ("en", "Swiss plus top cut needs a top cut: choose its size, or choose Swiss."),
        ("es", "Suizo más corte necesita un corte: elige su tamaño, o elige Suizo."),
    ],
)
def test_a_rulesets_structure_refusal_is_shown_on_the_new_event_page_in_the_visitors_language(
    client, organiser, lang, problem
):
    client.force_login(organiser)
    response = client.post(
        reverse("staff:event_create"),
        {
            "name": "Copa",
            "ruleset": "mtg",
            "structure": "swiss-top-cut",
            "divisions": "open",
            "swiss_rounds": 5,
            "top_cut_size": 0,
        },
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 200
    errors = [e for field in response.context["form"].errors.values() for e in field]
    assert problem in errors


@pytest.mark.parametrize(
    ("lang", "problem"),
    [
        ("en", "The Magic multiplayer, pods of 4 table starts at 4 players, got 3."),
        ("es", "La tabla de Magic multijugador, grupos de 4 empieza en 4 jugadores; hay 3."),
    ],
)
def test_a_round_tables_refusal_is_shown_on_the_settings_page_in_the_visitors_language(
    client, organiser, lang, problem
):
    event = factories.event_with_players(3, by=organiser, ruleset="mtg-multiplayer")
    client.force_login(organiser)
    body = _get(client, reverse("staff:team", args=[event.slug]) + "?players=3", lang)
    assert problem in body


def test_a_round_tables_note_is_shown_in_the_visitors_language():
    note = recommend(get_ruleset("bo3-wins-against").table(), 5000).notes[0]
    assert note.startswith("Beyond the table's last row")  # English where nothing translates
    with translation.override("es"):
        assert shown(note).startswith("Más allá de la última fila de la tabla")


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        ("en", "Not enough tables: a round needs 200, the hall has 10."),
        ("es", "No hay mesas suficientes: una ronda necesita 200 y la sala tiene 10."),
    ],
)
def test_the_planners_note_is_shown_on_the_new_event_page_in_the_visitors_language(
    client, organiser, lang, note
):
    client.force_login(organiser)
    url = reverse("staff:event_create") + "?ruleset=mtg&players=400&tables=10"
    body = _get(client, url, lang)
    assert note in body


def test_a_storable_text_is_translated_now_and_stored_language_neutrally():
    """``gettext_storable`` is Django's ``gettext`` that keeps its msgid and params: the
    text in the active language, the stored form the msgid, shown later in the reader's."""
    with translation.override("es"):
        text = gettext_storable("Pair Swiss round %(number)s of %(total)s.") % {
            "number": 2,
            "total": 5,
        }
        assert text == "Emparejar la ronda suiza 2 de 5."
    assert json.loads(stored(text)) == {
        "msgid": "Pair Swiss round %(number)s of %(total)s.",
        "params": {"number": 2, "total": 5},
    }
    assert shown(stored(text)) == "Pair Swiss round 2 of 5."


def test_makemessages_extracts_the_storable_texts():
    """``manage.py makemessages`` is the project's, which tells xgettext the
    ``gettext_storable`` keyword, so the stored texts reach the catalogue."""
    assert get_commands()["makemessages"] == "tournaments"
    assert STORED_TEXT_KEYWORD == "--keyword=gettext_storable"
    assert STORED_TEXT_KEYWORD in makemessages.Command.xgettext_options
