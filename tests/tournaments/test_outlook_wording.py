"""How the cut-line outlook's figures are worded (``tournaments.selectors.outlook``): an
estimate never reads 0 % or 100 % ("under 1 %", "over 99 %"), whole percentages round
half up from the share as stored, and the player's sentence says what a win (or a loss)
next round changes only where the figure, as shown, moves that way. English and
Spanish. No database."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from tournaments.selectors.outlook import OVER_99, UNDER_1, chance_view, percent, percent_level


@pytest.mark.parametrize(
    ("share", "english", "spanish"),
    [
        (0.0, "under 1 %", "menos del 1 %"),  # open, yet no simulated ending made it
        (0.005, "under 1 %", "menos del 1 %"),  # read "0 %" before (0.5 rounded to even)
        (0.0099, "under 1 %", "menos del 1 %"),
        (0.01, "1 %", "1 %"),
        (0.0149, "1 %", "1 %"),
        (0.015, "2 %", "2 %"),
        (0.025, "3 %", "3 %"),  # half up, not to the even 2
        (0.637, "64 %", "64 %"),
        (0.985, "99 %", "99 %"),
        (0.99, "99 %", "99 %"),
        (0.9901, "over 99 %", "más del 99 %"),
        (0.995, "over 99 %", "más del 99 %"),
        (1.0, "over 99 %", "más del 99 %"),  # every ending made it, but it is not proven
    ],
)
def test_an_estimate_is_a_whole_percentage_never_0_or_100(share, english, spanish):
    with translation.override("en"):
        assert percent(share) == english
    with translation.override("es"):
        assert percent(share) == spanish


def test_the_levels_at_the_ends_are_under_1_and_over_99():
    assert (percent_level(0.0099), percent_level(0.01)) == (UNDER_1, 1)
    assert (percent_level(0.99), percent_level(0.9901)) == (99, OVER_99)


@given(st.floats(0, 1), st.floats(0, 1))
def test_a_larger_share_never_reads_lower(a, b):
    low, high = sorted((a, b))
    assert percent_level(low) <= percent_level(high)


def chance(share, if_win=None, if_loss=None, **more):
    """A stored chance (``outlook_json``) of a top 8, open unless ``more`` says."""
    plain = {"places": 8, "verdict": "open", "share": share, "if_win": if_win, "if_loss": if_loss}
    return plain | more


@pytest.mark.parametrize(
    ("stored", "english", "spanish"),
    [
        (
            chance(0.64, 0.97, 0.2),
            "Top 8: 64 % — a win next round makes it 97 %, a loss 20 %.",
            "Top 8: 64 % — una victoria en la próxima ronda lo deja en 97 %; una derrota, en 20 %.",
        ),
        (
            chance(0.64, 0.97),  # no loss figure (e.g. no ending lost)
            "Top 8: 64 % — a win next round makes it 97 %.",
            "Top 8: 64 % — una victoria en la próxima ronda lo deja en 97 %.",
        ),
        (
            chance(0.005, 0.012, 0.0),  # "0 % — a win makes it 1 %" before
            "Top 8: under 1 % — a win next round makes it 1 %.",
            "Top 8: menos del 1 % — una victoria en la próxima ronda lo deja en 1 %.",
        ),
        (
            chance(0.40, 0.38, 0.2),  # sampling noise: the win figure below the chance
            "Top 8: 40 % — a loss next round makes it 20 %.",
            "Top 8: 40 % — una derrota en la próxima ronda lo deja en 20 %.",
        ),
        (
            chance(0.40, 0.404, 0.41),  # a win reads the same, a loss the wrong way
            "Top 8: 40 %.",
            "Top 8: 40 %.",
        ),
        (
            chance(0.003, 0.004, 0.0),  # both under 1 %: a win changes nothing shown
            "Top 8: under 1 %.",
            "Top 8: menos del 1 %.",
        ),
        (
            chance(0.996, 1.0, 0.9),  # already over 99 %: a win cannot read higher
            "Top 8: over 99 % — a loss next round makes it 90 %.",
            "Top 8: más del 99 % — una derrota en la próxima ronda lo deja en 90 %.",
        ),
        (
            chance(0.8, 0.99, 0.5, if_win_verdict="in"),
            "Top 8: 80 % — a win next round makes it certain.",
            "Top 8: 80 % — una victoria en la próxima ronda lo asegura.",
        ),
        (
            chance(1.0, verdict="in"),
            "Top 8: in, whatever the other results (proven on match points).",
            None,
        ),
    ],
)
def test_the_players_sentence_says_only_what_the_next_round_changes_as_shown(
    stored, english, spanish
):
    with translation.override("en"):
        assert chance_view("top-cut", stored).sentence == english
    if spanish is not None:
        with translation.override("es"):
            assert chance_view("top-cut", stored).sentence == spanish


def test_the_standings_cell_of_a_tiny_open_chance_reads_under_1_percent():
    with translation.override("en"):
        view = chance_view("top-cut", chance(0.005, 0.012))
    assert (view.verdict, view.text) == ("open", "under 1 %")


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_a_win_is_named_only_above_the_chance_and_a_loss_only_below(share, win, loss):
    with translation.override("en"):
        sentence = chance_view("top-cut", chance(share, win, loss)).sentence
    assert ("a win next round makes it" in sentence) == (percent_level(win) > percent_level(share))
    assert ("loss" in sentence) == (percent_level(loss) < percent_level(share))
