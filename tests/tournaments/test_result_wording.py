"""How a best-of-3 result reads (M-MATCH-1), in English and Spanish: the winner's games
first wherever a result is worded (the player's page, the staff round and corrections
pages, the judges' messages), a drawn match as recorded, files unchanged (seat order);
a player's report line is one whole sentence per subject ("You reported: …" /
"Comunicaste: …"); result buttons that start with a word start with a capital."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from interchange.services.exports import event_export
from tests.tournaments.test_game_slips import bo3_round, table
from tournaments import services
from tournaments.models import Match, Round, RoundStatus
from tournaments.selectors.rounds import result_games, round_for_staff
from tournaments.services import Result
from tournaments.templatetags.matchslip import quick_score_label, quick_scores

pytestmark = pytest.mark.django_db
ES = {"HTTP_ACCEPT_LANGUAGE": "es"}


def _named(regs, *names):
    for reg, name in zip(regs, names, strict=False):
        reg.player.name = name
        reg.player.save(update_fields=["name"])


def _player_page(client, reg, **headers) -> str:
    url = reverse("public:player", args=[reg.event.slug, reg.report_token])
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


def _report(client, reg, match, score, **headers):
    url = reverse("public:player_report", args=[reg.event.slug, reg.report_token])
    return client.post(url, {"match": match.pk, "score": score}, **headers)


@pytest.mark.parametrize(
    ("games", "winner_seat", "text"),
    [
        ((1, 2, 0), 1, "2-1-0"),
        ((0, 2, 0), 1, "2-0-0"),
        ((2, 1, 0), 0, "2-1-0"),
        ((1, 0, 2), 0, "1-0-2"),
        ((1, 1, 1), None, "1-1-1"),
        ((0, 0, 3), None, "0-0-3"),
        (None, None, ""),
    ],
)
def test_a_game_record_is_worded_with_the_winners_games_first(games, winner_seat, text):
    assert result_games(games, winner_seat) == text


def test_the_second_seat_winners_score_reads_as_a_win_on_every_page(client):
    """Alice (second seat) reports "You 2-1", Kofi agrees: the result reads "Alice Moreno
    wins 2-1-0" on both phones, the round page and the corrections page, in English and
    Spanish; the match keeps its games in seat order (files unchanged)."""
    ev, rnd, regs, org = bo3_round()
    _named(regs, "Kofi Mensah", "Alice Moreno")
    kofi, alice = regs[0], regs[1]
    m = table(rnd, 1)
    _report(client, alice, m, "2-1-0")
    _report(client, kofi, m, "1-2-0")
    m = Match.objects.get(pk=m.pk)
    assert (m.winner_id, m.games) == (alice.pk, [1, 2, 0])  # stored in seat order
    for reg in (alice, kofi):
        body = _player_page(client, reg)
        assert "Result: <strong data-recorded>Alice Moreno wins 2-1-0</strong>" in body
        spanish = _player_page(client, reg, **ES)
        assert "Resultado: <strong data-recorded>Gana Alice Moreno 2-1-0</strong>" in spanish
    client.force_login(org)
    row = '<span class="result" data-recorded>Alice Moreno wins 2-1-0</span>'
    assert row in client.get(reverse("staff:round", args=[ev.slug, rnd.pk])).content.decode()
    es_row = '<span class="result" data-recorded>Gana Alice Moreno 2-1-0</span>'
    staff_es = client.get(reverse("staff:round", args=[ev.slug, rnd.pk]), **ES).content.decode()
    assert es_row in staff_es
    with translation.override("en"):
        assert services.match_result_text(m) == "Alice Moreno wins 2-1-0"
    with translation.override("es"):
        assert services.match_result_text(m) == "Gana Alice Moreno 2-1-0"


def test_a_correction_to_a_second_seat_win_reads_with_the_winners_games_first(client):
    ev, rnd, regs, org = bo3_round()
    _named(regs, "Kofi Mensah", "Alice Moreno")
    for n in (1, 2):
        services.slip_enter(match=table(rnd, n), result=Result.of(games=(2, 0, 0)), by=org)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.COMPLETE
    client.force_login(org)
    url = reverse("staff:result_correct", args=[ev.slug, table(rnd, 1).pk])
    data = {"version": table(rnd, 1).version, "wins_1": 0, "wins_2": 2, "draws": 0}
    done = client.post(url, {**data, "reason": "slip misread"}, follow=True).content.decode()
    assert "Round 1 table 1 is now: Alice Moreno wins 2-0-0." in done
    corrections = client.get(reverse("staff:corrections", args=[ev.slug])).content.decode()
    assert '<span class="result">Alice Moreno wins 2-0-0</span>' in corrections


def test_a_drawn_match_reads_as_recorded():
    ev, rnd, regs, org = bo3_round()
    services.slip_enter(match=table(rnd, 1), result=Result.of(games=(1, 1, 1)), by=org)
    services.slip_enter(match=table(rnd, 2), result=Result.of(games=(0, 0, 3)), by=org)
    with translation.override("en"):
        texts = [m.result_text for m in round_for_staff(rnd).matches]
        assert texts == ["Draw 1-1-1", "Draw 0-0-3"]
        assert services.match_result_text(table(rnd, 1)) == "draw 1-1-1"
    with translation.override("es"):
        texts = [m.result_text for m in round_for_staff(rnd).matches]
        assert texts == ["Empate 1-1-1", "Empate 0-0-3"]


def test_the_event_file_keeps_the_games_in_seat_order():
    ev, rnd, regs, org = bo3_round()
    services.slip_enter(match=table(rnd, 1), result=Result.of(games=(1, 2, 0)), by=org)
    data = event_export(ev)
    first = next(m for m in data["rounds"][0]["matches"] if m["table"] == 1)
    assert first["games"] == [1, 2, 0] and first["result"] == regs[1].external_id


def test_each_report_line_is_a_whole_sentence_in_english_and_spanish(client):
    """ "You reported: …" / "Comunicaste: …" for the player's own report, "<name>
    reported: …" / "<name> comunicó: …" for the opponent's; never "Tú comunicó"."""
    ev, rnd, regs, org = bo3_round()
    _named(regs, "Kofi Mensah", "Alice Moreno")
    kofi, alice = regs[0], regs[1]
    _report(client, kofi, table(rnd, 1), "2-0-0")
    mine = _player_page(client, kofi)
    assert "You reported: <strong>you win 2-0-0</strong>" in mine
    mine_es = _player_page(client, kofi, **ES)
    assert "Comunicaste: <strong>ganas 2-0-0</strong>" in mine_es
    assert "Tú comunicó" not in mine_es
    theirs = _player_page(client, alice)
    assert "Kofi Mensah reported: <strong>Kofi Mensah wins 2-0-0, you lose</strong>" in theirs
    theirs_es = _player_page(client, alice, **ES)
    assert "Kofi Mensah comunicó: <strong>gana Kofi Mensah 2-0-0, pierdes</strong>" in theirs_es


def test_result_buttons_start_with_a_capital_in_spanish():
    with translation.override("es"):
        draw = translation.gettext("Draw")
        assert quick_score_label("0-0-3", "Tú", "Kofi", "Draw") == "Empate intencionado 0-0-3"
        assert quick_score_label("1-1-1", "Tú", "Kofi", "Draw") == "Empate 1-1-1"
        labels = [label for _value, label in quick_scores("Tú", "Kofi", draw)]
        assert all(label[0].isupper() for label in labels), labels
    with translation.override("en"):
        assert quick_score_label("0-0-3", "You", "Kofi", "Draw") == "Intentional draw 0-0-3"
        assert quick_score_label("1-2-0", "You", "Kofi", "Draw") == "Kofi 2-1"


def test_the_spanish_player_report_form_offers_capitalised_buttons(client):
    ev, rnd, regs, org = bo3_round()
    body = _player_page(client, regs[0], **ES)
    assert (
        '<button type="submit" name="score" value="0-0-3">Empate intencionado 0-0-3</button>'
        in body
    )
    assert '<button type="submit" name="score" value="1-1-1">Empate 1-1-1</button>' in body
    assert "empate intencionado" not in body
