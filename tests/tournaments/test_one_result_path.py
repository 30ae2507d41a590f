"""One result path for head-to-head matches and pods: the same slip,
self-report, dispute and correction services take a format-neutral ``Result`` for both
and write the same audit rows; no separate pod result or report service comes back."""

from __future__ import annotations

import ast
from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from pairings.services import round_pair
from tests import factories
from tests.pod_factories import pod_event
from tournaments import services
from tournaments.errors import InvalidInput, ResultConflict
from tournaments.models import AuditEvent, Match, Outcome, SelfReport
from tournaments.services import Result
from tournaments.services.result_types import result_format, seats_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent


def started_pods(event, organiser):
    """Round 1 of a pod event paired (pods of 4, MP-POD-1) and started."""
    (rnd,) = round_pair(event=event, group="open", by=organiser, seed=3)
    services.round_publish(round=rnd, by=organiser)
    services.round_start(round=rnd, by=organiser)
    return rnd


@pytest.fixture(params=["head-to-head", "pod"])
def tables(request, organiser):
    """(format name, tables 1–3 of a started round 1): 6 players in pairs, or 12 in
    pods of 4 under ``mtg-multiplayer``."""
    if request.param == "pod":
        rnd = started_pods(pod_event(12, by=organiser, rounds=3), organiser)
    else:
        event = factories.event_with_players(6, by=organiser, swiss_rounds=3)
        rnd = factories.round_in_order(event, by=organiser)
    return request.param, list(rnd.matches.order_by("table"))


def players(match):
    return [s.registration for s in seats_of(match)]


def actions(match) -> list[str]:
    rows = AuditEvent.objects.filter(object_type="match", object_id=str(match.pk))
    return list(rows.order_by("pk").values_list("action", flat=True))


def test_the_format_is_chosen_from_the_seats(tables):
    name, (t1, _, _) = tables
    assert result_format(seats_of(t1)).name == name


def test_one_slip_service_enters_and_corrects_both_formats(tables, organiser):
    _, (t1, _, _) = tables
    a = players(t1)
    m = services.slip_enter(match=t1, result=Result.win(a[0]), version=0, by=organiser)
    assert (m.outcome, m.winner_id, m.version) == (Outcome.WIN, a[0].pk, 1)
    services.slip_enter(match=t1, result=Result.win(a[0]), version=0, by=organiser)  # resent
    with pytest.raises(ResultConflict, match="just recorded as"):
        services.slip_enter(match=t1, result=Result.win(a[1]), version=0, by=organiser)
    with pytest.raises(InvalidInput):
        services.slip_enter(match=t1, result=Result.of("bye"), by=organiser)
    correction = services.result_correct(
        match=t1, result=Result.win(a[1]), version=1, reason="slip misread", by=organiser
    )
    assert isinstance(correction, services.Correction)
    assert (correction.match.winner_id, correction.match.version) == (a[1].pk, 2)
    assert actions(t1) == ["result.enter", "result.correct"]
    fixed = AuditEvent.objects.get(action="result.correct", object_id=str(t1.pk))
    assert fixed.reason == "slip misread" and fixed.old != fixed.new


def test_one_report_service_records_what_every_player_reported(tables):
    _, (_, t2, _) = tables
    a = players(t2)
    states = [services.report_submit(match=t2, registration=r, result=Result.win(a[-1])) for r in a]
    assert states == ["waiting"] * (len(a) - 1) + ["recorded"]
    t2.refresh_from_db()
    assert (t2.outcome, t2.winner_id) == (Outcome.WIN, a[-1].pk)
    assert actions(t2) == ["report.submit"] * len(a) + ["result.enter"]
    entered = AuditEvent.objects.get(action="result.enter", object_id=str(t2.pk))
    assert entered.actor_registration_id == a[-1].pk and entered.actor_id is None


def test_one_dispute_service_decides_both_formats_and_logs_the_override(tables, organiser):
    _, (_, _, t3) = tables
    a = players(t3)
    services.report_submit(match=t3, registration=a[0], result=Result.win(a[0]))
    state = services.report_submit(match=t3, registration=a[1], result=Result.win(a[1]))
    assert state == "disputed"
    with pytest.raises(InvalidInput, match="reason"):
        services.dispute_resolve(match=t3, result=Result.win(a[1]), reason=" ", by=organiser)
    m = services.dispute_resolve(
        match=t3, result=Result.win(a[1]), reason="judge saw it", by=organiser
    )
    assert m.winner_id == a[1].pk
    assert actions(t3) == [
        "report.submit",
        "report.submit",
        "report.dispute",
        "result.enter",
        "report.override",
    ]
    assert AuditEvent.objects.get(action="report.override").reason == "judge saw it"


