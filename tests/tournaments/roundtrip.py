"""Helpers for the round-trip tests: play an event through the services round
by round, and read what an export → import must keep: the standings, the dashboard's next
step of every pairing group and the input the next pairing would receive.

Not a test module (no ``test_`` prefix); ``test_round_trips`` and ``test_event_at_any_round``
use it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from interchange.formats.event_json import parse_event_json
from interchange.formats.tdf import parse_tdf
from interchange.formats.tdf_event import tdf_event_data
from interchange.services.exports import event_export
from interchange.services.imports import event_import
from interchange.services.tdf_exports import event_tdf
from pairings.adapters import swiss_players_for_group
from pairings.procedures import event_group_keys, event_groups, next_step
from pairings.procedures.base import StepKind
from pairings.procedures.pods import pod_players
from pairings.procedures.top_cut import cut_players
from pairings.services import round_pair
from standings.services import standings_data
from tournaments import services
from tournaments.actors import Actor
from tournaments.errors import MatchslipError
from tournaments.groups import group_seeds
from tournaments.models import Event, Outcome, Phase, Registration, Structure
from tournaments.multiplayer import uses_pods
from tournaments.services import Result

ELIMINATION = (Phase.TOP_CUT, Phase.SINGLE_ELIMINATION)


def enter_results(rnd: Any, by: Actor, rng: random.Random) -> None:
    """Publish and start ``rnd``, then enter a result for every pending match as staff
    do: a random winner, sometimes a draw in Swiss where the ruleset has draws; a
    best-of-3 game record (2-0, 2-1, 1-1-1) on the rulesets that count games."""
    services.round_publish(round=rnd, by=by)
    services.round_start(round=rnd, by=by)
    event = rnd.event
    rules = event.rules
    elimination = rnd.phase in ELIMINATION
    for m in rnd.matches.filter(outcome=Outcome.PENDING).order_by("table", "pk"):
        seats = [s.registration for s in m.seats.order_by("seat")]
        if len(seats) < 2:
            continue
        if uses_pods(event):
            services.slip_enter(match=m, result=Result.of(winner=rng.choice(seats)), by=by)
            continue
        draw = rules.allows_ties and not elimination and rng.random() < 0.15
        if rules.game_record:
            w = rng.randrange(2)
            games = (1, 1, 1) if draw else rng.choice(((2, 0, 0), (2, 1, 0)))
            games = games if w == 0 or draw else (games[1], games[0], games[2])
            services.slip_enter(match=m, result=Result.of(games=games), by=by)
        elif draw:
            services.slip_enter(match=m, result=Result.draw(), by=by)
        else:
            services.slip_enter(match=m, result=Result.win(rng.choice(seats)), by=by)


def play_through(
    event: Event, by: Actor, rng: random.Random, checkpoint: Callable[[Event], None]
) -> int:
    """Pair and play ``event`` to its end, one pairing group's round at a time, the way
    staff follow the dashboard; ``checkpoint(event)`` runs before the first round and after
    every round. Returns the number of rounds played."""
    played = 0
    checkpoint(event)
    for _ in range(60):
        ready = [p for p in event_group_keys(event) if next_step(event, p).can_pair]
        if not ready:
            return played
        for rnd in round_pair(event=event, group=ready[0], by=by, seed=rng.randrange(1 << 30)):
            enter_results(rnd, by, rng)
            played += 1
        event.refresh_from_db()
        checkpoint(event)
    raise AssertionError("the event did not finish in 60 rounds")


def reimport(event: Event, cut: Callable[[dict[str, Any]], None] | None = None) -> Event:
    """``export_event`` → (``cut`` edits the document) → JSON text → ``import_event``."""
    doc = event_export(event)
    if cut is not None:
        cut(doc)
    return event_import(data=parse_event_json(json.loads(json.dumps(doc))), by=None)


def tdf_reimport(event: Event) -> Event:
    """``export_tdf`` → TOM file bytes → ``import_tdf`` (Pokémon events)."""
    text = event_tdf(event=event, standings=standings_data(event))
    return event_import(data=tdf_event_data(parse_tdf(text.encode("utf-8"))), by=None)


def _ext(event: Event) -> dict[str, str]:
    return {
        str(pk): ext
        for pk, ext in Registration.objects.filter(event=event).values_list("pk", "external_id")
    }


def _key(row: dict[str, Any]) -> tuple[Any, ...]:
    """What ranks a row: everything but the player and the place."""
    return (
        row["match_points"],
        row["record"],
        sorted(row["exact"].items()),
        row["dropped"],
        row["top_cut"],
        row["place"] is None,
    )


def standings_view(event: Event, *, exact_ties: bool = True) -> dict[str, Any]:
    """The Standings JSON without the event's own slug.

    Players tied on every tiebreaker are in the ruleset's random draw (I-6), which keeps
    its seed through the file and is drawn over the players' relative order
    (``standings.engine.draw``): an event JSON copy lists them in registration order and
    gives the very same standings. A TOM file has no place for the seeds, so with
    ``exact_ties=False`` each run of rows tied on every tiebreaker is compared as a set
    (in player order, with the run's first place)."""
    data = standings_data(event)
    out = {k: v for k, v in data.items() if k not in ("event", "divisions")}
    out["divisions"] = {}
    for code, rows in data["divisions"].items():
        if exact_ties:
            out["divisions"][code] = rows
            continue
        canonical: list[dict[str, Any]] = []
        k = 0
        while k < len(rows):
            end = k
            while end < len(rows) and _key(rows[end]) == _key(rows[k]):
                end += 1
            place = rows[k]["place"]
            run = rows[k:end]
            canonical += sorted(({**r, "place": place} for r in run), key=lambda r: r["player"])
            k = end
        out["divisions"][code] = canonical
    return out


def _rank_keys(event: Event) -> dict[str, tuple[Any, ...]]:
    return {
        r["player"]: _key(r) for rows in standings_data(event)["divisions"].values() for r in rows
    }


def next_steps(event: Event) -> list[tuple[str, str, int, str, list[str]]]:
    """The dashboard's next step of every pairing group: kind, round, message, divisions."""
    out = []
    for key in event_group_keys(event):
        step = next_step(event, key)
        out.append(
            (key, str(step.kind), step.number, step.message, [d.code for d in step.divisions])
        )
    return out


def pairing_input(event: Event) -> dict[str, Any]:
    """What the next pairing of every group that can pair would receive, by player ids of
    the file: Swiss players (points, opponents, bye, division), pod players (points,
    rank, opponents, smaller pods), top-cut players in seed order, bracket seeds."""
    ext = _ext(event)
    keys = _rank_keys(event)
    out: dict[str, Any] = {}
    for group in event_groups(event):
        key = group.key
        step = next_step(event, group)
        if not step.can_pair:
            continue
        if step.kind in (StepKind.SWISS, StepKind.DAY2) and uses_pods(event):
            out[key] = sorted(
                (
                    ext[p.id],
                    p.match_points,
                    p.rank,
                    sorted(ext[o] for o in p.opponents),
                    p.small_pods,
                )
                for p in pod_players(event, group)
            )
        elif step.kind in (StepKind.SWISS, StepKind.DAY2):
            phases = (
                (Phase.SWISS, Phase.SWISS_DAY2) if step.kind == StepKind.DAY2 else (Phase.SWISS,)
            )
            out[key] = sorted(
                (
                    ext[p.id],
                    p.match_points,
                    sorted(ext[o] for o in p.opponents),
                    p.had_bye,
                    p.division,
                )
                for p in swiss_players_for_group(event, group, phases)
            )
        elif step.kind == StepKind.TOP_CUT and not uses_pods(event):
            cut: dict[str, list[Any] | str] = {}
            for division in step.divisions:
                try:
                    # by rank: players tied on every tiebreaker may swap (standings_view)
                    cut[division.code] = [keys[r.external_id] for r in cut_players(event, division)]
                except MatchslipError as e:
                    cut[division.code] = str(e)
            out[key] = cut
        elif not uses_pods(event) and (
            event.structure == Structure.SINGLE_ELIMINATION or step.kind == StepKind.ELIMINATION
        ):
            # the bracket's stored seeds (P-SE-1, P-TC-1)
            out[key] = sorted((ext[str(k)], v) for k, v in group_seeds(group).items())
        else:
            out[key] = str(step.kind)
    return out


def view(event: Event, *, exact_ties: bool = True) -> dict[str, Any]:
    """Everything a round trip must keep (module docstring); ``exact_ties`` as
    :func:`standings_view`."""
    return {
        "standings": standings_view(event, exact_ties=exact_ties),
        "steps": next_steps(event),
        "pairing": pairing_input(event),
    }


def running(event: Event) -> bool:
    """Whether some pairing group still has a round to pair or results to enter."""
    return any(kind != StepKind.DONE for _, kind, *_ in next_steps(event))
