"""Ruleset options as data (``tournaments.rulesets.OptionSpec``): the event JSON, the
organiser's settings page and the service validate through the same specs (R-7, R-8);
the settings page shows the round-count recommendation (P-RT-5)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from interchange.formats.event_json import KNOWN_OPTIONS, EventFileError, parse_event_json
from rulesets import RULESETS, clean_options, get_ruleset
from tests import factories
from tournaments import services
from tournaments.errors import InvalidInput
from tournaments.models import AuditEvent, Event, StaffRole


def doc(ruleset="mtg", **options):
    return {
        "format": "matchslip.event.v1",
        "name": "Options Cup",
        "ruleset": ruleset,
        "options": options,
        "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}],
        "rounds": [],
    }


def test_R_7_R_8_mtg_declares_its_options_with_defaults():
    specs = {o.name: o for o in get_ruleset("mtg").options}
    assert specs["mwp_floor"].default == "0.33" and specs["mwp_floor"].choices == ("0.33", "1/3")
    assert specs["playoffs_in_tiebreakers"].default is False
    assert specs["melee_ranking"].kind == "bool"
    # Pokémon's only option places dropped players (off by default)
    assert [o.name for o in get_ruleset("pokemon").options] == ["drops_below_active"]
    pod_size = {o.name: o for o in get_ruleset("mtg-multiplayer").options}["pod_size"]
    assert (pod_size.default, pod_size.choices) == (4, (3, 4))


def test_event_json_known_options_come_from_the_ruleset_specs():
    declared = {o.name for r in RULESETS.values() for o in r.options}
    assert declared == KNOWN_OPTIONS
    assert {"mwp_floor", "playoffs_in_tiebreakers", "melee_ranking", "pod_size"} <= KNOWN_OPTIONS


def test_R_7_event_json_accepts_both_floors_and_the_booleans():
    data = parse_event_json(doc(mwp_floor="1/3", playoffs_in_tiebreakers=True, melee_ranking=True))
    assert data.options == {
        "mwp_floor": "1/3",
        "playoffs_in_tiebreakers": True,
        "melee_ranking": True,
    }
    # The docs/interfaces.md example: a pokemon file carrying the mtg options stays valid.
    assert parse_event_json(doc("pokemon", mwp_floor="0.33", playoffs_in_tiebreakers=False))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"swiss_pairing": "dutch"}, "options: unknown option(s) ['swiss_pairing']"),
        ({"mwp_floor": "0.5"}, "options: mwp_floor: '0.5' is not one of '0.33', '1/3'"),
        ({"playoffs_in_tiebreakers": "yes"}, "playoffs_in_tiebreakers: 'yes' is not true or false"),
        ({"pod_size": 5}, "pod_size: 5 is not one of 3, 4"),
    ],
)
def test_R_7_R_8_event_json_refuses_unknown_options_and_names_bad_values(options, message):
    with pytest.raises(EventFileError) as e:
        parse_event_json(doc(**options))
    assert message in str(e.value)


def test_settings_options_are_only_the_rulesets_own():
    with pytest.raises(ValueError, match="unknown option"):
        clean_options("pokemon", {"mwp_floor": "0.33"}, own_only=True)
    assert clean_options("mtg-multiplayer", {"pod_size": "3"}, own_only=True) == {"pod_size": 3}


@pytest.mark.django_db
def test_R_7_the_service_saves_options_audited_and_refuses_bad_ones(organiser):
    ev = factories.event(by=organiser, ruleset="mtg", options={"mwp_floor": "0.33"})
    with pytest.raises(InvalidInput, match="mwp_floor: '0.25' is not one of"):
        services.event_settings_update(event=ev, by=organiser, options={"mwp_floor": "0.25"})
    assert Event.objects.get(pk=ev.pk).options == {"mwp_floor": "0.33"}
    services.event_settings_update(
        event=ev, by=organiser, options={"mwp_floor": "1/3", "playoffs_in_tiebreakers": True}
    )
    saved = Event.objects.get(pk=ev.pk).options
    assert saved == {"mwp_floor": "1/3", "playoffs_in_tiebreakers": True}
    audit = AuditEvent.objects.get(action="event.settings")
    assert audit.old == {"options": {"mwp_floor": "0.33"}} and audit.new == {"options": saved}


@pytest.mark.django_db
def test_R_7_R_8_the_organiser_edits_the_options_on_the_settings_page(client, organiser):
    ev = factories.event(by=organiser, ruleset="mtg")
    client.force_login(organiser)
    page = client.get(reverse("staff:team", args=[ev.slug])).content.decode()
    assert "Ruleset options" in page and 'name="mwp_floor"' in page
    url = reverse("staff:event_options", args=[ev.slug])
    bad = client.post(url, {"mwp_floor": "0.5"})
    assert bad.status_code == 200 and "Select a valid choice" in bad.content.decode()
    assert Event.objects.get(pk=ev.pk).options == {}
    client.post(
        url,
        {
            "mwp_floor": "1/3",
            "melee_ranking": "on",
            "playoff_seating": "draft",
            "match_length": "best-of-1",
            "rules_enforcement_level": "competitive",
        },
    )
    assert Event.objects.get(pk=ev.pk).options == {
        "mwp_floor": "1/3",
        "playoffs_in_tiebreakers": False,
        "melee_ranking": True,
        "playoff_seating": "draft",
        "match_length": "best-of-1",
        "drops_below_active": False,
        "rules_enforcement_level": "competitive",
    }


@pytest.mark.django_db
def test_only_organisers_edit_ruleset_options(client, organiser):
    ev = factories.event(by=organiser, ruleset="mtg")
    client.force_login(factories.staff(ev, StaffRole.SCOREKEEPER))
    response = client.post(reverse("staff:event_options", args=[ev.slug]), {"mwp_floor": "1/3"})
    assert response.status_code == 403 and Event.objects.get(pk=ev.pk).options == {}


@pytest.mark.django_db
def test_a_pokemon_event_shows_only_the_drop_placement_option(client, organiser):
    ev = factories.event(by=organiser)
    client.force_login(organiser)
    page = client.get(reverse("staff:team", args=[ev.slug])).content.decode()
    assert "Ruleset options" in page and 'name="drops_below_active"' in page
    assert 'name="mwp_floor"' not in page and 'name="match_length"' not in page


@pytest.mark.django_db
def test_P_RT_5_the_settings_page_recommends_the_mtg_structure_counting_awarded_byes(
    client, organiser
):
    ev = factories.event_with_players(12, by=organiser, ruleset="mtg")
    client.force_login(organiser)
    url = reverse("staff:team", args=[ev.slug])
    page = client.get(url).content.decode()
    assert 'title="P-RT-5"' in page and "5 Swiss rounds, top 4" in page  # 9–16 → 5, top 4
    # 12 players, 3 of them with 2 awarded byes: each counts as 4 → 21 → 5, top 8.
    byes = client.get(url, {"players": 12, "byes2": 3}).content.decode()
    assert "21 players counted" in byes and "5 Swiss rounds, top 8" in byes
    # 30 players, 2 of them with 3 byes → 44 counted → 6 rounds, top 8.
    big = client.get(url, {"players": 30, "byes3": 2}).content.decode()
    assert "44 players counted" in big and "6 Swiss rounds, top 8" in big


@pytest.mark.django_db
def test_P_RT_5_a_draft_playoff_event_is_recommended_4_rounds_into_a_top_8(client, organiser):
    ev = factories.event_with_players(
        12, by=organiser, ruleset="mtg", options={"playoff_seating": "draft"}
    )
    client.force_login(organiser)
    page = client.get(reverse("staff:team", args=[ev.slug])).content.decode()
    assert "Booster Draft playoff" in page and "4 Swiss rounds, top 8" in page


@pytest.mark.django_db
def test_R_8_a_boolean_option_renders_unticked_and_can_be_switched_on(client, organiser):
    """The settings page showed 'False' as a ticked box whose value could never be set."""
    import re

    from django.urls import reverse

    from tests import factories

    event = factories.event(by=organiser, ruleset="mtg")
    client.force_login(organiser)
    page = client.get(reverse("staff:team", args=[event.slug])).content.decode()
    box = re.search(r'<input[^>]*name="playoffs_in_tiebreakers"[^>]*>', page).group(0)
    assert "checked" not in box and 'value="False"' not in box
    response = client.post(
        reverse("staff:event_options", args=[event.slug]),
        {
            "mwp_floor": "1/3",
            "playoffs_in_tiebreakers": "on",
            "playoff_seating": "standings",
            "match_length": "best-of-3",
            "rules_enforcement_level": "regular",
        },
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.options["playoffs_in_tiebreakers"] is True
    assert event.options["melee_ranking"] is False
    assert event.options["mwp_floor"] == "1/3"
    page = client.get(reverse("staff:team", args=[event.slug])).content.decode()
    box = re.search(r'<input[^>]*name="playoffs_in_tiebreakers"[^>]*>', page).group(0)
    assert "checked" in box
