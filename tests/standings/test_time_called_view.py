"""The "time called" helper of a ``bo3-wins-against`` slip (W-TIME-1, W-TIME-2)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tests.tournaments.test_game_slips import bo3_round, table
from tournaments.models import Outcome, StaffRole

HX = {"HX-Request": "true"}


@pytest.fixture
def helper(client):
    ev, rnd, regs, org = bo3_round("bo3-wins-against")
    client.force_login(factories.staff(ev, StaffRole.SCOREKEEPER))
    m = table(rnd, 1)
    url = reverse("staff:time_called", args=[ev.slug, m.pk])
    return client, ev, rnd, m, url


def ask(client, url, game, a, b, between=False):
    params = {"game": game, "wins_1": a, "wins_2": b}
    if between:
        params["between"] = "on"
    return client.get(url, params, headers=HX).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ((1, 0, 0, False), "game 1 goes to sudden death"),
        ((2, 1, 0, True), "the game-1 winner wins: Player 001 wins the match"),
        ((2, 0, 1, True), "the game-1 winner wins: Player 002 wins the match"),
        ((2, 1, 0, False), "game 2 goes to sudden death"),
        ((3, 1, 1, True), "game 3 starts in sudden death"),
        ((3, 1, 1, False), "game 3 goes to sudden death"),
    ],
)
def test_W_TIME_1_the_helper_says_what_happens_next(helper, state, expected):
    client, _, _, _, url = helper
    answer = ask(client, url, *state)
    assert expected in answer
    assert "<html" not in answer  # HTMX: only the answer


@pytest.mark.django_db
def test_W_TIME_2_sudden_death_is_explained_with_three_turns(helper):
    client, _, _, _, url = helper
    answer = ask(client, url, 2, 1, 0)
    assert "each player takes 3 more turns" in answer
    assert "if health is tied, play continues until a health value changes" in answer
    assert "game 3 starts as an immediate sudden death" in answer  # 1-1 after game 2


@pytest.mark.django_db
def test_W_TIME_1_an_impossible_state_is_refused_with_the_reason(helper):
    client, _, _, _, url = helper
    assert "the current game is game 2, not game 3" in ask(client, url, 3, 1, 0)


@pytest.mark.django_db
def test_W_TIME_1_a_decided_match_is_recorded_from_the_helper(helper):
    client, ev, rnd, m, url = helper
    page = client.get(url, {"game": 2, "wins_1": 1, "wins_2": 0, "between": "on"})
    body = page.content.decode()
    assert "Record 1-0" in body and reverse("staff:match_result", args=[ev.slug, m.pk]) in body
    response = client.post(
        reverse("staff:match_result", args=[ev.slug, m.pk]), {"score": "1-0-0", "version": 0}
    )
    assert response.status_code == 302
    m.refresh_from_db()
    assert (m.outcome, m.games) == (Outcome.WIN, [1, 0, 0])


@pytest.mark.django_db
def test_W_TIME_1_the_round_page_links_the_helper_for_bo3_wins_against_only(helper, client):
    client, ev, rnd, m, url = helper
    body = client.get(reverse("staff:round", args=[ev.slug, rnd.pk])).content.decode()
    assert url in body and "Time called" in body
    assert "1-1-1" not in body  # no drawn matches in this ruleset


@pytest.mark.django_db
def test_the_time_called_helper_is_not_for_mtg(client):
    ev, rnd, _, org = bo3_round("mtg", username="mtg-org")
    client.force_login(org)
    url = reverse("staff:time_called", args=[ev.slug, table(rnd, 1).pk])
    assert client.get(url).status_code == 404