def test_the_result_services_take_a_result_not_its_parts(tables, organiser):
    """One shape in: a ``Result``; its parts as keywords are a programming error."""
    _, (t1, _, _) = tables
    a = players(t1)
    with pytest.raises(TypeError, match="winner"):
        services.slip_enter(match=t1, result=Result.win(a[0]), winner=a[0], by=organiser)
    for service in (services.slip_enter, services.dispute_resolve, services.result_correct):
        with pytest.raises(TypeError, match="outcome"):
            service(match=t1, outcome="win", winner=a[0], reason="x", by=organiser)
    with pytest.raises(TypeError, match="games"):
        services.report_submit(match=t1, registration=a[0], games=(2, 0, 0))
    t1.refresh_from_db()
    assert t1.outcome == Outcome.PENDING


def test_a_pod_draw_names_who_conceded_and_a_match_has_no_concession(organiser):
    event = pod_event(8, by=organiser)
    pod = started_pods(event, organiser).matches.get(table=1)
    a = players(pod)
    m = services.slip_enter(match=pod, result=Result.draw(conceded=[a[2].pk]), by=organiser)
    assert m.outcome == Outcome.DRAW
    assert [s.conceded for s in seats_of(m)] == [False, False, True, False]
    match = factories.started_round(4, username="org2")[1].matches.get(table=1)
    b = players(match)
    with pytest.raises(InvalidInput, match="pod"):
        services.slip_enter(match=match, result=Result.draw(conceded=[b[0].pk]), by=organiser)


# Pod result and report services were once a second stack; these names must not return.
RETIRED = {
    "pod_slip_enter",
    "pod_result_correct",
    "pod_report_submit",
    "pod_report_accept",
    "pod_dispute_resolve",
}


def _sources() -> list[Path]:
    skip = {".venv", "node_modules", ".git"}
    return [
        p
        for p in ROOT.rglob("*.py")
        if not skip & set(p.relative_to(ROOT).parts) and p.name != Path(__file__).name
    ]


def test_no_pod_result_or_report_service_module_comes_back():
    services_dir = ROOT / "tournaments" / "services"
    modules = {p.stem for p in services_dir.glob("*.py")}
    assert not {m for m in modules if m.startswith("pod_") and ("result" in m or "report" in m)}
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in RETIRED:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} defines {node.name}")
            if isinstance(node, ast.ImportFrom):
                target = node.module or ""
                names = {alias.name for alias in node.names}
                if "pod_results" in target or "pod_reports" in target or names & RETIRED:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {target}")
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if "pod_results" in alias.name or "pod_reports" in alias.name:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name}")
    assert found == []


# --- one staff slip URL and one player report URL for every format ----

HX = {"HX-Request": "true"}


def slip_url(match):
    return reverse("staff:match_result", args=[match.round.event.slug, match.pk])


def report_url(reg):
    return reverse("public:player_report", args=[reg.event.slug, reg.report_token])


def best_of_3(organiser):
    """Table 1 of a started round 1 of a four-player Magic event (M-MATCH-1)."""
    event = factories.event_with_players(4, by=organiser, ruleset="mtg", name="Bo3 Cup")
    return factories.round_in_order(event, by=organiser).matches.get(table=1)


def test_one_staff_url_enters_a_match_a_game_score_and_a_pod(client, organiser):
    client.force_login(organiser)
    event = factories.event_with_players(4, by=organiser, name="Match Cup")
    match = factories.round_in_order(event, by=organiser).matches.get(table=1)
    a = players(match)
    answer = client.post(slip_url(match), {"result": "p2", "version": 0}, headers=HX)
    assert answer.status_code == 200 and f'id="match-{match.pk}"' in answer.text
    assert Match.objects.get(pk=match.pk).winner_id == a[1].pk

    bo3 = best_of_3(organiser)
    b = players(bo3)
    refused = client.post(slip_url(bo3), {"version": 0, "wins_1": 3, "wins_2": 0}, headers=HX)
    assert refused.status_code == 422 and "nobody wins more than 2 games" in refused.text
    entered = client.post(slip_url(bo3), {"version": 0, "score": "2-1-0"}, headers=HX)
    assert entered.status_code == 200
    bo3 = Match.objects.get(pk=bo3.pk)
    assert (bo3.winner_id, bo3.games) == (b[0].pk, [2, 1, 0])

    pod = started_pods(pod_event(8, by=organiser, name="Pod Night"), organiser).matches.get(table=1)
    c = players(pod)
    page = client.get(reverse("staff:round", args=[pod.round.event.slug, pod.round_id])).text
    assert f'hx-post="{slip_url(pod)}"' in page
    refused = client.post(slip_url(pod), {"winner": "nobody", "version": 0}, headers=HX)
    assert refused.status_code == 422 and "Choose a winner or Draw." in refused.text
    data = {"winner": "draw", "conceded": [c[3].pk], "version": 0}
    assert client.post(slip_url(pod), data, headers=HX).status_code == 200
    pod = Match.objects.get(pk=pod.pk)
    assert pod.outcome == Outcome.DRAW
    assert [s.conceded for s in seats_of(pod)] == [False, False, False, True]


