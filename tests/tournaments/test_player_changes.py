"""A player's "Changes" on their staff page read as sentences in the reader's language,
times in the site's time zone: check-in, drop and its undoing, results entered and
corrected (the winner's games first), the deck list, the feature opt-out, corrected
details, and a generic sentence for anything else — never an action key, a field name
or an ISO timestamp."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone, translation

from pairings.services import round_pair
from tests import factories
from tests.pod_factories import play, pod_event
from tests.tournaments.test_game_slips import table
from tournaments import services
from tournaments.models import AuditEvent, Registration
from tournaments.selectors.changes import changes_for_player, local_time
from tournaments.services import Result
from tournaments.services.featured import registration_feature_opt_out

pytestmark = pytest.mark.django_db
ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
MAGIC = "Deck\n4 Lightning Bolt (2XM) 141\n56 Mountain\nSideboard\n4 Duress\n"


@pytest.mark.parametrize(
    ("zone", "shown"), [("UTC", "09:29"), ("Europe/Madrid", "10:29"), ("America/Bogota", "04:29")]
)
def test_an_audit_timestamp_reads_as_a_local_time(zone, shown):
    with override_settings(TIME_ZONE=zone):
        assert local_time("2026-11-27T09:29:15.697253+00:00") == shown
    assert local_time("not a time") == "" and local_time(None) == ""


def _texts(event, reg, language="en") -> list[str]:
    with translation.override(language):
        return [c.text for c in reversed(changes_for_player(event, reg))]


def _at(reg: Registration) -> str:
    return f"{timezone.localtime(reg.checked_in_at):%H:%M}"


def _checked_in_round(checked_in: int = 1):
    """A Magic event of 4 whose second player checked in (at the desk) before round 1,
    then round 1 (started), tables in registration order."""
    org = factories.user("org")
    ev = factories.event_with_players(4, by=org, ruleset="mtg")
    regs = list(ev.registrations.order_by("pk"))
    services.registration_checkin(registration=regs[checked_in], by=org)
    rnd = factories.round_in_order(ev, by=org)
    regs[checked_in].refresh_from_db()
    return ev, rnd, regs, org


def test_a_players_changes_read_as_sentences_in_english_and_spanish():
    ev, rnd, regs, org = _checked_in_round()
    kofi, alice = regs[0], regs[1]
    for reg, name in ((kofi, "Kofi Mensah"), (alice, "Alice Moreno")):
        reg.player.name = name
        reg.player.save(update_fields=["name"])
    services.slip_enter(match=table(rnd, 1), result=Result.of(games=(1, 2, 0)), by=org)
    m = table(rnd, 1)
    services.slip_enter(
        match=m, result=Result.of(games=(2, 1, 0)), version=m.version, by=org, reason="misread"
    )
    services.registration_drop(registration=alice, by=org, reason="feeling ill")
    services.registration_reinstate(registration=alice, by=org)
    registration_feature_opt_out(registration=alice, opt_out=True, by=alice)
    services.player_update(registration=alice, by=org, name="Alice M. Moreno")
    assert _texts(ev, alice) == [
        "Entered the event",
        f"Checked in at {_at(alice)}",
        "Round 1 result entered: Alice M. Moreno wins 2-1-0",
        "Round 1 result corrected: Alice M. Moreno wins 2-1-0 → Kofi Mensah wins 2-1-0",
        "Dropped after round 1",
        "Drop after round 1 undone: back in the event",
        "Asked not to be featured",
        "Details corrected: name Alice Moreno → Alice M. Moreno",
    ]
    assert _texts(ev, alice, "es") == [
        "Inscripción en el torneo",
        f"Llegada registrada a las {_at(alice)}",
        "Resultado de la ronda 1 anotado: Gana Alice M. Moreno 2-1-0",
        "Resultado de la ronda 1 corregido: Gana Alice M. Moreno 2-1-0 → Gana Kofi Mensah 2-1-0",
        "Retirado después de la ronda 1",
        "Retirada tras la ronda 1 anulada: vuelve al torneo",
        "Pidió que no lo destaquen",
        "Datos corregidos: nombre Alice Moreno → Alice M. Moreno",
    ]
    # the opponent's page has the results of their match, none of Alice's own changes
    assert _texts(ev, kofi) == [
        "Entered the event",
        "Round 1 result entered: Alice M. Moreno wins 2-1-0",
        "Round 1 result corrected: Alice M. Moreno wins 2-1-0 → Kofi Mensah wins 2-1-0",
    ]


def test_the_deck_list_undone_check_in_and_other_changes_read_plainly():
    organiser = factories.user("org")
    ev = factories.event_with_players(
        2, by=organiser, ruleset="mtg", options={"rules_enforcement_level": "competitive"}
    )
    reg = ev.registrations.order_by("pk").first()
    services.registration_checkin(registration=reg, by=organiser)
    reg.refresh_from_db()
    was = _at(reg)
    services.registration_checkin(registration=reg, by=organiser, present=False)
    services.decklist_submit(registration=reg, text=MAGIC)
    services.decklist_submit(registration=reg, text=MAGIC)
    services.registration_link_reset(registration=reg, by=organiser)
    services.audit_log(
        event=ev,
        by=organiser,
        action="registration.something",
        obj=reg,
        new={"at": "2026-11-27T09:29:15+00:00"},
    )
    assert _texts(ev, reg) == [
        "Entered the event",
        f"Checked in at {was}",
        f"Check-in undone (had checked in at {was})",
        "Submitted their deck list",
        "Changed their deck list",
        "Given a new private link (the old one stopped working)",
        "Other change: the audit trail has the details",
    ]
    assert _texts(ev, reg, "es")[-4:] == [
        "Envió su lista de mazo",
        "Cambió su lista de mazo",
        "Nuevo enlace privado (el anterior dejó de funcionar)",
        "Otro cambio: el registro de auditoría tiene los detalles",
    ]


def test_the_staff_player_page_lists_the_changes_in_words(client):
    ev, rnd, regs, org = _checked_in_round()
    reg = regs[1]
    registration_feature_opt_out(registration=reg, opt_out=True, by=reg)
    services.slip_enter(match=table(rnd, 1), result=Result.of(games=(0, 2, 0)), by=org)
    client.force_login(org)
    url = reverse("staff:player", args=[ev.slug, reg.pk])
    page = client.get(url).content.decode()
    log = page[page.index('id="player-history"') :]
    log = log[: log.index("</ul>")]
    assert f'Checked in at {_at(reg)} <small class="muted">· org</small>' in log
    assert 'Asked not to be featured <small class="muted">· the player</small>' in log
    assert 'Round 1 result entered: Player 002 wins 2-0-0 <small class="muted">· org</small>' in log
    log = re.sub(r' datetime="[^"]*"', "", log)  # the machine-readable time may be ISO
    for raw in ("registration.checkin", "checked_in_at", "result.enter", "+00:00", "T0", "T1"):
        assert raw not in log, raw
    assert not re.search(r"\d{4}-\d{2}-\d{2}", log)
    spanish = client.get(url, **ES).content.decode()
    assert f'Llegada registrada a las {_at(reg)} <small class="muted">· org</small>' in spanish
    assert 'Pidió que no lo destaquen <small class="muted">· el jugador</small>' in spanish
    assert "Resultado de la ronda 1 anotado: Gana Player 002 2-0-0" in spanish


def test_the_change_log_needs_a_fixed_number_of_queries(django_assert_num_queries):
    ev, rnd, regs, org = _checked_in_round()
    for n in (1, 2):
        services.slip_enter(match=table(rnd, n), result=Result.of(games=(0, 2, 0)), by=org)
    with django_assert_num_queries(3):
        changes = changes_for_player(ev, regs[1])
    assert len(changes) == 3  # entered the event, checked in, their result
    assert AuditEvent.objects.filter(event=ev).count() > len(changes)
    assert isinstance(changes[0].at, dt.datetime)


def test_a_pods_result_is_named_without_its_stored_english_text(organiser):
    """A pod's result is kept in the audit trail as English text: the log says that
    the result was entered, in the reader's language, and leaves the text to the trail."""
    event = pod_event(4, by=organiser)
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=1)
    play(rnd, organiser)
    reg = event.registrations.order_by("pk").first()
    assert _texts(event, reg)[-1] == "Round 1 result entered"
    assert _texts(event, reg, "es")[-1] == "Resultado de la ronda 1 anotado"
