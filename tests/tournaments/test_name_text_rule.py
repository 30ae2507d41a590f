"""One text rule for names (``tournaments.text``) on every path — the
forms, the pasted lists and sheets, every import — and names isolated for bidirectional
text on the pages. The hostile-file cases of the imports are in ``test_hostile_files``."""

from __future__ import annotations

import json
import unicodedata

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interchange.formats.event_json import parse_event_json
from interchange.formats.melee import MeleeError, melee_to_event_data
from interchange.services.imports import event_import
from standings.models import StandingsSnapshot
from tests import factories
from tests.tournaments.roundtrip import tdf_reimport
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import AuditEvent, Event, Player, Registration
from tournaments.text import BIDI_CONTROLS, TextRefused, clean_name, name_problem

MODELS = (Event, Player, Registration, AuditEvent)


def rows() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in MODELS}


# --- the rule ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("Ash\x0bKetchum", "Name: contains the control character U+000B, which a name cannot hold"),
        ("Ash\x1b[31m", "Name: contains the control character U+001B, which a name cannot hold"),
        ("Ash\tKetchum", "Name: contains the control character U+0009, which a name cannot hold"),
        ("Ash\nKetchum", "Name: contains the control character U+000A, which a name cannot hold"),
        ("Ash\x7f", "Name: contains the control character U+007F, which a name cannot hold"),
        ("Ash\x85", "Name: contains the control character U+0085, which a name cannot hold"),
        ("Ash\x00", "Name: contains the control character U+0000, which a name cannot hold"),
        (
            "Ash\u202eKetchum",
            "Name: contains the bidirectional control U+202E, which a name cannot hold",
        ),
        (
            "\u2066Ash\u2069",
            "Name: contains the bidirectional control U+2066, which a name cannot hold",
        ),
        ("Ash\u202a", "Name: contains the bidirectional control U+202A, which a name cannot hold"),
        ("Ash\ufffe", "Name: contains U+FFFE, which is not a character"),
        ("\u200b", "Name: has only invisible characters (U+200B)"),
        (
            " \u200e\u200f\ufeff\u200b\u200b ",
            "Name: has only invisible characters (U+200E, U+200F, U+FEFF, U+200B)",
        ),
        ("\u00ad", "Name: has only invisible characters (U+00AD)"),
        ("   ", "Name: must not be empty"),
        ("", "Name: must not be empty"),
    ],
)
def test_the_rule_refuses_control_characters_bidi_controls_and_invisible_names(value, message):
    with pytest.raises(TextRefused) as refused:
        clean_name(value, "Name")
    assert str(refused.value) == message
    assert isinstance(refused.value, InvalidInput)  # views and commands show it as one


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("  Ash   Ketchum ", "Ash Ketchum"),
        ("Ash\u00a0\u2003Ketchum", "Ash Ketchum"),  # any Unicode space: one plain space
        ("Ash\u2028Ketchum", "Ash Ketchum"),  # a line separator is whitespace, not a control
        ("\u200bAsh Ketchum\ufeff ", "Ash Ketchum"),  # invisible characters at the ends go
        ("Zoë O'Brien-Núñez", "Zoë O'Brien-Núñez"),
        ("محمد علي", "محمد علي"),
        ("דוד לוי\u200f", "דוד לוי"),
        ("می\u200cخواهم", "می\u200cخواهم"),  # the zero-width non-joiner Persian needs
        ("👩\u200d💻 Sam", "👩\u200d💻 Sam"),  # and the joiner of an emoji
        ("<b>&amp;</b>", "<b>&amp;</b>"),  # escaping is the page's business
    ],
)
def test_the_rule_keeps_real_names_and_normalises_their_spaces(value, kept):
    assert name_problem(value) is None
    assert clean_name(value, "Name") == kept


def test_the_refusal_is_in_the_readers_language():
    with translation.override("es"), pytest.raises(TextRefused) as refused:
        clean_name("Ash\x0b", "Nombre")
    assert str(refused.value) == (
        "Nombre: contiene el carácter de control U+000B, que un nombre no puede llevar"
    )


