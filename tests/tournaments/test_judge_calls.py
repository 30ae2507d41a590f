"""Judge calls, the floor board, the end-of-round board and repeated infractions
: the services' actions and refusals (stale claims, double
submits, a refused extension), the player's page and the board as views, permissions as
a matrix, the live notices, and the penalty form's infraction names. RULES.md is silent
on all of these; the decisions are in the services' docstrings."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tournaments import live, services
from tournaments.errors import InvalidInput, ResultConflict, RoundStateError
from tournaments.models import (
    AuditEvent,
    JudgeCall,
    LiveVersion,
    Match,
    PenaltyNote,
    Round,
    RoundStatus,
)
from tournaments.services import Result

HX = {"HX-Request": "true"}


@pytest.fixture
def floor(organiser):
    """An 8-player Pokémon event, round 1 started (tables 1–4 in registration order),
    judges judy and jamie, scorekeeper sam."""
    ev = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=0)
    judy = factories.staff(ev, "judge", username="judy")
    jamie = factories.staff(ev, "judge", username="jamie")
    sam = factories.staff(ev, "scorekeeper", username="sam")
    rnd = factories.round_in_order(ev, by=organiser)
    regs = list(ev.registrations.order_by("pk"))
    return ev, rnd, regs, judy, jamie, sam


def link(reg, name="public:player"):
    return reverse(name, args=[reg.event.slug, reg.report_token])


def unchanged(call: JudgeCall) -> dict:
    row = JudgeCall.objects.get(pk=call.pk)
    return {f: getattr(row, f) for f in ("status", "version", "claimed_by_id", "resolved_at")}


# --- services ---------------------------------------------------------------------------


def test_a_call_is_claimed_then_resolved_with_a_3_minute_extension_on_the_tables_clock(floor):
    ev, rnd, regs, judy, _, _ = floor
    call = services.judge_call_open(registration=regs[0], reason="rules")
    assert (call.table, call.round_number, call.status, call.reason) == (1, 1, "open", "rules")
    call = services.judge_call_claim(call=call, by=judy, version=0)
    assert (call.status, call.claimed_by, call.version) == ("claimed", judy, 1)
    call = services.judge_call_resolve(
        call=call, by=judy, version=1, note="Ruling given on Stadium", minutes=3
    )
    assert (call.status, call.resolved_by, call.extra_minutes) == ("resolved", judy, 3)
    table = Match.objects.get(round=rnd, table=1)
    assert table.extra_seconds == 180  # the existing per-table extension
    actions = list(AuditEvent.objects.order_by("id").values_list("action", flat=True))
    assert actions[-4:] == [
        "judge_call.open",
        "judge_call.claim",
        "match.time_extend",
        "judge_call.resolve",
    ]
    opened = AuditEvent.objects.get(action="judge_call.open")
    assert opened.actor_registration_id == regs[0].pk and opened.actor is None
    resolved = AuditEvent.objects.get(action="judge_call.resolve")
    assert resolved.actor == judy and resolved.reason == "Ruling given on Stadium"
    assert resolved.new["extra_minutes"] == 3


def test_the_opponents_call_while_one_is_open_changes_nothing_and_says_so(floor):
    _, _, regs, judy, _, _ = floor
    call = services.judge_call_open(registration=regs[0])
    services.judge_call_claim(call=call, by=judy, version=0)
    with pytest.raises(InvalidInput, match=r"already called to your table at \d\d:\d\d\. judy"):
        services.judge_call_open(registration=regs[1], reason="time")
    assert JudgeCall.objects.count() == 1


def test_a_new_call_can_be_made_once_the_tables_call_is_resolved(floor):
    _, _, regs, judy, _, _ = floor
    first = services.judge_call_open(registration=regs[0])
    services.judge_call_resolve(call=first, by=judy, version=0)
    second = services.judge_call_open(registration=regs[1], reason="disagreement")
    assert second.pk != first.pk and JudgeCall.objects.filter(status="open").count() == 1


def test_claiming_a_call_someone_else_claimed_is_refused_and_changes_nothing(floor):
    _, _, regs, judy, jamie, _ = floor
    call = services.judge_call_open(registration=regs[2])
    services.judge_call_claim(call=call, by=judy, version=0)
    before = unchanged(call)
    with pytest.raises(ResultConflict, match=r"changed meanwhile: judy claimed table 2's call"):
        services.judge_call_claim(call=call, by=jamie, version=0)
    assert unchanged(call) == before
    assert AuditEvent.objects.filter(action="judge_call.claim").count() == 1


def test_a_double_tap_on_claim_says_it_is_claimed_already(floor):
    _, _, regs, judy, _, _ = floor
    call = services.judge_call_open(registration=regs[0])
    services.judge_call_claim(call=call, by=judy, version=0)
    with pytest.raises(ResultConflict, match="You already claimed table 1's call"):
        services.judge_call_claim(call=call, by=judy, version=0)
    assert AuditEvent.objects.filter(action="judge_call.claim").count() == 1


def test_resolving_twice_is_refused_and_gives_no_second_extension(floor):
    _, rnd, regs, judy, jamie, _ = floor
    call = services.judge_call_open(registration=regs[0])
    services.judge_call_resolve(call=call, by=judy, version=0, minutes=3)
    before = unchanged(call)
    for who, version in ((judy, 0), (jamie, 1)):
        with pytest.raises(ResultConflict, match="resolved by judy at"):
            services.judge_call_resolve(call=call, by=who, version=version, minutes=3)
    assert unchanged(call) == before
    assert Match.objects.get(round=rnd, table=1).extra_seconds == 180


def test_escalating_hands_the_call_to_the_head_judge_once(floor):
    _, _, regs, judy, jamie, _ = floor
    call = services.judge_call_open(registration=regs[4], reason="disagreement")
    call = services.judge_call_claim(call=call, by=judy, version=0)
    call = services.judge_call_escalate(call=call, by=judy, version=1)
    assert (call.status, call.claimed_by, call.escalated_by) == ("open", None, judy)
    with pytest.raises(InvalidInput, match="with the head judge already"):
        services.judge_call_escalate(call=call, by=jamie, version=2)
    call = services.judge_call_claim(call=call, by=jamie, version=2)  # the head judge
    assert call.claimed_by == jamie and call.escalated_at is not None
    assert AuditEvent.objects.get(action="judge_call.escalate").old["claimed_by"] == "judy"


def test_a_refused_extension_resolves_nothing(floor):
    ev, rnd, regs, judy, _, organiser = floor
    call = services.judge_call_open(registration=regs[0])
    services.judge_call_claim(call=call, by=judy, version=0)
    m = Match.objects.get(round=rnd, table=1)
    services.slip_enter(match=m, result=Result.win(regs[0]), by=judy)
    before = unchanged(call)
    with pytest.raises(RoundStateError, match="Table 1 has its result"):
        services.judge_call_resolve(call=call, by=judy, version=1, note="x", minutes=3)
    assert unchanged(call) == before and not AuditEvent.objects.filter(action="judge_call.resolve")


@pytest.mark.parametrize(
    ("minutes", "message"),
    [(61, "between 1 and 60"), (-1, "whole minutes"), (None, "whole minutes")],
)
def test_an_extension_out_of_range_is_refused(floor, minutes, message):
    _, _, regs, judy, _, _ = floor
    call = services.judge_call_open(registration=regs[0])
    with pytest.raises(InvalidInput, match=message):
        services.judge_call_resolve(call=call, by=judy, version=0, minutes=minutes)
    assert JudgeCall.objects.get().status == "open"


def test_a_player_not_seated_or_with_an_unknown_reason_cannot_call(organiser):
    ev = factories.event_with_players(4, by=organiser)
    reg = ev.registrations.first()
    with pytest.raises(InvalidInput, match="not seated at a table"):
        services.judge_call_open(registration=reg)
    factories.round_in_order(ev, by=organiser)
    with pytest.raises(InvalidInput, match="Choose one of the reasons"):
        services.judge_call_open(registration=reg, reason="bored")
    assert not JudgeCall.objects.exists()


def test_a_player_may_call_once_pairings_are_published_before_the_start(organiser):
    ev = factories.event_with_players(4, by=organiser)
    factories.round_in_order(ev, by=organiser, status=RoundStatus.PUBLISHED)
    call = services.judge_call_open(registration=ev.registrations.last())
    assert call.table == 2


def test_every_change_of_a_call_reaches_both_players_pages_and_the_staff(
    floor, django_capture_on_commit_callbacks
):
    ev, _, regs, judy, _, _ = floor
    topics = [live.player_topic(regs[0].pk), live.player_topic(regs[1].pk), live.STAFF]
    before = live.current(ev.pk, topics)
    with django_capture_on_commit_callbacks(execute=True):
        call = services.judge_call_open(registration=regs[1])
    with django_capture_on_commit_callbacks(execute=True):
        services.judge_call_claim(call=call, by=judy, version=0)
    after = live.current(ev.pk, topics)
    assert all(after[t] == before[t] + 2 for t in topics)
    assert not LiveVersion.objects.filter(event=ev, topic=live.RESULTS).exists()


# --- the player's page ------------------------------------------------------------------


def test_the_player_calls_from_their_page_and_sees_who_claimed_it(client, floor):
    _, _, regs, judy, _, _ = floor
    judy.first_name, judy.last_name = "Judy", "Hopps"
    judy.save()
    page = client.get(link(regs[0])).content.decode()
    assert 'id="judge-call"' in page and "Why? (optional)" in page
    answer = client.post(link(regs[0], "public:player_judge_call"), {"reason": "time"}, headers=HX)
    assert answer.status_code == 200
    assert "A judge is coming to your table." in answer.content.decode()
    call = JudgeCall.objects.get()
    assert (call.reason, call.registration_id, call.table) == ("time", regs[0].pk, 1)
    services.judge_call_claim(call=call, by=judy, version=0)
    opponent = client.get(link(regs[1]) + "?part=live", headers=HX).content.decode()
    assert "Judy Hopps is coming to your table." in opponent
    assert 'value="time"' not in opponent  # no second call while this one is open


def test_a_second_call_from_the_page_is_refused_with_the_reason(client, floor):
    _, _, regs, _, _, _ = floor
    client.post(link(regs[0], "public:player_judge_call"), {"reason": ""}, headers=HX)
    answer = client.post(link(regs[1], "public:player_judge_call"), {}, headers=HX)
    assert answer.status_code == 422
    assert "A judge was already called to your table" in answer.content.decode()
    assert JudgeCall.objects.count() == 1
    plain = client.post(link(regs[1], "public:player_judge_call"), {}, follow=True)
    assert "A judge was already called to your table" in plain.content.decode()


def test_the_answered_call_shows_the_extension_and_offers_a_new_call(client, floor):
    _, _, regs, judy, _, _ = floor
    call = services.judge_call_open(registration=regs[0])
    services.judge_call_resolve(call=call, by=judy, version=0, minutes=3)
    page = client.get(link(regs[1])).content.decode()
    assert "A judge answered at" in page and "Your table has 3 more minutes." in page
    assert "judy" not in page  # a login name is never shown to players
    assert 'name="reason" value="rules"' in page


def test_a_judge_without_a_full_name_is_a_judge_to_players_never_their_login(client, floor):
    _, _, regs, judy, _, _ = floor
    judy.username = "judy@example.org"
    judy.save()
    call = services.judge_call_open(registration=regs[0])
    services.judge_call_claim(call=call, by=judy, version=0)
    page = client.get(link(regs[1])).content.decode()
    assert "A judge is coming to your table." in page and "judy@" not in page
    call.refresh_from_db()
    services.judge_call_escalate(call=call, by=judy, version=call.version)
    call.refresh_from_db()
    services.judge_call_claim(call=call, by=judy, version=call.version)
    page = client.get(link(regs[1])).content.decode()
    assert "The head judge is coming to your table." in page and "judy@" not in page


def test_the_private_page_is_spanish_for_a_spanish_visitor(client, floor):
    _, _, regs, judy, _, _ = floor
    judy.first_name, judy.last_name = "Judy", "Hopps"
    judy.save()
    call = services.judge_call_open(registration=regs[0])
    services.judge_call_claim(call=call, by=judy, version=0)
    page = client.get(link(regs[0]), headers={"Accept-Language": "es"}).content.decode()
    assert "Llamar a un juez" in page and "Judy Hopps viene a tu mesa." in page


# --- the floor board ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("judy", 200), ("sam", 200), ("other", 403), ("anonymous", 302)],
)
def test_the_floor_board_is_for_every_staff_role_of_the_event(
    client, floor, organiser, who, status
):
    ev = floor[0]
    users = {"organiser": organiser, "judy": floor[3], "sam": floor[5]}
    if who == "other":
        other = factories.event(by=factories.user("elsewhere"), name="Other Cup")
        users["other"] = factories.staff(other, "judge", username="otherjudge")
    if who in users:
        client.force_login(users[who])
    response = client.get(reverse("staff:floor", args=[ev.slug]))
    assert response.status_code == status
    if status == 302:
        assert "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    "action", ["judge_call_claim", "judge_call_escalate", "judge_call_resolve"]
)
def test_no_one_outside_the_events_staff_acts_on_a_call(client, floor, action):
    ev, _, regs, _, _, _ = floor
    call = services.judge_call_open(registration=regs[0])
    other = factories.event(by=factories.user("elsewhere"), name="Other Cup")
    client.force_login(factories.staff(other, "organiser", username="otherorg"))
    url = reverse(f"staff:{action}", args=[ev.slug, call.pk])
    assert client.post(url, {"version": 0}).status_code == 403
    client.logout()
    assert client.post(url, {"version": 0}).status_code == 302  # to the login page
    assert unchanged(call)["version"] == 0


def test_the_board_lists_calls_claims_and_resolves_them_by_post(client, floor):
    ev, rnd, regs, judy, _, _ = floor
    call = services.judge_call_open(registration=regs[2], reason="disagreement")
    client.force_login(judy)
    board = client.get(reverse("staff:floor", args=[ev.slug])).content.decode()
    assert f'id="call-{call.pk}"' in board and "Table 2" in board and "Disagreement" in board
    assert regs[2].player.name in board and regs[3].player.name in board
    response = client.post(
        reverse("staff:judge_call_claim", args=[ev.slug, call.pk]), {"version": 0}, follow=True
    )
    assert "You claimed table 2&#x27;s call." in response.content.decode()
    response = client.post(
        reverse("staff:judge_call_resolve", args=[ev.slug, call.pk]),
        {"version": 1, "note": "Explained the ruling", "minutes": "3"},
        follow=True,
    )
    assert "the table has 3 more minutes" in response.content.decode()
    assert Match.objects.get(round=rnd, table=2).extra_seconds == 180
    assert JudgeCall.objects.get().note == "Explained the ruling"


def test_a_stale_claim_on_the_board_gets_a_message_and_changes_nothing(client, floor):
    ev, _, regs, judy, jamie, _ = floor
    call = services.judge_call_open(registration=regs[0])
    services.judge_call_claim(call=call, by=judy, version=0)
    client.force_login(jamie)
    response = client.post(
        reverse("staff:judge_call_claim", args=[ev.slug, call.pk]), {"version": 0}, follow=True
    )
    assert (
        "This call changed meanwhile: judy claimed table 1&#x27;s call" in response.content.decode()
    )
    assert JudgeCall.objects.get().claimed_by == judy


def test_a_resolve_sent_twice_from_the_board_changes_nothing_the_second_time(client, floor):
    ev, rnd, regs, judy, _, _ = floor
    call = services.judge_call_open(registration=regs[0])
    client.force_login(judy)
    url = reverse("staff:judge_call_resolve", args=[ev.slug, call.pk])
    client.post(url, {"version": 0, "minutes": "3"})
    again = client.post(url, {"version": 0, "minutes": "3"}, follow=True).content.decode()
    assert "resolved by judy at" in again and "Nothing changed." in again
    assert Match.objects.get(round=rnd, table=1).extra_seconds == 180
    assert AuditEvent.objects.filter(action="judge_call.resolve").count() == 1


def test_the_board_reads_a_fixed_number_of_queries(client, floor, django_assert_max_num_queries):
    ev, _, regs, judy, _, _ = floor
    client.force_login(judy)
    url = reverse("staff:floor", args=[ev.slug])
    client.get(url)
    for reg in regs[::2]:
        services.judge_call_open(registration=reg)
    with django_assert_max_num_queries(20):
        assert client.get(url).status_code == 200


def test_the_dark_theme_is_kept_in_a_cookie(client, floor):
    ev, _, _, judy, _, _ = floor
    client.force_login(judy)
    url = reverse("staff:floor", args=[ev.slug])
    assert 'class="floor theme-dark"' in client.get(url + "?theme=dark").content.decode()
    assert 'class="floor theme-dark"' in client.get(url).content.decode()
    assert 'class="floor"' in client.get(url + "?theme=light").content.decode()


# --- the end-of-round board --------------------------------------------------------------


def _time_called(rnd: Round) -> None:
    """The round started 52 minutes ago: its 50 minutes are up."""
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(minutes=52))


def test_the_end_of_round_board_shows_extensions_time_used_and_results_missing(client, floor):
    ev, rnd, regs, judy, _, organiser = floor
    services.match_time_extend(match=Match.objects.get(round=rnd, table=2), by=judy, minutes=5)
    services.slip_enter(
        match=Match.objects.get(round=rnd, table=3), result=Result.win(regs[4]), by=judy
    )
    _time_called(rnd)
    client.force_login(judy)
    board = client.get(reverse("staff:floor", args=[ev.slug])).content.decode()
    assert 'data-table="2"' in board and "+5 min" in board and "/ 55:00" in board
    assert "Results missing: tables 1, 4" in board
    assert 'data-table="3"' not in board  # its result is in
    projector = client.get(reverse("public:timer", args=[ev.slug])).content.decode()
    assert "Results missing: tables 1, 4" in projector and "Table 2: +5 min" in projector


def test_before_time_is_up_the_board_counts_the_tables_still_playing(client, floor):
    ev, rnd, _, judy, _, _ = floor
    services.match_time_extend(match=Match.objects.get(round=rnd, table=4), by=judy, minutes=3)
    client.force_login(judy)
    board = client.get(reverse("staff:floor", args=[ev.slug])).content.decode()
    assert "4 tables still playing." in board and "Table 4: +3 min" in board
    assert "Results missing" not in board


# --- penalties: the ruleset's infraction names, repeated infractions ----------------------


def test_the_penalty_form_offers_the_rulesets_infraction_names(client, organiser):
    pokemon = factories.event_with_players(2, by=organiser)
    magic = factories.event_with_players(2, by=organiser, name="Magic", ruleset="mtg")
    client.force_login(organiser)
    page = client.get(reverse("staff:penalties", args=[pokemon.slug])).content.decode()
    assert '<optgroup label="Procedural errors">' in page
    assert '<option value="Procedural Error – Minor">Procedural Error – Minor</option>' in page
    page = client.get(reverse("staff:penalties", args=[magic.slug])).content.decode()
    assert '<option value="Missed Trigger">2.1 Missed Trigger</option>' in page
    assert '<option value="other">' in page
    spanish = client.get(
        reverse("staff:penalties", args=[magic.slug]), headers={"Accept-Language": "es"}
    ).content.decode()
    assert "2.1 Disparador olvidado" in spanish


@pytest.mark.parametrize(
    ("posted", "stored"),
    [
        ({"infraction": "slow play"}, "Slow Play"),
        ({"infraction": "other", "infraction_other": "Phone at the table"}, "Phone at the table"),
    ],
)
def test_a_penalty_names_a_listed_infraction_or_another_one(
    client, event8, organiser, posted, stored
):
    reg = event8.registrations.first()
    client.force_login(organiser)
    data = {"registration": reg.pk, "kind": "warning", **posted}
    response = client.post(reverse("staff:penalties", args=[event8.slug]), data, follow=True)
    assert "Penalty noted." in response.content.decode()
    assert PenaltyNote.objects.get().infraction == stored


@pytest.mark.parametrize(
    ("posted", "message"),
    [
        ({"infraction": "Being late-ish"}, "Choose one of the infractions, or Other."),
        ({"infraction": "other", "infraction_other": " "}, "Type the infraction."),
    ],
)
def test_an_unlisted_infraction_without_other_is_refused(
    client, event8, organiser, posted, message
):
    reg = event8.registrations.first()
    client.force_login(organiser)
    data = {"registration": reg.pk, "kind": "warning", **posted}
    response = client.post(reverse("staff:penalties", args=[event8.slug]), data)
    assert message in response.content.decode() and not PenaltyNote.objects.exists()


def test_a_repeated_infraction_is_flagged_on_the_board_and_the_players_pages(client, floor):
    ev, _, regs, judy, _, organiser = floor
    for note in ("first", "second"):
        services.penalty_note_add(
            event=ev,
            registration=regs[1],
            kind="warning",
            infraction="Slow Play",
            by=judy,
            note=note,
        )
    services.penalty_note_add(
        event=ev, registration=regs[1], kind="caution", infraction="Marked Cards", by=judy
    )
    services.judge_call_open(registration=regs[0])  # the opponent of regs[1] calls
    client.force_login(judy)
    board = client.get(reverse("staff:floor", args=[ev.slug])).content.decode()
    name = regs[1].player.name
    assert f"Repeated infraction: {name}, Slow Play ×2" in board
    assert "Marked Cards ×" not in board
    penalties = client.get(reverse("staff:penalties", args=[ev.slug])).content.decode()
    assert penalties.count("data-repeated") == 2
    client.force_login(organiser)
    page = client.get(reverse("staff:player", args=[ev.slug, regs[1].pk])).content.decode()
    assert "Repeated infraction: Slow Play ×2" in page and "Marked Cards" in page


def test_the_penalty_forms_round_is_the_round_being_played(client, organiser):
    event = factories.event_with_players(8, by=organiser, swiss_rounds=3, top_cut_size=0)
    client.force_login(organiser)
    url = reverse("staff:penalties", args=[event.slug])
    assert 'name="round_number" min="1" id="id_round_number"' in client.get(url).content.decode()
    rnd = factories.round_in_order(event, by=organiser)  # round 1, started
    page = client.get(url).content.decode()
    assert f'name="round_number" value="{rnd.number}"' in page
    asked = client.get(url + "?round_number=7").content.decode()  # the floor board's link wins
    assert 'name="round_number" value="7"' in asked