def test_one_player_url_reports_a_match_and_a_pod(client, organiser):
    match = factories.started_round(4, username="org-rep")[1].matches.get(table=1)
    a = players(match)
    answer = client.post(report_url(a[0]), {"match": match.pk, "result": "me"}, headers=HX)
    assert answer.status_code == 200 and "Your opponent now reports" in answer.text
    assert SelfReport.objects.get(registration=a[0]).winner_id == a[0].pk

    pod = started_pods(pod_event(8, by=organiser), organiser).matches.get(table=1)
    c = players(pod)
    page = client.get(reverse("public:player", args=[pod.round.event.slug, c[1].report_token]))
    assert f'hx-post="{report_url(c[1])}"' in page.text
    data = {"match": pod.pk, "winner": "draw", "conceded": "1"}
    answer = client.post(report_url(c[1]), data, headers=HX)
    assert answer.status_code == 200 and "The other players of your pod report" in answer.text
    mine = SelfReport.objects.get(registration=c[1])
    assert (mine.outcome, mine.winner_id) == (Outcome.DRAW, None)
    assert pod.seats.get(registration=c[1]).conceded
    refused = client.post(report_url(c[2]), {"match": pod.pk, "winner": "nobody"}, headers=HX)
    assert refused.status_code == 422 and "Choose the pod's winner, or Draw." in unescape(
        refused.text
    )
    assert not SelfReport.objects.filter(registration=c[2]).exists()
    # the player's own table only: a pod they do not sit at is not found
    assert client.post(report_url(a[0]), {"match": pod.pk, "winner": "draw"}).status_code == 404


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("staff:pod_result", ["cup", 1]),
        ("staff:match_games", ["cup", 1]),
        ("public:player_pod_report", ["cup", "token"]),
    ],
)
def test_the_per_format_urls_are_gone(name, args):
    with pytest.raises(NoReverseMatch):
        reverse(name, args=args)


def test_a_spanish_player_reads_the_report_notice_and_refusal_in_spanish(organiser):
    match = factories.started_round(4, username="org-es")[1].matches.get(table=1)
    a = players(match)
    client = Client()
    client.cookies["django_language"] = "es"
    answer = client.post(report_url(a[0]), {"match": match.pk, "result": "me"}, headers=HX)
    assert answer.status_code == 200
    assert "¡Gracias! Ahora comunica tu rival" in answer.text
    assert "Your opponent now reports" not in answer.text
    refused = client.post(report_url(a[1]), {"match": match.pk, "result": "7"}, headers=HX)
    assert refused.status_code == 422
    assert "Elige uno de los botones de resultado." in refused.text
    assert not SelfReport.objects.filter(registration=a[1]).exists()
    # without JavaScript, the notice comes back as a message on the page, in Spanish too
    page = client.post(report_url(a[1]), {"match": match.pk, "result": "me"}, follow=True)
    assert "Tu rival comunicó otro resultado. Un juez irá a tu mesa." in page.text


def test_a_complete_round_keeps_each_formats_slip_rule_at_the_one_url(client, organiser):
    """P-POST-4 at the round page: a match slip may be resent unchanged (a double
    submit) but not changed; a pod of a complete round is final."""
    client.force_login(organiser)
    event = factories.event_with_players(4, by=organiser, name="Done Cup")
    rnd = factories.round_in_order(event, by=organiser)
    t1, t2 = rnd.matches.order_by("table")
    for m in (t1, t2):
        assert (
            client.post(slip_url(m), {"result": "p1", "version": 0}, headers=HX).status_code == 200
        )
    rnd.refresh_from_db()
    assert rnd.status == "complete"
    again = client.post(slip_url(t1), {"result": "p1", "version": 0}, headers=HX)
    assert again.status_code == 200
    changed = client.post(slip_url(t1), {"result": "p2", "version": 1}, headers=HX)
    assert changed.status_code == 422 and "a judge corrects its results" in changed.text
    assert Match.objects.get(pk=t1.pk).winner_id == players(t1)[0].pk

    pods = started_pods(pod_event(8, by=organiser, name="Pod Done"), organiser)
    for pod in pods.matches.order_by("table"):
        winner = str(players(pod)[0].pk)
        assert client.post(slip_url(pod), {"winner": winner, "version": 0}).status_code == 302
    pod = pods.matches.get(table=1)
    final = client.post(
        slip_url(pod), {"winner": str(players(pod)[0].pk), "version": 1}, headers=HX
    )
    assert final.status_code == 422 and "its pods are final" in final.text