def test_an_empty_venue_is_taken_when_not_required():
    assert clean_name("  ", "Venue", required=False) == ""
    with pytest.raises(TextRefused, match=r"^Venue: contains the control character U\+001B"):
        clean_name("Hall\x1b", "Venue", required=False)


SPECIAL = st.sampled_from(
    [" ", "\t", "\x0b", "\x1b", "\u00a0", "\u200b", "\u200c", "\u200d", "\u200e", "\u202e"]
    + ["\u2066", "\ufeff", "\u2028", "\u00ad", ",", "<", "&", "ä", "م", "ש", "\U0001f600", "x"]
)
NAMES = st.lists(st.one_of(st.characters(), SPECIAL), max_size=24).map("".join)


@given(value=NAMES)
def test_an_accepted_name_is_clean_and_cleaning_it_again_changes_nothing(value):
    if name_problem(value) is not None:
        return
    name = clean_name(value, "Name")
    assert name and name == name.strip() and "  " not in name
    assert not any(unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS for c in name)
    assert any(not c.isspace() and unicodedata.category(c) != "Cf" for c in name)
    assert clean_name(name, "Name") == name


# --- the property: export_tdf → import_tdf keeps every accepted name -------------------------


@pytest.mark.django_db
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(names=st.lists(NAMES, min_size=1, max_size=4), event_name=NAMES)
def test_any_name_the_app_accepts_comes_back_unchanged_from_a_tom_file(
    organiser, names, event_name
):
    accepted = [n for n in names if name_problem(n) is None]
    if not accepted or name_problem(event_name) is not None:
        return
    event = factories.event(by=organiser, name=event_name)
    regs = [
        services.registration_add(event=event, name=n, player_id=str(100 + i), by=organiser)
        for i, n in enumerate(accepted)
    ]
    stored = {r.player.player_id: r.player.name for r in regs}
    again = tdf_reimport(event)
    assert again.name == event.name == clean_name(event_name, "Name")
    assert {
        r.player.player_id: r.player.name for r in again.registrations.select_related("player")
    } == stored


# --- the services and forms ----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Ash\x0bKetchum", "Name: contains the control character U+000B, which a name cannot hold"),
        (
            "Ash Ketchum\x0b",
            "Name: contains the control character U+000B, which a name cannot hold",
        ),
        ("\x1b[2JAsh", "Name: contains the control character U+001B, which a name cannot hold"),
        ("\u200b", "Name: has only invisible characters (U+200B)"),
        ("Ash\u202e", "Name: contains the bidirectional control U+202E, which a name cannot hold"),
    ],
)
def test_registration_add_refuses_a_bad_name_and_writes_nothing(event, organiser, name, message):
    before = rows()
    with pytest.raises(TextRefused) as refused:
        services.registration_add(event=event, name=name, by=organiser)
    assert str(refused.value) == message
    assert rows() == before


@pytest.mark.django_db
def test_registration_add_saves_the_name_normalised(event, organiser):
    reg = services.registration_add(event=event, name="\u200b Ash \u00a0 Ketchum ", by=organiser)
    assert reg.player.name == "Ash Ketchum"
    assert AuditEvent.objects.get(action="registration.add").new["name"] == "Ash Ketchum"


@pytest.mark.django_db
def test_the_add_player_form_shows_the_refusal_on_the_name_field(client, event, organiser):
    client.force_login(organiser)
    before = rows()
    response = client.post(
        reverse("staff:player_add", args=[event.slug]), {"name": "Ash\x1bKetchum"}
    )
    assert response.status_code == 200
    assert response.context["add_form"].errors["name"] == [
        "Name: contains the control character U+001B, which a name cannot hold"
    ]
    assert rows() == before


