"""Deck lists from players (P-POST-5): which events collect them, the
player's own list on their private link until the deadline (staff reopen one), the
ruleset's checks on every list a player submits, judges reading any list, the deck-check
draw opening the drawn lists, missing lists at the cut, and the lists published after
the event when the organiser chooses."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from pairings.services import round_pair
from tests import factories
from tournaments import services
from tournaments.errors import DecklistRefused, InvalidInput
from tournaments.models import AuditEvent, Event, Outcome, Phase, Registration, StaffRole
from tournaments.services import Result
from tournaments.services import player_decklists as decks

from .test_i18n import _data_words, _translated_msgids, english_leftovers, spanish_leftovers

pytestmark = pytest.mark.django_db

LEGAL = "Pokémon: 8\n4 Pikachu ex SVI 057\n4 Raichu SVI 58\nEnergy: 52\n52 Lightning Energy\n"
SIXTY_ONE = LEGAL.replace("52 Lightning Energy", "53 Lightning Energy")
MAGIC = "Deck\n4 Lightning Bolt (2XM) 141\n56 Mountain\nSideboard\n15 Duress\n"


def cp_event(organiser, n=4, **kwargs):
    return factories.event_with_players(n, by=organiser, awards_championship_points=True, **kwargs)


def link(reg, name="public:player_decklist"):
    return reverse(name, args=[reg.event.slug, reg.report_token])


def play(rnd, by):
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    for m in rnd.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        winner = m.seats.order_by("seat").first().registration
        services.slip_enter(match=m, result=Result.win(winner), by=by)


@pytest.mark.parametrize(
    ("ruleset", "kwargs", "collected"),
    [
        ("pokemon", {"awards_championship_points": True}, True),
        ("pokemon", {}, False),
        ("mtg", {"options": {"rules_enforcement_level": "competitive"}}, True),
        ("mtg", {"options": {"rules_enforcement_level": "regular"}}, False),
        ("mtg-multiplayer", {}, False),
    ],
)
def test_P_POST_5_cp_and_competitive_events_collect_lists_by_default(
    organiser, ruleset, kwargs, collected
):
    ev = factories.event(by=organiser, ruleset=ruleset, **kwargs)
    assert ev.collects_decklists is collected


def test_the_organiser_turns_lists_on_or_off_whatever_the_default(organiser):
    ev = factories.event(by=organiser)
    services_update = decks.decklist_settings_update
    services_update(event=ev, by=organiser, required=True, public=False)
    assert Event.objects.get(pk=ev.pk).collects_decklists
    cp = cp_event(organiser)
    services_update(event=cp, by=organiser, required=False, public=True)
    cp = Event.objects.get(pk=cp.pk)
    assert not cp.collects_decklists and cp.decklists_public
    row = AuditEvent.objects.filter(action="decklist.settings").latest("pk")
    assert (row.old, row.new) == (
        {"required": None, "public": False},
        {"required": False, "public": True},
    )
    reg = cp.registrations.first()
    with pytest.raises(InvalidInput, match="does not collect deck lists"):
        decks.decklist_submit(registration=reg, text=LEGAL)
    with pytest.raises(InvalidInput, match="does not collect deck lists"):
        services.decklist_record(registration=reg, by=organiser)


def test_a_61_card_list_is_refused_naming_the_count_and_changes_nothing(organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.first()
    with pytest.raises(DecklistRefused) as refused:
        decks.decklist_submit(registration=reg, text=SIXTY_ONE)
    assert refused.value.problems == ("The deck has 61 cards; it must have exactly 60.",)
    reg.refresh_from_db()
    assert (reg.decklist, reg.decklist_received_at) == ("", None)
    assert not AuditEvent.objects.filter(action="decklist.submit").exists()


def test_a_legal_list_is_kept_and_audited_as_the_player(organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.first()
    decks.decklist_submit(registration=reg, text="\n" + LEGAL)
    reg.refresh_from_db()
    assert reg.decklist == LEGAL.strip() and reg.decklist_received_at is not None
    row = AuditEvent.objects.get(action="decklist.submit")
    assert (row.actor, row.actor_registration) == (None, reg)
    assert row.new == {
        "received": True,
        "chars": len(LEGAL.strip()),
        "main": 60,
        "sideboard": 0,
        "reopened": False,
    }
    decks.decklist_submit(registration=reg, text=LEGAL.replace("52 Lightning", "52 Basic {L}"))
    reg.refresh_from_db()
    assert "Basic {L} Energy" in reg.decklist  # edited until the deadline


def test_a_magic_list_is_checked_by_the_magic_rules(organiser):
    ev = factories.event_with_players(
        2, by=organiser, ruleset="mtg", options={"rules_enforcement_level": "competitive"}
    )
    reg = ev.registrations.first()
    with pytest.raises(DecklistRefused) as refused:
        decks.decklist_submit(registration=reg, text=MAGIC.replace("15 Duress", "16 Duress"))
    assert refused.value.problems == (
        "Line 5: 16 cards named Duress; at most 4.",
        "The sideboard has 16 cards; at most 15.",
    )
    legal = MAGIC.replace("15 Duress", "4 Duress\n4 Pyroclasm\n4 Smash to Smithereens\n3 Roil")
    decks.decklist_submit(registration=reg, text=legal)
    reading = decks.decklist_reading(ev, Registration.objects.get(pk=reg.pk).decklist)
    assert (reading.main_count, reading.sideboard_count, reading.problems) == (60, 15, ())
    assert reading.main == ((4, "Lightning Bolt"), (56, "Mountain"))


def test_the_deadline_locks_the_list_and_staff_reopen_it_for_one_submission(organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.first()
    deadline = timezone.now() + dt.timedelta(hours=1)
    decks.decklist_deadline_set(event=ev, by=organiser, deadline=deadline)
    later = deadline + dt.timedelta(minutes=1)
    decks.decklist_submit(registration=reg, text=LEGAL)  # before the deadline
    reg.refresh_from_db()
    assert decks.decklist_window(reg, later).open is False
    with pytest.raises(InvalidInput, match="deadline for deck lists has passed"):
        decks.decklist_submit(registration=reg, text=LEGAL, now=later)
    judge = factories.staff(ev, StaffRole.JUDGE)
    decks.decklist_reopen(registration=reg, by=judge)
    reg.refresh_from_db()
    assert decks.decklist_window(reg, later).reopened
    decks.decklist_submit(
        registration=reg, text=LEGAL.replace("Raichu SVI 58", "Raichu"), now=later
    )
    reg.refresh_from_db()
    assert not reg.decklist_reopened and "4 Raichu\n" in reg.decklist  # locked again
    with pytest.raises(InvalidInput, match="deadline"):
        decks.decklist_submit(registration=reg, text=LEGAL, now=later)
    actions = list(
        AuditEvent.objects.filter(action__startswith="decklist.")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["decklist.deadline", "decklist.submit", "decklist.reopen", "decklist.submit"]


def test_without_a_deadline_lists_close_when_round_1_starts(organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.order_by("pk").first()
    assert decks.decklist_window(reg).open
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    services.round_publish(round=r1, by=organiser)
    assert decks.decklist_window(reg).open  # published, not started
    services.round_start(round=r1, by=organiser)
    window = decks.decklist_window(reg)
    assert not window.open and "round 1 started" in window.reason


def test_a_dropped_player_cannot_submit(organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.first()
    services.registration_drop(registration=reg, by=organiser)
    reg.refresh_from_db()
    with pytest.raises(InvalidInput, match="no longer play"):
        decks.decklist_submit(registration=reg, text=LEGAL)


def test_staff_entry_stays_possible_and_the_judge_sees_what_the_rules_refuse(client, organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.first()
    services.decklist_record(registration=reg, by=organiser, text=SIXTY_ONE)  # a paper list
    judge = factories.staff(ev, StaffRole.JUDGE)
    client.force_login(judge)
    body = client.get(reverse("staff:decklist_read", args=[ev.slug, reg.pk])).content.decode()
    assert "The deck has 61 cards; it must have exactly 60." in body
    assert "<td>4</td><td><bdi>Pikachu ex</bdi></td>" in body


def test_the_player_page_refuses_a_61_card_list_then_takes_a_legal_one(client, organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.first()
    home = client.get(reverse("public:player", args=[ev.slug, reg.report_token])).content.decode()
    assert 'id="player-decklist"' in home and "Submit your deck list" in home
    refused = client.post(link(reg), {"text": SIXTY_ONE})
    body = refused.content.decode()
    assert refused.status_code == 422 and refused["Cache-Control"] == "private, no-store"
    assert "The deck has 61 cards; it must have exactly 60." in body
    assert "53 Lightning Energy" in body  # the text is kept as typed
    accepted = client.post(link(reg), {"text": LEGAL})
    assert accepted.status_code == 302 and accepted.url == link(reg)
    page = client.get(link(reg)).content.decode()
    assert "Your deck list is in. Thank you!" in page and "Main deck: 60 cards." in page


def test_the_player_page_is_404_where_no_lists_are_collected(client, event8):
    reg = event8.registrations.first()
    assert client.get(link(reg)).status_code == 404
    home = client.get(reverse("public:player", args=[event8.slug, reg.report_token]))
    assert 'id="player-decklist"' not in home.content.decode()


def test_the_staff_page_sets_the_deadline_and_reopens_one_list(client, organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.first()
    scorekeeper = factories.staff(ev, StaffRole.SCOREKEEPER)
    client.force_login(scorekeeper)
    url = reverse("staff:decklist_deadline", args=[ev.slug])
    client.post(url, {"deadline": "2031-05-01T09:30"})
    ev.refresh_from_db()
    assert timezone.localtime(ev.decklist_deadline).strftime("%Y-%m-%d %H:%M") == "2031-05-01 09:30"
    client.post(url, {"deadline": ""})
    ev.refresh_from_db()
    assert ev.decklist_deadline is None
    decks.decklist_submit(registration=reg, text=LEGAL)  # only a list handed in reopens
    reopen = reverse("staff:decklist_reopen", args=[ev.slug, reg.pk])
    client.post(reopen, {"reopen": "1", "next": "decklists"})
    assert Registration.objects.get(pk=reg.pk).decklist_reopened
    page = client.get(reverse("staff:decklists", args=[ev.slug])).content.decode()
    assert "data-reopened" in page and 'name="required"' not in page  # organisers only
    client.post(reopen, {"reopen": "0"})
    assert not Registration.objects.get(pk=reg.pk).decklist_reopened
    assert client.post(reverse("staff:decklist_settings", args=[ev.slug])).status_code == 403


def test_the_deck_check_draw_opens_the_drawn_lists(client, organiser):
    ev = cp_event(organiser, 4)
    regs = list(ev.registrations.order_by("pk"))
    for reg in regs:
        decks.decklist_submit(registration=reg, text=LEGAL.replace("Raichu", f"Raichu {reg.pk}"))
    round_pair(event=ev, group="open", by=organiser, seed=1)
    picked = services.deck_check_draw(event=ev, count=2, by=organiser, seed=7)
    client.force_login(factories.staff(ev, StaffRole.JUDGE))
    body = client.get(reverse("staff:decklists", args=[ev.slug])).content.decode()
    section = body.split('id="deck-check"')[1].split("</section>")[0]
    assert section.count('<details class="drawn-list" open>') == 2
    for reg in picked:
        assert f"4 Raichu {reg.pk} SVI 58" in section
        assert reverse("staff:decklist_read", args=[ev.slug, reg.pk]) in section


def test_P_POST_5_a_competitive_magic_cut_flags_missing_lists(organiser):
    ev = factories.event_with_players(
        8,
        by=organiser,
        ruleset="mtg",
        options={"rules_enforcement_level": "competitive"},
        swiss_rounds=1,
        top_cut_size=2,
    )
    (r1,) = round_pair(event=ev, group="open", by=organiser, seed=1)
    services.round_publish(round=r1, by=organiser)
    services.round_start(round=r1, by=organiser)
    for m in r1.matches.filter(outcome=Outcome.PENDING).prefetch_related("seats"):
        services.slip_enter(match=m, by=organiser, result=Result.of(games=(2, 0, 0)))
    (cut,) = round_pair(event=ev, group="open", by=organiser)
    assert cut.phase == Phase.TOP_CUT
    assert cut.notes[0].startswith("Deck list missing for 2 cut player(s): ")


def test_published_lists_are_public_only_once_the_event_is_finished(client, organiser):
    ev = cp_event(organiser, 2)
    reg = ev.registrations.first()
    decks.decklist_submit(registration=reg, text=LEGAL)
    decks.decklist_settings_update(event=ev, by=organiser, required=None, public=True)
    index = reverse("public:decklists", args=[ev.slug])
    one = reverse("public:decklist", args=[ev.slug, reg.pk])
    assert client.get(index).status_code == 404 and client.get(one).status_code == 404
    services.event_finish(event=ev, by=organiser)
    body = client.get(index).content.decode()
    assert one in body and ev.registrations.last().player.name not in body  # no list, no link
    page = client.get(one).content.decode()
    assert "<td>52</td><td><bdi>Lightning Energy</bdi></td>" in page
    assert (
        'id="published-decklists-link"'
        in client.get(reverse("public:event", args=[ev.slug])).content.decode()
    )
    other = ev.registrations.last()
    assert client.get(reverse("public:decklist", args=[ev.slug, other.pk])).status_code == 404


def test_spanish_refusals_name_the_line_and_the_count(client, organiser):
    ev = cp_event(organiser)
    reg = ev.registrations.first()
    client.cookies["django_language"] = "es"
    body = client.post(link(reg), {"text": "4 Pikachu ex\nPikachu\n" + SIXTY_ONE}).content.decode()
    assert "Línea 2: «Pikachu» no es una línea de carta" in body
    body = client.post(link(reg), {"text": SIXTY_ONE}).content.decode()
    assert "El mazo tiene 61 cartas; debe tener exactamente 60." in body


def test_the_new_pages_are_all_spanish_and_all_english(client, organiser):
    """Every text of the deck list pages (the player's, the staff page with a deck check
    drawn and a list reopened, the judge's reading with a paper list's problems, the
    published lists) is translated: no English left in Spanish, no Spanish in English."""
    ev = cp_event(organiser, 4)
    regs = list(ev.registrations.order_by("pk"))
    decks.decklist_submit(registration=regs[0], text=LEGAL)
    services.decklist_record(registration=regs[1], by=organiser, text=SIXTY_ONE + "SB: 1 X")
    decks.decklist_submit(registration=regs[2], text=LEGAL)
    decks.decklist_reopen(registration=regs[2], by=organiser)
    decks.decklist_deadline_set(
        event=ev, by=organiser, deadline=timezone.now() + dt.timedelta(hours=2)
    )
    round_pair(event=ev, group="open", by=organiser, seed=1)
    services.deck_check_draw(event=ev, count=2, by=organiser, seed=3)
    urls = [
        link(regs[0]),
        link(regs[2]),
        link(regs[3]),
        reverse("staff:decklists", args=[ev.slug]),
        reverse("staff:decklist_read", args=[ev.slug, regs[1].pk]),
        reverse("staff:decklist_read", args=[ev.slug, regs[3].pk]),
    ]
    msgids, data = _translated_msgids(), _data_words()
    client.force_login(organiser)
    found = {}
    for url in urls:
        es = client.get(url, HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9").content.decode()
        en = client.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
        left = english_leftovers(es, msgids, data) + spanish_leftovers(en)
        if left:
            found[url] = left
    decks.decklist_settings_update(event=ev, by=organiser, required=True, public=True)
    services.event_finish(event=ev, by=organiser)
    for url in (
        reverse("public:decklists", args=[ev.slug]),
        reverse("public:decklist", args=[ev.slug, regs[0].pk]),
        link(regs[0]),  # locked: the event is finished
    ):
        es = client.get(url, HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9").content.decode()
        en = client.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
        left = english_leftovers(es, msgids, data) + spanish_leftovers(en)
        if left:
            found[url] = left
    assert not found, found
    spanish = client.get(
        reverse("staff:decklist_read", args=[ev.slug, regs[1].pk]),
        HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9",
    ).content.decode()
    assert "El mazo tiene 61 cartas; debe tener exactamente 60." in spanish
    assert "Este juego no tiene banquillo: hay 1 cartas en uno." in spanish


# --- reopening only a list handed in -----------------------------------------------------


def test_a_missing_list_is_not_offered_for_reopening(client, organiser):
    ev = cp_event(organiser, 3)
    handed, missing, paper = ev.registrations.order_by("pk")
    decks.decklist_submit(registration=handed, text=LEGAL)
    services.decklist_record(registration=paper, by=organiser)  # on paper, not typed in
    client.force_login(organiser)
    page = client.get(reverse("staff:decklists", args=[ev.slug])).content.decode()
    assert "Reopen for Player 001" in page and "Reopen for Player 003" in page
    assert "Reopen for Player 002" not in page
    read = reverse("staff:decklist_read", args=[ev.slug, missing.pk])
    assert "Reopen for this player" not in client.get(read).content.decode()
    read = reverse("staff:decklist_read", args=[ev.slug, handed.pk])
    assert "Reopen for this player" in client.get(read).content.decode()


def test_reopening_a_list_never_handed_in_is_refused_and_changes_nothing(client, organiser):
    ev = cp_event(organiser, 2)
    missing = ev.registrations.order_by("pk")[1]
    with pytest.raises(InvalidInput) as refused:
        decks.decklist_reopen(registration=missing, by=organiser)
    assert str(refused.value) == (
        "Player 002 has not handed in a deck list: there is none to reopen. "
        "Type in a list handed in on paper with Received."
    )
    client.force_login(organiser)
    url = reverse("staff:decklist_reopen", args=[ev.slug, missing.pk])
    page = client.post(url, {"reopen": "1", "next": "decklists"}, follow=True).content.decode()
    assert "Player 002 has not handed in a deck list: there is none to reopen." in page
    assert not Registration.objects.get(pk=missing.pk).decklist_reopened
    assert not AuditEvent.objects.filter(action="decklist.reopen").exists()


# --- the game's own example ---------------------------------------------------------------


def magic_event(organiser, n=2):
    return factories.event_with_players(
        n, by=organiser, ruleset="mtg", options={"rules_enforcement_level": "competitive"}
    )


def test_a_magic_events_list_help_shows_a_magic_example(client, organiser):
    reg = magic_event(organiser).registrations.first()
    page = client.get(link(reg)).content.decode()
    assert (
        '<p class="muted" id="decklist-help">One line per card: the count, then the name '
        "(4 Lightning Bolt). Set codes may stay ((2XM) 141). A Sideboard header starts the "
        "sideboard.</p>" in page
    )
    assert "Pikachu" not in page and "SVI" not in page
    client.cookies["django_language"] = "es"
    page = client.get(link(reg)).content.decode()
    assert (
        "Una línea por carta: el número de copias y luego el nombre (4 Lightning Bolt). "
        "Los códigos de expansión pueden quedarse ((2XM) 141). Una cabecera Sideboard o "
        "Banquillo empieza el banquillo.</p>" in page
    )
    assert "Pikachu" not in page


def test_a_pokemon_events_list_help_shows_a_pokemon_example_and_no_sideboard(client, organiser):
    reg = cp_event(organiser).registrations.first()
    page = client.get(link(reg)).content.decode()
    assert (
        '<p class="muted" id="decklist-help">One line per card: the count, then the name '
        "(4 Pikachu ex). Set codes may stay (SVI 057, PR-SV 161).</p>" in page
    )


def test_a_game_without_an_example_says_the_rule_alone(organiser):
    ev = factories.event(by=organiser, ruleset="bo3-wins-against")
    decks.decklist_settings_update(event=ev, by=organiser, required=True, public=False)
    assert decks.decklist_help(ev) == (
        "One line per card: the count, then the name. A Sideboard header starts the sideboard."
    )
    with pytest.raises(DecklistRefused) as refused:
        decks.decklist_check(ev, "Lightning Bolt x4")
    assert refused.value.problems == (
        "Line 1: “Lightning Bolt x4” is not a card line: write the count, then the card's name.",
    )
    with pytest.raises(InvalidInput) as empty:
        decks.decklist_check(ev, " ")
    assert str(empty.value) == (
        "Paste or type your list: one line per card, the count then the name."
    )


def test_a_magic_players_refusals_name_a_magic_card(client, organiser):
    reg = magic_event(organiser).registrations.first()
    with pytest.raises(InvalidInput) as empty:
        decks.decklist_submit(registration=reg, text="\n")
    assert str(empty.value) == "Paste or type your list: one line per card, like 4 Lightning Bolt."
    body = client.post(link(reg), {"text": "Lightning Bolt x4\n56 Mountain"}).content.decode()
    assert (
        "Line 1: “Lightning Bolt x4” is not a card line: write the count, then the card&#x27;s "
        "name (4 Lightning Bolt)." in body
    )
    client.cookies["django_language"] = "es"
    body = client.post(link(reg), {"text": "Lightning Bolt x4\n56 Mountain"}).content.decode()
    assert (
        "Línea 1: «Lightning Bolt x4» no es una línea de carta: escribe el número de copias y "
        "luego el nombre de la carta (4 Lightning Bolt)." in body
    )
    assert "Pikachu" not in body