@pytest.mark.django_db
def test_the_add_player_form_refuses_a_trailing_vertical_tab_a_strip_would_hide(
    client, event, organiser
):
    client.force_login(organiser)
    response = client.post(reverse("staff:player_add", args=[event.slug]), {"name": "Ash\x0b"})
    assert response.context["add_form"].errors["name"] == [
        "Name: contains the control character U+000B, which a name cannot hold"
    ]
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_editing_a_player_refuses_a_bad_name_and_changes_nothing(event, organiser):
    reg = services.registration_add(event=event, name="Ash", by=organiser)
    before = rows()
    with pytest.raises(TextRefused, match=r"^Name: contains the control character U\+001B"):
        services.player_update(registration=reg, name="Ash\x1b[31m", by=organiser)
    with pytest.raises(TextRefused, match=r"^Name: has only invisible characters \(U\+200B\)"):
        services.player_update(registration=reg, name="\u200b", by=organiser)
    reg.player.refresh_from_db()
    assert reg.player.name == "Ash" and rows() == before


@pytest.mark.django_db
def test_the_event_name_and_venue_follow_the_rule(organiser):
    with pytest.raises(TextRefused, match=r"^Name: contains the bidirectional control U\+202E"):
        services.event_create(name="Cup\u202e", by=organiser, swiss_rounds=3)
    with pytest.raises(TextRefused, match=r"^Location: contains the control character U\+001B"):
        services.event_create(name="Cup", location="Hall\x1b", by=organiser, swiss_rounds=3)
    assert not Event.objects.exists()
    event = services.event_create(name=" Winter  Cup ", by=organiser, swiss_rounds=3)
    assert event.name == "Winter Cup"
    with pytest.raises(TextRefused, match=r"^Name: has only invisible characters"):
        services.event_update(event=event, name="\ufeff", by=organiser)
    with pytest.raises(TextRefused, match=r"^Venue: contains the control character U\+000B"):
        services.event_update(event=event, location="Hall\x0b", by=organiser)
    event.refresh_from_db()
    assert (event.name, event.location) == ("Winter Cup", "")


# --- pasted lists and sheets -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_pasted_list_refuses_a_control_character_naming_the_line(event, organiser):
    before = rows()
    with pytest.raises(InvalidInput) as refused:
        services.registrations_add_csv(
            event=event, text="Ash,1,1999\nMis\x1bty,2,1998\n", by=organiser
        )
    assert str(refused.value) == (
        "Line 2, name: contains the control character U+001B, which a name cannot hold"
    )
    assert rows() == before


@pytest.mark.django_db
def test_in_a_pasted_list_a_tab_separates_cells(event, organiser):
    regs = services.registrations_add_csv(
        event=event, text="Ash Ketchum\t1\t1999\nMisty\t2\t1998\n", by=organiser
    )
    assert [(r.player.name, r.player.player_id, r.player.birth_year) for r in regs] == [
        ("Ash Ketchum", "1", 1999),
        ("Misty", "2", 1998),
    ]


@pytest.mark.django_db
def test_a_sheet_row_with_a_control_character_is_a_problem_and_nothing_is_saved(event, organiser):
    text = "Ash\x0bKetchum,1,1999\nMisty\t2\t1998\n\u200b,3,1997\n"
    preview = services.players_sheet_preview(event=event, text=text)
    assert [(r.line, r.problems) for r in preview.rows] == [
        (1, ("Name: contains the control character U+000B, which a name cannot hold.",)),
        (2, ()),
        (3, ("Name: has only invisible characters (U+200B).",)),
    ]
    before = rows()
    with pytest.raises(InvalidInput) as refused:
        services.registrations_add_sheet(event=event, text=text, by=organiser)
    assert str(refused.value) == (
        "Line 1: Name: contains the control character U+000B, which a name cannot hold."
    )
    assert rows() == before


@pytest.mark.django_db
def test_a_sheet_saves_names_normalised(event, organiser):
    regs = services.registrations_add_sheet(
        event=event, text="\u200bAsh\u00a0 Ketchum,1,1999\n", by=organiser
    )
    assert [r.player.name for r in regs] == ["Ash Ketchum"]


# --- imports ---------------------------------------------------------------------------------


def _melee(name: str) -> dict:
    return {
        "Tournament": {"Name": "Melee Cup", "Date": "2025-05-15"},
        "Rounds": [
            {
                "RoundName": "Round 1",
                "Matches": [{"Player1": name, "Player2": "Bo", "Result": "2-0-0"}],
            }
        ],
        "Standings": [],
    }


def test_a_melee_file_with_an_escape_in_a_name_is_refused_naming_the_player():
    with pytest.raises(MeleeError) as refused:
        melee_to_event_data(json.loads(json.dumps(_melee("Ash\x1b[31m"))))
    assert str(refused.value) == (
        "player 'Ash\\x1b[31m'.name: contains the control character U+001B, "
        "which a name cannot hold"
    )


@pytest.mark.django_db
def test_an_imported_name_is_stored_normalised(organiser):
    doc = {
        "format": "matchslip.event.v1",
        "name": "  Import   Cup ",
        "ruleset": "pokemon",
        "location": " Auckland\u200b",
        "players": [{"id": "a", "name": " Ash \u00a0Ketchum"}, {"id": "b", "name": "Misty"}],
        "rounds": [],
    }
    event = event_import(data=parse_event_json(doc), by=organiser)
    assert (event.name, event.location) == ("Import Cup", "Auckland")
    names = sorted(event.registrations.values_list("player__name", flat=True))
    assert names == ["Ash Ketchum", "Misty"]


# --- pages -----------------------------------------------------------------------------------


def test_the_bdi_filter_isolates_and_escapes_a_name():
    template = Template("{{ name|bdi }}|{{ empty|bdi }}")
    out = template.render(Context({"name": "<b>עלי</b> & Co", "empty": ""}))
    assert out == "<bdi>&lt;b&gt;עלי&lt;/b&gt; &amp; Co</bdi>|"


RTL = "محمد علي"


@pytest.mark.django_db
def test_names_are_isolated_on_pairings_standings_player_and_round_pages(client, organiser):
    event = factories.event(by=organiser)
    regs = [
        services.registration_add(event=event, name=n, by=organiser)
        for n in (RTL, "Ash", "Misty", "Brock")
    ]
    rnd = factories.round_in_order(event, by=organiser, status="published", group="open", number=1)
    isolated = f"<bdi>{RTL}</bdi>"
    pairings = client.get(reverse("public:pairings", args=[event.slug])).content.decode()
    assert pairings.count(isolated) >= 1 and f">{RTL} <" not in pairings
    by_name = client.get(reverse("public:pairings", args=[event.slug]) + "?by=name")
    assert f'<span class="name">{isolated}</span>' in by_name.content.decode()
    player = client.get(reverse("public:player", args=[event.slug, regs[0].report_token]))
    assert f"<h1>{isolated}</h1>" in player.content.decode()
    opponent = client.get(reverse("public:player", args=[event.slug, regs[1].report_token]))
    assert f"<strong>{isolated}</strong>" in opponent.content.decode()
    client.force_login(organiser)
    staff = client.get(reverse("staff:round", args=[event.slug, rnd.pk])).content.decode()
    assert f'<span class="player">{isolated} <small>' in staff
    players = client.get(reverse("staff:players", args=[event.slug])).content.decode()
    assert isolated in players


@pytest.mark.django_db
def test_names_are_isolated_in_the_standings_table(client, organiser):
    event = factories.event(by=organiser)
    StandingsSnapshot.objects.create(
        event=event,
        label="After round 1",
        rounds_complete=1,
        data={
            "event": event.slug,
            "ruleset": "pokemon",
            "divisions": {
                "open": [
                    {
                        "place": 1,
                        "player": "p1",
                        "name": RTL,
                        "match_points": 3,
                        "record": "1-0-0",
                        "dropped": False,
                        "top_cut": False,
                        "tiebreakers": {"owp": 0.5, "oowp": 0.5},
                    }
                ]
            },
        },
    )
    body = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert f'<td class="name"><bdi>{RTL}</bdi>' in body
